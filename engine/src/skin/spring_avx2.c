/* Cal3D's spring relaxation on 8 or 16 characters at once (AVX2; built with the kernels' flags,
 * called only where the CPU has AVX2), and the transposes between the characters' packed
 * outputs and the 8-lane layout it runs on. */
#include <immintrin.h>
#include <math.h>
#include "skin_internal.h"

/* rows[l] = 8 floats of lane l -> cols[j] = element j of every lane (an 8x8 transpose). */
static inline void transpose8(const __m256 rows[8], __m256 cols[8])
{
    __m256 t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(rows[i], rows[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(rows[i], rows[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        u[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int i = 0; i < 4; i++) {
        cols[i] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x20);
        cols[i + 4] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x31);
    }
}

void ossa_spring_lanes8_in_avx2(const float *const *out, uint32_t n, size_t floats, float *soa)
{
    const float *src[8];
    for (uint32_t l = 0; l < 8; l++)
        src[l] = out[l < n ? l : 0];
    size_t f = 0;
    for (; f + 8 <= floats; f += 8) {
        __m256 rows[8], cols[8];
        for (int l = 0; l < 8; l++)
            rows[l] = _mm256_loadu_ps(src[l] + f);
        transpose8(rows, cols);
        for (int j = 0; j < 8; j++)
            _mm256_store_ps(soa + (f + (size_t)j) * 8, cols[j]);
    }
    for (; f < floats; f++)
        for (uint32_t l = 0; l < 8; l++)
            soa[f * 8 + l] = src[l][f];
}

void ossa_spring_lanes8_out_avx2(const float *soa, size_t floats, float *const *out, uint32_t n)
{
    size_t f = 0;
    for (; f + 8 <= floats; f += 8) {
        __m256 rows[8], cols[8];
        for (int j = 0; j < 8; j++)
            rows[j] = _mm256_load_ps(soa + (f + (size_t)j) * 8);
        transpose8(rows, cols);
        for (uint32_t l = 0; l < n; l++)
            _mm256_storeu_ps(out[l] + f, cols[l]);
    }
    for (; f < floats; f++)
        for (uint32_t l = 0; l < n; l++)
            out[l][f] = soa[f * 8 + l];
}

/* One step of spring sp on the 8 lanes of p: a lane whose spring skin_spring.c's spring_relax
 * would skip (length not above 0, length or factor not finite) keeps its positions; the movable
 * flags are the mesh's, so the same in every lane. The same operations in the same order as the
 * scalar loop (no FMA: the build has -ffp-contract=off). */
static inline __attribute__((always_inline)) void relax8_step(__m256 *p, const skin_spring_data *sp,
                                                              int movable0, int movable1)
{
    const __m256 zero = _mm256_setzero_ps(), two = _mm256_set1_ps(2.0f);
    const __m256 inf = _mm256_set1_ps(INFINITY);
    const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    __m256 *a = p + 3 * (size_t)sp->v0, *b = p + 3 * (size_t)sp->v1;
    __m256 d0 = _mm256_sub_ps(b[0], a[0]), d1 = _mm256_sub_ps(b[1], a[1]);
    __m256 d2 = _mm256_sub_ps(b[2], a[2]);
    __m256 len = _mm256_sqrt_ps(_mm256_add_ps(
        _mm256_add_ps(_mm256_mul_ps(d0, d0), _mm256_mul_ps(d1, d1)), _mm256_mul_ps(d2, d2)));
    __m256 f0 = _mm256_div_ps(_mm256_sub_ps(len, _mm256_set1_ps(sp->idle)), len), f1 = f0;
    /* a length of Inf makes the factor NaN: a finite factor is a finite length */
    __m256 ok = _mm256_and_ps(_mm256_cmp_ps(len, zero, _CMP_GT_OQ),
                              _mm256_cmp_ps(_mm256_and_ps(f0, abs_mask), inf, _CMP_LT_OQ));
    int lanes = _mm256_movemask_ps(ok);
    if (lanes == 0)
        return;
    if (movable0) {
        f0 = _mm256_div_ps(f0, two);
        f1 = _mm256_div_ps(f1, two);
    } else {
        f0 = zero;
    }
    if (!movable1) {
        f0 = _mm256_mul_ps(f0, two);
        f1 = zero;
    }
    __m256 a0 = _mm256_add_ps(a[0], _mm256_mul_ps(d0, f0));
    __m256 b0 = _mm256_sub_ps(b[0], _mm256_mul_ps(d0, f1));
    __m256 a1 = _mm256_add_ps(a[1], _mm256_mul_ps(d1, f0));
    __m256 b1 = _mm256_sub_ps(b[1], _mm256_mul_ps(d1, f1));
    __m256 a2 = _mm256_add_ps(a[2], _mm256_mul_ps(d2, f0));
    __m256 b2 = _mm256_sub_ps(b[2], _mm256_mul_ps(d2, f1));
    if (lanes != 0xff) { /* some lane skips this spring: it keeps its positions */
        a0 = _mm256_blendv_ps(a[0], a0, ok);
        b0 = _mm256_blendv_ps(b[0], b0, ok);
        a1 = _mm256_blendv_ps(a[1], a1, ok);
        b1 = _mm256_blendv_ps(b[1], b1, ok);
        a2 = _mm256_blendv_ps(a[2], a2, ok);
        b2 = _mm256_blendv_ps(b[2], b2, ok);
    }
    a[0] = a0;
    b[0] = b0;
    a[1] = a1;
    b[1] = b1;
    a[2] = a2;
    b[2] = b2;
}

void ossa_spring_relax8_avx2(const struct ossa_skin_mesh *m, float *soa)
{
    __m256 *p = (__m256 *)(void *)soa;
    for (size_t i = 0; i < m->step_count; i++) {
        const skin_spring_data *sp = &m->steps[i];
        relax8_step(p, sp, m->movable[sp->v0], m->movable[sp->v1]);
    }
}

/* Two groups of 8 lanes, one step of each in turn: two independent chains of divisions that
 * overlap in the core. */
void ossa_spring_relax8x2_avx2(const struct ossa_skin_mesh *m, float *soa, float *soa2)
{
    __m256 *p = (__m256 *)(void *)soa, *q = (__m256 *)(void *)soa2;
    for (size_t i = 0; i < m->step_count; i++) {
        const skin_spring_data *sp = &m->steps[i];
        int movable0 = m->movable[sp->v0], movable1 = m->movable[sp->v1];
        relax8_step(p, sp, movable0, movable1);
        relax8_step(q, sp, movable0, movable1);
    }
}
