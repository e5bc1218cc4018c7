/* Runtime skeleton and skinning palette over SoA poses (local to model: ltm_job.c). The math is
 * reference_pose.c's (ossa_skin_palette): vectors are rotated and
 * matrices built by the quaternion as it is, without renormalising it, as Cal3D does. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "core/error.h"
#include "rt_internal.h"
#include "simd4.h"
#include "simd8.h"

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
    if (!sk || ossa_soa_pose_create(n, &sk->rest, NULL) != OSSA_OK) {
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
        ossa_soa_pose_destroy(&sk->rest);
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

void ossa_rt_skeleton_destroy(ossa_rt_skeleton *skel)
{
    if (!skel)
        return;
    ossa_soa_pose_destroy(&skel->rest);
    free(skel->block);
    free(skel);
}

uint32_t ossa_rt_skeleton_bone_count(const ossa_rt_skeleton *skel)
{
    return skel ? skel->bone_count : 0;
}

ossa_status ossa_rt_skeleton_rest(const ossa_rt_skeleton *skel, ossa_soa_pose *pose,
                                  ossa_error *err)
{
    if (!skel || !pose)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "skeleton rest: %s is NULL",
                               !skel ? "skeleton" : "pose");
    if (pose->bone_count != skel->bone_count)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "skeleton rest: the pose has %u bones, the skeleton %u",
                               pose->bone_count, skel->bone_count);
    size_t bytes = (size_t)skel->capacity * sizeof(float);
    memcpy(pose->tx, skel->rest.tx, bytes); memcpy(pose->ty, skel->rest.ty, bytes);
    memcpy(pose->tz, skel->rest.tz, bytes); memcpy(pose->qx, skel->rest.qx, bytes);
    memcpy(pose->qy, skel->rest.qy, bytes); memcpy(pose->qz, skel->rest.qz, bytes);
    memcpy(pose->qw, skel->rest.qw, bytes); memcpy(pose->sx, skel->rest.sx, bytes);
    memcpy(pose->sy, skel->rest.sy, bytes); memcpy(pose->sz, skel->rest.sz, bytes);
    return OSSA_OK;
}

int ossa_rt_pose_fits(const ossa_soa_pose *p, const ossa_rt_skeleton *sk)
{
    return p && p->block && p->bone_count == sk->bone_count && p->capacity == sk->capacity;
}

/* q v q* without renormalising q, as Cal3D's CalVector *= CalQuaternion (a blended, non-unit q
 * also scales v by |q|^2): 2 (u.v) u + (w^2 - u.u) v + 2 w (u x v). */
static inline void rotate(float qx, float qy, float qz, float qw, float vx, float vy, float vz,
                          float *ox, float *oy, float *oz)
{
    float uv2 = 2.0f * (qx * vx + qy * vy + qz * vz);
    float ss = qw * qw - (qx * qx + qy * qy + qz * qz);
    float w2 = 2.0f * qw;
    float cx = qy * vz - qz * vy, cy = qz * vx - qx * vz, cz = qx * vy - qy * vx;
    *ox = uv2 * qx + ss * vx + w2 * cx;
    *oy = uv2 * qy + ss * vy + w2 * cy;
    *oz = uv2 * qz + ss * vz + w2 * cz;
}

static int palette_job_validate_impl(const ossa_palette_job *job)
{
    return job && job->skeleton && ossa_rt_pose_fits(job->model, job->skeleton) && job->palette &&
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

/* Half h (bones 4h..4h+3) of eight bones' palette rows r0..r2 (each four columns across the
 * lanes) as n (1..4) bones' 3x4 rows. */
static inline __attribute__((always_inline)) void palette_store_half(
    const v8f r0[4], const v8f r1[4], const v8f r2[4], uint32_t h, float *out, uint32_t n)
{
    v4f a[4] = {v8_half(&r0[0], h), v8_half(&r0[1], h), v8_half(&r0[2], h), v8_half(&r0[3], h)};
    v4f b[4] = {v8_half(&r1[0], h), v8_half(&r1[1], h), v8_half(&r1[2], h), v8_half(&r1[3], h)};
    v4f c[4] = {v8_half(&r2[0], h), v8_half(&r2[1], h), v8_half(&r2[2], h), v8_half(&r2[3], h)};
    v4_transpose(&a[0], &a[1], &a[2], &a[3]);
    v4_transpose(&b[0], &b[1], &b[2], &b[3]);
    v4_transpose(&c[0], &c[1], &c[2], &c[3]);
    for (uint32_t j = 0; j < n; j++, out += 12) {
        v4_store(out, a[j]);
        v4_store(out + 4, b[j]);
        v4_store(out + 8, c[j]);
    }
}

/* Eight bones' palette entries for unit scale: palette_bone's unit-scale branch lane by lane
 * (element-wise IEEE operations, no fusing), so the results are the same bits. Written once for
 * both lane widths: palette_unit_sse2 runs it as two four-lane halves (transposed as halves),
 * palette_unit_avx2 on eight lanes (the same body under AVX2's target; wide: the transposes
 * on eight lanes, half the shuffles). The arrays hold capacity (a multiple of 8)
 * entries, so eight lanes can always be read; only count (1..8) bones are written, and only
 * those whose half (bones 0-3, 4-7) has unit[half] set. */
static inline __attribute__((always_inline)) void palette_unit_body(
    const ossa_rt_skeleton *sk, const ossa_soa_pose *m, uint32_t i, float *out, uint32_t count,
    const int unit[2], int wide)
{
    v8f qx, qy, qz, qw, bx, by, bz, bw, vx, vy, vz, ptx, pty, ptz;
    v8_load_any(&qx, m->qx + i), v8_load_any(&qy, m->qy + i);
    v8_load_any(&qz, m->qz + i), v8_load_any(&qw, m->qw + i);
    v8_load_any(&bx, sk->ib_qx + i), v8_load_any(&by, sk->ib_qy + i);
    v8_load_any(&bz, sk->ib_qz + i), v8_load_any(&bw, sk->ib_qw + i);
    v8_load_any(&vx, sk->ib_tx + i), v8_load_any(&vy, sk->ib_ty + i);
    v8_load_any(&vz, sk->ib_tz + i);
    v8_load_any(&ptx, m->tx + i), v8_load_any(&pty, m->ty + i), v8_load_any(&ptz, m->tz + i);
    /* rotate(), with scale 1: v * 1 = v. */
    v8f uv2 = 2.0f * (qx * vx + qy * vy + qz * vz);
    v8f ss = qw * qw - (qx * qx + qy * qy + qz * qz);
    v8f w2 = 2.0f * qw;
    v8f cx = qy * vz - qz * vy, cy = qz * vx - qx * vz, cz = qx * vy - qy * vx;
    v8f tx = (uv2 * qx + ss * vx + w2 * cx) + ptx;
    v8f ty = (uv2 * qy + ss * vy + w2 * cy) + pty;
    v8f tz = (uv2 * qz + ss * vz + w2 * cz) + ptz;
    /* One quaternion product, then its (unnormalised) matrix, as Cal3D. */
    v8f x = qw * bx + qx * bw + qy * bz - qz * by;
    v8f y = qw * by - qx * bz + qy * bw + qz * bx;
    v8f z = qw * bz + qx * by - qy * bx + qz * bw;
    v8f w = qw * bw - qx * bx - qy * by - qz * bz;
    v8f x2 = x + x, y2 = y + y, z2 = z + z;
    v8f xx = x * x2, yy = y * y2, zz = z * z2;
    v8f xy = x * y2, xz = x * z2, yz = y * z2;
    v8f xw = w * x2, yw = w * y2, zw = w * z2;
    v8f r0[4] = {1 - yy - zz, xy - zw, xz + yw, tx};
    v8f r1[4] = {xy + zw, 1 - xx - zz, yz - xw, ty};
    v8f r2[4] = {xz - yw, yz + xw, 1 - xx - yy, tz};
    if (!wide) {
        if (unit[0])
            palette_store_half(r0, r1, r2, 0, out, count < 4 ? count : 4);
        if (unit[1] && count > 4)
            palette_store_half(r0, r1, r2, 1, out + 48, count - 4);
        return;
    }
    /* Eight lanes: transposed within each half, lane j of a half is bone j (low), j + 4 (high). */
    v8_transpose(&r0[0], &r0[1], &r0[2], &r0[3]);
    v8_transpose(&r1[0], &r1[1], &r1[2], &r1[3]);
    v8_transpose(&r2[0], &r2[1], &r2[2], &r2[3]);
    if (count == 8 && unit[0] && unit[1]) {
        for (uint32_t j = 0; j < 4; j++) {
            float *lo = out + 12 * j, *hi = out + 12 * (j + 4);
            v4_store(lo, v8_half(&r0[j], 0));
            v4_store(lo + 4, v8_half(&r1[j], 0));
            v4_store(lo + 8, v8_half(&r2[j], 0));
            v4_store(hi, v8_half(&r0[j], 1));
            v4_store(hi + 4, v8_half(&r1[j], 1));
            v4_store(hi + 8, v8_half(&r2[j], 1));
        }
        return;
    }
    for (uint32_t k = 0; k < 8; k++) {
        uint32_t h = k / 4, j = k % 4;
        if (unit[h] && k < count) {
            float *o = out + 12 * (size_t)k;
            v4_store(o, v8_half(&r0[j], h));
            v4_store(o + 4, v8_half(&r1[j], h));
            v4_store(o + 8, v8_half(&r2[j], h));
        }
    }
}

static void palette_unit_sse2(const ossa_rt_skeleton *sk, const ossa_soa_pose *m, uint32_t i,
                              float *out, uint32_t count, const int unit[2])
{
    palette_unit_body(sk, m, i, out, count, unit, 0);
}

#ifdef OSSA_ANIM_HAVE_AVX2
OSSA_ANIM_AVX2 static void palette_unit_avx2(const ossa_rt_skeleton *sk, const ossa_soa_pose *m,
                                             uint32_t i, float *out, uint32_t count,
                                             const int unit[2])
{
    palette_unit_body(sk, m, i, out, count, unit, 1);
}
#endif

/* Whether bones i..i+3 (padding included) all have scale exactly 1. */
static int unit_four(const ossa_soa_pose *m, uint32_t i)
{
    v4i u = (v4_load(m->sx + i) == 1.0f) & (v4_load(m->sy + i) == 1.0f) &
            (v4_load(m->sz + i) == 1.0f);
    return u[0] & u[1] & u[2] & u[3];
}

static int palette_job_run_impl(const ossa_palette_job *job)
{
    if (!palette_job_validate_impl(job))
        return 0;
    const ossa_rt_skeleton *sk = job->skeleton;
    const ossa_soa_pose *m = job->model;
    uint32_t n = sk->bone_count;
    /* Eight bones at a time (the arrays hold capacity, a multiple of 8, entries); each group of
     * four with unit scales goes through palette_unit_*, any other bone through palette_bone. */
#ifdef OSSA_ANIM_HAVE_AVX2
    int wide = ossa_anim_has_avx2();
#endif
    for (uint32_t i = 0; i < n; i += 8) {
        uint32_t count = n - i < 8 ? n - i : 8;
        float *out = job->palette + 12 * (size_t)i;
        int unit[2] = {unit_four(m, i), count > 4 && unit_four(m, i + 4)};
        if (unit[0] || unit[1]) {
#ifdef OSSA_ANIM_HAVE_AVX2
            if (wide)
                palette_unit_avx2(sk, m, i, out, count, unit);
            else
#endif
                palette_unit_sse2(sk, m, i, out, count, unit);
        }
        if (unit[0] && unit[1])
            continue;
        for (uint32_t j = 0; j < count; j++)
            if (!unit[j / 4])
                palette_bone(sk, m, i + j, out + 12 * j);
    }
    return 1;
}

/* Why a pose does not fit the skeleton (NULL when it does), for the error messages. */
const char *ossa_rt_pose_misfit(const ossa_soa_pose *p, const ossa_rt_skeleton *sk, char *buf,
                               size_t size)
{
    if (!p)
        return "is NULL";
    if (!p->block)
        return "has no arrays (not created)";
    if (p->bone_count != sk->bone_count || p->capacity != sk->capacity) {
        snprintf(buf, size, "has %u bones (capacity %u), the skeleton %u (capacity %u)",
                 p->bone_count, p->capacity, sk->bone_count, sk->capacity);
        return buf;
    }
    return NULL;
}

static ossa_status palette_job_explain(const ossa_palette_job *job, ossa_error *err)
{
    char buf[160];
    const char *why;
    if (!job || !job->skeleton || !job->palette)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "palette job: %s is NULL",
                               !job ? "job" : !job->skeleton ? "skeleton" : "palette");
    if ((why = ossa_rt_pose_misfit(job->model, job->skeleton, buf, sizeof buf)))
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "palette job: model pose %s", why);
    return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                           "palette job: palette holds %zu floats, %u bones need %zu",
                           job->palette_floats, job->skeleton->bone_count,
                           12 * (size_t)job->skeleton->bone_count);
}

/* The public calls return a status; the implementations above keep their 1 / 0, and the error
 * record is only written on failure. */
ossa_status ossa_palette_job_validate(const ossa_palette_job *job, ossa_error *err)
{
    return palette_job_validate_impl(job) ? OSSA_OK : palette_job_explain(job, err);
}

ossa_status ossa_palette_job_run(const ossa_palette_job *job, ossa_error *err)
{
    return palette_job_run_impl(job) ? OSSA_OK : palette_job_explain(job, err);
}
