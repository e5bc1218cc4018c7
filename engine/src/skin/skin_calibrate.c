/* The kernel and the store chosen by measurement (ossa_skin_calibrate), for jobs in a core's L2
 * and for larger ones (ossa_skin_large_vertices). Feature flags only say which kernels run here;
 * which of them is fastest differs by core: on a Zen 5 VM the AVX2 kernel beat the AVX-512 one
 * at 10,000 vertices in many rounds, on the Xeons the AVX-512 kernel led by 1.2 to 1.4x; and
 * which store is faster out of the L2 differs by kernel: on the Zen 5 VM the AVX-512 kernel
 * streamed 2 to 9 % faster from 32,768 vertices to 1,000,000, while the AVX2 kernel ran as fast
 * or up to 15 % faster with cached stores (docs/BENCHMARKS.md, 2026-11-28 and 2026-11-29). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "skin_internal.h"

enum {
    CALIB_VERTICES = 4096,      /* 290 KB of streams and outputs: in a core's L2 */
    CALIB_VERTICES_MIN = 64,
    CALIB_VERTICES_MAX = 65536,
    CALIB_ROUNDS = 7,
    CALIB_ROUNDS_MAX = 64,
    CALIB_BONES = 64,
    CALIB_INFLUENCES = 4,
    CALIB_PASSES = 2,           /* timed passes a round, after one untimed */
    CALIB_FOOTPRINT = 72,       /* bytes a 4-influence vertex reads (48) and writes (24) */
    CALIB_LARGE_MESH = 32768,   /* 2.3 MB: out of a core's L2 on the project's CPUs (1-2 MB) */
    CALIB_LARGE_MESH_MIN = 1024,
    CALIB_LARGE_MESH_MAX = 262144,
    CALIB_LARGE_ROUNDS = 3      /* at most, each store once a round (a pass, after one untimed) */
};
/* Timing stops once this much has gone (a loaded machine), each class having one kernel. */
#define CALIB_MAX_SECONDS 0.02
/* The large class: jobs whose footprint outgrows this. On the AMD EPYC VM (1 MB of L2), with the
 * AVX-512 kernel, the calibration's 290 KB mesh ran about 2 % faster with cached stores, and
 * jobs of 10,000 vertices (720 KB) to 1,000,000 as fast or faster streaming (docs/BENCHMARKS.md,
 * 2026-11-28, 21:00): the store that wins in cache is not the one that wins beyond it. */
#define CALIB_LARGE_BYTES ((uint64_t)512 << 10)

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint32_t ossa_skin_large_vertices(void)
{
    return (uint32_t)(CALIB_LARGE_BYTES / CALIB_FOOTPRINT);
}

/* A seeded linear congruential generator: the same mesh in every process. */
static uint32_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static float lcg_f(uint64_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)(lcg(s) & 0xffffff) / (float)0x1000000;
}

typedef struct calib_data {
    float *pos, *nrm, *palette, *out_pos, *out_nrm;
    uint32_t *start;
    ossa_influence *inf;
    ossa_skin_mesh *mesh;
} calib_data;

static void calib_free(calib_data *d)
{
    ossa_skin_mesh_destroy(d->mesh);
    ossa_skin_buffer_free(d->out_pos);
    ossa_skin_buffer_free(d->out_nrm);
    free(d->pos);
    free(d->nrm);
    free(d->palette);
    free(d->start);
    free(d->inf);
}

/* n vertices of 4 influences on distinct bones of 64, weights summing to 1, as ossa bench's
 * synthetic mesh; a palette of rotations about random axes and small translations. */
static ossa_status calib_fill(calib_data *d, uint32_t n, ossa_error *err)
{
    memset(d, 0, sizeof *d);
    d->pos = malloc(3 * sizeof(float) * n);
    d->nrm = malloc(3 * sizeof(float) * n);
    d->palette = malloc(12 * sizeof(float) * CALIB_BONES);
    d->start = malloc(sizeof(uint32_t) * (n + 1));
    d->inf = malloc(sizeof(ossa_influence) * CALIB_INFLUENCES * n);
    if (!d->pos || !d->nrm || !d->palette || !d->start || !d->inf)
        return ossa_error_fail(err, OSSA_ERR_NOMEM, "skin calibration: out of memory");
    uint64_t s = 0x05517A2024ull;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t b[CALIB_INFLUENCES];
        float w[CALIB_INFLUENCES], sum = 0.0f;
        for (uint32_t i = 0; i < CALIB_INFLUENCES; i++) {
            uint32_t j;
            do {
                b[i] = lcg(&s) % CALIB_BONES;
                for (j = 0; j < i && b[j] != b[i]; j++)
                    ;
            } while (j < i);
            w[i] = lcg_f(&s, 0.05f, 1.0f);
            sum += w[i];
        }
        d->start[v] = CALIB_INFLUENCES * v;
        for (uint32_t i = 0; i < CALIB_INFLUENCES; i++)
            d->inf[CALIB_INFLUENCES * v + i] = (ossa_influence){b[i], w[i] / sum};
        for (int c = 0; c < 3; c++) {
            d->pos[3 * v + c] = lcg_f(&s, -1.0f, 1.0f);
            d->nrm[3 * v + c] = lcg_f(&s, -1.0f, 1.0f);
        }
    }
    d->start[n] = CALIB_INFLUENCES * n;
    for (uint32_t b = 0; b < CALIB_BONES; b++) {
        float x = lcg_f(&s, -1, 1), y = lcg_f(&s, -1, 1), z = lcg_f(&s, -1, 1);
        float len = sqrtf(x * x + y * y + z * z) + 1e-6f, a = lcg_f(&s, -0.8f, 0.8f);
        x /= len, y /= len, z /= len;
        float c = cosf(a), sn = sinf(a), t = 1.0f - c, *m = d->palette + 12 * b;
        const float r[12] = {t * x * x + c, t * x * y - sn * z, t * x * z + sn * y, lcg_f(&s, -1, 1),
                             t * x * y + sn * z, t * y * y + c, t * y * z - sn * x, lcg_f(&s, -1, 1),
                             t * x * z - sn * y, t * y * z + sn * x, t * z * z + c, lcg_f(&s, -1, 1)};
        memcpy(m, r, sizeof r);
    }
    ossa_submesh sm;
    memset(&sm, 0, sizeof sm);
    sm.material = -1;
    sm.vertex_count = n;
    sm.max_influences = CALIB_INFLUENCES;
    sm.positions = d->pos;
    sm.normals = d->nrm;
    sm.influence_start = d->start;
    sm.influences = d->inf;
    ossa_status st = ossa_skin_mesh_create(&sm, CALIB_BONES, &d->mesh, err);
    if (st != OSSA_OK)
        return st;
    uint32_t out = ossa_skin_mesh_output_count(d->mesh);
    d->out_pos = ossa_skin_buffer_alloc(3 * sizeof(float) * out);
    d->out_nrm = ossa_skin_buffer_alloc(3 * sizeof(float) * out);
    if (!d->out_pos || !d->out_nrm)
        return ossa_error_fail(err, OSSA_ERR_NOMEM, "skin calibration: out of memory");
    return OSSA_OK;
}

/* calib_fill, everything freed on a failure. */
static ossa_status calib_make(calib_data *d, uint32_t n, ossa_error *err)
{
    ossa_status st = calib_fill(d, n, err);
    if (st != OSSA_OK)
        calib_free(d);
    return st;
}

/* Set 0 cached, set 1 streaming stores. */
static const ossa_skin_store calib_stores[2] = {OSSA_SKIN_STORE_CACHED, OSSA_SKIN_STORE_STREAM};

/* Seconds a pass of kernel k with store policy `store` takes, the mean of `passes` after one
 * untimed pass. */
static double time_pass(const calib_data *d, ossa_skin_kernel k, ossa_skin_store store,
                        int passes)
{
    ossa_skin_job job = {.mesh = d->mesh, .palette = d->palette, .palette_size = CALIB_BONES,
                         .out_positions = d->out_pos, .out_normals = d->out_nrm,
                         .out_capacity = ossa_skin_mesh_output_count(d->mesh),
                         .end = ossa_skin_mesh_output_count(d->mesh)};
    job.kernel = k;
    job.store = store;
    ossa_skin_job_run(&job, NULL);
    double t0 = now_s();
    for (int p = 0; p < passes; p++)
        ossa_skin_job_run(&job, NULL);
    return (now_s() - t0) / passes;
}

/* The large class's mesh: the small mesh's 4-influence blocks (all of its vertices: 4 influences
 * each, and the padding plan never moves the last group's tail) repeated to n vertices (rounded
 * up to a block), each copy in its own memory, so its streams outgrow the L2 as a mesh of n
 * vertices does. The job and the kernels read the counts, the palette size, the kernel, the used
 * groups, the exact and morph flags, that group and its runs, all set here; seeding,
 * sorting and laying out 32,768 more vertices instead took about 2 of the calibration's 4 to 6
 * ms on the AMD EPYC VM (docs/BENCHMARKS.md, 2026-11-29, 11:47). */
typedef struct calib_large {
    struct ossa_skin_mesh mesh;
    float *out_pos, *out_nrm;
} calib_large;

static void large_free(calib_large *l)
{
    ossa_skin_buffer_free(l->mesh.storage);
    free(l->mesh.runs);
    ossa_skin_buffer_free(l->out_pos);
    ossa_skin_buffer_free(l->out_nrm);
}

static ossa_status large_make(const calib_data *small, uint32_t n, calib_large *l,
                              ossa_error *err)
{
    memset(l, 0, sizeof *l);
    const struct ossa_skin_mesh *sm = small->mesh;
    const skin_group_data *g = &sm->groups[CALIB_INFLUENCES];
    uint32_t small_blocks = (g->padded_end - g->begin) / SKIN_B, blocks = (n + SKIN_B - 1) / SKIN_B;
    struct ossa_skin_mesh *m = &l->mesh;
    m->vertex_count = m->output_count = blocks * SKIN_B;
    m->palette_size = sm->palette_size;
    m->auto_kernel = sm->auto_kernel;
    m->exact = sm->exact;
    m->used_count = 1;
    m->used[0] = CALIB_INFLUENCES;
    m->groups[CALIB_INFLUENCES] = *g;
    m->groups[CALIB_INFLUENCES].begin = 0;
    m->groups[CALIB_INFLUENCES].end = m->groups[CALIB_INFLUENCES].padded_end = m->output_count;
    m->storage = ossa_skin_buffer_alloc((size_t)blocks * g->stride);
    m->runs = malloc(sizeof *m->runs * blocks);
    l->out_pos = ossa_skin_buffer_alloc(3 * sizeof(float) * m->output_count);
    l->out_nrm = ossa_skin_buffer_alloc(3 * sizeof(float) * m->output_count);
    if (!small_blocks || !m->storage || !m->runs || !l->out_pos || !l->out_nrm) {
        large_free(l);
        return ossa_error_fail(err, OSSA_ERR_NOMEM, "skin calibration: out of memory");
    }
    m->groups[CALIB_INFLUENCES].blocks = m->storage;
    for (uint32_t b = 0; b < blocks; b++) {
        uint32_t from = b % small_blocks;
        memcpy((unsigned char *)m->storage + (size_t)b * g->stride,
               g->blocks + (size_t)from * g->stride, g->stride);
        m->runs[b] = sm->runs[g->begin / SKIN_B + from];
    }
    return OSSA_OK;
}

/* The large class's store: its kernel on a mesh of n vertices (large_make), out of the L2, with
 * each store in up to `rounds` alternated rounds (at least one, then until the deadline); the
 * faster one's best round wins. The scalar kernel never streams: nothing to measure. */
static ossa_status measure_large_store(ossa_skin_choice *out, const calib_data *small, uint32_t n,
                                       uint32_t rounds, double t_start, ossa_error *err)
{
    ossa_skin_choice_size *large = &out->size[OSSA_SKIN_SIZE_LARGE];
    if (large->kernel == OSSA_SKIN_KERNEL_SCALAR)
        return OSSA_OK;
    calib_large l;
    ossa_status st = large_make(small, n, &l, err);
    if (st != OSSA_OK)
        return st;
    calib_data d = {.palette = small->palette, .mesh = &l.mesh, .out_pos = l.out_pos,
                    .out_nrm = l.out_nrm};
    n = l.mesh.output_count;
    out->large_mesh_vertices = n;
    double best[2] = {0.0, 0.0};
    uint32_t r = 0;
    for (; r < rounds && (r == 0 || now_s() - t_start <= CALIB_MAX_SECONDS); r++)
        for (int c = 0; c < 2; c++) {
            double t = time_pass(&d, large->kernel, calib_stores[c], 1);
            if (r == 0 || t < best[c])
                best[c] = t;
        }
    out->large_rounds = r;
    out->large_cached_rate = best[0] > 0.0 ? (double)n / best[0] : 0.0;
    out->large_stream_rate = best[1] > 0.0 ? (double)n / best[1] : 0.0;
    if (out->large_cached_rate > 0.0 && out->large_stream_rate > 0.0)
        large->store = out->large_cached_rate > out->large_stream_rate ? OSSA_SKIN_STORE_CACHED
                                                                       : OSSA_SKIN_STORE_STREAM;
    large_free(&l);
    return OSSA_OK;
}

ossa_status ossa_skin_calibrate(const ossa_skin_calibration_options *opt, ossa_skin_choice *out,
                                ossa_error *err)
{
    const ossa_status bad = OSSA_ERR_INVALID_ARGUMENT;
    double t_start = now_s();
    ossa_skin_calibration_options o;
    memset(&o, 0, sizeof o);
    if (opt)
        o = *opt;
    if (!out)
        return ossa_error_fail(err, bad, "skin calibration: out is NULL");
    memset(out, 0, sizeof *out);
    if ((unsigned)o.kernel >= OSSA_SKIN_KERNEL_COUNT || (unsigned)o.store > OSSA_SKIN_STORE_STREAM)
        return ossa_error_fail(err, bad, "skin calibration: kernel %u or store %u is unknown",
                               (unsigned)o.kernel, (unsigned)o.store);
    if (!ossa_skin_kernel_available(o.kernel))
        return ossa_error_fail(err, OSSA_ERR_UNSUPPORTED,
                               "skin calibration: kernel %s is not available on this CPU",
                               ossa_skin_kernel_name(o.kernel));
    if (o.vertices && (o.vertices < CALIB_VERTICES_MIN || o.vertices > CALIB_VERTICES_MAX))
        return ossa_error_fail(err, bad, "skin calibration: vertices %u, not in %u..%u",
                               o.vertices, (unsigned)CALIB_VERTICES_MIN,
                               (unsigned)CALIB_VERTICES_MAX);
    if (o.rounds > CALIB_ROUNDS_MAX)
        return ossa_error_fail(err, bad, "skin calibration: rounds %u, above %u", o.rounds,
                               (unsigned)CALIB_ROUNDS_MAX);
    if (o.large_mesh_vertices && (o.large_mesh_vertices < CALIB_LARGE_MESH_MIN ||
                                  o.large_mesh_vertices > CALIB_LARGE_MESH_MAX))
        return ossa_error_fail(err, bad, "skin calibration: large mesh of %u vertices, not in "
                               "%u..%u", o.large_mesh_vertices, (unsigned)CALIB_LARGE_MESH_MIN,
                               (unsigned)CALIB_LARGE_MESH_MAX);
    uint32_t n = o.vertices ? o.vertices : CALIB_VERTICES;
    uint32_t rounds = o.rounds ? o.rounds : CALIB_ROUNDS;
    out->large_vertices = o.large_vertices ? o.large_vertices : ossa_skin_large_vertices();
    out->kernel_forced = o.kernel != OSSA_SKIN_KERNEL_AUTO;
    out->store_forced = o.store != OSSA_SKIN_STORE_AUTO;
    out->vertices = n;
    for (int c = 0; c < OSSA_SKIN_SIZE_COUNT; c++) {
        out->size[c].store = out->store_forced ? o.store : OSSA_SKIN_STORE_STREAM;
        out->size[c].kernel = o.kernel;
    }
    if (out->kernel_forced && (out->store_forced || o.kernel == OSSA_SKIN_KERNEL_SCALAR)) {
        /* nothing to measure: the scalar kernel never streams */
        out->size[OSSA_SKIN_SIZE_SMALL].store = out->store_forced ? o.store
                                                                  : OSSA_SKIN_STORE_CACHED;
        out->seconds = now_s() - t_start;
        return OSSA_OK;
    }

    calib_data d;
    ossa_status st = calib_make(&d, n, err);
    if (st != OSSA_OK)
        return st;
    /* only the forced store's set when a store is forced */
    bool use[2] = {!out->store_forced || o.store == OSSA_SKIN_STORE_CACHED,
                   !out->store_forced || o.store == OSSA_SKIN_STORE_STREAM};
    double best_t[2][OSSA_SKIN_KERNEL_COUNT];
    uint32_t count[2][OSSA_SKIN_KERNEL_COUNT];
    bool live[OSSA_SKIN_KERNEL_COUNT];
    memset(count, 0, sizeof count);
    for (int k = 0; k < OSSA_SKIN_KERNEL_COUNT; k++)
        live[k] = k != OSSA_SKIN_KERNEL_AUTO && ossa_skin_kernel_available((ossa_skin_kernel)k) &&
                  (!out->kernel_forced || k == (int)o.kernel);
    /* The scalar kernel runs at a third of the SSE2 kernel's rate or less (docs/BENCHMARKS.md):
     * timed only where no SIMD kernel runs. Pruned after two rounds, it took half the time. */
    for (int k = OSSA_SKIN_KERNEL_SCALAR + 1; k < OSSA_SKIN_KERNEL_COUNT; k++)
        if (live[k])
            live[OSSA_SKIN_KERNEL_SCALAR] = false;
    /* widest kernels first, so that a deadline hit in the first round (a starved process, or
     * one under valgrind) leaves the slow ones out; past the deadline a set that has measured
     * nothing yet still measures its first kernel, so each store gets a rate */
    uint32_t r = 0;
    bool over = false;
    for (; r < rounds && !over; r++) {
        for (int c = 0; c < 2; c++)
            for (int k = OSSA_SKIN_KERNEL_COUNT - 1; k > OSSA_SKIN_KERNEL_AUTO; k--) {
                if (!use[c] || !live[k] || (c > 0 && use[0] && !count[0][k]))
                    continue;
                bool have = false;
                for (int j = 0; j < OSSA_SKIN_KERNEL_COUNT; j++)
                    have |= count[c][j] > 0;
                if (have && now_s() - t_start > CALIB_MAX_SECONDS) {
                    over = true;
                    continue;
                }
                double t = time_pass(&d, (ossa_skin_kernel)k, calib_stores[c], CALIB_PASSES);
                if (!count[c][k]++ || t < best_t[c][k])
                    best_t[c][k] = t;
            }
        if (r != 1)
            continue;
        /* after two rounds (one preempted pass must not drop a kernel), drop the kernels at
         * under half the best rate with either store (the scalar one where a SIMD kernel runs):
         * they cannot win, and would take most of the time; and those the deadline left out */
        double best[2] = {1e30, 1e30};
        for (int c = 0; c < 2; c++)
            for (int k = 0; k < OSSA_SKIN_KERNEL_COUNT; k++)
                if (count[c][k] && best_t[c][k] < best[c])
                    best[c] = best_t[c][k];
        for (int k = 0; k < OSSA_SKIN_KERNEL_COUNT; k++) {
            bool keep = false, missing = false;
            for (int c = 0; c < 2; c++) {
                missing |= use[c] && !count[c][k];
                keep |= count[c][k] && best_t[c][k] <= 2.0 * best[c];
            }
            if (missing || !keep)
                live[k] = false;
        }
    }
    out->rounds = r;
    /* the best round of each: interference only ever adds time */
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < OSSA_SKIN_KERNEL_COUNT; k++)
            if (count[c][k] && best_t[c][k] > 0.0)
                (c ? out->stream_rates : out->cached_rates)[k] = (double)n / best_t[c][k];
    /* small: the fastest pair; large: that kernel, its store measured below */
    double best_small = 0.0;
    for (int k = 0; k < OSSA_SKIN_KERNEL_COUNT; k++)
        for (int c = 0; c < 2; c++) {
            double rate = (c ? out->stream_rates : out->cached_rates)[k];
            if (rate > best_small) {
                best_small = rate;
                out->size[OSSA_SKIN_SIZE_SMALL] = (ossa_skin_choice_size){(ossa_skin_kernel)k,
                                                                          calib_stores[c]};
            }
        }
    if (out->size[OSSA_SKIN_SIZE_SMALL].kernel == OSSA_SKIN_KERNEL_AUTO)
        out->size[OSSA_SKIN_SIZE_SMALL].kernel = ossa_skin_kernel_best();
    out->size[OSSA_SKIN_SIZE_LARGE].kernel = out->size[OSSA_SKIN_SIZE_SMALL].kernel;
    if (!out->store_forced && !o.small_class_only) {
        uint32_t rounds_large = rounds < CALIB_LARGE_ROUNDS ? rounds : CALIB_LARGE_ROUNDS;
        st = measure_large_store(out, &d, o.large_mesh_vertices ? o.large_mesh_vertices
                                                                : CALIB_LARGE_MESH,
                                 rounds_large, t_start, err);
    }
    calib_free(&d);
    if (st != OSSA_OK)
        return st;
    out->seconds = now_s() - t_start;
    return OSSA_OK;
}
