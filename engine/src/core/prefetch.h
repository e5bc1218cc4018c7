/* Asking for memory ahead of its use: a crowd's characters each keep their state in a few dozen
 * small allocations, which the hardware prefetchers do not follow from one character to the
 * next. */
#ifndef OSSA_CORE_PREFETCH_H
#define OSSA_CORE_PREFETCH_H

#include <stddef.h>
#include <stdint.h>

/* Every 64-byte line [p, p + bytes) touches, for writing (the state is read and written back).
 * Addresses are integers here: a prefetch never faults, and no pointer past an object is made. */
static inline void ossa_prefetch_range(const void *p, size_t bytes)
{
    if (!p)
        return;
    uintptr_t end = (uintptr_t)p + bytes;
    for (uintptr_t a = (uintptr_t)p & ~(uintptr_t)63; a < end; a += 64)
        __builtin_prefetch((const void *)a, 1, 3);
}

/* A block of memory to ask for (ossa_prefetch_range's arguments, kept). */
typedef struct ossa_mem_range {
    const void *p;
    size_t bytes;
} ossa_mem_range;

/* Appends a range to out (count of max used) when it is not empty and there is room. */
static inline void ossa_mem_range_add(ossa_mem_range *out, uint32_t *count, uint32_t max,
                                      const void *p, size_t bytes)
{
    if (p && bytes && *count < max)
        out[(*count)++] = (ossa_mem_range){p, bytes};
}

#endif
