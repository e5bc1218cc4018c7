/* Bounded little-endian reader. Every read checks the bytes left; failures set the build error
 * with the byte offset and what was being read. */
#ifndef OSSA_READER_H
#define OSSA_READER_H

#include <stddef.h>
#include <stdint.h>
#include "core/build_context.h"

typedef struct ossa_reader {
    const uint8_t *data;
    size_t size;
    size_t pos;
    ossa_build *b;
} ossa_reader;

static inline void ossa_reader_init(ossa_reader *r, ossa_build *b, const void *data, size_t size)
{
    r->data = (const uint8_t *)data;
    r->size = size;
    r->pos = 0;
    r->b = b;
}

static inline size_t ossa_rd_left(const ossa_reader *r) { return r->size - r->pos; }

ossa_status ossa_rd_bytes(ossa_reader *r, void *out, size_t n, const char *what);
ossa_status ossa_rd_skip(ossa_reader *r, size_t n, const char *what);
ossa_status ossa_rd_u8(ossa_reader *r, uint8_t *out, const char *what);
ossa_status ossa_rd_u16(ossa_reader *r, uint16_t *out, const char *what);
ossa_status ossa_rd_u32(ossa_reader *r, uint32_t *out, const char *what);
ossa_status ossa_rd_i32(ossa_reader *r, int32_t *out, const char *what);
/* Any bit pattern, NaN included (for fields that are only reported). */
ossa_status ossa_rd_f32_raw(ossa_reader *r, float *out, const char *what);
/* Finite floats only: NaN and Inf fail with OSSA_ERR_VALUE. */
ossa_status ossa_rd_f32(ossa_reader *r, float *out, const char *what);
ossa_status ossa_rd_f32v(ossa_reader *r, float *out, size_t n, const char *what);
/* A count read at offset at (however it was encoded): above cap, or with elements of at least
 * min_bytes_each bytes each that cannot fit in the bytes left, fails naming what; where is
 * appended to the second message ("" or, say, " in the chunk"). */
ossa_status ossa_rd_check_count(ossa_reader *r, size_t at, uint32_t count, uint32_t cap,
                                size_t min_bytes_each, const char *what, const char *where);
/* A signed 32-bit count: rejects negatives, values above cap, and counts whose elements (at
 * least min_bytes_each each) cannot fit in the bytes left. */
ossa_status ossa_rd_count(ossa_reader *r, uint32_t *out, uint32_t cap, size_t min_bytes_each,
                          const char *what);
/* Cal3D string: int32 length including the NUL, then the bytes; text up to the first NUL. */
ossa_status ossa_rd_cal3d_string(ossa_reader *r, const char **out, const char *what);

#endif
