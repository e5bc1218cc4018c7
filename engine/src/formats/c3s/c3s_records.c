/* Cannibal scene (C3S) values shared by the reader's two halves and the writer: compdwords
 * (decode, encode, read) and OCS transforms (c3s_records.h). c3s.c reads the chunks with them,
 * c3s_build.c the key lists left in the file, c3s_write.c writes compdwords. */
#include <math.h>
#include "formats/c3s/c3s_records.h"

/* ---- compdword ---- */

ossa_c3s_cdw_result ossa_c3s_decode_compdword(const uint8_t *p, size_t n, uint32_t *value,
                                              size_t *used)
{
    uint64_t v = 0;
    for (size_t i = 0; i < OSSA_C3S_COMPDWORD_MAX; i++) {
        if (i >= n)
            return OSSA_C3S_CDW_TRUNCATED;
        uint8_t byte = p[i];
        v += byte & 0x7Fu;
        if (!(byte & 0x80u)) {
            if (v > UINT32_MAX)
                return OSSA_C3S_CDW_OVERFLOW;
            *value = (uint32_t)v;
            *used = i + 1;
            return OSSA_C3S_CDW_OK;
        }
        v <<= 7;
    }
    return OSSA_C3S_CDW_TOO_LONG;
}

size_t ossa_c3s_encode_compdword(uint32_t value, uint8_t out[OSSA_C3S_COMPDWORD_MAX])
{
    uint8_t groups[OSSA_C3S_COMPDWORD_MAX];
    size_t n = 0;
    do {
        groups[n++] = (uint8_t)(value & 0x7Fu);
        value >>= 7;
    } while (value && n < OSSA_C3S_COMPDWORD_MAX);
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)(groups[n - 1 - i] | (i + 1 < n ? 0x80u : 0u));
    return n;
}

ossa_status ossa_c3s_rd_compdword(ossa_reader *r, uint32_t *out, const char *what)
{
    size_t used = 0;
    switch (ossa_c3s_decode_compdword(r->data + r->pos, ossa_rd_left(r), out, &used)) {
    case OSSA_C3S_CDW_OK:
        r->pos += used;
        return OSSA_OK;
    case OSSA_C3S_CDW_TRUNCATED:
        return ossa_fail(r->b, OSSA_ERR_TRUNCATED, (int64_t)r->pos,
                         "%s: compdword runs past the end of its chunk", what);
    case OSSA_C3S_CDW_TOO_LONG:
        return ossa_fail(r->b, OSSA_ERR_FORMAT, (int64_t)r->pos,
                         "%s: compdword longer than 5 bytes", what);
    default:
        return ossa_fail(r->b, OSSA_ERR_RANGE, (int64_t)r->pos,
                         "%s: compdword value exceeds 32 bits", what);
    }
}

/* ---- OCS ---- */

ossa_status ossa_c3s_rd_ocs(ossa_reader *r, c3s_ocs *o, const char *what)
{
    size_t at = r->pos;
    OSSA_TRY(ossa_rd_f32v(r, o->s, 3, what));
    OSSA_TRY(ossa_rd_f32v(r, o->q, 4, what));
    OSSA_TRY(ossa_rd_f32v(r, o->t, 3, what));
    double n2 = 0;
    for (int k = 0; k < 4; k++)
        n2 += (double)o->q[k] * o->q[k];
    if (!(n2 > 1e-12) || !isfinite(n2))
        return ossa_fail(r->b, OSSA_ERR_VALUE, (int64_t)at + 12,
                         "%s: rotation quaternion has no length", what);
    float n = (float)sqrt(n2);
    for (int k = 0; k < 4; k++)
        o->q[k] /= n;
    return OSSA_OK;
}
