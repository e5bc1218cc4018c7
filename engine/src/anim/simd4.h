/* Four-lane float vectors for the runtime jobs (rt_clip.c, pose_jobs.c). */
#ifndef OSSA_ANIM_SIMD4_H
#define OSSA_ANIM_SIMD4_H

#include <stdint.h>
#include <string.h>

/* Four lanes of floats (SSE2 on x86-64, plain vectors elsewhere): GNU C vector extensions,
 * element-wise IEEE operations, so each lane computes exactly what the scalar code does. */
typedef float v4f __attribute__((vector_size(16)));

/* Two-vector shuffle with constant lane indices (index_type: the matching integer vector). GCC
 * spells it __builtin_shuffle with an index vector, clang __builtin_shufflevector with the
 * indices as arguments. */
#if defined(__clang__)
#define OSSA_SHUFFLE2(index_type, a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
#define OSSA_SHUFFLE2(index_type, a, b, ...) __builtin_shuffle(a, b, (index_type){__VA_ARGS__})
#endif
typedef int32_t v4i __attribute__((vector_size(16)));

static inline v4f v4_load(const float *p)
{
    v4f v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void v4_store(float *p, v4f v)
{
    memcpy(p, &v, sizeof v);
}

static inline v4f v4_splat(float x)
{
    return (v4f){x, x, x, x};
}

/* mask ? a : b, mask lanes all ones or all zeros. */
static inline v4f v4_select(v4i mask, v4f a, v4f b)
{
    return (v4f)((mask & (v4i)a) | (~mask & (v4i)b));
}

/* Rows r0..r3 become columns. */
static inline void v4_transpose(v4f *r0, v4f *r1, v4f *r2, v4f *r3)
{
    v4f t0 = OSSA_SHUFFLE2(v4i, *r0, *r1, 0, 4, 1, 5);
    v4f t1 = OSSA_SHUFFLE2(v4i, *r2, *r3, 0, 4, 1, 5);
    v4f t2 = OSSA_SHUFFLE2(v4i, *r0, *r1, 2, 6, 3, 7);
    v4f t3 = OSSA_SHUFFLE2(v4i, *r2, *r3, 2, 6, 3, 7);
    *r0 = OSSA_SHUFFLE2(v4i, t0, t1, 0, 1, 4, 5);
    *r1 = OSSA_SHUFFLE2(v4i, t0, t1, 2, 3, 6, 7);
    *r2 = OSSA_SHUFFLE2(v4i, t2, t3, 0, 1, 4, 5);
    *r3 = OSSA_SHUFFLE2(v4i, t2, t3, 2, 3, 6, 7);
}

#endif
