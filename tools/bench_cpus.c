/* Each CPU's speed (bench_cpus.h). */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include "bench_cpus.h"
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#ifdef __linux__
#include <sched.h>
#endif

enum {
    PROBE_VERTICES = 2048, /* in every core's L2: the core's own speed, not the memory's */
    PROBE_ROUNDS = 5
};

#ifdef __linux__
static double rate_here(ossa_skin_kernel kernel)
{
    ossa_skin_calibration_options o = {.kernel = kernel, .vertices = PROBE_VERTICES,
                                       .rounds = PROBE_ROUNDS, .small_class_only = true};
    ossa_skin_choice ch;
    if (ossa_skin_calibrate(&o, &ch, NULL) != OSSA_OK)
        return 0.0;
    double a = ch.cached_rates[kernel], b = ch.stream_rates[kernel];
    return a > b ? a : b;
}
#endif

void bench_cpus_probe(bench_cpus *c, ossa_skin_kernel kernel, uint32_t threads)
{
    memset(c, 0, sizeof *c);
    if (kernel == OSSA_SKIN_KERNEL_AUTO || kernel == OSSA_SKIN_KERNEL_SCALAR)
        kernel = ossa_skin_kernel_best(); /* the calibration times no scalar store choice */
    c->kernel = kernel;
#ifdef __linux__
    cpu_set_t allowed;
    if (threads < 2 || kernel == OSSA_SKIN_KERNEL_SCALAR ||
        sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return;
    for (uint32_t cpu = 0; cpu < CPU_SETSIZE && c->count < BENCH_CPUS_MAX; cpu++) {
        if (!CPU_ISSET(cpu, &allowed))
            continue;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        if (sched_setaffinity(0, sizeof one, &one) != 0)
            continue;
        double r = rate_here(kernel);
        if (r > 0) {
            c->id[c->count] = (uint16_t)cpu;
            c->rate[c->count++] = r;
            if (r > c->fastest)
                c->fastest = r;
        }
    }
    c->probed = sched_setaffinity(0, sizeof allowed, &allowed) == 0 && c->count > 0;
#else
    (void)threads;
#endif
}

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

double bench_cpus_bound(const bench_cpus *c, uint32_t threads)
{
    if (!c->probed || !(c->fastest > 0))
        return 0.0;
    double r[BENCH_CPUS_MAX], sum = 0.0;
    memcpy(r, c->rate, c->count * sizeof r[0]);
    qsort(r, c->count, sizeof r[0], cmp_desc);
    for (uint32_t i = 0; i < threads && i < c->count; i++)
        sum += r[i];
    return sum / c->fastest;
}

void bench_cpus_print(FILE *out, const bench_cpus *c, uint32_t threads, const char *end)
{
    if (!c->probed)
        return;
    fprintf(out, "CPU speeds (%s pinned to each, x the fastest):", ossa_skin_kernel_name(c->kernel));
    if (c->count <= 8) {
        for (uint32_t i = 0; i < c->count; i++)
            fprintf(out, "%s cpu%u %.2f", i ? "," : "", c->id[i], c->rate[i] / c->fastest);
    } else {
        uint32_t slow = 0;
        for (uint32_t i = 1; i < c->count; i++)
            if (c->rate[i] < c->rate[slow])
                slow = i;
        fprintf(out, " %u CPUs, the slowest cpu%u at %.2f", c->count, c->id[slow],
                c->rate[slow] / c->fastest);
    }
    fprintf(out, "; %u threads can gain at most %.2fx the fastest alone%s", threads,
            bench_cpus_bound(c, threads), end);
}

json_t *bench_cpus_json(const bench_cpus *c, uint32_t threads)
{
    if (!c->probed)
        return json_null();
    json_t *list = json_array();
    for (uint32_t i = 0; list && i < c->count; i++)
        json_array_append_new(list, json_pack("{s:i, s:o, s:o}", "cpu", (json_int_t)c->id[i],
                                              "vertices_per_second", ossa_cli_json_num(c->rate[i]),
                                              "x_fastest",
                                              ossa_cli_json_num(c->rate[i] / c->fastest)));
    return json_pack("{s:s, s:o, s:i, s:o}", "kernel", ossa_skin_kernel_name(c->kernel), "cpus",
                     list ? list : json_null(), "threads", (json_int_t)threads, "bound",
                     ossa_cli_json_num(bench_cpus_bound(c, threads)));
}
