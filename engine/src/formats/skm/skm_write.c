/* Qfusion SKM/SKP type 2 writer (the reader is skm.c; layout in skm_format.h).
 *
 * base.skp holds the skeleton and the frames: each clip sampled as a cycle (OSSA_WRAP_LOOP) at
 * frame_rate, frames clip_1, clip_2, ... at times 0, 1/rate, ... up to but not including the
 * duration (the reader adds the loop back to the first frame), then a last frame named "bind"
 * (another name when a clip already has that one) holding the bind pose (the inverse of every
 * bone's inverse bind, made parent-relative). Qfusion takes no bind pose from the file, but
 * Ossa's reader takes such a last frame as the base pose instead of frame 0, so a written model
 * reads back with the same clips at the same indices and the same rest pose.
 *
 * base.skm holds the meshes of level of detail 0, base_lodN.skm those of level N: one record per
 * submesh, named after its mesh, with its material's name as the shader name. Each influence
 * stores the vertex in its bone's space (inverse bind x bind position) multiplied by the
 * weight, the way Qfusion pre-weights origins (a model with per-influence points, C3S or SKM,
 * gives each influence its own: R^-1 (u - w T)), and the normal likewise. What the format cannot
 * hold is dropped: bone scale, every UV set but the first, colours, morphs, springs, material
 * colours and maps. Submeshes without vertices or faces are left out; a vertex without
 * influences is bound to bone 0 with full weight. Everything is built in memory first and a
 * failed write removes the files this call created. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats/skm/skm_format.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/write.h"
#include "core/build_context.h"
#include "core/quat.h"
#include "io/out_file.h"
#include "io/write_buf.h"

#define SKM_NAME_MAX (SKM_NAME_BYTES - 1u)

/* A 64-byte zero-padded name (the caller checked the length). */
static void put_name(ossa_wbuf *o, const char *s)
{
    uint8_t *p = ossa_wbuf_grow(o, SKM_NAME_BYTES);
    if (!p)
        return;
    memset(p, 0, SKM_NAME_BYTES);
    memcpy(p, s, strlen(s));
}

/* Model-space bind pose of every bone: the inverse of its inverse bind. */
static void bind_pose(const ossa_bone *bn, float t[3], float r[4])
{
    float ir[4];
    memcpy(ir, bn->inv_bind_r, sizeof ir);
    ossa_quat_normalize(ir);
    r[0] = -ir[0];
    r[1] = -ir[1];
    r[2] = -ir[2];
    r[3] = ir[3];
    double it[3] = {bn->inv_bind_t[0], bn->inv_bind_t[1], bn->inv_bind_t[2]}, moved[3];
    ossa_quat_rotate_d(r, it, moved);
    for (int k = 0; k < 3; k++)
        t[k] = (float)-moved[k];
}

typedef struct skp_plan {
    float rate;
    uint32_t frames;          /* the bind frame and every clip's */
    uint32_t *clip_frames;    /* per clip */
    char bind_name[SKM_NAME_BYTES];
} skp_plan;

static ossa_status plan_skp(const ossa_model *m, skp_plan *p, const char *path, ossa_error *err)
{
    static const char *const bind_names[] = {"bind", "bind_pose", "bindpose", "base_pose",
                                             "skm_bind"};
    for (uint32_t i = 0; i < m->bone_count; i++)
        if (strlen(m->bones[i].name) > SKM_NAME_MAX)
            return ossa_write_fail(err, OSSA_ERR_UNSUPPORTED, path,
                        "bone %u's name '%s' is longer than SKP's %u characters", i,
                        m->bones[i].name, SKM_NAME_MAX);
    p->bind_name[0] = '\0';
    for (size_t c = 0; c < sizeof bind_names / sizeof bind_names[0] && !p->bind_name[0]; c++) {
        bool taken = false;
        for (uint32_t i = 0; i < m->clip_count && !taken; i++)
            taken = strcasecmp(m->clips[i].name, bind_names[c]) == 0;
        if (!taken)
            snprintf(p->bind_name, sizeof p->bind_name, "%s", bind_names[c]);
    }
    if (!p->bind_name[0])
        return ossa_write_fail(err, OSSA_ERR_UNSUPPORTED, path,
                    "the clips take every name the bind frame could have");
    uint64_t frames = 1;
    for (uint32_t i = 0; i < m->clip_count; i++) {
        const ossa_clip *c = &m->clips[i];
        double n = floor((double)c->duration * p->rate + 0.5);
        if (!(n <= SKM_MAX_FRAMES))
            return ossa_write_fail(err, OSSA_ERR_UNSUPPORTED, path,
                        "clip '%s' needs %g frames at %g per second; SKP holds %u in all",
                        c->name, n, (double)p->rate, SKM_MAX_FRAMES);
        p->clip_frames[i] = n < 1.0 ? 1u : (uint32_t)n;
        char last[32];
        int digits = snprintf(last, sizeof last, "_%u", p->clip_frames[i]);
        if (strlen(c->name) + (size_t)digits > SKM_NAME_MAX)
            return ossa_write_fail(err, OSSA_ERR_UNSUPPORTED, path,
                        "clip name '%s' is too long for SKP frame names of %u characters",
                        c->name, SKM_NAME_MAX);
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(m->clips[j].name, c->name) == 0)
                return ossa_write_fail(err, OSSA_ERR_UNSUPPORTED, path,
                            "two clips are named '%s': their SKP frames would form one clip",
                            c->name);
        frames += p->clip_frames[i];
    }
    if (frames > SKM_MAX_FRAMES)
        return ossa_write_fail(err, OSSA_ERR_UNSUPPORTED, path,
                    "%llu frames at %g per second exceed SKP's limit of %u",
                    (unsigned long long)frames, (double)p->rate, SKM_MAX_FRAMES);
    p->frames = (uint32_t)frames;
    return OSSA_OK;
}

/* One frame's parent-relative poses of every bone. */
static void put_poses(ossa_wbuf *o, const ossa_model *m, const float *lt, const float *lr)
{
    for (uint32_t j = 0; j < m->bone_count; j++) {
        float q[4];
        memcpy(q, lr + 4 * (size_t)j, sizeof q);
        ossa_quat_normalize(q);
        for (int k = 0; k < 4; k++)
            ossa_wbuf_f32(o, q[k]);
        for (int k = 0; k < 3; k++)
            ossa_wbuf_f32(o, lt[3 * (size_t)j + k]);
    }
}

static ossa_status build_skp(const ossa_model *m, const skp_plan *p, ossa_wbuf *o, float *work,
                             const char *path, ossa_error *err)
{
    uint32_t nb = m->bone_count;
    float *lt = work, *lr = lt + 3 * (size_t)nb, *ls = lr + 4 * (size_t)nb;
    float *bt = ls + 3 * (size_t)nb, *br = bt + 3 * (size_t)nb;
    uint32_t ofs_bones = SKP_HEADER_BYTES;
    uint32_t ofs_frames = ofs_bones + nb * SKP_BONE_BYTES;
    size_t ofs_poses = (size_t)ofs_frames + (size_t)p->frames * SKP_FRAME_BYTES;
    size_t pose_bytes = (size_t)nb * SKP_POSE_BYTES;
    size_t total = ofs_poses + (size_t)p->frames * pose_bytes;
    if (total > SKM_MAX_FILESIZE)
        return ossa_write_fail(err, OSSA_ERR_UNSUPPORTED, path,
                    "%u frames of %u bones take %zu bytes; SKP files hold at most %u", p->frames,
                    nb, total, SKM_MAX_FILESIZE);

    ossa_wbuf_grow(o, 4);
    if (!o->failed)
        memcpy(o->data, SKM_ID, 4);
    ossa_wbuf_u32(o, SKM_MODELTYPE);
    ossa_wbuf_u32(o, (uint32_t)total);
    ossa_wbuf_u32(o, nb);
    ossa_wbuf_u32(o, p->frames);
    ossa_wbuf_u32(o, ofs_bones);
    ossa_wbuf_u32(o, ofs_frames);
    for (uint32_t j = 0; j < nb; j++) {
        put_name(o, m->bones[j].name);
        ossa_wbuf_u32(o, (uint32_t)m->bones[j].parent);
        ossa_wbuf_u32(o, m->bones[j].flags & OSSA_BONE_ATTACH ? SKM_BONEFLAG_ATTACH : 0u);
    }
    uint32_t f = 0;
    char name[SKM_NAME_BYTES + 16];
    for (uint32_t i = 0; i < m->clip_count; i++)
        for (uint32_t k = 0; k < p->clip_frames[i]; k++) {
            snprintf(name, sizeof name, "%s_%u", m->clips[i].name, k + 1);
            put_name(o, name);
            ossa_wbuf_u32(o, (uint32_t)(ofs_poses + pose_bytes * f++));
        }
    put_name(o, p->bind_name);
    ossa_wbuf_u32(o, (uint32_t)(ofs_poses + pose_bytes * f++));

    /* Every clip as a cycle, one frame per 1/rate seconds; the local pose is all a frame keeps. */
    ossa_reference_pose frame = {.lt = lt, .lr = lr, .ls = ls, .bone_capacity = nb};
    for (uint32_t i = 0; i < m->clip_count; i++) {
        const ossa_clip *c = &m->clips[i];
        for (uint32_t k = 0; k < p->clip_frames[i]; k++) {
            ossa_reference_pose_at(m, c, (float)k / p->rate, OSSA_WRAP_LOOP, &frame, NULL);
            put_poses(o, m, lt, lr);
        }
    }

    /* The last frame: the bind pose, parent-relative. */
    for (uint32_t j = 0; j < nb; j++)
        bind_pose(&m->bones[j], bt + 3 * (size_t)j, br + 4 * (size_t)j);
    for (uint32_t j = 0; j < nb; j++) {
        const float *t = bt + 3 * (size_t)j, *r = br + 4 * (size_t)j;
        float *olt = lt + 3 * (size_t)j, *olr = lr + 4 * (size_t)j;
        int32_t parent = m->bones[j].parent;
        if (parent < 0) {
            memcpy(olt, t, 3 * sizeof *t);
            memcpy(olr, r, 4 * sizeof *r);
            continue;
        }
        const float *pt = bt + 3 * (size_t)parent, *pr = br + 4 * (size_t)parent;
        float pinv[4] = {-pr[0], -pr[1], -pr[2], pr[3]};
        double d[3] = {(double)t[0] - pt[0], (double)t[1] - pt[1], (double)t[2] - pt[2]}, local[3];
        ossa_quat_rotate_d(pinv, d, local);
        for (int k = 0; k < 3; k++)
            olt[k] = (float)local[k];
        ossa_quat_mul(pinv, r, olr);
    }
    put_poses(o, m, lt, lr);
    if (o->failed)
        return ossa_write_fail(err, OSSA_ERR_NOMEM, path, "out of memory building the file");
    return OSSA_OK;
}

/* The submeshes one SKM file holds: every mesh of that level of detail, in model order. */
typedef struct skm_part {
    const ossa_mesh *mesh;
    const ossa_submesh *sm;
} skm_part;

static ossa_status put_mesh_data(ossa_wbuf *o, const ossa_model *m, const skm_part *part,
                                 size_t record_at, bool *used, const float *bt, const float *br)
{
    const ossa_submesh *sm = part->sm;
    ossa_wbuf_patch_u32(o, record_at + 140, (uint32_t)o->size);
    memset(used, 0, m->bone_count * sizeof *used);
    for (uint32_t v = 0; v < sm->vertex_count; v++) {
        const float *p = sm->positions + 3 * (size_t)v, *n = sm->normals + 3 * (size_t)v;
        uint32_t a = sm->influence_start[v], e = sm->influence_start[v + 1];
        const ossa_influence whole_root = {0, 1.0f};
        const ossa_influence *inf = a < e ? sm->influences + a : &whole_root;
        uint32_t count = a < e ? e - a : 1;
        ossa_wbuf_u32(o, count);
        for (uint32_t k = 0; k < count; k++) {
            uint32_t j = inf[k].bone;
            double w = inf[k].weight;
            used[j] = true;
            /* Into bone space, pre-weighted: R^-1 (u - w T), u the influence's own pre-weighted
             * point where the model keeps one (C3S, SKM), else w p. */
            const float *t = bt + 3 * (size_t)j, *r = br + 4 * (size_t)j;
            float rinv[4] = {-r[0], -r[1], -r[2], r[3]};
            double d[3];
            for (int c = 0; c < 3; c++) {
                double u = a < e && sm->influence_points
                               ? (double)sm->influence_points[3 * (size_t)(a + k) + c]
                               : w * p[c];
                d[c] = u - w * t[c];
            }
            double nn[3] = {n[0], n[1], n[2]}, bo[3], bn[3];
            ossa_quat_rotate_d(rinv, d, bo);
            ossa_quat_rotate_d(rinv, nn, bn);
            for (int c = 0; c < 3; c++)
                ossa_wbuf_f32(o, (float)bo[c]);
            ossa_wbuf_f32(o, (float)w);
            for (int c = 0; c < 3; c++)
                ossa_wbuf_f32(o, (float)(w * bn[c]));
            ossa_wbuf_u32(o, j);
        }
    }
    ossa_wbuf_patch_u32(o, record_at + 144, (uint32_t)o->size);
    for (uint32_t v = 0; v < sm->vertex_count; v++) {
        const float *uv = sm->uv_set_count ? sm->uvs + 2 * (size_t)sm->uv_set_count * v : NULL;
        ossa_wbuf_f32(o, uv ? uv[0] : 0.0f);
        ossa_wbuf_f32(o, uv ? uv[1] : 0.0f);
    }
    ossa_wbuf_patch_u32(o, record_at + 148, (uint32_t)o->size);
    for (size_t i = 0; i < 3 * (size_t)sm->face_count; i++)
        ossa_wbuf_u32(o, sm->indices[i]);
    ossa_wbuf_patch_u32(o, record_at + 152, (uint32_t)o->size);
    uint32_t refs = 0;
    for (uint32_t j = 0; j < m->bone_count; j++)
        if (used[j]) {
            ossa_wbuf_u32(o, j);
            refs++;
        }
    ossa_wbuf_patch_u32(o, record_at + 136, refs);
    return OSSA_OK;
}

static ossa_status build_skm(const ossa_model *m, const skm_part *parts, uint32_t count,
                             ossa_wbuf *o, float *work, bool *used, const char *path,
                             ossa_error *err)
{
    uint32_t nb = m->bone_count;
    float *bt = work, *br = bt + 3 * (size_t)nb;
    for (uint32_t j = 0; j < nb; j++)
        bind_pose(&m->bones[j], bt + 3 * (size_t)j, br + 4 * (size_t)j);
    ossa_wbuf_grow(o, 4);
    if (!o->failed)
        memcpy(o->data, SKM_ID, 4);
    ossa_wbuf_u32(o, SKM_MODELTYPE);
    ossa_wbuf_u32(o, 0); /* file size, patched below */
    ossa_wbuf_u32(o, nb);
    ossa_wbuf_u32(o, count);
    ossa_wbuf_u32(o, SKM_HEADER_BYTES);
    for (uint32_t i = 0; i < count; i++) {
        const ossa_submesh *sm = parts[i].sm;
        int32_t mat = sm->material;
        const char *shader = mat >= 0 && (uint32_t)mat < m->material_count && m->materials[mat].name
                                 ? m->materials[mat].name : "";
        const char *mesh_name = parts[i].mesh->name ? parts[i].mesh->name : "";
        if (strlen(shader) > SKM_NAME_MAX || strlen(mesh_name) > SKM_NAME_MAX)
            return ossa_write_fail(err, OSSA_ERR_UNSUPPORTED, path,
                        "mesh '%s' or its material '%s' has a name longer than SKM's %u "
                        "characters", mesh_name, shader, SKM_NAME_MAX);
        put_name(o, shader);
        put_name(o, mesh_name);
        ossa_wbuf_u32(o, sm->vertex_count);
        ossa_wbuf_u32(o, sm->face_count);
        for (int k = 0; k < 5; k++)
            ossa_wbuf_u32(o, 0); /* reference count and offsets, patched with the data */
    }
    for (uint32_t i = 0; i < count && !o->failed; i++)
        put_mesh_data(o, m, &parts[i], SKM_HEADER_BYTES + (size_t)i * SKM_MESH_BYTES, used, bt,
                      br);
    if (o->failed)
        return ossa_write_fail(err, OSSA_ERR_NOMEM, path, "out of memory building the file");
    if (o->size > SKM_MAX_FILESIZE)
        return ossa_write_fail(err, OSSA_ERR_UNSUPPORTED, path,
                    "the meshes take %zu bytes; SKM files hold at most %u", o->size,
                    SKM_MAX_FILESIZE);
    ossa_wbuf_patch_u32(o, 8, (uint32_t)o->size);
    return OSSA_OK;
}

/* The parts of one level of detail, checked against the format's limits. */
static ossa_status collect_parts(const ossa_model *m, uint32_t lod, skm_part *parts,
                                 uint32_t *count, const char *path, ossa_error *err)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const ossa_mesh *mesh = &m->meshes[i];
        if (mesh->lod != lod)
            continue;
        for (uint32_t s = 0; s < mesh->submesh_count; s++) {
            const ossa_submesh *sm = &mesh->submeshes[s];
            if (!sm->vertex_count || !sm->face_count)
                continue;
            if (sm->vertex_count > SKM_MAX_VERTS || sm->face_count > SKM_MAX_TRIS)
                return ossa_write_fail(err, OSSA_ERR_UNSUPPORTED, path,
                            "mesh '%s' submesh %u has %u vertices and %u triangles; SKM "
                            "allows %u and %u", mesh->name, s, sm->vertex_count,
                            sm->face_count, SKM_MAX_VERTS, SKM_MAX_TRIS);
            if (n == SKM_MAX_MESHES)
                return ossa_write_fail(err, OSSA_ERR_UNSUPPORTED, path,
                            "more than %u submeshes at level of detail %u", SKM_MAX_MESHES, lod);
            parts[n].mesh = mesh;
            parts[n].sm = sm;
            n++;
        }
    }
    *count = n;
    return OSSA_OK;
}

typedef struct skm_files {
    char path[SKM_MAX_LODS + 2][4096];
    ossa_wbuf data[SKM_MAX_LODS + 2];
    uint32_t count;
} skm_files;

static ossa_status write_all(const ossa_model *m, const char *dir, const char *base, float rate,
                             const ossa_write_guard *guard, skm_files *fs, float *work,
                             bool *used, uint32_t *clip_frames, ossa_error *err)
{
    const char *sep = dir[0] && dir[strlen(dir) - 1] != '/' ? "/" : "";
    char *skp_path = fs->path[fs->count];
    if (snprintf(skp_path, sizeof fs->path[0], "%s%s%s.skp", dir, sep, base) >=
        (int)sizeof fs->path[0])
        return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, base, "the path is too long");
    skp_plan plan = {rate, 0, clip_frames, ""};
    if (m->bone_count == 0 || m->bone_count > SKM_MAX_BONES)
        return ossa_write_fail(err, OSSA_ERR_UNSUPPORTED, skp_path,
                    "the model has %u bones; SKM/SKP needs 1..%u", m->bone_count, SKM_MAX_BONES);
    for (uint32_t i = 0; i < m->mesh_count; i++)
        if (m->meshes[i].lod > SKM_MAX_LODS)
            return ossa_write_fail(err, OSSA_ERR_UNSUPPORTED, skp_path,
                        "mesh '%s' has level of detail %u; SKM files go up to _lod%u",
                        m->meshes[i].name, m->meshes[i].lod, SKM_MAX_LODS);
    OSSA_TRY(plan_skp(m, &plan, skp_path, err));
    OSSA_TRY(build_skp(m, &plan, &fs->data[fs->count], work, skp_path, err));
    fs->count++;

    skm_part parts[SKM_MAX_MESHES];
    for (uint32_t lod = 0; lod <= SKM_MAX_LODS; lod++) {
        char *path = fs->path[fs->count];
        int len = lod ? snprintf(path, sizeof fs->path[0], "%s%s%s_lod%u.skm", dir, sep, base, lod)
                      : snprintf(path, sizeof fs->path[0], "%s%s%s.skm", dir, sep, base);
        if (len >= (int)sizeof fs->path[0])
            return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, base, "the path is too long");
        uint32_t count = 0;
        OSSA_TRY(collect_parts(m, lod, parts, &count, path, err));
        if (!count)
            continue;
        OSSA_TRY(build_skm(m, parts, count, &fs->data[fs->count], work, used, path, err));
        fs->count++;
    }

    /* the .skp and every .skm replace their targets together, or none does */
    ossa_out_set out;
    ossa_out_init(&out, guard, err);
    ossa_status st = OSSA_OK;
    for (uint32_t i = 0; i < fs->count && st == OSSA_OK; i++)
        st = fs->data[i].failed
                 ? ossa_write_fail(err, OSSA_ERR_NOMEM, fs->path[i], "out of memory")
                 : ossa_out_add(&out, fs->path[i], fs->data[i].data, fs->data[i].size, NULL, 0);
    if (st == OSSA_OK)
        st = ossa_out_commit(&out);
    ossa_out_free(&out);
    return st;
}

ossa_status ossa_write_skm(const ossa_model *m, const char *dir, const char *base,
                           const ossa_skm_write_options *opt, ossa_error *err)
{
    static const ossa_skm_write_options defaults = {0};
    if (!opt)
        opt = &defaults;
    const float frame_rate = opt->frame_rate;
    ossa_error_clear(err);
    if (!m || !dir || !base || !base[0])
        return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, base, "no model, folder or base name");
    if (!(frame_rate >= 0.0f) || !(frame_rate <= 1000.0f))
        return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, base,
                    "frame rate %g is not in 0..1000 (0: 10 per second)", (double)frame_rate);
    float rate = frame_rate > 0.0f ? frame_rate : SKP_DEFAULT_FRAME_RATE;
    /* Every index below is trusted only after validation. */
    ossa_error verr;
    ossa_error_clear(&verr);
    ossa_status valid = ossa_model_validate(m, &verr);
    if (valid != OSSA_OK)
        return ossa_write_fail(err, valid, base, "the model is not valid: %s", verr.message);
    size_t nb = m->bone_count ? m->bone_count : 1;
    float *work = malloc(nb * 17 * sizeof *work); /* local t r s, bind t r */
    bool *used = malloc(nb * sizeof *used);
    uint32_t *clip_frames = malloc((m->clip_count ? m->clip_count : 1) * sizeof *clip_frames);
    skm_files *fs = calloc(1, sizeof *fs);
    ossa_status st;
    if (!work || !used || !clip_frames || !fs)
        st = ossa_write_fail(err, OSSA_ERR_NOMEM, base, "out of memory");
    else
        st = write_all(m, dir, base, rate, &opt->guard, fs, work, used, clip_frames, err);
    if (fs)
        for (uint32_t i = 0; i < SKM_MAX_LODS + 2; i++)
            free(fs->data[i].data);
    free(fs);
    free(clip_frames);
    free(used);
    free(work);
    return st;
}
