/* Small valid files of every Cal3D kind, generated from the specs: the fuzz corpus seeds, and
 * inputs for the malformed-input suite (springs and morph tracks, which no real asset has). */
#ifndef OSSA_FUZZ_SEEDS_H
#define OSSA_FUZZ_SEEDS_H

#include <stddef.h>
#include <stdint.h>
#include "ossa/model.h"

typedef struct fuzz_seed {
    const char *name;    /* file name with the format's extension */
    ossa_format format;
    uint8_t *data;       /* malloc'ed */
    size_t size;
} fuzz_seed;

/* Builds every seed into *out (count returned); 0 with *out NULL when out of memory. */
size_t fuzz_seeds_make(fuzz_seed **out);
void fuzz_seeds_free(fuzz_seed *seeds, size_t count);

/* Builds the Cal3D seed of this name (e.g. "seed_v1000.csf") into *out (data malloc'ed, free it);
 * 0 for an unknown name or when out of memory. */
int fuzz_seed_make_one(const char *name, fuzz_seed *out);

#endif
