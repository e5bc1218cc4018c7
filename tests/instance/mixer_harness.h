/* Shared driver of the mixer reference tests: one model loaded both as an ossa_model and as a
 * libcal3d CalModel (cal3d_mixer_oracle.h), an op list run on ossa_mixer and CalMixer side by
 * side, and the comparison after every update (mixer clock and duration, every bone's
 * model-space transform, every skinned vertex, all within the tolerances below). */
#ifndef OSSA_MIXER_HARNESS_H
#define OSSA_MIXER_HARNESS_H

#include <stddef.h>
#include <stdio.h>

#include "cal3d_mixer_oracle.h"
#include "ossa/ossa.h"
#include "ossa/instance.h"
#include "ossa/pose.h"
#include "ossa/mixer.h"

enum { MIX_OP_CYCLE, MIX_OP_CLEAR, MIX_OP_ACTION, MIX_OP_REMOVE, MIX_OP_STEPS, MIX_OP_END };

typedef struct mix_op {
    int kind;
    int id;
    float a, b, c; /* weight/delay, in/out/weight, or dt (MIX_OP_STEPS: count in id) */
    int lock;
} mix_op;

/* Full initialisers for scripts (every field named). */
#define MIX_CYCLE(id, w, d) {MIX_OP_CYCLE, id, w, d, 0, 0}
#define MIX_CLEAR(id, d) {MIX_OP_CLEAR, id, d, 0, 0, 0}
#define MIX_ACTION(id, in, out, w, lock) {MIX_OP_ACTION, id, in, out, w, lock}
#define MIX_REMOVE(id) {MIX_OP_REMOVE, id, 0, 0, 0, 0}
#define MIX_STEPS(n, dt) {MIX_OP_STEPS, n, dt, 0, 0, 0}
#define MIX_END {MIX_OP_END, 0, 0, 0, 0, 0}

/* The real models; animation ids 0 walk, 1 jog, 2 wave. */
typedef struct mix_model_case {
    const char *dir, *skeleton;
    const char *anims[3];
    const char *meshes[20];
} mix_model_case;

extern const mix_model_case mix_cases[2];

typedef struct mix_runner {
    ossa_model *m;
    const char *name;
    char paths[24][2048];
    const char *files[24], *anims[3], *meshes[20];
    int mesh_count;
    ossa_instance *inst; /* mix_run's character instance (NULL outside it) */
    ossa_mixer *mx;      /* its mixer, or one the caller made */
    cal3d_mix *ref;
    ossa_soa_pose local, model;
    float *palette, *pos, *ref_pos, *nrm;
    size_t vertex_total;
    double size;
    double err_t, err_r, err_v, err_clock;
    long compared_bones, compared_vertices, checks, calls, refusals;
    /* quiet: a disagreement only counts in mismatches (no message, no test failure), for
     * running candidate op lists while minimising. */
    int quiet;
    long mismatches;
} mix_runner;

/* Loads the case's files into r (checks fail and 0 is returned on a load error). */
int mix_runner_open(mix_runner *r, const char *assets, const mix_model_case *mc);
void mix_runner_close(mix_runner *r);
/* Runs ops (up to MIX_OP_END or n ops) on a fresh character instance's mixer (desc may be
 * NULL; ossa_instance_update steps it and evaluates the pose) and a fresh CalModel, comparing
 * the call results and the state after every step; label names the scenario in messages.
 * Returns the number of disagreements. */
long mix_run(mix_runner *r, const ossa_mixer_desc *desc, const char *label, const mix_op *ops,
             size_t n);
/* The summary line of everything compared so far. */
void mix_runner_report(const mix_runner *r);
/* Prints ops as the MIX_* initialisers that reproduce them. */
void mix_print_ops(FILE *f, const mix_op *ops, size_t n);

#endif
