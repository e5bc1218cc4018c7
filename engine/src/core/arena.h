/* A bump allocator that owns everything one model holds: a model is freed in one call and a
 * failed load releases all it allocated, whatever stage it failed in. */
#ifndef OSSA_ARENA_H
#define OSSA_ARENA_H

#include <stddef.h>

typedef struct ossa_arena ossa_arena;

ossa_arena *ossa_arena_create(void);
void ossa_arena_destroy(ossa_arena *a);
/* Zeroed, aligned to 64 bytes and padded to a multiple of 64; NULL on overflow or no memory. */
void *ossa_arena_alloc(ossa_arena *a, size_t size);
void *ossa_arena_array(ossa_arena *a, size_t count, size_t elem_size);
char *ossa_arena_strndup(ossa_arena *a, const char *s, size_t n);
size_t ossa_arena_bytes(const ossa_arena *a);

/* A point to rewind to: everything allocated after it can be given back at once (a reader that
 * tries one layout of a file and then another, docs/FORMATS.md, D1). Memory obtained before
 * the mark is untouched; pointers obtained after it are invalid once rewound. */
typedef struct ossa_arena_mark {
    struct arena_block *head, *head_next;
    size_t used, total;
} ossa_arena_mark;

ossa_arena_mark ossa_arena_get_mark(const ossa_arena *a);
void ossa_arena_rewind(ossa_arena *a, const ossa_arena_mark *mark);

#endif
