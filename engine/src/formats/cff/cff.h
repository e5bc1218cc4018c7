/* CFF (Corsairs / Sea Dogs 2000) internals shared with the tools: the reading conventions and a
 * diagnostic that decodes the vertex coordinates both ways FORMAT-NOTES Decision 8 mentions. */
#ifndef OSSA_FORMATS_CFF_H
#define OSSA_FORMATS_CFF_H

#include <stddef.h>
#include <stdint.h>
#include "ossa/model.h"

/* Frames per second a CFF animation plays at (Decision 11). */
#define OSSA_CFF_FRAME_RATE 25.0f

/* Mesh-local vertex positions of a whole file under one reading. */
typedef struct ossa_cff_position_reading {
    uint64_t vertices;
    uint64_t non_finite; /* of those, vertices with a NaN or Inf coordinate (half exponent 31) */
    float min[3], max[3];  /* over the other vertices; 0 when there are none */
} ossa_cff_position_reading;

/* Reads a CFF file held in memory (name for messages) and summarises its vertex positions as
 * the project reads them (16-bit integers scaled by the header's origin and scale) and as the
 * format's first description reads them (IEEE half floats, no origin or scale). Fails, with err
 * filled, exactly when the file does not load. */
ossa_status ossa_cff_position_readings(const void *data, size_t size, const char *name,
                                       ossa_cff_position_reading *as_integer,
                                       ossa_cff_position_reading *as_half, ossa_error *err);

#endif
