/* Axes, the bone hierarchy as glTF nodes, and the skin (joints and inverse bind matrices). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/quat.h"
#include "gltf_internal.h"

void ossa_gltf_axis_vec(const gltf_ctx *c, const float *in, float *out)
{
    float v[3] = {in[0], in[1], in[2]};
    for (int r = 0; r < 3; r++)
        out[r] = c->axis[3 * r] * v[0] + c->axis[3 * r + 1] * v[1] + c->axis[3 * r + 2] * v[2];
}

void ossa_gltf_axis_quat(const gltf_ctx *c, const float *in, float *out)
{
    ossa_quat_mul(c->axis_q, in, out);
}

/* 3x3 rotation (row-major) of a unit quaternion. */
static void quat_mat3(const float *q, float *m)
{
    float x = q[0], y = q[1], z = q[2], w = q[3];
    m[0] = 1 - 2 * (y * y + z * z); m[1] = 2 * (x * y - z * w);     m[2] = 2 * (x * z + y * w);
    m[3] = 2 * (x * y + z * w);     m[4] = 1 - 2 * (x * x + z * z); m[5] = 2 * (y * z - x * w);
    m[6] = 2 * (x * z - y * w);     m[7] = 2 * (y * z + x * w);     m[8] = 1 - 2 * (x * x + y * y);
}

ossa_export_up ossa_export_up_of_bounds(ossa_format format, const float min[3],
                                        const float max[3])
{
    if (format == OSSA_FORMAT_DEMO || format == OSSA_FORMAT_CFF)
        return OSSA_EXPORT_UP_Y;
    float ey = max[1] - min[1], ez = max[2] - min[2];
    bool finite = isfinite(ey) && isfinite(ez);
    if (format == OSSA_FORMAT_UNKNOWN || format == OSSA_FORMAT_COUNT)
        return finite && ez > ey ? OSSA_EXPORT_UP_Z : OSSA_EXPORT_UP_Y;
    return finite && ey > 1.5f * ez ? OSSA_EXPORT_UP_Y : OSSA_EXPORT_UP_Z;
}

ossa_export_up ossa_export_source_up(const ossa_model *m, const ossa_export_options *opt)
{
    if (opt && opt->up != OSSA_EXPORT_UP_AUTO)
        return opt->up;
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                for (int k = 0; k < 3; k++) {
                    float x = sm->positions[3 * v + k];
                    lo[k] = x < lo[k] ? x : lo[k];
                    hi[k] = x > hi[k] ? x : hi[k];
                }
        }
    return ossa_export_up_of_bounds(m->format, lo, hi);
}

/* Z up to Y up: (x, y, z) -> (x, z, -y), a -90 degree turn about X (right-handed kept). */
static void setup_axes(gltf_ctx *c)
{
    c->up = ossa_export_source_up(c->m, &c->opt);
    memset(c->axis, 0, sizeof c->axis);
    if (c->up == OSSA_EXPORT_UP_Z) {
        c->axis[0] = 1.0f;
        c->axis[5] = 1.0f;
        c->axis[7] = -1.0f;
        c->axis_q[0] = -0.70710678f;
        c->axis_q[1] = c->axis_q[2] = 0.0f;
        c->axis_q[3] = 0.70710678f;
    } else {
        c->axis[0] = c->axis[4] = c->axis[8] = 1.0f;
        c->axis_q[0] = c->axis_q[1] = c->axis_q[2] = 0.0f;
        c->axis_q[3] = 1.0f;
    }
}

static bool is_one(const float *s)
{
    return s[0] == 1.0f && s[1] == 1.0f && s[2] == 1.0f;
}

/* The inverse bind of bone b as a glTF column-major 4x4, taking glTF-frame points (the axis
 * change undone first). */
static void inverse_bind(const gltf_ctx *c, uint32_t b, float *out)
{
    const ossa_bone *bn = &c->m->bones[b];
    float q[4] = {bn->inv_bind_r[0], bn->inv_bind_r[1], bn->inv_bind_r[2], bn->inv_bind_r[3]};
    ossa_quat_normalize(q);
    float r[9], rc[9];
    quat_mat3(q, r);
    /* R x C^T: C is orthonormal, its inverse is its transpose. */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            rc[3 * i + j] = r[3 * i] * c->axis[3 * j] + r[3 * i + 1] * c->axis[3 * j + 1] +
                            r[3 * i + 2] * c->axis[3 * j + 2];
    memset(out, 0, 16 * sizeof(float));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[4 * j + i] = rc[3 * i + j];
    for (int i = 0; i < 3; i++)
        out[12 + i] = bn->inv_bind_t[i];
    out[15] = 1.0f;
}

void ossa_gltf_nodes(gltf_ctx *c)
{
    const ossa_model *m = c->m;
    setup_axes(c);
    int rest_non_unit = 0;
    for (uint32_t b = 0; b < m->bone_count; b++) {
        const ossa_bone *bn = &m->bones[b];
        json_t *node = json_object();
        if (ossa_gltf_push(c, c->nodes, node) < 0)
            return; /* node is gone with the failed push: not touched again */
        ossa_gltf_set(c, node, "name", ossa_gltf_text(bn->name));
        float t[3], r[4] = {bn->rest_r[0], bn->rest_r[1], bn->rest_r[2], bn->rest_r[3]};
        float n2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3];
        rest_non_unit += fabsf(n2 - 1.0f) > 1e-3f;
        memcpy(t, bn->rest_t, sizeof t);
        if (bn->parent < 0) {
            ossa_gltf_axis_vec(c, bn->rest_t, t);
            ossa_gltf_axis_quat(c, bn->rest_r, r);
        }
        ossa_quat_normalize(r);
        if (t[0] != 0.0f || t[1] != 0.0f || t[2] != 0.0f)
            ossa_gltf_set(c, node, "translation", ossa_gltf_floats(c, t, 3));
        if (r[0] != 0.0f || r[1] != 0.0f || r[2] != 0.0f || r[3] != 1.0f)
            ossa_gltf_set(c, node, "rotation", ossa_gltf_floats(c, r, 4));
        if (!is_one(bn->rest_s))
            ossa_gltf_set(c, node, "scale", ossa_gltf_floats(c, bn->rest_s, 3));
    }
    if (rest_non_unit)
        ossa_gltf_warn(c, "%d bones' rest rotations are not unit quaternions: normalised (glTF needs "
                  "unit rotations)", rest_non_unit);
    for (uint32_t b = 0; b < m->bone_count; b++) {
        int32_t p = m->bones[b].parent;
        if (p < 0) {
            ossa_gltf_push(c, c->scene_nodes, json_integer(b));
            continue;
        }
        json_t *parent = json_array_get(c->nodes, (size_t)p);
        json_t *kids = json_object_get(parent, "children");
        if (!kids) {
            ossa_gltf_set(c, parent, "children", json_array());
            kids = json_object_get(parent, "children"); /* NULL when the set failed */
        }
        if (kids)
            ossa_gltf_push(c, kids, json_integer(b));
    }
}

/* Joints must share one root (the validator's SKIN_NO_COMMON_ROOT): with several root bones or
 * the stand-in joint, an identity node "ossa_skeleton" takes them as children in the scene's
 * place and is the skin's skeleton. */
static void common_root(gltf_ctx *c, json_t *skin, int extra_node)
{
    const ossa_model *m = c->m;
    json_t *kids = json_array();
    json_t *scene = json_array();
    if (!kids || !scene) {
        json_decref(kids);
        json_decref(scene);
        c->failed = true;
        return;
    }
    for (uint32_t b = 0; b < m->bone_count; b++)
        if (m->bones[b].parent < 0)
            ossa_gltf_push(c, kids, json_integer(b));
    if (extra_node >= 0)
        ossa_gltf_push(c, kids, json_integer(extra_node));
    /* The scene keeps what is not a root bone (mesh nodes) and gets the new root. */
    size_t i;
    json_t *v;
    json_array_foreach(c->scene_nodes, i, v) {
        json_int_t n = json_integer_value(v);
        if (n < 0 || n >= (json_int_t)m->bone_count || m->bones[n].parent >= 0)
            ossa_gltf_push(c, scene, json_integer(n));
    }
    int wrap = ossa_gltf_push(c, c->nodes, json_pack("{s:s, s:o}", "name", "ossa_skeleton",
                                                     "children", kids));
    if (wrap < 0) {
        json_decref(scene);
        return;
    }
    ossa_gltf_push(c, scene, json_integer(wrap));
    json_array_clear(c->scene_nodes);
    json_array_extend(c->scene_nodes, scene);
    json_decref(scene);
    ossa_gltf_set(c, skin, "skeleton", json_integer(wrap));
}

/* The skin over every bone (and the stand-in joint when some vertex has no weight), created
 * when the first skinned mesh asks for it. Returns the skin index. */
int ossa_gltf_skin(gltf_ctx *c, bool need_extra_joint)
{
    const ossa_model *m = c->m;
    if (c->skin >= 0)
        return c->skin;
    uint32_t joints = m->bone_count + (need_extra_joint ? 1u : 0u);
    float *ibm = calloc((size_t)joints * 16, sizeof(float));
    json_t *list = json_array();
    if (!ibm || !list) {
        free(ibm);
        json_decref(list);
        c->failed = true;
        return -1;
    }
    for (uint32_t b = 0; b < m->bone_count; b++) {
        inverse_bind(c, b, ibm + 16 * b);
        ossa_gltf_push(c, list, json_integer(b));
    }
    int extra_node = -1;
    if (need_extra_joint) {
        /* Vertices without influences keep their bind position (as ossa_skin_submesh_scalar
         * does): a joint at the origin with an identity inverse bind. */
        float *e = ibm + 16 * m->bone_count;
        e[0] = e[5] = e[10] = e[15] = 1.0f;
        extra_node = ossa_gltf_push(c, c->nodes, json_pack("{s:s}", "name", "ossa_unweighted"));
        ossa_gltf_push(c, list, json_integer(extra_node));
        c->extra_joint = (int32_t)m->bone_count;
    }
    int acc = ossa_gltf_accessor_f32(c, ibm, joints, 16, 0, false);
    free(ibm);
    json_t *skin = json_pack("{s:o, s:i}", "joints", list, "inverseBindMatrices", acc);
    /* skeleton: the common root, when there is one */
    uint32_t roots = 0, root = 0;
    for (uint32_t b = 0; b < m->bone_count; b++)
        if (m->bones[b].parent < 0) {
            roots++;
            root = b;
        }
    if (skin && roots == 1 && !need_extra_joint)
        ossa_gltf_set(c, skin, "skeleton", json_integer(root));
    else if (skin && (roots > 1 || need_extra_joint))
        common_root(c, skin, extra_node);
    c->joint_count = joints;
    c->skin = ossa_gltf_push(c, c->skins, skin);
    return c->skin;
}
