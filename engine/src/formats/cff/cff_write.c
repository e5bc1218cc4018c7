/* CFF (Corsairs) writer: the model as rigid parts, each bound to one bone, read back by cff.c.
 *
 *  - Every triangle goes to the part of its dominant bone (the bone with the largest summed
 *    weight over its three vertices; ties go to the later bone, the child at a blended joint, whose
 *    limb such geometry usually belongs to). Parts are keyed by
 *    (mesh LOD, bone, material) and written in that order; a part that would exceed 65536
 *    vertices (the reach of 16-bit indices) continues in another part. Triangles with no
 *    influences, or all of a model without bones, form static parts without frames.
 *  - A part's vertices are expressed in its bone's space (the inverse bind applied to the bind
 *    position), so that the frames, the bone's model-space transform at each time, move them
 *    rigidly with it. Blended vertices (elbows, knees) therefore follow their triangle's dominant
 *    bone only.
 *  - CFF holds one animation: the model's first clip, sampled as a looping cycle at frame_rate
 *    (0: 25) for round(duration x rate) frames; without clips, one frame of the rest pose. The
 *    reader takes frame 0 as the rest state, so the read model rests at the clip's first frame.
 *    Each frame's seventh value is its frame number.
 *  - Positions: origin and scale in the header come from the bounds of every local position, so
 *    the signed 16-bit values span the whole range (error at most scale / 65534 per axis). UVs
 *    (first set) use a power-of-two divisor per part; colours are written as colour x 127.
 *  - Axes: CFF is Y up. A source that stands along Z (ossa_export_source_up, the guess the
 *    exporter and ossa-view make) is turned -90 degrees about X, (x, y, z) -> (x, z, -y): the
 *    frames (model-space bone transforms) and the static parts' positions turn; bone-space
 *    positions do not.
 *  - One texture per material: its first map's file, copied beside the .cff and named by its
 *    last part (io/out_texture.c); a material without a readable texture is named after its map
 *    or itself, with a warning. Material blocks (whose meaning is unknown) are not written, nor
 *    is a BSP section.
 * Each part is written as a mesh by cff_write_mesh.c, over the state in cff_write.h.
 * The output depends only on the model, so it is the same on every run. */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/build_context.h"
#include "ossa/limits.h"
#include "core/quat.h"
#include "formats/cff/cff.h"
#include "formats/cff/cff_write.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/write.h"
#include "io/out_file.h"
#include "io/out_texture.h"
#include "ossa/export.h"
#include "io/write_buf.h"

#define PART_MAX_VERTICES 65536u


/* ---- rotations ---- */

/* Angles (x, y, z) with R(q) = Rz(z) Rx(x) Ry(y), the reader's order (D11). */
static void quat_to_angles(const float q[4], float angles[3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double n = sqrt(x * x + y * y + z * z + w * w);
    x /= n, y /= n, z /= n, w /= n;
    double r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * w), r02 = 2 * (x * z + y * w);
    double r11 = 1 - 2 * (x * x + z * z), r20 = 2 * (x * z - y * w), r21 = 2 * (y * z + x * w);
    double r22 = 1 - 2 * (x * x + y * y);
    double s = r21 > 1.0 ? 1.0 : r21 < -1.0 ? -1.0 : r21;
    double ax = asin(s), ay, az;
    if (fabs(s) < 0.9999999) {
        ay = atan2(-r20, r22);
        az = atan2(-r01, r11);
    } else { /* cos x = 0: only y + z (or y - z) is defined; put it all in y */
        ay = atan2(r02, r00);
        az = 0.0;
    }
    angles[0] = (float)ax;
    angles[1] = (float)ay;
    angles[2] = (float)az;
}

/* ---- partition into parts ---- */

static int tri_order(const void *pa, const void *pb)
{
    const tri_ref *a = pa, *b = pb;
    if (a->lod != b->lod) return a->lod < b->lod ? -1 : 1;
    if (a->bone != b->bone) return a->bone < b->bone ? -1 : 1;
    if (a->material != b->material) return a->material < b->material ? -1 : 1;
    if (a->mesh != b->mesh) return a->mesh < b->mesh ? -1 : 1;
    if (a->sub != b->sub) return a->sub < b->sub ? -1 : 1;
    return a->face < b->face ? -1 : a->face > b->face;
}

/* The bone with the largest summed weight over the triangle's vertices (on a tie the later bone,
 * which is the child at a blended joint); NO_BONE without any. */
static uint32_t dominant_bone(const ossa_model *m, const ossa_submesh *sm, const uint32_t *tri)
{
    if (!m->bone_count)
        return NO_BONE;
    uint32_t best = NO_BONE;
    double best_weight = 0.0;
    for (int i = 0; i < 3; i++) {
        for (uint32_t k = sm->influence_start[tri[i]]; k < sm->influence_start[tri[i] + 1]; k++) {
            uint32_t bone = sm->influences[k].bone;
            double sum = 0.0;
            for (int j = 0; j < 3; j++)
                for (uint32_t l = sm->influence_start[tri[j]]; l < sm->influence_start[tri[j] + 1];
                     l++)
                    if (sm->influences[l].bone == bone)
                        sum += sm->influences[l].weight;
            if (best == NO_BONE || sum > best_weight || (sum == best_weight && bone > best)) {
                best = bone;
                best_weight = sum;
            }
        }
    }
    return best;
}

static ossa_status no_memory(cff_writer *w)
{
    return ossa_write_fail(w->err, OSSA_ERR_NOMEM, w->path, "out of memory while writing");
}

static const ossa_submesh *tri_submesh(const cff_writer *w, const tri_ref *t)
{
    return &w->m->meshes[t->mesh].submeshes[t->sub];
}

static ossa_status collect_triangles(cff_writer *w)
{
    const ossa_model *m = w->m;
    size_t total = 0, vertices = 0, slots = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        slots += m->meshes[i].submesh_count;
        if (m->meshes[i].flags & OSSA_MESH_HIDDEN)
            continue;
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++)
            total += m->meshes[i].submeshes[s].face_count;
    }
    w->vertex_base = calloc(slots + 1, sizeof *w->vertex_base);
    w->tris = calloc(total ? total : 1, sizeof *w->tris);
    if (!w->vertex_base || !w->tris)
        return no_memory(w);
    size_t slot = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const ossa_mesh *mesh = &m->meshes[i];
        for (uint32_t s = 0; s < mesh->submesh_count; s++, slot++) {
            const ossa_submesh *sm = &mesh->submeshes[s];
            w->vertex_base[slot] = vertices;
            vertices += sm->vertex_count;
            if (mesh->flags & OSSA_MESH_HIDDEN)
                continue;
            for (uint32_t f = 0; f < sm->face_count; f++) {
                tri_ref *t = &w->tris[w->tri_count++];
                t->lod = mesh->lod;
                t->bone = dominant_bone(m, sm, sm->indices + 3 * (size_t)f);
                t->material = sm->material;
                t->mesh = i;
                t->sub = s;
                t->face = f;
            }
        }
    }
    w->vertex_base[slot] = vertices;
    qsort(w->tris, w->tri_count, sizeof *w->tris, tri_order);
    w->stamp = calloc(vertices ? vertices : 1, sizeof *w->stamp);
    w->local_index = calloc(vertices ? vertices : 1, sizeof *w->local_index);
    w->vertex_list = calloc(3 * w->tri_count + 1, sizeof *w->vertex_list);
    w->face_list = calloc(3 * w->tri_count + 1, sizeof *w->face_list);
    w->parts = calloc(w->tri_count + 1, sizeof *w->parts);
    if (!w->stamp || !w->local_index || !w->vertex_list || !w->face_list || !w->parts)
        return no_memory(w);
    return OSSA_OK;
}

static size_t slot_of(const cff_writer *w, const tri_ref *t)
{
    size_t slot = 0;
    for (uint32_t i = 0; i < t->mesh; i++)
        slot += w->m->meshes[i].submesh_count;
    return slot + t->sub;
}

/* Walks the sorted triangles, opening a part at each new key or when 16-bit indices would run
 * out, and numbers each part's vertices in order of first use. */
static void make_parts(cff_writer *w)
{
    part *cur = NULL;
    size_t cached_slot = 0;
    uint32_t cached_mesh = UINT32_MAX, cached_sub = UINT32_MAX;
    for (size_t i = 0; i < w->tri_count; i++) {
        const tri_ref *t = &w->tris[i];
        if (t->mesh != cached_mesh || t->sub != cached_sub) {
            cached_slot = slot_of(w, t);
            cached_mesh = t->mesh;
            cached_sub = t->sub;
        }
        const uint32_t *tri = tri_submesh(w, t)->indices + 3 * (size_t)t->face;
        size_t g[3];
        for (int k = 0; k < 3; k++)
            g[k] = w->vertex_base[cached_slot] + tri[k];
        bool same_key = cur && cur->lod == t->lod && cur->bone == t->bone &&
                        cur->material == t->material;
        if (same_key) {
            uint32_t fresh = 0;
            for (int k = 0; k < 3; k++)
                fresh += w->stamp[g[k]] != w->part_count; /* stamp = part number + 1 */
            same_key = cur->vertex_count + fresh <= PART_MAX_VERTICES;
        }
        if (!same_key) {
            cur = &w->parts[w->part_count++];
            cur->lod = t->lod;
            cur->bone = t->bone;
            cur->material = t->material;
            cur->first_tri = i;
            cur->first_vertex = w->vertex_list_count;
        }
        for (int k = 0; k < 3; k++) {
            if (w->stamp[g[k]] != w->part_count) {
                w->stamp[g[k]] = (uint32_t)w->part_count;
                w->local_index[g[k]] = (uint32_t)cur->vertex_count++;
                w->vertex_list[w->vertex_list_count++] = (uint32_t)g[k];
            }
            w->face_list[3 * i + (size_t)k] = w->local_index[g[k]];
        }
        cur->tri_count++;
    }
}

/* Bone-space positions of every part's vertices. */
static ossa_status local_positions(cff_writer *w)
{
    w->local = calloc(3 * w->vertex_list_count + 1, sizeof *w->local);
    if (!w->local)
        return no_memory(w);
    for (size_t p = 0; p < w->part_count; p++) {
        const part *pt = &w->parts[p];
        const ossa_bone *bone = pt->bone == NO_BONE ? NULL : &w->m->bones[pt->bone];
        const ossa_submesh *sm = NULL;
        uint32_t v;
        for (size_t i = 0; i < pt->vertex_count; i++) {
            uint32_t g = w->vertex_list[pt->first_vertex + i];
            vertex_of(w, g, &sm, &v);
            const float *pos = sm->positions + 3 * (size_t)v;
            float *out = w->local + 3 * (pt->first_vertex + i);
            if (!bone) { /* model space: turned with the model */
                out[0] = pos[0];
                out[1] = w->z_up ? pos[2] : pos[1];
                out[2] = w->z_up ? -pos[1] : pos[2];
                continue;
            }
            double pos_d[3] = {pos[0], pos[1], pos[2]}, r[3];
            ossa_quat_rotate_d(bone->inv_bind_r, pos_d, r);
            for (int k = 0; k < 3; k++)
                out[k] = (float)(r[k] + bone->inv_bind_t[k]);
        }
    }
    return OSSA_OK;
}

/* Four-byte names, unique within the file: the bone's (or, for static parts, the mesh's) name
 * cut to four bytes, its tail replaced by a number when that is taken. */
static void name_parts(cff_writer *w)
{
    for (size_t p = 0; p < w->part_count; p++) {
        part *pt = &w->parts[p];
        const char *src;
        if (pt->bone != NO_BONE)
            src = w->m->bones[pt->bone].name;
        else
            src = w->m->meshes[w->tris[pt->first_tri].mesh].name;
        char base[5] = {0};
        size_t n = 0;
        while (src && n < 4 && src[n])
            n++;
        if (n) /* memcpy from NULL is undefined even for 0 bytes (a nameless bone) */
            memcpy(base, src, n);
        char cand[5];
        memcpy(cand, base, 5);
        for (unsigned number = 1;; number++) {
            bool taken = n == 0;
            for (size_t q = 0; q < p && !taken; q++)
                taken = strncmp(w->parts[q].name, cand, 4) == 0;
            if (!taken)
                break;
            char digits[12];
            int dl = snprintf(digits, sizeof digits, "%u", number);
            size_t keep = (size_t)dl >= 4 ? 0 : 4 - (size_t)dl;
            if (keep > n)
                keep = n;
            memset(cand, 0, sizeof cand);
            memcpy(cand, base, keep);
            memcpy(cand + keep, digits, (size_t)dl > 4 ? 4 : (size_t)dl);
            n = n ? n : 1; /* an empty name is never used: numbers stand in */
        }
        memcpy(pt->name, cand, 4);
    }
}

/* ---- frames ---- */

/* A model-space transform turned from Z up to Y up: (x, y, z) -> (x, z, -y) on the
 * translation, and the turn's quaternion (-sqrt(1/2), 0, 0, sqrt(1/2)) times q. */
static void turn_to_y_up(float t[3], float q[4])
{
    const double h = 0.70710678118654752440;
    float y = t[1];
    t[1] = t[2];
    t[2] = -y;
    double x = q[0], qy = q[1], z = q[2], qw = q[3];
    /* (a, 0, 0, h) * (x, y, z, w), a = -h: Hamilton product */
    q[0] = (float)(h * x - h * qw);
    q[1] = (float)(h * qy + h * z);
    q[2] = (float)(h * z - h * qy);
    q[3] = (float)(h * qw + h * x);
}

static ossa_status sample_frames(cff_writer *w)
{
    const ossa_model *m = w->m;
    if (!m->bone_count)
        return OSSA_OK;
    const ossa_clip *clip = m->clip_count ? &m->clips[0] : NULL;
    double count = clip ? floor((double)clip->duration * w->fps + 0.5) : 1.0;
    if (count < 1.0)
        count = 1.0;
    if (count > OSSA_MAX_KEYS)
        return ossa_write_fail(w->err, OSSA_ERR_RANGE, w->path,
                    "clip '%s' of %g s at %g frames per second needs %.0f frames, more than %u",
                    clip->name, (double)clip->duration, (double)w->fps, count, OSSA_MAX_KEYS);
    w->frames = (uint32_t)count;
    size_t nb = m->bone_count;
    float *block = calloc(nb, OSSA_REFERENCE_POSE_FLOATS * sizeof(float));
    ossa_reference_pose pose = ossa_reference_pose_in(block, (uint32_t)nb);
    pose.palette = NULL; /* model space is all a frame keeps */
    w->frame_t = calloc((size_t)w->frames * nb, 3 * sizeof(float));
    w->frame_a = calloc((size_t)w->frames * nb, 3 * sizeof(float));
    ossa_status st = OSSA_OK;
    if (!block || !w->frame_t || !w->frame_a)
        st = no_memory(w);
    for (uint32_t k = 0; k < w->frames && st == OSSA_OK; k++) {
        ossa_reference_pose_at(m, clip, (float)k / w->fps, OSSA_WRAP_LOOP, &pose, NULL);
        for (size_t b = 0; b < nb; b++) {
            float *t = w->frame_t + 3 * ((size_t)k * nb + b);
            float q[4];
            memcpy(t, pose.mt + 3 * b, 3 * sizeof *t);
            memcpy(q, pose.mr + 4 * b, sizeof q);
            if (w->z_up) /* C T and qC q, qC = (-sqrt(1/2), 0, 0, sqrt(1/2)) */
                turn_to_y_up(t, q);
            quat_to_angles(q, w->frame_a + 3 * ((size_t)k * nb + b));
            for (int c = 0; c < 3; c++)
                if (!isfinite(t[c]))
                    st = ossa_write_fail(w->err, OSSA_ERR_VALUE, w->path,
                              "bone '%s' at frame %u has a non-finite translation",
                              m->bones[b].name, k);
        }
    }
    free(block);
    return st;
}

/* ---- textures ---- */

static void warn(const ossa_cff_write_options *opt, const char *fmt, ...)
{
    if (!opt->log.fn)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    opt->log.fn(opt->log.user, line);
}

/* Each material's texture copied beside the .cff and named by its last part; without a
 * readable one, the map's name as written (or the material's name), with a warning. */
static ossa_status name_textures(cff_writer *w, ossa_out_textures *tex,
                                 const ossa_cff_write_options *opt)
{
    const ossa_model *m = w->m;
    w->texture_names = calloc(m->material_count + 1u, sizeof *w->texture_names);
    if (!w->texture_names)
        return no_memory(w);
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ossa_material *mat = &m->materials[i];
        const ossa_texture_map *map = mat->map_count ? &mat->maps[0] : NULL;
        const char *label = mat->name ? mat->name : "";
        w->texture_names[i] = map && map->file && map->file[0] ? map->file : label;
        if (!map)
            continue;
        char why[600] = "no file was found";
        const char *name = NULL;
        if (map->path)
            OSSA_TRY(ossa_out_texture(tex, map->path, &name, why, sizeof why));
        if (name)
            w->texture_names[i] = name;
        else
            warn(opt, "material '%s': texture '%s' is named in the CFF but not copied beside "
                 "it (%s)", label, w->texture_names[i], why);
    }
    return OSSA_OK;
}

/* ---- output ---- */

static ossa_status write_all(cff_writer *w, ossa_wbuf *o)
{
    const ossa_model *m = w->m;
    OSSA_TRY(sample_frames(w));
    OSSA_TRY(collect_triangles(w));
    make_parts(w);
    if (w->part_count > OSSA_MAX_BONES)
        return ossa_write_fail(w->err, OSSA_ERR_RANGE, w->path,
                    "the model needs %zu rigid parts, more than the %u a CFF may hold",
                    w->part_count, OSSA_MAX_BONES);
    if (m->material_count > OSSA_MAX_FILES)
        return ossa_write_fail(w->err, OSSA_ERR_RANGE, w->path,
                    "%u materials, more than the %u textures a CFF reader accepts",
                    m->material_count, OSSA_MAX_FILES);
    OSSA_TRY(local_positions(w));
    name_parts(w);

    /* Origin and scale from the bounds of every local position. */
    double origin[3] = {0, 0, 0}, scale[3] = {1, 1, 1};
    for (int k = 0; k < 3; k++) {
        double lo = 0.0, hi = 0.0;
        for (size_t i = 0; i < w->vertex_list_count; i++) {
            double v = w->local[3 * i + (size_t)k];
            if (i == 0 || v < lo)
                lo = v;
            if (i == 0 || v > hi)
                hi = v;
        }
        float of = (float)(0.5 * (lo + hi));
        double half = fmax(hi - of, of - lo);
        float sf = (float)half;
        if ((double)sf < half)
            sf = nextafterf(sf, INFINITY);
        origin[k] = of;
        scale[k] = sf > 0.0f ? sf : 1.0f;
        if (fabs(origin[k]) + scale[k] > 1e12)
            return ossa_write_fail(w->err, OSSA_ERR_RANGE, w->path,
                        "positions reach %g, beyond what a CFF reader accepts", fabs(of) + half);
    }

    uint32_t lods = 0;
    for (size_t p = 0; p < w->part_count; p++)
        if (w->parts[p].lod + 1 > lods)
            lods = w->parts[p].lod + 1;
    for (int k = 0; k < 3; k++)
        ossa_wbuf_f32(o, (float)origin[k]);
    for (int k = 0; k < 3; k++)
        ossa_wbuf_f32(o, (float)scale[k]);
    ossa_wbuf_u32(o, m->material_count);
    ossa_wbuf_u32(o, 0); /* material blocks */
    ossa_wbuf_u32(o, lods);
    ossa_wbuf_u32(o, 0); /* no BSP section */
    ossa_wbuf_f32(o, 0.0f);
    for (uint32_t i = 0; i < m->material_count; i++) {
        const char *name = w->texture_names[i];
        size_t len = strlen(name);
        if (len > 255)
            return ossa_write_fail(w->err, OSSA_ERR_RANGE, w->path, "material %u's texture "
                                   "name '%s' is longer than the 255 bytes CFF holds", i, name);
        ossa_wbuf_u8(o, (uint8_t)len);
        ossa_wbuf_put(o, name, len);
    }
    size_t p = 0;
    for (uint32_t l = 0; l < lods; l++) {
        size_t first = p;
        while (p < w->part_count && w->parts[p].lod == l)
            p++;
        ossa_wbuf_u32(o, (uint32_t)(p - first));
        ossa_wbuf_u32(o, 0);
        for (size_t q = first; q < p; q++)
            OSSA_TRY(ossa_cff_write_part(w, o, &w->parts[q], origin, scale));
    }
    if (o->failed)
        return no_memory(w);
    return OSSA_OK;
}

ossa_status ossa_write_cff(const ossa_model *m, const char *path,
                           const ossa_cff_write_options *opt, ossa_error *err)
{
    static const ossa_cff_write_options defaults = {0};
    if (!opt)
        opt = &defaults;
    const float frame_rate = opt->frame_rate;
    ossa_error_clear(err);
    if (!m || !path)
        return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, path, "no model or no path");
    float fps = frame_rate == 0.0f ? OSSA_CFF_FRAME_RATE : frame_rate;
    if (!(fps > 0.0f) || fps > 1000.0f)
        return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, path,
                    "frame rate %g is not in (0, 1000] frames per second", (double)frame_rate);
    ossa_error verr;
    ossa_error_clear(&verr);
    ossa_status st = ossa_model_validate(m, &verr);
    if (st != OSSA_OK)
        return ossa_write_fail(err, st, path, "the model is not valid: %s", verr.message);
    /* A CFF without a part reads back as an empty model, which the loader refuses. */
    bool any_part = false;
    for (uint32_t i = 0; i < m->mesh_count && !any_part; i++)
        for (uint32_t k = 0; k < m->meshes[i].submesh_count && !any_part; k++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[k];
            any_part = sm->vertex_count && sm->face_count;
        }
    if (!any_part)
        return ossa_write_fail(err, OSSA_ERR_UNSUPPORTED, path, "the model has no mesh, and a "
                               "CFF file holds meshes (an animation needs its mesh)");
    cff_writer w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.path = path;
    w.err = err;
    w.fps = fps;
    const ossa_export_options up = {.up = opt->up};
    w.z_up = ossa_export_source_up(m, &up) == OSSA_EXPORT_UP_Z;
    ossa_wbuf o = {0};
    ossa_out_set out;
    ossa_out_textures tex;
    ossa_out_init(&out, &opt->guard, err);
    st = ossa_out_textures_init(&tex, &out, path);
    if (st == OSSA_OK)
        st = ossa_out_claim(&out, path); /* refused before any texture is copied */
    if (st == OSSA_OK)
        st = name_textures(&w, &tex, opt);
    if (st == OSSA_OK)
        st = write_all(&w, &o);
    if (st == OSSA_OK && o.failed)
        st = ossa_write_fail(err, OSSA_ERR_NOMEM, path, "out of memory");
    if (st == OSSA_OK)
        st = ossa_out_add(&out, path, o.data, o.size, NULL, 0);
    if (st == OSSA_OK)
        st = ossa_out_commit(&out);
    ossa_out_textures_free(&tex);
    ossa_out_free(&out);
    free(o.data);
    free(w.frame_t);
    free(w.frame_a);
    free(w.tris);
    free(w.vertex_base);
    free(w.stamp);
    free(w.local_index);
    free(w.vertex_list);
    free(w.face_list);
    free(w.parts);
    free(w.local);
    free(w.texture_names);
    return st;
}
