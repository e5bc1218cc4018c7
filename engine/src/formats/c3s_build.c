/* Cannibal scene (C3S) reader, part 2: the model from the parsed scene (FORMAT-NOTES
 * Decision 9). Every SMDL becomes one mesh (plus one flagged OSSA_MESH_HIDDEN for its hidden
 * trifaces), with one submesh per material and sidedness; render vertices are split where a
 * vertex meets different texture vertices. All models' bones form one skeleton (several roots).
 * A bone-weighted vertex is Decision 9's sum over its weights of weightFactor x (bone applied to
 * offsetPos): its bind position is that sum at the base pose, and each weight keeps its own
 * pre-weighted bind-space point (ossa_submesh.influence_points), so skinning with the base pose's
 * inverse binds gives the formula exactly; vertex-frame keys become
 * submesh frames and vertex tracks. Disabled elements, and those below full detail (LOD 1.0),
 * are dropped. Implicit bones (BF_IMPLICIT, a flag the spec does not explain) are ordinary
 * bones here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/checked.h"
#include "core/limits.h"
#include "formats/c3s_internal.h"
#include "formats/formats.h"
#include "ossa/reference.h"

/* Largest frame data (floats) one model may expand into, and most bone-track keys (keyed
 * bones x key frames, over all sequences): sparse keys in a small file could otherwise ask for
 * gigabytes. */
#define C3S_MAX_FRAME_FLOATS (1u << 24)
#define C3S_MAX_TRACK_KEYS (1u << 22)

/* ---- small vector helpers ---- */

static void quat_rotate(const float q[4], const float v[3], float out[3])
{
    float u[3] = {q[0], q[1], q[2]}, w = q[3];
    float uv[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    float uuv[3] = {u[1] * uv[2] - u[2] * uv[1], u[2] * uv[0] - u[0] * uv[2],
                    u[0] * uv[1] - u[1] * uv[0]};
    for (int k = 0; k < 3; k++)
        out[k] = v[k] + 2.0f * (w * uv[k] + uuv[k]);
}

static void quat_mul(const float a[4], const float b[4], float out[4])
{
    float r[4];
    r[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    r[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    r[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    r[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    memcpy(out, r, sizeof r);
}

/* OCS a composed with OCS b (b acts first), in the engine's TRS composition. */
static void ocs_compose(const c3s_ocs *a, const c3s_ocs *b, c3s_ocs *out)
{
    float scaled[3] = {a->s[0] * b->t[0], a->s[1] * b->t[1], a->s[2] * b->t[2]}, moved[3];
    quat_rotate(a->q, scaled, moved);
    c3s_ocs r;
    for (int k = 0; k < 3; k++) {
        r.t[k] = a->t[k] + moved[k];
        r.s[k] = a->s[k] * b->s[k];
    }
    quat_mul(a->q, b->q, r.q);
    *out = r;
}

/* ---- per-model working state ---- */

typedef struct kept_face {
    uint32_t v[3];   /* 0-based VRTX, in the model's counter-clockwise winding */
    uint32_t tex[3]; /* 1-based TVRT, 0 none */
    uint32_t flags, material;
    uint32_t mesh, submesh, index; /* where it landed in the model */
} kept_face;

typedef struct face_group {
    bool hidden, two_sided;
    uint32_t material; /* 1-based MATR, 0 none */
    uint32_t mesh, submesh, face_count;
} face_group;

typedef struct built_submesh {
    ossa_submesh *sm;
    uint32_t *vrtx; /* vertex_count: 0-based VRTX of each render vertex */
    uint32_t *tex;  /* vertex_count: 1-based TVRT, 0 none */
} built_submesh;

typedef struct model_state {
    c3s_scene *sc;
    c3s_smdl *md;
    ossa_build *b;
    const float *world_t, *world_r, *world_s; /* base pose, model bone order */
    float *base_pos;    /* 3 per VRTX */
    float *weight_points; /* 3 per VRTX weight: weightFactor x rigid base bind(offsetPos) */
    bool *has_pos;
    uint32_t *vgroup_of, *vgroup_slot; /* per VRTX: 1-based group, index in it */
    uint32_t *tgroup_of, *tgroup_slot; /* per TVRT */
    float *base_uv;     /* 2 per TVRT */
    kept_face *faces;
    uint32_t face_count;
    uint32_t *face_slot; /* per TRIF: index into faces, UINT32_MAX when dropped */
    face_group *groups;
    uint32_t group_count;
    built_submesh *subs; /* per group */
    /* frame tuples: one frame (1-based, 0 = base) per group, per distinct key shape */
    uint32_t vtuple_count, ttuple_count;
    uint32_t *vtuples, *ttuples;
    uint32_t **seq_vframe, **seq_tframe; /* per sequence, per key: tuple index or UINT32_MAX */
} model_state;

/* ---- skeleton ---- */

/* The scene's bone names so far, hashed: a scene of 4096 bones that share one name made the
 * linear look-ups (a scan per candidate, a candidate per earlier duplicate) take minutes. Each
 * name also keeps the next "#k" suffix to try when it is taken as a prefix, so that naming every
 * duplicate is amortised O(1). */
typedef struct name_slot {
    const char *name;
    uint32_t next_suffix;
} name_slot;

typedef struct name_set {
    name_slot *slots;
    uint32_t mask;
} name_set;

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* The slot holding name, or the empty slot where it would go (the set is never full). */
static name_slot *name_find(const name_set *set, const char *name)
{
    uint32_t i = name_hash(name) & set->mask;
    while (set->slots[i].name && strcmp(set->slots[i].name, name) != 0)
        i = (i + 1) & set->mask;
    return &set->slots[i];
}

/* A bone name unique in the scene: as written, else prefixed with its model's name, else that
 * with the first free "#k" (k from 2). The name is added to the set. */
static ossa_status unique_bone_name(ossa_build *b, name_set *set, const char *model,
                                    const char *name, uint32_t index, const char **out)
{
    char text[512];
    if (name[0])
        snprintf(text, sizeof text, "%s", name);
    else
        snprintf(text, sizeof text, "bone%u", index + 1);
    name_slot *slot = name_find(set, text);
    if (slot->name) {
        char base[600], prefixed[640];
        snprintf(base, sizeof base, "%s:%s", model, text);
        snprintf(prefixed, sizeof prefixed, "%s", base);
        slot = name_find(set, base);
        if (slot->name) {
            name_slot *taken = slot;
            uint32_t k = taken->next_suffix;
            do {
                snprintf(prefixed, sizeof prefixed, "%s#%u", base, k++);
                slot = name_find(set, prefixed);
            } while (slot->name);
            taken->next_suffix = k;
        }
        OSSA_TRY(ossa_build_strndup(b, out, prefixed, strlen(prefixed)));
    } else {
        OSSA_TRY(ossa_build_strndup(b, out, text, strlen(text)));
    }
    slot->name = *out;
    slot->next_suffix = 2;
    return OSSA_OK;
}

/* Names every bone of the scene (fb holds total bones, in model order). */
static ossa_status name_bones(c3s_scene *sc, ossa_bone *fb, uint32_t total)
{
    ossa_build *b = sc->b;
    uint32_t cap = 16;
    while (cap < 2 * total)
        cap *= 2;
    name_set set = {calloc(cap, sizeof(name_slot)), cap - 1};
    if (!set.slots)
        return ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot allocate the names of %u bones", total);
    ossa_status st = OSSA_OK;
    for (uint32_t k = 0; k < sc->model_count && st == OSSA_OK; k++) {
        c3s_smdl *md = &sc->models[k];
        for (uint32_t i = 0; i < md->count[C3S_BONE] && st == OSSA_OK; i++)
            st = unique_bone_name(b, &set, md->name, md->subs[C3S_BONE][i].name, i,
                                  &fb[md->bone_base + i].name);
    }
    free(set.slots);
    return st;
}

static ossa_status build_skeleton(c3s_scene *sc, float **wt, float **wr, float **ws)
{
    ossa_build *b = sc->b;
    ossa_model *m = b->model;
    uint32_t total = 0;
    for (uint32_t k = 0; k < sc->model_count; k++) {
        sc->models[k].bone_base = total;
        total += sc->models[k].count[C3S_BONE];
        if (total > OSSA_MAX_BONES)
            return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)sc->models[k].at,
                             "the scene has more than %u bones", OSSA_MAX_BONES);
    }
    if (!total)
        return OSSA_OK;
    ossa_bone *fb;
    OSSA_TRY(ossa_build_array(b, &fb, total, sizeof *fb));
    OSSA_TRY(name_bones(sc, fb, total));
    for (uint32_t k = 0; k < sc->model_count; k++) {
        c3s_smdl *md = &sc->models[k];
        for (uint32_t i = 0; i < md->count[C3S_BONE]; i++) {
            const c3s_bone *src = &md->bones[i];
            uint32_t at = md->bone_base + i;
            ossa_bone *dst = &fb[at];
            dst->parent = src->parent ? (int32_t)(md->bone_base + src->parent - 1) : -1;
            memcpy(dst->rest_t, src->base.t, sizeof dst->rest_t);
            memcpy(dst->rest_r, src->base.q, sizeof dst->rest_r);
            memcpy(dst->rest_s, src->base.s, sizeof dst->rest_s);
            dst->inv_bind_r[3] = 1.0f;
            if (src->child_count) {
                uint32_t *kids;
                OSSA_TRY(ossa_build_array(b, &kids, src->child_count, sizeof *kids));
                for (uint32_t c = 0; c < src->child_count; c++)
                    kids[c] = md->bone_base + src->children[c] - 1;
                dst->children = kids;
                dst->child_count = src->child_count;
            }
        }
    }
    OSSA_TRY(ossa_build_set_skeleton(b, fb, total));
    m->skeleton_format = OSSA_FORMAT_C3S;
    m->skeleton_version = sc->models[0].version;

    /* The base pose in model space gives the inverse binds. */
    float *lt, *lr, *ls;
    OSSA_TRY(ossa_build_array(b, &lt, total, 3 * sizeof(float)));
    OSSA_TRY(ossa_build_array(b, &lr, total, 4 * sizeof(float)));
    OSSA_TRY(ossa_build_array(b, &ls, total, 3 * sizeof(float)));
    OSSA_TRY(ossa_build_array(b, wt, total, 3 * sizeof(float)));
    OSSA_TRY(ossa_build_array(b, wr, total, 4 * sizeof(float)));
    OSSA_TRY(ossa_build_array(b, ws, total, 3 * sizeof(float)));
    ossa_pose_rest(m, lt, lr, ls);
    ossa_local_to_model(m, lt, lr, ls, *wt, *wr, *ws);
    bool scaled = false;
    ossa_bone *bones = (ossa_bone *)m->bones;
    for (uint32_t i = 0; i < total; i++) {
        const float *r = *wr + 4 * i, *t = *wt + 3 * i, *s = *ws + 3 * i;
        float inv[4] = {-r[0], -r[1], -r[2], r[3]}, moved[3];
        quat_rotate(inv, t, moved);
        for (int k = 0; k < 3; k++)
            bones[i].inv_bind_t[k] = -moved[k];
        memcpy(bones[i].inv_bind_r, inv, sizeof inv);
        scaled |= fabsf(s[0] - 1.0f) > 1e-6f || fabsf(s[1] - 1.0f) > 1e-6f ||
                  fabsf(s[2] - 1.0f) > 1e-6f;
    }
    if (scaled)
        ossa_warn(b, "some bones have a non-unit base scale: the inverse binds ignore it; the "
                     "vertices they weight are skinned from their per-weight offsets, so they "
                     "still follow the file (the bind disagreement shows how far one bind vertex "
                     "would be off)");
    return OSSA_OK;
}

/* ---- materials ---- */

static ossa_status build_materials(c3s_scene *sc)
{
    ossa_build *b = sc->b;
    for (uint32_t k = 0; k < sc->model_count; k++) {
        c3s_smdl *md = &sc->models[k];
        md->material_base = b->model->material_count;
        for (uint32_t i = 0; i < md->count[C3S_MATR]; i++) {
            const c3s_material *src = &md->materials[i];
            ossa_material *mt = ossa_build_push_material(b);
            if (!mt)
                return OSSA_ERR_NOMEM;
            const char *name = md->subs[C3S_MATR][i].name;
            OSSA_TRY(ossa_build_strndup(b, &mt->name, name, strlen(name)));
            float opacity = 1.0f - src->transparency;
            opacity = opacity < 0.0f ? 0.0f : opacity > 1.0f ? 1.0f : opacity;
            for (int c = 0; c < 3; c++) {
                mt->ambient[c] = 1.0f;
                mt->diffuse[c] = 1.0f;
            }
            mt->ambient[3] = mt->diffuse[3] = opacity;
            mt->specular[3] = 1.0f;
            mt->format = OSSA_FORMAT_C3S;
            mt->version = md->subs[C3S_MATR][i].version;
            if (!src->texture_count)
                continue;
            ossa_texture_map *maps;
            OSSA_TRY(ossa_build_array(b, &maps, src->texture_count, sizeof *maps));
            for (uint32_t t = 0; t < src->texture_count; t++) {
                const char *file = md->textures[src->textures[t] - 1].file;
                char path[8192];
                snprintf(path, sizeof path, "%s%s", file[0] == '/' ? "" : b->dir, file);
                for (char *c = path; *c; c++)
                    if (*c == '\\')
                        *c = '/';
                OSSA_TRY(ossa_build_strndup(b, &maps[t].file, file, strlen(file)));
                OSSA_TRY(ossa_build_strndup(b, &maps[t].path, path, strlen(path)));
                maps[t].type = "";
            }
            mt->maps = maps;
            mt->map_count = src->texture_count;
        }
    }
    return OSSA_OK;
}

/* ---- vertices ---- */

static void bone_apply(const model_state *st, uint32_t bone, const float p[3], float out[3])
{
    const float *s = st->world_s + 3 * bone, *t = st->world_t + 3 * bone;
    float scaled[3] = {s[0] * p[0], s[1] * p[1], s[2] * p[2]};
    quat_rotate(st->world_r + 4 * bone, scaled, out);
    for (int k = 0; k < 3; k++)
        out[k] += t[k];
}

/* The base pose without its scale: the inverse of the inverse bind, so that the palette
 * (pose x inverse bind) takes this point back to the posed bone applied to p. */
static void bone_apply_rigid(const model_state *st, uint32_t bone, const float p[3], float out[3])
{
    const float *t = st->world_t + 3 * bone;
    quat_rotate(st->world_r + 4 * bone, p, out);
    for (int k = 0; k < 3; k++)
        out[k] += t[k];
}

static uint32_t model_bone(const model_state *st, uint32_t file_bone_1based)
{
    return st->b->bone_from_file[st->md->bone_base + file_bone_1based - 1];
}

/* Base positions: weighted vertices from their bones, the rest from their group's first frame. */
static ossa_status base_positions(model_state *st)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    uint32_t nv = md->count[C3S_VRTX];
    if (!nv)
        return OSSA_OK;
    OSSA_TRY(ossa_build_array(b, &st->base_pos, nv, 3 * sizeof(float)));
    OSSA_TRY(ossa_build_array(b, &st->has_pos, nv, sizeof(bool)));
    OSSA_TRY(ossa_build_array(b, &st->vgroup_of, nv, sizeof(uint32_t)));
    OSSA_TRY(ossa_build_array(b, &st->vgroup_slot, nv, sizeof(uint32_t)));
    if (md->weight_count)
        OSSA_TRY(ossa_build_array(b, &st->weight_points, md->weight_count, 3 * sizeof(float)));
    float worst = b->model->bind_disagreement;
    for (uint32_t v = 0; v < nv; v++) {
        const c3s_vertex *cv = &md->vertices[v];
        double sum[3] = {0, 0, 0}, total = 0.0;
        uint32_t used = 0;
        for (uint32_t k = 0; k < cv->weight_count; k++) {
            const c3s_weight *w = &md->weights[cv->weight_start + k];
            if (!w->bone)
                continue;
            float p[3], rigid[3];
            uint32_t j = model_bone(st, w->bone);
            bone_apply(st, j, w->offset, p);
            bone_apply_rigid(st, j, w->offset, rigid);
            float *u = st->weight_points + 3 * (size_t)(cv->weight_start + k);
            for (int c = 0; c < 3; c++) {
                sum[c] += (double)w->factor * p[c];
                u[c] = w->factor * rigid[c];
            }
            total += w->factor;
            used++;
        }
        if (!used)
            continue;
        /* Decision 9: the vertex is the sum of the weighted terms, not their mean. */
        float *out = st->base_pos + 3 * v;
        for (int c = 0; c < 3; c++)
            out[c] = (float)sum[c];
        st->has_pos[v] = true;
        /* One bind vertex (the weighted mean) skinned by the weights would equal the sum only
         * where every weight's offset lands on it; measure how far they are apart. */
        double div = fabs(total) > 1e-8 ? total : 1.0;
        float mean[3] = {(float)(sum[0] / div), (float)(sum[1] / div), (float)(sum[2] / div)};
        for (uint32_t k = 0; k < cv->weight_count; k++) {
            const c3s_weight *w = &md->weights[cv->weight_start + k];
            if (!w->bone || w->factor == 0.0f)
                continue;
            float p[3];
            bone_apply(st, model_bone(st, w->bone), w->offset, p);
            float d = sqrtf((p[0] - mean[0]) * (p[0] - mean[0]) +
                            (p[1] - mean[1]) * (p[1] - mean[1]) +
                            (p[2] - mean[2]) * (p[2] - mean[2]));
            if (d > worst)
                worst = d;
        }
    }
    b->model->bind_disagreement = worst;

    uint32_t shared = 0;
    for (uint32_t g = 0; g < md->count[C3S_VGRP]; g++)
        for (uint32_t j = 0; j < md->vgroups[g].count; j++) {
            uint32_t x = md->vgroups[g].items[j] - 1;
            if (st->vgroup_of[x]) {
                shared++;
                continue;
            }
            st->vgroup_of[x] = g + 1;
            st->vgroup_slot[x] = j;
        }
    if (shared)
        ossa_warn(b, "model '%s': %u vertex group entries repeat a vertex already in a group; "
                     "frames of the later groups do not move it", md->name, shared);
    bool *seeded;
    if (md->count[C3S_VGRP]) {
        OSSA_TRY(ossa_build_array(b, &seeded, md->count[C3S_VGRP], sizeof *seeded));
        for (uint32_t f = 0; f < md->count[C3S_VFRM]; f++) {
            const c3s_frame *fr = &md->vframes[f];
            if (!fr->group || seeded[fr->group - 1])
                continue;
            seeded[fr->group - 1] = true;
            const c3s_group *g = &md->vgroups[fr->group - 1];
            for (uint32_t j = 0; j < g->count; j++) {
                uint32_t x = g->items[j] - 1;
                if (st->vgroup_of[x] == fr->group && !st->has_pos[x]) {
                    memcpy(st->base_pos + 3 * x, fr->data + 3 * j, 3 * sizeof(float));
                    st->has_pos[x] = true;
                }
            }
        }
    }
    return OSSA_OK;
}

static ossa_status base_uvs(model_state *st)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    uint32_t nt = md->count[C3S_TVRT];
    if (!nt)
        return OSSA_OK;
    OSSA_TRY(ossa_build_array(b, &st->base_uv, nt, 2 * sizeof(float)));
    OSSA_TRY(ossa_build_array(b, &st->tgroup_of, nt, sizeof(uint32_t)));
    OSSA_TRY(ossa_build_array(b, &st->tgroup_slot, nt, sizeof(uint32_t)));
    for (uint32_t g = 0; g < md->count[C3S_TGRP]; g++)
        for (uint32_t j = 0; j < md->tgroups[g].count; j++) {
            uint32_t x = md->tgroups[g].items[j] - 1;
            if (!st->tgroup_of[x]) {
                st->tgroup_of[x] = g + 1;
                st->tgroup_slot[x] = j;
            }
        }
    bool *seeded;
    if (md->count[C3S_TGRP]) {
        OSSA_TRY(ossa_build_array(b, &seeded, md->count[C3S_TGRP], sizeof *seeded));
        for (uint32_t f = 0; f < md->count[C3S_TFRM]; f++) {
            const c3s_frame *fr = &md->tframes[f];
            if (!fr->group || seeded[fr->group - 1])
                continue;
            seeded[fr->group - 1] = true;
            const c3s_group *g = &md->tgroups[fr->group - 1];
            for (uint32_t j = 0; j < g->count; j++) {
                uint32_t x = g->items[j] - 1;
                if (st->tgroup_of[x] == fr->group)
                    memcpy(st->base_uv + 2 * x, fr->data + 2 * j, 2 * sizeof(float));
            }
        }
    }
    return OSSA_OK;
}

/* ---- faces ---- */

static int group_cmp(const face_group *a, const face_group *b)
{
    if (a->hidden != b->hidden)
        return a->hidden ? 1 : -1;
    if (a->material != b->material)
        return a->material < b->material ? -1 : 1;
    if (a->two_sided != b->two_sided)
        return a->two_sided ? 1 : -1;
    return 0;
}

static face_group face_key(const kept_face *f)
{
    face_group key;
    memset(&key, 0, sizeof key);
    key.hidden = (f->flags & C3S_TFF_HIDDEN) != 0;
    key.two_sided = (f->flags & C3S_TFF_TWOSIDED) != 0;
    key.material = f->material;
    return key;
}

/* Index of the group with f's key in the sorted groups. */
static uint32_t find_group(const model_state *st, const kept_face *f)
{
    face_group key = face_key(f);
    uint32_t lo = 0, hi = st->group_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = group_cmp(&st->groups[mid], &key);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return UINT32_MAX; /* not reached: every face's key has a group */
}

static ossa_status collect_faces(model_state *st)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    uint32_t n = md->count[C3S_TRIF];
    if (!n)
        return OSSA_OK;
    OSSA_TRY(ossa_build_array(b, &st->faces, n, sizeof *st->faces));
    OSSA_TRY(ossa_build_array(b, &st->face_slot, n, sizeof *st->face_slot));
    uint32_t dropped = 0, open_rings = 0, unplaced = 0;
    for (uint32_t i = 0; i < n; i++) {
        const c3s_face *f = &md->faces[i];
        st->face_slot[i] = UINT32_MAX;
        uint32_t v[3];
        bool ok = f->active;
        for (int c = 0; c < 3 && ok; c++) {
            uint32_t e = f->edge[c];
            ok = e && md->edges[e - 1].active && md->vertices[md->edges[e - 1].tail - 1].active;
            if (ok)
                v[c] = md->edges[e - 1].tail - 1;
        }
        if (!ok) {
            dropped++;
            continue;
        }
        for (int c = 0; c < 3; c++)
            if (md->edges[f->edge[c] - 1].head != md->edges[f->edge[(c + 1) % 3] - 1].tail) {
                open_rings++;
                break;
            }
        for (int c = 0; c < 3; c++)
            unplaced += !st->has_pos[v[c]];
        kept_face *k = &st->faces[st->face_count];
        /* Rings are clockwise seen from the front; the model's front is counter-clockwise.
         * An inverted triface faces the other way. Vertex 0 stays first (mounts use it). */
        bool invert = f->flags & C3S_TFF_NINVERT;
        uint32_t order[3] = {0, invert ? 1u : 2u, invert ? 2u : 1u};
        for (int c = 0; c < 3; c++) {
            k->v[c] = v[order[c]];
            uint32_t t = f->tex[order[c]];
            k->tex[c] = t && md->texvert_active[t - 1] ? t : 0;
        }
        k->flags = f->flags;
        k->material = f->material;
        st->face_slot[i] = st->face_count++;
    }
    if (dropped)
        ossa_warn(b, "model '%s': %u trifaces disabled, below full detail or using a disabled "
                     "edge or vertex were dropped", md->name, dropped);
    if (open_rings)
        ossa_warn(b, "model '%s': %u trifaces have edge rings that do not close", md->name,
                  open_rings);
    if (unplaced)
        ossa_warn(b, "model '%s': %u triangle corners use a vertex with neither weights nor a "
                     "vertex frame; it is placed at the origin", md->name, unplaced);

    /* The distinct (hidden, material, sidedness) keys, sorted: one submesh each. */
    if (!st->face_count)
        return OSSA_OK;
    OSSA_TRY(ossa_build_array(b, &st->groups, st->face_count, sizeof *st->groups));
    for (uint32_t i = 0; i < st->face_count; i++) {
        face_group key = face_key(&st->faces[i]);
        uint32_t lo = 0, hi = st->group_count;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (group_cmp(&st->groups[mid], &key) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < st->group_count && group_cmp(&st->groups[lo], &key) == 0)
            continue;
        memmove(&st->groups[lo + 1], &st->groups[lo],
                (size_t)(st->group_count - lo) * sizeof *st->groups);
        st->groups[lo] = key;
        st->group_count++;
    }
    for (uint32_t i = 0; i < st->face_count; i++)
        st->groups[find_group(st, &st->faces[i])].face_count++;
    if (st->group_count > OSSA_MAX_SUBMESHES)
        return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)md->at,
                         "model '%s' needs %u submeshes, more than %u", md->name,
                         st->group_count, OSSA_MAX_SUBMESHES);
    return OSSA_OK;
}

/* Unit vertex normals (area-weighted face normals) of every VRTX at the given positions. */
static void vertex_normals(const model_state *st, const float *pos, float *out)
{
    uint32_t nv = st->md->count[C3S_VRTX];
    memset(out, 0, 3 * (size_t)nv * sizeof(float));
    for (uint32_t i = 0; i < st->face_count; i++) {
        const kept_face *f = &st->faces[i];
        if (f->flags & C3S_TFF_VNIGNORE)
            continue;
        const float *a = pos + 3 * f->v[0], *b = pos + 3 * f->v[1], *c = pos + 3 * f->v[2];
        float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        float e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                      e1[0] * e2[1] - e1[1] * e2[0]};
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 3; j++)
                out[3 * (size_t)f->v[k] + (size_t)j] += n[j];
    }
    for (uint32_t v = 0; v < nv; v++) {
        float *n = out + 3 * (size_t)v;
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (len > 0.0f && isfinite(len))
            for (int k = 0; k < 3; k++)
                n[k] /= len;
        else
            n[0] = n[1] = n[2] = 0.0f;
    }
}

/* One submesh from the faces of group g (listed in face_order[first .. first + count)). */
static ossa_status build_submesh(model_state *st, uint32_t g, const uint32_t *face_order,
                                 int32_t *head, const float *normals)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    const face_group *grp = &st->groups[g];
    built_submesh *bs = &st->subs[g];
    ossa_submesh *sm = bs->sm;
    uint32_t nf = grp->face_count, corners = 3 * nf;
    uint32_t *rv_vrtx, *rv_tex, *indices;
    int32_t *next;
    OSSA_TRY(ossa_build_array(b, &rv_vrtx, corners, sizeof *rv_vrtx));
    OSSA_TRY(ossa_build_array(b, &rv_tex, corners, sizeof *rv_tex));
    OSSA_TRY(ossa_build_array(b, &next, corners, sizeof *next));
    OSSA_TRY(ossa_build_array(b, &indices, corners, sizeof *indices));
    uint32_t count = 0;
    bool textured = false;
    for (uint32_t i = 0; i < nf; i++) {
        kept_face *f = &st->faces[face_order[i]];
        f->mesh = grp->mesh;
        f->submesh = grp->submesh;
        f->index = i;
        for (int c = 0; c < 3; c++) {
            uint32_t x = f->v[c], t = f->tex[c];
            int32_t r = head[x];
            while (r >= 0 && rv_tex[r] != t)
                r = next[r];
            if (r < 0) {
                r = (int32_t)count++;
                rv_vrtx[r] = x;
                rv_tex[r] = t;
                next[r] = head[x];
                head[x] = r;
            }
            indices[3 * i + (uint32_t)c] = (uint32_t)r;
            textured |= t != 0;
        }
    }
    for (uint32_t r = 0; r < count; r++)
        head[rv_vrtx[r]] = -1; /* clean for the next submesh */

    sm->material = grp->material ? (int32_t)(md->material_base + grp->material - 1) : -1;
    sm->vertex_count = count;
    sm->face_count = nf;
    sm->indices = indices;
    sm->flags = grp->two_sided ? OSSA_SUBMESH_TWO_SIDED : 0;
    float *pos, *nrm, *uvs = NULL;
    uint32_t *starts;
    OSSA_TRY(ossa_build_array(b, &pos, count, 3 * sizeof(float)));
    OSSA_TRY(ossa_build_array(b, &nrm, count, 3 * sizeof(float)));
    OSSA_TRY(ossa_build_array(b, &starts, (size_t)count + 1, sizeof *starts));
    if (textured) {
        OSSA_TRY(ossa_build_array(b, &uvs, count, 2 * sizeof(float)));
        sm->uv_set_count = 1;
    }
    uint32_t total = 0, most = 0;
    for (uint32_t r = 0; r < count; r++) {
        uint32_t x = rv_vrtx[r], n = 0;
        memcpy(pos + 3 * r, st->base_pos + 3 * (size_t)x, 3 * sizeof(float));
        memcpy(nrm + 3 * r, normals + 3 * (size_t)x, 3 * sizeof(float));
        if (uvs && rv_tex[r])
            memcpy(uvs + 2 * r, st->base_uv + 2 * (size_t)(rv_tex[r] - 1), 2 * sizeof(float));
        const c3s_vertex *cv = &md->vertices[x];
        for (uint32_t k = 0; k < cv->weight_count; k++)
            n += md->weights[cv->weight_start + k].bone != 0;
        starts[r] = total;
        total += n;
        most = n > most ? n : most;
    }
    starts[count] = total;
    ossa_influence *inf = NULL;
    float *points = NULL;
    if (total) {
        OSSA_TRY(ossa_build_array(b, &inf, total, sizeof *inf));
        OSSA_TRY(ossa_build_array(b, &points, total, 3 * sizeof(float)));
    }
    for (uint32_t r = 0; r < count; r++) {
        const c3s_vertex *cv = &md->vertices[rv_vrtx[r]];
        uint32_t at = starts[r];
        for (uint32_t k = 0; k < cv->weight_count; k++) {
            const c3s_weight *w = &md->weights[cv->weight_start + k];
            if (!w->bone)
                continue;
            inf[at].bone = model_bone(st, w->bone);
            inf[at].weight = w->factor;
            memcpy(points + 3 * (size_t)at, st->weight_points + 3 * (size_t)(cv->weight_start + k),
                   3 * sizeof(float));
            at++;
        }
    }
    sm->positions = pos;
    sm->normals = nrm;
    sm->uvs = uvs;
    sm->influence_start = starts;
    sm->influences = inf;
    sm->influence_points = points;
    sm->max_influences = most;
    bs->vrtx = rv_vrtx;
    bs->tex = rv_tex;
    return OSSA_OK;
}

static ossa_status build_meshes(model_state *st)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    ossa_model *m = b->model;
    uint32_t nv = md->count[C3S_VRTX];
    uint32_t visible = 0, hidden = 0;
    for (uint32_t g = 0; g < st->group_count; g++)
        st->groups[g].hidden ? hidden++ : visible++;
    ossa_submesh *subs[2] = {NULL, NULL};
    uint32_t mesh_index[2] = {0, 0};
    for (int h = 0; h < 2; h++) {
        uint32_t n = h ? hidden : visible;
        if (h && !n)
            continue; /* a hidden mesh only when there are hidden faces */
        mesh_index[h] = m->mesh_count;
        ossa_mesh *mesh = ossa_build_push_mesh(b);
        if (!mesh)
            return OSSA_ERR_NOMEM;
        char name[600];
        snprintf(name, sizeof name, h ? "%s (hidden)" : "%s", md->name);
        OSSA_TRY(ossa_build_strndup(b, &mesh->name, name, strlen(name)));
        mesh->format = OSSA_FORMAT_C3S;
        mesh->version = md->version;
        mesh->flags = h ? OSSA_MESH_HIDDEN : 0;
        if (!h) {
            mesh->file_vertex_count = nv;
            mesh->file_face_count = md->count[C3S_TRIF];
        }
        if (n)
            OSSA_TRY(ossa_build_array(b, &subs[h], n, sizeof(ossa_submesh)));
        mesh->submeshes = subs[h];
        mesh->submesh_count = n;
    }
    if (!st->group_count)
        return OSSA_OK;
    OSSA_TRY(ossa_build_array(b, &st->subs, st->group_count, sizeof *st->subs));
    for (uint32_t g = 0; g < st->group_count; g++) {
        face_group *grp = &st->groups[g];
        int h = grp->hidden ? 1 : 0;
        grp->mesh = mesh_index[h];
        grp->submesh = h ? g - visible : g;
        st->subs[g].sm = &subs[h][grp->submesh];
    }
    /* Faces in group order (a counting sort keeps file order within a group). */
    uint32_t *first, *face_order, *filled;
    OSSA_TRY(ossa_build_array(b, &first, st->group_count, sizeof *first));
    OSSA_TRY(ossa_build_array(b, &filled, st->group_count, sizeof *filled));
    OSSA_TRY(ossa_build_array(b, &face_order, st->face_count, sizeof *face_order));
    for (uint32_t g = 1; g < st->group_count; g++)
        first[g] = first[g - 1] + st->groups[g - 1].face_count;
    for (uint32_t i = 0; i < st->face_count; i++) {
        uint32_t g = find_group(st, &st->faces[i]);
        face_order[first[g] + filled[g]++] = i;
    }
    int32_t *head;
    float *normals;
    OSSA_TRY(ossa_build_array(b, &head, nv, sizeof *head));
    OSSA_TRY(ossa_build_array(b, &normals, nv, 3 * sizeof(float)));
    for (uint32_t v = 0; v < nv; v++)
        head[v] = -1;
    vertex_normals(st, st->base_pos, normals);
    for (uint32_t g = 0; g < st->group_count; g++)
        OSSA_TRY(build_submesh(st, g, face_order + first[g], head, normals));
    return OSSA_OK;
}

/* ---- vertex and texture-vertex frames ---- */

static uint32_t hash_tuple(const uint32_t *t, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++) {
        h ^= t[i];
        h *= 16777619u;
    }
    return h;
}

/* Distinct key shapes of the sequences: per key, the frame (1-based, 0 = base) of every
 * vertex group (uv: texture vertex group). Keys share a shape index when their frames agree. */
static ossa_status collect_tuples(model_state *st, bool uv)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    uint32_t groups = md->count[uv ? C3S_TGRP : C3S_VGRP];
    uint32_t nseq = md->count[C3S_ASEQ];
    uint32_t ***seq_frame = uv ? &st->seq_tframe : &st->seq_vframe;
    if (!groups || !nseq)
        return OSSA_OK;
    size_t keys = 1; /* + the all-base shape */
    for (uint32_t s = 0; s < nseq; s++)
        keys += md->sequences[s].key_count;
    size_t cells;
    if (!ossa_mul_size(keys, groups, &cells) || cells > C3S_MAX_FRAME_FLOATS)
        return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)md->at,
                         "model '%s': %zu key frames of %u groups exceed the frame limit",
                         md->name, keys, groups);
    uint32_t *tuples;
    OSSA_TRY(ossa_build_array(b, &tuples, cells, sizeof *tuples));
    size_t slots = 16;
    while (slots < 2 * keys)
        slots *= 2;
    int32_t *table;
    OSSA_TRY(ossa_build_array(b, &table, slots, sizeof *table));
    for (size_t i = 0; i < slots; i++)
        table[i] = -1;
    OSSA_TRY(ossa_build_array(b, seq_frame, nseq, sizeof **seq_frame));
    uint32_t count = 0;
    const c3s_frame *frames = uv ? md->tframes : md->vframes;
    for (uint32_t s = 0; s < nseq; s++) {
        const c3s_sequence *sq = &md->sequences[s];
        bool used = false;
        for (uint32_t k = 0; k < sq->key_count && !used; k++) {
            const c3s_key *key = &sq->keys[k];
            used = uv ? key->tex_frames.count > 0
                      : key->vertex_frames.count > 0 && key->bone_keys.count == 0;
        }
        if (!used)
            continue;
        uint32_t *per_key;
        OSSA_TRY(ossa_build_array(b, &per_key, sq->key_count, sizeof *per_key));
        (*seq_frame)[s] = per_key;
        for (uint32_t k = 0; k < sq->key_count; k++) {
            const c3s_key *key = &sq->keys[k];
            uint32_t *t = tuples + (size_t)count * groups;
            memset(t, 0, groups * sizeof *t);
            /* Vertex frames are ignored on keys that move bones (the spec). */
            const c3s_list *list = uv ? &key->tex_frames
                                      : key->bone_keys.count ? NULL : &key->vertex_frames;
            if (list && list->count) {
                ossa_reader r;
                c3s_list_reader(st->sc, list, &r);
                for (uint32_t g = 0; g < list->count; g++) {
                    size_t at = r.pos;
                    OSSA_TRY(ossa_c3s_rd_compdword(&r, &t[g], "key frame"));
                    if (t[g] && frames[t[g] - 1].group != g + 1)
                        return ossa_fail(b, OSSA_ERR_FORMAT, (int64_t)at,
                                         "model '%s' sequence %u key %u: %s frame %u belongs to "
                                         "group %u, not group %u",
                                         md->name, s + 1, k + 1, uv ? "texture vertex" : "vertex",
                                         t[g], frames[t[g] - 1].group, g + 1);
                }
            }
            uint32_t h = hash_tuple(t, groups);
            size_t slot = h & (slots - 1);
            while (table[slot] >= 0 &&
                   memcmp(tuples + (size_t)table[slot] * groups, t, groups * sizeof *t) != 0)
                slot = (slot + 1) & (slots - 1);
            if (table[slot] < 0)
                table[slot] = (int32_t)count++;
            per_key[k] = (uint32_t)table[slot];
        }
    }
    if (uv) {
        st->ttuples = tuples;
        st->ttuple_count = count;
    } else {
        st->vtuples = tuples;
        st->vtuple_count = count;
    }
    return OSSA_OK;
}

static ossa_status build_vertex_frames(model_state *st)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    uint32_t groups = md->count[C3S_VGRP], nv = md->count[C3S_VRTX], n = st->vtuple_count;
    if (!n)
        return OSSA_OK;
    size_t floats = 0;
    for (uint32_t g = 0; g < st->group_count; g++) {
        built_submesh *bs = &st->subs[g];
        bool moves = false;
        for (uint32_t r = 0; r < bs->sm->vertex_count && !moves; r++)
            moves = st->vgroup_of[bs->vrtx[r]] != 0;
        if (moves)
            floats += 6 * (size_t)bs->sm->vertex_count;
        bs->sm->frame_count = moves ? n : 0;
    }
    if (floats && (floats > C3S_MAX_FRAME_FLOATS / n))
        return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)md->at,
                         "model '%s': %u vertex frames of this mesh exceed the frame limit",
                         md->name, n);
    for (uint32_t g = 0; g < st->group_count; g++) {
        ossa_submesh *sm = st->subs[g].sm;
        if (!sm->frame_count)
            continue;
        float *p, *q;
        OSSA_TRY(ossa_build_array(b, &p, (size_t)n * sm->vertex_count, 3 * sizeof(float)));
        OSSA_TRY(ossa_build_array(b, &q, (size_t)n * sm->vertex_count, 3 * sizeof(float)));
        sm->frame_positions = p;
        sm->frame_normals = q;
    }
    float *pos, *nrm;
    OSSA_TRY(ossa_build_array(b, &pos, nv, 3 * sizeof(float)));
    OSSA_TRY(ossa_build_array(b, &nrm, nv, 3 * sizeof(float)));
    for (uint32_t f = 0; f < n; f++) {
        const uint32_t *t = st->vtuples + (size_t)f * groups;
        memcpy(pos, st->base_pos, 3 * (size_t)nv * sizeof(float));
        for (uint32_t x = 0; x < nv; x++) {
            uint32_t g = st->vgroup_of[x];
            if (g && t[g - 1])
                memcpy(pos + 3 * (size_t)x,
                       md->vframes[t[g - 1] - 1].data + 3 * (size_t)st->vgroup_slot[x],
                       3 * sizeof(float));
        }
        vertex_normals(st, pos, nrm);
        for (uint32_t g = 0; g < st->group_count; g++) {
            built_submesh *bs = &st->subs[g];
            ossa_submesh *sm = bs->sm;
            if (!sm->frame_count)
                continue;
            size_t at = 3 * (size_t)sm->vertex_count * f;
            float *fp = (float *)sm->frame_positions + at, *fn = (float *)sm->frame_normals + at;
            for (uint32_t r = 0; r < sm->vertex_count; r++) {
                memcpy(fp + 3 * (size_t)r, pos + 3 * (size_t)bs->vrtx[r], 3 * sizeof(float));
                memcpy(fn + 3 * (size_t)r, nrm + 3 * (size_t)bs->vrtx[r], 3 * sizeof(float));
            }
        }
    }
    return OSSA_OK;
}

static ossa_status build_uv_frames(model_state *st)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    uint32_t groups = md->count[C3S_TGRP], n = st->ttuple_count;
    if (!n)
        return OSSA_OK;
    size_t floats = 0;
    for (uint32_t g = 0; g < st->group_count; g++) {
        built_submesh *bs = &st->subs[g];
        bool moves = false;
        for (uint32_t r = 0; r < bs->sm->vertex_count && !moves; r++)
            moves = bs->tex[r] && st->tgroup_of[bs->tex[r] - 1] != 0;
        if (moves)
            floats += 2 * (size_t)bs->sm->vertex_count;
        bs->sm->uv_frame_count = moves ? n : 0;
    }
    if (floats && (floats > C3S_MAX_FRAME_FLOATS / n))
        return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)md->at,
                         "model '%s': %u texture frames exceed the frame limit", md->name, n);
    for (uint32_t g = 0; g < st->group_count; g++) {
        built_submesh *bs = &st->subs[g];
        ossa_submesh *sm = bs->sm;
        if (!sm->uv_frame_count)
            continue;
        float *uvs;
        OSSA_TRY(ossa_build_array(b, &uvs, (size_t)n * sm->vertex_count, 2 * sizeof(float)));
        sm->frame_uvs = uvs;
        for (uint32_t f = 0; f < n; f++) {
            const uint32_t *t = st->ttuples + (size_t)f * groups;
            float *out = uvs + 2 * (size_t)sm->vertex_count * f;
            for (uint32_t r = 0; r < sm->vertex_count; r++) {
                uint32_t tv = bs->tex[r];
                if (!tv)
                    continue;
                uint32_t g2 = st->tgroup_of[tv - 1];
                const float *src = st->base_uv + 2 * (size_t)(tv - 1);
                if (g2 && t[g2 - 1])
                    src = md->tframes[t[g2 - 1] - 1].data + 2 * (size_t)st->tgroup_slot[tv - 1];
                memcpy(out + 2 * (size_t)r, src, 2 * sizeof(float));
            }
        }
    }
    return OSSA_OK;
}

/* ---- sequences ---- */

static ossa_status frame_tracks(model_state *st, const uint32_t *per_key, uint32_t key_count,
                                const float *times, bool uv, const ossa_vertex_track **out,
                                uint32_t *out_count)
{
    uint32_t n = 0;
    for (uint32_t g = 0; g < st->group_count; g++)
        n += (uv ? st->subs[g].sm->uv_frame_count : st->subs[g].sm->frame_count) != 0;
    if (!n || !per_key || !key_count)
        return OSSA_OK;
    ossa_vertex_track *tracks;
    OSSA_TRY(ossa_build_array(st->b, &tracks, n, sizeof *tracks));
    uint32_t at = 0;
    for (uint32_t g = 0; g < st->group_count; g++) {
        if (!(uv ? st->subs[g].sm->uv_frame_count : st->subs[g].sm->frame_count))
            continue;
        ossa_vertex_track *tr = &tracks[at++];
        tr->mesh = st->groups[g].mesh;
        tr->submesh = st->groups[g].submesh;
        tr->key_count = key_count;
        tr->times = times;
        tr->frames = per_key;
    }
    *out = tracks;
    *out_count = n;
    return OSSA_OK;
}

static ossa_status bone_tracks(model_state *st, const c3s_sequence *sq, const float *times,
                               int32_t *track_of, uint64_t *track_keys, ossa_clip *clip)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    uint32_t nb = md->count[C3S_BONE], n = sq->key_count;
    if (!nb || !n)
        return OSSA_OK;
    for (uint32_t i = 0; i < nb; i++)
        track_of[i] = -1;
    uint32_t count = 0;
    for (int pass = 0; pass < 2; pass++) {
        ossa_track *tracks = (ossa_track *)clip->tracks;
        for (uint32_t k = 0; k < n; k++) {
            ossa_reader r;
            c3s_list_reader(st->sc, &sq->keys[k].bone_keys, &r);
            for (uint32_t i = 0; i < sq->keys[k].bone_keys.count; i++) {
                uint32_t bone;
                c3s_ocs anim;
                OSSA_TRY(ossa_c3s_rd_compdword(&r, &bone, "key bone"));
                OSSA_TRY(ossa_c3s_rd_ocs(&r, &anim, "bone key OCS"));
                if (!bone)
                    continue;
                if (pass == 0) {
                    if (track_of[bone - 1] < 0)
                        track_of[bone - 1] = (int32_t)count++;
                    continue;
                }
                /* The key's local transform: the base OCS composed with the key (key first). */
                ossa_track *tr = &tracks[track_of[bone - 1]];
                c3s_ocs local;
                ocs_compose(&md->bones[bone - 1].base, &anim, &local);
                memcpy((float *)tr->translations + 3 * k, local.t, sizeof local.t);
                memcpy((float *)tr->rotations + 4 * k, local.q, sizeof local.q);
                memcpy((float *)tr->scales + 3 * k, local.s, sizeof local.s);
            }
        }
        if (pass == 1 || !count)
            break;
        *track_keys += (uint64_t)count * n;
        if (*track_keys > C3S_MAX_TRACK_KEYS)
            return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)md->at,
                             "model '%s': sequence '%s' makes the bone tracks exceed %u keys",
                             md->name, clip->name, C3S_MAX_TRACK_KEYS);
        ossa_track *made;
        OSSA_TRY(ossa_build_array(b, &made, count, sizeof *made));
        for (uint32_t i = 0; i < nb; i++) {
            if (track_of[i] < 0)
                continue;
            ossa_track *tr = &made[track_of[i]];
            float *t, *q, *s;
            OSSA_TRY(ossa_build_array(b, &t, n, 3 * sizeof(float)));
            OSSA_TRY(ossa_build_array(b, &q, n, 4 * sizeof(float)));
            OSSA_TRY(ossa_build_array(b, &s, n, 3 * sizeof(float)));
            const c3s_ocs *base = &md->bones[i].base;
            for (uint32_t k = 0; k < n; k++) { /* keys without this bone keep the base */
                memcpy(t + 3 * k, base->t, sizeof base->t);
                memcpy(q + 4 * k, base->q, sizeof base->q);
                memcpy(s + 3 * k, base->s, sizeof base->s);
            }
            tr->bone = model_bone(st, i + 1);
            tr->key_count = n;
            tr->times = times;
            tr->translations = t;
            tr->rotations = q;
            tr->scales = s;
        }
        clip->tracks = made;
        clip->track_count = count;
    }
    /* Scales that never leave the rest scale need no channel. */
    for (uint32_t i = 0; i < clip->track_count; i++) {
        ossa_track *tr = (ossa_track *)&clip->tracks[i];
        const float *rest = b->model->bones[tr->bone].rest_s;
        bool same = true;
        for (uint32_t k = 0; k < n && same; k++)
            same = memcmp(tr->scales + 3 * k, rest, 3 * sizeof(float)) == 0;
        if (same)
            tr->scales = NULL;
    }
    return OSSA_OK;
}

static ossa_status sequence_extras(model_state *st, uint32_t s, ossa_clip *clip)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    const c3s_sequence *sq = &md->sequences[s];
    if (sq->trigger_count) {
        ossa_clip_trigger *tg;
        OSSA_TRY(ossa_build_array(b, &tg, sq->trigger_count, sizeof *tg));
        uint32_t clamped = 0;
        for (uint32_t i = 0; i < sq->trigger_count; i++) {
            const c3s_trigger *src = &sq->triggers[i];
            float at = src->time;
            if (!(at >= 0.0f && at <= 1.0f)) {
                clamped++;
                at = at < 0.0f ? 0.0f : 1.0f;
            }
            ossa_clip_trigger t = {at * clip->duration, src->command, "", src->param_size,
                                   src->params};
            if (src->command == C3S_TRIG_COMMAND && src->param_size) {
                size_t len = strnlen((const char *)src->params, src->param_size);
                OSSA_TRY(ossa_build_strndup(b, &t.name, (const char *)src->params, len));
            }
            tg[i] = t;
        }
        /* Time order, stably (a sequence may list 65536 triggers in reverse). */
        const ossa_sort_array triggers = {tg, sizeof *tg};
        bool moved;
        OSSA_TRY(ossa_build_sort_by_time(b, &tg->time, sizeof *tg, sq->trigger_count,
                                         &triggers, 1, &moved));
        if (clamped)
            ossa_warn(b, "sequence '%s': %u trigger times outside 0..1 clamped", clip->name,
                      clamped);
        clip->triggers = tg;
        clip->trigger_count = sq->trigger_count;
    }
    if (sq->links.count) {
        uint32_t *links;
        OSSA_TRY(ossa_build_array(b, &links, sq->links.count, sizeof *links));
        ossa_reader r;
        c3s_list_reader(st->sc, &sq->links, &r);
        uint32_t n = 0;
        for (uint32_t i = 0; i < sq->links.count; i++) {
            uint32_t v;
            OSSA_TRY(ossa_c3s_rd_compdword(&r, &v, "linked sequence"));
            if (v && v - 1 != s)
                links[n++] = md->clip_base + v - 1;
        }
        if (n < sq->links.count)
            ossa_warn(b, "sequence '%s': %u empty or self links dropped", clip->name,
                      sq->links.count - n);
        clip->links = links;
        clip->link_count = n;
    }
    return OSSA_OK;
}

static ossa_status build_clips(model_state *st)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    int32_t *track_of = NULL; /* per bone of the model: its track in the clip being built */
    uint64_t track_keys = 0;
    if (md->count[C3S_BONE])
        OSSA_TRY(ossa_build_array(b, &track_of, md->count[C3S_BONE], sizeof *track_of));
    for (uint32_t s = 0; s < md->count[C3S_ASEQ]; s++) {
        const c3s_sequence *sq = &md->sequences[s];
        ossa_clip *clip = ossa_build_push_clip(b);
        if (!clip)
            return OSSA_ERR_NOMEM;
        const char *name = md->subs[C3S_ASEQ][s].name;
        if (name[0])
            OSSA_TRY(ossa_build_strndup(b, &clip->name, name, strlen(name)));
        else {
            char made[64];
            snprintf(made, sizeof made, "sequence%u", s + 1);
            OSSA_TRY(ossa_build_strndup(b, &clip->name, made, strlen(made)));
        }
        clip->group = sq->group;
        clip->format = OSSA_FORMAT_C3S;
        clip->version = md->subs[C3S_ASEQ][s].version;
        clip->frame_rate = sq->rate;
        /* Key frames every 1/rate seconds; the sequence loops back to its first key. */
        clip->duration = (float)(sq->key_count ? sq->key_count : 1) / sq->rate;
        float *times = NULL;
        if (sq->key_count) {
            OSSA_TRY(ossa_build_array(b, &times, sq->key_count, sizeof *times));
            for (uint32_t k = 0; k < sq->key_count; k++)
                times[k] = (float)k / sq->rate;
        }
        OSSA_TRY(bone_tracks(st, sq, times, track_of, &track_keys, clip));
        OSSA_TRY(frame_tracks(st, st->seq_vframe ? st->seq_vframe[s] : NULL, sq->key_count,
                              times, false, &clip->vertex_tracks, &clip->vertex_track_count));
        OSSA_TRY(frame_tracks(st, st->seq_tframe ? st->seq_tframe[s] : NULL, sq->key_count,
                              times, true, &clip->uv_tracks, &clip->uv_track_count));
        OSSA_TRY(sequence_extras(st, s, clip));
    }
    return OSSA_OK;
}

/* ---- mounts ---- */

static ossa_status build_mounts(model_state *st, ossa_mount *mounts)
{
    c3s_smdl *md = st->md;
    ossa_model *m = st->b->model;
    uint32_t lost = 0;
    for (uint32_t i = 0; i < md->count[C3S_SMNT]; i++) {
        const c3s_mount *src = &md->mounts[i];
        uint32_t slot = src->face ? st->face_slot[src->face - 1] : UINT32_MAX;
        if (slot == UINT32_MAX) {
            lost++;
            continue;
        }
        const kept_face *f = &st->faces[slot];
        ossa_mount *mt = &mounts[m->mount_count++];
        mt->name = md->subs[C3S_SMNT][i].name;
        mt->mesh = f->mesh;
        mt->submesh = f->submesh;
        mt->face = f->index;
        /* The coordinates follow the file's ring; the model's triangle lists it turned
         * (V0, V2, V1) unless the triface is inverted. */
        bool turned = !(md->faces[src->face - 1].flags & C3S_TFF_NINVERT);
        mt->barycentric[0] = src->bary[0];
        mt->barycentric[1] = src->bary[turned ? 2 : 1];
        mt->barycentric[2] = src->bary[turned ? 1 : 2];
        memcpy(mt->offset_t, src->base.t, sizeof mt->offset_t);
        memcpy(mt->offset_r, src->base.q, sizeof mt->offset_r);
        memcpy(mt->offset_s, src->base.s, sizeof mt->offset_s);
    }
    if (lost)
        ossa_warn(st->b, "model '%s': %u surface mounts on no drawn triface were dropped",
                  md->name, lost);
    return OSSA_OK;
}

ossa_status ossa_c3s_build_model(c3s_scene *sc)
{
    ossa_build *b = sc->b;
    ossa_model *m = b->model;
    float *wt = NULL, *wr = NULL, *ws = NULL;
    OSSA_TRY(build_skeleton(sc, &wt, &wr, &ws));
    OSSA_TRY(build_materials(sc));
    uint32_t clips = 0, mounts = 0;
    for (uint32_t k = 0; k < sc->model_count; k++) {
        sc->models[k].clip_base = clips;
        clips += sc->models[k].count[C3S_ASEQ];
        mounts += sc->models[k].count[C3S_SMNT];
    }
    ossa_mount *mount_list = NULL;
    if (mounts)
        OSSA_TRY(ossa_build_array(b, &mount_list, mounts, sizeof *mount_list));
    m->mounts = mount_list;
    for (uint32_t k = 0; k < sc->model_count; k++) {
        model_state st;
        memset(&st, 0, sizeof st);
        st.sc = sc;
        st.md = &sc->models[k];
        st.b = b;
        st.world_t = wt;
        st.world_r = wr;
        st.world_s = ws;
        OSSA_TRY(base_positions(&st));
        OSSA_TRY(base_uvs(&st));
        OSSA_TRY(collect_faces(&st));
        OSSA_TRY(build_meshes(&st));
        OSSA_TRY(collect_tuples(&st, false));
        OSSA_TRY(collect_tuples(&st, true));
        OSSA_TRY(build_vertex_frames(&st));
        OSSA_TRY(build_uv_frames(&st));
        OSSA_TRY(build_clips(&st));
        OSSA_TRY(build_mounts(&st, mount_list));
    }
    if (!sc->model_count)
        ossa_warn(b, "the scene holds no models");
    return OSSA_OK;
}
