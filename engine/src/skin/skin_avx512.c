/* AVX-512F kernels (built with -mavx512f -mavx512vl -mfma; called only when the CPU has them).
 * 16 vertices per step: each vertex blends its palette matrices as one masked 12-float load and
 * one FMA per influence, the 16 blended matrices are transposed to SoA (16x16 shuffle network),
 * transformed and stored as packed float3 with two-source permutes. */
#include <immintrin.h>
#include <math.h>
#include "skin_internal.h"

#define AI static inline __attribute__((always_inline))

/* Permute indices from SoA x, y, z to packed float3: 3 output vectors of 16 floats. */
typedef struct aos_index {
    __m512i xy[3], z[3];
} aos_index;

AI void aos_index_init(aos_index *ix)
{
    for (int k = 0; k < 3; k++) {
        int32_t a[16], c[16];
        for (int i = 0; i < 16; i++) {
            int g = 16 * k + i, v = g / 3, comp = g % 3;
            a[i] = comp == 0 ? v : comp == 1 ? 16 + v : 0;
            c[i] = comp == 2 ? 16 + v : i;
        }
        ix->xy[k] = _mm512_loadu_si512(a);
        ix->z[k] = _mm512_loadu_si512(c);
    }
}

AI void store_aos16(float *dst, __m512 x, __m512 y, __m512 z, const aos_index *ix, int stream)
{
    for (int k = 0; k < 3; k++) {
        __m512 t = _mm512_permutex2var_ps(x, ix->xy[k], y);
        __m512 o = _mm512_permutex2var_ps(t, ix->z[k], z);
        if (stream)
            _mm512_stream_ps(dst + 16 * k, o);
        else
            _mm512_storeu_ps(dst + 16 * k, o);
    }
}

AI void normalize16(__m512 *x, __m512 *y, __m512 *z)
{
    __m512 len2 = _mm512_fmadd_ps(*x, *x, _mm512_fmadd_ps(*y, *y, _mm512_mul_ps(*z, *z)));
    __m512 one = _mm512_set1_ps(1.0f);
    __mmask16 pos = _mm512_cmp_ps_mask(len2, _mm512_setzero_ps(), _CMP_GT_OQ);
    __m512 inv = _mm512_mask_div_ps(one, pos, one, _mm512_sqrt_ps(len2));
    *x = _mm512_mul_ps(*x, inv);
    *y = _mm512_mul_ps(*y, inv);
    *z = _mm512_mul_ps(*z, inv);
}

/* r[v] holds the 12 matrix floats of vertex v; out[e] = element e of all 16 vertices, e < 12. */
AI void transpose16x12(const __m512 r[16], __m512 out[12])
{
    __m512 t[16], u[16];
    for (int i = 0; i < 8; i++) {
        t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int j = 0; j < 4; j++) {
        __m512d a = _mm512_castps_pd(t[4 * j]), b = _mm512_castps_pd(t[4 * j + 2]);
        __m512d c = _mm512_castps_pd(t[4 * j + 1]), d = _mm512_castps_pd(t[4 * j + 3]);
        u[4 * j] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, b));
        u[4 * j + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, b));
        u[4 * j + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(c, d));
        u[4 * j + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(c, d));
    }
    for (int q = 0; q < 4; q++) {
        __m512 va = _mm512_shuffle_f32x4(u[q], u[4 + q], _MM_SHUFFLE(2, 0, 2, 0));
        __m512 vb = _mm512_shuffle_f32x4(u[q], u[4 + q], _MM_SHUFFLE(3, 1, 3, 1));
        __m512 wa = _mm512_shuffle_f32x4(u[8 + q], u[12 + q], _MM_SHUFFLE(2, 0, 2, 0));
        __m512 wb = _mm512_shuffle_f32x4(u[8 + q], u[12 + q], _MM_SHUFFLE(3, 1, 3, 1));
        out[q] = _mm512_shuffle_f32x4(va, wa, _MM_SHUFFLE(2, 0, 2, 0));
        out[8 + q] = _mm512_shuffle_f32x4(va, wa, _MM_SHUFFLE(3, 1, 3, 1));
        out[4 + q] = _mm512_shuffle_f32x4(vb, wb, _MM_SHUFFLE(2, 0, 2, 0));
    }
}

AI void skin16(const float *rows, const float *w, const uint16_t *b, uint32_t k_count,
               const float *pal, float *op, float *on, const aos_index *ix, int stream)
{
    __m512 x = _mm512_load_ps(rows), y = _mm512_load_ps(rows + SKIN_B);
    __m512 z = _mm512_load_ps(rows + 2 * SKIN_B);
    __m512 nx = _mm512_load_ps(rows + 3 * SKIN_B), ny = _mm512_load_ps(rows + 4 * SKIN_B);
    __m512 nz = _mm512_load_ps(rows + 5 * SKIN_B);
    if (k_count == 0) {
        normalize16(&nx, &ny, &nz);
        store_aos16(op, x, y, z, ix, stream);
        store_aos16(on, nx, ny, nz, ix, stream);
        return;
    }
    __m512 r[16], m[12];
    for (uint32_t v = 0; v < 16; v++) {
        __m512 acc = _mm512_mul_ps(_mm512_set1_ps(w[v]),
                                   _mm512_maskz_loadu_ps(0x0fff, pal + 12u * b[v]));
        for (uint32_t k = 1; k < k_count; k++)
            acc = _mm512_fmadd_ps(_mm512_set1_ps(w[k * SKIN_B + v]),
                                  _mm512_maskz_loadu_ps(0x0fff, pal + 12u * b[k * SKIN_B + v]), acc);
        r[v] = acc;
    }
    transpose16x12(r, m);
    __m512 px = _mm512_fmadd_ps(m[0], x, _mm512_fmadd_ps(m[1], y, _mm512_fmadd_ps(m[2], z, m[3])));
    __m512 py = _mm512_fmadd_ps(m[4], x, _mm512_fmadd_ps(m[5], y, _mm512_fmadd_ps(m[6], z, m[7])));
    __m512 pz = _mm512_fmadd_ps(m[8], x, _mm512_fmadd_ps(m[9], y, _mm512_fmadd_ps(m[10], z, m[11])));
    __m512 qx = _mm512_fmadd_ps(m[0], nx, _mm512_fmadd_ps(m[1], ny, _mm512_mul_ps(m[2], nz)));
    __m512 qy = _mm512_fmadd_ps(m[4], nx, _mm512_fmadd_ps(m[5], ny, _mm512_mul_ps(m[6], nz)));
    __m512 qz = _mm512_fmadd_ps(m[8], nx, _mm512_fmadd_ps(m[9], ny, _mm512_mul_ps(m[10], nz)));
    normalize16(&qx, &qy, &qz);
    store_aos16(op, px, py, pz, ix, stream);
    store_aos16(on, qx, qy, qz, ix, stream);
}

AI void run_k(const skin_range *r, uint32_t k_count, int stream)
{
    const skin_group_data *g = &r->mesh->groups[r->group];
    float scratch[SKIN_ROWS] __attribute__((aligned(64)));
    aos_index ix;
    aos_index_init(&ix);
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
        if (o % SKIN_B == 0 && stop - o == SKIN_B) {
            skin16(rows, w, b, k_count, r->palette, r->out_pos + 3 * (size_t)o,
                   r->out_nrm + 3 * (size_t)o, &ix, stream);
            o = stop;
            continue;
        }
        for (; o < stop; o++)
            ossa_skin_vertex_scalar(rows, w, b, k_count, o % SKIN_B, r->palette,
                                    r->out_pos + 3 * (size_t)o, r->out_nrm + 3 * (size_t)o);
    }
    if (stream)
        _mm_sfence();
}

#define CASE_K(K) case K: if (r->stream) run_k(r, K, 1); else run_k(r, K, 0); break;

void ossa_skin_kernel_avx512(const skin_range *r)
{
    switch (r->mesh->groups[r->group].influences) {
    CASE_K(0) CASE_K(1) CASE_K(2) CASE_K(3) CASE_K(4) CASE_K(5) CASE_K(6) CASE_K(7) CASE_K(8)
    default: ossa_skin_kernel_scalar(r); break;
    }
}

void ossa_lerp_floats_avx512(const float *a, const float *b, float t, size_t n, float *out)
{
    __m512 tv = _mm512_set1_ps(t);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 a0 = _mm512_loadu_ps(a + i), b0 = _mm512_loadu_ps(b + i);
        _mm512_storeu_ps(out + i, _mm512_fmadd_ps(tv, _mm512_sub_ps(b0, a0), a0));
    }
    if (i < n) {
        __mmask16 mk = (__mmask16)((1u << (n - i)) - 1u);
        __m512 a0 = _mm512_maskz_loadu_ps(mk, a + i), b0 = _mm512_maskz_loadu_ps(mk, b + i);
        _mm512_mask_storeu_ps(out + i, mk, _mm512_fmadd_ps(tv, _mm512_sub_ps(b0, a0), a0));
    }
}
