/* AVX-512F kernels (built with -mavx512f -mavx512vl -mfma; called only when the CPU has them).
 *
 * Skinning, 16 vertices (one block) per step:
 *  - the palette (up to SKIN_PAL_COPY_MAX bones, when the range has at least as many vertices) is
 *    copied to the stack one bone per 64-byte line, lanes 12..15 zero, so each influence is one
 *    aligned 512-bit load and one FMA; otherwise a masked 12-float load of the caller's palette.
 *  - the 16 blended matrices are transposed to SoA in two steps: 128-bit rows of 4 vertices
 *    {g, g+4, g+8, g+12} are gathered into one register per row (shuffle_f32x4), then one in-lane
 *    4x4 transpose per row gives the elements in natural vertex order (52 shuffles, not 60).
 *  - a block of at most SKIN_RUNS_MAX_16 runs of lanes on the same bones (skin_mesh_plan.c) is
 *    blended run by run from 12 broadcast palette elements per influence times the lanes'
 *    weights, each run's lanes by mask, SoA with no transpose.
 *  - a palette of at most LOOKUP_BONES bones, in a range of at least LOOKUP_MIN_BLOCKS blocks of
 *    more runs than that, is blended in SoA from a table by element (blend16_lookup): each element
 *    of the 16 lanes' bones is one two-source permute of 32 bones (two and a blend on bit 5 of
 *    the bone past 32), times the lanes' weights. No per-vertex index loads, broadcasts or
 *    transpose: on the Zen 5 VM 8 to 11 % more vertices a second at 10,000 vertices
 *    (docs/BENCHMARKS.md, 2026-11-29 06:03), and the same operations in the same order as
 *    blending vertex by vertex, so the same bits. Past 32 bones the plan sorts a group's
 *    vertices by which half of the table each slot's bone is in (skin_mesh_plan.c), so nearly
 *    every slot of a block is in one half and takes one permute from that half: the two
 *    permutes and the blend are left to the blocks that straddle two patterns. Only the copies
 *    of run_k made for it hold it (the others get a constant NULL table): built into every copy
 *    of the block code, it made crowds of small characters, which never take it, 1 to 3 %
 *    slower.
 *  - normals are renormalised with rsqrt14 and one Newton step (relative error about 1e-7); a
 *    block holding a subnormal squared length is redone with sqrt and divide.
 *  - outputs are packed float3 built with two-source permutes; large ranges prefetch every line
 *    of the block SKIN_PREFETCH_BLOCKS ahead, as the AVX2 kernel does.
 * Exact meshes (skin_internal.h): each vertex also accumulates its palette rows times the
 * influence's gap [d | d | d] (d = dx, dy, dz, 0), transposed the same way; the three products of
 * a row add up to that row of sum_i R_i d_i. */
#include <float.h>
#include <immintrin.h>
#include <math.h>
#include "skin_internal.h"


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

/* Exact: 1 / sqrt; a zero vector stays zero. */
AI void normalize16_exact(__m512 *x, __m512 *y, __m512 *z)
{
    __m512 len2 = _mm512_fmadd_ps(*x, *x, _mm512_fmadd_ps(*y, *y, _mm512_mul_ps(*z, *z)));
    __m512 one = _mm512_set1_ps(1.0f);
    __mmask16 pos = _mm512_cmp_ps_mask(len2, _mm512_setzero_ps(), _CMP_GT_OQ);
    __m512 inv = _mm512_mask_div_ps(one, pos, one, _mm512_sqrt_ps(len2));
    *x = _mm512_mul_ps(*x, inv);
    *y = _mm512_mul_ps(*y, inv);
    *z = _mm512_mul_ps(*z, inv);
}

/* rsqrt14 + one Newton step. Lanes with len2 < FLT_MIN get a factor 0 (a zero vector stays
 * zero); if one of them is not zero (a subnormal squared length) the group is redone exactly. */
AI void normalize16(__m512 *x, __m512 *y, __m512 *z)
{
    __m512 len2 = _mm512_fmadd_ps(*x, *x, _mm512_fmadd_ps(*y, *y, _mm512_mul_ps(*z, *z)));
    __mmask16 normal = _mm512_cmp_ps_mask(len2, _mm512_set1_ps(FLT_MIN), _CMP_GE_OQ);
    __mmask16 zero = _mm512_cmp_ps_mask(len2, _mm512_setzero_ps(), _CMP_EQ_OQ);
    if (__builtin_expect((uint16_t)(normal | zero) != 0xffffu, 0)) {
        normalize16_exact(x, y, z);
        return;
    }
    __m512 r = _mm512_rsqrt14_ps(len2);
    __m512 half_len2 = _mm512_mul_ps(len2, _mm512_set1_ps(0.5f));
    __m512 t = _mm512_fnmadd_ps(half_len2, _mm512_mul_ps(r, r), _mm512_set1_ps(1.5f));
    __m512 inv = _mm512_maskz_mul_ps(normal, r, t);
    *x = _mm512_mul_ps(*x, inv);
    *y = _mm512_mul_ps(*y, inv);
    *z = _mm512_mul_ps(*z, inv);
}

/* r[v] = [row 0 | row 1 | row 2 | unused] of vertex v; out[e] = element e (row-major 3x4) of the
 * 16 vertices, lane v = vertex v. */
AI void transpose16x12(const __m512 r[16], __m512 out[12])
{
    /* q[j][g] = [row j of vertices g, g + 4, g + 8, g + 12] */
    __m512 q[3][4];
    for (int g = 0; g < 4; g++) {
        __m512 a = r[g], b = r[g + 4], c = r[g + 8], d = r[g + 12];
        __m512 ab01 = _mm512_shuffle_f32x4(a, b, _MM_SHUFFLE(1, 0, 1, 0));
        __m512 cd01 = _mm512_shuffle_f32x4(c, d, _MM_SHUFFLE(1, 0, 1, 0));
        __m512 ab2 = _mm512_shuffle_f32x4(a, b, _MM_SHUFFLE(3, 2, 3, 2));
        __m512 cd2 = _mm512_shuffle_f32x4(c, d, _MM_SHUFFLE(3, 2, 3, 2));
        q[0][g] = _mm512_shuffle_f32x4(ab01, cd01, _MM_SHUFFLE(2, 0, 2, 0));
        q[1][g] = _mm512_shuffle_f32x4(ab01, cd01, _MM_SHUFFLE(3, 1, 3, 1));
        q[2][g] = _mm512_shuffle_f32x4(ab2, cd2, _MM_SHUFFLE(2, 0, 2, 0));
    }
    /* in-lane 4x4 transpose of each row: lane 4i + g of element c = vertex g + 4i */
    for (int j = 0; j < 3; j++) {
        __m512 t0 = _mm512_unpacklo_ps(q[j][0], q[j][1]), t1 = _mm512_unpackhi_ps(q[j][0], q[j][1]);
        __m512 t2 = _mm512_unpacklo_ps(q[j][2], q[j][3]), t3 = _mm512_unpackhi_ps(q[j][2], q[j][3]);
        __m512d a = _mm512_castps_pd(t0), b = _mm512_castps_pd(t2);
        __m512d c = _mm512_castps_pd(t1), d = _mm512_castps_pd(t3);
        out[4 * j] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, b));
        out[4 * j + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, b));
        out[4 * j + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(c, d));
        out[4 * j + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(c, d));
    }
}

/* Blends the palette matrices of a block's 16 vertices: wide = the 64-byte-stride stack copy. */
AI void blend16(const float *w, const uint16_t *b, uint32_t k_count, const float *pal, int wide,
                __m512 r[16])
{
SKIN_UNROLL(16)
    for (uint32_t v = 0; v < 16; v++) {
        __m512 acc = _mm512_setzero_ps();
SKIN_UNROLL(8)
        for (uint32_t k = 0; k < k_count; k++) {
            uint32_t bone = b[k * SKIN_B + v];
            __m512 row = wide ? _mm512_load_ps(pal + SKIN_PAL_WIDE * bone)
                              : _mm512_maskz_loadu_ps(0x0fff, pal + 12u * bone);
            __m512 wv = _mm512_set1_ps(w[k * SKIN_B + v]);
            acc = k == 0 ? _mm512_mul_ps(wv, row) : _mm512_fmadd_ps(wv, row, acc);
        }
        r[v] = acc;
    }
}

/* As blend16 + transpose16x12 for a block of few runs (skin_mesh_plan.c): the lanes of a run
 * name one bone in each slot k, so their element e is sum_k w_k x that bone's element e, the
 * same operations per element as blend16's, already in SoA. The first run fills every lane, each
 * later one overwrites its own lanes by mask. */
AI void blend16_runs(const float *w, const uint16_t *b, uint32_t k_count, const float *pal,
                     int wide, uint32_t runs, __m512 m[12])
{
    uint32_t stride = wide ? SKIN_PAL_WIDE : 12u;
SKIN_UNROLL(8)
    for (uint32_t k = 0; k < k_count; k++) {
        const float *p = pal + stride * b[k * SKIN_B];
        __m512 wk = _mm512_load_ps(w + k * SKIN_B);
        for (uint32_t e = 0; e < 12; e++)
            m[e] = k == 0 ? _mm512_mul_ps(wk, _mm512_set1_ps(p[e]))
                          : _mm512_fmadd_ps(wk, _mm512_set1_ps(p[e]), m[e]);
    }
    for (uint32_t rest = runs & ~1u; rest; ) {
        uint32_t start = (uint32_t)__builtin_ctz(rest);
        rest &= rest - 1;
        uint32_t end = rest ? (uint32_t)__builtin_ctz(rest) : SKIN_B;
        __mmask16 lanes = (__mmask16)(((1u << end) - 1u) & ~((1u << start) - 1u));
        for (uint32_t k = 0; k < k_count; k++) {
            const float *p = pal + stride * b[k * SKIN_B + start];
            __m512 wk = _mm512_load_ps(w + k * SKIN_B);
            for (uint32_t e = 0; e < 12; e++)
                m[e] = k == 0 ? _mm512_mask_mul_ps(m[e], lanes, wk, _mm512_set1_ps(p[e]))
                              : _mm512_mask3_fmadd_ps(wk, _mm512_set1_ps(p[e]), m[e], lanes);
        }
    }
}

/* A block's positions and normals from its 16 blended matrices m (SoA), stored as packed float3. */
AI void finish16(const float *rows, const __m512 m[12], float *op, float *on, const aos_index *ix,
                 int stream)
{
    __m512 x = _mm512_load_ps(rows), y = _mm512_load_ps(rows + SKIN_B);
    __m512 z = _mm512_load_ps(rows + 2 * SKIN_B);
    __m512 nx = _mm512_load_ps(rows + 3 * SKIN_B), ny = _mm512_load_ps(rows + 4 * SKIN_B);
    __m512 nz = _mm512_load_ps(rows + 5 * SKIN_B);
    __m512 px = _mm512_fmadd_ps(m[2], z, _mm512_fmadd_ps(m[1], y, _mm512_fmadd_ps(m[0], x, m[3])));
    __m512 py = _mm512_fmadd_ps(m[6], z, _mm512_fmadd_ps(m[5], y, _mm512_fmadd_ps(m[4], x, m[7])));
    __m512 pz = _mm512_fmadd_ps(m[10], z, _mm512_fmadd_ps(m[9], y, _mm512_fmadd_ps(m[8], x, m[11])));
    __m512 qx = _mm512_fmadd_ps(m[2], nz, _mm512_fmadd_ps(m[1], ny, _mm512_mul_ps(m[0], nx)));
    __m512 qy = _mm512_fmadd_ps(m[6], nz, _mm512_fmadd_ps(m[5], ny, _mm512_mul_ps(m[4], nx)));
    __m512 qz = _mm512_fmadd_ps(m[10], nz, _mm512_fmadd_ps(m[9], ny, _mm512_mul_ps(m[8], nx)));
    normalize16(&qx, &qy, &qz);
    store_aos16(op, px, py, pz, ix, stream);
    store_aos16(on, qx, qy, qz, ix, stream);
}

AI void skin16(const float *rows, const float *w, const uint16_t *b, uint32_t k_count,
               const float *pal, int wide, uint32_t runs, float *op, float *on,
               const aos_index *ix, int stream)
{
    if (k_count == 0) {
        __m512 x = _mm512_load_ps(rows), y = _mm512_load_ps(rows + SKIN_B);
        __m512 z = _mm512_load_ps(rows + 2 * SKIN_B);
        __m512 nx = _mm512_load_ps(rows + 3 * SKIN_B), ny = _mm512_load_ps(rows + 4 * SKIN_B);
        __m512 nz = _mm512_load_ps(rows + 5 * SKIN_B);
        normalize16(&nx, &ny, &nz);
        store_aos16(op, x, y, z, ix, stream);
        store_aos16(on, nx, ny, nz, ix, stream);
        return;
    }
    __m512 m[12];
    if (__builtin_popcount(runs) <= SKIN_RUNS_MAX_16) {
        blend16_runs(w, b, k_count, pal, wide, runs, m);
    } else {
        __m512 r[16];
        blend16(w, b, k_count, pal, wide, r);
        transpose16x12(r, m);
    }
    finish16(rows, m, op, on, ix, stream);
}

/* ---- the lookup table ------------------------------------------------------------------------
 * table[e * LOOKUP_BONES + bone] is element e (row-major 3x4) of that bone, the entries past the
 * palette zero. A build (about 300 instructions) costs about what the table saves on
 * LOOKUP_MIN_BLOCKS blocks. */
#define LOOKUP_BONES SKIN_LOOKUP_BONES
#define LOOKUP_FLOATS (12u * LOOKUP_BONES)
#define LOOKUP_MIN_BLOCKS 8u

static void lookup_fill(const float *palette, uint32_t bones, float *table)
{
    uint32_t used = bones > LOOKUP_BONES / 2 ? LOOKUP_BONES : LOOKUP_BONES / 2;
    for (uint32_t g = 0; g < used; g += 16) {
        __m512 r[16], e[12];
        for (uint32_t v = 0; v < 16; v++)
            r[v] = g + v < bones ? _mm512_maskz_loadu_ps(0x0fff, palette + 12u * (g + v))
                                 : _mm512_setzero_ps();
        transpose16x12(r, e);
        for (uint32_t c = 0; c < 12; c++)
            _mm512_store_ps(table + c * LOOKUP_BONES + g, e[c]);
    }
}

/* Whole blocks of the range that would be blended vertex by vertex (more runs than the run path
 * takes), counted up to LOOKUP_MIN_BLOCKS. */
static uint32_t lookup_blocks(const skin_range *r)
{
    const skin_group_data *g = &r->mesh->groups[r->group];
    uint32_t first = (r->lo - g->begin + SKIN_B - 1) / SKIN_B, end = (r->hi - g->begin) / SKIN_B;
    uint32_t n = 0;
    for (uint32_t b = first; b < end && n < LOOKUP_MIN_BLOCKS; b++)
        n += __builtin_popcount(r->mesh->runs[g->begin / SKIN_B + b]) > SKIN_RUNS_MAX_16;
    return n;
}

/* As blend16 + transpose16x12 from the table: m[e] = sum_k w_k x element e of bone b_k, lane by
 * lane, summed as blend16 sums (a product, then fused multiply-adds in k order). high: more than
 * 32 bones. A block whose every slot has its 16 bones in one half of the table (the plan's
 * order makes that the rule) permutes that half only; otherwise each slot takes two permutes
 * and a blend on bit 5 of the bone. Both loops are unrolled so that m stays in registers (a
 * branch per slot inside them left m on the stack: 20 % slower). */
AI void blend16_lookup(const float *w, const uint16_t *b, uint32_t k_count, const float *table,
                       int high, __m512 m[12])
{
    __m512i idx[8];
    __m512 wk[8];
    __mmask16 upper[8];
    const float *half[8];
    int mixed = 0;
SKIN_UNROLL(8)
    for (uint32_t k = 0; k < k_count; k++) {
        idx[k] = _mm512_cvtepu16_epi32(
            _mm256_load_si256((const __m256i *)(const void *)(b + k * SKIN_B)));
        upper[k] = high ? _mm512_test_epi32_mask(idx[k], _mm512_set1_epi32(32)) : 0;
        mixed |= upper[k] != 0 && upper[k] != 0xffffu;
        half[k] = table + (upper[k] ? LOOKUP_BONES / 2 : 0);
        wk[k] = _mm512_load_ps(w + k * SKIN_B);
    }
    if (!mixed) {
SKIN_UNROLL(12)
        for (uint32_t e = 0; e < 12; e++) {
            __m512 acc = _mm512_setzero_ps();
SKIN_UNROLL(8)
            for (uint32_t k = 0; k < k_count; k++) {
                const float *t = half[k] + e * LOOKUP_BONES;
                __m512 p = _mm512_permutex2var_ps(_mm512_load_ps(t), idx[k],
                                                  _mm512_load_ps(t + 16));
                acc = k == 0 ? _mm512_mul_ps(wk[k], p) : _mm512_fmadd_ps(wk[k], p, acc);
            }
            m[e] = acc;
        }
        return;
    }
    for (uint32_t e = 0; e < 12; e++) {
        const float *t = table + e * LOOKUP_BONES;
        __m512 t0 = _mm512_load_ps(t), t1 = _mm512_load_ps(t + 16), acc = _mm512_setzero_ps();
        __m512 t2 = _mm512_load_ps(t + 32), t3 = _mm512_load_ps(t + 48);
SKIN_UNROLL(8)
        for (uint32_t k = 0; k < k_count; k++) {
            __m512 p = _mm512_mask_blend_ps(upper[k], _mm512_permutex2var_ps(t0, idx[k], t1),
                                            _mm512_permutex2var_ps(t2, idx[k], t3));
            acc = k == 0 ? _mm512_mul_ps(wk[k], p) : _mm512_fmadd_ps(wk[k], p, acc);
        }
        m[e] = acc;
    }
}

/* table: the lookup table (a constant NULL in the copies without it, so that they stay as they
 * were: see the top of the file), for a range of 1..8 influences. */
AI void run_k(const skin_range *r, uint32_t k_count, const float *pal, int wide, int stream,
              const float *table)
{
    const skin_group_data *g = &r->mesh->groups[r->group];
    float scratch[SKIN_ROWS] __attribute__((aligned(64)));
    aos_index ix;
    aos_index_init(&ix);
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
        if (o % SKIN_B == 0 && stop - o == SKIN_B && table &&
            __builtin_popcount(runs) > SKIN_RUNS_MAX_16) {
            __m512 m[12];
            blend16_lookup(w, b, k_count, table, r->mesh->palette_size > LOOKUP_BONES / 2, m);
            finish16(rows, m, r->out_pos + 3 * (size_t)o, r->out_nrm + 3 * (size_t)o, &ix,
                     stream);
            o = stop;
            continue;
        }
        if (o % SKIN_B == 0 && stop - o == SKIN_B) {
            skin16(rows, w, b, k_count, pal, wide, runs, r->out_pos + 3 * (size_t)o,
                   r->out_nrm + 3 * (size_t)o, &ix, stream);
            o = stop;
            continue;
        }
        /* unaligned head or tail of a range: the reference-form scalar path */
        for (; o < stop; o++)
            ossa_skin_vertex_scalar(rows, w, b, k_count, o % SKIN_B, r->palette,
                                    r->out_pos + 3 * (size_t)o, r->out_nrm + 3 * (size_t)o);
    }
}

#define CASE_LOOKUP(K)                                                                             \
    case K:                                                                                        \
        r->stream ? run_k(r, K, pal, wide, 1, table) : run_k(r, K, pal, wide, 0, table);       \
        break;

/* The range through the table; false when it does not take one. */
static bool run_lookup(const skin_range *r, uint32_t k_count, const float *pal, int wide)
{
    if (k_count < 1 || k_count > 8 || r->mesh->palette_size > LOOKUP_BONES ||
        lookup_blocks(r) < LOOKUP_MIN_BLOCKS)
        return false;
    float table[LOOKUP_FLOATS] __attribute__((aligned(64)));
    lookup_fill(r->palette, r->mesh->palette_size, table);
#if SKIN_ONE_SHAPE
    run_k(r, k_count, pal, wide, r->stream, table);
#else
    switch (k_count) {
    CASE_LOOKUP(1) CASE_LOOKUP(2) CASE_LOOKUP(3) CASE_LOOKUP(4)
    CASE_LOOKUP(5) CASE_LOOKUP(6) CASE_LOOKUP(7) default: CASE_LOOKUP(8)
    }
#endif
    return true;
}

#define CASE_K(K)                                                                                  \
    case K:                                                                                        \
        if (wide)                                                                                  \
            r->stream ? run_k(r, K, pal, 1, 1, NULL) : run_k(r, K, pal, 1, 0, NULL);               \
        else                                                                                       \
            r->stream ? run_k(r, K, pal, 0, 1, NULL) : run_k(r, K, pal, 0, 0, NULL);               \
        break;

void ossa_skin_kernel_avx512(const skin_range *r)
{
    uint32_t k_count = r->mesh->groups[r->group].influences;
    float copy[SKIN_PAL_COPY_MAX * SKIN_PAL_WIDE] __attribute__((aligned(64)));
    int wide = 0;
    const float *pal = k_count >= 1 && k_count <= 8 ? skin_range_palette(r, copy, &wide)
                                                    : r->palette;
    if (run_lookup(r, k_count, pal, wide))
        return;
#if SKIN_ONE_SHAPE
    if (k_count <= 8)
        run_k(r, k_count, pal, wide, r->stream, NULL);
    else
        ossa_skin_kernel_scalar(r);
#else
    switch (k_count) {
    case 0: r->stream ? run_k(r, 0, pal, 0, 1, NULL) : run_k(r, 0, pal, 0, 0, NULL); break;
    CASE_K(1) CASE_K(2) CASE_K(3) CASE_K(4) CASE_K(5) CASE_K(6) CASE_K(7) CASE_K(8)
    default: ossa_skin_kernel_scalar(r); break;
    }
#endif
}
/* A list's blocks of k_count influences (skin_list.c): skin16 on each, the outputs of the block
 * SKIN_OUT_PREFETCH_BLOCKS further on asked for as run_k asks. */
AI void list_k(const skin_list_range *r, uint32_t k_count, int stream)
{
    aos_index ix;
    aos_index_init(&ix);
    for (uint32_t i = 0; i < r->count; i++) {
        const skin_block_ref *e = &r->refs[i];
        float *op = r->pos[e->part], *on = r->nrm[e->part];
        if (!op)
            continue;
        if (!stream && i + SKIN_OUT_PREFETCH_BLOCKS < r->count)
            skin_list_prefetch_outputs(r, &r->refs[i + SKIN_OUT_PREFETCH_BLOCKS]);
        const float *w = e->block + SKIN_ROWS;
        const uint16_t *b = (const uint16_t *)(const void *)(w + k_count * SKIN_B);
        skin16(e->block, w, b, k_count, r->wide, 1, e->runs, op + 3 * (size_t)e->out,
               on + 3 * (size_t)e->out, &ix, stream);
    }
}

#define LIST_K(K)                                                                                  \
    case K: r->stream ? list_k(r, K, 1) : list_k(r, K, 0); break;

void ossa_skin_list_avx512(const skin_list_range *r)
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

AI void blend16_exact(const float *w, const uint16_t *b, const float *d, uint32_t k_count,
                      const float *pal, int wide, __m512 r[16], __m512 e[16])
{
SKIN_UNROLL(16)
    for (uint32_t v = 0; v < 16; v++) {
        __m512 acc = _mm512_setzero_ps(), gap = _mm512_setzero_ps();
SKIN_UNROLL(8)
        for (uint32_t k = 0; k < k_count; k++) {
            uint32_t bone = b[k * SKIN_B + v];
            __m512 row = wide ? _mm512_load_ps(pal + SKIN_PAL_WIDE * bone)
                              : _mm512_maskz_loadu_ps(0x0fff, pal + 12u * bone);
            __m512 wv = _mm512_set1_ps(w[k * SKIN_B + v]);
            __m512 dv = _mm512_broadcast_f32x4(_mm_load_ps(d + 4 * (k * SKIN_B + v)));
            acc = _mm512_fmadd_ps(wv, row, acc);
            gap = _mm512_fmadd_ps(dv, row, gap);
        }
        r[v] = acc;
        e[v] = gap;
    }
}

AI void skin16_exact(const float *rows, const float *w, const uint16_t *b, const float *d,
                     uint32_t k_count, const float *pal, int wide, float *op, float *on,
                     const aos_index *ix, int stream)
{
    __m512 r[16], e[16], m[12], g[12];
    blend16_exact(w, b, d, k_count, pal, wide, r, e);
    transpose16x12(r, m);
    transpose16x12(e, g);
    /* the translation column gains sum_i R_i d_i; the rest is the blend's */
    m[3] = _mm512_add_ps(m[3], _mm512_add_ps(_mm512_add_ps(g[0], g[1]), g[2]));
    m[7] = _mm512_add_ps(m[7], _mm512_add_ps(_mm512_add_ps(g[4], g[5]), g[6]));
    m[11] = _mm512_add_ps(m[11], _mm512_add_ps(_mm512_add_ps(g[8], g[9]), g[10]));
    finish16(rows, m, op, on, ix, stream);
}

AI void run_k_exact(const skin_range *r, uint32_t k_count, const float *pal, int wide, int stream)
{
    const skin_group_data *g = &r->mesh->groups[r->group];
    float scratch[SKIN_ROWS] __attribute__((aligned(64)));
    aos_index ix;
    aos_index_init(&ix);
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
        if (o % SKIN_B == 0 && stop - o == SKIN_B) {
            skin16_exact(rows, w, b, d, k_count, pal, wide, r->out_pos + 3 * (size_t)o,
                         r->out_nrm + 3 * (size_t)o, &ix, stream);
            o = stop;
            continue;
        }
        for (; o < stop; o++)
            ossa_skin_vertex_exact_scalar(rows, w, b, d, k_count, o % SKIN_B, r->palette,
                                          r->out_pos + 3 * (size_t)o, r->out_nrm + 3 * (size_t)o);
    }
}

#define CASE_KX(K)                                                                                 \
    case K:                                                                                        \
        if (wide)                                                                                  \
            r->stream ? run_k_exact(r, K, pal, 1, 1) : run_k_exact(r, K, pal, 1, 0);               \
        else                                                                                       \
            r->stream ? run_k_exact(r, K, pal, 0, 1) : run_k_exact(r, K, pal, 0, 0);               \
        break;

void ossa_skin_kernel_exact_avx512(const skin_range *r)
{
    uint32_t k_count = r->mesh->groups[r->group].influences;
    float copy[SKIN_PAL_COPY_MAX * SKIN_PAL_WIDE] __attribute__((aligned(64)));
    int wide = 0;
    const float *pal = k_count >= 1 && k_count <= 8 ? skin_range_palette(r, copy, &wide)
                                                    : r->palette;
#if SKIN_ONE_SHAPE
    if (k_count >= 1 && k_count <= 8)
        run_k_exact(r, k_count, pal, wide, r->stream);
    else
        ossa_skin_kernel_exact_scalar(r);
#else
    switch (k_count) {
    CASE_KX(1) CASE_KX(2) CASE_KX(3) CASE_KX(4) CASE_KX(5) CASE_KX(6) CASE_KX(7) CASE_KX(8)
    default: ossa_skin_kernel_exact_scalar(r); break;
    }
#endif
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
