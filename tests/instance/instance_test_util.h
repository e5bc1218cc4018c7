/* Helpers shared by the character instance tests (test_instance*.c): output buffers for every
 * part of an instance, separate or in one block, whether they hold only finite numbers, how far
 * the skinned parts are from ossa_skin_submesh_scalar with the instance's palette, and cally's
 * parts loaded from the shared assets. */
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

/* One buffer for every part's positions then normals, and the spans into it: each part starts
 * on a 64-byte line, `offset` floats past it (1: no span is aligned). */
typedef struct frame_out {
    uint32_t parts;
    size_t floats; /* positions: 3 per output vertex of every part, each rounded up to 16 */
    float *block, *data;
    ossa_instance_span *spans;
} frame_out;

/* 0 when out of memory (frame_out_free still frees what was made). */
int frame_out_make_at(frame_out *o, const ossa_instance *inst, size_t offset);
int frame_out_make(frame_out *o, const ossa_instance *inst);
void frame_out_free(frame_out *o);
/* a and b skinned now write the same bytes. */
int frame_out_same(ossa_instance *a, ossa_instance *b, frame_out *oa, frame_out *ob);

/* cally with 7 of its parts (a ponytail with springs among them) and two clips, from the shared
 * assets; 0 with a line on stdout when they are absent, 0 with a failed check when the load
 * fails. */
int load_cally_parts(ossa_model **out);

#endif
