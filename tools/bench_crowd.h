/* `ossa bench --crowd`: many character instances of one model, each with its own clip, phase and
 * speed, some cross-fading, posed and skinned every frame into buffers of their own; on 1 and T
 * threads, and libcal3d doing the same work (a CalModel per character: updateAnimation,
 * updateSkeleton, calculateVerticesAndNormals) in the same rounds. */
#ifndef OSSA_TOOLS_BENCH_CROWD_H
#define OSSA_TOOLS_BENCH_CROWD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "ossa/model.h"
#include "ossa/skin.h"

#define BENCH_CROWD_MAX_SIZES 8

typedef struct bench_crowd_opts {
    uint32_t sizes[BENCH_CROWD_MAX_SIZES]; /* characters per crowd, each timed in turn */
    uint32_t size_count;
    uint32_t threads;  /* > 1: also timed on this many threads */
    uint32_t frames;   /* timed frames per round (fewer for crowds whose frames are slow) */
    uint32_t runs;     /* rounds */
    ossa_skin_store store; /* the characters' (AUTO: ossa_skin_crowd_store on the crowd's
                              bytes, bench_crowd.c) */
    const ossa_skin_choice *choice; /* the characters' kernel (ossa_instance_desc.choice) */
    bool json;
    const char *source; /* what the model is, for the report */
    const char *cpu;    /* CPU model name, cores */
    long cores;
    const char *date;
} bench_crowd_opts;

/* Runs every crowd size on m and prints the report (table or JSON) to out. Returns 0 on
 * success, 1 on a failure (reported on stderr). */
int bench_crowd_run(const bench_crowd_opts *opts, const ossa_model *m, FILE *out);

#endif
