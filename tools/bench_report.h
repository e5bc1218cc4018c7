/* What `ossa bench` (the kernel, pose and model benchmarks) measured, and its table and JSON
 * (bench_skin.c and bench_pose.c measure, cmd_bench.c runs them; bench_crowd_report.h does the
 * same for --crowd). */
#ifndef OSSA_TOOLS_BENCH_REPORT_H
#define OSSA_TOOLS_BENCH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "bench_cpus.h"
#include "bench_crowd.h"
#include "bench_model.h"
#include "bench_timing.h"
#include "ossa/skin.h"

enum {
    MAX_RESULTS = 2 * OSSA_SKIN_KERNEL_COUNT,
    POSE_SIZES = 2,
};

typedef struct bench_opts {
    uint32_t vertices, influences, bones, threads, runs;
    const char **models;
    size_t model_count;
    int json;
    ossa_skin_store store;  /* --store: the skin jobs' store policy */
    ossa_skin_kernel kernel; /* --kernel: the calibration's override (AUTO: measured) */
    bench_crowd_opts crowd; /* --crowd: size_count > 0 */
    bool vertices_set;      /* --vertices given (a crowd's synthetic default is smaller) */
} bench_opts;

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

/* The kernel and store chosen by measurement (ossa_skin_calibrate), timed beside every
 * kernel with each store forced, on 1 thread. */
typedef struct choice_result {
    ossa_skin_choice choice;      /* the calibration, once for the process */
    ossa_skin_choice_size chosen; /* what it gives the largest job */
    uint32_t job_vertices;        /* that job's output vertices */
    bench_timing t;
    double vps;
    double vs_fastest;            /* median per-round ratio: chosen's rate / fastest forced's */
    size_t fastest;               /* index in forced */
    struct {
        ossa_skin_kernel kernel;
        ossa_skin_store store;
        bench_timing t;
        double vps;
    } forced[2 * OSSA_SKIN_KERNEL_COUNT];
    size_t forced_count;
    double max_err;               /* chosen's output vs the scalar API */
} choice_result;

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
    choice_result choice;
    pose_result pose[POSE_SIZES];
    int has_cal3d;
    char cal3d_note[256];
    bench_timing cal3d_skin;
    double cal3d_vps, cal3d_err;
    bench_load load;
    bench_cpus cpus; /* each CPU's speed, when a second thread count is measured */
} bench_report;

/* Skinning figures over m's skin meshes (every kernel on each of r->thread_counts, the STREAM
 * triad, libcal3d's physique when built in), bench_skin.c; 0 when something failed (said on
 * stderr). */
int bench_skin(const bench_opts *o, const ossa_model *m, bench_report *r);

/* Pose figures for POSE_SIZES skeletons (entry `which` of r->pose), bench_pose.c; 0 when a
 * job failed (said on stderr). */
int bench_pose(const bench_opts *o, bench_report *r, size_t which);

/* The whole report as one JSON document, or as the table, on out. */
void bench_print_json(FILE *out, const bench_opts *o, const bench_report *r);
void bench_print_table(FILE *out, const bench_opts *o, const bench_report *r);

#endif
