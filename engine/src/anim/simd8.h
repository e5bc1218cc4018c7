/* Eight-lane float vectors for the AVX2 variants of the runtime jobs (rt_clip.c, pose_jobs.c).
 * Functions using them carry OSSA_ANIM_AVX2 and are called only when the CPU has AVX2
 * (ossa_anim_has_avx2). The operations are element-wise IEEE ones, and the project builds with
 * -ffp-contract=off, so a lane computes exactly what the four-lane and scalar code computes. */
#ifndef OSSA_ANIM_SIMD8_H
#define OSSA_ANIM_SIMD8_H

#include <stdint.h>
#include <string.h>
#include "simd4.h"

/* Eight lanes as GNU C vectors exist everywhere (without AVX2 the compiler runs them as two
 * four-lane halves); the AVX2 variants and their target attribute only on x86. */
typedef float v8f __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

/* Loads and halves without a target attribute, for code shared by both widths (through
 * pointers: a v8f passed by value would change the calling convention without AVX). */
static inline void v8_load_any(v8f *v, const float *p)
{
    memcpy(v, p, sizeof *v);
}

/* Lanes 0-3 (half 0) or 4-7 (half 1). */
static inline v4f v8_half(const v8f *v, uint32_t half)
{
    v4f h;
    memcpy(&h, (const char *)v + 16 * half, sizeof h);
    return h;
}

/* v4_transpose within each 128-bit half (no target attribute: shared by both widths; through
 * pointers, as above). */
static inline void v8_transpose(v8f *r0, v8f *r1, v8f *r2, v8f *r3)
{
    v8f t0 = OSSA_SHUFFLE2(v8i, *r0, *r1, 0, 8, 1, 9, 4, 12, 5, 13);
    v8f t1 = OSSA_SHUFFLE2(v8i, *r2, *r3, 0, 8, 1, 9, 4, 12, 5, 13);
    v8f t2 = OSSA_SHUFFLE2(v8i, *r0, *r1, 2, 10, 3, 11, 6, 14, 7, 15);
    v8f t3 = OSSA_SHUFFLE2(v8i, *r2, *r3, 2, 10, 3, 11, 6, 14, 7, 15);
    *r0 = OSSA_SHUFFLE2(v8i, t0, t1, 0, 1, 8, 9, 4, 5, 12, 13);
    *r1 = OSSA_SHUFFLE2(v8i, t0, t1, 2, 3, 10, 11, 6, 7, 14, 15);
    *r2 = OSSA_SHUFFLE2(v8i, t2, t3, 0, 1, 8, 9, 4, 5, 12, 13);
    *r3 = OSSA_SHUFFLE2(v8i, t2, t3, 2, 3, 10, 11, 6, 7, 14, 15);
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define OSSA_ANIM_HAVE_AVX2 1
#define OSSA_ANIM_AVX2 __attribute__((target("avx2")))

static inline int ossa_anim_has_avx2(void)
{
    return __builtin_cpu_supports("avx2") != 0;
}

OSSA_ANIM_AVX2 static inline v8f v8_load(const float *p)
{
    v8f v;
    memcpy(&v, p, sizeof v);
    return v;
}

OSSA_ANIM_AVX2 static inline void v8_store(float *p, v8f v)
{
    memcpy(p, &v, sizeof v);
}

/* Lanes 0-3 from lo, 4-7 from hi. */
OSSA_ANIM_AVX2 static inline v8f v8_load2(const float *lo, const float *hi)
{
    v8f v;
    memcpy(&v, lo, 16);
    memcpy((char *)&v + 16, hi, 16);
    return v;
}

OSSA_ANIM_AVX2 static inline v8f v8_select(v8i mask, v8f a, v8f b)
{
    return (v8f)((mask & (v8i)a) | (~mask & (v8i)b));
}

#endif

#endif
