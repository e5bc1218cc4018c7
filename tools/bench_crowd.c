/* `ossa bench --crowd` (see bench_crowd.h). A crowd is one model's character instances, each
 * with its own output buffers. Character i plays clip i mod clips from a seeded phase at a seeded
 * speed (0.75..1.25, the mixer's time factor); every fourth one cross-fades to the next clip over
 * 0.25 s every 2 s of frames (models with one clip only play it). A frame is, for every
 * character: mixer update, pose (sample, local to model, palette), cloth, skinning of every part.
 * libcal3d runs the same script on CalModels of one shared core. On T threads a crowd of at
 * least T characters is split across characters (the pool hands out small chunks of them, one
 * character each at the least), unless it has fewer than 2 T and a part large enough for the
 * instance to split: then, as a crowd of fewer than T, it runs its characters in turn, each
 * splitting its large parts over the pool (if it has such parts). Fewer characters than threads
 * are split one a piece, and a dispatch wakes no more workers than it has pieces (when every
 * worker woke, 2 and 4 characters on 16 threads ran at 0.43x and 0.62x of one thread). */
#define _DEFAULT_SOURCE
#include "bench_crowd.h"
#include "bench_crowd_members.h"
#include "bench_crowd_report.h"
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench_timing.h"
#include "cli.h"
#include "ossa/instance.h"
#include "ossa/skin.h"
#ifdef OSSA_BENCH_CAL3D
#include "bench_cal3d.h"
#endif

#define CROWD_MAX_FRAMES 256u
#define CROWD_ROUND_SECONDS 0.5 /* frames per round are cut so one subject's round lasts ~this */
/* Untimed frames before each round, at least one, until this long has passed: a pool whose
 * second CPU idled through the other subjects' rounds took a few hundred microseconds to run at
 * speed again (2 threads on 10 cally characters: 0.6x one thread at 16 timed frames a round,
 * 1.9x at 256). */
#define CROWD_WARM_SECONDS 0.003

#if !defined(__GLIBC__) || (__GLIBC__ == 2 && __GLIBC_MINOR__ < 33)
static long resident_kb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}
#endif

/* Bytes the C heap hands out now (glibc's count, exact and unaffected by memory freed before and
 * reused); without glibc, resident memory. */
static double heap_bytes(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
    struct mallinfo2 mi = mallinfo2();
    return (double)mi.uordblks + (double)mi.hblkhd;
#else
    return 1024.0 * (double)resident_kb();
#endif
}

/* ---- timing ------------------------------------------------------------------------------ */

typedef struct crowd_subject {
    bench_fn frame;
    ossa_skin_pool *pool;    /* the Ossa subjects' threads (NULL: 1) */
    bool ossa;
    uint32_t threads;
    uint32_t busy;           /* threads a frame keeps busy (crowd_busy_threads; 0: threads) */
    uint32_t frames;         /* timed frames per round */
    double *samples;         /* every timed frame, runs x frames */
    uint32_t count;
    double round_median[BENCH_MAX_RUNS];
    double cpu_per_frame[BENCH_MAX_RUNS];
} crowd_subject;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *x, uint32_t n)
{
    qsort(x, n, sizeof *x, cmp_double);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

static crowd_figures figures_of(const crowd_subject *s, uint32_t runs, const crowd_result *r)
{
    crowd_figures f = {.threads = s->threads};
    double *x = malloc(s->count * sizeof *x);
    double cpu[BENCH_MAX_RUNS];
    if (!x)
        return f;
    memcpy(x, s->samples, s->count * sizeof *x);
    f.median = median_of(x, s->count); /* sorts x */
    f.min = x[0];
    f.max = x[s->count - 1];
    uint32_t k = (uint32_t)ceil(0.95 * s->count);
    f.p95 = x[k ? k - 1 : 0];
    free(x);
    memcpy(cpu, s->cpu_per_frame, runs * sizeof cpu[0]);
    f.cpu_median = median_of(cpu, runs);
    f.characters_per_second = r->n / f.median;
    f.vertices_per_second = (double)r->vertices / f.median;
    return f;
}

static double ratio_median(const crowd_subject *num, const crowd_subject *den, uint32_t runs)
{
    double x[BENCH_MAX_RUNS];
    for (uint32_t i = 0; i < runs; i++)
        x[i] = num->round_median[i] / den->round_median[i];
    return median_of(x, runs);
}

/* Frames a round for a subject whose frame took est seconds. */
static uint32_t frames_for(double est, uint32_t most)
{
    double f = est > 0 ? CROWD_ROUND_SECONDS / est : most;
    return f >= most ? most : f <= 3 ? 3 : (uint32_t)f;
}

static void time_rounds(crowd *c, crowd_subject *subs, uint32_t ns, uint32_t runs, uint32_t most,
                        bench_load *load)
{
    for (uint32_t s = 0; s < ns; s++) {
        if (subs[s].ossa)
            crowd_use_pool(c, subs[s].pool);
        double t0 = bench_now_s();
        subs[s].frame(c); /* untimed: caches, and an estimate of a frame */
        subs[s].frames = frames_for(bench_now_s() - t0, most);
    }
    for (uint32_t r = 0; r < runs; r++) {
        bool contended = false;
        for (uint32_t s = 0; s < ns; s++) {
            crowd_subject *sub = &subs[s];
            if (sub->ossa)
                crowd_use_pool(c, sub->pool);
            double warm0 = bench_now_s();
            do
                sub->frame(c);
            while (bench_now_s() - warm0 < CROWD_WARM_SECONDS);
            double cpu0 = bench_cpu_s(sub->pool), wall0 = bench_now_s();
            double *round = sub->samples + sub->count;
            for (uint32_t f = 0; f < sub->frames; f++) {
                double t0 = bench_now_s();
                sub->frame(c);
                round[f] = bench_now_s() - t0;
            }
            double wall = bench_now_s() - wall0, cpu = bench_cpu_s(sub->pool) - cpu0;
            contended |= bench_load_note(load, wall, cpu, sub->busy ? sub->busy : sub->threads);
            sub->cpu_per_frame[r] = cpu / sub->frames;
            double x[CROWD_MAX_FRAMES];
            memcpy(x, round, sub->frames * sizeof x[0]);
            sub->round_median[r] = median_of(x, sub->frames);
            sub->count += sub->frames;
        }
        load->rounds++;
        load->contended += contended;
    }
}

static bool crowd_failed(const crowd *c)
{
    for (uint32_t i = 0; i < c->n; i++)
        if (c->members[i].failed)
            return true;
    return false;
}

/* Whether a crowd streams its outputs: AUTO by the library's rule (ossa_skin_crowd_store) on the
 * crowd's heap bytes, state and outputs (docs/BENCHMARKS.md, 2026-11-26). */
static bool crowd_streams(ossa_skin_store store, double bytes)
{
    if (store != OSSA_SKIN_STORE_AUTO)
        return store == OSSA_SKIN_STORE_STREAM;
    return ossa_skin_crowd_store((uint64_t)bytes) == OSSA_SKIN_STORE_STREAM;
}

/* One crowd size: make the characters (if they fit), time every subject, release. */
static bool run_size(const bench_crowd_opts *o, const ossa_model *m, uint32_t n,
                     ossa_skin_pool *pool, void *cal, uint64_t vertices, crowd_result *r,
                     bench_load *load)
{
    /* the memory probe's characters keep outputs of their own; the rest share one slab each
     * side, made once the crowd is known to fit */
    uint32_t probe = n < 8 ? n : 8;
    crowd c = {.m = m, .n = 0, .clip_count = m->clip_count, .capacity = n, .own_first = probe,
               .choice = o->choice};
#ifdef OSSA_BENCH_CAL3D
    c.cal = cal;
#else
    (void)cal;
#endif
    r->n = n;
    r->vertices = vertices * n;
    c.members = calloc(n, sizeof *c.members);
    if (!c.members) {
        r->skipped = true;
        snprintf(r->note, sizeof r->note, "no memory for %u characters", n);
        return true;
    }
    /* Memory of the Ossa side (instances and their output buffers): the first character, which
     * builds the runtime data the others share, then the next ones each; libcal3d's after. */
    char msg[256];
    bool ok = true;
    double before = heap_bytes(), after_first = before;
    for (; c.n < probe && ok; c.n++) {
        ok = crowd_member_init_ossa(&c, c.n, msg, sizeof msg);
        if (c.n == 0)
            after_first = heap_bytes();
    }
    double after = heap_bytes();
    r->bytes_per_character = probe > 1 ? (after - after_first) / (probe - 1) : after - before;
    r->shared_bytes = probe > 1 ? (after_first - before) - r->bytes_per_character : 0.0;
    for (uint32_t i = 0; i < c.n && ok; i++)
        ok = crowd_member_init_cal(&c, i, vertices, msg, sizeof msg);
    double free_bytes = (double)sysconf(_SC_AVPHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    if (ok && r->bytes_per_character * (n - probe) > 0.5 * free_bytes) {
        r->skipped = true;
        snprintf(r->note, sizeof r->note, "%u characters need about %.0f MB; %.0f MB are free",
                 n, r->bytes_per_character * n / 1e6, free_bytes / 1e6);
        crowd_release(&c);
        return true;
    }
    for (; c.n < n && ok; c.n++)
        ok = crowd_member_init(&c, c.n, vertices, msg, sizeof msg);
    if (!ok) {
        fprintf(stderr, "ossa bench --crowd: %s\n", msg);
        crowd_release(&c);
        return false;
    }
    r->output_bytes = crowd_output_bytes(&c);
    r->streams = crowd_streams(o->store, r->bytes_per_character * n + r->shared_bytes);
    crowd_use_store(&c, r->streams ? OSSA_SKIN_STORE_STREAM : OSSA_SKIN_STORE_CACHED);
    crowd_subject subs[3] = {{.frame = crowd_frame_ossa, .ossa = true, .threads = 1}};
    uint32_t ns = 1;
    if (pool)
        subs[ns++] = (crowd_subject){.frame = crowd_frame_ossa, .pool = pool, .ossa = true,
                                     .threads = ossa_skin_pool_threads(pool),
                                     .busy = crowd_busy_threads(&c, pool)};
#ifdef OSSA_BENCH_CAL3D
    if (c.cal)
        subs[ns++] = (crowd_subject){.frame = crowd_frame_cal, .threads = 1};
#endif
    for (uint32_t s = 0; s < ns && ok; s++) {
        subs[s].samples = malloc((size_t)o->runs * o->frames * sizeof(double));
        ok = subs[s].samples != NULL;
    }
    if (ok) {
        time_rounds(&c, subs, ns, o->runs, o->frames, load);
        ok = !crowd_failed(&c);
        if (!ok)
            fprintf(stderr, "ossa bench --crowd: a character failed to play or skin\n");
    }
    if (ok) {
        r->frames = subs[0].frames;
        for (uint32_t s = 0; s < ns; s++) {
            if (subs[s].ossa)
                r->ossa[r->ossa_count++] = figures_of(&subs[s], o->runs, r);
            else {
                r->has_cal3d = true;
                r->cal3d = figures_of(&subs[s], o->runs, r);
                for (uint32_t k = 0; k < r->ossa_count; k++)
                    r->ratio_vs_cal3d[k] = ratio_median(&subs[s], &subs[k], o->runs);
            }
        }
        if (r->ossa_count == 2)
            r->thread_speedup = ratio_median(&subs[0], &subs[1], o->runs);
    }
    for (uint32_t s = 0; s < ns; s++)
        free(subs[s].samples);
    crowd_release(&c);
    return ok;
}

/* ---- the same poses as libcal3d ------------------------------------------------------------ */

#ifdef OSSA_BENCH_CAL3D
/* One character on each side plays clip 0 from a third of it for 20 frames; the largest
 * position difference, relative to the bind pose's size, over the vertices both skin alike (no
 * morphs: libcal3d's side has none) and over the spring-owned vertices of the parts with cloth.
 * Negative when it cannot be measured (the spring one: no cloth). */
static void check_against_cal3d(const ossa_model *m, bench_cal3d *cal, uint64_t vertices,
                                double *worst_rigid, double *worst_spring)
{
    crowd c = {.m = m, .n = 1, .clip_count = 1, .cal = cal};
    crowd_member mb = {0};
    c.members = &mb;
    char msg[256];
    *worst_rigid = *worst_spring = -1.0;
    if (crowd_member_init(&c, 0, vertices, msg, sizeof msg)) {
        float start = m->clips[0].duration / 3.0f;
        ossa_mixer_set_time_factor(ossa_instance_mixer(mb.inst), 1.0f);
        ossa_instance_seek(mb.inst, start);
        bench_cal3d_actor_set_speed(mb.actor, 1.0f);
        bench_cal3d_actor_set_time(mb.actor, start);
        bench_cal3d_actor_reset_springs(mb.actor);
        for (int f = 0; f < 20; f++) {
            crowd_frame_range(&c, 0, 1);
            bench_cal3d_actor_frame(mb.actor, CROWD_DT, mb.cal_out);
        }
        float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        double diff[2] = {0.0, 0.0};
        bool cloth = false;
        uint64_t file_base = 0;
        for (uint32_t p = 0; p < c.parts && !mb.failed; p++) {
            ossa_instance_part info;
            ossa_instance_part_info(mb.inst, p, &info, NULL);
            const ossa_submesh *sm = info.source;
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                for (int k = 0; k < 3; k++) {
                    lo[k] = fminf(lo[k], sm->positions[3 * (size_t)v + k]);
                    hi[k] = fmaxf(hi[k], sm->positions[3 * (size_t)v + k]);
                }
            cloth |= info.spring != NULL;
            if (info.skin && !info.morph_weights)
                for (uint32_t o = 0; o < info.output_count; o++) {
                    uint32_t v = info.output_source ? info.output_source[o] : o;
                    if (v == OSSA_SKIN_PAD_VERTEX)
                        continue;
                    int owned = info.spring && sm->physique_weights[v] > 0.0f;
                    for (int k = 0; k < 3; k++)
                        diff[owned] = fmax(diff[owned],
                                           fabs((double)mb.spans[p].positions[3 * (size_t)o + k] -
                                                mb.cal_out[6 * (file_base + v) + k]));
                }
            file_base += sm->vertex_count;
        }
        double size = sqrt((double)(hi[0] - lo[0]) * (hi[0] - lo[0]) +
                           (double)(hi[1] - lo[1]) * (hi[1] - lo[1]) +
                           (double)(hi[2] - lo[2]) * (hi[2] - lo[2]));
        if (!mb.failed && size > 0) {
            *worst_rigid = diff[0] / size;
            *worst_spring = cloth ? diff[1] / size : -1.0;
        }
    }
    crowd_member_release(&mb);
}
#endif

int bench_crowd_run(const bench_crowd_opts *o, const ossa_model *m, FILE *out)
{
    if (!m->clip_count) {
        fprintf(stderr, "ossa bench --crowd: the model has no clip to play\n");
        return 1;
    }
    crowd_report *rep = calloc(1, sizeof *rep);
    ossa_skin_pool *pool = NULL;
    void *cal = NULL;
    int rc = 1;
    if (!rep)
        return 1;
    rep->max_error = rep->max_spring_error = -1.0;
    for (uint32_t mi = 0; mi < m->mesh_count; mi++)
        for (uint32_t j = 0; j < m->meshes[mi].submesh_count; j++)
            rep->vertices += m->meshes[mi].submeshes[j].vertex_count;
    ossa_error err;
    if (o->threads > 1 && ossa_skin_pool_create(o->threads, &pool, NULL) != OSSA_OK) {
        fprintf(stderr, "ossa bench --crowd: cannot start %u threads\n", o->threads);
        goto done;
    }
#ifdef OSSA_BENCH_CAL3D
    char msg[256];
    cal = bench_cal3d_new(m, BENCH_CAL3D_ALL_CLIPS, msg, sizeof msg);
    if (!cal)
        fprintf(stderr, "ossa bench --crowd: libcal3d not measured: %s\n", msg);
    else
        check_against_cal3d(m, cal, rep->vertices, &rep->max_error, &rep->max_spring_error);
#endif
    ossa_instance *probe = NULL;
    ossa_instance_desc desc = {.choice = o->choice};
    if (ossa_instance_create(m, &desc, &probe, &err) != OSSA_OK) {
        fprintf(stderr, "ossa bench --crowd: %s\n", err.message);
        goto done;
    }
    rep->parts = ossa_instance_part_count(probe);
    rep->kernel = ossa_instance_kernel(probe);
    ossa_instance_destroy(probe);
    bench_load_begin(&rep->load);
    bench_cpus_probe(&rep->cpus, rep->kernel, o->threads);
    for (uint32_t i = 0; i < o->size_count; i++)
        if (!run_size(o, m, o->sizes[i], pool, cal, rep->vertices, &rep->results[i], &rep->load))
            goto done;
    bench_load_end(&rep->load);
    if (o->json)
        bench_crowd_print_json(out, o, m, rep);
    else
        bench_crowd_print_table(out, o, m, rep);
    rc = fflush(out) == 0 ? 0 : 1;
done:
#ifdef OSSA_BENCH_CAL3D
    bench_cal3d_free(cal);
#endif
    ossa_skin_pool_destroy(pool);
    free(rep);
    return rc;
}
