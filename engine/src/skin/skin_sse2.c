/* SSE2 kernels (built with -msse2): the AVX2 scheme at 4 vertices per step, without FMA. Each
 * vertex blends its K palette matrices first (M = sum_k w_k M_k, three 128-bit multiplies and adds
 * per influence, the weight broadcast by a pshufd of the block's weight row), 4 blended
 * matrices are transposed to SoA, positions and normals transformed once, normals renormalised
 * with rsqrt and one Newton step (as the AVX2 kernel), and stored as packed float3. A palette of
 * at most SKIN_PAL_COPY_MAX bones is copied to the stack one bone per 64-byte line when the range
 * has as many vertices, so that the row loads are aligned and fold into the multiplies (SSE
 * encodings take only aligned memory operands). Exact meshes (skin_internal.h) also multiply each
 * row by the influence's gap (dx, dy, dz, 0) and sum the products after the same transpose. */
#include <emmintrin.h>
#include <float.h>
#include <math.h>
#include "skin_internal.h"

/* Built for wasm SIMD (web/), LLVM splits a shuffle whose two users each read part of it (an
 * unpack of a transpose) into shuffles that fill the unread lanes with lane 0, or merges it into
 * its users. V8 maps no such pattern to one x64 instruction: each becomes two pshufb and an or,
 * their masks built in registers (about 11 instructions), where a whole unpack is one punpck. An
 * empty asm statement that takes the value and gives it back keeps each one whole
 * (docs/BENCHMARKS.md, 2026-11-29 13:38; test wasm-kernel-shuffles). Native builds: nothing. */
#ifdef __wasm_simd128__
#define KEEP_WHOLE(v) __asm__("" : "+r"(v))
#else
#define KEEP_WHOLE(v) ((void)0)
#endif

/* The 4x4 transpose of _MM_TRANSPOSE4_PS (the same unpacks and moves), its unpacks kept whole. */
AI void transpose4(__m128 *a, __m128 *b, __m128 *c, __m128 *d)
{
    __m128 t0 = _mm_unpacklo_ps(*a, *b), t1 = _mm_unpackhi_ps(*a, *b);
    __m128 t2 = _mm_unpacklo_ps(*c, *d), t3 = _mm_unpackhi_ps(*c, *d);
    KEEP_WHOLE(t0);
    KEEP_WHOLE(t1);
    KEEP_WHOLE(t2);
    KEEP_WHOLE(t3);
    *a = _mm_movelh_ps(t0, t2);
    *b = _mm_movehl_ps(t2, t0);
    *c = _mm_movelh_ps(t1, t3);
    *d = _mm_movehl_ps(t3, t1);
}

AI void store_aos4(float *dst, __m128 x, __m128 y, __m128 z, int stream)
{
    __m128 xy_lo = _mm_unpacklo_ps(x, y), xy_hi = _mm_unpackhi_ps(x, y);
    __m128 zx_lo = _mm_unpacklo_ps(z, x), zx_hi = _mm_unpackhi_ps(z, x);
    __m128 yz_lo = _mm_unpacklo_ps(y, z), yz_hi = _mm_unpackhi_ps(y, z);
    KEEP_WHOLE(xy_lo);
    KEEP_WHOLE(xy_hi);
    KEEP_WHOLE(zx_lo);
    KEEP_WHOLE(zx_hi);
    KEEP_WHOLE(yz_lo);
    KEEP_WHOLE(yz_hi);
    __m128 o0 = _mm_shuffle_ps(xy_lo, zx_lo, _MM_SHUFFLE(3, 0, 1, 0));
    __m128 o1 = _mm_shuffle_ps(yz_lo, xy_hi, _MM_SHUFFLE(1, 0, 3, 2));
    __m128 o2 = _mm_shuffle_ps(zx_hi, yz_hi, _MM_SHUFFLE(3, 2, 3, 0));
    if (stream) {
        _mm_stream_ps(dst, o0);
        _mm_stream_ps(dst + 4, o1);
        _mm_stream_ps(dst + 8, o2);
    } else {
        _mm_storeu_ps(dst, o0);
        _mm_storeu_ps(dst + 4, o1);
        _mm_storeu_ps(dst + 8, o2);
    }
}

AI void load_aos4(const float *src, __m128 *x, __m128 *y, __m128 *z)
{
    __m128 o0 = _mm_loadu_ps(src), o1 = _mm_loadu_ps(src + 4), o2 = _mm_loadu_ps(src + 8);
    __m128 a = _mm_shuffle_ps(o0, o1, _MM_SHUFFLE(2, 0, 3, 0));
    KEEP_WHOLE(a);
    __m128 c = _mm_shuffle_ps(a, o2, _MM_SHUFFLE(0, 1, 0, 3));
    KEEP_WHOLE(c);
    *x = _mm_shuffle_ps(a, c, _MM_SHUFFLE(2, 0, 1, 0));
    __m128 d = _mm_shuffle_ps(o0, o1, _MM_SHUFFLE(3, 0, 0, 1));
    KEEP_WHOLE(d);
    __m128 f = _mm_shuffle_ps(d, o2, _MM_SHUFFLE(0, 2, 0, 3));
    KEEP_WHOLE(f);
    *y = _mm_shuffle_ps(d, f, _MM_SHUFFLE(2, 0, 2, 0));
    __m128 g = _mm_shuffle_ps(o0, o1, _MM_SHUFFLE(0, 1, 0, 2));
    KEEP_WHOLE(g);
    *z = _mm_shuffle_ps(g, o2, _MM_SHUFFLE(3, 0, 2, 0));
}

AI void normalize4(__m128 *x, __m128 *y, __m128 *z)
{
    __m128 len2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(*x, *x), _mm_mul_ps(*y, *y)), _mm_mul_ps(*z, *z));
    __m128 one = _mm_set1_ps(1.0f);
    __m128 inv = _mm_div_ps(one, _mm_sqrt_ps(len2));
    __m128 mask = _mm_cmpgt_ps(len2, _mm_setzero_ps());
    inv = _mm_or_ps(_mm_and_ps(mask, inv), _mm_andnot_ps(mask, one));
    *x = _mm_mul_ps(*x, inv);
    *y = _mm_mul_ps(*y, inv);
    *z = _mm_mul_ps(*z, inv);
}

#define MADD(a, b, c) _mm_add_ps(_mm_mul_ps(a, b), c)

/* rsqrt and one Newton step (relative error about 3e-7, as the AVX2 kernel's). Lanes with a
 * squared length below FLT_MIN get 0 (a zero normal stays zero); a group holding a subnormal
 * squared length, where rsqrt saturates, is done by normalize4 instead. On wasm, which has no
 * estimate, emscripten's _mm_rsqrt_ps is a square root and a divide already: normalize4 alone. */
AI void normalize4_fast(__m128 *x, __m128 *y, __m128 *z)
{
#ifdef __wasm_simd128__
    normalize4(x, y, z);
#else
    __m128 len2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(*x, *x), _mm_mul_ps(*y, *y)), _mm_mul_ps(*z, *z));
    __m128 r = _mm_rsqrt_ps(len2);
    __m128 t = _mm_sub_ps(_mm_set1_ps(1.5f),
                          _mm_mul_ps(_mm_mul_ps(len2, _mm_set1_ps(0.5f)), _mm_mul_ps(r, r)));
    __m128 normal = _mm_cmpge_ps(len2, _mm_set1_ps(FLT_MIN));
    __m128 zero = _mm_cmpeq_ps(len2, _mm_setzero_ps());
    if (__builtin_expect(_mm_movemask_ps(_mm_or_ps(normal, zero)) != 0xf, 0)) {
        normalize4(x, y, z);
        return;
    }
    __m128 inv = _mm_and_ps(_mm_mul_ps(r, t), normal);
    *x = _mm_mul_ps(*x, inv);
    *y = _mm_mul_ps(*y, inv);
    *z = _mm_mul_ps(*z, inv);
#endif
}

/* Bone at a byte offset of the palette (index x 48, or x 64 in the stack copy). */
AI const float *bone_at(const float *pal, uint32_t offset)
{
    return (const float *)(const void *)((const char *)pal + offset);
}

/* Lane v of 4 aligned weights in every lane: one pshufd, which takes its source from memory (the
 * load and the broadcast in one instruction) and leaves it alone (shufps would need a copy). v
 * is a constant once the caller's loop is unrolled; the switch keeps the immediate one without
 * optimisation too. */
AI __m128 weight_lane(const __m128i *wk, uint32_t v)
{
    switch (v) {
    case 0: return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_load_si128(wk), 0x00));
    case 1: return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_load_si128(wk), 0x55));
    case 2: return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_load_si128(wk), 0xaa));
    default: return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_load_si128(wk), 0xff));
    }
}

/* Blends the rows of the 4 vertices at lanes [l, l + 4): r0[v], r1[v], r2[v] are rows 0, 1, 2 of
 * vertex l + v's matrix sum_k w_k M_k. The 4 weights of an influence are one aligned load, each
 * vertex's broadcast by a shuffle. */
AI void blend4(const float *w, const uint16_t *b, uint32_t k_count, uint32_t l, const float *pal,
               uint32_t stride, __m128 r0[4], __m128 r1[4], __m128 r2[4])
{
SKIN_UNROLL(8)
    for (uint32_t k = 0; k < k_count; k++) {
        const __m128i *wk = (const __m128i *)(const void *)(w + k * SKIN_B + l);
SKIN_UNROLL(4)
        for (uint32_t v = 0; v < 4; v++) {
            const float *m = bone_at(pal, (uint32_t)b[k * SKIN_B + l + v] * (stride * 4u));
            __m128 wv = weight_lane(wk, v);
            __m128 m0, m1, m2;
            if (stride == SKIN_PAL_WIDE) { /* the wide copy: 64-byte aligned bones */
                m0 = _mm_load_ps(m); m1 = _mm_load_ps(m + 4); m2 = _mm_load_ps(m + 8);
            } else {
                m0 = _mm_loadu_ps(m); m1 = _mm_loadu_ps(m + 4); m2 = _mm_loadu_ps(m + 8);
            }
            __m128 a0 = _mm_mul_ps(wv, m0), a1 = _mm_mul_ps(wv, m1), a2 = _mm_mul_ps(wv, m2);
            if (k == 0) {
                r0[v] = a0;
                r1[v] = a1;
                r2[v] = a2;
            } else {
                r0[v] = _mm_add_ps(a0, r0[v]);
                r1[v] = _mm_add_ps(a1, r1[v]);
                r2[v] = _mm_add_ps(a2, r2[v]);
            }
        }
    }
}

AI void skin4(const float *rows, const float *w, const uint16_t *b, uint32_t k_count, uint32_t l,
              const float *pal, uint32_t stride, float *op, float *on, int stream)
{
    if (k_count == 0) {
        __m128 nx = _mm_load_ps(rows + 3 * SKIN_B + l), ny = _mm_load_ps(rows + 4 * SKIN_B + l);
        __m128 nz = _mm_load_ps(rows + 5 * SKIN_B + l);
        normalize4(&nx, &ny, &nz);
        store_aos4(op, _mm_load_ps(rows + l), _mm_load_ps(rows + SKIN_B + l),
                   _mm_load_ps(rows + 2 * SKIN_B + l), stream);
        store_aos4(on, nx, ny, nz, stream);
        return;
    }
    __m128 r0[4], r1[4], r2[4];
    blend4(w, b, k_count, l, pal, stride, r0, r1, r2);
    __m128 x = _mm_load_ps(rows + l), y = _mm_load_ps(rows + SKIN_B + l);
    __m128 z = _mm_load_ps(rows + 2 * SKIN_B + l);
    __m128 nx = _mm_load_ps(rows + 3 * SKIN_B + l), ny = _mm_load_ps(rows + 4 * SKIN_B + l);
    __m128 nz = _mm_load_ps(rows + 5 * SKIN_B + l);
    transpose4(&r0[0], &r0[1], &r0[2], &r0[3]);
    __m128 px = MADD(r0[0], x, MADD(r0[1], y, MADD(r0[2], z, r0[3])));
    __m128 qx = MADD(r0[0], nx, MADD(r0[1], ny, _mm_mul_ps(r0[2], nz)));
    transpose4(&r1[0], &r1[1], &r1[2], &r1[3]);
    __m128 py = MADD(r1[0], x, MADD(r1[1], y, MADD(r1[2], z, r1[3])));
    __m128 qy = MADD(r1[0], nx, MADD(r1[1], ny, _mm_mul_ps(r1[2], nz)));
    transpose4(&r2[0], &r2[1], &r2[2], &r2[3]);
    __m128 pz = MADD(r2[0], x, MADD(r2[1], y, MADD(r2[2], z, r2[3])));
    __m128 qz = MADD(r2[0], nx, MADD(r2[1], ny, _mm_mul_ps(r2[2], nz)));
    store_aos4(op, px, py, pz, stream);
    normalize4_fast(&qx, &qy, &qz);
    store_aos4(on, qx, qy, qz, stream);
}

AI void run_k(const skin_range *r, uint32_t k_count, const float *pal, uint32_t stride, int stream)
{
    const skin_group_data *g = &r->mesh->groups[r->group];
    float scratch[SKIN_ROWS] __attribute__((aligned(64)));
    for (uint32_t o = r->lo; o < r->hi;) {
        skin_step s = skin_step_at(r, o, k_count, scratch);
        /* one line of the block 8 ahead (an integer address: past the end only prefetched) */
        _mm_prefetch((const char *)((uintptr_t)s.block + 8 * (size_t)g->stride), _MM_HINT_T0);
        const float *rows = s.rows, *w = s.w;
        const uint16_t *b = s.b;
        uint32_t stop = s.stop;
        if (o % SKIN_B == 0 && stop - o == SKIN_B) {
            /* a whole block: the four quarters at constant lane offsets, so every weight and
             * bone address is a displacement from the block (as the AVX2 kernel) */
            float *op = r->out_pos + 3 * (size_t)o, *on = r->out_nrm + 3 * (size_t)o;
            skin4(rows, w, b, k_count, 0, pal, stride, op, on, stream);
            skin4(rows, w, b, k_count, 4, pal, stride, op + 12, on + 12, stream);
            skin4(rows, w, b, k_count, 8, pal, stride, op + 24, on + 24, stream);
            skin4(rows, w, b, k_count, 12, pal, stride, op + 36, on + 36, stream);
            o = stop;
            continue;
        }
        while (o < stop) {
            uint32_t l = o % SKIN_B;
            float *op = r->out_pos + 3 * (size_t)o, *on = r->out_nrm + 3 * (size_t)o;
            if ((l & 3u) == 0 && o + 4 <= stop) {
                skin4(rows, w, b, k_count, l, pal, stride, op, on, stream);
                o += 4;
            } else {
                ossa_skin_vertex_scalar(rows, w, b, k_count, l, r->palette, op, on);
                o++;
            }
        }
    }
}

#define CASE_K(K)                                                                                  \
    case K:                                                                                        \
        if (wide)                                                                                  \
            r->stream ? run_k(r, K, pal, SKIN_PAL_WIDE, 1) : run_k(r, K, pal, SKIN_PAL_WIDE, 0);   \
        else                                                                                       \
            r->stream ? run_k(r, K, pal, 12, 1) : run_k(r, K, pal, 12, 0);                         \
        break;

void ossa_skin_kernel_sse2(const skin_range *r)
{
    uint32_t k_count = r->mesh->groups[r->group].influences;
    float copy[SKIN_PAL_COPY_MAX * SKIN_PAL_WIDE] __attribute__((aligned(64)));
    int wide = 0;
    const float *pal = k_count > 0 ? skin_range_palette(r, copy, &wide) : r->palette;
#if SKIN_ONE_SHAPE
    if (k_count <= 8)
        run_k(r, k_count, pal, wide ? SKIN_PAL_WIDE : 12, r->stream);
    else
        ossa_skin_kernel_scalar(r);
#else
    switch (k_count) {
    CASE_K(0) CASE_K(1) CASE_K(2) CASE_K(3) CASE_K(4) CASE_K(5) CASE_K(6) CASE_K(7) CASE_K(8)
    default: ossa_skin_kernel_scalar(r); break;
    }
#endif
}

/* Exact meshes: skin4 plus sum_i R_i d_i. */
AI void skin4_exact(const float *rows, const float *w, const uint16_t *b, const float *d,
                    uint32_t k_count, uint32_t l, const float *pal, float *op, float *on,
                    int stream)
{
    __m128 x = _mm_load_ps(rows + l), y = _mm_load_ps(rows + SKIN_B + l);
    __m128 z = _mm_load_ps(rows + 2 * SKIN_B + l);
    __m128 nx = _mm_load_ps(rows + 3 * SKIN_B + l), ny = _mm_load_ps(rows + 4 * SKIN_B + l);
    __m128 nz = _mm_load_ps(rows + 5 * SKIN_B + l);
    __m128 r0[4], r1[4], r2[4], g0[4], g1[4], g2[4];
    for (uint32_t v = 0; v < 4; v++) {
        __m128 a0 = _mm_setzero_ps(), a1 = _mm_setzero_ps(), a2 = _mm_setzero_ps();
        __m128 e0 = _mm_setzero_ps(), e1 = _mm_setzero_ps(), e2 = _mm_setzero_ps();
        for (uint32_t k = 0; k < k_count; k++) {
            const float *m = pal + 12u * b[k * SKIN_B + l + v];
            __m128 wv = _mm_set1_ps(w[k * SKIN_B + l + v]);
            __m128 dv = _mm_load_ps(d + 4 * (k * SKIN_B + l + v));
            __m128 m0 = _mm_loadu_ps(m), m1 = _mm_loadu_ps(m + 4), m2 = _mm_loadu_ps(m + 8);
            a0 = MADD(wv, m0, a0);
            a1 = MADD(wv, m1, a1);
            a2 = MADD(wv, m2, a2);
            e0 = MADD(dv, m0, e0);
            e1 = MADD(dv, m1, e1);
            e2 = MADD(dv, m2, e2);
        }
        r0[v] = a0;
        r1[v] = a1;
        r2[v] = a2;
        g0[v] = e0;
        g1[v] = e1;
        g2[v] = e2;
    }
    transpose4(&r0[0], &r0[1], &r0[2], &r0[3]);
    transpose4(&r1[0], &r1[1], &r1[2], &r1[3]);
    transpose4(&r2[0], &r2[1], &r2[2], &r2[3]);
    transpose4(&g0[0], &g0[1], &g0[2], &g0[3]);
    transpose4(&g1[0], &g1[1], &g1[2], &g1[3]);
    transpose4(&g2[0], &g2[1], &g2[2], &g2[3]);
    __m128 gx = _mm_add_ps(_mm_add_ps(g0[0], g0[1]), g0[2]); /* g0[3]: the 0 component */
    __m128 gy = _mm_add_ps(_mm_add_ps(g1[0], g1[1]), g1[2]);
    __m128 gz = _mm_add_ps(_mm_add_ps(g2[0], g2[1]), g2[2]);
    __m128 px = MADD(r0[0], x, MADD(r0[1], y, MADD(r0[2], z, _mm_add_ps(r0[3], gx))));
    __m128 py = MADD(r1[0], x, MADD(r1[1], y, MADD(r1[2], z, _mm_add_ps(r1[3], gy))));
    __m128 pz = MADD(r2[0], x, MADD(r2[1], y, MADD(r2[2], z, _mm_add_ps(r2[3], gz))));
    __m128 qx = MADD(r0[0], nx, MADD(r0[1], ny, _mm_mul_ps(r0[2], nz)));
    __m128 qy = MADD(r1[0], nx, MADD(r1[1], ny, _mm_mul_ps(r1[2], nz)));
    __m128 qz = MADD(r2[0], nx, MADD(r2[1], ny, _mm_mul_ps(r2[2], nz)));
    normalize4(&qx, &qy, &qz);
    store_aos4(op, px, py, pz, stream);
    store_aos4(on, qx, qy, qz, stream);
}

AI void run_k_exact(const skin_range *r, uint32_t k_count, int stream)
{
    const skin_group_data *g = &r->mesh->groups[r->group];
    float scratch[SKIN_ROWS] __attribute__((aligned(64)));
    for (uint32_t o = r->lo; o < r->hi;) {
        skin_step s = skin_step_at(r, o, k_count, scratch);
        /* one line of the block 8 ahead (an integer address: past the end only prefetched) */
        _mm_prefetch((const char *)((uintptr_t)s.block + 8 * (size_t)g->stride), _MM_HINT_T0);
        const float *rows = s.rows, *w = s.w, *d = s.d;
        const uint16_t *b = s.b;
        uint32_t stop = s.stop;
        if (o % SKIN_B == 0 && stop - o == SKIN_B) { /* four quarters at constant offsets */
            float *op = r->out_pos + 3 * (size_t)o, *on = r->out_nrm + 3 * (size_t)o;
            skin4_exact(rows, w, b, d, k_count, 0, r->palette, op, on, stream);
            skin4_exact(rows, w, b, d, k_count, 4, r->palette, op + 12, on + 12, stream);
            skin4_exact(rows, w, b, d, k_count, 8, r->palette, op + 24, on + 24, stream);
            skin4_exact(rows, w, b, d, k_count, 12, r->palette, op + 36, on + 36, stream);
            o = stop;
            continue;
        }
        while (o < stop) {
            uint32_t l = o % SKIN_B;
            float *op = r->out_pos + 3 * (size_t)o, *on = r->out_nrm + 3 * (size_t)o;
            if ((l & 3u) == 0 && o + 4 <= stop) {
                skin4_exact(rows, w, b, d, k_count, l, r->palette, op, on, stream);
                o += 4;
            } else {
                ossa_skin_vertex_exact_scalar(rows, w, b, d, k_count, l, r->palette, op, on);
                o++;
            }
        }
    }
}

#define CASE_KX(K) case K: if (r->stream) run_k_exact(r, K, 1); else run_k_exact(r, K, 0); break;

void ossa_skin_kernel_exact_sse2(const skin_range *r)
{
    uint32_t k_count = r->mesh->groups[r->group].influences;
#if SKIN_ONE_SHAPE
    if (k_count >= 1 && k_count <= 8)
        run_k_exact(r, k_count, r->stream);
    else
        ossa_skin_kernel_exact_scalar(r);
#else
    switch (k_count) {
    CASE_KX(1) CASE_KX(2) CASE_KX(3) CASE_KX(4) CASE_KX(5) CASE_KX(6) CASE_KX(7) CASE_KX(8)
    default: ossa_skin_kernel_exact_scalar(r); break;
    }
#endif
}

void ossa_lerp_floats_sse2(const float *a, const float *b, float t, size_t n, float *out)
{
    __m128 tv = _mm_set1_ps(t);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128 a0 = _mm_loadu_ps(a + i), a1 = _mm_loadu_ps(a + i + 4);
        __m128 b0 = _mm_loadu_ps(b + i), b1 = _mm_loadu_ps(b + i + 4);
        _mm_storeu_ps(out + i, _mm_add_ps(a0, _mm_mul_ps(tv, _mm_sub_ps(b0, a0))));
        _mm_storeu_ps(out + i + 4, _mm_add_ps(a1, _mm_mul_ps(tv, _mm_sub_ps(b1, a1))));
    }
    for (; i < n; i++)
        out[i] = a[i] + t * (b[i] - a[i]);
}

void ossa_normalize3_sse2(float *v, size_t count)
{
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        __m128 x, y, z;
        load_aos4(v + 3 * i, &x, &y, &z);
        normalize4(&x, &y, &z);
        store_aos4(v + 3 * i, x, y, z, 0);
    }
    ossa_normalize3_scalar(v + 3 * i, count - i);
}
