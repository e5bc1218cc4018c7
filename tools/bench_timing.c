/* Interleaved rounds, medians and the machine's load for `ossa bench` (see bench_timing.h). */
#define _DEFAULT_SOURCE /* getloadavg */
#include "bench_timing.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double bench_now_s(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

double bench_cpu_s(const ossa_skin_pool *pool)
{
    return clock_s(CLOCK_THREAD_CPUTIME_ID) + ossa_skin_pool_worker_cpu_seconds(pool);
}

bool bench_load_note(bench_load *load, double wall, double cpu, uint32_t threads)
{
    if (!(wall > 0))
        return false;
    double share = cpu / (wall * (threads ? threads : 1));
    if (load && share < load->min_cpu_share)
        load->min_cpu_share = share;
    return share < BENCH_CONTENDED_SHARE;
}

/* Wall seconds of reps calls; *cpu gets the CPU seconds they took (the caller and pool's
 * workers). */
static double batch_s(bench_fn fn, void *ctx, const ossa_skin_pool *pool, uint64_t reps,
                      double *cpu)
{
    double c0 = bench_cpu_s(pool), t0 = bench_now_s();
    for (uint64_t i = 0; i < reps; i++)
        fn(ctx);
    double t = bench_now_s() - t0;
    if (cpu)
        *cpu = bench_cpu_s(pool) - c0;
    return t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* How many calls make a run last BENCH_RUN_SECONDS; then BENCH_WARMUP_RUNS untimed runs. */
static uint64_t calibrate(bench_fn fn, void *ctx)
{
    uint64_t reps = 1;
    double t;
    while ((t = batch_s(fn, ctx, NULL, reps, NULL)) < BENCH_RUN_SECONDS / 4 && reps < (1ull << 30))
        reps *= 4;
    double want = BENCH_RUN_SECONDS / (t > 1e-9 ? t : 1e-9) * (double)reps;
    reps = want < 1.0 ? 1 : (uint64_t)want;
    for (int w = 0; w < BENCH_WARMUP_RUNS; w++)
        batch_s(fn, ctx, NULL, reps, NULL);
    return reps;
}

static double median_sorted(const double *x, uint32_t n)
{
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

static double median_of(const double *samples, uint32_t n)
{
    double x[BENCH_MAX_RUNS];
    memcpy(x, samples, n * sizeof x[0]);
    qsort(x, n, sizeof x[0], cmp_double);
    return median_sorted(x, n);
}

static void load_now(double out[3])
{
    if (getloadavg(out, 3) != 3)
        out[0] = out[1] = out[2] = -1.0;
}

void bench_load_begin(bench_load *load)
{
    memset(load, 0, sizeof *load);
    load->min_cpu_share = 1.0;
    load_now(load->start);
}

void bench_load_end(bench_load *load)
{
    load_now(load->end);
}

/* On a shared machine whose speed drifts over seconds (a VM's neighbours, frequency changes),
 * subjects timed one after another in blocks see different machines; interleaved, each round
 * compares them under the same conditions, and ratios are taken per round. */
void bench_measure_rounds(bench_subject *subs, size_t n, uint32_t runs, bench_load *load)
{
    for (size_t i = 0; i < n; i++)
        subs[i].reps = calibrate(subs[i].fn, subs[i].ctx);
    for (uint32_t r = 0; r < runs; r++) {
        bool contended = false;
        for (size_t i = 0; i < n; i++) {
            /* An untimed run first, so every subject starts from its own data in the caches
             * rather than from the previous subject's (large last-level caches keep a good
             * part of a 1M-vertex mesh, and fill with a stream only over several passes). */
            for (int w = 0; w < BENCH_ROUND_WARMUP_RUNS; w++)
                batch_s(subs[i].fn, subs[i].ctx, subs[i].pool, subs[i].reps, NULL);
            double cpu, wall = batch_s(subs[i].fn, subs[i].ctx, subs[i].pool, subs[i].reps, &cpu);
            subs[i].samples[r] = wall / (double)subs[i].reps;
            subs[i].cpu[r] = cpu / (double)subs[i].reps;
            contended |= bench_load_note(load, wall, cpu, subs[i].threads);
        }
        if (load) {
            load->rounds++;
            load->contended += (uint32_t)contended;
        }
    }
}

bench_timing bench_timing_of(const bench_subject *sub, uint32_t runs)
{
    double x[BENCH_MAX_RUNS];
    memcpy(x, sub->samples, runs * sizeof x[0]);
    qsort(x, runs, sizeof x[0], cmp_double);
    bench_timing out = {median_sorted(x, runs), x[0], x[runs - 1], median_of(sub->cpu, runs)};
    return out;
}

double bench_median_ratio(const double *num, const double *den, uint32_t runs)
{
    double x[BENCH_MAX_RUNS];
    for (uint32_t i = 0; i < runs; i++)
        x[i] = num[i] / den[i];
    qsort(x, runs, sizeof x[0], cmp_double);
    return median_sorted(x, runs);
}

const char *bench_load_warning(const bench_load *load, char *buf, size_t size)
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

void bench_print_load(FILE *out, const bench_load *load, const char *end)
{
    if (load->start[0] >= 0)
        fprintf(out, "load average %.2f at the start, %.2f at the end; %u of %u rounds "
                     "contended%s",
                load->start[0], load->end[0], load->contended, load->rounds, end);
    char warning[512];
    if (load->contended)
        fprintf(out, "warning: %s%s", bench_load_warning(load, warning, sizeof warning), end);
}
