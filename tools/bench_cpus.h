/* Each CPU's speed, for `ossa bench`'s figures on several threads. A VM's vCPUs, or a hybrid
 * CPU's cores, need not run alike: on the project VM one vCPU ran everything 1.6 to 1.8x slower
 * than the other for minutes at a time (docs/BENCHMARKS.md, 2026-11-29 05:15), and no split of
 * a frame over two threads can then gain more than 1 + slow / fast. The probe pins the calling
 * thread to each CPU the process may use in turn, times a kernel there, and restores the
 * affinity. */
#ifndef OSSA_TOOLS_BENCH_CPUS_H
#define OSSA_TOOLS_BENCH_CPUS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>
#include "ossa/skin.h"

#define BENCH_CPUS_MAX 256u

typedef struct bench_cpus {
    bool probed;              /* false: one thread asked, or no affinity to set (not Linux) */
    ossa_skin_kernel kernel;  /* the kernel timed */
    uint32_t count;
    uint16_t id[BENCH_CPUS_MAX];
    double rate[BENCH_CPUS_MAX]; /* vertices per second, the kernel's best store */
    double fastest;
} bench_cpus;

/* Times `kernel` (AUTO or scalar: the widest SIMD one) on every CPU the process may run on,
 * when threads > 1. */
void bench_cpus_probe(bench_cpus *c, ossa_skin_kernel kernel, uint32_t threads);
/* The most T threads can gain over one thread on the fastest CPU: the T fastest CPUs' rates
 * summed, over the fastest's. */
double bench_cpus_bound(const bench_cpus *c, uint32_t threads);
/* One line (ended by `end`) naming each CPU's speed against the fastest and the bound; nothing
 * when not probed. */
void bench_cpus_print(FILE *out, const bench_cpus *c, uint32_t threads, const char *end);
/* {"kernel", "cpus": [{"cpu", "vertices_per_second", "x_fastest"}], "threads", "bound"}, or
 * null when not probed. */
json_t *bench_cpus_json(const bench_cpus *c, uint32_t threads);

#endif
