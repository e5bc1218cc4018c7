/* The C3S reader's checked reads and its subchunk context, shared by c3s.c (RIFF chunks, the
 * SHDR header, the SMDL walk and its other subchunks) and c3s_read_anim.c (BONE and ASEQ). The
 * reads are small and inline here, so that neither file calls the other. Internal to the
 * reader. */
#ifndef OSSA_C3S_READ_H
#define OSSA_C3S_READ_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "ossa/limits.h"
#include "formats/c3s/c3s_records.h"

/* A dynamic array's count: capped, and each element needs at least min_bytes bytes. */
static inline ossa_status rd_count(ossa_reader *r, uint32_t *out, uint32_t cap,
                                   size_t min_bytes, const char *what)
{
    size_t at = r->pos;
    OSSA_TRY(ossa_c3s_rd_compdword(r, out, what));
    return ossa_rd_check_count(r, at, *out, cap, min_bytes, what, " in the chunk");
}

/* A 1-based index into `count` elements; 0 (none) only when allowed. */
static inline ossa_status rd_index(ossa_reader *r, uint32_t count, int allow_none,
                                   uint32_t *out, const char *what)
{
    size_t at = r->pos;
    OSSA_TRY(ossa_c3s_rd_compdword(r, out, what));
    if ((*out == 0 && !allow_none) || *out > count)
        return ossa_fail(r->b, OSSA_ERR_RANGE, (int64_t)at, "%s %u not in %u..%u", what, *out,
                         allow_none ? 0u : 1u, count);
    return OSSA_OK;
}

/* A list of indices: the count, then each index checked (kept in the file when out is NULL). */
static inline ossa_status rd_index_list(ossa_reader *r, uint32_t count, int allow_none,
                                        uint32_t cap, uint32_t *n, uint32_t **out,
                                        const char *what)
{
    OSSA_TRY(rd_count(r, n, cap, 1, what));
    if (out) {
        *out = NULL;
        if (*n)
            OSSA_TRY(ossa_build_array(r->b, out, *n, sizeof **out));
    }
    for (uint32_t i = 0; i < *n; i++) {
        uint32_t v;
        OSSA_TRY(rd_index(r, count, allow_none, &v, what));
        if (out)
            (*out)[i] = v;
    }
    return OSSA_OK;
}

/* NUL-terminated text inside the chunk; copied when out is not NULL. */
static inline ossa_status rd_stringz(ossa_reader *r, const char **out, const char *what)
{
    const uint8_t *start = r->data + r->pos;
    size_t left = ossa_rd_left(r);
    const uint8_t *nul = memchr(start, 0, left);
    if (!nul)
        return ossa_fail(r->b, OSSA_ERR_TRUNCATED, (int64_t)r->pos,
                         "%s: no terminating NUL before the end of its chunk", what);
    size_t len = (size_t)(nul - start);
    if (len > OSSA_MAX_STRING)
        return ossa_fail(r->b, OSSA_ERR_RANGE, (int64_t)r->pos, "%s of %zu bytes is too long",
                         what, len);
    if (out)
        OSSA_TRY(ossa_build_strndup(r->b, out, (const char *)start, len));
    r->pos += len + 1;
    return OSSA_OK;
}

typedef struct parse_ctx {
    c3s_scene *sc;
    c3s_smdl *md;
    ossa_reader r; /* bounded by the subchunk */
    uint32_t index; /* 0-based among its kind */
} parse_ctx;

/* c3s_read_anim.c: one BONE or ASEQ subchunk (the p->index-th of its kind) into p->md. */
ossa_status ossa_c3s_parse_bone(parse_ctx *p);
ossa_status ossa_c3s_parse_sequence(parse_ctx *p);

#endif
