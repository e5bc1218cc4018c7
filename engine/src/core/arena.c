#include "core/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/checked.h"

#define ARENA_ALIGN 64u
#define ARENA_BLOCK (256u * 1024u)

typedef struct arena_block {
    struct arena_block *next;
    size_t size; /* usable bytes after the header */
    size_t used;
    void *raw;   /* what malloc returned, for free */
} arena_block;

struct ossa_arena {
    arena_block *head;
    size_t total;
};

ossa_arena *ossa_arena_create(void)
{
    return calloc(1, sizeof(ossa_arena));
}

void ossa_arena_destroy(ossa_arena *a)
{
    if (!a)
        return;
    arena_block *blk = a->head;
    while (blk) {
        arena_block *next = blk->next;
        free(blk->raw);
        blk = next;
    }
    free(a);
}

static arena_block *arena_new_block(size_t size)
{
    size_t bytes;
    if (!ossa_add_size(size, sizeof(arena_block) + 2 * ARENA_ALIGN, &bytes))
        return NULL;
    void *raw = malloc(bytes);
    if (!raw)
        return NULL;
    arena_block *blk = raw;
    blk->raw = raw;
    blk->next = NULL;
    blk->size = size;
    blk->used = 0;
    return blk;
}

static uint8_t *block_base(arena_block *blk)
{
    uintptr_t p = (uintptr_t)(blk + 1);
    p = (p + ARENA_ALIGN - 1) & ~(uintptr_t)(ARENA_ALIGN - 1);
    return (uint8_t *)p;
}

void *ossa_arena_alloc(ossa_arena *a, size_t size)
{
    if (!a)
        return NULL;
    size_t padded;
    if (!ossa_add_size(size ? size : 1, ARENA_ALIGN - 1, &padded))
        return NULL;
    padded &= ~(size_t)(ARENA_ALIGN - 1);
    arena_block *blk = a->head;
    if (!blk || blk->size - blk->used < padded) {
        /* Large requests get a block of their own so the shared block is not wasted. */
        size_t want = padded > ARENA_BLOCK / 4 ? padded : ARENA_BLOCK;
        arena_block *nb = arena_new_block(want);
        if (!nb)
            return NULL;
        if (padded > ARENA_BLOCK / 4 && blk) {
            nb->next = blk->next;
            blk->next = nb;
        } else {
            nb->next = blk;
            a->head = nb;
        }
        blk = nb;
    }
    uint8_t *p = block_base(blk) + blk->used;
    blk->used += padded;
    a->total += padded;
    memset(p, 0, padded);
    return p;
}

void *ossa_arena_array(ossa_arena *a, size_t count, size_t elem_size)
{
    size_t bytes;
    if (!ossa_mul_size(count, elem_size, &bytes))
        return NULL;
    return ossa_arena_alloc(a, bytes);
}

char *ossa_arena_strndup(ossa_arena *a, const char *s, size_t n)
{
    size_t bytes;
    if (!ossa_add_size(n, 1, &bytes))
        return NULL;
    char *d = ossa_arena_alloc(a, bytes);
    if (!d)
        return NULL;
    if (n)
        memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

ossa_arena_mark ossa_arena_get_mark(const ossa_arena *a)
{
    ossa_arena_mark mark = {NULL, NULL, 0, 0};
    if (a && a->head) {
        mark.head = a->head;
        mark.head_next = a->head->next;
        mark.used = a->head->used;
    }
    if (a)
        mark.total = a->total;
    return mark;
}

/* Blocks made since the mark sit in front of the marked head (new shared blocks become the
 * head) or right behind a head (large requests are linked in after it), so they are exactly
 * the blocks before mark->head and those between mark->head and its old successor. */
void ossa_arena_rewind(ossa_arena *a, const ossa_arena_mark *mark)
{
    if (!a)
        return;
    arena_block *blk = a->head;
    while (blk && blk != mark->head) {
        arena_block *next = blk->next;
        free(blk->raw);
        blk = next;
    }
    if (blk) {
        arena_block *later = blk->next;
        while (later && later != mark->head_next) {
            arena_block *next = later->next;
            free(later->raw);
            later = next;
        }
        blk->next = mark->head_next;
        blk->used = mark->used;
    }
    a->head = mark->head;
    a->total = mark->total;
}

size_t ossa_arena_bytes(const ossa_arena *a)
{
    return a ? a->total : 0;
}
