/* The writers' output buffer (write_buf.h). */
#include "io/write_buf.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint8_t *ossa_wbuf_grow(ossa_wbuf *o, size_t n)
{
    if (o->failed)
        return NULL;
    if (n > SIZE_MAX / 2 - o->size) {
        o->failed = true;
        return NULL;
    }
    if (o->size + n > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->size + n)
            cap *= 2;
        uint8_t *p = realloc(o->data, cap);
        if (!p) {
            o->failed = true;
            return NULL;
        }
        o->data = p;
        o->cap = cap;
    }
    uint8_t *at = o->data + o->size;
    o->size += n;
    return at;
}

void ossa_wbuf_put(ossa_wbuf *o, const void *src, size_t n)
{
    if (!n)
        return;
    uint8_t *p = ossa_wbuf_grow(o, n);
    if (p)
        memcpy(p, src, n);
}

void ossa_wbuf_u8(ossa_wbuf *o, uint8_t v)
{
    ossa_wbuf_put(o, &v, 1);
}

void ossa_wbuf_u16(ossa_wbuf *o, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    ossa_wbuf_put(o, b, 2);
}

void ossa_wbuf_u32(ossa_wbuf *o, uint32_t v)
{
    uint8_t *p = ossa_wbuf_grow(o, 4);
    if (p)
        ossa_le32_store(p, v);
}

void ossa_wbuf_f32(ossa_wbuf *o, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    ossa_wbuf_u32(o, v);
}

void ossa_wbuf_f32v(ossa_wbuf *o, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ossa_wbuf_f32(o, v[i]);
}

void ossa_wbuf_patch_u32(ossa_wbuf *o, size_t at, uint32_t v)
{
    if (!o->failed && at + 4 <= o->size)
        ossa_le32_store(o->data + at, v);
}

void ossa_wbuf_free(ossa_wbuf *o)
{
    free(o->data);
    o->data = NULL;
    o->size = o->cap = 0;
}

ossa_status ossa_write_fail(ossa_error *err, ossa_status st, const char *file, const char *fmt, ...)
{
    if (err && err->status == OSSA_OK) {
        err->status = st;
        err->offset = -1;
        err->line = 0;
        snprintf(err->file, sizeof err->file, "%s", file ? file : "");
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return st;
}
