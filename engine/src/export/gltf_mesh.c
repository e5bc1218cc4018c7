/* Meshes: one glTF mesh per ossa mesh, one primitive per submesh; skin weights, morph targets
 * (named targets, then C3S vertex frames), and the mesh's node (at the root when skinned or
 * static, under its bone when the mesh is a rigid part). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/quat.h"
#include "gltf_internal.h"
#include "ossa/limits.h"
#include "ossa/skin.h"

/* 3x4 row-major transform of a mesh's data into its node's space. */
typedef struct mesh_xf {
    float m[12];
} mesh_xf;

static void xf_point(const mesh_xf *x, const float *p, float *out)
{
    for (int r = 0; r < 3; r++)
        out[r] = x->m[4 * r] * p[0] + x->m[4 * r + 1] * p[1] + x->m[4 * r + 2] * p[2] +
                 x->m[4 * r + 3];
}

static void xf_vector(const mesh_xf *x, const float *p, float *out)
{
    for (int r = 0; r < 3; r++)
        out[r] = x->m[4 * r] * p[0] + x->m[4 * r + 1] * p[1] + x->m[4 * r + 2] * p[2];
}

/* -1: skinned (or static without bones); else the one bone every vertex follows with weight 1. */
static int32_t rigid_bone(const ossa_model *m, const ossa_mesh *mesh)
{
    int32_t bone = -1;
    for (uint32_t s = 0; s < mesh->submesh_count; s++) {
        const ossa_submesh *sm = &mesh->submeshes[s];
        if (sm->spring_count)
            return -1;
        for (uint32_t v = 0; v < sm->vertex_count; v++) {
            uint32_t a = sm->influence_start[v], e = sm->influence_start[v + 1];
            if (e - a != 1 || fabsf(sm->influences[a].weight - 1.0f) > 1e-6f ||
                sm->influences[a].bone >= m->bone_count)
                return -1;
            if (bone >= 0 && (uint32_t)bone != sm->influences[a].bone)
                return -1;
            bone = (int32_t)sm->influences[a].bone;
        }
    }
    return bone;
}

static bool vertex_unweighted(const ossa_submesh *sm, uint32_t v, uint32_t bone_count)
{
    for (uint32_t i = sm->influence_start[v]; i < sm->influence_start[v + 1]; i++)
        if (sm->influences[i].weight > 0.0f && sm->influences[i].bone < bone_count)
            return false;
    return true;
}

static bool exported_mesh(const ossa_mesh *mesh)
{
    return mesh->lod == 0 && !(mesh->flags & OSSA_MESH_HIDDEN);
}

static bool exported_submesh(const ossa_submesh *sm)
{
    return sm->vertex_count > 0 && sm->face_count > 0;
}

uint32_t ossa_gltf_merge_influences(const gltf_ctx *c, const ossa_submesh *sm, uint32_t v,
                                    uint32_t *jb, float *jw)
{
    uint32_t n = 0;
    for (uint32_t i = sm->influence_start[v]; i < sm->influence_start[v + 1]; i++) {
        const ossa_influence *in = &sm->influences[i];
        if (!(in->weight > 0.0f) || in->bone >= c->m->bone_count)
            continue;
        uint32_t k = 0;
        while (k < n && jb[k] != in->bone)
            k++;
        if (k == n) {
            if (n == OSSA_MAX_INFLUENCES)
                continue;
            jb[n] = in->bone;
            jw[n++] = 0.0f;
        }
        jw[k] += in->weight;
    }
    for (uint32_t a = 1; a < n; a++) /* insertion sort, largest weight first */
        for (uint32_t b = a; b > 0 && jw[b] > jw[b - 1]; b--) {
            float tw = jw[b];
            jw[b] = jw[b - 1];
            jw[b - 1] = tw;
            uint32_t tb = jb[b];
            jb[b] = jb[b - 1];
            jb[b - 1] = tb;
        }
    return n;
}

/* Joint and weight sets (4 per set) for a skinned submesh: each vertex's influences merged per
 * bone and sorted (ossa_gltf_merge_influences), at most cut->keep of them (the rest recorded in
 * cut), normalised; *max_dev gets the largest bind-pose move normalising caused. */
static void skin_attributes(gltf_ctx *c, json_t *attrs, const ossa_submesh *sm, float *max_dev,
                            uint32_t *off_count, ossa_gltf_cut *cut)
{
    uint32_t vc = sm->vertex_count, most = 1;
    for (uint32_t v = 0; v < vc; v++) {
        uint32_t n = sm->influence_start[v + 1] - sm->influence_start[v];
        most = n > most ? n : most;
    }
    most = most < cut->keep ? most : cut->keep;
    uint32_t sets = (most + 3) / 4;
    uint16_t *joints = calloc((size_t)sets * 4 * vc, sizeof *joints);
    float *weights = calloc((size_t)sets * 4 * vc, sizeof *weights);
    uint32_t jb[OSSA_MAX_INFLUENCES];
    float jw[OSSA_MAX_INFLUENCES];
    if (!joints || !weights) {
        c->failed = true;
        goto done;
    }
    uint32_t used_sets = 1;
    for (uint32_t v = 0; v < vc; v++) {
        uint32_t n = ossa_gltf_merge_influences(c, sm, v, jb, jw);
        if (n == 0) {
            jb[0] = (uint32_t)c->extra_joint;
            jw[0] = 1.0f;
            n = 1;
        }
        double sum = 0.0;
        for (uint32_t k = 0; k < n; k++)
            sum += jw[k];
        if (fabs(sum - 1.0) > 1e-5) {
            const float *p = sm->positions + 3 * v;
            double len = sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2]);
            float dev = (float)(fabs(sum - 1.0) * len);
            *max_dev = dev > *max_dev ? dev : *max_dev;
            (*off_count)++;
        }
        if (n > cut->keep) { /* the smallest dropped, the rest renormalised below */
            if (cut->count == cut->cap) {
                uint32_t ncap = cut->cap ? 2 * cut->cap : 64;
                uint32_t *grown = realloc(cut->vertices, ncap * sizeof *grown);
                if (!grown) {
                    c->failed = true;
                    goto done;
                }
                cut->vertices = grown;
                cut->cap = ncap;
            }
            cut->vertices[cut->count++] = v;
            n = cut->keep;
            sum = 0.0;
            for (uint32_t k = 0; k < n; k++)
                sum += jw[k];
        }
        used_sets = (n + 3) / 4 > used_sets ? (n + 3) / 4 : used_sets;
        for (uint32_t k = 0; k < n; k++) {
            size_t at = (size_t)(k / 4) * 4 * vc + 4 * (size_t)v + k % 4;
            joints[at] = (uint16_t)jb[k];
            weights[at] = (float)(jw[k] / sum);
        }
    }
    for (uint32_t s = 0; s < used_sets; s++) {
        char jn[24], wn[24];
        snprintf(jn, sizeof jn, "JOINTS_%u", s);
        snprintf(wn, sizeof wn, "WEIGHTS_%u", s);
        uint16_t max_joint = (uint16_t)(c->joint_count ? c->joint_count - 1 : 0);
        ossa_gltf_set(c, attrs, jn,
                 json_integer(ossa_gltf_accessor_joints(c, joints + (size_t)s * 4 * vc, vc, max_joint)));
        ossa_gltf_set(c, attrs, wn,
                 json_integer(ossa_gltf_accessor_f32(c, weights + (size_t)s * 4 * vc, vc, 4,
                                                GLTF_ARRAY_BUFFER, false)));
    }
done:
    free(joints);
    free(weights);
}

/* The one point glTF skins for a vertex. With per-influence points (C3S, SKM: the vertex is
 * sum_i P_i [u_i; w_i]) it is q = sum u_i / sum w_i, whose linear blend is that sum exactly when
 * the points agree (u_i = w_i q); *gap gets sum_i |u_i - w_i q|, which bounds how far the blend
 * is from the exact sum in any pose (rotations keep lengths; 0 at the bind pose). */
static void skin_point(const ossa_submesh *sm, uint32_t v, float *out, double *gap)
{
    *gap = 0.0;
    memcpy(out, sm->positions + 3 * v, 3 * sizeof(float));
    if (!sm->influence_points)
        return;
    double u[3] = {0, 0, 0}, w = 0.0;
    for (uint32_t i = sm->influence_start[v]; i < sm->influence_start[v + 1]; i++) {
        for (int k = 0; k < 3; k++)
            u[k] += sm->influence_points[3 * (size_t)i + (size_t)k];
        w += sm->influences[i].weight;
    }
    if (!(fabs(w) > 1e-12))
        return;
    for (int k = 0; k < 3; k++)
        out[k] = (float)(u[k] / w);
    for (uint32_t i = sm->influence_start[v]; i < sm->influence_start[v + 1]; i++) {
        double d2 = 0.0;
        for (int k = 0; k < 3; k++) {
            double d = sm->influence_points[3 * (size_t)i + (size_t)k] -
                       sm->influences[i].weight * (u[k] / w);
            d2 += d * d;
        }
        *gap += sqrt(d2);
    }
}

/* POSITION, NORMAL, TEXCOORD_n, COLOR_0. */
static void vertex_attributes(gltf_ctx *c, json_t *attrs, const ossa_submesh *sm,
                              const mesh_xf *xf, bool flip_v, uint32_t *bad_normals,
                              uint32_t *clamped, double *max_gap, uint32_t *gapped)
{
    uint32_t vc = sm->vertex_count;
    float *buf = malloc((size_t)vc * 3 * sizeof(float));
    if (!buf) {
        c->failed = true;
        return;
    }
    bool exact = ossa_skin_submesh_exact(sm) != 0;
    for (uint32_t v = 0; v < vc; v++) {
        float p[3];
        double gap;
        skin_point(sm, v, p, &gap);
        xf_point(xf, p, buf + 3 * v);
        if (exact && gap > 0.0) {
            *max_gap = gap > *max_gap ? gap : *max_gap;
            (*gapped)++;
        }
    }
    ossa_gltf_set(c, attrs, "POSITION",
             json_integer(ossa_gltf_accessor_f32(c, buf, vc, 3, GLTF_ARRAY_BUFFER, true)));
    for (uint32_t v = 0; v < vc; v++) {
        float *n = buf + 3 * v;
        xf_vector(xf, sm->normals + 3 * v, n);
        double len = sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
        if (!(len > 1e-12)) { /* glTF wants unit normals: an arbitrary one for a zero normal */
            n[0] = n[2] = 0.0f;
            n[1] = 1.0f;
            (*bad_normals)++;
        } else {
            for (int k = 0; k < 3; k++)
                n[k] = (float)(n[k] / len);
        }
    }
    ossa_gltf_set(c, attrs, "NORMAL",
             json_integer(ossa_gltf_accessor_f32(c, buf, vc, 3, GLTF_ARRAY_BUFFER, false)));
    for (uint32_t set = 0; set < sm->uv_set_count; set++) {
        for (uint32_t v = 0; v < vc; v++) {
            const float *uv = sm->uvs + ((size_t)v * sm->uv_set_count + set) * 2;
            buf[2 * v] = uv[0];
            buf[2 * v + 1] = flip_v ? 1.0f - uv[1] : uv[1];
        }
        char name[24];
        snprintf(name, sizeof name, "TEXCOORD_%u", set);
        ossa_gltf_set(c, attrs, name,
                 json_integer(ossa_gltf_accessor_f32(c, buf, vc, 2, GLTF_ARRAY_BUFFER, false)));
    }
    if (sm->colors) {
        for (uint32_t i = 0; i < 3 * vc; i++) {
            float x = sm->colors[i];
            buf[i] = x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
            *clamped += buf[i] != x;
        }
        ossa_gltf_set(c, attrs, "COLOR_0",
                 json_integer(ossa_gltf_accessor_f32(c, buf, vc, 3, GLTF_ARRAY_BUFFER, false)));
    }
    free(buf);
}

static const ossa_morph_target *find_morph(const ossa_submesh *sm, const char *name)
{
    for (uint32_t k = 0; k < sm->morph_count; k++)
        if (!strcmp(sm->morphs[k].name ? sm->morphs[k].name : "", name))
            return &sm->morphs[k];
    return NULL;
}

/* The union of morph names and every submesh's frames, in that order. */
static void collect_targets(gltf_ctx *c, const ossa_mesh *mesh, gltf_mesh_targets *t)
{
    uint32_t cap = 0;
    for (uint32_t s = 0; s < mesh->submesh_count; s++)
        cap += mesh->submeshes[s].morph_count;
    t->names = malloc((cap ? cap : 1) * sizeof *t->names);
    t->frame_first = malloc((mesh->submesh_count ? mesh->submesh_count : 1) * sizeof(uint32_t));
    if (!t->names || !t->frame_first) {
        c->failed = true;
        return;
    }
    for (uint32_t s = 0; s < mesh->submesh_count; s++) {
        const ossa_submesh *sm = &mesh->submeshes[s];
        if (!exported_submesh(sm))
            continue;
        for (uint32_t k = 0; k < sm->morph_count; k++) {
            const char *name = sm->morphs[k].name ? sm->morphs[k].name : "";
            uint32_t i = 0;
            while (i < t->named_count && strcmp(t->names[i], name))
                i++;
            if (i == t->named_count)
                t->names[t->named_count++] = name;
        }
    }
    t->total = t->named_count;
    for (uint32_t s = 0; s < mesh->submesh_count; s++) {
        t->frame_first[s] = t->total;
        if (exported_submesh(&mesh->submeshes[s]))
            t->total += mesh->submeshes[s].frame_count;
    }
}

static void morph_targets(gltf_ctx *c, json_t *prim, const ossa_mesh *mesh, uint32_t s,
                          const gltf_mesh_targets *t, const mesh_xf *xf)
{
    const ossa_submesh *sm = &mesh->submeshes[s];
    uint32_t vc = sm->vertex_count;
    json_t *list = json_array();
    float *dp = malloc((size_t)vc * 3 * sizeof(float));
    float *dn = malloc((size_t)vc * 3 * sizeof(float));
    if (!list || !dp || !dn) {
        json_decref(list);
        c->failed = true;
        goto done;
    }
    int zero_p = -1, zero_n = -1; /* one all-zero pair shared by the targets this part lacks */
    for (uint32_t k = 0; k < t->total; k++) {
        int ap = -1, an = -1;
        const ossa_morph_target *mt = k < t->named_count ? find_morph(sm, t->names[k]) : NULL;
        bool own_frame = k >= t->frame_first[s] && k < t->frame_first[s] + sm->frame_count &&
                         k >= t->named_count;
        if (mt) {
            for (uint32_t i = 0; i < mt->count; i++) {
                xf_vector(xf, mt->d_position + 3 * i, dp + 3 * i);
                xf_vector(xf, mt->d_normal + 3 * i, dn + 3 * i);
            }
            ap = ossa_gltf_accessor_sparse_f32(c, vc, 3, mt->vertex, dp, mt->count, true);
            an = ossa_gltf_accessor_sparse_f32(c, vc, 3, mt->vertex, dn, mt->count, false);
        } else if (own_frame) {
            uint32_t f = k - t->frame_first[s];
            const float *fp = sm->frame_positions + (size_t)3 * vc * f;
            const float *fn = sm->frame_normals + (size_t)3 * vc * f;
            for (uint32_t i = 0; i < 3 * vc; i += 3) {
                float d[3] = {fp[i] - sm->positions[i], fp[i + 1] - sm->positions[i + 1],
                              fp[i + 2] - sm->positions[i + 2]};
                xf_vector(xf, d, dp + i);
                float e[3] = {fn[i] - sm->normals[i], fn[i + 1] - sm->normals[i + 1],
                              fn[i + 2] - sm->normals[i + 2]};
                xf_vector(xf, e, dn + i);
            }
            ap = ossa_gltf_accessor_f32(c, dp, vc, 3, GLTF_ARRAY_BUFFER, true);
            an = ossa_gltf_accessor_f32(c, dn, vc, 3, GLTF_ARRAY_BUFFER, false);
        } else {
            if (zero_p < 0) {
                zero_p = ossa_gltf_accessor_zeros(c, vc, 3, true);
                zero_n = ossa_gltf_accessor_zeros(c, vc, 3, false);
            }
            ap = zero_p;
            an = zero_n;
        }
        ossa_gltf_push(c, list, json_pack("{s:i, s:i}", "POSITION", ap, "NORMAL", an));
    }
    ossa_gltf_set(c, prim, "targets", list);
done:
    free(dp);
    free(dn);
}

static void mesh_transform(const gltf_ctx *c, int32_t rigid, mesh_xf *xf)
{
    memset(xf, 0, sizeof *xf);
    if (rigid < 0) {
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 3; k++)
                xf->m[4 * r + k] = c->axis[3 * r + k];
        return;
    }
    /* A rigid part: its data in its bone's space (the inverse bind), under the bone's node. */
    const ossa_bone *bn = &c->m->bones[rigid];
    float q[4] = {bn->inv_bind_r[0], bn->inv_bind_r[1], bn->inv_bind_r[2], bn->inv_bind_r[3]};
    ossa_quat_normalize(q);
    float x = q[0], y = q[1], z = q[2], w = q[3];
    float r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
                  2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                  2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)};
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++)
            xf->m[4 * i + k] = r[3 * i + k];
        xf->m[4 * i + 3] = bn->inv_bind_t[i];
    }
}

static void one_mesh(gltf_ctx *c, uint32_t i, bool need_extra)
{
    const ossa_model *m = c->m;
    const ossa_mesh *mesh = &m->meshes[i];
    gltf_mesh_targets *t = &c->targets[i];
    int32_t rigid = m->bone_count ? rigid_bone(m, mesh) : -1;
    bool skinned = m->bone_count && rigid < 0;
    c->mesh_rigid_bone[i] = rigid;
    collect_targets(c, mesh, t);
    if (c->failed)
        return;
    mesh_xf xf;
    mesh_transform(c, rigid, &xf);
    /* glTF's v = 0 is the image's top row; Cal3D files (and the demo) count v from the bottom,
     * as ossa-view draws them (view_texture_origin_bottom). */
    bool flip_v = mesh->format != OSSA_FORMAT_SKM && mesh->format != OSSA_FORMAT_C3S &&
                  mesh->format != OSSA_FORMAT_CFF;
    json_t *prims = json_array();
    uint32_t bad_normals = 0, clamped = 0, off = 0, gapped = 0;
    float dev = 0.0f;
    double gap = 0.0, cut_bind = 0.0, cut_clips = 0.0;
    uint32_t keep = c->opt.max_influences ? c->opt.max_influences : 4, capped = 0, cut_most = 0;
    keep = keep < OSSA_MAX_INFLUENCES ? keep : OSSA_MAX_INFLUENCES;
    for (uint32_t s = 0; s < mesh->submesh_count; s++) {
        const ossa_submesh *sm = &mesh->submeshes[s];
        if (!exported_submesh(sm))
            continue;
        json_t *prim = json_object();
        if (ossa_gltf_push(c, prims, prim) < 0)
            break;
        ossa_gltf_set(c, prim, "attributes", json_object());
        json_t *attrs = json_object_get(prim, "attributes");
        if (!attrs)
            break;
        vertex_attributes(c, attrs, sm, &xf, flip_v, &bad_normals, &clamped, &gap, &gapped);
        if (skinned) {
            ossa_gltf_skin(c, need_extra);
            ossa_gltf_cut cut = {sm, keep, NULL, 0, 0};
            skin_attributes(c, attrs, sm, &dev, &off, &cut);
            if (cut.count && !c->failed) {
                double at_bind, over;
                ossa_gltf_cut_measure(c, &cut, &at_bind, &over);
                cut_bind = at_bind > cut_bind ? at_bind : cut_bind;
                cut_clips = over > cut_clips ? over : cut_clips;
                capped += cut.count;
                cut_most = sm->max_influences > cut_most ? sm->max_influences : cut_most;
            }
            free(cut.vertices);
        }
        ossa_gltf_set(c, prim, "indices",
                 json_integer(ossa_gltf_accessor_indices(c, sm->indices, 3 * (size_t)sm->face_count,
                                                    sm->vertex_count)));
        int mat = ossa_gltf_material(c, sm->material, (sm->flags & OSSA_SUBMESH_TWO_SIDED) != 0);
        if (mat >= 0)
            ossa_gltf_set(c, prim, "material", json_integer(mat));
        if (t->total)
            morph_targets(c, prim, mesh, s, t, &xf);
    }
    const char *name = mesh->name && *mesh->name ? mesh->name : "mesh";
    if (bad_normals)
        ossa_gltf_warn(c, "mesh %s: %u zero-length normals replaced by +Y (glTF wants unit normals)",
                  name, bad_normals);
    if (clamped)
        ossa_gltf_warn(c, "mesh %s: %u vertex colour values outside 0..1 clamped", name, clamped);
    if (gapped)
        ossa_gltf_warn(c, "mesh %s: %u vertices are sums of per-influence points that disagree (%s "
                  "weighted offsets, which Ossa skins exactly); glTF skins one point per vertex "
                  "(their weighted mean): off by at most %.3g (%.2g%% of the model's size) in "
                  "any pose, 0 at the bind pose", name, gapped, ossa_format_name(mesh->format),
                  gap, c->model_size > 0 ? 100.0 * gap / c->model_size : 0.0);
    if (cut_bind < 1e-6 * (double)c->model_size) /* float noise: renormalised weights at rest */
        cut_bind = 0.0;
    if (capped)
        ossa_gltf_warn(c, "mesh %s: %u vertices have more than %u influences (up to %u): the "
                  "smallest dropped and the rest renormalised, as three.js and most engines "
                  "read only %u (max_influences, --max-influences N keeps more); they move up "
                  "to %.3g (%.2g%% of the model's size) over the clips, %.3g at the bind pose",
                  name, capped, keep, cut_most, keep, cut_clips,
                  c->model_size > 0 ? 100.0 * cut_clips / c->model_size : 0.0, cut_bind);
    if (off)
        ossa_gltf_warn(c, "mesh %s: %u vertices' weights do not sum to 1 (Cal3D uses them as they are, "
                  "glTF needs them normalised): normalised; at the bind pose the vertices move up "
                  "to %.3g (%.2g%% of the model's size)", name, off, (double)dev,
                  c->model_size > 0 ? 100.0 * dev / c->model_size : 0.0);
    if (json_array_size(prims) == 0) {
        ossa_gltf_warn(c, "mesh %s has no faces: not exported", name);
        json_decref(prims);
        return;
    }
    json_t *gm = json_pack("{s:o, s:o}", "name", ossa_gltf_text(name), "primitives", prims);
    if (gm && t->total) {
        json_t *names = json_array();
        for (uint32_t k = 0; k < t->named_count; k++)
            ossa_gltf_push(c, names, ossa_gltf_text(t->names[k]));
        for (uint32_t s = 0; s < mesh->submesh_count; s++) {
            if (!exported_submesh(&mesh->submeshes[s]))
                continue;
            for (uint32_t f = 0; f < mesh->submeshes[s].frame_count; f++) {
                char fname[48];
                snprintf(fname, sizeof fname, "frame %u.%u", s, f);
                ossa_gltf_push(c, names, json_string(fname));
            }
        }
        ossa_gltf_set(c, gm, "extras", json_pack("{s:o}", "targetNames", names));
    }
    int gi = ossa_gltf_push(c, c->meshes, gm);
    json_t *node = json_pack("{s:o, s:i}", "name", ossa_gltf_text(name), "mesh", gi);
    if (node && skinned)
        ossa_gltf_set(c, node, "skin", json_integer(c->skin));
    int ni = ossa_gltf_push(c, c->nodes, node);
    c->mesh_node[i] = ni;
    if (rigid < 0) {
        ossa_gltf_push(c, c->scene_nodes, json_integer(ni));
    } else {
        json_t *bone = json_array_get(c->nodes, (size_t)rigid);
        json_t *kids = json_object_get(bone, "children");
        if (!kids) {
            ossa_gltf_set(c, bone, "children", json_array());
            kids = json_object_get(bone, "children"); /* NULL when the set failed */
        }
        if (kids)
            ossa_gltf_push(c, kids, json_integer(ni));
    }
}

void ossa_gltf_meshes(gltf_ctx *c)
{
    const ossa_model *m = c->m;
    bool need_extra = false;
    uint32_t lods = 0, hidden = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const ossa_mesh *mesh = &m->meshes[i];
        lods += mesh->lod != 0;
        hidden += mesh->lod == 0 && (mesh->flags & OSSA_MESH_HIDDEN);
        if (!exported_mesh(mesh) || !m->bone_count || rigid_bone(m, mesh) >= 0)
            continue;
        for (uint32_t s = 0; s < mesh->submesh_count; s++)
            for (uint32_t v = 0; v < mesh->submeshes[s].vertex_count && !need_extra; v++)
                need_extra = vertex_unweighted(&mesh->submeshes[s], v, m->bone_count);
    }
    if (lods)
        ossa_gltf_warn(c, "%u coarser level-of-detail meshes not exported (glTF has no LOD; the full "
                  "detail is)", lods);
    if (hidden)
        ossa_gltf_warn(c, "%u hidden meshes not exported", hidden);
    for (uint32_t i = 0; i < m->mesh_count && !c->failed; i++)
        if (exported_mesh(&m->meshes[i]))
            one_mesh(c, i, need_extra);
}
