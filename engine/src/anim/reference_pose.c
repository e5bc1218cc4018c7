#include <cglm/cglm.h>
#include <string.h>
#include "core/compose.h"
#include "core/error.h"
#include "ossa/reference.h"

/* The reference path's check of its caller-owned arrays: each holds bone_capacity bones. */
static ossa_status bones_fit(const ossa_model *m, uint32_t bone_capacity, const char *call,
                             const char *arrays, ossa_error *err)
{
    if (!m)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "%s: model is NULL", call);
    if (bone_capacity < m->bone_count)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "%s: %s hold %u bones (bone_capacity), the model has %u", call,
                               arrays, bone_capacity, m->bone_count);
    return OSSA_OK;
}

ossa_status ossa_local_to_model(const ossa_model *m, const float *lt, const float *lr,
                                const float *ls, float *mt, float *mr, float *ms,
                                uint32_t bone_capacity, ossa_error *err)
{
    ossa_status st = bones_fit(m, bone_capacity, "local to model", "lt, lr, ls, mt, mr, ms", err);
    if (st != OSSA_OK)
        return st;
    if (m->bone_count && (!lt || !lr || !ls || !mt || !mr || !ms))
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "local to model: a pose array is NULL");
    ossa_compose_local_to_model(m, lt, lr, ls, mt, mr, ms);
    return OSSA_OK;
}

/* Rotation matrix of a Hamilton quaternion without renormalising it, as Cal3D builds it. */
static void quat_to_mat3(const float *q, float out[3][3])
{
    float x = q[0], y = q[1], z = q[2], w = q[3];
    float xx2 = 2 * x * x, yy2 = 2 * y * y, zz2 = 2 * z * z;
    float xy2 = 2 * x * y, xz2 = 2 * x * z, yz2 = 2 * y * z;
    float xw2 = 2 * x * w, yw2 = 2 * y * w, zw2 = 2 * z * w;
    out[0][0] = 1 - yy2 - zz2; out[0][1] = xy2 - zw2;     out[0][2] = xz2 + yw2;
    out[1][0] = xy2 + zw2;     out[1][1] = 1 - xx2 - zz2; out[1][2] = yz2 - xw2;
    out[2][0] = xz2 - yw2;     out[2][1] = yz2 + xw2;     out[2][2] = 1 - xx2 - yy2;
}

ossa_status ossa_skin_palette(const ossa_model *m, const float *mt, const float *mr,
                              const float *ms, float *palette, uint32_t bone_capacity,
                              ossa_error *err)
{
    ossa_status st = bones_fit(m, bone_capacity, "skin palette", "mt, mr, ms, palette", err);
    if (st != OSSA_OK)
        return st;
    if (m->bone_count && (!mt || !mr || !ms || !palette))
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "skin palette: %s is NULL",
                               !palette ? "palette" : "a pose array");
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const ossa_bone *bn = &m->bones[i];
        /* pose (R S, t) x inverse bind (Rb, tb): rotation R S Rb, translation R S tb + t.
         * With unit scale the rotation is one quaternion product, as in Cal3D. */
        const float *s = ms + 3 * i;
        float rot[3][3];
        float ibt[3] = {bn->inv_bind_t[0] * s[0], bn->inv_bind_t[1] * s[1], bn->inv_bind_t[2] * s[2]};
        vec3 t;
        ossa_compose_rotate(mr + 4 * i, ibt, t);
        if (s[0] == 1.0f && s[1] == 1.0f && s[2] == 1.0f) {
            versor q;
            glm_quat_mul((float *)(mr + 4 * i), (float *)bn->inv_bind_r, q);
            quat_to_mat3(q, rot);
        } else {
            float pr[3][3], br[3][3];
            quat_to_mat3(mr + 4 * i, pr);
            quat_to_mat3(bn->inv_bind_r, br);
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++)
                    rot[r][c] = pr[r][0] * s[0] * br[0][c] + pr[r][1] * s[1] * br[1][c] +
                                pr[r][2] * s[2] * br[2][c];
        }
        float *out = palette + 12 * i;
        for (int r = 0; r < 3; r++) {
            out[4 * r + 0] = rot[r][0];
            out[4 * r + 1] = rot[r][1];
            out[4 * r + 2] = rot[r][2];
            out[4 * r + 3] = t[r] + mt[3 * i + r];
        }
    }
    return OSSA_OK;
}

ossa_reference_pose ossa_reference_pose_in(float *block, uint32_t bone_capacity)
{
    ossa_reference_pose p = {0};
    if (!block)
        return p;
    size_t n = bone_capacity;
    p.lt = block;
    p.lr = p.lt + 3 * n;
    p.ls = p.lr + 4 * n;
    p.mt = p.ls + 3 * n;
    p.mr = p.mt + 3 * n;
    p.ms = p.mr + 4 * n;
    p.palette = p.ms + 3 * n;
    p.bone_capacity = bone_capacity;
    return p;
}

ossa_status ossa_reference_pose_at(const ossa_model *m, const ossa_clip *clip, float time,
                                   ossa_wrap wrap, const ossa_reference_pose *p, ossa_error *err)
{
    if (!p)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "reference pose: pose is NULL");
    bool model = p->mt || p->mr || p->ms;
    if (p->palette && !model)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "reference pose: a palette needs the model pose arrays");
    uint32_t cap = p->bone_capacity;
    ossa_status st = ossa_pose_rest(m, p->lt, p->lr, p->ls, cap, err);
    if (st == OSSA_OK && clip)
        st = ossa_sample_clip(m, clip,
                              wrap == OSSA_WRAP_LOOP ? ossa_clip_wrap_time(clip, time) : time,
                              wrap, p->lt, p->lr, p->ls, cap, err);
    if (st == OSSA_OK && model)
        st = ossa_local_to_model(m, p->lt, p->lr, p->ls, p->mt, p->mr, p->ms, cap, err);
    if (st == OSSA_OK && p->palette)
        st = ossa_skin_palette(m, p->mt, p->mr, p->ms, p->palette, cap, err);
    return st;
}
