/* Helpers shared by the character instance tests (test_instance.c, test_instance_cloth.c):
 * output buffers for every part of an instance, whether they hold only finite numbers, and how
 * far the skinned parts are from ossa_skin_submesh_scalar with the instance's palette. */
#ifndef OSSA_INSTANCE_TEST_UTIL_H
#define OSSA_INSTANCE_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "ossa/ossa.h"

/* Buffers for every part of an instance, each sized to its part. */
typedef struct outputs {
    uint32_t count;
    ossa_instance_span *spans;
} outputs;

/* Allocates a span for every part, each sized to its part; 0 when out of memory. */
int outputs_make(outputs *o, const ossa_instance *inst);
void outputs_free(outputs *o);
int all_finite(const float *v, size_t n);
/* Whether every part's positions and normals are finite. */
int outputs_finite(const outputs *o, const ossa_instance *inst);
/* Largest difference between every skinned part's output and ossa_skin_submesh_scalar with the
 * instance's palette (file order through output_source); padding must be zero. Parts with a
 * vertex track now, springs or morphs are left out (the scalar path has none of them). */
double skin_vs_scalar(const ossa_instance *inst, const outputs *o, uint32_t *compared);

#endif
