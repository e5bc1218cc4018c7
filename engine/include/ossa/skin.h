/* Runtime skinning: SoA mesh streams built once from a submesh, skin jobs over caller buffers
 * (scalar, SSE2, AVX2+FMA and AVX-512F kernels chosen at run time). The thread pool is in
 * ossa/skin_pool.h, Cal3D springs in ossa/cloth.h, the vertex-frame lerp kernel in
 * ossa/vertex_anim.h. Nothing here allocates after set-up: jobs only touch memory created by
 * the *_create functions or given by the caller.
 *
 * Vertex order. A skin mesh sorts the submesh's vertices into groups by influence count
 * (0, 1, ..., 8, then one general group for more than 8; a few vertices may sit one or more
 * groups up, where that saves padding), inside a group by their bones slot by slot (for a
 * palette of 33 to 64 bones, first by which half of the palette, below 32 or not, each slot's
 * bone is in, slot by slot), then file order, and pads every group to a multiple of OSSA_SKIN_BLOCK vertices. Outputs are
 * written in that "output order": ossa_skin_mesh_output_count() vertices, padding included
 * (padding vertices are written as zero positions and normals and no triangle uses them).
 * ossa_skin_mesh_remap() maps file index -> output index, ossa_skin_mesh_source() the other way,
 * and ossa_skin_mesh_indices() holds the submesh's triangles rewritten for output order, so the
 * output buffers can be uploaded to the GPU as they are. */
#ifndef OSSA_SKIN_H
#define OSSA_SKIN_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include "ossa/model.h"
#include "ossa/status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    OSSA_SKIN_BLOCK = 16,            /* vertices per stream block (widest SIMD width) */
    OSSA_SKIN_MAX_GROUPED = 8,       /* influence counts 0..8 get their own group */
    OSSA_SKIN_GROUP_COUNT = 10,      /* groups 0..8, and group 9 for > 8 influences */
    OSSA_SKIN_MAX_PALETTE = 65535    /* bone indices are stored in 16 bits */
};
#define OSSA_SKIN_PAD_VERTEX OSSA_NOT_FOUND /* ossa_skin_mesh_source() of a padding vertex */

/* ---- kernels ---------------------------------------------------------------------------- */

typedef enum ossa_skin_kernel {
    OSSA_SKIN_KERNEL_AUTO = 0, /* the best available (ossa_skin_kernel_best) */
    OSSA_SKIN_KERNEL_SCALAR,
    OSSA_SKIN_KERNEL_SSE2,
    OSSA_SKIN_KERNEL_AVX2,     /* AVX2 + FMA */
    OSSA_SKIN_KERNEL_AVX512,   /* AVX-512F + VL */
    OSSA_SKIN_KERNEL_COUNT
} ossa_skin_kernel;

/* "auto", "scalar", "sse2", "avx2", "avx512"; "?" for anything else. */
OSSA_API const char *ossa_skin_kernel_name(ossa_skin_kernel k);
/* Parses the names above (in any letter case) into *out; OSSA_ERR_INVALID_ARGUMENT (*out left
 * as it was) for a name that is none of them. */
OSSA_API ossa_status ossa_skin_kernel_parse(const char *name, ossa_skin_kernel *out,
                                            ossa_error *err);
/* true when the kernel is compiled in and this CPU runs it (__builtin_cpu_supports; in
 * WebAssembly, where SSE2 is built on wasm SIMD: compiled in). AUTO: true. */
OSSA_API bool ossa_skin_kernel_available(ossa_skin_kernel k);
/* The fastest available kernel. */
OSSA_API ossa_skin_kernel ossa_skin_kernel_best(void);
/* Resolves a request to a concrete available kernel. AUTO is the best available kernel; an
 * unknown or unavailable request falls back to it, and one line saying so goes to log (may be
 * NULL). A concrete available request is returned unchanged. The environment is never read: a
 * program that lets the user force a kernel (ossa-view's OSSA_SKIN_KERNEL) parses it itself and
 * passes the result. */
OSSA_API ossa_skin_kernel ossa_skin_kernel_resolve(ossa_skin_kernel requested,
                                                   const ossa_log_options *log);

/* Store policy of a job (ossa_skin_job.store). Non-temporal ("streaming") stores bypass the cache
 * and avoid the write-allocate read; they are only used by SIMD kernels and only when both output
 * pointers are 64-byte aligned, otherwise ordinary stores are used. */
typedef enum ossa_skin_store {
    OSSA_SKIN_STORE_AUTO = 0,  /* streaming stores for a job of at least 262144 vertices (its
                                  outputs outgrow a core's caches), ordinary ones below */
    OSSA_SKIN_STORE_CACHED,    /* ordinary stores */
    OSSA_SKIN_STORE_STREAM     /* non-temporal stores */
} ossa_skin_store;

/* The most of the last-level cache ossa_skin_crowd_store counts on. A server's L3, as CPUID
 * reports it, is shared by the whole socket, and one core's crowd keeps far less of it, so a
 * crowd larger than this streams even where the reported L3 is larger (docs/BENCHMARKS.md,
 * Crowds). */
#define OSSA_SKIN_CROWD_CACHE_MAX ((uint64_t)64 << 20)

/* The store policy for a crowd whose characters take `bytes` in all (their own state, as
 * ossa_instance_state_bytes gives it, and their outputs): STREAM once that outgrows half the
 * last-level cache (at most OSSA_SKIN_CROWD_CACHE_MAX), so the caches keep the characters' state
 * rather than outputs nobody reads before the next frame; CACHED below (ossa_instance_desc.store).
 * Measured gains are in docs/BENCHMARKS.md (Crowds). A caller that reads the outputs right away
 * (an upload) may rather keep them cached while half of ossa_skin_cache_bytes holds the crowd, as
 * ossa-view does. */
OSSA_API ossa_skin_store ossa_skin_crowd_store(uint64_t bytes);
/* Bytes of the largest cache this CPU reports to one core through CPUID (the last-level cache it
 * shares with its neighbours: 32 MB on a Zen 5 CCD), or 8 MB where it reports none. */
OSSA_API uint64_t ossa_skin_cache_bytes(void);

/* Memory traffic of a kernel per vertex of a given influence count, as the kernel moves it. */
typedef struct ossa_skin_traffic {
    uint32_t read_bytes;   /* stream bytes read per vertex (block layout, alignment padding
                              included; palette reads excluded: it stays in cache) */
    uint32_t write_bytes;  /* output bytes written per vertex: 12 position + 12 normal */
    bool streaming;        /* true when these writes are non-temporal (no write-allocate read) */
} ossa_skin_traffic;

/* Traffic of kernel k (AUTO resolves as ossa_skin_kernel_best) for vertices with `influences`
 * influences (0..8; larger counts use the general group: read_bytes is then that of the general
 * layout for exactly that count) under a store policy (`vertex_count` is the job size, kept for
 * AUTO's choice by size). OSSA_ERR_INVALID_ARGUMENT for a bad kernel or NULL. */
OSSA_API ossa_status ossa_skin_kernel_traffic(ossa_skin_kernel k, uint32_t influences,
                                              ossa_skin_store store, uint32_t vertex_count,
                                              ossa_skin_traffic *out, ossa_error *err);

/* ---- kernel and store chosen by measurement --------------------------------------------- */

/* A choice has two size classes: jobs of fewer than its large_vertices vertices, and the rest. */
enum { OSSA_SKIN_SIZE_SMALL = 0, OSSA_SKIN_SIZE_LARGE = 1, OSSA_SKIN_SIZE_COUNT = 2 };

/* Zero (or NULL): measure the kernel, and the store below the size rule's threshold. */
typedef struct ossa_skin_calibration_options {
    ossa_skin_kernel kernel; /* AUTO: measured; another: that kernel at every size (not
                                measured; it must be available) */
    ossa_skin_store store;   /* AUTO: measured for each class; CACHED or STREAM: that policy
                                at every size */
    uint32_t large_vertices; /* 0: ossa_skin_large_vertices() */
    uint32_t vertices;       /* of the synthetic mesh timed, 0: 4096 (64 .. 65536) */
    uint32_t rounds;         /* interleaved rounds, 0: 7 (1 .. 64) */
    uint32_t large_mesh_vertices; /* of the mesh the large class's store is timed on (the
                                     timed mesh's blocks repeated, rounded up to a block), 0:
                                     32768 (1024 .. 262144) */
    bool small_class_only;   /* true: the mesh in cache alone (the large class then streams),
                                for a rate a kernel has in cache */
} ossa_skin_calibration_options;

/* What a choice runs for one size class. */
typedef struct ossa_skin_choice_size {
    ossa_skin_kernel kernel; /* concrete and available */
    ossa_skin_store store;   /* CACHED or STREAM */
} ossa_skin_choice_size;

typedef struct ossa_skin_choice {
    uint32_t large_vertices;                      /* first vertex count of the large class */
    ossa_skin_choice_size size[OSSA_SKIN_SIZE_COUNT];
    /* why: vertices a second each kernel skinned the mesh with cached and with streaming
     * stores (its best round); 0: not measured */
    double cached_rates[OSSA_SKIN_KERNEL_COUNT], stream_rates[OSSA_SKIN_KERNEL_COUNT];
    /* why the large class's store: its kernel on a mesh of large_mesh_vertices, out of a core's
     * L2, with cached and with streaming stores (best rounds); 0: not measured */
    double large_cached_rate, large_stream_rate;
    bool kernel_forced, store_forced;             /* taken from the options, not measured */
    uint32_t vertices, rounds;                    /* the mesh timed, the rounds run */
    uint32_t large_mesh_vertices, large_rounds;   /* likewise for the large class's store */
    double seconds;                               /* wall time the calibration took */
} ossa_skin_choice;

/* The first vertex count of the large class, 7281: where a footprint of 72 bytes a vertex (a
 * 4-influence vertex's 48 bytes of streams read and 24 of outputs written) outgrows 512 KB, more
 * than a core's L2 keeps beside everything else (docs/BENCHMARKS.md). */
OSSA_API uint32_t ossa_skin_large_vertices(void);

/* Times every available kernel with cached and with streaming stores in interleaved rounds on a
 * synthetic mesh in cache (4 influences, 64 bones), then the large class's kernel with each
 * store on a larger one (32768 vertices, 2.3 MB), and fills *out: for the small class the
 * fastest kernel and store in cache; for the large class the fastest kernel in cache (with either
 * store) and the store faster on the larger mesh. Which store wins out of the L2 differs by
 * kernel as well as by CPU: on the Zen 5 VM of docs/BENCHMARKS.md the AVX-512 kernel streamed
 * faster, the AVX2 kernel as fast or faster with cached stores. A rate is its best round
 * (interference only slows); a kernel under half the best rate after two rounds is not timed
 * again. A few milliseconds (docs/BENCHMARKS.md); timing stops after 20 ms (a loaded machine:
 * fewer rounds, the slowest kernels perhaps unmeasured, widest first; the large class's store
 * then streaming if it has no rate of both). Keep the result for the process and hand it to jobs
 * (ossa_skin_job.choice). OSSA_ERR_INVALID_ARGUMENT for NULL out or an option out of range,
 * OSSA_ERR_UNSUPPORTED for a forced kernel this CPU lacks, OSSA_ERR_NOMEM. */
OSSA_API ossa_status ossa_skin_calibrate(const ossa_skin_calibration_options *opt,
                                         ossa_skin_choice *out, ossa_error *err);
/* The kernel and store a choice gives a job of `vertices` vertices. NULL choice: AUTO for both
 * (the feature-flag default). */
OSSA_API ossa_skin_choice_size ossa_skin_choice_at(const ossa_skin_choice *choice,
                                                   uint32_t vertices);

/* ---- runtime mesh ----------------------------------------------------------------------- */

typedef struct ossa_skin_mesh ossa_skin_mesh;

/* One influence group in output order: vertices [begin, end) are real, [end, padded_end) are
 * padding; padded_end is the next group's begin. A group of K influences holds the vertices with
 * K and, where that saves padding, a few with fewer (their extra slots weigh 0). */
typedef struct ossa_skin_group {
    uint32_t influences;   /* 0..8, or OSSA_SKIN_MAX_GROUPED + 1 for the general group */
    uint32_t begin, end, padded_end;
} ossa_skin_group;

/* Builds the runtime streams of a submesh. Every bone index must be < palette_size (checked here
 * once; kernels never range-check), palette_size <= OSSA_SKIN_MAX_PALETTE. Springs, physique
 * weights and morph targets (positions and normals; morph UV deltas are ignored) are copied.
 * Triangle indices must be < vertex_count. On failure returns a status, fills err (may be NULL)
 * and leaves *out NULL. The mesh owns copies of everything; the submesh may be freed after. */
OSSA_API ossa_status ossa_skin_mesh_create(const ossa_submesh *sm, uint32_t palette_size,
                                           ossa_skin_mesh **out, ossa_error *err);
OSSA_API void ossa_skin_mesh_destroy(ossa_skin_mesh *mesh);

/* A zeroed, 64-byte-aligned buffer for large streams (skin outputs, say); free it with
 * ossa_skin_buffer_free. Memory, not an object: the pair is malloc / free's (see ossa.h). Buffers of OSSA_SKIN_HUGE_BYTES or more are 2 MB-aligned and advised
 * onto transparent huge pages where the OS has them (Linux madvise): on 4 KB pages the hardware
 * prefetcher stops at every page boundary and a 1M-vertex skin pays a TLB miss every 4 KB.
 * The runtime mesh's own streams are allocated the same way. NULL when out of memory. */
#define OSSA_SKIN_HUGE_BYTES ((size_t)4 << 20)
OSSA_API void *ossa_skin_buffer_alloc(size_t bytes);
OSSA_API void ossa_skin_buffer_free(void *buffer);

OSSA_API uint32_t ossa_skin_mesh_vertex_count(const ossa_skin_mesh *mesh); /* file vertices */
OSSA_API uint32_t ossa_skin_mesh_output_count(const ossa_skin_mesh *mesh); /* incl. padding */
OSSA_API uint32_t ossa_skin_mesh_palette_size(const ossa_skin_mesh *mesh);
OSSA_API uint32_t ossa_skin_mesh_morph_count(const ossa_skin_mesh *mesh);
/* file index -> output index (vertex_count entries). */
OSSA_API const uint32_t *ossa_skin_mesh_remap(const ossa_skin_mesh *mesh);
/* output index -> file index, OSSA_SKIN_PAD_VERTEX for padding (output_count entries). */
OSSA_API const uint32_t *ossa_skin_mesh_source(const ossa_skin_mesh *mesh);
/* Triangles in output order: 3 * face_count indices. */
OSSA_API uint32_t ossa_skin_mesh_face_count(const ossa_skin_mesh *mesh);
OSSA_API const uint32_t *ossa_skin_mesh_indices(const ossa_skin_mesh *mesh);
/* 1 when the mesh is skinned in the exact per-influence form: its submesh has influence_points
 * (C3S, SKM) that do not all agree, within float noise, on one bind point per vertex (weights times
 * offsets that disagree, or bones whose base scale the inverse binds leave out). Then each vertex
 * is sum_i P_i [u_i; w_i] as ossa_skin_submesh_scalar computes it; every kernel has an exact form,
 * slower than its blend form (docs/BENCHMARKS.md gives the cost). 0: linear blend skinning of one
 * point per vertex, which for such a submesh is the same formula (the point is
 * sum_i u_i / sum_i w_i). Decided once, at ossa_skin_mesh_create. */
OSSA_API bool ossa_skin_mesh_exact(const ossa_skin_mesh *mesh);
/* The same decision for a submesh, without building a mesh (ossa info, the viewer, benches). */
OSSA_API bool ossa_skin_submesh_exact(const ossa_submesh *sm);
/* The OSSA_SKIN_GROUP_COUNT groups (empty ones have begin == padded_end). */
OSSA_API void ossa_skin_mesh_groups(const ossa_skin_mesh *mesh,
                                    ossa_skin_group groups[OSSA_SKIN_GROUP_COUNT]);
/* Bytes of the mesh's streams a full job reads (sum over groups of ossa_skin_kernel_traffic's
 * read_bytes x padded vertices), and the output bytes it writes (24 x output_count). */
OSSA_API void ossa_skin_mesh_traffic(const ossa_skin_mesh *mesh, uint64_t *read_bytes,
                                     uint64_t *write_bytes);

/* ---- skin job --------------------------------------------------------------------------- */

typedef struct ossa_skin_pool ossa_skin_pool; /* ossa/skin_pool.h */

typedef struct ossa_skin_job {
    const ossa_skin_mesh *mesh;
    const float *palette;        /* 12 floats (3x4 row-major) per bone, palette_size bones, as
                                    ossa_skin_palette writes them */
    uint32_t palette_size;       /* bones in `palette`; must be >= the mesh's palette_size */
    const float *morph_weights;  /* morph_count weights, or NULL (no morphing). Position and
                                    normal become base + sum_j w_j * delta_j before skinning
                                    (Cal3D's (1 - sum w) * base + sum w_j * target_j) */
    float *out_positions;        /* 3 floats per output vertex, output order */
    float *out_normals;          /* 3 floats per output vertex, output order */
    uint32_t out_capacity;       /* vertices out_positions and out_normals each hold (indexed
                                    by output vertex): must be >= end */
    uint32_t begin, end;         /* output vertex range [begin, end), end <= output_count;
                                    only this range of the outputs is written */
    ossa_skin_kernel kernel;     /* AUTO: the choice's, or without one the kernel the mesh
                                    resolved at creation (ossa_skin_kernel_best) */
    ossa_skin_store store;
    ossa_skin_pool *pool;        /* NULL: the job runs on the calling thread; else its range is
                                    split across the pool's threads (slices aligned to
                                    OSSA_SKIN_BLOCK), with results identical to one thread's */
    const ossa_skin_choice *choice; /* NULL: AUTO as above; else an AUTO kernel or store is the
                                    choice's for end - begin vertices (ossa_skin_choice_at) */
} ossa_skin_job;

/* OSSA_OK, or OSSA_ERR_INVALID_ARGUMENT (NULL pointer, bad range, palette too small, outputs
 * below end, unknown kernel or store, its choice's included), or OSSA_ERR_UNSUPPORTED (the
 * requested kernel, or the choice's, is not available on this CPU); err says which. */
OSSA_API ossa_status ossa_skin_job_validate(const ossa_skin_job *job, ossa_error *err);
/* Validates, then skins [begin, end) (over job->pool when set): positions sum_i w_i (M_i p + T_i) (exact meshes:
 * sum_i P_i [u_i; w_i], see ossa_skin_mesh_exact), normals sum_i w_i M_i n normalised (a zero
 * normal stays zero); weights are used as stored; a vertex without influences keeps its
 * (morphed) position and gets its normal normalised. */
OSSA_API ossa_status ossa_skin_job_run(const ossa_skin_job *job, ossa_error *err);
/* The concrete kernel a validated job runs. */
OSSA_API ossa_skin_kernel ossa_skin_job_kernel(const ossa_skin_job *job);

#ifdef __cplusplus
}
#endif
#endif
