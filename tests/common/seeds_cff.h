/* CFF seeds (Corsairs), appended to the generated seeds by fuzz_seeds_make. */
#ifndef OSSA_SEEDS_CFF_H
#define OSSA_SEEDS_CFF_H

#include <stdbool.h>
#include "fuzz_seeds.h"

enum { FUZZ_CFF_SEED_COUNT = 2 };

/* Fills out[0 .. FUZZ_CFF_SEED_COUNT - 1]; false when out of memory or when a seed fails to
 * write or to load back (filled entries are then still owned by out and freed with the rest). */
bool fuzz_seeds_cff(fuzz_seed *out);

#endif
