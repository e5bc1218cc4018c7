/* Internal layout of the runtime skinning mesh, shared by the dispatcher and the kernels.
 *
 * Stream blocks: every group (influence count K = 0..8) is an array of blocks of OSSA_SKIN_BLOCK
 * (16) vertices, each block 64-byte aligned and holding, in order:
 *   float px[16], py[16], pz[16], nx[16], ny[16], nz[16]   (the "rows", 384 bytes)
 *   float w[K][16]                                          (weights, influence-major)
 *   uint16_t bone[K][16]                                    (bone indices, < palette_size)
 * padded to a multiple of 64 bytes. A vertex with fewer than K influences may sit in group K (its
 * extra slots weight 0 on its own last bone; skin_mesh.c's plan_spill). One contiguous stream per
 * group keeps the hardware prefetcher on a single sequential walk. The general group (> 8
 * influences) uses K = 0 blocks for its rows and a CSR list of (bone, weight) per vertex.
 *
 * Exact meshes (a submesh with influence_points whose points are not all w_i x one bind point,
 * see skin_mesh.c) add, after the bone indices,
 *   float d[K][16][4]                                       (per influence: dx, dy, dz, 0)
 * the gap between the influence's pre-weighted point u_i and w_i q, q the vertex's row position.
 * The vertex is then sum_i P_i [u_i; w_i] = (sum_i w_i P_i) [q; 1] + sum_i R_i d_i, R_i the
 * 3x3 part of P_i: the blended matrix as in linear blend skinning plus one rotation per
 * influence. The general group keeps 4 floats per CSR entry likewise (gen_point). */
#ifndef OSSA_SKIN_INTERNAL_H
#define OSSA_SKIN_INTERNAL_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "core/error.h"
#include "ossa/skin.h"
#include "ossa/skin_pool.h"
#include "ossa/cloth.h"
#include "ossa/vertex_anim.h"

/* The kernel libraries are built on x86-64 only (src/skin/meson.build). */
#if defined(__x86_64__)
#define OSSA_SKIN_X86 1
#endif
/* The SSE2 kernels also build for WebAssembly SIMD, through emscripten's SSE2 headers. */
#if defined(__x86_64__) || defined(__wasm_simd128__)
#define OSSA_SKIN_SSE2 1
#endif

#define SKIN_B OSSA_SKIN_BLOCK
#define SKIN_GENERAL (OSSA_SKIN_GROUP_COUNT - 1)
#define SKIN_ROWS (6 * SKIN_B) /* floats of rows per block */

typedef struct skin_morph_entry {
    uint32_t target;  /* morph index */
    uint32_t lane;    /* vertex lane in its block */
    float dp[3], dn[3];
} skin_morph_entry;

typedef struct skin_group_data {
    uint32_t influences;      /* K (the general group: 0 in the block layout) */
    uint32_t begin, end, padded_end; /* output indices */
    uint32_t stride;          /* bytes per block */
    uint32_t points;          /* byte offset of d[K][16][4] in a block (exact meshes), else 0 */
    unsigned char *blocks;    /* 64-byte aligned, (padded_end - begin) / 16 blocks */
} skin_group_data;

typedef struct skin_spring_data {
    uint32_t v0, v1;          /* output indices */
    float idle;
} skin_spring_data;

struct ossa_skin_mesh {
    uint32_t vertex_count, output_count, palette_size, face_count, morph_count;
    ossa_skin_kernel auto_kernel;
    int exact;                /* the per-influence form (skin_mesh.c); 0: linear blend only */
    skin_group_data groups[OSSA_SKIN_GROUP_COUNT];
    uint32_t used_count;      /* the groups holding vertices, in order: used[0 .. used_count) */
    uint8_t used[OSSA_SKIN_GROUP_COUNT];
    uint32_t *remap;          /* vertex_count */
    uint32_t *source;         /* output_count */
    uint32_t *indices;        /* 3 * face_count */
    /* general group CSR, indexed by (output index - groups[SKIN_GENERAL].begin) */
    uint32_t *gen_start;      /* padded count + 1 */
    uint16_t *gen_bone;
    float *gen_weight;
    float *gen_point;         /* exact meshes: 4 per CSR entry (dx, dy, dz, 0) */
    /* morphs, sorted by block: entries of block b are [morph_start[b], morph_start[b + 1]) */
    uint32_t *morph_start;    /* output_count / 16 + 1 */
    skin_morph_entry *morph_entries;
    /* springs: Cal3D relaxes them in file order, twice; steps holds those 2 x spring_count
     * steps in the order of ossa_skin_spring_steps_order (skin_spring.c), the same bits sooner */
    uint32_t spring_count, free_count;
    size_t step_count;
    skin_spring_data *steps;
    uint32_t *free_vertex;    /* output index of each spring-owned (physique weight > 0) vertex */
    float *free_accel;        /* 3 per free vertex: Cal3D's force / physique weight (the
                                 constant force and gravity), as its step divides them */
    float *free_bind;         /* 3 per free vertex: bind position */
    unsigned char *movable;   /* output_count: 1 for spring-owned vertices */
    uint16_t *runs;           /* per output block: bit i set where lane i's bones differ from
                                 lane i - 1's, bit 0 always (skin_mesh_plan.c) */
    void *storage;            /* the one aligned allocation behind the group blocks */
};

/* The work a kernel does: output vertices [lo, hi) of group g (g < SKIN_GENERAL). */
typedef struct skin_range {
    const struct ossa_skin_mesh *mesh;
    uint32_t group;
    uint32_t lo, hi;
    const float *palette;
    const float *morph_weights; /* NULL when no morph weight is non-zero */
    float *out_pos, *out_nrm;
    int stream;                 /* non-temporal stores allowed (outputs are 64-byte aligned) */
    const float *wide;          /* the palette one bone per 64-byte line (skin_direct.h), or
                                   NULL: the SIMD kernels copy it themselves */
    int prefetch_out;           /* ask for output lines ahead (skin_prefetch_outputs) */
} skin_range;

typedef void (*skin_kernel_fn)(const skin_range *r);

/* A skin list (skin_list.c): the blocks of several meshes (a character's parts) grouped by
 * influence count, so that a kernel runs all of a count's blocks in one loop. One block: of mesh
 * `part`, written at output vertex `out` of that mesh's buffers. */
typedef struct skin_block_ref {
    const float *block;
    uint32_t out;
    uint16_t part;
    uint16_t runs;                  /* the block's runs of lanes (ossa_skin_mesh.runs) */
} skin_block_ref;

/* The blocks of one influence count (1..8) of a list, for a list kernel. */
typedef struct skin_list_range {
    const skin_block_ref *refs;
    uint32_t count, k;
    const float *wide;              /* the wide palette (skin_direct.h) */
    float *const *pos, *const *nrm; /* per part: its outputs; NULL: the part is skipped */
    int stream;                     /* non-temporal stores (every output 64-byte aligned) */
} skin_list_range;

/* Shared by the AVX2 and AVX-512 kernels. */
#define AI static inline __attribute__((always_inline))

/* The SIMD kernels compile one copy of their loop per influence count, palette stride and store
 * policy (constants, so that every address is a displacement and every branch folds). Under ASan
 * and UBSan those 32-odd inlined copies took 6 to 12 minutes a file to compile; sanitizer builds
 * (src/skin/meson.build) set OSSA_SKIN_ONE_SHAPE, and each kernel then compiles a single copy
 * with the three known at run time: the same source and the same memory accesses, checked in
 * seconds. The default build tests the specialised copies. */
#define SKIN_PRAGMA(x) _Pragma(#x)
#ifdef OSSA_SKIN_ONE_SHAPE /* and their loops are not unrolled: unrolled, they still took minutes */
#define SKIN_ONE_SHAPE 1
#define SKIN_UNROLL(n)
#else
#define SKIN_ONE_SHAPE 0
#define SKIN_UNROLL(n) SKIN_PRAGMA(GCC unroll n)
#endif
/* AVX-512 blocks of at most this many runs of lanes on the same bones are blended run by run
 * from broadcast palette rows; more go lane by lane (the AVX2 kernel takes one run only). */
#define SKIN_RUNS_MAX_16 3
/* The AVX-512 kernel's lookup table by element holds this many bones, two halves of 32, each
 * half one two-source permute (skin_avx512.c); the plan orders the vertices of a palette of 33
 * to 64 bones by which half each slot's bone is in, so a block's slot needs one
 * (skin_mesh_plan.c). */
#define SKIN_LOOKUP_BONES 64u
#define SKIN_LOOKUP_HALF 32u
/* A palette of up to SKIN_PAL_COPY_MAX bones is copied to the stack one bone per 64-byte line
 * (SKIN_PAL_WIDE floats, the last 4 zero) when the range has at least as many vertices. */
#define SKIN_PAL_COPY_MAX 256u
#define SKIN_PAL_WIDE 16u

/* That copy: bones rows of 12 floats from palette into copy, SKIN_PAL_WIDE floats apart, the last
 * 4 of each line zero (the AVX-512 kernel multiplies whole lines); returns copy. */
static inline const float *skin_palette_wide(const float *palette, uint32_t bones, float *copy)
{
    for (uint32_t i = 0; i < bones; i++) {
        memcpy(copy + SKIN_PAL_WIDE * (size_t)i, palette + 12 * (size_t)i, 12 * sizeof(float));
        memset(copy + SKIN_PAL_WIDE * (size_t)i + 12, 0, (SKIN_PAL_WIDE - 12) * sizeof(float));
    }
    return copy;
}

/* The palette a SIMD kernel reads for r, and in *wide whether it is one bone a 64-byte line: the
 * one prepared for an instance (r->wide), else a copy into `copy` (SKIN_PAL_COPY_MAX x
 * SKIN_PAL_WIDE floats, 64-byte aligned) when the range has at least as many vertices as the
 * palette bones (the copy costs a few cycles a bone and saves more than that a vertex), else the
 * caller's, 12 floats a bone. */
static inline const float *skin_range_palette(const skin_range *r, float *copy, int *wide)
{
    uint32_t bones = r->mesh->palette_size;
    *wide = 1;
    if (r->wide)
        return r->wide; /* prepared once for every group of every part (skin_direct.h) */
    if (bones <= SKIN_PAL_COPY_MAX && r->hi - r->lo >= bones)
        return skin_palette_wide(r->palette, bones, copy);
    *wide = 0;
    return r->palette;
}
/* Ranges streaming more than SKIN_PREFETCH_MIN_BYTES prefetch every line of the block
 * SKIN_PREFETCH_BLOCKS ahead. */
#ifndef SKIN_PREFETCH_BLOCKS
#define SKIN_PREFETCH_BLOCKS 8u
#endif
#ifndef SKIN_PREFETCH_MIN_BYTES
#define SKIN_PREFETCH_MIN_BYTES (16u << 20)
#endif
/* Cached stores into output lines that are not in the cache wait for each line to be read
 * first. For a character instance (skin_direct.h) the AVX2 and AVX-512 kernels ask for the lines
 * SKIN_OUT_PREFETCH_BLOCKS blocks ahead (prefetchw, a no-op where a CPU lacks it): a crowd's
 * outputs (48 KB a cally character) leave the caches between frames, and on the Zen 5 VM of
 * 2026-11-26 1000 cally characters took about 6 % less time a frame with it, 10 and 100 (in
 * cache) the same. Jobs do not: one large mesh is a walk the hardware prefetcher follows, and
 * the extra instructions cost the AVX2 kernel up to 10 % on 10,000 vertices in cache. */
#define SKIN_OUT_PREFETCH_BLOCKS 4u

AI void skin_prefetch_outputs(const skin_range *r, uint32_t o)
{
    /* addresses past the buffers' ends are only prefetched, never read: integers, not pointers */
    size_t ahead = (size_t)SKIN_OUT_PREFETCH_BLOCKS * SKIN_B * 3u * sizeof(float);
    uintptr_t p = (uintptr_t)(r->out_pos + 3 * (size_t)o) + ahead;
    uintptr_t n = (uintptr_t)(r->out_nrm + 3 * (size_t)o) + ahead;
    for (uintptr_t i = 0; i < 3u * SKIN_B * sizeof(float); i += 64) {
        __builtin_prefetch((const void *)(p + i), 1, 3);
        __builtin_prefetch((const void *)(n + i), 1, 3);
    }
}

/* OSSA_SKIN_STORE_AUTO streams a job of at least SKIN_STREAM_MIN_VERTICES outputs (6 MB of
 * positions and normals, more than a core keeps in cache until anyone reads them): on the Zen 5
 * VM of 2026-11-25 non-temporal stores were 8-10 % faster on 1 thread and up to 1.8x on 2 from
 * 250k vertices on (docs/BENCHMARKS.md). Smaller jobs keep cached stores: a crowd's small parts
 * lost up to 1.5x streaming, and the spring step reads its part's output right back. */
#define SKIN_STREAM_MIN_VERTICES (1u << 18)

static inline int skin_store_streams(ossa_skin_store store, uint32_t job_vertices)
{
    return store == OSSA_SKIN_STORE_STREAM ||
           (store == OSSA_SKIN_STORE_AUTO && job_vertices >= SKIN_STREAM_MIN_VERTICES);
}

/* 1 when a job streams its stores: its store policy, or its choice's, for its size (before the
 * outputs' alignment is checked). skin_job.c. */
int ossa_skin_job_streams(const ossa_skin_job *job);

static inline const float *skin_block_ptr(const skin_group_data *g, uint32_t block)
{
    return (const float *)(const void *)(g->blocks + (size_t)block * g->stride);
}

/* Rows of a block, with morph deltas applied into scratch (96 floats, 64-byte aligned) when the
 * block has morph entries and weights are given; otherwise the mesh's own rows. Without morph
 * weights (nearly every block a crowd skins) no call is made. */
const float *ossa_skin_block_rows_morphed(const skin_range *r, const float *block,
                                          uint32_t out_block, float *scratch);
static inline const float *ossa_skin_block_rows(const skin_range *r, const float *block,
                                                uint32_t out_block, float *scratch)
{
    return r->morph_weights ? ossa_skin_block_rows_morphed(r, block, out_block, scratch) : block;
}

/* One step of a range's walk, block by block (every kernel's outer loop): the block of the
 * range's group holding output vertex o, for K influences. */
typedef struct skin_step {
    uint32_t stop;            /* [o, stop): the range's outputs in this block */
    const float *block;       /* the block as stored */
    const float *rows;        /* its rows, morphed into the caller's scratch when asked */
    const float *w;           /* w[K][16] */
    const uint16_t *b;        /* bone[K][16] */
    const float *d;           /* exact meshes: d[K][16][4] (g->points bytes in); else unused */
} skin_step;

AI skin_step skin_step_at(const skin_range *r, uint32_t o, uint32_t k_count, float *scratch)
{
    const skin_group_data *g = &r->mesh->groups[r->group];
    uint32_t blk = (o - g->begin) / SKIN_B;
    skin_step s;
    s.stop = g->begin + (blk + 1) * SKIN_B;
    if (s.stop > r->hi)
        s.stop = r->hi;
    s.block = skin_block_ptr(g, blk);
    s.rows = ossa_skin_block_rows(r, s.block, o / SKIN_B, scratch);
    s.w = s.block + SKIN_ROWS;
    s.b = (const uint16_t *)(const void *)(s.w + k_count * SKIN_B);
    s.d = (const float *)(const void *)((const char *)s.block + g->points);
    return s;
}

/* Every line of the block SKIN_PREFETCH_BLOCKS after `block` in its group's stream (an integer
 * address: past the stream's end it is only prefetched, never read). */
AI void skin_prefetch_blocks_ahead(const skin_group_data *g, const float *block)
{
    uintptr_t ahead = (uintptr_t)block + SKIN_PREFETCH_BLOCKS * (size_t)g->stride;
    for (uint32_t off = 0; off < g->stride; off += 64)
        __builtin_prefetch((const void *)(ahead + off), 0, 3);
}

/* skin_prefetch_outputs for a list: the output lines of a block further on. */
AI void skin_list_prefetch_outputs(const skin_list_range *r, const skin_block_ref *ahead)
{
    const float *p = r->pos[ahead->part], *n = r->nrm[ahead->part];
    if (!p)
        return;
    p += 3 * (size_t)ahead->out;
    n += 3 * (size_t)ahead->out;
    for (size_t i = 0; i < 3u * SKIN_B; i += 64 / sizeof(float)) {
        __builtin_prefetch(p + i, 1, 3);
        __builtin_prefetch(n + i, 1, 3);
    }
}

/* One vertex (lane of a block), scalar, blended-matrix form; used by the scalar kernel and the
 * heads/tails of the SIMD ones. */
void ossa_skin_vertex_scalar(const float *rows, const float *weights, const uint16_t *bones,
                             uint32_t k, uint32_t lane, const float *palette, float *out_p,
                             float *out_n);

/* The same for an exact mesh: d holds the block's d[K][16][4]. */
void ossa_skin_vertex_exact_scalar(const float *rows, const float *weights, const uint16_t *bones,
                                   const float *d, uint32_t k, uint32_t lane, const float *palette,
                                   float *out_p, float *out_n);

/* A validated job whose pool has more than one thread, split across it (skin_pool.c). */
void ossa_skin_pool_run_job(const ossa_skin_job *job);

void ossa_skin_kernel_scalar(const skin_range *r);
/* Exact meshes, groups with K >= 1 (group 0 is the same in both forms). */
void ossa_skin_kernel_exact_scalar(const skin_range *r);
void ossa_skin_kernel_exact_sse2(const skin_range *r);
void ossa_skin_kernel_exact_avx2(const skin_range *r);
void ossa_skin_kernel_exact_avx512(const skin_range *r);
void ossa_skin_kernel_sse2(const skin_range *r);
void ossa_skin_kernel_avx2(const skin_range *r);
void ossa_skin_kernel_avx512(const skin_range *r);

/* The same blocks with the same bits as the part's own kernel call, without a call a group. */
void ossa_skin_list_avx2(const skin_list_range *r);
void ossa_skin_list_avx512(const skin_list_range *r);

/* Vertex-frame lerp kernels: n floats, out = a + t (b - a). */
void ossa_lerp_floats_scalar(const float *a, const float *b, float t, size_t n, float *out);
void ossa_lerp_floats_sse2(const float *a, const float *b, float t, size_t n, float *out);
void ossa_lerp_floats_avx2(const float *a, const float *b, float t, size_t n, float *out);
void ossa_lerp_floats_avx512(const float *a, const float *b, float t, size_t n, float *out);
/* Fills m->steps (m->step_count = 2 x m->spring_count) from Cal3D's spring list: 0, or -1 when out
 * of memory. */
int ossa_skin_spring_steps_order(struct ossa_skin_mesh *m, const skin_spring_data *springs);
/* Cal3D's spring relaxation (skin_spring.c's spring_relax) on 8 characters at once: soa holds
 * x, y, z of every output vertex, each as 8 lanes (32-byte aligned). */
void ossa_spring_relax8_avx2(const struct ossa_skin_mesh *m, float *soa);
/* The same on two such groups at once (16 characters). */
void ossa_spring_relax8x2_avx2(const struct ossa_skin_mesh *m, float *soa, float *soa2);
/* `floats` floats of each of n (1..8) characters' outputs into the 8-lane layout (soa[f x 8 + l],
 * 32-byte aligned; spare lanes copy out[0]), and back into the n outputs. */
void ossa_spring_lanes8_in_avx2(const float *const *out, uint32_t n, size_t floats, float *soa);
void ossa_spring_lanes8_out_avx2(const float *soa, size_t floats, float *const *out, uint32_t n);

/* Renormalise count packed float3 in place (zero stays zero). */
void ossa_normalize3_scalar(float *v, size_t count);
void ossa_normalize3_sse2(float *v, size_t count);
void ossa_normalize3_avx2(float *v, size_t count);

/* A normal scaled to unit length (a zero one stays zero), stored. */
static inline void ossa_skin_normalize_store(float nx, float ny, float nz, float *out_n)
{
    float len = sqrtf(nx * nx + ny * ny + nz * nz);
    if (len > 0.0f) {
        float inv = 1.0f / len;
        nx *= inv; ny *= inv; nz *= inv;
    }
    out_n[0] = nx; out_n[1] = ny; out_n[2] = nz;
}

#endif
