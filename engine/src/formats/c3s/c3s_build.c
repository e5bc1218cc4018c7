/* Cannibal scene (C3S) reader, part 2: the model from the parsed scene (docs/FORMATS.md,
 * D9). Every SMDL becomes one mesh (plus one flagged OSSA_MESH_HIDDEN for its hidden
 * trifaces), with one submesh per material and sidedness; render vertices are split where a
 * vertex meets different texture vertices. All models' bones form one skeleton (several roots).
 * A bone-weighted vertex is D9's sum over its weights of weightFactor x (bone applied to
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
#include "core/compose.h"
#include "ossa/limits.h"
#include "core/quat.h"
#include "formats/c3s/c3s_build_state.h"
#include "io/texture_path.h"

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
    ossa_compose_rest(m, lt, lr, ls);
    ossa_compose_local_to_model(m, lt, lr, ls, *wt, *wr, *ws);
    bool scaled = false;
    ossa_bone *bones = (ossa_bone *)m->bones;
    for (uint32_t i = 0; i < total; i++) {
        const float *r = *wr + 4 * i, *t = *wt + 3 * i, *s = *ws + 3 * i;
        float inv[4] = {-r[0], -r[1], -r[2], r[3]}, moved[3];
        ossa_quat_rotate(inv, t, moved);
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
                OSSA_TRY(ossa_build_strndup(b, &maps[t].file, file, strlen(file)));
                OSSA_TRY(ossa_texture_path(b, file, strlen(file), &maps[t].path));
                maps[t].type = "";
            }
            mt->maps = maps;
            /* those outside the model's folders are left out */
            mt->map_count = ossa_texture_maps_compact(maps, src->texture_count);
        }
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
        OSSA_TRY(ossa_c3s_base_positions(&st));
        OSSA_TRY(ossa_c3s_base_uvs(&st));
        OSSA_TRY(ossa_c3s_collect_faces(&st));
        OSSA_TRY(ossa_c3s_build_meshes(&st));
        OSSA_TRY(ossa_c3s_collect_tuples(&st, false));
        OSSA_TRY(ossa_c3s_collect_tuples(&st, true));
        OSSA_TRY(ossa_c3s_build_vertex_frames(&st));
        OSSA_TRY(ossa_c3s_build_uv_frames(&st));
        OSSA_TRY(ossa_c3s_build_clips(&st));
        OSSA_TRY(build_mounts(&st, mount_list));
    }
    if (!sc->model_count)
        ossa_warn(b, "the scene holds no models");
    return OSSA_OK;
}
