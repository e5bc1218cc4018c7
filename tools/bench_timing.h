/* How `ossa bench` times things: subjects run in interleaved rounds (each round runs every
 * subject once, so all of them see the same machine), medians over rounds, ratios taken per
 * round; beside each run's wall time its CPU time (the calling thread's and its pool's workers'),
 * so a round in which a subject got less CPU than it has threads (the machine was busy) is
 * counted and reported with the load average. */
#ifndef OSSA_TOOLS_BENCH_TIMING_H
#define OSSA_TOOLS_BENCH_TIMING_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include "ossa/skin_pool.h"

enum {
    BENCH_WARMUP_RUNS = 2,       /* untimed runs after calibration */
    BENCH_ROUND_WARMUP_RUNS = 3, /* untimed runs before each timed one */
    BENCH_MAX_RUNS = 64,
};
#define BENCH_RUN_SECONDS 0.02  /* each timed run repeats its work for at least this long */
/* A round is contended when a subject's CPU time is below this share of wall x threads. */
#define BENCH_CONTENDED_SHARE 0.8

typedef void (*bench_fn)(void *ctx);

typedef struct bench_timing {
    double median, min, max; /* wall seconds per call */
    double cpu_median;       /* CPU seconds per call (the caller and its pool's workers) */
} bench_timing;

/* One thing to time: fn(ctx), `reps` calls a run; samples[r] and cpu[r] are wall and CPU
 * seconds per call of round r. threads: how many threads it keeps busy (0 counts as 1); pool:
 * the pool it runs on, whose workers' CPU time counts (NULL: the calling thread alone). */
typedef struct bench_subject {
    bench_fn fn;
    void *ctx;
    uint32_t threads;
    const ossa_skin_pool *pool;
    uint64_t reps;
    double samples[BENCH_MAX_RUNS];
    double cpu[BENCH_MAX_RUNS];
} bench_subject;

/* The machine around the measurement. */
typedef struct bench_load {
    double start[3], end[3];     /* load average (1, 5, 15 min); -1 when unknown */
    uint32_t rounds, contended;  /* rounds timed; rounds with a subject short of CPU */
    double min_cpu_share;        /* lowest CPU / (wall x threads) of any subject's run */
} bench_load;

double bench_now_s(void);
/* CPU seconds so far of the calling thread and of pool's workers (pool may be NULL). Both clocks
 * are read up to date; the process clock would add other running threads' time only at their
 * scheduler ticks, and missed all of it over short rounds. */
double bench_cpu_s(const ossa_skin_pool *pool);
/* Counts one timed run of `threads` threads that took wall and cpu seconds in the load record;
 * true when it was short of CPU (contended). */
bool bench_load_note(bench_load *load, double wall, double cpu, uint32_t threads);
void bench_load_begin(bench_load *load);
void bench_load_end(bench_load *load);
/* The sentence the table and the JSON give when some round was contended, into buf; "" when
 * none was. */
const char *bench_load_warning(const bench_load *load, char *buf, size_t size);
/* The table's lines about the load (load averages, contended rounds, the warning), each ended
 * by `end`. */
void bench_print_load(FILE *out, const bench_load *load, const char *end);

/* Calibrates every subject, then times `runs` rounds of all of them. */
void bench_measure_rounds(bench_subject *subs, size_t n, uint32_t runs, bench_load *load);

bench_timing bench_timing_of(const bench_subject *sub, uint32_t runs);
/* Median over the rounds of num[r] / den[r]: two subjects measured side by side. */
double bench_median_ratio(const double *num, const double *den, uint32_t runs);

#endif
