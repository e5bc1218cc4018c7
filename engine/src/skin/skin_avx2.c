/* AVX2 + FMA kernels (built with -mavx2 -mfma; called only when the CPU has both).
 *
 * Skinning, 8 vertices at a time. On the project's Zen 3 EPYC this is compute-bound, about 15
 * cycles a vertex with 4 influences even at 1M vertices, so the steps below cut work per vertex:
 *  - blend: each vertex accumulates its K palette matrices, rows 0|1 as one 256-bit FMA and row
 *    2 as one 128-bit FMA per influence, both with the palette row as a memory operand (no
 *    gathers), its weight broadcast by a shuffle of 4 vertices' weights loaded once (blend8:
 *    vector loads bound this step). Bone indices are 16-bit integer loads scaled to byte offsets
 *    (a shift for the stack copy); widening 8 of them at once with vector instructions and
 *    extracting lanes measured no faster.
 *  - the palette: when it has at most SKIN_PAL_COPY_MAX bones and the range has at least as many
 *    vertices, it is copied to the stack with a 64-byte stride, so each bone is one cache line
 *    and no row load splits a line (the caller's 48-byte stride splits half of them).
 *  - 8 lanes on the same bones (one run, skin_mesh_plan.c) skip all that: each influence is
 *    12 broadcast palette elements times the lanes' weights, SoA at once.
 *  - the 8 blended matrices are transposed into SoA registers, positions and normals transformed
 *    from the block's SoA rows, normals renormalised with rsqrt and one Newton step (relative
 *    error about 3e-7; a group holding a subnormal squared length is redone with sqrt and
 *    divide), and the results transposed back to packed float3 and stored. Non-temporal stores
 *    (when the range asks for them) stage a whole 16-vertex block first, then write 3 full lines
 *    of positions and 3 of normals: interleaving half-filled lines of the two outputs defeated
 *    write combining (about 1.6x slower on this VM).
 *  - ranges larger than SKIN_PREFETCH_MIN_BYTES of stream prefetch SKIN_PREFETCH_BLOCKS blocks
 *    ahead, every line of the block: on this VM the hardware prefetcher alone left a 1M-vertex skin
 *    about 15 % slower.
 * Tried and measured no faster here: two accumulator chains for K >= 4, and blending a block ahead
 * of its transform (software pipelining). */
#include <float.h>
#include <immintrin.h>
#include <math.h>
#include "skin_internal.h"


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

/* Exact: 1 / sqrt, a zero vector stays zero (the frame-lerp path and subnormal lengths). */
AI void normalize8_exact(__m256 *x, __m256 *y, __m256 *z)
{
    __m256 len2 = _mm256_fmadd_ps(*x, *x, _mm256_fmadd_ps(*y, *y, _mm256_mul_ps(*z, *z)));
    __m256 one = _mm256_set1_ps(1.0f);
    __m256 inv = _mm256_div_ps(one, _mm256_sqrt_ps(len2));
    inv = _mm256_blendv_ps(one, inv, _mm256_cmp_ps(len2, _mm256_setzero_ps(), _CMP_GT_OQ));
    *x = _mm256_mul_ps(*x, inv);
    *y = _mm256_mul_ps(*y, inv);
    *z = _mm256_mul_ps(*z, inv);
}

/* rsqrt + one Newton step. Lanes with len2 < FLT_MIN get a factor 0 (a zero vector stays zero);
 * if one of them is not zero (a subnormal squared length, where rsqrt saturates) the group is
 * redone exactly. */
AI void normalize8(__m256 *x, __m256 *y, __m256 *z)
{
    __m256 len2 = _mm256_fmadd_ps(*x, *x, _mm256_fmadd_ps(*y, *y, _mm256_mul_ps(*z, *z)));
    __m256 r = _mm256_rsqrt_ps(len2);
    __m256 half_len2 = _mm256_mul_ps(len2, _mm256_set1_ps(0.5f));
    __m256 t = _mm256_fnmadd_ps(half_len2, _mm256_mul_ps(r, r), _mm256_set1_ps(1.5f));
    __m256 normal = _mm256_cmp_ps(len2, _mm256_set1_ps(FLT_MIN), _CMP_GE_OQ);
    __m256 inv = _mm256_and_ps(_mm256_mul_ps(r, t), normal);
    __m256 zero = _mm256_cmp_ps(len2, _mm256_setzero_ps(), _CMP_EQ_OQ);
    if (__builtin_expect(_mm256_movemask_ps(_mm256_or_ps(normal, zero)) != 0xff, 0)) {
        normalize8_exact(x, y, z);
        return;
    }
    *x = _mm256_mul_ps(*x, inv);
    *y = _mm256_mul_ps(*y, inv);
    *z = _mm256_mul_ps(*z, inv);
}

/* Bone at a byte offset of the palette (offsets are index x 48, or x 64 in the stack copy). */
AI const float *bone_at(const float *pal, uint32_t offset)
{
    return (const float *)(const void *)((const char *)pal + offset);
}

/* Lane v of [4 weights | the same 4] in all 8 lanes (in-lane; v a constant once unrolled). */
AI __m256 weight_lane8(__m256 w4, uint32_t v)
{
    switch (v) {
    case 0: return _mm256_permute_ps(w4, 0x00);
    case 1: return _mm256_permute_ps(w4, 0x55);
    case 2: return _mm256_permute_ps(w4, 0xaa);
    default: return _mm256_permute_ps(w4, 0xff);
    }
}

/* Blends the matrices of the 8 vertices at lanes [l, l + 8) of a block with K influences (w, b:
 * its weights and bone indices) into SoA registers: lane i of m[e] is element e (row-major 3x4)
 * of vertex l + i. 2.25 vector loads a vertex and influence: broadcasting each weight from memory
 * and pairing rows 2 of v and v + 4 in one FMA (3 loads, a blend, an insert) skinned 1 to 8 %
 * fewer vertices a second at 10k and 100k on the Zen 5 VM (docs/BENCHMARKS.md, 2026-11-29
 * 18:14). */
AI void blend8(const float *w, const uint16_t *b, uint32_t k_count, uint32_t l, const float *pal,
               uint32_t stride, __m256 m[12])
{
    __m256 a[8]; /* [row 0 | row 1] of vertex l + v */
    __m128 c[8]; /* row 2 */
SKIN_UNROLL(2)
    for (uint32_t h = 0; h < 8; h += 4) {
        __m256 acc[4];
        __m128 acc2[4];
SKIN_UNROLL(8)
        for (uint32_t k = 0; k < k_count; k++) {
            __m256 w4 = _mm256_broadcast_ps((const __m128 *)(const void *)(w + k * SKIN_B + l + h));
SKIN_UNROLL(4)
            for (uint32_t v = 0; v < 4; v++) {
                const float *p = bone_at(pal, (uint32_t)b[k * SKIN_B + l + h + v] * (stride * 4u));
                __m256 wv = weight_lane8(w4, v);
                __m128 wv4 = _mm256_castps256_ps128(wv);
                if (k == 0) {
                    acc[v] = _mm256_mul_ps(wv, _mm256_loadu_ps(p));
                    acc2[v] = _mm_mul_ps(wv4, _mm_loadu_ps(p + 8));
                } else {
                    acc[v] = _mm256_fmadd_ps(wv, _mm256_loadu_ps(p), acc[v]);
                    acc2[v] = _mm_fmadd_ps(wv4, _mm_loadu_ps(p + 8), acc2[v]);
                }
            }
        }
        for (uint32_t v = 0; v < 4; v++) {
            a[h + v] = acc[v];
            c[h + v] = acc2[v];
        }
    }
    __m256 c2[4], lo[4], hi[4], r2[4];
    for (uint32_t v = 0; v < 4; v++)
        c2[v] = _mm256_set_m128(c[v + 4], c[v]); /* rows 2 of v and v + 4, the transpose's order */
    transpose4(a[0], a[1], a[2], a[3], lo);
    transpose4(a[4], a[5], a[6], a[7], hi);
    transpose4(c2[0], c2[1], c2[2], c2[3], r2);
    for (uint32_t j = 0; j < 4; j++) {
        m[j] = _mm256_permute2f128_ps(lo[j], hi[j], 0x20);
        m[4 + j] = _mm256_permute2f128_ps(lo[j], hi[j], 0x31);
        m[8 + j] = r2[j];
    }
}

/* As blend8 for 8 lanes that name one bone in each slot k (one run, skin_mesh_plan.c): element
 * e is sum_k w_k x that bone's element e, a broadcast row element times the lanes' weights, the
 * same operations per element as blend8's, in SoA already. (Two runs, the second blended into
 * its lanes, measured about 6 % slower than blend8 on cally's parts: not taken.) */
AI void blend8_uniform(const float *w, const uint16_t *b, uint32_t k_count, uint32_t l,
                       const float *pal, uint32_t stride, __m256 m[12])
{
SKIN_UNROLL(8)
    for (uint32_t k = 0; k < k_count; k++) {
        const float *p = bone_at(pal, (uint32_t)b[k * SKIN_B + l] * (stride * 4u));
        __m256 wk = _mm256_load_ps(w + k * SKIN_B + l);
        for (uint32_t e = 0; e < 12; e++)
            m[e] = k == 0 ? _mm256_mul_ps(wk, _mm256_broadcast_ss(p + e))
                          : _mm256_fmadd_ps(wk, _mm256_broadcast_ss(p + e), m[e]);
    }
}

/* The 8 lanes at [l, l + 8) of a block whose runs start where block_runs has bits: at once when
 * no run starts after lane l among them, else lane by lane. */
AI void blend8_any(const float *w, const uint16_t *b, uint32_t k_count, uint32_t l,
                   const float *pal, uint32_t stride, uint32_t block_runs, __m256 m[12])
{
    if (((block_runs >> l) & 0xfeu) == 0)
        blend8_uniform(w, b, k_count, l, pal, stride, m);
    else
        blend8(w, b, k_count, l, pal, stride, m);
}

/* Transforms the 8 vertices at lanes [l, l + 8) of `rows` with the SoA matrices m (blend8):
 * stores the positions and leaves the normals, not yet normalised, in q. */
AI void transform8_q(const float *rows, const __m256 *m, uint32_t l, float *op, int stream,
                     __m256 q[3])
{
    __m256 x = _mm256_load_ps(rows + l), y = _mm256_load_ps(rows + SKIN_B + l);
    __m256 z = _mm256_load_ps(rows + 2 * SKIN_B + l);
    __m256 nx = _mm256_load_ps(rows + 3 * SKIN_B + l), ny = _mm256_load_ps(rows + 4 * SKIN_B + l);
    __m256 nz = _mm256_load_ps(rows + 5 * SKIN_B + l);
    __m256 px = _mm256_fmadd_ps(m[2], z, _mm256_fmadd_ps(m[1], y, _mm256_fmadd_ps(m[0], x, m[3])));
    __m256 py = _mm256_fmadd_ps(m[6], z, _mm256_fmadd_ps(m[5], y, _mm256_fmadd_ps(m[4], x, m[7])));
    __m256 pz = _mm256_fmadd_ps(m[10], z, _mm256_fmadd_ps(m[9], y, _mm256_fmadd_ps(m[8], x, m[11])));
    q[0] = _mm256_fmadd_ps(m[2], nz, _mm256_fmadd_ps(m[1], ny, _mm256_mul_ps(m[0], nx)));
    q[1] = _mm256_fmadd_ps(m[6], nz, _mm256_fmadd_ps(m[5], ny, _mm256_mul_ps(m[4], nx)));
    q[2] = _mm256_fmadd_ps(m[10], nz, _mm256_fmadd_ps(m[9], ny, _mm256_mul_ps(m[8], nx)));
    store_aos8(op, px, py, pz, stream);
}

AI void normals8_store(__m256 q[3], float *on, int stream)
{
    normalize8(&q[0], &q[1], &q[2]);
    store_aos8(on, q[0], q[1], q[2], stream);
}

AI void transform8(const float *rows, const __m256 *m, uint32_t l, float *op, float *on, int stream)
{
    __m256 q[3];
    transform8_q(rows, m, l, op, stream, q);
    normals8_store(q, on, stream);
}

/* Vertices without influences: position as stored (morphed), normal renormalised. */
AI void copy8(const float *rows, uint32_t l, float *op, float *on, int stream)
{
    __m256 nx = _mm256_load_ps(rows + 3 * SKIN_B + l), ny = _mm256_load_ps(rows + 4 * SKIN_B + l);
    __m256 nz = _mm256_load_ps(rows + 5 * SKIN_B + l);
    normalize8(&nx, &ny, &nz);
    store_aos8(op, _mm256_load_ps(rows + l), _mm256_load_ps(rows + SKIN_B + l),
               _mm256_load_ps(rows + 2 * SKIN_B + l), stream);
    store_aos8(on, nx, ny, nz, stream);
}

/* Skins output vertices [r->lo, r->hi) of a group with K >= 1 influences. */
/* A whole block of 16 vertices into op / on. Streaming stages it, then writes 3 full lines per
 * output, one output at a time (interleaving half-filled lines of two outputs defeats write
 * combining); else both halves with constant lane offsets, so every weight, bone and row address
 * is a displacement from the block (a variable half made the compiler spill 16 computed
 * addresses a half). */
AI void block16(const float *rows, const float *w, const uint16_t *b, uint32_t k_count,
                const float *pal, uint32_t stride, uint32_t runs, float *op, float *on, int stream)
{
    __m256 m[12];
    if (stream) {
        float tp[3 * SKIN_B] __attribute__((aligned(64)));
        float tn[3 * SKIN_B] __attribute__((aligned(64)));
        for (uint32_t l = 0; l < SKIN_B; l += 8) {
            blend8_any(w, b, k_count, l, pal, stride, runs, m);
            transform8(rows, m, l, tp + 3 * l, tn + 3 * l, 0);
        }
        for (uint32_t i = 0; i < 3 * SKIN_B; i += 8)
            _mm256_stream_ps(op + i, _mm256_load_ps(tp + i));
        for (uint32_t i = 0; i < 3 * SKIN_B; i += 8)
            _mm256_stream_ps(on + i, _mm256_load_ps(tn + i));
        return;
    }
    /* Half by half. Normalising the first half's normals after the second half's blend (3 to 4 %
     * faster on the Xeon VM of 2026-11-26 with the paired blend) keeps 3 registers live across a
     * blend that now holds 8 accumulators: its speed then hung on GCC's register allocation, one
     * build 3 to 13 % slower with about 190 more stack accesses (docs/BENCHMARKS.md). */
    blend8_any(w, b, k_count, 0, pal, stride, runs, m);
    transform8(rows, m, 0, op, on, 0);
    blend8_any(w, b, k_count, 8, pal, stride, runs, m);
    transform8(rows, m, 8, op + 24, on + 24, 0);
}

AI void run_k(const skin_range *r, uint32_t k_count, const float *pal, uint32_t stride, int stream)
{
    const skin_group_data *g = &r->mesh->groups[r->group];
    float scratch[SKIN_ROWS] __attribute__((aligned(64)));
    /* software prefetch a few blocks ahead only for ranges much larger than the caches */
    int prefetch = (size_t)(r->hi - r->lo) / SKIN_B * g->stride > SKIN_PREFETCH_MIN_BYTES;
    for (uint32_t o = r->lo; o < r->hi;) {
        skin_step s = skin_step_at(r, o, k_count, scratch);
        if (prefetch)
            skin_prefetch_blocks_ahead(g, s.block);
        if (r->prefetch_out && !stream)
            skin_prefetch_outputs(r, o);
        const float *rows = s.rows, *w = s.w;
        const uint16_t *b = s.b;
        uint32_t stop = s.stop, runs = r->mesh->runs[o / SKIN_B];
        if (o % SKIN_B == 0 && stop - o == SKIN_B) {
            block16(rows, w, b, k_count, pal, stride, runs, r->out_pos + 3 * (size_t)o,
                    r->out_nrm + 3 * (size_t)o, stream);
            o = stop;
            continue;
        }
        while (o < stop) {
            uint32_t l = o % SKIN_B;
            float *op = r->out_pos + 3 * (size_t)o, *on = r->out_nrm + 3 * (size_t)o;
            if ((l & 7u) == 0 && o + 8 <= stop) {
                __m256 m[12];
                blend8_any(w, b, k_count, l, pal, stride, runs, m);
                transform8(rows, m, l, op, on, stream);
                o += 8;
            } else {
                /* unaligned head or tail of a range: the reference-form scalar path */
                ossa_skin_vertex_scalar(rows, w, b, k_count, l, r->palette, op, on);
                o++;
            }
        }
    }
}

AI void run_0(const skin_range *r, int stream)
{
    float scratch[SKIN_ROWS] __attribute__((aligned(64)));
    for (uint32_t o = r->lo; o < r->hi;) {
        skin_step s = skin_step_at(r, o, 0, scratch);
        if (r->prefetch_out && !stream)
            skin_prefetch_outputs(r, o);
        const float *rows = s.rows;
        uint32_t stop = s.stop;
        while (o < stop) {
            uint32_t l = o % SKIN_B;
            float *op = r->out_pos + 3 * (size_t)o, *on = r->out_nrm + 3 * (size_t)o;
            if ((l & 7u) == 0 && o + 8 <= stop) {
                copy8(rows, l, op, on, stream);
                o += 8;
            } else {
                ossa_skin_vertex_scalar(rows, NULL, NULL, 0, l, r->palette, op, on);
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

void ossa_skin_kernel_avx2(const skin_range *r)
{
    uint32_t k_count = r->mesh->groups[r->group].influences;
    if (k_count == 0) {
        if (SKIN_ONE_SHAPE)
            run_0(r, r->stream);
        else if (r->stream)
            run_0(r, 1);
        else
            run_0(r, 0);
        return;
    }
    float copy[SKIN_PAL_COPY_MAX * SKIN_PAL_WIDE] __attribute__((aligned(64)));
    int wide;
    const float *pal = skin_range_palette(r, copy, &wide);
#if SKIN_ONE_SHAPE
    if (k_count <= 8)
        run_k(r, k_count, pal, wide ? SKIN_PAL_WIDE : 12, r->stream);
    else
        ossa_skin_kernel_scalar(r);
#else
    switch (k_count) {
    CASE_K(1) CASE_K(2) CASE_K(3) CASE_K(4) CASE_K(5) CASE_K(6) CASE_K(7) CASE_K(8)
    default: ossa_skin_kernel_scalar(r); break;
    }
#endif
}

/* ---- exact meshes (skin_internal.h): the blended matrix on q plus each rotated gap ---- */

/* As blend8, and also the gaps: g[0..2] get sum_i R_i d_i (x, y, z) of the 8 vertices. Rows 0|1
 * of a bone times [d | d] and the paired rows 2 times [d_v | d_v+4] (d's fourth component is 0,
 * so the translation column drops out) are summed horizontally at the end: three FMAs per two
 * vertices and influence, on the palette rows blend8 loads anyway. */
/* A list's blocks of k_count influences (skin_list.c): block16 on each, from the wide palette,
 * the outputs of the block SKIN_OUT_PREFETCH_BLOCKS further on asked for as run_k asks. */
AI void list_k(const skin_list_range *r, uint32_t k_count, int stream)
{
    for (uint32_t i = 0; i < r->count; i++) {
        const skin_block_ref *e = &r->refs[i];
        float *op = r->pos[e->part], *on = r->nrm[e->part];
        if (!op)
            continue;
        if (!stream && i + SKIN_OUT_PREFETCH_BLOCKS < r->count)
            skin_list_prefetch_outputs(r, &r->refs[i + SKIN_OUT_PREFETCH_BLOCKS]);
        const float *w = e->block + SKIN_ROWS;
        const uint16_t *b = (const uint16_t *)(const void *)(w + k_count * SKIN_B);
        block16(e->block, w, b, k_count, r->wide, SKIN_PAL_WIDE, e->runs,
                op + 3 * (size_t)e->out, on + 3 * (size_t)e->out, stream);
    }
}

#define LIST_K(K)                                                                                  \
    case K: r->stream ? list_k(r, K, 1) : list_k(r, K, 0); break;

void ossa_skin_list_avx2(const skin_list_range *r)
{
#if SKIN_ONE_SHAPE
    if (r->k >= 1 && r->k <= 8) /* lists hold 1..8 influences only */
        list_k(r, r->k, r->stream);
#else
    switch (r->k) {
    LIST_K(1) LIST_K(2) LIST_K(3) LIST_K(4) LIST_K(5) LIST_K(6) LIST_K(7) LIST_K(8)
    default: break; /* lists hold 1..8 influences only */
    }
#endif
}

AI void blend8_exact(const float *w, const uint16_t *b, const float *d, uint32_t k_count,
                     uint32_t l, const float *pal, uint32_t stride, __m256 m[12], __m256 g[3])
{
    __m256 a[8], c[4], e[8], f[4];
SKIN_UNROLL(4)
    for (uint32_t v = 0; v < 4; v++) {
        __m256 acc = _mm256_setzero_ps(), acc_u = _mm256_setzero_ps(), acc2 = _mm256_setzero_ps();
        __m256 gap = _mm256_setzero_ps(), gap_u = _mm256_setzero_ps(), gap2 = _mm256_setzero_ps();
SKIN_UNROLL(8)
        for (uint32_t k = 0; k < k_count; k++) {
            const float *p = bone_at(pal, (uint32_t)b[k * SKIN_B + l + v] * (stride * 4u));
            const float *q = bone_at(pal, (uint32_t)b[k * SKIN_B + l + v + 4] * (stride * 4u));
            __m256 wv = _mm256_broadcast_ss(w + k * SKIN_B + l + v);
            __m256 wu = _mm256_broadcast_ss(w + k * SKIN_B + l + v + 4);
            __m256 wp = _mm256_blend_ps(wv, wu, 0xf0);
            __m128 dv = _mm_load_ps(d + 4 * (k * SKIN_B + l + v));
            __m128 du = _mm_load_ps(d + 4 * (k * SKIN_B + l + v + 4));
            __m256 dvv = _mm256_set_m128(dv, dv), duu = _mm256_set_m128(du, du);
            __m256 dp = _mm256_set_m128(du, dv);
            __m256 p01 = _mm256_loadu_ps(p), q01 = _mm256_loadu_ps(q);
            __m256 r2 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + 8)),
                                             _mm_loadu_ps(q + 8), 1);
            acc = _mm256_fmadd_ps(wv, p01, acc);
            acc_u = _mm256_fmadd_ps(wu, q01, acc_u);
            acc2 = _mm256_fmadd_ps(wp, r2, acc2);
            gap = _mm256_fmadd_ps(dvv, p01, gap);
            gap_u = _mm256_fmadd_ps(duu, q01, gap_u);
            gap2 = _mm256_fmadd_ps(dp, r2, gap2);
        }
        a[v] = acc;
        a[v + 4] = acc_u;
        c[v] = acc2;
        e[v] = gap;
        e[v + 4] = gap_u;
        f[v] = gap2;
    }
    __m256 lo[4], hi[4], r2[4];
    transpose4(a[0], a[1], a[2], a[3], lo);
    transpose4(a[4], a[5], a[6], a[7], hi);
    transpose4(c[0], c[1], c[2], c[3], r2);
    for (uint32_t j = 0; j < 4; j++) {
        m[j] = _mm256_permute2f128_ps(lo[j], hi[j], 0x20);
        m[4 + j] = _mm256_permute2f128_ps(lo[j], hi[j], 0x31);
        m[8 + j] = r2[j];
    }
    /* hadd twice: [x0..x3 | y0..y3] from e[0..3], [x4..x7 | y4..y7] from e[4..7] */
    __m256 s_lo = _mm256_hadd_ps(_mm256_hadd_ps(e[0], e[1]), _mm256_hadd_ps(e[2], e[3]));
    __m256 s_hi = _mm256_hadd_ps(_mm256_hadd_ps(e[4], e[5]), _mm256_hadd_ps(e[6], e[7]));
    g[0] = _mm256_permute2f128_ps(s_lo, s_hi, 0x20);
    g[1] = _mm256_permute2f128_ps(s_lo, s_hi, 0x31);
    g[2] = _mm256_hadd_ps(_mm256_hadd_ps(f[0], f[1]), _mm256_hadd_ps(f[2], f[3]));
}

AI void transform8_exact(const float *rows, const __m256 *m, const __m256 *g, uint32_t l,
                         float *op, float *on, int stream)
{
    __m256 x = _mm256_load_ps(rows + l), y = _mm256_load_ps(rows + SKIN_B + l);
    __m256 z = _mm256_load_ps(rows + 2 * SKIN_B + l);
    __m256 nx = _mm256_load_ps(rows + 3 * SKIN_B + l), ny = _mm256_load_ps(rows + 4 * SKIN_B + l);
    __m256 nz = _mm256_load_ps(rows + 5 * SKIN_B + l);
    __m256 tx = _mm256_add_ps(m[3], g[0]), ty = _mm256_add_ps(m[7], g[1]);
    __m256 tz = _mm256_add_ps(m[11], g[2]);
    __m256 px = _mm256_fmadd_ps(m[2], z, _mm256_fmadd_ps(m[1], y, _mm256_fmadd_ps(m[0], x, tx)));
    __m256 py = _mm256_fmadd_ps(m[6], z, _mm256_fmadd_ps(m[5], y, _mm256_fmadd_ps(m[4], x, ty)));
    __m256 pz = _mm256_fmadd_ps(m[10], z, _mm256_fmadd_ps(m[9], y, _mm256_fmadd_ps(m[8], x, tz)));
    __m256 qx = _mm256_fmadd_ps(m[2], nz, _mm256_fmadd_ps(m[1], ny, _mm256_mul_ps(m[0], nx)));
    __m256 qy = _mm256_fmadd_ps(m[6], nz, _mm256_fmadd_ps(m[5], ny, _mm256_mul_ps(m[4], nx)));
    __m256 qz = _mm256_fmadd_ps(m[10], nz, _mm256_fmadd_ps(m[9], ny, _mm256_mul_ps(m[8], nx)));
    normalize8(&qx, &qy, &qz);
    store_aos8(op, px, py, pz, stream);
    store_aos8(on, qx, qy, qz, stream);
}

/* Output vertices [r->lo, r->hi) of a group with K >= 1 influences of an exact mesh. Streaming
 * stores go straight out 8 vertices at a time (3 lines per output: 32-byte aligned). */
AI void run_k_exact(const skin_range *r, uint32_t k_count, const float *pal, uint32_t stride,
                    int stream)
{
    const skin_group_data *g = &r->mesh->groups[r->group];
    float scratch[SKIN_ROWS] __attribute__((aligned(64)));
    int prefetch = (size_t)(r->hi - r->lo) / SKIN_B * g->stride > SKIN_PREFETCH_MIN_BYTES;
    for (uint32_t o = r->lo; o < r->hi;) {
        skin_step s = skin_step_at(r, o, k_count, scratch);
        if (prefetch)
            skin_prefetch_blocks_ahead(g, s.block);
        if (r->prefetch_out && !stream)
            skin_prefetch_outputs(r, o);
        const float *rows = s.rows, *w = s.w, *d = s.d;
        const uint16_t *b = s.b;
        uint32_t stop = s.stop;
        if (o % SKIN_B == 0 && stop - o == SKIN_B) { /* both halves at constant offsets */
            float *op = r->out_pos + 3 * (size_t)o, *on = r->out_nrm + 3 * (size_t)o;
            __m256 m[12], gap[3];
            blend8_exact(w, b, d, k_count, 0, pal, stride, m, gap);
            transform8_exact(rows, m, gap, 0, op, on, stream);
            blend8_exact(w, b, d, k_count, 8, pal, stride, m, gap);
            transform8_exact(rows, m, gap, 8, op + 24, on + 24, stream);
            o = stop;
            continue;
        }
        while (o < stop) {
            uint32_t l = o % SKIN_B;
            float *op = r->out_pos + 3 * (size_t)o, *on = r->out_nrm + 3 * (size_t)o;
            if ((l & 7u) == 0 && o + 8 <= stop) {
                __m256 m[12], gap[3];
                blend8_exact(w, b, d, k_count, l, pal, stride, m, gap);
                transform8_exact(rows, m, gap, l, op, on, stream);
                o += 8;
            } else {
                ossa_skin_vertex_exact_scalar(rows, w, b, d, k_count, l, r->palette, op, on);
                o++;
            }
        }
    }
}

#define CASE_KX(K)                                                                                 \
    case K:                                                                                        \
        if (wide)                                                                                  \
            r->stream ? run_k_exact(r, K, pal, SKIN_PAL_WIDE, 1)                                   \
                      : run_k_exact(r, K, pal, SKIN_PAL_WIDE, 0);                                  \
        else                                                                                       \
            r->stream ? run_k_exact(r, K, pal, 12, 1) : run_k_exact(r, K, pal, 12, 0);             \
        break;

void ossa_skin_kernel_exact_avx2(const skin_range *r)
{
    uint32_t k_count = r->mesh->groups[r->group].influences;
    float copy[SKIN_PAL_COPY_MAX * SKIN_PAL_WIDE] __attribute__((aligned(64)));
    int wide;
    const float *pal = skin_range_palette(r, copy, &wide);
#if SKIN_ONE_SHAPE
    if (k_count >= 1 && k_count <= 8)
        run_k_exact(r, k_count, pal, wide ? SKIN_PAL_WIDE : 12, r->stream);
    else
        ossa_skin_kernel_exact_scalar(r);
#else
    switch (k_count) {
    CASE_KX(1) CASE_KX(2) CASE_KX(3) CASE_KX(4) CASE_KX(5) CASE_KX(6) CASE_KX(7) CASE_KX(8)
    default: ossa_skin_kernel_exact_scalar(r); break;
    }
#endif
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
        normalize8_exact(&x, &y, &z);
        store_aos8(v + 3 * i, x, y, z, 0);
    }
    ossa_normalize3_scalar(v + 3 * i, count - i);
}
