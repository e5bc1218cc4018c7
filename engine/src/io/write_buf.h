/* The writers' output buffer: bytes appended in little-endian order into one growing block. A
 * failed allocation marks the buffer failed and later puts do nothing, so a writer checks once,
 * at the end, instead of after every put. Also the writers' error filler. */
#ifndef OSSA_WRITE_BUF_H
#define OSSA_WRITE_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/build_context.h"

typedef struct ossa_wbuf {
    uint8_t *data;
    size_t size, cap;
    bool failed;
} ossa_wbuf;

/* Appends n bytes and returns where they go (for the caller to fill), NULL once failed. */
uint8_t *ossa_wbuf_grow(ossa_wbuf *o, size_t n);
void ossa_wbuf_put(ossa_wbuf *o, const void *src, size_t n);
void ossa_wbuf_u8(ossa_wbuf *o, uint8_t v);
void ossa_wbuf_u16(ossa_wbuf *o, uint16_t v);
void ossa_wbuf_u32(ossa_wbuf *o, uint32_t v);
void ossa_wbuf_f32(ossa_wbuf *o, float f);
void ossa_wbuf_f32v(ossa_wbuf *o, const float *v, size_t n);
/* Overwrites 4 bytes already written at offset at (a size or offset known only later). */
void ossa_wbuf_patch_u32(ossa_wbuf *o, size_t at, uint32_t v);
void ossa_wbuf_free(ossa_wbuf *o);

/* Fills err (the first failure only) with a message naming the file written; returns st. */
ossa_status ossa_write_fail(ossa_error *err, ossa_status st, const char *file, const char *fmt,
                            ...) OSSA_PRINTF(4, 5);

static inline void ossa_le32_store(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

#endif
