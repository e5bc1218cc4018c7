/* Pose composition shared by the reference path and the readers (see compose.h). */
#include "core/compose.h"
#include <cglm/cglm.h>
#include <string.h>

void ossa_compose_rest(const ossa_model *m, float *t, float *r, float *s)
{
    for (uint32_t i = 0; i < m->bone_count; i++) {
        memcpy(t + 3 * i, m->bones[i].rest_t, 3 * sizeof(float));
        memcpy(r + 4 * i, m->bones[i].rest_r, 4 * sizeof(float));
        memcpy(s + 3 * i, m->bones[i].rest_s, 3 * sizeof(float));
    }
}

void ossa_compose_rotate(const float *q, const float *v, float *out)
{
    float qx = q[0], qy = q[1], qz = q[2], qw = q[3];
    float uv2 = 2.0f * (qx * v[0] + qy * v[1] + qz * v[2]);
    float ss = qw * qw - (qx * qx + qy * qy + qz * qz);
    float w2 = 2.0f * qw;
    float cx = qy * v[2] - qz * v[1], cy = qz * v[0] - qx * v[2], cz = qx * v[1] - qy * v[0];
    out[0] = uv2 * qx + ss * v[0] + w2 * cx;
    out[1] = uv2 * qy + ss * v[1] + w2 * cy;
    out[2] = uv2 * qz + ss * v[2] + w2 * cz;
}

void ossa_compose_local_to_model(const ossa_model *m, const float *lt, const float *lr,
                                 const float *ls, float *mt, float *mr, float *ms)
{
    for (uint32_t i = 0; i < m->bone_count; i++) {
        int32_t p = m->bones[i].parent;
        if (p < 0) {
            memcpy(mt + 3 * i, lt + 3 * i, 3 * sizeof(float));
            memcpy(mr + 4 * i, lr + 4 * i, 4 * sizeof(float));
            memcpy(ms + 3 * i, ls + 3 * i, 3 * sizeof(float));
            continue;
        }
        vec3 scaled, rotated;
        glm_vec3_mul((float *)(ms + 3 * p), (float *)(lt + 3 * i), scaled);
        ossa_compose_rotate(mr + 4 * p, scaled, rotated);
        glm_vec3_add(rotated, (float *)(mt + 3 * p), mt + 3 * i);
        glm_quat_mul((float *)(mr + 4 * p), (float *)(lr + 4 * i), mr + 4 * i);
        glm_vec3_mul((float *)(ms + 3 * p), (float *)(ls + 3 * i), ms + 3 * i);
    }
}

