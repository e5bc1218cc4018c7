/* AVX2 + FMA kernels (built with -mavx2 -mfma; called only when the CPU has both).
 *
 * Skinning, 8 vertices at a time: each vertex blends its K palette rows with broadcast weights
 * (rows 0-1 as one 256-bit FMA, row 2 as one 128-bit FMA, contiguous loads, no gathers), the 8
 * blended 3x4 matrices are transposed into SoA registers, positions and normals are transformed
 * from the SoA streams, normals renormalised, and the result is transposed back to packed float3
 * and stored (non-temporal when the range asks for it). */
#include <immintrin.h>
#include <math.h>
#include "skin_internal.h"

#define AI static inline __attribute__((always_inline))

AI void transpose4(__m256 a0, __m256 a1, __m256 a2, __m256 a3, __m256 out[4])
{
    __m256 t0 = _mm256_unpacklo_ps(a0, a1), t1 = _mm256_unpackhi_ps(a0, a1);
    __m256 t2 = _mm256_unpacklo_ps(a2, a3), t3 = _mm256_unpackhi_ps(a2, a3);
    out[0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    out[1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    out[2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    out[3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

/* SoA x, y, z of 8 vertices (lanes [v0..3 | v4..7]) -> 24 packed floats. */
AI void store_aos8(float *dst, __m256 x, __m256 y, __m256 z, int stream)
{
    __m256 xy_lo = _mm256_unpacklo_ps(x, y), xy_hi = _mm256_unpackhi_ps(x, y);
    __m256 zx_lo = _mm256_unpacklo_ps(z, x), zx_hi = _mm256_unpackhi_ps(z, x);
    __m256 yz_lo = _mm256_unpacklo_ps(y, z), yz_hi = _mm256_unpackhi_ps(y, z);
    __m256 p0 = _mm256_shuffle_ps(xy_lo, zx_lo, _MM_SHUFFLE(3, 0, 1, 0));
    __m256 p1 = _mm256_shuffle_ps(yz_lo, xy_hi, _MM_SHUFFLE(1, 0, 3, 2));
    __m256 p2 = _mm256_shuffle_ps(zx_hi, yz_hi, _MM_SHUFFLE(3, 2, 3, 0));
    __m256 o0 = _mm256_permute2f128_ps(p0, p1, 0x20);
    __m256 o1 = _mm256_permute2f128_ps(p2, p0, 0x30);
    __m256 o2 = _mm256_permute2f128_ps(p1, p2, 0x31);
    if (stream) {
        _mm256_stream_ps(dst, o0);
        _mm256_stream_ps(dst + 8, o1);
        _mm256_stream_ps(dst + 16, o2);
    } else {
        _mm256_storeu_ps(dst, o0);
        _mm256_storeu_ps(dst + 8, o1);
        _mm256_storeu_ps(dst + 16, o2);
    }
}

/* 24 packed floats -> SoA x, y, z (lanes [v0..3 | v4..7]). */
AI void load_aos8(const float *src, __m256 *x, __m256 *y, __m256 *z)
{
    __m256 l0 = _mm256_loadu_ps(src), l1 = _mm256_loadu_ps(src + 8), l2 = _mm256_loadu_ps(src + 16);
    __m256 o0 = _mm256_permute2f128_ps(l0, l1, 0x30);
    __m256 o1 = _mm256_permute2f128_ps(l0, l2, 0x21);
    __m256 o2 = _mm256_permute2f128_ps(l1, l2, 0x30);
    __m256 a = _mm256_shuffle_ps(o0, o1, _MM_SHUFFLE(2, 0, 3, 0));
    __m256 c = _mm256_shuffle_ps(a, o2, _MM_SHUFFLE(0, 1, 0, 3));
    *x = _mm256_shuffle_ps(a, c, _MM_SHUFFLE(2, 0, 1, 0));
    __m256 d = _mm256_shuffle_ps(o0, o1, _MM_SHUFFLE(3, 0, 0, 1));
    __m256 f = _mm256_shuffle_ps(d, o2, _MM_SHUFFLE(0, 2, 0, 3));
    *y = _mm256_shuffle_ps(d, f, _MM_SHUFFLE(2, 0, 2, 0));
    __m256 g = _mm256_shuffle_ps(o0, o1, _MM_SHUFFLE(0, 1, 0, 2));
    *z = _mm256_shuffle_ps(g, o2, _MM_SHUFFLE(3, 0, 2, 0));
}

AI void normalize8(__m256 *x, __m256 *y, __m256 *z)
{
    __m256 len2 = _mm256_fmadd_ps(*x, *x, _mm256_fmadd_ps(*y, *y, _mm256_mul_ps(*z, *z)));
    __m256 one = _mm256_set1_ps(1.0f);
    __m256 inv = _mm256_div_ps(one, _mm256_sqrt_ps(len2));
    inv = _mm256_blendv_ps(one, inv, _mm256_cmp_ps(len2, _mm256_setzero_ps(), _CMP_GT_OQ));
    *x = _mm256_mul_ps(*x, inv);
    *y = _mm256_mul_ps(*y, inv);
    *z = _mm256_mul_ps(*z, inv);
}

/* 8 vertices at lanes [l, l + 8) of a block with K influences. */
AI void skin8(const float *rows, const float *w, const uint16_t *b, uint32_t k_count, uint32_t l,
              const float *pal, float *op, float *on, int stream)
{
    __m256 x = _mm256_load_ps(rows + l), y = _mm256_load_ps(rows + SKIN_B + l);
    __m256 z = _mm256_load_ps(rows + 2 * SKIN_B + l);
    __m256 nx = _mm256_load_ps(rows + 3 * SKIN_B + l), ny = _mm256_load_ps(rows + 4 * SKIN_B + l);
    __m256 nz = _mm256_load_ps(rows + 5 * SKIN_B + l);
    if (k_count == 0) {
        normalize8(&nx, &ny, &nz);
        store_aos8(op, x, y, z, stream);
        store_aos8(on, nx, ny, nz, stream);
        return;
    }
    __m256 a[8];
    __m128 c[8];
    for (uint32_t v = 0; v < 8; v++) {
        const float *m = pal + 12u * b[l + v];
        __m256 wv = _mm256_broadcast_ss(w + l + v);
        __m256 acc = _mm256_mul_ps(wv, _mm256_loadu_ps(m));
        __m128 acc2 = _mm_mul_ps(_mm256_castps256_ps128(wv), _mm_loadu_ps(m + 8));
        for (uint32_t k = 1; k < k_count; k++) {
            m = pal + 12u * b[k * SKIN_B + l + v];
            wv = _mm256_broadcast_ss(w + k * SKIN_B + l + v);
            acc = _mm256_fmadd_ps(wv, _mm256_loadu_ps(m), acc);
            acc2 = _mm_fmadd_ps(_mm256_castps256_ps128(wv), _mm_loadu_ps(m + 8), acc2);
        }
        a[v] = acc;
        c[v] = acc2;
    }
    __m256 lo[4], hi[4], r2[4];
    transpose4(a[0], a[1], a[2], a[3], lo);
    transpose4(a[4], a[5], a[6], a[7], hi);
    transpose4(_mm256_set_m128(c[4], c[0]), _mm256_set_m128(c[5], c[1]), _mm256_set_m128(c[6], c[2]),
               _mm256_set_m128(c[7], c[3]), r2);
    __m256 m00 = _mm256_permute2f128_ps(lo[0], hi[0], 0x20), m10 = _mm256_permute2f128_ps(lo[0], hi[0], 0x31);
    __m256 m01 = _mm256_permute2f128_ps(lo[1], hi[1], 0x20), m11 = _mm256_permute2f128_ps(lo[1], hi[1], 0x31);
    __m256 m02 = _mm256_permute2f128_ps(lo[2], hi[2], 0x20), m12 = _mm256_permute2f128_ps(lo[2], hi[2], 0x31);
    __m256 t0 = _mm256_permute2f128_ps(lo[3], hi[3], 0x20), t1 = _mm256_permute2f128_ps(lo[3], hi[3], 0x31);
    __m256 px = _mm256_fmadd_ps(m00, x, _mm256_fmadd_ps(m01, y, _mm256_fmadd_ps(m02, z, t0)));
    __m256 py = _mm256_fmadd_ps(m10, x, _mm256_fmadd_ps(m11, y, _mm256_fmadd_ps(m12, z, t1)));
    __m256 pz = _mm256_fmadd_ps(r2[0], x, _mm256_fmadd_ps(r2[1], y, _mm256_fmadd_ps(r2[2], z, r2[3])));
    __m256 qx = _mm256_fmadd_ps(m00, nx, _mm256_fmadd_ps(m01, ny, _mm256_mul_ps(m02, nz)));
    __m256 qy = _mm256_fmadd_ps(m10, nx, _mm256_fmadd_ps(m11, ny, _mm256_mul_ps(m12, nz)));
    __m256 qz = _mm256_fmadd_ps(r2[0], nx, _mm256_fmadd_ps(r2[1], ny, _mm256_mul_ps(r2[2], nz)));
    normalize8(&qx, &qy, &qz);
    store_aos8(op, px, py, pz, stream);
    store_aos8(on, qx, qy, qz, stream);
}

AI void run_k(const skin_range *r, uint32_t k_count, int stream)
{
    const skin_group_data *g = &r->mesh->groups[r->group];
    float scratch[SKIN_ROWS] __attribute__((aligned(64)));
    for (uint32_t o = r->lo; o < r->hi;) {
        uint32_t local = o - g->begin, blk = local / SKIN_B;
        uint32_t stop = g->begin + (blk + 1) * SKIN_B;
        if (stop > r->hi)
            stop = r->hi;
        const float *block = skin_block_ptr(g, blk);
        _mm_prefetch((const char *)block + 8 * (size_t)g->stride, _MM_HINT_T0);
        const float *rows = ossa_skin_block_rows(r, block, o / SKIN_B, scratch);
        const float *w = block + SKIN_ROWS;
        const uint16_t *b = (const uint16_t *)(const void *)(w + k_count * SKIN_B);
        while (o < stop) {
            uint32_t l = o % SKIN_B;
            float *op = r->out_pos + 3 * (size_t)o, *on = r->out_nrm + 3 * (size_t)o;
            if ((l & 7u) == 0 && o + 8 <= stop) {
                skin8(rows, w, b, k_count, l, r->palette, op, on, stream);
                o += 8;
            } else {
                ossa_skin_vertex_scalar(rows, w, b, k_count, l, r->palette, op, on);
                o++;
            }
        }
    }
    if (stream)
        _mm_sfence();
}

#define CASE_K(K) case K: if (r->stream) run_k(r, K, 1); else run_k(r, K, 0); break;

void ossa_skin_kernel_avx2(const skin_range *r)
{
    switch (r->mesh->groups[r->group].influences) {
    CASE_K(0) CASE_K(1) CASE_K(2) CASE_K(3) CASE_K(4) CASE_K(5) CASE_K(6) CASE_K(7) CASE_K(8)
    default: ossa_skin_kernel_scalar(r); break;
    }
}

void ossa_lerp_floats_avx2(const float *a, const float *b, float t, size_t n, float *out)
{
    __m256 tv = _mm256_set1_ps(t);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256 a0 = _mm256_loadu_ps(a + i), a1 = _mm256_loadu_ps(a + i + 8);
        __m256 b0 = _mm256_loadu_ps(b + i), b1 = _mm256_loadu_ps(b + i + 8);
        _mm256_storeu_ps(out + i, _mm256_fmadd_ps(tv, _mm256_sub_ps(b0, a0), a0));
        _mm256_storeu_ps(out + i + 8, _mm256_fmadd_ps(tv, _mm256_sub_ps(b1, a1), a1));
    }
    for (; i < n; i++)
        out[i] = a[i] + t * (b[i] - a[i]);
}

void ossa_normalize3_avx2(float *v, size_t count)
{
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256 x, y, z;
        load_aos8(v + 3 * i, &x, &y, &z);
        normalize8(&x, &y, &z);
        store_aos8(v + 3 * i, x, y, z, 0);
    }
    ossa_normalize3_scalar(v + 3 * i, count - i);
}
