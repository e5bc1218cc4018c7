/* The local-to-model job over SoA poses: the composition of reference_pose.c's
 * ossa_local_to_model with the same operations in the same order, so the same bits. */
#include <string.h>
#include "core/error.h"
#include "rt_internal.h"
#include "simd4.h"
#include "simd8.h"

static int ltm_job_validate_impl(const ossa_ltm_job *job)
{
    return job && job->skeleton && ossa_rt_pose_fits(job->local, job->skeleton) &&
           ossa_rt_pose_fits(job->model, job->skeleton) && job->local->block != job->model->block;
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

/* The quaternion product p l of glm_quat_mul (ossa_local_to_model's) with each quaternion in
 * one vector (x, y, z, w): every lane sums its four products in glm's order, and l's terms are
 * shuffled with their signs in place (x * -y is -(x * y), a + -b is a - b: the same bits). */
static inline __attribute__((always_inline)) v4f quat_mul_lanes(v4f p, v4f l)
{
    const v4i sign = {(int32_t)0x80000000u, (int32_t)0x80000000u, (int32_t)0x80000000u,
                      (int32_t)0x80000000u};
    v4f l1 = (v4f)((v4i)OSSA_SHUFFLE2(v4i, l, l, 3, 2, 1, 0) ^ (sign & (v4i){0, -1, 0, -1}));
    v4f l2 = (v4f)((v4i)OSSA_SHUFFLE2(v4i, l, l, 2, 3, 0, 1) ^ (sign & (v4i){0, 0, -1, -1}));
    v4f l3 = (v4f)((v4i)OSSA_SHUFFLE2(v4i, l, l, 1, 0, 3, 2) ^ (sign & (v4i){-1, 0, 0, -1}));
    v4f pw = OSSA_SHUFFLE2(v4i, p, p, 3, 3, 3, 3), px = OSSA_SHUFFLE2(v4i, p, p, 0, 0, 0, 0);
    v4f py = OSSA_SHUFFLE2(v4i, p, p, 1, 1, 1, 1), pz = OSSA_SHUFFLE2(v4i, p, p, 2, 2, 2, 2);
    return ((pw * l + px * l1) + py * l2) + pz * l3;
}

/* Recent bones' model rotations and translations, one vector each, indexed by bone modulo
 * LTM_RING: a parent up to LTM_RING - 1 bones back is one load; further back, it is read from
 * the model pose (already stored: blocks are stored as they finish). */
enum { LTM_RING = 64 };

/* A bone's parent's model rotation and translation. */
static inline __attribute__((always_inline)) void ltm_parent(const ossa_soa_pose *m, const v4f *ring_q, const v4f *ring_t,
                              uint32_t bone, uint32_t p, v4f *q, v4f *t)
{
    if (bone - p < LTM_RING) {
        *q = ring_q[p % LTM_RING];
        *t = ring_t[p % LTM_RING];
    } else {
        *q = (v4f){m->qx[p], m->qy[p], m->qz[p], m->qw[p]};
        *t = (v4f){m->tx[p], m->ty[p], m->tz[p], 0.0f};
    }
}

/* Local to model for unit scales in one pass, four bones a block: the rotations bone by bone
 * (the chain) with each quaternion in one vector, the local translations rotated by the
 * parents' rotations four bones at once, then the parents' translations added bone by bone.
 * The same operations as the three passes below, so the same bits, in a quarter fewer
 * instructions and without reading the model pose back. A parent right before its child stays
 * in registers (through the ring it would wait on a store). Model rotations are written for
 * bones below n only; translations up to the block's end, as the passes below do. Written once,
 * run under AVX2's target where the CPU has it (three-operand forms, fewer copies). */
static inline __attribute__((always_inline)) void ltm_unit_body(
    const int32_t *parent, uint32_t n, const ossa_soa_pose *l, ossa_soa_pose *m)
{
    v4f ring_q[LTM_RING], ring_t[LTM_RING];
    v4f prev_q = {0.0f, 0.0f, 0.0f, 1.0f}, prev_t = {0.0f, 0.0f, 0.0f, 0.0f};
    for (uint32_t i = 0; i < n; i += 4) {
        v4f lq[4] = {v4_load(l->qx + i), v4_load(l->qy + i), v4_load(l->qz + i),
                     v4_load(l->qw + i)};
        v4_transpose(&lq[0], &lq[1], &lq[2], &lq[3]);
        v4f pq[4], pt[4], mq[4];
        v4i root = {0, 0, 0, 0};
        for (uint32_t j = 0; j < 4; j++) {
            uint32_t b = i + j;
            int32_t p = parent[b];
            if (p < 0) {
                root[j] = -1;
                pq[j] = (v4f){0.0f, 0.0f, 0.0f, 1.0f};
                pt[j] = (v4f){0.0f, 0.0f, 0.0f, 0.0f};
                mq[j] = lq[j];
            } else {
                pt[j] = v4_splat(0.0f); /* a parent in this block: added once known, below */
                if ((uint32_t)p == b - 1)
                    pq[j] = prev_q;
                else
                    ltm_parent(m, ring_q, ring_t, b, (uint32_t)p, &pq[j], &pt[j]);
                mq[j] = quat_mul_lanes(pq[j], lq[j]);
            }
            ring_q[b % LTM_RING] = prev_q = mq[j];
        }
        /* Pass 2's rotate() on four lanes, parents' rotations transposed to one vector per
         * component; roots keep their local translation. */
        v4f qx = pq[0], qy = pq[1], qz = pq[2], qw = pq[3];
        v4_transpose(&qx, &qy, &qz, &qw);
        v4f vx = v4_load(l->tx + i), vy = v4_load(l->ty + i), vz = v4_load(l->tz + i);
        v4f uv2 = 2.0f * (qx * vx + qy * vy + qz * vz);
        v4f ss = qw * qw - (qx * qx + qy * qy + qz * qz);
        v4f w2 = 2.0f * qw;
        v4f cx = qy * vz - qz * vy, cy = qz * vx - qx * vz, cz = qx * vy - qy * vx;
        v4f mt[4] = {v4_select(root, vx, uv2 * qx + ss * vx + w2 * cx),
                     v4_select(root, vy, uv2 * qy + ss * vy + w2 * cy),
                     v4_select(root, vz, uv2 * qz + ss * vz + w2 * cz), v4_splat(0.0f)};
        v4_transpose(&mt[0], &mt[1], &mt[2], &mt[3]);
        for (uint32_t j = 0; j < 4; j++) {
            uint32_t b = i + j;
            int32_t p = parent[b];
            if (p >= 0) {
                /* The parent's translation: a parent before this block was read above. */
                v4f t = pt[j];
                if ((uint32_t)p == b - 1)
                    t = prev_t;
                else if ((uint32_t)p >= i)
                    t = ring_t[(uint32_t)p % LTM_RING];
                mt[j] = mt[j] + t;
            }
            ring_t[b % LTM_RING] = prev_t = mt[j];
        }
        v4_transpose(&mq[0], &mq[1], &mq[2], &mq[3]);
        v4_transpose(&mt[0], &mt[1], &mt[2], &mt[3]);
        if (n - i < 4) {
            /* The last block: padding bones keep their model rotation. */
            v4i live = (v4i){0, 1, 2, 3} < (int32_t)(n - i);
            mq[0] = v4_select(live, mq[0], v4_load(m->qx + i));
            mq[1] = v4_select(live, mq[1], v4_load(m->qy + i));
            mq[2] = v4_select(live, mq[2], v4_load(m->qz + i));
            mq[3] = v4_select(live, mq[3], v4_load(m->qw + i));
        }
        v4_store(m->qx + i, mq[0]); v4_store(m->qy + i, mq[1]);
        v4_store(m->qz + i, mq[2]); v4_store(m->qw + i, mq[3]);
        v4_store(m->tx + i, mt[0]); v4_store(m->ty + i, mt[1]); v4_store(m->tz + i, mt[2]);
    }
}

static void ltm_unit_sse2(const int32_t *parent, uint32_t n, const ossa_soa_pose *l,
                          ossa_soa_pose *m)
{
    ltm_unit_body(parent, n, l, m);
}

#ifdef OSSA_ANIM_HAVE_AVX2
OSSA_ANIM_AVX2 static void ltm_unit_avx2(const int32_t *parent, uint32_t n,
                                         const ossa_soa_pose *l, ossa_soa_pose *m)
{
    ltm_unit_body(parent, n, l, m);
}
#endif

/* Local to model (scales other than 1; ltm_unit_body above otherwise) in three passes over
 * the SoA arrays, so that only the chains (a bone needs its parent) run bone by bone and
 * everything else runs four bones at a time:
 *   1. model rotations (and scales), bone by bone: the quaternion product;
 *   2. each bone's local translation (times its parent's scale) rotated by its parent's model
 *      rotation, four bones at once, stored in the model translations;
 *   3. the parent's model translation added, bone by bone.
 * Every value is computed with the operations of reference_pose.c's scalar code in its order (no
 * fusing), so the results are the same bits as a bone-by-bone loop. */
static int ltm_job_run_impl(const ossa_ltm_job *job)
{
    if (!ltm_job_validate_impl(job))
        return 0;
    const ossa_rt_skeleton *sk = job->skeleton;
    const ossa_soa_pose *l = job->local;
    ossa_soa_pose *m = job->model;
    const int32_t *parent = sk->parent;
    uint32_t n = sk->bone_count;
    /* Every scale 1: the products with scales are skipped (x * 1 = x: the same bits) and the
     * model scales are the local ones. */
    int unit = unit_scales(l);
    if (unit) {
        size_t bytes = (size_t)m->capacity * sizeof(float);
        memcpy(m->sx, l->sx, bytes);
        memcpy(m->sy, l->sy, bytes);
        memcpy(m->sz, l->sz, bytes);
#ifdef OSSA_ANIM_HAVE_AVX2
        if (ossa_anim_has_avx2())
            ltm_unit_avx2(parent, n, l, m);
        else
#endif
            ltm_unit_sse2(parent, n, l, m);
        return 1;
    }
    /* The previous bone's rotation stays in registers: a child right after its parent (a
     * chain) does not wait for the store and the load. */
    float ax = 0.0f, ay = 0.0f, az = 0.0f, aw = 1.0f;
    for (uint32_t i = 0; i < n; i++) {
        int32_t p = parent[i];
        float lx = l->qx[i], ly = l->qy[i], lz = l->qz[i], lw = l->qw[i];
        if (p < 0) {
            m->qx[i] = ax = lx; m->qy[i] = ay = ly; m->qz[i] = az = lz; m->qw[i] = aw = lw;
            if (!unit) {
                m->sx[i] = l->sx[i]; m->sy[i] = l->sy[i]; m->sz[i] = l->sz[i];
            }
            continue;
        }
        float px = ax, py = ay, pz = az, pw = aw;
        if ((uint32_t)p != i - 1) {
            px = m->qx[p]; py = m->qy[p]; pz = m->qz[p]; pw = m->qw[p];
        }
        /* The order of ossa_local_to_model's glm_quat_mul: the rounding stays the same down a
         * long chain of bones. */
        m->qx[i] = ax = pw * lx + px * lw + py * lz - pz * ly;
        m->qy[i] = ay = pw * ly - px * lz + py * lw + pz * lx;
        m->qz[i] = az = pw * lz + px * ly - py * lx + pz * lw;
        m->qw[i] = aw = pw * lw - px * lx - py * ly - pz * lz;
        if (!unit) {
            m->sx[i] = m->sx[p] * l->sx[i];
            m->sy[i] = m->sy[p] * l->sy[i];
            m->sz[i] = m->sz[p] * l->sz[i];
        }
    }
    /* The arrays hold capacity (a multiple of 8) entries and padding bones are roots. */
    for (uint32_t i = 0; i < n; i += 4) {
        v4i pv = {parent[i], parent[i + 1], parent[i + 2], parent[i + 3]};
        v4i root = pv < 0;
        /* Roots rotate by identity (lane discarded below). */
        uint32_t pi[4];
        for (int j = 0; j < 4; j++)
            pi[j] = pv[j] < 0 ? i + (uint32_t)j : (uint32_t)pv[j];
        v4f qx = {m->qx[pi[0]], m->qx[pi[1]], m->qx[pi[2]], m->qx[pi[3]]};
        v4f qy = {m->qy[pi[0]], m->qy[pi[1]], m->qy[pi[2]], m->qy[pi[3]]};
        v4f qz = {m->qz[pi[0]], m->qz[pi[1]], m->qz[pi[2]], m->qz[pi[3]]};
        v4f qw = {m->qw[pi[0]], m->qw[pi[1]], m->qw[pi[2]], m->qw[pi[3]]};
        v4f lx = v4_load(l->tx + i), ly = v4_load(l->ty + i), lz = v4_load(l->tz + i);
        v4f vx = lx, vy = ly, vz = lz;
        if (!unit) {
            vx = vx * (v4f){m->sx[pi[0]], m->sx[pi[1]], m->sx[pi[2]], m->sx[pi[3]]};
            vy = vy * (v4f){m->sy[pi[0]], m->sy[pi[1]], m->sy[pi[2]], m->sy[pi[3]]};
            vz = vz * (v4f){m->sz[pi[0]], m->sz[pi[1]], m->sz[pi[2]], m->sz[pi[3]]};
        }
        /* rotate() on four lanes. */
        v4f uv2 = 2.0f * (qx * vx + qy * vy + qz * vz);
        v4f ss = qw * qw - (qx * qx + qy * qy + qz * qz);
        v4f w2 = 2.0f * qw;
        v4f cx = qy * vz - qz * vy, cy = qz * vx - qx * vz, cz = qx * vy - qy * vx;
        v4_store(m->tx + i, v4_select(root, lx, (uv2 * qx + ss * vx + w2 * cx)));
        v4_store(m->ty + i, v4_select(root, ly, (uv2 * qy + ss * vy + w2 * cy)));
        v4_store(m->tz + i, v4_select(root, lz, (uv2 * qz + ss * vz + w2 * cz)));
    }
    float tx = 0.0f, ty = 0.0f, tz = 0.0f;
    for (uint32_t i = 0; i < n; i++) {
        int32_t p = parent[i];
        if (p < 0) {
            tx = m->tx[i]; ty = m->ty[i]; tz = m->tz[i];
            continue;
        }
        float ptx = tx, pty = ty, ptz = tz;
        if ((uint32_t)p != i - 1) {
            ptx = m->tx[p]; pty = m->ty[p]; ptz = m->tz[p];
        }
        m->tx[i] = tx = m->tx[i] + ptx;
        m->ty[i] = ty = m->ty[i] + pty;
        m->tz[i] = tz = m->tz[i] + ptz;
    }
    return 1;
}

/* The first reason a job is invalid, into err; called only when the quick check failed. */
static ossa_status ltm_job_explain(const ossa_ltm_job *job, ossa_error *err)
{
    char buf[160];
    const char *why;
    if (!job || !job->skeleton)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "ltm job: %s is NULL",
                               job ? "skeleton" : "job");
    if ((why = ossa_rt_pose_misfit(job->local, job->skeleton, buf, sizeof buf)))
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "ltm job: local pose %s", why);
    if ((why = ossa_rt_pose_misfit(job->model, job->skeleton, buf, sizeof buf)))
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "ltm job: model pose %s", why);
    return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                           "ltm job: model pose aliases the local pose");
}

/* The public calls return a status; the implementation above keeps its 1 / 0, and the error
 * record is only written on failure. */
ossa_status ossa_ltm_job_validate(const ossa_ltm_job *job, ossa_error *err)
{
    return ltm_job_validate_impl(job) ? OSSA_OK : ltm_job_explain(job, err);
}

ossa_status ossa_ltm_job_run(const ossa_ltm_job *job, ossa_error *err)
{
    return ltm_job_run_impl(job) ? OSSA_OK : ltm_job_explain(job, err);
}

