/* The built-in demo model: a mannequin of boxes on a 19-bone skeleton with three looping clips,
 * all made in code through the same build API the file readers use (so it is validated the same
 * way). Y up, facing +Z, feet at y = 0, about 1.8 units tall. */
#include <cglm/cglm.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ossa/build.h"
#include "demo.h"

/* Returns a failed status from the enclosing function. */
#define TRY(expr)                          \
    do {                                   \
        ossa_status try_status_ = (expr);  \
        if (try_status_ != OSSA_OK)        \
            return try_status_;            \
    } while (0)

#define DEMO_PI 3.14159265358979f

enum { MAT_SKIN, MAT_SHIRT, MAT_TROUSERS, MAT_COUNT };

/* One bone: where it sits on its parent, a rest rotation about its own Z axis, the box drawn for
 * it in its own frame, and whether the box's top ring blends with the parent (elbows, knees). */
typedef struct demo_bone {
    const char *name;
    int32_t parent;
    float t[3];
    float rest_z; /* radians */
    float box_min[3], box_max[3];
    int material;
    int blend_top;
} demo_bone;

enum {
    B_PELVIS, B_SPINE, B_CHEST, B_NECK, B_HEAD,
    B_SHOULDER_L, B_UPPERARM_L, B_LOWERARM_L, B_HAND_L,
    B_SHOULDER_R, B_UPPERARM_R, B_LOWERARM_R, B_HAND_R,
    B_THIGH_L, B_CALF_L, B_FOOT_L,
    B_THIGH_R, B_CALF_R, B_FOOT_R,
    B_COUNT
};

static const demo_bone demo_bones[B_COUNT] = {
    {"pelvis", -1, {0, 1.0f, 0}, 0,
     {-0.14f, -0.08f, -0.09f}, {0.14f, 0.10f, 0.09f}, MAT_TROUSERS, 0},
    {"spine", B_PELVIS, {0, 0.10f, 0}, 0, {-0.13f, 0, -0.08f}, {0.13f, 0.25f, 0.08f}, MAT_SHIRT, 0},
    {"chest", B_SPINE, {0, 0.25f, 0}, 0, {-0.17f, 0, -0.10f}, {0.17f, 0.22f, 0.10f}, MAT_SHIRT, 0},
    {"neck", B_CHEST, {0, 0.20f, 0}, 0, {-0.04f, 0, -0.04f}, {0.04f, 0.08f, 0.04f}, MAT_SKIN, 0},
    {"head", B_NECK, {0, 0.08f, 0}, 0, {-0.09f, 0, -0.10f}, {0.09f, 0.17f, 0.11f}, MAT_SKIN, 0},
    {"shoulder_l", B_CHEST, {0.10f, 0.17f, 0}, 0,
     {0, -0.05f, -0.06f}, {0.10f, 0.04f, 0.06f}, MAT_SHIRT, 0},
    {"upperarm_l", B_SHOULDER_L, {0.12f, 0, 0}, 0.12f,
     {-0.045f, -0.28f, -0.045f}, {0.045f, 0.02f, 0.045f}, MAT_SHIRT, 0},
    {"lowerarm_l", B_UPPERARM_L, {0, -0.28f, 0}, 0,
     {-0.04f, -0.25f, -0.04f}, {0.04f, 0, 0.04f}, MAT_SKIN, 1},
    {"hand_l", B_LOWERARM_L, {0, -0.25f, 0}, 0,
     {-0.035f, -0.15f, -0.05f}, {0.035f, 0, 0.05f}, MAT_SKIN, 0},
    {"shoulder_r", B_CHEST, {-0.10f, 0.17f, 0}, 0,
     {-0.10f, -0.05f, -0.06f}, {0, 0.04f, 0.06f}, MAT_SHIRT, 0},
    {"upperarm_r", B_SHOULDER_R, {-0.12f, 0, 0}, -0.12f,
     {-0.045f, -0.28f, -0.045f}, {0.045f, 0.02f, 0.045f}, MAT_SHIRT, 0},
    {"lowerarm_r", B_UPPERARM_R, {0, -0.28f, 0}, 0,
     {-0.04f, -0.25f, -0.04f}, {0.04f, 0, 0.04f}, MAT_SKIN, 1},
    {"hand_r", B_LOWERARM_R, {0, -0.25f, 0}, 0,
     {-0.035f, -0.15f, -0.05f}, {0.035f, 0, 0.05f}, MAT_SKIN, 0},
    {"thigh_l", B_PELVIS, {0.09f, -0.05f, 0}, 0,
     {-0.065f, -0.43f, -0.065f}, {0.065f, 0, 0.065f}, MAT_TROUSERS, 0},
    {"calf_l", B_THIGH_L, {0, -0.43f, 0}, 0,
     {-0.055f, -0.44f, -0.055f}, {0.055f, 0, 0.055f}, MAT_TROUSERS, 1},
    {"foot_l", B_CALF_L, {0, -0.44f, 0}, 0,
     {-0.05f, -0.08f, -0.06f}, {0.05f, 0, 0.18f}, MAT_SKIN, 0},
    {"thigh_r", B_PELVIS, {-0.09f, -0.05f, 0}, 0,
     {-0.065f, -0.43f, -0.065f}, {0.065f, 0, 0.065f}, MAT_TROUSERS, 0},
    {"calf_r", B_THIGH_R, {0, -0.43f, 0}, 0,
     {-0.055f, -0.44f, -0.055f}, {0.055f, 0, 0.055f}, MAT_TROUSERS, 1},
    {"foot_r", B_CALF_R, {0, -0.44f, 0}, 0,
     {-0.05f, -0.08f, -0.06f}, {0.05f, 0, 0.18f}, MAT_SKIN, 0},
};

static const struct {
    const char *name;
    float diffuse[3];
} demo_materials[MAT_COUNT] = {
    {"skin", {0.87f, 0.70f, 0.55f}},
    {"shirt", {0.20f, 0.42f, 0.80f}},
    {"trousers", {0.25f, 0.32f, 0.22f}},
};

/* A clip is a sum of sine channels: value = offset + amplitude * sin(2 pi cycles t / d + phase),
 * a rotation about one of the bone's own axes (radians) or a rise of the bone (units). */
typedef enum { CH_ROT_X, CH_ROT_Y, CH_ROT_Z, CH_RISE } channel_kind;

typedef struct demo_channel {
    int bone;
    channel_kind kind;
    float offset, amplitude, cycles, phase;
} demo_channel;

static const demo_channel walk_channels[] = {
    {B_PELVIS, CH_RISE, 0, 0.025f, 2, DEMO_PI / 2},
    {B_PELVIS, CH_ROT_Y, 0, 0.08f, 1, 0},
    {B_CHEST, CH_ROT_Y, 0, 0.10f, 1, DEMO_PI},
    {B_THIGH_L, CH_ROT_X, 0, 0.45f, 1, 0},
    {B_THIGH_R, CH_ROT_X, 0, 0.45f, 1, DEMO_PI},
    {B_CALF_L, CH_ROT_X, 0.35f, 0.30f, 1, -DEMO_PI / 2},
    {B_CALF_R, CH_ROT_X, 0.35f, 0.30f, 1, DEMO_PI / 2},
    {B_UPPERARM_L, CH_ROT_X, 0, 0.35f, 1, DEMO_PI},
    {B_UPPERARM_R, CH_ROT_X, 0, 0.35f, 1, 0},
    {B_LOWERARM_L, CH_ROT_X, -0.25f, 0, 1, 0},
    {B_LOWERARM_R, CH_ROT_X, -0.25f, 0, 1, 0},
};

static const demo_channel wave_channels[] = {
    {B_UPPERARM_R, CH_ROT_Z, -2.5f, 0, 1, 0},
    {B_LOWERARM_R, CH_ROT_Z, 0.4f, 0.45f, 4, 0},
    {B_HAND_R, CH_ROT_Z, 0, 0.30f, 4, DEMO_PI / 2},
    {B_HEAD, CH_ROT_Y, 0, 0.15f, 1, 0},
    {B_UPPERARM_L, CH_ROT_X, 0, 0.05f, 1, 0},
};

static const demo_channel idle_channels[] = {
    {B_PELVIS, CH_RISE, 0, 0.008f, 2, 0},
    {B_SPINE, CH_ROT_X, 0, 0.03f, 1, 0},
    {B_CHEST, CH_ROT_X, 0, 0.02f, 1, 0.5f},
    {B_HEAD, CH_ROT_Y, 0, 0.12f, 1, 0},
    {B_UPPERARM_L, CH_ROT_Z, 0, 0.04f, 1, 0},
    {B_UPPERARM_R, CH_ROT_Z, 0, -0.04f, 1, 0},
};

static const struct {
    const char *name;
    float duration;
    const demo_channel *channels;
    size_t channel_count;
} demo_clips[] = {
    {"walk", 1.0f, walk_channels, sizeof walk_channels / sizeof walk_channels[0]},
    {"wave", 2.0f, wave_channels, sizeof wave_channels / sizeof wave_channels[0]},
    {"idle", 2.0f, idle_channels, sizeof idle_channels / sizeof idle_channels[0]},
};

#define KEYS_PER_SECOND 30

/* ---- small Hamilton quaternion helpers (x, y, z, w) ---- */

static void quat_axis(float q[4], int axis, float angle)
{
    q[0] = q[1] = q[2] = 0.0f;
    q[axis] = sinf(0.5f * angle);
    q[3] = cosf(0.5f * angle);
}

/* ---- skeleton ---- */

static ossa_status build_skeleton(ossa_builder *b, float model_t[B_COUNT][3],
                                  float model_r[B_COUNT][4])
{
    ossa_bone bones[B_COUNT];
    uint32_t children[B_COUNT];
    uint32_t child_start[B_COUNT];
    memset(bones, 0, sizeof bones);
    /* Children lists in bone order; every parent precedes its children in the table. */
    uint32_t used = 0;
    for (uint32_t i = 0; i < B_COUNT; i++) {
        child_start[i] = used;
        for (uint32_t c = i + 1; c < B_COUNT; c++)
            if (demo_bones[c].parent == (int32_t)i)
                children[used++] = c;
        bones[i].child_count = used - child_start[i];
    }
    for (uint32_t i = 0; i < B_COUNT; i++) {
        const demo_bone *d = &demo_bones[i];
        ossa_bone *bn = &bones[i];
        bn->name = d->name;
        bn->parent = d->parent;
        bn->children = bn->child_count ? children + child_start[i] : NULL;
        memcpy(bn->rest_t, d->t, sizeof bn->rest_t);
        quat_axis(bn->rest_r, 2, d->rest_z);
        bn->rest_s[0] = bn->rest_s[1] = bn->rest_s[2] = 1.0f;
        /* Model-space rest transform, then its inverse (the bind inverse). */
        if (d->parent < 0) {
            memcpy(model_t[i], bn->rest_t, sizeof model_t[i]);
            memcpy(model_r[i], bn->rest_r, sizeof model_r[i]);
        } else {
            float rotated[3];
            glm_quat_rotatev((float *)model_r[d->parent], bn->rest_t, rotated);
            for (int k = 0; k < 3; k++)
                model_t[i][k] = model_t[d->parent][k] + rotated[k];
            glm_quat_mul((float *)model_r[d->parent], bn->rest_r, model_r[i]);
        }
        float inv_r[4] = {-model_r[i][0], -model_r[i][1], -model_r[i][2], model_r[i][3]};
        float inv_t[3];
        glm_quat_rotatev((float *)inv_r, model_t[i], inv_t);
        for (int k = 0; k < 3; k++)
            bn->inv_bind_t[k] = -inv_t[k];
        memcpy(bn->inv_bind_r, inv_r, sizeof inv_r);
    }
    /* set_skeleton copies names by pointer: give it arena copies. */
    for (uint32_t i = 0; i < B_COUNT; i++)
        TRY(ossa_builder_strndup(b, &bones[i].name, demo_bones[i].name,
                                    strlen(demo_bones[i].name)));
    return ossa_builder_set_skeleton(b, bones, B_COUNT);
}

/* ---- mesh ---- */

enum { BOX_VERTICES = 24, BOX_INDICES = 36 };

/* Appends one box of bone `bone` to a submesh being filled at vertex *nv and index *ni. */
static void emit_box(float *pos, float *nrm, uint32_t *idx,
                     ossa_influence *inf, uint32_t *inf_start, uint32_t *nv, uint32_t *ni,
                     uint32_t *ninf, uint32_t bone, const float mt[3], const float mr[4])
{
    const demo_bone *d = &demo_bones[bone];
    for (int axis = 0; axis < 3; axis++) {
        for (int sign = -1; sign <= 1; sign += 2) {
            int u = (axis + 1) % 3, v = (axis + 2) % 3;
            /* Corners counter-clockwise seen from outside: (u, v) order for +, reversed for -. */
            static const int corner_uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
            uint32_t base = *nv;
            for (int c = 0; c < 4; c++) {
                int cc = sign > 0 ? c : 3 - c;
                float local[3], normal[3] = {0, 0, 0};
                local[axis] = sign > 0 ? d->box_max[axis] : d->box_min[axis];
                local[u] = corner_uv[cc][0] ? d->box_max[u] : d->box_min[u];
                local[v] = corner_uv[cc][1] ? d->box_max[v] : d->box_min[v];
                normal[axis] = (float)sign;
                float p[3], n[3];
                glm_quat_rotatev((float *)mr, local, p);
                glm_quat_rotatev((float *)mr, normal, n);
                uint32_t vi = *nv;
                for (int k = 0; k < 3; k++) {
                    pos[3 * vi + k] = p[k] + mt[k];
                    nrm[3 * vi + k] = n[k];
                }
                inf_start[vi] = *ninf;
                if (d->blend_top && local[1] >= d->box_max[1]) {
                    inf[(*ninf)++] = (ossa_influence){bone, 0.5f};
                    inf[(*ninf)++] = (ossa_influence){(uint32_t)d->parent, 0.5f};
                } else {
                    inf[(*ninf)++] = (ossa_influence){bone, 1.0f};
                }
                inf_start[vi + 1] = *ninf;
                (*nv)++;
            }
            static const uint32_t quad[6] = {0, 1, 2, 0, 2, 3};
            for (int k = 0; k < 6; k++)
                idx[(*ni)++] = base + quad[k];
        }
    }
}

static ossa_status build_mesh(ossa_builder *b, float model_t[B_COUNT][3], float model_r[B_COUNT][4])
{
    ossa_mesh *mesh;
    TRY(ossa_builder_add_mesh(b, &mesh));
    TRY(ossa_builder_strndup(b, &mesh->name, "mannequin", 9));
    mesh->format = OSSA_FORMAT_DEMO;
    mesh->version = 1;
    ossa_submesh *subs;
    TRY(ossa_builder_alloc(b, &subs, MAT_COUNT, sizeof *subs));
    for (uint32_t m = 0; m < MAT_COUNT; m++) {
        uint32_t boxes = 0;
        for (uint32_t i = 0; i < B_COUNT; i++)
            boxes += demo_bones[i].material == (int)m;
        ossa_submesh *sm = &subs[m];
        uint32_t nv_total = boxes * BOX_VERTICES;
        float *pos, *nrm;
        uint32_t *idx, *inf_start;
        ossa_influence *inf;
        TRY(ossa_builder_alloc(b, &pos, 3 * (size_t)nv_total, sizeof *pos));
        TRY(ossa_builder_alloc(b, &nrm, 3 * (size_t)nv_total, sizeof *nrm));
        TRY(ossa_builder_alloc(b, &idx, (size_t)boxes * BOX_INDICES, sizeof *idx));
        TRY(ossa_builder_alloc(b, &inf_start, (size_t)nv_total + 1, sizeof *inf_start));
        TRY(ossa_builder_alloc(b, &inf, 2 * (size_t)nv_total, sizeof *inf));
        uint32_t nv = 0, ni = 0, ninf = 0;
        uint32_t max_inf = 0;
        for (uint32_t i = 0; i < B_COUNT; i++) {
            if (demo_bones[i].material != (int)m)
                continue;
            emit_box(pos, nrm, idx, inf, inf_start, &nv, &ni, &ninf, i, model_t[i],
                     model_r[i]);
        }
        for (uint32_t v = 0; v < nv; v++) {
            uint32_t n = inf_start[v + 1] - inf_start[v];
            if (n > max_inf)
                max_inf = n;
        }
        sm->material = (int32_t)m;
        sm->vertex_count = nv;
        sm->face_count = ni / 3;
        sm->lod_count = 1;
        sm->max_influences = max_inf;
        sm->positions = pos;
        sm->normals = nrm;
        sm->indices = idx;
        sm->influence_start = inf_start;
        sm->influences = inf;
    }
    mesh->submesh_count = MAT_COUNT;
    mesh->submeshes = subs;
    return OSSA_OK;
}

/* ---- materials ---- */

static ossa_status build_materials(ossa_builder *b)
{
    for (uint32_t m = 0; m < MAT_COUNT; m++) {
        ossa_material *mat;
        TRY(ossa_builder_add_material(b, &mat));
        TRY(ossa_builder_strndup(b, &mat->name, demo_materials[m].name,
                                    strlen(demo_materials[m].name)));
        for (int k = 0; k < 3; k++) {
            mat->diffuse[k] = demo_materials[m].diffuse[k];
            mat->ambient[k] = 0.3f * demo_materials[m].diffuse[k];
            mat->specular[k] = 0.2f;
        }
        mat->diffuse[3] = mat->ambient[3] = mat->specular[3] = 1.0f;
        mat->shininess = 20.0f;
        mat->format = OSSA_FORMAT_DEMO;
        mat->version = 1;
    }
    return OSSA_OK;
}

/* ---- clips ---- */

static float channel_value(const demo_channel *ch, float t, float duration)
{
    return ch->offset +
           ch->amplitude * sinf(2.0f * DEMO_PI * ch->cycles * t / duration + ch->phase);
}

static ossa_status build_clip(ossa_builder *b, size_t which)
{
    const demo_channel *chs = demo_clips[which].channels;
    size_t nch = demo_clips[which].channel_count;
    float duration = demo_clips[which].duration;
    /* One track per animated bone, bones in skeleton order. */
    int animated[B_COUNT] = {0};
    uint32_t track_count = 0;
    for (size_t c = 0; c < nch; c++)
        if (!animated[chs[c].bone]++)
            track_count++;
    ossa_clip *clip;
    TRY(ossa_builder_add_clip(b, &clip));
    TRY(ossa_builder_strndup(b, &clip->name, demo_clips[which].name,
                                strlen(demo_clips[which].name)));
    clip->duration = duration;
    clip->format = OSSA_FORMAT_DEMO;
    clip->version = 1;
    ossa_track *tracks;
    TRY(ossa_builder_alloc(b, &tracks, track_count, sizeof *tracks));
    /* Keys from 0 to duration inclusive: the last equals the first, so the loop is seamless. */
    uint32_t keys = (uint32_t)(duration * KEYS_PER_SECOND + 0.5f) + 1;
    uint32_t ti = 0;
    for (uint32_t bone = 0; bone < B_COUNT; bone++) {
        if (!animated[bone])
            continue;
        ossa_track *tr = &tracks[ti++];
        float *times, *tv, *rv;
        TRY(ossa_builder_alloc(b, &times, keys, sizeof *times));
        TRY(ossa_builder_alloc(b, &tv, 3 * (size_t)keys, sizeof *tv));
        TRY(ossa_builder_alloc(b, &rv, 4 * (size_t)keys, sizeof *rv));
        const ossa_bone *rest = &ossa_builder_model(b)->bones[bone];
        for (uint32_t k = 0; k < keys; k++) {
            float t = k + 1 == keys ? duration : duration * (float)k / (float)(keys - 1);
            times[k] = t;
            float q[4];
            memcpy(q, rest->rest_r, sizeof q);
            memcpy(tv + 3 * k, rest->rest_t, 3 * sizeof(float));
            for (size_t c = 0; c < nch; c++) {
                if (chs[c].bone != (int)bone)
                    continue;
                /* Evaluate the last key at time 0 so it matches the first exactly. */
                float value = channel_value(&chs[c], k + 1 == keys ? 0.0f : t, duration);
                if (chs[c].kind == CH_RISE) {
                    tv[3 * k + 1] += value;
                } else {
                    float d[4], prev[4];
                    quat_axis(d, (int)chs[c].kind, value);
                    memcpy(prev, q, sizeof prev); /* glm_quat_mul's output must not alias */
                    glm_quat_mul(prev, d, q);
                }
            }
            memcpy(rv + 4 * k, q, sizeof q);
        }
        tr->bone = bone;
        tr->key_count = keys;
        tr->times = times;
        tr->translations = tv;
        tr->rotations = rv;
    }
    clip->track_count = track_count;
    clip->tracks = tracks;
    return OSSA_OK;
}

static ossa_status build_all(ossa_builder *b)
{
    ossa_model *m = ossa_builder_model(b);
    TRY(ossa_builder_strndup(b, &m->source, "(demo)", 6));
    m->format = OSSA_FORMAT_DEMO;
    m->version = 1;
    m->skeleton_format = OSSA_FORMAT_DEMO;
    m->skeleton_version = 1;
    float model_t[B_COUNT][3], model_r[B_COUNT][4];
    TRY(build_skeleton(b, model_t, model_r));
    TRY(build_materials(b));
    TRY(build_mesh(b, model_t, model_r));
    for (size_t c = 0; c < sizeof demo_clips / sizeof demo_clips[0]; c++)
        TRY(build_clip(b, c));
    return OSSA_OK;
}

ossa_status ossa_demo_model(ossa_model **out, ossa_error *err)
{
    if (!out)
        return OSSA_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (err)
        ossa_error_clear(err);
    ossa_builder *b;
    ossa_status st = ossa_builder_create("demo", &b, err);
    if (st != OSSA_OK)
        return st;
    return ossa_builder_finish(b, build_all(b), out);
}
