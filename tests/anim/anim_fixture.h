/* Hand-built models for the runtime tests: random skeletons and clips (deterministic seeds),
 * owned by one fixture and freed at once. */
#ifndef OSSA_ANIM_FIXTURE_H
#define OSSA_ANIM_FIXTURE_H

#include <stdint.h>
#include "ossa/ossa.h"

typedef struct fixture {
    ossa_model model;
    void *blocks[64];
    int block_count;
    uint32_t rng;
} fixture;

/* Random skeleton of bone_count bones (parents before children; non-unit scales when
 * with_scale) and clip_count clips over every other bone or every bone: key_count keys between
 * 0.1 and duration - 0.2 (so Cal3D's loop key applies), one track of one key, one duplicated
 * key time, scales on odd clips when with_scale. */
void fixture_random(fixture *f, uint32_t seed, uint32_t bone_count, uint32_t clip_count,
                    uint32_t key_count, int with_scale);
void fixture_free(fixture *f);
float fixture_rand(fixture *f, float lo, float hi);
void *fixture_alloc(fixture *f, size_t bytes);

/* Largest absolute difference between two float arrays. */
double max_diff(const float *a, const float *b, size_t n);

#endif
