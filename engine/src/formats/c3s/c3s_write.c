/* Cannibal scene (C3S) writer: the whole model as one SMDL of one scene (the reader is c3s.c and
 * c3s_build.c; readings of the spec are FORMAT-NOTES Decision 9).
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
 * influence_points / weight, so the sum of Decision 9 reads back the same). Vertices without
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
 * built in memory; a failed write leaves no file. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/c3s/c3s_records.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/vertex_anim.h"
#include "ossa/write.h"
#include "core/build.h"
#include "core/quat.h"
#include "io/write_buf.h"

/* ---- output buffer ---- */

static void put_cdw(ossa_wbuf *o, uint32_t v)
{
    uint8_t bytes[OSSA_C3S_COMPDWORD_MAX];
    ossa_wbuf_put(o, bytes, ossa_c3s_encode_compdword(v, bytes));
}

static void put_stringz(ossa_wbuf *o, const char *s)
{
    ossa_wbuf_put(o, s ? s : "", (s ? strlen(s) : 0) + 1);
}

static void put_ocs(ossa_wbuf *o, const float s[3], const float q[4], const float t[3])
{
    ossa_wbuf_f32v(o, s, 3);
    ossa_wbuf_f32v(o, q, 4);
    ossa_wbuf_f32v(o, t, 3);
}

/* A chunk: id and a length patched by end_chunk, which also adds the pad byte. */
static size_t begin_chunk(ossa_wbuf *o, const char id[4])
{
    ossa_wbuf_put(o, id, 4);
    size_t at = o->size;
    ossa_wbuf_u32(o, 0);
    return at;
}

static void end_chunk(ossa_wbuf *o, size_t at)
{
    if (o->failed)
        return;
    size_t len = o->size - at - 4;
    if (len > UINT32_MAX) {
        o->failed = true;
        return;
    }
    ossa_le32_store(o->data + at, (uint32_t)len);
    if (len & 1u)
        ossa_wbuf_put(o, "", 1);
}

/* A subchunk with its common start: version 1, name, flags. */
static size_t begin_sub(ossa_wbuf *o, const char id[4], const char *name, uint32_t flags)
{
    size_t at = begin_chunk(o, id);
    put_cdw(o, 1);
    put_stringz(o, name);
    put_cdw(o, flags);
    return at;
}

/* ---- math ---- */

/* ---- the plan: where every element lands ---- */

typedef struct writer {
    const ossa_model *m;
    bool frames;        /* vertex-frame form */
    float rate;
    const char *path;
    ossa_error *err;
    ossa_wbuf o;
    /* first VRTX / TVRT / TRIF (0-based) of each submesh, in mesh-major order */
    uint32_t *vertex_base, *tex_base, *face_base;
    uint32_t submesh_total, vertex_total, tex_total, face_total;
    uint32_t *texture_of_map; /* per material map, 1-based TXTR */
    uint32_t texture_count, map_total;
    uint32_t unweighted;      /* bone form: vertices without influences */
    uint32_t textured;        /* submeshes with UVs: one texture vertex group each */
    uint32_t *keys;           /* per clip: key count */
    /* pose work: bone_count each */
    float *lt, *lr, *ls, *mt, *mr, *ms, *palette;
    float *positions, *normals; /* largest submesh, 3 floats per vertex each */
} writer;

static uint32_t sub_index(const writer *w, uint32_t mesh, uint32_t submesh)
{
    uint32_t at = 0;
    for (uint32_t i = 0; i < mesh; i++)
        at += w->m->meshes[i].submesh_count;
    return at + submesh;
}

static ossa_status plan(writer *w)
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
                for (uint32_t k = 0; k < sm->influence_start[sm->vertex_count]; k++)
                    if (sm->influences[k].bone >= m->bone_count)
                        return ossa_write_fail(w->err, OSSA_ERR_UNSUPPORTED, w->path,
                                    "mesh '%s' uses bone %u but the model has %u bones",
                                    m->meshes[i].name, sm->influences[k].bone, m->bone_count);
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
        if (!w->frames && clip->vertex_track_count)
            return ossa_write_fail(w->err, OSSA_ERR_UNSUPPORTED, w->path,
                        "clip '%s' plays vertex frames: write it with vertex_frames", clip->name);
    }
    size_t nb = m->bone_count ? m->bone_count : 1;
    w->lt = malloc(nb * 3 * sizeof(float));
    w->lr = malloc(nb * 4 * sizeof(float));
    w->ls = malloc(nb * 3 * sizeof(float));
    w->mt = malloc(nb * 3 * sizeof(float));
    w->mr = malloc(nb * 4 * sizeof(float));
    w->ms = malloc(nb * 3 * sizeof(float));
    w->palette = malloc(nb * 12 * sizeof(float));
    w->positions = malloc((size_t)largest * 3 * sizeof(float));
    w->normals = malloc((size_t)largest * 3 * sizeof(float));
    if (!w->lt || !w->lr || !w->ls || !w->mt || !w->mr || !w->ms || !w->palette ||
        !w->positions || !w->normals)
        return ossa_write_fail(w->err, OSSA_ERR_NOMEM, w->path, "out of memory");
    return OSSA_OK;
}

/* ---- subchunks ---- */

static void put_textures_and_materials(writer *w)
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

static void put_vertices(writer *w)
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

static void put_frame(ossa_wbuf *o, uint32_t group, const float *pos, uint32_t count,
                      const char *name)
{
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (uint32_t v = 0; v < count; v++)
        for (int k = 0; k < 3; k++) {
            float x = pos[3 * (size_t)v + (size_t)k];
            lo[k] = v == 0 || x < lo[k] ? x : lo[k];
            hi[k] = v == 0 || x > hi[k] ? x : hi[k];
        }
    static const float one[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
    size_t c = begin_sub(o, "VFRM", name, 0);
    put_cdw(o, group);
    ossa_wbuf_f32v(o, lo, 3);
    ossa_wbuf_f32v(o, hi, 3);
    ossa_wbuf_f32v(o, one, 3);
    ossa_wbuf_f32v(o, zero, 3);
    put_cdw(o, 0); /* no compressed positions */
    put_cdw(o, count);
    ossa_wbuf_f32v(o, pos, 3 * (size_t)count);
    end_chunk(o, c);
}

/* Bone form: the group "static" of the vertices without influences, and their one frame. */
static ossa_status put_static_group(writer *w)
{
    const ossa_model *m = w->m;
    ossa_wbuf *o = &w->o;
    if (!w->unweighted)
        return OSSA_OK;
    float *pos = malloc((size_t)w->unweighted * 3 * sizeof *pos);
    if (!pos)
        return ossa_write_fail(w->err, OSSA_ERR_NOMEM, w->path, "out of memory");
    size_t c = begin_sub(o, "VGRP", "static", 0);
    put_cdw(o, w->unweighted);
    uint32_t n = 0, s = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++, s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                if (sm->influence_start[v + 1] == sm->influence_start[v]) {
                    put_cdw(o, w->vertex_base[s] + v + 1);
                    memcpy(pos + 3 * (size_t)n++, sm->positions + 3 * (size_t)v,
                           3 * sizeof *pos);
                }
        }
    end_chunk(o, c);
    put_frame(o, 1, pos, n, "static");
    free(pos);
    return OSSA_OK;
}

/* Positions of one submesh at a time of a clip (NULL clip: the bind pose). */
static ossa_status pose_submesh(writer *w, const ossa_clip *clip, float time, uint32_t mesh,
                                uint32_t submesh)
{
    const ossa_model *m = w->m;
    const ossa_submesh *sm = &m->meshes[mesh].submeshes[submesh];
    if (!clip) {
        memcpy(w->positions, sm->positions, 3 * (size_t)sm->vertex_count * sizeof(float));
        return OSSA_OK;
    }
    if (ossa_clip_vertex_track(clip, mesh, submesh))
        return ossa_vertex_clip_eval(m, clip, mesh, submesh, time, OSSA_WRAP_LOOP, w->positions,
                                     NULL, sm->vertex_count, NULL);
    ossa_skin_submesh_scalar(sm, w->palette, w->positions, w->normals, sm->vertex_count, NULL);
    return OSSA_OK;
}

static void pose_at(writer *w, const ossa_clip *clip, float time)
{
    const ossa_model *m = w->m;
    ossa_pose_rest(m, w->lt, w->lr, w->ls, m->bone_count, NULL);
    ossa_sample_clip(m, clip, time, OSSA_WRAP_LOOP, w->lt, w->lr, w->ls, m->bone_count, NULL);
    ossa_local_to_model(m, w->lt, w->lr, w->ls, w->mt, w->mr, w->ms, m->bone_count, NULL);
    ossa_skin_palette(m, w->mt, w->mr, w->ms, w->palette, m->bone_count, NULL);
}

/* Frame form: one group per submesh; frame 1 of each is the bind pose, then every clip's keys
 * in order (clip c, key k, submesh s is frame 1 + submeshes x (1 + keys before) + s). */
static ossa_status put_frame_groups(writer *w)
{
    const ossa_model *m = w->m;
    ossa_wbuf *o = &w->o;
    uint32_t s = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++, s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            char name[600];
            snprintf(name, sizeof name, "%s/%u", m->meshes[i].name ? m->meshes[i].name : "", j);
            size_t c = begin_sub(o, "VGRP", name, 0);
            put_cdw(o, sm->vertex_count);
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                put_cdw(o, w->vertex_base[s] + v + 1);
            end_chunk(o, c);
        }
    for (int c = -1; c < (int)m->clip_count; c++) {
        const ossa_clip *clip = c < 0 ? NULL : &m->clips[c];
        uint32_t keys = clip ? w->keys[c] : 1;
        for (uint32_t k = 0; k < keys; k++) {
            float time = clip ? clip->duration * (float)k / (float)keys : 0.0f;
            if (clip)
                pose_at(w, clip, time);
            s = 0;
            for (uint32_t i = 0; i < m->mesh_count; i++)
                for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++, s++) {
                    OSSA_TRY(pose_submesh(w, clip, time, i, j));
                    put_frame(o, s + 1, w->positions, m->meshes[i].submeshes[j].vertex_count,
                              clip ? clip->name : "bind");
                }
        }
    }
    return OSSA_OK;
}

static void put_faces(writer *w)
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
                put_cdw(o, sm->material >= 0 ? (uint32_t)sm->material + 1 : 0);
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
static void put_uv_frame(ossa_wbuf *o, uint32_t group, const float *uvs, uint32_t stride,
                         uint32_t count, const char *name)
{
    size_t c = begin_sub(o, "TFRM", name, 0);
    put_cdw(o, group);
    put_cdw(o, count);
    for (uint32_t v = 0; v < count; v++)
        ossa_wbuf_f32v(o, uvs + 2 * (size_t)v * stride, 2);
    end_chunk(o, c);
}

/* One TVRT per vertex of a textured submesh, one group per such submesh whose first frame is
 * its first UV set, then, for every clip with uv tracks, one frame per group per key (clip c's
 * key k, group g is frame G + G x (keys of earlier such clips + k) + g, G groups). */
static ossa_status put_texture_vertices(writer *w)
{
    const ossa_model *m = w->m;
    ossa_wbuf *o = &w->o;
    for (uint32_t t = 0; t < w->tex_total; t++) {
        size_t c = begin_sub(o, "TVRT", "", 0);
        end_chunk(o, c);
    }
    uint32_t s = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++, s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            if (!sm->uv_set_count)
                continue;
            size_t c = begin_sub(o, "TGRP", "", 0);
            put_cdw(o, sm->vertex_count);
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                put_cdw(o, w->tex_base[s] + v + 1);
            end_chunk(o, c);
        }
    uint32_t group = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            if (sm->uv_set_count)
                put_uv_frame(o, ++group, sm->uvs, sm->uv_set_count, sm->vertex_count, "");
        }
    for (uint32_t c = 0; c < m->clip_count; c++) {
        const ossa_clip *clip = &m->clips[c];
        if (!clip->uv_track_count || !w->textured)
            continue;
        for (uint32_t k = 0; k < w->keys[c]; k++) {
            float time = clip->duration * (float)k / (float)w->keys[c];
            group = 0;
            for (uint32_t i = 0; i < m->mesh_count; i++)
                for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
                    const ossa_submesh *sm = &m->meshes[i].submeshes[j];
                    if (!sm->uv_set_count)
                        continue;
                    /* w->positions holds 3 floats per vertex: room for the 2 of a UV. */
                    OSSA_TRY(ossa_uv_clip_eval(m, clip, i, j, time, OSSA_WRAP_LOOP, w->positions,
                                               sm->vertex_count, NULL));
                    put_uv_frame(o, ++group, w->positions, 1, sm->vertex_count, clip->name);
                }
        }
    }
    return OSSA_OK;
}

static void put_bones(writer *w)
{
    const ossa_model *m = w->m;
    ossa_wbuf *o = &w->o;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const ossa_bone *bn = &m->bones[i];
        float q[4];
        memcpy(q, bn->rest_r, sizeof q);
        ossa_quat_normalize(q);
        size_t c = begin_sub(o, "BONE", bn->name, 0);
        put_ocs(o, bn->rest_s, q, bn->rest_t);
        put_cdw(o, bn->parent >= 0 ? (uint32_t)bn->parent + 1 : 0);
        uint32_t kids = 0;
        for (uint32_t k = i + 1; k < m->bone_count; k++)
            kids += m->bones[k].parent == (int32_t)i;
        put_cdw(o, kids);
        for (uint32_t k = i + 1; k < m->bone_count; k++)
            if (m->bones[k].parent == (int32_t)i)
                put_cdw(o, k + 1);
        end_chunk(o, c);
    }
}

/* animOCS of a bone: base^-1 composed with the pose (so base x anim = pose). */
static ossa_status put_bone_key(writer *w, uint32_t bone)
{
    const ossa_bone *bn = &w->m->bones[bone];
    const float *t = w->lt + 3 * bone, *s = w->ls + 3 * bone;
    float r[4], base_q[4], inv[4], d[3], local[3], q[4], sc[3];
    memcpy(r, w->lr + 4 * bone, sizeof r);
    memcpy(base_q, bn->rest_r, sizeof base_q);
    ossa_quat_normalize(base_q);
    ossa_quat_normalize(r);
    inv[0] = -base_q[0];
    inv[1] = -base_q[1];
    inv[2] = -base_q[2];
    inv[3] = base_q[3];
    for (int k = 0; k < 3; k++) {
        if (bn->rest_s[k] == 0.0f)
            return ossa_write_fail(w->err, OSSA_ERR_UNSUPPORTED, w->path,
                        "bone '%s' has a zero rest scale", bn->name);
        d[k] = t[k] - bn->rest_t[k];
    }
    ossa_quat_rotate(inv, d, local);
    for (int k = 0; k < 3; k++) {
        local[k] /= bn->rest_s[k];
        sc[k] = s[k] / bn->rest_s[k];
    }
    ossa_quat_mul(inv, r, q);
    put_cdw(&w->o, bone + 1);
    put_ocs(&w->o, sc, q, local);
    return OSSA_OK;
}

static ossa_status put_sequences(writer *w)
{
    const ossa_model *m = w->m;
    ossa_wbuf *o = &w->o;
    uint32_t frames_before = 1; /* frame form: the bind frames come first */
    uint32_t uv_keys_before = 0;
    bool *animated = calloc(m->bone_count ? m->bone_count : 1, sizeof *animated);
    if (!animated)
        return ossa_write_fail(w->err, OSSA_ERR_NOMEM, w->path, "out of memory");
    ossa_status st = OSSA_OK;
    for (uint32_t c = 0; c < m->clip_count && st == OSSA_OK; c++) {
        const ossa_clip *clip = &m->clips[c];
        uint32_t keys = w->keys[c];
        memset(animated, 0, (m->bone_count ? m->bone_count : 1) * sizeof *animated);
        uint32_t animated_count = 0;
        for (uint32_t t = 0; t < clip->track_count && !w->frames; t++)
            if (!animated[clip->tracks[t].bone]) {
                animated[clip->tracks[t].bone] = true;
                animated_count++;
            }
        size_t ch = begin_sub(o, "ASEQ", clip->name, 0);
        ossa_wbuf_f32(o, (float)keys / clip->duration);
        put_stringz(o, clip->group);
        put_cdw(o, keys);
        bool uv = clip->uv_track_count && w->textured;
        for (uint32_t k = 0; k < keys && st == OSSA_OK; k++) {
            put_cdw(o, uv ? w->textured : 0); /* texture vertex frames */
            for (uint32_t g = 0; g < w->textured && uv; g++)
                put_cdw(o, w->textured * (1 + uv_keys_before + k) + g + 1);
            if (w->frames) {
                put_cdw(o, 0);
                put_cdw(o, w->submesh_total);
                for (uint32_t s = 0; s < w->submesh_total; s++)
                    put_cdw(o, 1 + w->submesh_total * (frames_before + k) + s);
                continue;
            }
            pose_at(w, clip, clip->duration * (float)k / (float)keys);
            put_cdw(o, animated_count);
            for (uint32_t b = 0; b < m->bone_count && st == OSSA_OK; b++)
                if (animated[b])
                    st = put_bone_key(w, b);
            put_cdw(o, 0); /* vertex frames */
        }
        frames_before += keys;
        uv_keys_before += uv ? keys : 0;
        put_cdw(o, clip->trigger_count);
        for (uint32_t t = 0; t < clip->trigger_count; t++) {
            const ossa_clip_trigger *tg = &clip->triggers[t];
            uint32_t command = tg->command;
            if (!command && tg->name && tg->name[0])
                command = C3S_TRIG_COMMAND;
            ossa_wbuf_f32(o, tg->time / clip->duration);
            ossa_wbuf_u32(o, command);
            if (command == C3S_TRIG_COMMAND && !tg->param_size) {
                put_cdw(o, (uint32_t)strlen(tg->name) + 1);
                put_stringz(o, tg->name);
            } else {
                put_cdw(o, tg->param_size);
                ossa_wbuf_put(o, tg->params, tg->param_size);
            }
        }
        put_cdw(o, clip->link_count);
        for (uint32_t l = 0; l < clip->link_count; l++)
            put_cdw(o, clip->links[l] + 1);
        end_chunk(o, ch);
    }
    free(animated);
    return st;
}

static void put_mounts(writer *w)
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

static ossa_status build_file(writer *w)
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
        OSSA_TRY(put_frame_groups(w));
    else
        OSSA_TRY(put_static_group(w));
    put_faces(w);
    OSSA_TRY(put_texture_vertices(w));
    if (!w->frames)
        put_bones(w);
    OSSA_TRY(put_sequences(w));
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
    ossa_status st = ossa_model_validate(m, err);
    if (st != OSSA_OK)
        return st;
    writer w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.frames = opt && opt->vertex_frames;
    w.rate = rate;
    w.path = path;
    w.err = err;
    st = build_file(&w);
    if (st == OSSA_OK) {
        FILE *f = fopen(path, "wb");
        bool ok = f && fwrite(w.o.data, 1, w.o.size, f) == w.o.size;
        int e = errno;
        if (f && fclose(f) != 0)
            ok = false;
        if (!ok) {
            if (f)
                remove(path);
            st = ossa_write_fail(err, OSSA_ERR_IO, path, "cannot write: %s", strerror(e));
        }
    }
    free(w.o.data);
    free(w.vertex_base);
    free(w.tex_base);
    free(w.face_base);
    free(w.texture_of_map);
    free(w.keys);
    free(w.lt);
    free(w.lr);
    free(w.ls);
    free(w.mt);
    free(w.mr);
    free(w.ms);
    free(w.palette);
    free(w.positions);
    free(w.normals);
    return st;
}
