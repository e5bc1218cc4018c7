/* What the two files of the test-only Cal3D binary writer share (cal3d_writer.c: CSF, CMF, CRF,
 * CPF; cal3d_writer_caf.c: CAF in every layout): the version rules of A.1 and a growing
 * little-endian buffer. Not part of the writer's interface (cal3d_writer.h). */
#ifndef OSSA_TEST_CAL3D_WRITER_INTERNAL_H
#define OSSA_TEST_CAL3D_WRITER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cal3d_writer.h"

/* ---- version rules (A.1, Decision 1) ---- */

static inline int is_imvu(int v) { return v >= 911 && v <= 919; }
/* 1300/1301 of either lineage: the mp3butcher flag makes v larger still. */
static inline int is_upstream(int v) { return v >= 1300; }
static inline int is_v1200(int v) { return v >= 1200 && v < 1300; }
static inline int is_mp3butcher(int v) { return (v & CW_MP3BUTCHER) != 0; }
/* The number the file carries. */
static inline int file_version(int v) { return v & ~CW_MP3BUTCHER; }

/* ---- growing little-endian buffer ---- */

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

static inline void put_f32v(wbuf *w, const float *f, int n)
{
    for (int i = 0; i < n; i++)
        put_f32(w, f[i]);
}

/* A.2: length including the NUL, then the bytes and the NUL. */
static inline void put_string(wbuf *w, const char *s)
{
    size_t n = strlen(s);
    put_u32(w, (uint32_t)(n + 1));
    put_bytes(w, s, n + 1);
}

static inline void put_magic(wbuf *w, const char *magic, int version)
{
    put_bytes(w, magic, 3);
    put_u8(w, 0);
    put_i32(w, file_version(version));
}

static inline uint8_t *finish(wbuf *w, size_t *size)
{
    if (w->failed) {
        free(w->data);
        *size = 0;
        return NULL;
    }
    *size = w->size;
    return w->data;
}

#endif
