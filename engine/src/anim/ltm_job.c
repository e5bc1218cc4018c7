/* The local-to-model job over SoA poses: the composition of reference_pose.c's
 * ossa_local_to_model with the same operations in the same order, so the same bits. */
#include <string.h>
#include "core/error.h"
#include "rt_internal.h"
#include "simd4.h"

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

/* Local to model in three passes over the SoA arrays, so that only the chains (a bone needs
 * its parent) run bone by bone and everything else runs four bones at a time:
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

