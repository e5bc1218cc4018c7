/* Synthetic, seeded models for `ossa bench`: a random skeleton, a skinned mesh and looping
 * clips, built in memory through the loaders' build API so they are ordinary validated models. */
#ifndef OSSA_BENCH_MODEL_H
#define OSSA_BENCH_MODEL_H

#include <stdint.h>
#include "ossa/model.h"

/* The seed of `ossa bench`'s synthetic mesh (the page's bench builds the same one). */
#define BENCH_SEED 0x05517A2024ull

typedef struct bench_model_params {
    uint32_t vertices;    /* 0: skeleton and clip only (pose benchmarks) */
    uint32_t influences;  /* per vertex, distinct bones, 1..min(bones, OSSA_MAX_INFLUENCES) */
    uint32_t bones;       /* 1..OSSA_MAX_BONES */
    uint32_t keys;        /* keys per track, >= 2; the last one sits at the clip's duration */
    float duration;       /* seconds, > 0 */
    uint64_t seed;
    uint32_t clips;       /* looping clips, each its own random keys (0: 1; the crowd bench uses
                             several so its characters cross-fade between different motions) */
} bench_model_params;

/* Deterministic for given params. Weights of a vertex sum to 1; every bone has a track whose
 * last key repeats the first (a seamless cycle, so Cal3D's mixer adds no loop key). */
ossa_status bench_synthetic_model(const bench_model_params *p, ossa_model **out, ossa_error *err);

#endif
