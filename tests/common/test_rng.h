/* The seeded PRNG of the randomised reference tests: splitmix64, so a seed gives the same
 * scenarios on every machine and run. */
#ifndef OSSA_TEST_RNG_H
#define OSSA_TEST_RNG_H

#include <stdint.h>

typedef struct rng {
    uint64_t s;
} rng;

static inline uint64_t next_u64(rng *g)
{
    uint64_t z = (g->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform integer in [0, n). */
static inline int below(rng *g, int n)
{
    return (int)(next_u64(g) % (uint64_t)n);
}

/* Uniform in [0, 1). */
static inline float unit(rng *g)
{
    return (float)(next_u64(g) >> 40) * (1.0f / 16777216.0f);
}

static inline float uniform(rng *g, float lo, float hi)
{
    return lo + (hi - lo) * unit(g);
}

#endif
