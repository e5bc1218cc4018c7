/* A growing little-endian byte buffer for the tests that write files field by field (the Cal3D
 * test writer, the fuzz seeds): a failed allocation sets failed and later puts do nothing. */
#ifndef OSSA_TEST_WBUF_H
#define OSSA_TEST_WBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct wbuf {
    uint8_t *data;
    size_t size, cap;
    int failed;
} wbuf;

static inline void put_bytes(wbuf *w, const void *p, size_t n)
{
    if (w->failed)
        return;
    if (w->size + n > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < w->size + n)
            cap *= 2;
        uint8_t *grown = realloc(w->data, cap);
        if (!grown) {
            w->failed = 1;
            return;
        }
        w->data = grown;
        w->cap = cap;
    }
    memcpy(w->data + w->size, p, n);
    w->size += n;
}

/* A stream sink's append (the glTF export's bytes): false past cap bytes or when out of memory. */
static inline int put_bytes_capped(wbuf *w, const void *p, size_t n, size_t cap)
{
    if (n > cap - w->size)
        return 0;
    put_bytes(w, p, n);
    return !w->failed;
}

/* The little-endian 32-bit value at p (reading back what was written). */
static inline uint32_t get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void put_u8(wbuf *w, uint8_t v) { put_bytes(w, &v, 1); }

static inline void put_u16(wbuf *w, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put_bytes(w, b, 2);
}

static inline void put_u32(wbuf *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put_bytes(w, b, 4);
}

static inline void put_i32(wbuf *w, int32_t v) { put_u32(w, (uint32_t)v); }

static inline void put_f32(wbuf *w, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32(w, u);
}

static inline void put_f32v(wbuf *w, const float *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put_f32(w, f[i]);
}

/* A Cal3D string (docs/FORMATS.md, Cal3D strings): length including the NUL, then the bytes and the
 * NUL. */
static inline void put_string(wbuf *w, const char *s)
{
    size_t n = strlen(s);
    put_u32(w, (uint32_t)(n + 1));
    put_bytes(w, s, n + 1);
}

#endif
