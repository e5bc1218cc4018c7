/* Cannibal scene (C3S) writer: the whole model as one SMDL of one scene (the reader is c3s.c and
 * c3s_build.c; readings of the spec are docs/FORMATS.md, D9).
 *
 * Every render vertex of every submesh is one VRTX and, when its submesh has UVs, one TVRT
 * (so reading back splits nothing); every triangle is one TRIF with three EDGEs of its own,
 * its ring clockwise from the front (the model's triangles are counter-clockwise). Each
 * material is a MATR, each distinct texture file a TXTR. Hidden meshes become hidden trifaces
 * and two-sided submeshes two-sided ones.
 *
 * Bone-weighted (the default): every bone is a BONE whose base OCS is its rest pose; every
 * influence a VRTX weight whose offsetPos is the bind vertex taken into the bone's space by its
 * inverse bind (a model with per-influence points, C3S or SKM, gives each weight its own point,
 * influence_points / weight, so the sum of D9 reads back the same). Vertices without
 * influences keep their place through a vertex group "static" and one frame. Each clip is an
 * ASEQ sampled as a cycle (OSSA_WRAP_LOOP) at the frame rate: n = round(duration x rate) keys at
 * k x duration / n (playRate n / duration, so the duration is kept), each with a key for every
 * bone the clip animates (animOCS = base^-1 x pose).
 *
 * Vertex frames (opt->vertex_frames): no bones; one vertex group per submesh whose first frame
 * holds the bind positions, then one frame per group per key of every clip, skinned (or, for a
 * submesh the clip plays from frames, lerped) at the key's time.
 *
 * UVs: one TVRT per vertex of a textured submesh (first UV set), one group per such submesh
 * whose first frame is its UVs; a clip with uv tracks also gets one frame per group per key.
 * Triggers, linked clips, sequence groups and surface mounts are written as they are. All
 * meshes become one SMDL (reading back gives one mesh, plus one for hidden faces). The file is
 * built in memory; a failed write leaves no file.
 *
 * Parts loaded without their skeleton keep file bone ids: keys or weights on bones the model
 * lacks are refused (the frame form writes such a mesh at its bind pose, as nothing poses it); a
 * material index the model has no material for (a lone CMF's) is written as none. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/c3s/c3s_write.h"
#include "ossa/write.h"
#include "core/quat.h"
#include "io/out_file.h"
#include "io/write_buf.h"
#include "ossa/limits.h"

/* ---- the plan: where every element lands ---- */

static uint32_t sub_index(const c3s_writer *w, uint32_t mesh, uint32_t submesh)
{
    uint32_t at = 0;
    for (uint32_t i = 0; i < mesh; i++)
        at += w->m->meshes[i].submesh_count;
    return at + submesh;
}

/* An influence's own point is written as point / weight (C3S sums weight x offset): a weight
 * near zero under a point away from the origin has no offset a float holds. */
static bool point_fits(const ossa_submesh *sm, uint32_t k)
{
    float weight = sm->influences[k].weight;
    if (!sm->influence_points || weight == 0.0f)
        return true;
    for (int c = 0; c < 3; c++)
        if (!(fabs((double)sm->influence_points[3 * (size_t)k + c] / weight) <= OSSA_MAX_COORD))
            return false;
    return true;
}

static ossa_status plan(c3s_writer *w)
{
    const ossa_model *m = w->m;
    uint32_t subs = 0, largest = 1;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        subs += m->meshes[i].submesh_count;
    w->submesh_total = subs;
    size_t n = subs ? subs : 1;
    w->vertex_base = calloc(n, sizeof *w->vertex_base);
    w->tex_base = calloc(n, sizeof *w->tex_base);
    w->face_base = calloc(n, sizeof *w->face_base);
    w->keys = calloc(m->clip_count ? m->clip_count : 1, sizeof *w->keys);
    if (!w->vertex_base || !w->tex_base || !w->face_base || !w->keys)
        return ossa_write_fail(w->err, OSSA_ERR_NOMEM, w->path, "out of memory");
    uint64_t vertices = 0, texverts = 0, faces = 0;
    uint32_t s = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++, s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            w->vertex_base[s] = (uint32_t)vertices;
            w->tex_base[s] = (uint32_t)texverts;
            w->face_base[s] = (uint32_t)faces;
            vertices += sm->vertex_count;
            texverts += sm->uv_set_count ? sm->vertex_count : 0;
            w->textured += sm->uv_set_count != 0;
            faces += sm->face_count;
            largest = sm->vertex_count > largest ? sm->vertex_count : largest;
            for (uint32_t v = 0; v < sm->vertex_count && !w->frames; v++)
                w->unweighted += sm->influence_start[v + 1] == sm->influence_start[v];
            if (!w->frames)
                for (uint32_t k = 0; k < sm->influence_start[sm->vertex_count]; k++) {
                    if (sm->influences[k].bone >= m->bone_count)
                        return ossa_write_fail(w->err, OSSA_ERR_UNSUPPORTED, w->path,
                                    "mesh '%s' uses bone %u but the model has %u bones (load "
                                    "the skeleton with it)", m->meshes[i].name,
                                    sm->influences[k].bone, m->bone_count);
                    if (!point_fits(sm, k))
                        return ossa_write_fail(w->err, OSSA_ERR_UNSUPPORTED, w->path,
                                    "mesh '%s' influence %u: its point over its weight %g goes "
                                    "beyond %g, which a C3S weight's offset cannot hold",
                                    m->meshes[i].name, k, (double)sm->influences[k].weight,
                                    (double)OSSA_MAX_COORD);
                }
        }
    if (vertices > 0x0FFFFFFFu || faces > 0x0FFFFFFFu / 3)
        return ossa_write_fail(w->err, OSSA_ERR_UNSUPPORTED, w->path, "too many vertices or faces for C3S");
    w->vertex_total = (uint32_t)vertices;
    w->tex_total = (uint32_t)texverts;
    w->face_total = (uint32_t)faces;

    /* One TXTR per distinct texture file. */
    for (uint32_t i = 0; i < m->material_count; i++)
        w->map_total += m->materials[i].map_count;
    w->texture_of_map = calloc(w->map_total ? w->map_total : 1, sizeof *w->texture_of_map);
    if (!w->texture_of_map)
        return ossa_write_fail(w->err, OSSA_ERR_NOMEM, w->path, "out of memory");
    uint32_t at = 0;
    for (uint32_t i = 0; i < m->material_count; i++)
        for (uint32_t k = 0; k < m->materials[i].map_count; k++, at++) {
            const char *file = m->materials[i].maps[k].file ? m->materials[i].maps[k].file : "";
            uint32_t found = 0, scan = 0;
            for (uint32_t a = 0; a < i && !found; a++)
                for (uint32_t b = 0; b < m->materials[a].map_count && !found; b++, scan++) {
                    const char *other = m->materials[a].maps[b].file;
                    if (strcmp(other ? other : "", file) == 0)
                        found = w->texture_of_map[scan];
                }
            for (uint32_t b = 0; b < k && !found; b++) {
                const char *other = m->materials[i].maps[b].file;
                if (strcmp(other ? other : "", file) == 0)
                    found = w->texture_of_map[at - k + b];
            }
            w->texture_of_map[at] = found ? found : ++w->texture_count;
        }

    for (uint32_t c = 0; c < m->clip_count; c++) {
        const ossa_clip *clip = &m->clips[c];
        double keys = floor((double)clip->duration * w->rate + 0.5);
        if (keys < 1.0)
            keys = 1.0;
        if (keys > 1e6)
            return ossa_write_fail(w->err, OSSA_ERR_UNSUPPORTED, w->path,
                        "clip '%s' would need %.0f key frames", clip->name, keys);
        w->keys[c] = (uint32_t)keys;
        /* A clip loaded without its skeleton keeps its file's bone ids: C3S keys name bones. */
        for (uint32_t t = 0; t < clip->track_count; t++)
            if (clip->tracks[t].bone >= m->bone_count)
                return ossa_write_fail(w->err, OSSA_ERR_UNSUPPORTED, w->path,
                            "clip '%s' animates bone %u but the model has %u bones (load the "
                            "skeleton with it)", clip->name, clip->tracks[t].bone, m->bone_count);
        if (!w->frames && clip->vertex_track_count)
            return ossa_write_fail(w->err, OSSA_ERR_UNSUPPORTED, w->path,
                        "clip '%s' plays vertex frames: write it with vertex_frames", clip->name);
    }
    size_t nb = m->bone_count ? m->bone_count : 1;
    w->pose_block = malloc(nb * OSSA_REFERENCE_POSE_FLOATS * sizeof(float));
    w->pose = ossa_reference_pose_in(w->pose_block, (uint32_t)nb);
    w->positions = malloc((size_t)largest * 3 * sizeof(float));
    w->normals = malloc((size_t)largest * 3 * sizeof(float));
    if (!w->pose_block || !w->positions || !w->normals)
        return ossa_write_fail(w->err, OSSA_ERR_NOMEM, w->path, "out of memory");
    return OSSA_OK;
}

/* ---- subchunks ---- */

static void put_textures_and_materials(c3s_writer *w)
{
    const ossa_model *m = w->m;
    ossa_wbuf *o = &w->o;
    uint32_t written = 0, at = 0;
    for (uint32_t i = 0; i < m->material_count; i++)
        for (uint32_t k = 0; k < m->materials[i].map_count; k++, at++) {
            if (w->texture_of_map[at] <= written)
                continue;
            size_t c = begin_sub(o, "TXTR", "", 0);
            put_cdw(o, 0); /* size unknown */
            put_cdw(o, 0);
            put_stringz(o, m->materials[i].maps[k].file);
            end_chunk(o, c);
            written++;
        }
    at = 0;
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ossa_material *mt = &m->materials[i];
        size_t c = begin_sub(o, "MATR", mt->name, 0);
        float transparency = 1.0f - mt->diffuse[3];
        ossa_wbuf_f32(o, transparency < 0.0f ? 0.0f : transparency > 1.0f ? 1.0f : transparency);
        put_cdw(o, mt->map_count);
        for (uint32_t k = 0; k < mt->map_count; k++)
            put_cdw(o, w->texture_of_map[at++]);
        put_cdw(o, 0); /* sounds */
        end_chunk(o, c);
    }
}

static void put_vertices(c3s_writer *w)
{
    const ossa_model *m = w->m;
    ossa_wbuf *o = &w->o;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            for (uint32_t v = 0; v < sm->vertex_count; v++) {
                size_t c = begin_sub(o, "VRTX", "", 0);
                ossa_wbuf_f32(o, 0.0f); /* lodDeathLevel: always active */
                put_cdw(o, 0);    /* edge links */
                put_cdw(o, 0);    /* triface links */
                uint32_t a = sm->influence_start[v], e = sm->influence_start[v + 1];
                put_cdw(o, w->frames ? 0 : e - a);
                for (uint32_t k = a; k < e && !w->frames; k++) {
                    const ossa_influence *in = &sm->influences[k];
                    const ossa_bone *bn = &m->bones[in->bone];
                    /* The point this weight implies: its own (influence_points / weight) where
                     * the model keeps one, else the bind vertex. */
                    float point[3], offset[3];
                    memcpy(point, sm->positions + 3 * (size_t)v, sizeof point);
                    if (sm->influence_points && in->weight != 0.0f)
                        for (int c2 = 0; c2 < 3; c2++)
                            point[c2] = sm->influence_points[3 * (size_t)k + c2] / in->weight;
                    ossa_quat_rotate(bn->inv_bind_r, point, offset);
                    for (int c2 = 0; c2 < 3; c2++)
                        offset[c2] += bn->inv_bind_t[c2];
                    ossa_wbuf_f32(o, in->weight);
                    ossa_wbuf_f32v(o, offset, 3);
                    put_cdw(o, in->bone + 1);
                }
                end_chunk(o, c);
            }
        }
}
static void put_faces(c3s_writer *w)
{
    const ossa_model *m = w->m;
    ossa_wbuf *o = &w->o;
    /* EDGEs: three per triangle, edge i from ring vertex i (tail) to ring vertex i + 1. */
    uint32_t s = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++, s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            for (uint32_t f = 0; f < sm->face_count; f++) {
                const uint32_t *t = sm->indices + 3 * (size_t)f;
                uint32_t ring[3] = {t[0], t[2], t[1]}; /* clockwise */
                for (int e = 0; e < 3; e++) {
                    size_t c = begin_sub(o, "EDGE", "", 0);
                    ossa_wbuf_f32(o, 0.0f);
                    put_cdw(o, w->vertex_base[s] + ring[(e + 1) % 3] + 1); /* head */
                    put_cdw(o, w->vertex_base[s] + ring[e] + 1);           /* tail */
                    put_cdw(o, 0);
                    put_cdw(o, 0);
                    end_chunk(o, c);
                }
            }
        }
    s = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++, s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            uint32_t flags = (m->meshes[i].flags & OSSA_MESH_HIDDEN ? C3S_TFF_HIDDEN : 0) |
                             (sm->flags & OSSA_SUBMESH_TWO_SIDED ? C3S_TFF_TWOSIDED : 0);
            for (uint32_t f = 0; f < sm->face_count; f++) {
                const uint32_t *t = sm->indices + 3 * (size_t)f;
                uint32_t ring[3] = {t[0], t[2], t[1]};
                uint32_t edge = 3 * (w->face_base[s] + f);
                size_t c = begin_sub(o, "TRIF", "", flags);
                ossa_wbuf_f32(o, 0.0f);
                /* A mesh loaded without its materials keeps their indices: none here. */
                bool has = sm->material >= 0 && (uint32_t)sm->material < m->material_count;
                put_cdw(o, has ? (uint32_t)sm->material + 1 : 0);
                for (uint32_t e = 0; e < 3; e++)
                    put_cdw(o, edge + e + 1);
                for (int e = 0; e < 3; e++)
                    put_cdw(o, sm->uv_set_count ? w->tex_base[s] + ring[e] + 1 : 0);
                put_cdw(o, 0); /* LOD ranges */
                end_chunk(o, c);
            }
        }
}

/* One frame (TFRM) of a textured submesh's first UV set. */
static void put_mounts(c3s_writer *w)
{
    const ossa_model *m = w->m;
    ossa_wbuf *o = &w->o;
    for (uint32_t i = 0; i < m->mount_count; i++) {
        const ossa_mount *mt = &m->mounts[i];
        float q[4];
        memcpy(q, mt->offset_r, sizeof q);
        ossa_quat_normalize(q);
        size_t c = begin_sub(o, "SMNT", mt->name, 0);
        put_ocs(o, mt->offset_s, q, mt->offset_t);
        put_cdw(o, w->face_base[sub_index(w, mt->mesh, mt->submesh)] + mt->face + 1);
        /* The ring is the model's triangle turned (V0, V2, V1). */
        const float bary[3] = {mt->barycentric[0], mt->barycentric[2], mt->barycentric[1]};
        ossa_wbuf_f32v(o, bary, 3);
        end_chunk(o, c);
    }
}

static ossa_status build_file(c3s_writer *w)
{
    const ossa_model *m = w->m;
    ossa_wbuf *o = &w->o;
    OSSA_TRY(plan(w));
    ossa_wbuf_put(o, "RIFF", 4);
    ossa_wbuf_u32(o, 0);
    ossa_wbuf_put(o, "C3SB", 4);
    size_t c = begin_chunk(o, "SHDR");
    ossa_wbuf_u32(o, 0x10000u);
    const char *name = m->mesh_count && m->meshes[0].name ? m->meshes[0].name : "model";
    put_stringz(o, name);
    put_stringz(o, "Ossa");
    put_stringz(o, "");
    end_chunk(o, c);

    size_t model = begin_chunk(o, "SMDL");
    ossa_wbuf_u32(o, 0x10000u);
    put_stringz(o, name);
    if ((strlen(name) + 1) & 1u)
        ossa_wbuf_put(o, "", 1);
    put_textures_and_materials(w);
    put_vertices(w);
    if (w->frames)
        OSSA_TRY(ossa_c3s_put_frame_groups(w));
    else
        OSSA_TRY(ossa_c3s_put_static_group(w));
    put_faces(w);
    OSSA_TRY(ossa_c3s_put_texture_vertices(w));
    if (!w->frames)
        ossa_c3s_put_bones(w);
    OSSA_TRY(ossa_c3s_put_sequences(w));
    put_mounts(w);
    end_chunk(o, model);
    if (!o->failed) {
        if (o->size - 8 > UINT32_MAX)
            o->failed = true;
        else
            ossa_le32_store(o->data + 4, (uint32_t)(o->size - 8));
    }
    if (o->failed)
        return ossa_write_fail(w->err, OSSA_ERR_NOMEM, w->path, "out of memory building the file");
    return OSSA_OK;
}

ossa_status ossa_write_c3s(const ossa_model *m, const char *path,
                           const ossa_c3s_write_options *opt, ossa_error *err)
{
    ossa_error_clear(err);
    if (!m || !path || !path[0])
        return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, path, "no model or path");
    float rate = opt && opt->frame_rate > 0.0f ? opt->frame_rate : 30.0f;
    if (opt && (!(opt->frame_rate >= 0.0f) || !(opt->frame_rate <= 1000.0f)))
        return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, path,
                    "frame rate %g is not in 0..1000 (0: 30 per second)",
                    (double)opt->frame_rate);
    ossa_error verr;
    ossa_error_clear(&verr);
    ossa_status st = ossa_model_validate(m, &verr);
    if (st != OSSA_OK)
        return ossa_write_fail(err, st, path, "the model is not valid: %s", verr.message);
    c3s_writer w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.frames = opt && opt->vertex_frames;
    w.rate = rate;
    w.path = path;
    w.err = err;
    st = build_file(&w);
    if (st == OSSA_OK && w.o.failed)
        st = ossa_write_fail(err, OSSA_ERR_NOMEM, path, "out of memory");
    if (st == OSSA_OK) {
        ossa_out_set out;
        ossa_out_init(&out, opt ? &opt->guard : NULL, err);
        st = ossa_out_add(&out, path, w.o.data, w.o.size, NULL, 0);
        if (st == OSSA_OK)
            st = ossa_out_commit(&out);
        ossa_out_free(&out);
    }
    free(w.o.data);
    free(w.vertex_base);
    free(w.tex_base);
    free(w.face_base);
    free(w.texture_of_map);
    free(w.keys);
    free(w.pose_block);
    free(w.positions);
    free(w.normals);
    return st;
}
