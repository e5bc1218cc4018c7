/* What `ossa bench --crowd` measured, and its table and JSON (bench_crowd.c measures). */
#ifndef OSSA_TOOLS_BENCH_CROWD_REPORT_H
#define OSSA_TOOLS_BENCH_CROWD_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "bench_cpus.h"
#include "bench_crowd.h"
#include "bench_timing.h"

#define CROWD_DT (1.0f / 60.0f) /* a frame */

typedef struct crowd_figures {
    uint32_t threads;
    double median, p95, min, max, cpu_median; /* seconds a frame */
    double characters_per_second, vertices_per_second;
} crowd_figures;

typedef struct crowd_result {
    uint32_t n, frames;
    bool skipped;
    char note[160];
    uint64_t vertices;              /* file vertices skinned a frame, every character */
    double output_bytes;            /* positions and normals the Ossa side writes a frame */
    bool streams;                   /* ... with non-temporal stores (bench_crowd_opts.store) */
    double bytes_per_character;     /* heap bytes of one more Ossa character (its instance and
                                       output buffers; glibc's count, else resident memory) */
    double shared_bytes;            /* heap bytes the first character adds beyond that: the
                                       runtime data every character shares */
    crowd_figures ossa[2];
    uint32_t ossa_count;
    bool has_cal3d;
    crowd_figures cal3d;
    double ratio_vs_cal3d[2];       /* libcal3d / Ossa per round, median; per Ossa subject */
    double thread_speedup;          /* 1 thread / T threads per round, median */
} crowd_result;

typedef struct crowd_report {
    uint64_t vertices; /* a character's file vertices */
    uint32_t parts;
    ossa_skin_kernel kernel; /* the characters' (the calibration's, or --kernel) */
    double max_error;  /* vs libcal3d, relative; < 0: not measured */
    double max_spring_error; /* the same over spring-owned vertices; < 0: none or not measured */
    crowd_result results[BENCH_CROWD_MAX_SIZES];
    bench_load load;
    bench_cpus cpus; /* each CPU's speed, when threads > 1 */
} crowd_report;

void bench_crowd_print_json(FILE *out, const bench_crowd_opts *o, const ossa_model *m,
                            const crowd_report *rep);
void bench_crowd_print_table(FILE *out, const bench_crowd_opts *o, const ossa_model *m,
                             const crowd_report *rep);

#endif
