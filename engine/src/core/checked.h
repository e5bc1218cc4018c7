/* Overflow-checked size arithmetic: every size computed from file data goes through these. */
#ifndef OSSA_CHECKED_H
#define OSSA_CHECKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline bool ossa_mul_size(size_t a, size_t b, size_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

static inline bool ossa_add_size(size_t a, size_t b, size_t *out)
{
    return !__builtin_add_overflow(a, b, out);
}

/* a * b * c, false on overflow. */
static inline bool ossa_mul3_size(size_t a, size_t b, size_t c, size_t *out)
{
    size_t t;
    return ossa_mul_size(a, b, &t) && ossa_mul_size(t, c, out);
}

#endif
