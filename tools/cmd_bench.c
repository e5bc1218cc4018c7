/* ossa bench: skinning throughput of every kernel, pose time, STREAM-triad bandwidth and the
 * memory-bound limit it implies, and libcal3d on the same data when it is built in. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bench_crowd.h"
#include "bench_model.h"
#include "bench_timing.h"
#include "cli.h"
#include "ossa/instance.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/pose.h"
#include "ossa/mixer.h"
#include "ossa/skin.h"
#include "ossa/skin_pool.h"
#ifdef OSSA_BENCH_CAL3D
#include "bench_cal3d.h"
#endif

#ifndef OSSA_BUILD_TYPE
#define OSSA_BUILD_TYPE "unknown"
#endif

enum {
    MAX_THREADS = 256,
    MAX_RESULTS = 2 * OSSA_SKIN_KERNEL_COUNT,
    POSE_SIZES = 2,
};
static const uint32_t pose_bones[POSE_SIZES] = {64, 256};
#define FRAME_DT (1.0f / 60.0f)
#define BENCH_SEED 0x05517A2024ull
static const char *const store_names[] = {"auto", "cached", "stream"};

typedef struct bench_opts {
    uint32_t vertices, influences, bones, threads, runs;
    const char **models;
    size_t model_count;
    int json;
    ossa_skin_store store;  /* --store: the skin jobs' store policy */
    bench_crowd_opts crowd; /* --crowd: size_count > 0 */
    bool vertices_set;      /* --vertices given (a crowd's synthetic default is smaller) */
} bench_opts;

/* A crowd's synthetic character when --vertices is not given: a game character's size. */
#define CROWD_DEFAULT_VERTICES 4000u
#define CROWD_SYNTHETIC_CLIPS 4u /* so a crowd's characters cross-fade between motions */

/* "1,10,100": crowd sizes. */
static int parse_sizes(const char *arg, bench_crowd_opts *c)
{
    const char *p = arg;
    c->size_count = 0;
    while (p && *p) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || errno || *p == '-' || v < 1 || v > 1000000 ||
            c->size_count == BENCH_CROWD_MAX_SIZES || (*end && *end != ','))
            break;
        c->sizes[c->size_count++] = (uint32_t)v;
        p = *end ? end + 1 : end;
        if (!*p && *end == ',')
            break;
    }
    if (!arg || !*arg || *p || !c->size_count) {
        fprintf(stderr, "ossa bench: --crowd needs characters per crowd, 1..1000000, up to %d "
                        "of them separated by commas (as 1,10,100)\n",
                BENCH_CROWD_MAX_SIZES);
        return 0;
    }
    return 1;
}

/* ---- STREAM triad -------------------------------------------------------------------------- */

typedef struct triad_ctx {
    float *a, *b, *c;
    size_t n;
    float scalar;
    ossa_skin_pool *pool;  /* NULL: the calling thread alone */
} triad_ctx;

static void triad_range(void *p, uint32_t begin, uint32_t end)
{
    triad_ctx *t = p;
    float *restrict a = t->a;
    const float *restrict b = t->b, *restrict c = t->c;
    float s = t->scalar;
    for (size_t i = begin; i < end; i++)
        a[i] = b[i] + s * c[i];
}

/* Several threads run on the skinning's own pool, so both pay the same dispatch cost. */
static void triad_once(void *p)
{
    triad_ctx *t = p;
    if (t->pool)
        ossa_skin_pool_for(t->pool, 0, (uint32_t)t->n, 16, triad_range, t);
    else
        triad_range(t, 0, (uint32_t)t->n);
}

/* ---- skinning ------------------------------------------------------------------------------ */

typedef struct skin_ctx {
    size_t count;                 /* skinned submeshes */
    const ossa_skin_mesh **meshes; /* the character instance's */
    const ossa_submesh **sources; /* the submesh of each */
    float **pos, **nrm;           /* 64-byte aligned outputs, output order */
    const float *palette;
    uint32_t palette_size;
    ossa_skin_kernel kernel;
    ossa_skin_store store;
    ossa_skin_pool *pool;         /* NULL: the calling thread alone */
    int failed;
} skin_ctx;

static void skin_once(void *p)
{
    skin_ctx *s = p;
    for (size_t i = 0; i < s->count; i++) {
        ossa_skin_job job;
        ossa_skin_job_init(&job, s->meshes[i], s->palette, s->palette_size, s->pos[i], s->nrm[i],
                           ossa_skin_mesh_output_count(s->meshes[i]));
        job.kernel = s->kernel;
        job.store = s->store;
        ossa_status st = s->pool ? ossa_skin_run_parallel(s->pool, &job, NULL)
                                 : ossa_skin_job_run(&job, NULL);
        s->failed |= st != OSSA_OK;
    }
}

/* Bytes a full skin of every submesh moves with kernel k (one job a submesh, split over the
 * threads): stream reads, writes, and the write-allocate reads of cached stores. *streaming: 1
 * when every write is non-temporal (AUTO decides by the whole job's size). */
static double skin_bytes(const skin_ctx *s, ossa_skin_kernel k, int *streaming)
{
    double bytes = 0.0;
    int all_stream = 1;
    for (size_t i = 0; i < s->count; i++) {
        ossa_skin_group g[OSSA_SKIN_GROUP_COUNT];
        ossa_skin_mesh_groups(s->meshes[i], g);
        /* exact meshes read each influence's gap too: the mesh's own count of its streams */
        int exact = ossa_skin_mesh_exact(s->meshes[i]);
        if (exact) {
            uint64_t rd = 0;
            ossa_skin_mesh_traffic(s->meshes[i], &rd, NULL);
            bytes += (double)rd;
        }
        uint32_t job = ossa_skin_mesh_output_count(s->meshes[i]);
        for (int j = 0; j < OSSA_SKIN_GROUP_COUNT; j++) {
            uint32_t n = g[j].padded_end - g[j].begin;
            ossa_skin_traffic tr;
            if (!n || ossa_skin_kernel_traffic(k, g[j].influences, s->store, job, &tr, NULL) !=
                          OSSA_OK)
                continue;
            bytes += (double)n * ((exact ? 0 : tr.read_bytes) +
                                  tr.write_bytes * (tr.streaming ? 1 : 2));
            all_stream &= tr.streaming != 0;
        }
    }
    *streaming = all_stream;
    return bytes;
}

/* Largest |a - b| over n floats; a NaN or Inf anywhere counts as a huge difference. */
static double max_diff(const float *a, const float *b, size_t n)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - (double)b[i]);
        if (!isfinite(d))
            return 1e30;
        if (d > m)
            m = d;
    }
    return m;
}

/* ---- pose ---------------------------------------------------------------------------------- */

typedef struct pose_ctx {
    ossa_rt_skeleton *skel;
    ossa_rt_clip *clip;
    ossa_sample_cache *cache;
    ossa_mixer *mixer;
    ossa_soa_pose local, model;
    float *palette;
    size_t palette_floats;
    float duration;
    double time;
    int failed;
#ifdef OSSA_BENCH_CAL3D
    bench_cal3d *cal;
#endif
} pose_ctx;

static void pose_ltm_palette(pose_ctx *p)
{
    ossa_ltm_job ltm = {p->skel, &p->local, &p->model};
    ossa_palette_job pal = {p->skel, &p->model, p->palette, p->palette_floats};
    p->failed |= ossa_ltm_job_run(&ltm, NULL) != OSSA_OK ||
                 ossa_palette_job_run(&pal, NULL) != OSSA_OK;
}

/* Sample (cursor cache, playing forward a frame at a time) + local_to_model + palette. */
static void pose_sample_once(void *v)
{
    pose_ctx *p = v;
    p->time += FRAME_DT;
    ossa_sample_job job = {p->clip, p->cache,
                           ossa_playback_time(p->duration, (float)p->time, OSSA_WRAP_LOOP),
                           OSSA_WRAP_LOOP, OSSA_ROT_SLERP, &p->local};
    p->failed |= ossa_sample_job_run(&job, NULL) != OSSA_OK;
    pose_ltm_palette(p);
}

/* The same through the mixer (one cycle): Cal3D's updateAnimation + updateSkeleton path. */
static void pose_mixer_once(void *v)
{
    pose_ctx *p = v;
    ossa_mixer_update(p->mixer, FRAME_DT);
    p->failed |= ossa_mixer_evaluate(p->mixer, &p->local, NULL) != OSSA_OK;
    pose_ltm_palette(p);
}

#ifdef OSSA_BENCH_CAL3D
static void pose_cal3d_once(void *v)
{
    pose_ctx *p = v;
    bench_cal3d_pose(p->cal, FRAME_DT);
}

typedef struct cal_skin_ctx {
    bench_cal3d *cal;
    float *out;
} cal_skin_ctx;

static void cal_skin_once(void *v)
{
    cal_skin_ctx *c = v;
    bench_cal3d_skin(c->cal, c->out);
}
#endif

static void pose_ctx_release(pose_ctx *p)
{
    ossa_mixer_destroy(p->mixer);
    ossa_sample_cache_destroy(p->cache);
    ossa_rt_clip_destroy(p->clip);
    ossa_rt_skeleton_destroy(p->skel);
    ossa_soa_pose_destroy(&p->local);
    ossa_soa_pose_destroy(&p->model);
    free(p->palette);
#ifdef OSSA_BENCH_CAL3D
    bench_cal3d_free(p->cal);
#endif
}

/* ---- results ------------------------------------------------------------------------------- */

typedef struct skin_result {
    ossa_skin_kernel kernel;
    uint32_t threads;
    bench_timing t;               /* seconds per full skin */
    double vps;             /* vertices per second (file vertices, padding excluded) */
    double bytes_per_vertex;
    int streaming;
    double triad_gbps;      /* with the same number of threads */
    double limit_vps, fraction; /* fraction: median of per-round fractions (with the triad) */
    double ratio;               /* vs libcal3d's physique: median of per-round ratios */
    double max_err;         /* vs the scalar kernel, and the scalar kernel vs the scalar API */
} skin_result;

typedef struct pose_result {
    uint32_t bones;
    bench_timing ossa, mixer, cal3d;
    double speedup, mixer_speedup; /* libcal3d / Ossa, medians of per-round ratios */
    int has_cal3d;
} pose_result;

typedef struct bench_report {
    char cpu[256];
    long cores;
    char date[32];
    const char *features[8];
    size_t feature_count;
    char source[512];
    uint32_t vertices, submeshes, max_influences, bone_count;
    uint32_t exact_submeshes; /* skinned in the exact per-influence form (C3S, SKM) */
    uint64_t influences_total;
    double stream_bytes;
    ossa_skin_kernel kernels[OSSA_SKIN_KERNEL_COUNT];
    size_t kernel_count;
    uint32_t thread_counts[2];
    size_t thread_count_n;
    double triad_gbps[2];   /* per entry of thread_counts */
    bench_timing triad[2];
    size_t triad_n;         /* floats in each of a, b, c */
    skin_result skin[MAX_RESULTS];
    size_t skin_count;
    pose_result pose[POSE_SIZES];
    int has_cal3d;
    char cal3d_note[256];
    bench_timing cal3d_skin;
    double cal3d_vps, cal3d_err;
    bench_load load;
} bench_report;

static void cpu_model(char *out, size_t size)
{
    snprintf(out, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10))
            continue;
        const char *colon = strchr(line, ':');
        if (!colon)
            continue;
        colon++;
        while (*colon == ' ' || *colon == '\t')
            colon++;
        snprintf(out, size, "%s", colon);
        out[strcspn(out, "\n")] = 0;
        break;
    }
    fclose(f);
}

/* ---- the benchmark ------------------------------------------------------------------------- */


/* Fills ctx with the model's clip 0 (or the rest pose) at time `time`, via the scalar API. */
static int model_palette(const ossa_model *m, float time, float *palette)
{
    size_t nb = m->bone_count;
    float *buf = malloc(nb * 20 * sizeof(float) + sizeof(float));
    if (!buf)
        return 0;
    float *lt = buf, *lr = lt + 3 * nb, *ls = lr + 4 * nb, *mt = ls + 3 * nb, *mr = mt + 3 * nb,
          *ms = mr + 4 * nb;
    ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
    if (m->clip_count) {
        const ossa_clip *c = &m->clips[0];
        ossa_sample_clip(m, c, ossa_clip_wrap_time(c, time), OSSA_WRAP_LOOP, lt, lr, ls,
                         m->bone_count, NULL);
    }
    ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
    ossa_skin_palette(m, mt, mr, ms, palette, m->bone_count, NULL);
    free(buf);
    return 1;
}

static int bench_pose(const bench_opts *o, bench_report *r, size_t which)
{
    pose_result *res = &r->pose[which];
    res->bones = pose_bones[which];
    bench_model_params params = {0, 0, res->bones, 31, 2.0f, BENCH_SEED + res->bones, 1};
    ossa_model *m = NULL;
    ossa_error err;
    if (bench_synthetic_model(&params, &m, &err) != OSSA_OK) {
        fprintf(stderr, "ossa bench: %s\n", err.message);
        return 0;
    }
    pose_ctx p;
    memset(&p, 0, sizeof p);
    int ok = ossa_rt_skeleton_create(m, &p.skel, &err) == OSSA_OK &&
             ossa_rt_clip_create(m, &m->clips[0], &p.clip, &err) == OSSA_OK &&
             ossa_sample_cache_create(m->clips[0].track_count, &p.cache, &err) == OSSA_OK &&
             ossa_mixer_create(m, NULL, &p.mixer, &err) == OSSA_OK &&
             ossa_soa_pose_create(m->bone_count, &p.local, NULL) == OSSA_OK &&
             ossa_soa_pose_create(m->bone_count, &p.model, NULL) == OSSA_OK;
    p.palette_floats = 12 * (size_t)m->bone_count;
    p.palette = ok ? malloc(p.palette_floats * sizeof(float)) : NULL;
    p.duration = m->clips[0].duration;
    if (!ok || !p.palette) {
        fprintf(stderr, "ossa bench: pose set-up failed: %s\n", err.message);
        pose_ctx_release(&p);
        ossa_model_destroy(m);
        return 0;
    }
    ossa_rt_skeleton_rest(p.skel, &p.local);
    ok = ossa_mixer_blend_cycle(p.mixer, 0, 1.0f, 0.0f, NULL) == OSSA_OK;
    ossa_mixer_update(p.mixer, 0.0f);
    bench_subject subs[3] = {{.fn = pose_sample_once, .ctx = &p},
                             {.fn = pose_mixer_once, .ctx = &p}};
    size_t n = 2;
#ifdef OSSA_BENCH_CAL3D
    char msg[256];
    p.cal = bench_cal3d_new(m, 0, msg, sizeof msg);
    if (p.cal) {
        subs[n++] = (bench_subject){.fn = pose_cal3d_once, .ctx = &p};
        res->has_cal3d = 1;
    } else {
        snprintf(r->cal3d_note, sizeof r->cal3d_note, "%s", msg);
    }
#endif
    bench_measure_rounds(subs, n, o->runs, &r->load);
    res->ossa = bench_timing_of(&subs[0], o->runs);
    res->mixer = bench_timing_of(&subs[1], o->runs);
    if (res->has_cal3d) {
        res->cal3d = bench_timing_of(&subs[2], o->runs);
        res->speedup = bench_median_ratio(subs[2].samples, subs[0].samples, o->runs);
        res->mixer_speedup = bench_median_ratio(subs[2].samples, subs[1].samples, o->runs);
    }
    if (!ok || p.failed)
        fprintf(stderr, "ossa bench: a pose job failed (%u bones)\n", res->bones);
    ok = ok && !p.failed;
    pose_ctx_release(&p);
    ossa_model_destroy(m);
    return ok;
}

/* Triad arrays together as large as the mesh's streams (at least 4096 floats each). */
static int triad_setup(triad_ctx *t, const bench_report *r)
{
    size_t n = (size_t)(r->stream_bytes / (3 * sizeof(float)));
    if (n < 4096)
        n = 4096;
    if (n > UINT32_MAX - 64)
        n = UINT32_MAX - 64;
    /* allocated like the mesh's streams (huge pages for large arrays), so the bound is fair */
    *t = (triad_ctx){ossa_skin_buffer_alloc(n * sizeof(float)),
                     ossa_skin_buffer_alloc(n * sizeof(float)),
                     ossa_skin_buffer_alloc(n * sizeof(float)), n, 3.0f, NULL};
    if (!t->a || !t->b || !t->c)
        return 0;
    for (size_t i = 0; i < n; i++) {
        t->b[i] = (float)(i & 1023);
        t->c[i] = 0.5f;
    }
    return 1;
}

static void triad_release(triad_ctx *t)
{
    ossa_skin_buffer_free(t->a);
    ossa_skin_buffer_free(t->b);
    ossa_skin_buffer_free(t->c);
}

static int bench_skin(const bench_opts *o, const ossa_model *m, bench_report *r)
{
    skin_ctx s, skins[MAX_RESULTS];
    memset(&s, 0, sizeof s);
    triad_ctx tri = {0}, triads[2];
    ossa_skin_pool *pools[2] = {NULL, NULL};
    bench_subject subs[2 + MAX_RESULTS + 1];
    size_t ns = 0;
#ifdef OSSA_BENCH_CAL3D
    cal_skin_ctx cal = {NULL, NULL};
#endif
    int ok = 1;
    float *ref_pos = NULL, *ref_nrm = NULL;
    /* The character instance builds the skin meshes, as a program would; the jobs are timed
     * here kernel by kernel over its meshes. */
    ossa_instance *inst = NULL;
    ossa_error err;
    if (ossa_instance_create(m, NULL, &inst, &err) != OSSA_OK) {
        fprintf(stderr, "ossa bench: %s\n", err.message);
        return 0;
    }
    uint32_t parts = ossa_instance_part_count(inst);
    s.meshes = calloc(parts ? parts : 1, sizeof *s.meshes);
    s.sources = calloc(parts ? parts : 1, sizeof *s.sources);
    s.pos = calloc(parts ? parts : 1, sizeof *s.pos);
    s.nrm = calloc(parts ? parts : 1, sizeof *s.nrm);
    float *palette = malloc(12 * sizeof(float) * (m->bone_count ? m->bone_count : 1));
    if (!s.meshes || !s.sources || !s.pos || !s.nrm || !palette ||
        !model_palette(m, 0.37f, palette)) {
        ok = 0;
        goto done;
    }
    s.palette = palette;
    s.store = o->store;
    s.palette_size = m->bone_count;
    size_t k = 0, max_out = 0;
    for (uint32_t i = 0; i < parts; i++) {
        ossa_instance_part part;
        ossa_instance_part_info(inst, i, &part);
        if (!part.skin && !part.vertex_count)
            continue; /* an empty submesh: nothing to skin */
        if (!part.skin) {
            fprintf(stderr, "ossa bench: skin mesh of mesh %u submesh %u: %s\n", part.mesh,
                    part.submesh, ossa_status_name(part.skin_status));
            ok = 0;
            goto done;
        }
        const ossa_submesh *sm = part.source;
        s.meshes[k] = part.skin;
        s.sources[k] = sm;
        size_t out = part.output_count;
        s.pos[k] = ossa_skin_buffer_alloc(3 * sizeof(float) * out);
        s.nrm[k] = ossa_skin_buffer_alloc(3 * sizeof(float) * out);
        s.count = ++k;
        if (!s.pos[k - 1] || !s.nrm[k - 1]) {
            ok = 0;
            goto done;
        }
        if (out > max_out)
            max_out = out;
        uint64_t rd, wr;
        ossa_skin_mesh_traffic(part.skin, &rd, &wr);
        r->stream_bytes += (double)rd + (double)wr;
        r->vertices += sm->vertex_count;
        r->influences_total += sm->influence_start[sm->vertex_count];
        if (sm->max_influences > r->max_influences)
            r->max_influences = sm->max_influences;
        r->exact_submeshes += (uint32_t)ossa_skin_mesh_exact(part.skin);
    }
    r->submeshes = parts;
    if (!r->vertices) {
        fprintf(stderr, "ossa bench: the model has no vertices to skin\n");
        ok = 0;
        goto done;
    }
    /* Every subject (the triad and each kernel on 1 and T threads, libcal3d's physique) is
     * timed in interleaved rounds; pools live through all rounds, one per thread count. */
    if (!triad_setup(&tri, r)) {
        fprintf(stderr, "ossa bench: STREAM triad: out of memory\n");
        ok = 0;
        goto done;
    }
    r->triad_n = tri.n;
    for (size_t ti = 0; ti < r->thread_count_n; ti++) {
        if (r->thread_counts[ti] > 1 &&
            ossa_skin_pool_create(r->thread_counts[ti], &pools[ti], NULL) != OSSA_OK) {
            fprintf(stderr, "ossa bench: cannot start %u threads\n", r->thread_counts[ti]);
            ok = 0;
            goto done;
        }
        triads[ti] = tri;
        triads[ti].pool = pools[ti];
        subs[ns++] = (bench_subject){.fn = triad_once, .ctx = &triads[ti],
                                          .threads = r->thread_counts[ti]};
    }
    for (size_t ki = 0; ki < r->kernel_count; ki++) {
        for (size_t ti = 0; ti < r->thread_count_n; ti++) {
            skin_result *res = &r->skin[r->skin_count];
            res->kernel = r->kernels[ki];
            res->threads = r->thread_counts[ti];
            skins[r->skin_count] = s;
            skins[r->skin_count].kernel = res->kernel;
            skins[r->skin_count].pool = pools[ti];
            subs[ns++] = (bench_subject){.fn = skin_once, .ctx = &skins[r->skin_count],
                                              .threads = res->threads};
            r->skin_count++;
        }
    }
#ifdef OSSA_BENCH_CAL3D
    char msg[256];
    cal.cal = bench_cal3d_new(m, m->clip_count ? 0 : -1, msg, sizeof msg);
    cal.out = malloc(6 * sizeof(float) * (r->vertices ? r->vertices : 1));
    if (cal.cal && cal.out) {
        bench_cal3d_pose(cal.cal, 0.37f); /* one frame forward */
        subs[ns++] = (bench_subject){.fn = cal_skin_once, .ctx = &cal};
        r->has_cal3d = 1;
    } else if (!cal.cal) {
        snprintf(r->cal3d_note, sizeof r->cal3d_note, "%s", msg);
    }
#endif
    bench_measure_rounds(subs, ns, o->runs, &r->load);

    const bench_subject *cal_sub = r->has_cal3d ? &subs[ns - 1] : NULL;
    if (cal_sub) {
        r->cal3d_skin = bench_timing_of(cal_sub, o->runs);
        r->cal3d_vps = (double)r->vertices / r->cal3d_skin.median;
    }
    for (size_t ti = 0; ti < r->thread_count_n; ti++) {
        r->triad[ti] = bench_timing_of(&subs[ti], o->runs);
        /* 16 bytes an element: read b and c, write a, and the write-allocate read of a. */
        r->triad_gbps[ti] = 16.0 * (double)tri.n / r->triad[ti].median * 1e-9;
    }
    ok = tri.a[tri.n - 1] == tri.b[tri.n - 1] + 3.0f * tri.c[tri.n - 1];
    /* Reference outputs: the scalar API (file order), to check every kernel's figures come
     * from correct work. */
    size_t max_v = 0;
    for (size_t i = 0; i < s.count; i++)
        if (ossa_skin_mesh_vertex_count(s.meshes[i]) > max_v)
            max_v = ossa_skin_mesh_vertex_count(s.meshes[i]);
    ref_pos = malloc(3 * sizeof(float) * (max_v ? max_v : 1));
    ref_nrm = malloc(3 * sizeof(float) * (max_v ? max_v : 1));
    if (!ok || !ref_pos || !ref_nrm) {
        ok = 0;
        goto done;
    }
    for (size_t i = 0; i < r->skin_count; i++) {
        skin_result *res = &r->skin[i];
        const bench_subject *sub = &subs[r->thread_count_n + i];
        size_t ti = res->threads > 1 ? r->thread_count_n - 1 : 0;
        res->t = bench_timing_of(sub, o->runs);
        res->vps = (double)r->vertices / res->t.median;
        double bytes = skin_bytes(&s, res->kernel, &res->streaming);
        res->bytes_per_vertex = bytes / (double)(r->vertices ? r->vertices : 1);
        res->triad_gbps = r->triad_gbps[ti];
        res->limit_vps = res->triad_gbps * 1e9 / res->bytes_per_vertex;
        /* per round: (kernel's bytes / its time) / (triad's bytes / its time) */
        res->fraction = bytes / (16.0 * (double)tri.n) *
                        bench_median_ratio(subs[ti].samples, sub->samples, o->runs);
        if (cal_sub)
            res->ratio = bench_median_ratio(cal_sub->samples, sub->samples, o->runs);
        /* Run it once more so the outputs hold its result: compare with the scalar API. */
        skin_once(&skins[i]);
        s.failed |= skins[i].failed;
        for (k = 0; k < s.count; k++) {
            const ossa_submesh *sm = s.sources[k];
            ossa_skin_submesh_scalar(sm, palette, ref_pos, ref_nrm, sm->vertex_count, NULL);
            const uint32_t *remap = ossa_skin_mesh_remap(s.meshes[k]);
            for (uint32_t v = 0; v < sm->vertex_count; v++) {
                double e1 = max_diff(s.pos[k] + 3 * (size_t)remap[v], ref_pos + 3 * v, 3);
                double e2 = max_diff(s.nrm[k] + 3 * (size_t)remap[v], ref_nrm + 3 * v, 3);
                if (e1 > res->max_err)
                    res->max_err = e1;
                if (e2 > res->max_err)
                    res->max_err = e2;
            }
        }
    }
    if (s.failed) {
        fprintf(stderr, "ossa bench: a skin job failed\n");
        ok = 0;
    }
#ifdef OSSA_BENCH_CAL3D
    /* libcal3d's mesh against the scalar API at its mixer's time */
    if (ok && r->has_cal3d && model_palette(m, bench_cal3d_time(cal.cal), palette)) {
        size_t base = 0;
        for (uint32_t i = 0; i < m->mesh_count; i++) {
            for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
                const ossa_submesh *sm = &m->meshes[i].submeshes[j];
                ossa_skin_submesh_scalar(sm, palette, ref_pos, ref_nrm, sm->vertex_count, NULL);
                for (uint32_t v = 0; v < sm->vertex_count; v++) {
                    const float *cv = cal.out + 6 * (base + v);
                    double e1 = max_diff(cv, ref_pos + 3 * v, 3);
                    double e2 = max_diff(cv + 3, ref_nrm + 3 * v, 3);
                    if (e1 > r->cal3d_err)
                        r->cal3d_err = e1;
                    if (e2 > r->cal3d_err)
                        r->cal3d_err = e2;
                }
                base += sm->vertex_count;
            }
        }
    }
#endif
done:
    for (size_t i = 0; i < s.count; i++) {
        ossa_skin_buffer_free(s.pos[i]);
        ossa_skin_buffer_free(s.nrm[i]);
    }
    free(s.meshes);
    free(s.sources);
    ossa_instance_destroy(inst);
    free(s.pos);
    free(s.nrm);
    free(palette);
    free(ref_pos);
    free(ref_nrm);
    for (size_t ti = 0; ti < r->thread_count_n; ti++)
        ossa_skin_pool_destroy(pools[ti]);
    triad_release(&tri);
#ifdef OSSA_BENCH_CAL3D
    free(cal.out);
    bench_cal3d_free(cal.cal);
#endif
    return ok;
}

/* ---- output -------------------------------------------------------------------------------- */

/* Figures to 6 significant digits; non-finite numbers cannot be written in JSON: they come out
 * as null (and fail the test). */
static json_t *num(double v)
{
    return isfinite(v) ? json_real(ossa_cli_json_round6(v)) : json_null();
}

static json_t *timing_json(bench_timing t)
{
    return json_pack("{s:o, s:o, s:o, s:o}", "median", num(t.median), "min", num(t.min), "max",
                     num(t.max), "cpu_median", num(t.cpu_median));
}

static json_t *load_json(const double load[3])
{
    return load[0] < 0 ? json_null() : json_pack("[o, o, o]", num(load[0]), num(load[1]),
                                                 num(load[2]));
}

/* The warning both outputs give when a round ran short of CPU; "" when none did. */
static const char *contention_warning(const bench_load *load, char *buf, size_t size)
{
    if (!load->contended)
        return "";
    snprintf(buf, size,
             "the machine was busy: in %u of %u rounds a subject got less than %.0f%% of a CPU "
             "per thread (lowest %.0f%%; load average %.2f at the start, %.2f at the end); "
             "ratios are taken per round, but absolute figures may be low",
             load->contended, load->rounds, 100.0 * BENCH_CONTENDED_SHARE,
             100.0 * load->min_cpu_share, load->start[0], load->end[0]);
    return buf;
}

static const skin_result *best_single(const bench_report *r)
{
    const skin_result *best = NULL;
    for (size_t i = 0; i < r->skin_count; i++)
        if (r->skin[i].threads == 1 && (!best || r->skin[i].vps > best->vps))
            best = &r->skin[i];
    return best;
}

static void print_json(FILE *out, const bench_opts *o, const bench_report *r)
{
    json_t *features = json_array(), *kernels = json_array(), *runs = json_array();
    for (size_t i = 0; i < r->feature_count; i++)
        json_array_append_new(features, json_string(r->features[i]));
    for (size_t i = 0; i < r->kernel_count; i++)
        json_array_append_new(kernels, json_string(ossa_skin_kernel_name(r->kernels[i])));
    for (size_t k = 0; k < r->thread_count_n; k++)
        json_array_append_new(runs, json_pack(
            "{s:i, s:o, s:o, s:o}", "threads", (json_int_t)r->thread_counts[k], "triad_gbps",
            num(r->triad_gbps[k]), "stream_convention_gbps", num(r->triad_gbps[k] * 12.0 / 16.0),
            "seconds", timing_json(r->triad[k])));
    json_t *skinning = json_array();
    for (size_t i = 0; i < r->skin_count; i++) {
        const skin_result *sr = &r->skin[i];
        json_t *e = json_pack(
            "{s:s, s:i, s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:o}", "kernel",
            ossa_skin_kernel_name(sr->kernel), "threads", (json_int_t)sr->threads,
            "vertices_per_second", num(sr->vps), "ns_per_vertex", num(1e9 / sr->vps), "seconds",
            timing_json(sr->t), "bytes_per_vertex", num(sr->bytes_per_vertex),
            "streaming_stores", sr->streaming != 0, "triad_gbps", num(sr->triad_gbps),
            "memory_bound_vertices_per_second", num(sr->limit_vps), "fraction_of_memory_bound",
            num(sr->fraction));
        if (e && r->has_cal3d)
            json_object_set_new(e, "ratio_vs_cal3d", num(sr->ratio));
        if (e)
            json_object_set_new(e, "max_error_vs_scalar", num(sr->max_err));
        json_array_append_new(skinning, e);
    }
    json_t *pose = json_array();
    for (size_t i = 0; i < POSE_SIZES; i++) {
        const pose_result *p = &r->pose[i];
        json_t *e = json_pack("{s:i, s:o, s:o, s:o, s:o}", "bones", (json_int_t)p->bones,
                              "ossa_seconds", num(p->ossa.median), "ossa_mixer_seconds",
                              num(p->mixer.median), "ossa", timing_json(p->ossa), "ossa_mixer",
                              timing_json(p->mixer));
        if (e && p->has_cal3d) {
            json_object_set_new(e, "cal3d_seconds", num(p->cal3d.median));
            json_object_set_new(e, "cal3d", timing_json(p->cal3d));
            json_object_set_new(e, "speedup_vs_cal3d", num(p->speedup));
            json_object_set_new(e, "mixer_speedup_vs_cal3d", num(p->mixer_speedup));
        }
        json_array_append_new(pose, e);
    }
    json_t *cal3d = json_pack("{s:b}", "available", r->has_cal3d != 0);
    if (cal3d && r->has_cal3d) {
        const skin_result *best = best_single(r);
        json_object_set_new(cal3d, "vertices_per_second", num(r->cal3d_vps));
        json_object_set_new(cal3d, "seconds", timing_json(r->cal3d_skin));
        json_object_set_new(cal3d, "best_kernel",
                            json_string(best ? ossa_skin_kernel_name(best->kernel) : ""));
        json_object_set_new(cal3d, "best_kernel_ratio", num(best ? best->ratio : 0.0));
        json_object_set_new(cal3d, "max_error_vs_ossa", num(r->cal3d_err));
    } else if (cal3d) {
        json_object_set_new(cal3d, "note", ossa_cli_json_text(r->cal3d_note[0] ? r->cal3d_note
                                                       : "libcal3d was not found at build time"));
    }
    json_t *doc = json_pack(
        "{s:i, s:s, s:{s:o, s:I, s:o, s:s, s:s},"
        " s:{s:i, s:i, s:i, s:i, s:i, s:o, s:s, s:i, s:f, s:I},"
        " s:{s:i, s:i, s:i, s:i, s:I, s:i, s:s, s:o}, s:o,"
        " s:{s:I, s:i, s:o, s:o}, s:o, s:o, s:o}",
        "ossa_bench", 1, "date", r->date,
        "machine", "cpu", ossa_cli_json_text(r->cpu), "cores", (json_int_t)r->cores,
        "features", features,
        "build_type", OSSA_BUILD_TYPE, "compiler", __VERSION__,
        "options", "vertices", (json_int_t)o->vertices, "influences", (json_int_t)o->influences,
        "bones", (json_int_t)o->bones, "threads", (json_int_t)o->threads, "runs",
        (json_int_t)o->runs, "model",
        o->model_count ? ossa_cli_json_text(r->source) : json_null(), "store",
        store_names[o->store], "warmup_runs", (json_int_t)BENCH_WARMUP_RUNS, "min_run_seconds",
        (double)BENCH_RUN_SECONDS, "seed", (json_int_t)BENCH_SEED,
        "mesh", "vertices", (json_int_t)r->vertices, "submeshes", (json_int_t)r->submeshes,
        "bones", (json_int_t)r->bone_count, "max_influences", (json_int_t)r->max_influences,
        "influences", (json_int_t)r->influences_total, "exact_submeshes",
        (json_int_t)r->exact_submeshes, "skinning",
        !r->exact_submeshes ? "blend" : r->exact_submeshes == r->submeshes ? "exact" : "mixed",
        "stream_bytes", num(r->stream_bytes),
        "kernels", kernels,
        "bandwidth", "array_bytes", (json_int_t)(3 * r->triad_n * sizeof(float)),
        "bytes_per_element", 16, "triad_gbps", num(r->triad_gbps[0]), "runs", runs,
        "skinning", skinning, "pose", pose, "cal3d", cal3d);
    char warning[512];
    json_t *load = json_pack("{s:o, s:o, s:i, s:i, s:o}", "load_average_start",
                             load_json(r->load.start), "load_average_end",
                             load_json(r->load.end), "rounds", (json_int_t)r->load.rounds,
                             "contended_rounds", (json_int_t)r->load.contended,
                             "min_cpu_share", num(r->load.min_cpu_share));
    if (doc && load) {
        json_object_set_new(doc, "load", load);
        json_object_set_new(doc, "warnings",
                            r->load.contended ? json_pack("[o]", ossa_cli_json_text(
                                contention_warning(&r->load, warning, sizeof warning)))
                                              : json_array());
    } else {
        json_decref(load);
    }
    ossa_cli_json_print(out, doc, true);
}

static void print_table(FILE *out, const bench_opts *o, const bench_report *r)
{
    fprintf(out, "ossa bench  %s  %s (%ld cores)  build %s\n", r->date, r->cpu, r->cores,
            OSSA_BUILD_TYPE);
    fprintf(out, "mesh: %s, %u vertices in %u submeshes, %u bones, up to %u influences; "
                 "median of %u runs\n\n",
            o->model_count ? r->source : "synthetic", r->vertices, r->submeshes, r->bone_count,
            r->max_influences, o->runs);
    if (r->load.start[0] >= 0)
        fprintf(out, "load average %.2f at the start, %.2f at the end; %u of %u rounds "
                     "contended\n\n",
                r->load.start[0], r->load.end[0], r->load.contended, r->load.rounds);
    char warning[512];
    if (r->load.contended)
        fprintf(out, "warning: %s\n\n", contention_warning(&r->load, warning, sizeof warning));
    if (r->exact_submeshes)
        fprintf(out, "skinning: exact per-influence form (C3S/SKM offsets that disagree) in %u of "
                     "%u submeshes, linear blend in the rest\n\n",
                r->exact_submeshes, r->submeshes);
    for (size_t k = 0; k < r->thread_count_n; k++)
        fprintf(out, "STREAM triad, %u thread%s, %.1f MB arrays: %.2f GB/s (16 B/element incl. "
                     "write-allocate; %.2f GB/s in STREAM's 12 B convention)\n",
                r->thread_counts[k], r->thread_counts[k] > 1 ? "s" : "",
                3.0 * (double)r->triad_n * sizeof(float) / 1e6, r->triad_gbps[k],
                r->triad_gbps[k] * 0.75);
    fprintf(out, "\n%-8s %7s %12s %8s %9s %8s %12s %8s %10s %9s\n", "kernel", "threads",
            "Mvertices/s", "ns/vert", "B/vertex", "stores", "bound Mv/s", "of bound",
            r->has_cal3d ? "x libcal3d" : "", "max err");
    for (size_t i = 0; i < r->skin_count; i++) {
        const skin_result *s = &r->skin[i];
        char ratio[32] = "";
        if (r->has_cal3d)
            snprintf(ratio, sizeof ratio, "%.2f", s->ratio);
        fprintf(out, "%-8s %7u %12.2f %8.2f %9.1f %8s %12.2f %7.0f%% %10s %9.2g\n",
                ossa_skin_kernel_name(s->kernel), s->threads, s->vps * 1e-6, 1e9 / s->vps,
                s->bytes_per_vertex, s->streaming ? "stream" : "cached", s->limit_vps * 1e-6,
                100.0 * s->fraction, ratio, s->max_err);
    }
    if (r->has_cal3d)
        fprintf(out, "%-8s %7u %12.2f %8.2f   (CalPhysique::calculateVerticesAndNormals; max "
                     "difference from Ossa %.2g)\n",
                "libcal3d", 1u, r->cal3d_vps * 1e-6, 1e9 / r->cal3d_vps, r->cal3d_err);
    else
        fprintf(out, "libcal3d: not measured (%s)\n",
                r->cal3d_note[0] ? r->cal3d_note : "not found at build time");
    fprintf(out, "\npose (sample + local_to_model + palette), microseconds per evaluation:\n");
    fprintf(out, "%6s %10s %12s %10s %10s\n", "bones", "ossa", "ossa mixer",
            r->pose[0].has_cal3d ? "libcal3d" : "", r->pose[0].has_cal3d ? "speedup" : "");
    for (size_t i = 0; i < POSE_SIZES; i++) {
        const pose_result *p = &r->pose[i];
        fprintf(out, "%6u %10.2f %12.2f", p->bones, p->ossa.median * 1e6, p->mixer.median * 1e6);
        if (p->has_cal3d)
            fprintf(out, " %10.2f %9.1fx", p->cal3d.median * 1e6, p->speedup);
        fputc('\n', out);
    }
}

/* ---- command ------------------------------------------------------------------------------- */

static int parse_u32(const char *opt, const char *arg, uint32_t lo, uint32_t hi, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long v = arg ? strtoul(arg, &end, 10) : 0;
    if (!arg || !*arg || *end || errno || arg[0] == '-' || v < lo || v > hi) {
        fprintf(stderr, "ossa bench: %s needs a whole number in %u..%u\n", opt, lo, hi);
        return 0;
    }
    *out = (uint32_t)v;
    return 1;
}

static const char bench_usage[] =
    "ossa bench [--vertices N] [--influences K] [--bones B] [--threads T] [--runs R] [--json]\n"
    "           [--model FILE]... [--store auto|cached|stream] [--crowd N[,N...]] [--frames F]";

int ossa_cmd_bench(int argc, char **argv)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1)
        cores = 1;
    bench_opts o = {.vertices = 100000, .influences = 4, .bones = 64,
                    .threads = cores > MAX_THREADS ? MAX_THREADS : (uint32_t)cores, .runs = 7,
                    .store = OSSA_SKIN_STORE_AUTO, .crowd = {.frames = 16}};
    o.models = calloc((size_t)argc + 1, sizeof *o.models);
    if (!o.models)
        return 1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int ok = 1;
        if (!strcmp(a, "--json"))
            o.json = 1;
        else if (!strcmp(a, "--vertices"))
            ok = parse_u32(a, v, 1, 1u << 22, &o.vertices), o.vertices_set = true, i++;
        else if (!strcmp(a, "--crowd"))
            ok = parse_sizes(v, &o.crowd), i++;
        else if (!strcmp(a, "--frames"))
            ok = parse_u32(a, v, 1, 256, &o.crowd.frames), i++;
        else if (!strcmp(a, "--influences"))
            ok = parse_u32(a, v, 1, 64, &o.influences), i++;
        else if (!strcmp(a, "--bones"))
            ok = parse_u32(a, v, 1, 4096, &o.bones), i++;
        else if (!strcmp(a, "--threads"))
            ok = parse_u32(a, v, 1, MAX_THREADS, &o.threads), i++;
        else if (!strcmp(a, "--runs"))
            ok = parse_u32(a, v, 1, 64, &o.runs), i++;
        else if (!strcmp(a, "--store") && v && !strcmp(v, "auto"))
            o.store = OSSA_SKIN_STORE_AUTO, i++;
        else if (!strcmp(a, "--store") && v && !strcmp(v, "cached"))
            o.store = OSSA_SKIN_STORE_CACHED, i++;
        else if (!strcmp(a, "--store") && v && !strcmp(v, "stream"))
            o.store = OSSA_SKIN_STORE_STREAM, i++;
        else if (!strcmp(a, "--model") && v)
            o.models[o.model_count++] = v, i++;
        else {
            fprintf(stderr, "ossa bench: unknown or incomplete option '%s'\nusage: %s\n", a,
                    bench_usage);
            ok = 0;
        }
        if (!ok) {
            free(o.models);
            return 2;
        }
    }
    if (!o.model_count && o.influences > o.bones) {
        fprintf(stderr, "ossa bench: --influences %u needs at least as many bones\n",
                o.influences);
        free(o.models);
        return 2;
    }

    bench_report *r = calloc(1, sizeof *r);
    ossa_model *m = NULL;
    int rc = 1;
    if (!r)
        goto done;
    cpu_model(r->cpu, sizeof r->cpu);
    r->cores = cores;
    time_t now = time(NULL);
    struct tm tm;
    strftime(r->date, sizeof r->date, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse2"))
        r->features[r->feature_count++] = "sse2";
    if (__builtin_cpu_supports("avx2"))
        r->features[r->feature_count++] = "avx2";
    if (__builtin_cpu_supports("fma"))
        r->features[r->feature_count++] = "fma";
    if (__builtin_cpu_supports("avx512f"))
        r->features[r->feature_count++] = "avx512f";
    for (int k = OSSA_SKIN_KERNEL_SCALAR; k < OSSA_SKIN_KERNEL_COUNT; k++)
        if (ossa_skin_kernel_available((ossa_skin_kernel)k))
            r->kernels[r->kernel_count++] = (ossa_skin_kernel)k;
    r->thread_counts[r->thread_count_n++] = 1;
    if (o.threads > 1)
        r->thread_counts[r->thread_count_n++] = o.threads;

    if (o.model_count) {
        m = ossa_cli_load(o.models, o.model_count, NULL);
        if (!m)
            goto done;
        if (!m->bone_count) {
            fprintf(stderr, "ossa bench: the model has no skeleton\n");
            goto done;
        }
        snprintf(r->source, sizeof r->source, "%s", m->source ? m->source : o.models[0]);
    } else {
        uint32_t vertices = o.crowd.size_count && !o.vertices_set ? CROWD_DEFAULT_VERTICES
                                                                  : o.vertices;
        bench_model_params params = {vertices, o.influences, o.bones, 31, 2.0f, BENCH_SEED,
                                     o.crowd.size_count ? CROWD_SYNTHETIC_CLIPS : 1};
        ossa_error err;
        if (bench_synthetic_model(&params, &m, &err) != OSSA_OK) {
            fprintf(stderr, "ossa bench: %s\n", err.message);
            goto done;
        }
        snprintf(r->source, sizeof r->source, "synthetic");
    }
    r->bone_count = m->bone_count;
    if (o.crowd.size_count) {
        o.crowd.threads = o.threads;
        o.crowd.runs = o.runs;
        o.crowd.json = o.json;
        o.crowd.source = r->source;
        o.crowd.cpu = r->cpu;
        o.crowd.cores = r->cores;
        o.crowd.date = r->date;
        rc = bench_crowd_run(&o.crowd, m, stdout);
        goto done;
    }
    bench_load_begin(&r->load);
    if (!bench_skin(&o, m, r))
        goto done;
    ossa_model_destroy(m);
    m = NULL;
    for (size_t i = 0; i < POSE_SIZES; i++)
        if (!bench_pose(&o, r, i))
            goto done;
    bench_load_end(&r->load);
    if (o.json)
        print_json(stdout, &o, r);
    else
        print_table(stdout, &o, r);
    rc = fflush(stdout) == 0 ? 0 : 1;
done:
    ossa_model_destroy(m);
    free(r);
    free(o.models);
    return rc;
}
