/* Cannibal scene (C3S) model building, part 2 (c3s_build_state.h): base positions (bone-weighted
 * vertices from their weights, the rest from their group's first frame), texture coordinates,
 * the kept trifaces grouped by material and sidedness, normals, and one submesh per group with
 * render vertices split where a vertex meets different texture vertices. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ossa/limits.h"
#include "core/quat.h"
#include "formats/c3s/c3s_build_state.h"

/* ---- vertices ---- */

static void bone_apply(const model_state *st, uint32_t bone, const float p[3], float out[3])
{
    const float *s = st->world_s + 3 * bone, *t = st->world_t + 3 * bone;
    float scaled[3] = {s[0] * p[0], s[1] * p[1], s[2] * p[2]};
    ossa_quat_rotate(st->world_r + 4 * bone, scaled, out);
    for (int k = 0; k < 3; k++)
        out[k] += t[k];
}

/* The base pose without its scale: the inverse of the inverse bind, so that the palette
 * (pose x inverse bind) takes this point back to the posed bone applied to p. */
static void bone_apply_rigid(const model_state *st, uint32_t bone, const float p[3], float out[3])
{
    const float *t = st->world_t + 3 * bone;
    ossa_quat_rotate(st->world_r + 4 * bone, p, out);
    for (int k = 0; k < 3; k++)
        out[k] += t[k];
}

/* Base positions: weighted vertices from their bones, the rest from their group's first frame. */
ossa_status ossa_c3s_base_positions(model_state *st)
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
            uint32_t j = c3s_model_bone(st, w->bone);
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
        /* D9 (docs/FORMATS.md): the vertex is the sum of the weighted terms, not their mean. */
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
            bone_apply(st, c3s_model_bone(st, w->bone), w->offset, p);
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

ossa_status ossa_c3s_base_uvs(model_state *st)
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

ossa_status ossa_c3s_collect_faces(model_state *st)
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
void ossa_c3s_vertex_normals(const model_state *st, const float *pos, float *out)
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
            inf[at].bone = c3s_model_bone(st, w->bone);
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

ossa_status ossa_c3s_build_meshes(model_state *st)
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
    ossa_c3s_vertex_normals(st, st->base_pos, normals);
    for (uint32_t g = 0; g < st->group_count; g++)
        OSSA_TRY(build_submesh(st, g, face_order + first[g], head, normals));
    return OSSA_OK;
}
