/* Runtime skeleton, local-to-model and skinning palette over SoA poses. The math is the
 * composition of pose.c (ossa_local_to_model, ossa_skin_palette): vectors are rotated by the
 * normalised quaternion (as cglm's glm_quat_rotatev), matrices are built from the quaternion as
 * it is (as Cal3D). */
#include <stdlib.h>
#include <string.h>
#include "rt_internal.h"
#include "simd4.h"

ossa_status ossa_rt_skeleton_create(const ossa_model *model, ossa_rt_skeleton **out,
                                    ossa_error *err)
{
    *out = NULL;
    if (!model || model->bone_count > OSSA_RT_MAX_SOA_BONES) {
        if (err) {
            err->status = OSSA_ERR_INVALID_ARGUMENT;
            strcpy(err->message, "runtime skeleton: no model, or more than 65536 bones");
        }
        return OSSA_ERR_INVALID_ARGUMENT;
    }
    uint32_t n = model->bone_count;
    ossa_rt_skeleton *sk = calloc(1, sizeof *sk);
    if (!sk || ossa_soa_pose_init(&sk->rest, n) != OSSA_OK) {
        free(sk);
        if (err) {
            err->status = OSSA_ERR_NOMEM;
            strcpy(err->message, "runtime skeleton: out of memory");
        }
        return OSSA_ERR_NOMEM;
    }
    uint32_t cap = sk->rest.capacity;
    sk->bone_count = n;
    sk->capacity = cap;
    float *block = aligned_alloc(32, (size_t)cap * 8 * sizeof(float));
    if (!block) {
        ossa_soa_pose_release(&sk->rest);
        free(sk);
        if (err) {
            err->status = OSSA_ERR_NOMEM;
            strcpy(err->message, "runtime skeleton: out of memory");
        }
        return OSSA_ERR_NOMEM;
    }
    sk->block = block;
    float **arrays[7] = {&sk->ib_tx, &sk->ib_ty, &sk->ib_tz, &sk->ib_qx,
                         &sk->ib_qy, &sk->ib_qz, &sk->ib_qw};
    for (int k = 0; k < 7; k++)
        *arrays[k] = block + (size_t)k * cap;
    sk->parent = (int32_t *)(block + (size_t)7 * cap);
    for (uint32_t i = 0; i < cap; i++) {
        const ossa_bone *bn = i < n ? &model->bones[i] : NULL;
        /* Parents come before children (model.h); anything else is treated as a root. */
        sk->parent[i] = bn && bn->parent >= 0 && (uint32_t)bn->parent < i ? bn->parent : -1;
        sk->ib_tx[i] = bn ? bn->inv_bind_t[0] : 0.0f;
        sk->ib_ty[i] = bn ? bn->inv_bind_t[1] : 0.0f;
        sk->ib_tz[i] = bn ? bn->inv_bind_t[2] : 0.0f;
        sk->ib_qx[i] = bn ? bn->inv_bind_r[0] : 0.0f;
        sk->ib_qy[i] = bn ? bn->inv_bind_r[1] : 0.0f;
        sk->ib_qz[i] = bn ? bn->inv_bind_r[2] : 0.0f;
        sk->ib_qw[i] = bn ? bn->inv_bind_r[3] : 1.0f;
        if (bn) {
            sk->rest.tx[i] = bn->rest_t[0]; sk->rest.ty[i] = bn->rest_t[1];
            sk->rest.tz[i] = bn->rest_t[2];
            sk->rest.qx[i] = bn->rest_r[0]; sk->rest.qy[i] = bn->rest_r[1];
            sk->rest.qz[i] = bn->rest_r[2]; sk->rest.qw[i] = bn->rest_r[3];
            sk->rest.sx[i] = bn->rest_s[0]; sk->rest.sy[i] = bn->rest_s[1];
            sk->rest.sz[i] = bn->rest_s[2];
        }
    }
    *out = sk;
    return OSSA_OK;
}

void ossa_rt_skeleton_free(ossa_rt_skeleton *skel)
{
    if (!skel)
        return;
    ossa_soa_pose_release(&skel->rest);
    free(skel->block);
    free(skel);
}

uint32_t ossa_rt_skeleton_bone_count(const ossa_rt_skeleton *skel)
{
    return skel ? skel->bone_count : 0;
}

void ossa_rt_skeleton_rest(const ossa_rt_skeleton *skel, ossa_soa_pose *pose)
{
    if (!skel || !pose || pose->bone_count != skel->bone_count)
        return;
    size_t bytes = (size_t)skel->capacity * sizeof(float);
    memcpy(pose->tx, skel->rest.tx, bytes); memcpy(pose->ty, skel->rest.ty, bytes);
    memcpy(pose->tz, skel->rest.tz, bytes); memcpy(pose->qx, skel->rest.qx, bytes);
    memcpy(pose->qy, skel->rest.qy, bytes); memcpy(pose->qz, skel->rest.qz, bytes);
    memcpy(pose->qw, skel->rest.qw, bytes); memcpy(pose->sx, skel->rest.sx, bytes);
    memcpy(pose->sy, skel->rest.sy, bytes); memcpy(pose->sz, skel->rest.sz, bytes);
}

static int pose_fits(const ossa_soa_pose *p, const ossa_rt_skeleton *sk)
{
    return p && p->block && p->bone_count == sk->bone_count && p->capacity == sk->capacity;
}

int ossa_ltm_job_validate(const ossa_ltm_job *job)
{
    return job && job->skeleton && pose_fits(job->local, job->skeleton) &&
           pose_fits(job->model, job->skeleton) && job->local->block != job->model->block;
}

/* v rotated by q / |q| (cglm's glm_quat_rotatev, which normalises q first):
 * (2 (u.v) u + (w^2 - u.u) v + 2 w (u x v)) / |q|^2. */
static inline void rotate(float qx, float qy, float qz, float qw, float vx, float vy, float vz,
                          float *ox, float *oy, float *oz)
{
    float n2 = qx * qx + qy * qy + qz * qz + qw * qw;
    float inv = n2 > 0.0f ? 1.0f / n2 : 0.0f;
    float uv2 = 2.0f * (qx * vx + qy * vy + qz * vz);
    float ss = qw * qw - (qx * qx + qy * qy + qz * qz);
    float w2 = 2.0f * qw;
    float cx = qy * vz - qz * vy, cy = qz * vx - qx * vz, cz = qx * vy - qy * vx;
    *ox = (uv2 * qx + ss * vx + w2 * cx) * inv;
    *oy = (uv2 * qy + ss * vy + w2 * cy) * inv;
    *oz = (uv2 * qz + ss * vz + w2 * cz) * inv;
}

/* Nonzero when every scale of pose (padding included) is exactly 1. */
static int unit_scales(const ossa_soa_pose *p)
{
    v4i all = {-1, -1, -1, -1};
    for (uint32_t i = 0; i < p->capacity; i += 4)
        all &= (v4_load(p->sx + i) == 1.0f) & (v4_load(p->sy + i) == 1.0f) &
               (v4_load(p->sz + i) == 1.0f);
    return all[0] & all[1] & all[2] & all[3];
}

/* Bone i from its parent p (already in m). unit: every scale is 1, so the products with scales
 * are skipped (x * 1 = x: the same bits) and the model scales are the local ones. */
static inline void ltm_bone(const ossa_soa_pose *restrict l, ossa_soa_pose *restrict m,
                            uint32_t i, int32_t p, int unit)
{
    float px = m->qx[p], py = m->qy[p], pz = m->qz[p], pw = m->qw[p];
    float vx = l->tx[i], vy = l->ty[i], vz = l->tz[i];
    if (!unit) {
        vx *= m->sx[p];
        vy *= m->sy[p];
        vz *= m->sz[p];
    }
    float rx, ry, rz;
    rotate(px, py, pz, pw, vx, vy, vz, &rx, &ry, &rz);
    m->tx[i] = rx + m->tx[p];
    m->ty[i] = ry + m->ty[p];
    m->tz[i] = rz + m->tz[p];
    float lx = l->qx[i], ly = l->qy[i], lz = l->qz[i], lw = l->qw[i];
    /* The order of ossa_local_to_model's glm_quat_mul: the rounding stays the same down a
     * long chain of bones. */
    m->qx[i] = pw * lx + px * lw + py * lz - pz * ly;
    m->qy[i] = pw * ly - px * lz + py * lw + pz * lx;
    m->qz[i] = pw * lz + px * ly - py * lx + pz * lw;
    m->qw[i] = pw * lw - px * lx - py * ly - pz * lz;
    if (!unit) {
        m->sx[i] = m->sx[p] * l->sx[i];
        m->sy[i] = m->sy[p] * l->sy[i];
        m->sz[i] = m->sz[p] * l->sz[i];
    }
}

int ossa_ltm_job_run(const ossa_ltm_job *job)
{
    if (!ossa_ltm_job_validate(job))
        return 0;
    const ossa_rt_skeleton *sk = job->skeleton;
    const ossa_soa_pose *l = job->local;
    ossa_soa_pose *m = job->model;
    const int32_t *parent = sk->parent;
    uint32_t n = sk->bone_count;
    int unit = unit_scales(l);
    if (unit) {
        size_t bytes = (size_t)m->capacity * sizeof(float);
        memcpy(m->sx, l->sx, bytes);
        memcpy(m->sy, l->sy, bytes);
        memcpy(m->sz, l->sz, bytes);
    }
    for (uint32_t i = 0; i < n; i++) {
        int32_t p = parent[i];
        if (p < 0) {
            m->tx[i] = l->tx[i]; m->ty[i] = l->ty[i]; m->tz[i] = l->tz[i];
            m->qx[i] = l->qx[i]; m->qy[i] = l->qy[i]; m->qz[i] = l->qz[i];
            m->qw[i] = l->qw[i];
            m->sx[i] = l->sx[i]; m->sy[i] = l->sy[i]; m->sz[i] = l->sz[i];
        } else if (unit) {
            ltm_bone(l, m, i, p, 1);
        } else {
            ltm_bone(l, m, i, p, 0);
        }
    }
    return 1;
}

int ossa_palette_job_validate(const ossa_palette_job *job)
{
    return job && job->skeleton && pose_fits(job->model, job->skeleton) && job->palette &&
           job->palette_floats / 12 >= job->skeleton->bone_count;
}

/* One bone's palette entry, any scale: pose (R S, t) x inverse bind (Rb, tb). */
static void palette_bone(const ossa_rt_skeleton *sk, const ossa_soa_pose *m, uint32_t i,
                         float *out)
{
    float qx = m->qx[i], qy = m->qy[i], qz = m->qz[i], qw = m->qw[i];
    float sx = m->sx[i], sy = m->sy[i], sz = m->sz[i];
    float bx = sk->ib_qx[i], by = sk->ib_qy[i], bz = sk->ib_qz[i], bw = sk->ib_qw[i];
    float tx, ty, tz;
    rotate(qx, qy, qz, qw, sk->ib_tx[i] * sx, sk->ib_ty[i] * sy, sk->ib_tz[i] * sz, &tx, &ty,
           &tz);
    out[3] = tx + m->tx[i];
    out[7] = ty + m->ty[i];
    out[11] = tz + m->tz[i];
    if (sx == 1.0f && sy == 1.0f && sz == 1.0f) {
        /* One quaternion product, then its (unnormalised) matrix, as Cal3D. */
        float x = qw * bx + qx * bw + qy * bz - qz * by;
        float y = qw * by - qx * bz + qy * bw + qz * bx;
        float z = qw * bz + qx * by - qy * bx + qz * bw;
        float w = qw * bw - qx * bx - qy * by - qz * bz;
        float x2 = x + x, y2 = y + y, z2 = z + z;
        float xx = x * x2, yy = y * y2, zz = z * z2;
        float xy = x * y2, xz = x * z2, yz = y * z2;
        float xw = w * x2, yw = w * y2, zw = w * z2;
        out[0] = 1 - yy - zz; out[1] = xy - zw;     out[2] = xz + yw;
        out[4] = xy + zw;     out[5] = 1 - xx - zz; out[6] = yz - xw;
        out[8] = xz - yw;     out[9] = yz + xw;     out[10] = 1 - xx - yy;
        return;
    }
    /* R(q) diag(s) R(b). */
    float pr[9], br[9];
    float src[2][4] = {{qx, qy, qz, qw}, {bx, by, bz, bw}};
    for (int k = 0; k < 2; k++) {
        float x = src[k][0], y = src[k][1], z = src[k][2], w = src[k][3];
        float *o = k ? br : pr;
        o[0] = 1 - 2 * y * y - 2 * z * z; o[1] = 2 * x * y - 2 * z * w;
        o[2] = 2 * x * z + 2 * y * w;
        o[3] = 2 * x * y + 2 * z * w;     o[4] = 1 - 2 * x * x - 2 * z * z;
        o[5] = 2 * y * z - 2 * x * w;
        o[6] = 2 * x * z - 2 * y * w;     o[7] = 2 * y * z + 2 * x * w;
        o[8] = 1 - 2 * x * x - 2 * y * y;
    }
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            out[4 * r + c] = pr[3 * r] * sx * br[c] + pr[3 * r + 1] * sy * br[3 + c] +
                             pr[3 * r + 2] * sz * br[6 + c];
}

/* Four bones at once (SoA in, 3x4 rows out) when all four have unit scale: palette_bone's unit
 * scale branch lane by lane, so the results are the same bits. */
static void palette_four(const ossa_rt_skeleton *sk, const ossa_soa_pose *m, uint32_t i,
                         float *out, uint32_t count)
{
    v4f qx = v4_load(m->qx + i), qy = v4_load(m->qy + i), qz = v4_load(m->qz + i),
        qw = v4_load(m->qw + i);
    v4f bx = v4_load(sk->ib_qx + i), by = v4_load(sk->ib_qy + i), bz = v4_load(sk->ib_qz + i),
        bw = v4_load(sk->ib_qw + i);
    v4f vx = v4_load(sk->ib_tx + i), vy = v4_load(sk->ib_ty + i), vz = v4_load(sk->ib_tz + i);
    /* rotate(), with scale 1: v * 1 = v. */
    v4f n2 = qx * qx + qy * qy + qz * qz + qw * qw;
    v4i pos = n2 > 0.0f;
    v4f inv = (v4f)(pos & (v4i)(1.0f / v4_select(pos, n2, (v4f){1, 1, 1, 1})));
    v4f uv2 = 2.0f * (qx * vx + qy * vy + qz * vz);
    v4f ss = qw * qw - (qx * qx + qy * qy + qz * qz);
    v4f w2 = 2.0f * qw;
    v4f cx = qy * vz - qz * vy, cy = qz * vx - qx * vz, cz = qx * vy - qy * vx;
    v4f tx = (uv2 * qx + ss * vx + w2 * cx) * inv + v4_load(m->tx + i);
    v4f ty = (uv2 * qy + ss * vy + w2 * cy) * inv + v4_load(m->ty + i);
    v4f tz = (uv2 * qz + ss * vz + w2 * cz) * inv + v4_load(m->tz + i);
    v4f x = qw * bx + qx * bw + qy * bz - qz * by;
    v4f y = qw * by - qx * bz + qy * bw + qz * bx;
    v4f z = qw * bz + qx * by - qy * bx + qz * bw;
    v4f w = qw * bw - qx * bx - qy * by - qz * bz;
    v4f x2 = x + x, y2 = y + y, z2 = z + z;
    v4f xx = x * x2, yy = y * y2, zz = z * z2;
    v4f xy = x * y2, xz = x * z2, yz = y * z2;
    v4f xw = w * x2, yw = w * y2, zw = w * z2;
    v4f r0[4] = {1 - yy - zz, xy - zw, xz + yw, tx};
    v4f r1[4] = {xy + zw, 1 - xx - zz, yz - xw, ty};
    v4f r2[4] = {xz - yw, yz + xw, 1 - xx - yy, tz};
    v4_transpose(&r0[0], &r0[1], &r0[2], &r0[3]);
    v4_transpose(&r1[0], &r1[1], &r1[2], &r1[3]);
    v4_transpose(&r2[0], &r2[1], &r2[2], &r2[3]);
    for (uint32_t j = 0; j < count; j++, out += 12) {
        v4_store(out, r0[j]);
        v4_store(out + 4, r1[j]);
        v4_store(out + 8, r2[j]);
    }
}

int ossa_palette_job_run(const ossa_palette_job *job)
{
    if (!ossa_palette_job_validate(job))
        return 0;
    const ossa_rt_skeleton *sk = job->skeleton;
    const ossa_soa_pose *m = job->model;
    uint32_t n = sk->bone_count;
    /* The arrays hold capacity (a multiple of 8) entries, so whole groups of four can be read;
     * only the bones that exist are written. */
    for (uint32_t i = 0; i < n; i += 4) {
        uint32_t count = n - i < 4 ? n - i : 4;
        float *out = job->palette + 12 * (size_t)i;
        v4i unit = (v4_load(m->sx + i) == 1.0f) & (v4_load(m->sy + i) == 1.0f) &
                   (v4_load(m->sz + i) == 1.0f);
        if (unit[0] & unit[1] & unit[2] & unit[3]) {
            palette_four(sk, m, i, out, count);
        } else {
            for (uint32_t j = 0; j < count; j++)
                palette_bone(sk, m, i + j, out + 12 * j);
        }
    }
    return 1;
}
