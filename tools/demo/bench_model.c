/* Synthetic benchmark models (see bench_model.h). */
#include <cglm/cglm.h>
#include "bench_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ossa/build.h"
#include "ossa/limits.h"

/* Returns a failed status from the enclosing function. */
#define TRY(expr)                          \
    do {                                   \
        ossa_status try_status_ = (expr);  \
        if (try_status_ != OSSA_OK)        \
            return try_status_;            \
    } while (0)

/* splitmix64: small, seedable, and the state lives with the caller. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi). */
static float rng_float(uint64_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)((double)(rng_next(s) >> 40) / (double)(1ull << 24));
}

static uint32_t rng_below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(rng_next(s) % n);
}

static void rng_unit(uint64_t *s, float v[3])
{
    for (;;) {
        for (int k = 0; k < 3; k++)
            v[k] = rng_float(s, -1.0f, 1.0f);
        float len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        if (len2 > 1e-4f && len2 <= 1.0f) {
            float inv = 1.0f / sqrtf(len2);
            for (int k = 0; k < 3; k++)
                v[k] *= inv;
            return;
        }
    }
}

/* A rotation by a random angle in [-max_angle, max_angle] about a random axis. */
static void rng_quat(uint64_t *s, float max_angle, float q[4])
{
    float axis[3];
    rng_unit(s, axis);
    float half = 0.5f * rng_float(s, -max_angle, max_angle);
    float sh = sinf(half);
    q[0] = axis[0] * sh;
    q[1] = axis[1] * sh;
    q[2] = axis[2] * sh;
    q[3] = cosf(half);
}

static ossa_status build_skeleton(ossa_builder *b, const bench_model_params *p, uint64_t *rng)
{
    uint32_t n = p->bones;
    ossa_bone *bones;
    uint32_t *children, *child_fill;
    float *model_t, *model_r;
    TRY(ossa_builder_alloc(b, &bones, n, sizeof *bones));
    TRY(ossa_builder_alloc(b, &children, n, sizeof *children));
    TRY(ossa_builder_alloc(b, &child_fill, n, sizeof *child_fill));
    TRY(ossa_builder_alloc(b, &model_t, 3 * (size_t)n, sizeof *model_t));
    TRY(ossa_builder_alloc(b, &model_r, 4 * (size_t)n, sizeof *model_r));
    /* Mostly chains with some branching, like a character: the parent is one of the last four
     * bones. Parents precede children, so set_skeleton keeps this order. */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t span = i < 4 ? i : 4;
        bones[i].parent = i ? (int32_t)(i - 1 - rng_below(rng, span)) : -1;
    }
    for (uint32_t i = 1; i < n; i++)
        bones[bones[i].parent].child_count++;
    uint32_t used = 0;
    for (uint32_t i = 0; i < n; i++) {
        child_fill[i] = used;
        used += bones[i].child_count;
    }
    for (uint32_t i = 1; i < n; i++)
        children[child_fill[bones[i].parent]++] = i;
    used = 0;
    for (uint32_t i = 0; i < n; i++) {
        ossa_bone *bn = &bones[i];
        char name[32];
        int len = snprintf(name, sizeof name, "bone%u", i);
        TRY(ossa_builder_strndup(b, &bn->name, name, (size_t)len));
        bn->children = bn->child_count ? children + used : NULL;
        used += bn->child_count;
        bn->rest_t[0] = rng_float(rng, -0.1f, 0.1f);
        bn->rest_t[1] = i ? rng_float(rng, 0.05f, 0.2f) : 0.0f;
        bn->rest_t[2] = rng_float(rng, -0.1f, 0.1f);
        rng_quat(rng, 0.6f, bn->rest_r);
        bn->rest_s[0] = bn->rest_s[1] = bn->rest_s[2] = 1.0f;
        float *mt = model_t + 3 * i, *mr = model_r + 4 * i;
        if (bn->parent < 0) {
            memcpy(mt, bn->rest_t, 3 * sizeof(float));
            memcpy(mr, bn->rest_r, 4 * sizeof(float));
        } else {
            const float *pt = model_t + 3 * bn->parent, *pr = model_r + 4 * bn->parent;
            float rotated[3];
            glm_quat_rotatev((float *)pr, bn->rest_t, rotated);
            for (int k = 0; k < 3; k++)
                mt[k] = pt[k] + rotated[k];
            glm_quat_mul((float *)pr, bn->rest_r, mr);
        }
        /* The bind inverse: model space -> bone space. */
        float inv_r[4] = {-mr[0], -mr[1], -mr[2], mr[3]};
        float inv_t[3];
        glm_quat_rotatev((float *)inv_r, mt, inv_t);
        for (int k = 0; k < 3; k++)
            bn->inv_bind_t[k] = -inv_t[k];
        memcpy(bn->inv_bind_r, inv_r, sizeof inv_r);
    }
    return ossa_builder_set_skeleton(b, bones, n);
}

static ossa_status build_mesh(ossa_builder *b, const bench_model_params *p, uint64_t *rng)
{
    ossa_mesh *mesh;
    TRY(ossa_builder_add_mesh(b, &mesh));
    TRY(ossa_builder_strndup(b, &mesh->name, "synthetic", 9));
    mesh->format = OSSA_FORMAT_DEMO;
    mesh->version = 1;
    ossa_submesh *sm;
    TRY(ossa_builder_alloc(b, &sm, 1, sizeof *sm));
    size_t nv = p->vertices, k = p->influences;
    size_t faces = nv / 3;
    float *pos, *nrm;
    uint32_t *start, *idx;
    ossa_influence *inf;
    TRY(ossa_builder_alloc(b, &pos, 3 * nv, sizeof *pos));
    TRY(ossa_builder_alloc(b, &nrm, 3 * nv, sizeof *nrm));
    TRY(ossa_builder_alloc(b, &start, nv + 1, sizeof *start));
    TRY(ossa_builder_alloc(b, &inf, nv * k, sizeof *inf));
    TRY(ossa_builder_alloc(b, &idx, 3 * (faces ? faces : 1), sizeof *idx));
    for (size_t v = 0; v < nv; v++) {
        for (int c = 0; c < 3; c++)
            pos[3 * v + c] = rng_float(rng, -1.0f, 1.0f);
        rng_unit(rng, nrm + 3 * v);
        start[v] = (uint32_t)(v * k);
        ossa_influence *vi = inf + v * k;
        float sum = 0.0f;
        for (size_t j = 0; j < k; j++) {
            uint32_t bone;
            int dup;
            do { /* distinct bones per vertex, as exporters write them */
                bone = rng_below(rng, p->bones);
                dup = 0;
                for (size_t q = 0; q < j; q++)
                    dup |= vi[q].bone == bone;
            } while (dup);
            vi[j].bone = bone;
            vi[j].weight = rng_float(rng, 0.05f, 1.0f);
            sum += vi[j].weight;
        }
        for (size_t j = 0; j < k; j++)
            vi[j].weight /= sum;
    }
    start[nv] = (uint32_t)(nv * k);
    for (size_t i = 0; i < 3 * faces; i++)
        idx[i] = (uint32_t)i;
    sm->material = -1;
    sm->vertex_count = (uint32_t)nv;
    sm->face_count = (uint32_t)faces;
    sm->lod_count = 0;
    sm->max_influences = nv ? (uint32_t)k : 0;
    sm->positions = pos;
    sm->normals = nrm;
    sm->influence_start = start;
    sm->influences = inf;
    sm->indices = idx;
    mesh->submesh_count = 1;
    mesh->submeshes = sm;
    return OSSA_OK;
}

static ossa_status build_clip(ossa_builder *b, const bench_model_params *p, uint32_t index,
                              uint64_t *rng)
{
    ossa_clip *clip;
    char name[24];
    int len = snprintf(name, sizeof name, index ? "random%u" : "random", index);
    TRY(ossa_builder_add_clip(b, &clip));
    TRY(ossa_builder_strndup(b, &clip->name, name, (size_t)len));
    clip->duration = p->duration;
    clip->format = OSSA_FORMAT_DEMO;
    clip->version = 1;
    uint32_t n = ossa_builder_model(b)->bone_count, keys = p->keys;
    ossa_track *tracks;
    TRY(ossa_builder_alloc(b, &tracks, n, sizeof *tracks));
    for (uint32_t bone = 0; bone < n; bone++) {
        const ossa_bone *rest = &ossa_builder_model(b)->bones[bone];
        float *times, *tv, *rv;
        TRY(ossa_builder_alloc(b, &times, keys, sizeof *times));
        TRY(ossa_builder_alloc(b, &tv, 3 * (size_t)keys, sizeof *tv));
        TRY(ossa_builder_alloc(b, &rv, 4 * (size_t)keys, sizeof *rv));
        for (uint32_t k = 0; k < keys; k++) {
            times[k] = k + 1 == keys ? p->duration : p->duration * (float)k / (float)(keys - 1);
            if (k + 1 == keys) { /* the last key repeats the first: a seamless loop */
                memcpy(tv + 3 * k, tv, 3 * sizeof(float));
                memcpy(rv + 4 * k, rv, 4 * sizeof(float));
                continue;
            }
            for (int c = 0; c < 3; c++)
                tv[3 * k + c] = rest->rest_t[c] + rng_float(rng, -0.02f, 0.02f);
            float d[4];
            rng_quat(rng, 0.8f, d);
            glm_quat_mul((float *)rest->rest_r, d, rv + 4 * k);
        }
        tracks[bone].bone = bone;
        tracks[bone].key_count = keys;
        tracks[bone].times = times;
        tracks[bone].translations = tv;
        tracks[bone].rotations = rv;
    }
    clip->track_count = n;
    clip->tracks = tracks;
    return OSSA_OK;
}

static ossa_status build_all(ossa_builder *b, const bench_model_params *p)
{
    ossa_model *m = ossa_builder_model(b);
    TRY(ossa_builder_strndup(b, &m->source, "(synthetic)", 11));
    m->format = OSSA_FORMAT_DEMO;
    m->version = 1;
    m->skeleton_format = OSSA_FORMAT_DEMO;
    m->skeleton_version = 1;
    uint64_t rng = p->seed;
    TRY(build_skeleton(b, p, &rng));
    if (p->vertices)
        TRY(build_mesh(b, p, &rng));
    for (uint32_t c = 0; c < (p->clips ? p->clips : 1); c++)
        TRY(build_clip(b, p, c, &rng));
    return OSSA_OK;
}

ossa_status bench_synthetic_model(const bench_model_params *p, ossa_model **out, ossa_error *err)
{
    if (!out)
        return OSSA_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (err)
        ossa_error_clear(err);
    if (!p || p->bones < 1 || p->bones > OSSA_MAX_BONES || p->vertices > OSSA_MAX_VERTICES ||
        (p->vertices && (p->influences < 1 || p->influences > p->bones ||
                         p->influences > OSSA_MAX_INFLUENCES)) ||
        p->keys < 2 || p->keys > OSSA_MAX_KEYS || !(p->duration > 0.0f) ||
        p->clips > OSSA_MAX_FILES) {
        if (err) {
            err->status = OSSA_ERR_INVALID_ARGUMENT;
            snprintf(err->message, sizeof err->message,
                     "synthetic model: need 1..%u bones, at most %u vertices, 1..min(bones, %u) "
                     "influences, >= 2 keys", OSSA_MAX_BONES, OSSA_MAX_VERTICES,
                     OSSA_MAX_INFLUENCES);
        }
        return OSSA_ERR_INVALID_ARGUMENT;
    }
    ossa_builder *b;
    ossa_status st = ossa_builder_create("synthetic", &b, err);
    if (st != OSSA_OK)
        return st;
    return ossa_builder_finish(b, build_all(b, p), out);
}
