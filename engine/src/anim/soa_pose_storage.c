/* SoA poses: one 32-byte aligned block holding ten float arrays. */
#include <stdlib.h>
#include <string.h>
#include "core/error.h"
#include "rt_internal.h"

static uint32_t soa_capacity(uint32_t count)
{
    uint32_t c = (count + OSSA_SOA_WIDTH - 1) / OSSA_SOA_WIDTH * OSSA_SOA_WIDTH;
    return c ? c : OSSA_SOA_WIDTH;
}

static void set_identity(ossa_soa_pose *p, uint32_t from, uint32_t to)
{
    for (uint32_t i = from; i < to; i++) {
        p->tx[i] = p->ty[i] = p->tz[i] = 0.0f;
        p->qx[i] = p->qy[i] = p->qz[i] = 0.0f;
        p->qw[i] = 1.0f;
        p->sx[i] = p->sy[i] = p->sz[i] = 1.0f;
    }
}

static ossa_status soa_pose_create(uint32_t bone_count, ossa_soa_pose *pose)
{
    memset(pose, 0, sizeof *pose);
    if (bone_count > OSSA_RT_MAX_SOA_BONES)
        return OSSA_ERR_INVALID_ARGUMENT;
    uint32_t cap = soa_capacity(bone_count);
    float *block = aligned_alloc(32, (size_t)cap * 10 * sizeof(float));
    if (!block)
        return OSSA_ERR_NOMEM;
    pose->bone_count = bone_count;
    pose->capacity = cap;
    pose->block = block;
    float **arrays[10] = {&pose->tx, &pose->ty, &pose->tz, &pose->qx, &pose->qy,
                          &pose->qz, &pose->qw, &pose->sx, &pose->sy, &pose->sz};
    for (int k = 0; k < 10; k++)
        *arrays[k] = block + (size_t)k * cap;
    set_identity(pose, 0, cap);
    return OSSA_OK;
}

ossa_status ossa_soa_pose_create(uint32_t bone_count, ossa_soa_pose *out, ossa_error *err)
{
    if (!out)
        return ossa_error_status(err, OSSA_ERR_INVALID_ARGUMENT, "SoA pose");
    return ossa_error_status(err, soa_pose_create(bone_count, out), "SoA pose");
}

void ossa_soa_pose_destroy(ossa_soa_pose *pose)
{
    if (!pose)
        return;
    free(pose->block);
    memset(pose, 0, sizeof *pose);
}

ossa_status ossa_soa_pose_from_aos(ossa_soa_pose *pose, const float *t, const float *r,
                                   const float *s, uint32_t bone_capacity, ossa_error *err)
{
    if (!pose || (pose->bone_count && (!t || !r || !s)))
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "SoA pose from AoS: %s is NULL",
                               !pose ? "pose" : !t ? "t" : !r ? "r" : "s");
    if (bone_capacity < pose->bone_count)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "SoA pose from AoS: t, r, s hold %u bones (bone_capacity), the "
                               "pose has %u", bone_capacity, pose->bone_count);
    for (uint32_t i = 0; i < pose->bone_count; i++) {
        pose->tx[i] = t[3 * i]; pose->ty[i] = t[3 * i + 1]; pose->tz[i] = t[3 * i + 2];
        pose->qx[i] = r[4 * i]; pose->qy[i] = r[4 * i + 1]; pose->qz[i] = r[4 * i + 2];
        pose->qw[i] = r[4 * i + 3];
        pose->sx[i] = s[3 * i]; pose->sy[i] = s[3 * i + 1]; pose->sz[i] = s[3 * i + 2];
    }
    return OSSA_OK;
}

ossa_status ossa_soa_pose_to_aos(const ossa_soa_pose *pose, float *t, float *r, float *s,
                                 uint32_t bone_capacity, ossa_error *err)
{
    if (!pose || (pose->bone_count && (!t || !r || !s)))
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "SoA pose to AoS: %s is NULL",
                               !pose ? "pose" : !t ? "t" : !r ? "r" : "s");
    if (bone_capacity < pose->bone_count)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "SoA pose to AoS: t, r, s hold %u bones (bone_capacity), the pose "
                               "has %u", bone_capacity, pose->bone_count);
    for (uint32_t i = 0; i < pose->bone_count; i++) {
        t[3 * i] = pose->tx[i]; t[3 * i + 1] = pose->ty[i]; t[3 * i + 2] = pose->tz[i];
        r[4 * i] = pose->qx[i]; r[4 * i + 1] = pose->qy[i]; r[4 * i + 2] = pose->qz[i];
        r[4 * i + 3] = pose->qw[i];
        s[3 * i] = pose->sx[i]; s[3 * i + 1] = pose->sy[i]; s[3 * i + 2] = pose->sz[i];
    }
    return OSSA_OK;
}
