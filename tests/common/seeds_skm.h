/* SKM/SKP seeds (Qfusion type 2), appended to the generated seeds by fuzz_seeds_make. */
#ifndef OSSA_SEEDS_SKM_H
#define OSSA_SEEDS_SKM_H

#include <stdbool.h>
#include "fuzz_seeds.h"

enum { FUZZ_SKM_SEED_COUNT = 2 };

/* Fills out[0 .. FUZZ_SKM_SEED_COUNT - 1]; false when out of memory (filled entries are then
 * still owned by out and freed with the rest). */
bool fuzz_seeds_skm(fuzz_seed *out);

#endif
