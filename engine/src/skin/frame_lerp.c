/* Vertex-frame playback (C3S-style): lerp between two frames of packed float3, dispatched like
 * the skin kernels (the scalar forms are in skin_kernel_scalar.c). */
#include <math.h>
#include "skin_internal.h"

ossa_status ossa_frame_lerp_job_validate(const ossa_frame_lerp_job *job, ossa_error *err)
{
    const ossa_status bad = OSSA_ERR_INVALID_ARGUMENT;
    if (!job || !job->positions_a || !job->positions_b || !job->out_positions)
        return ossa_error_fail(err, bad, "frame lerp job: %s is NULL",
                               !job ? "job" : !job->positions_a ? "positions_a"
                               : !job->positions_b ? "positions_b" : "out_positions");
    if (!isfinite(job->t))
        return ossa_error_fail(err, bad, "frame lerp job: t is not finite");
    int normals = job->normals_a || job->normals_b;
    if (normals && (!job->normals_a || !job->normals_b || !job->out_normals))
        return ossa_error_fail(err, bad, "frame lerp job: %s is NULL while normals are given",
                               !job->normals_a ? "normals_a" : !job->normals_b ? "normals_b"
                               : "out_normals");
    if ((unsigned)job->kernel >= OSSA_SKIN_KERNEL_COUNT)
        return ossa_error_fail(err, bad, "frame lerp job: kernel %u is not an ossa_skin_kernel",
                               (unsigned)job->kernel);
    if (!ossa_skin_kernel_available(job->kernel))
        return ossa_error_fail(err, OSSA_ERR_UNSUPPORTED,
                               "frame lerp job: kernel %s is not available on this CPU",
                               ossa_skin_kernel_name(job->kernel));
    if (job->out_capacity < job->count)
        return ossa_error_fail(err, bad,
                               "frame lerp job: outputs hold %u vertices (out_capacity), count "
                               "is %u", job->out_capacity, job->count);
    return OSSA_OK;
}

ossa_status ossa_frame_lerp_job_run(const ossa_frame_lerp_job *job, ossa_error *err)
{
    ossa_status st = ossa_frame_lerp_job_validate(job, err);
    if (st != OSSA_OK)
        return st;
    int normals = job->normals_a || job->normals_b;
    ossa_skin_kernel k = job->kernel == OSSA_SKIN_KERNEL_AUTO
                             ? ossa_skin_kernel_best() : job->kernel;
    void (*lerp)(const float *, const float *, float, size_t, float *) = ossa_lerp_floats_scalar;
    void (*norm)(float *, size_t) = ossa_normalize3_scalar;
    switch (k) {
#ifdef OSSA_SKIN_SSE2
    case OSSA_SKIN_KERNEL_SSE2: lerp = ossa_lerp_floats_sse2; norm = ossa_normalize3_sse2; break;
#endif
#ifdef OSSA_SKIN_X86
    case OSSA_SKIN_KERNEL_AVX2: lerp = ossa_lerp_floats_avx2; norm = ossa_normalize3_avx2; break;
    case OSSA_SKIN_KERNEL_AVX512: lerp = ossa_lerp_floats_avx512; norm = ossa_normalize3_avx2; break;
#endif
    default: break;
    }
    size_t n = 3 * (size_t)job->count;
    lerp(job->positions_a, job->positions_b, job->t, n, job->out_positions);
    if (normals) {
        lerp(job->normals_a, job->normals_b, job->t, n, job->out_normals);
        if (job->normalize)
            norm(job->out_normals, job->count);
    }
    return OSSA_OK;
}
