#include "core/reader.h"

#include <math.h>
#include <string.h>
#include "ossa/limits.h"

static ossa_status need(ossa_reader *r, size_t n, const char *what)
{
    if (ossa_rd_left(r) >= n)
        return OSSA_OK;
    return ossa_fail(r->b, OSSA_ERR_TRUNCATED, (int64_t)r->pos,
                     "need %zu bytes for %s, only %zu left", n, what, ossa_rd_left(r));
}

ossa_status ossa_rd_bytes(ossa_reader *r, void *out, size_t n, const char *what)
{
    OSSA_TRY(need(r, n, what));
    if (n)
        memcpy(out, r->data + r->pos, n);
    r->pos += n;
    return OSSA_OK;
}

ossa_status ossa_rd_skip(ossa_reader *r, size_t n, const char *what)
{
    OSSA_TRY(need(r, n, what));
    r->pos += n;
    return OSSA_OK;
}

ossa_status ossa_rd_u8(ossa_reader *r, uint8_t *out, const char *what)
{
    OSSA_TRY(need(r, 1, what));
    *out = r->data[r->pos++];
    return OSSA_OK;
}

ossa_status ossa_rd_u16(ossa_reader *r, uint16_t *out, const char *what)
{
    OSSA_TRY(need(r, 2, what));
    const uint8_t *p = r->data + r->pos;
    *out = (uint16_t)(p[0] | (p[1] << 8));
    r->pos += 2;
    return OSSA_OK;
}

ossa_status ossa_rd_u32(ossa_reader *r, uint32_t *out, const char *what)
{
    OSSA_TRY(need(r, 4, what));
    const uint8_t *p = r->data + r->pos;
    *out = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    r->pos += 4;
    return OSSA_OK;
}

ossa_status ossa_rd_i32(ossa_reader *r, int32_t *out, const char *what)
{
    uint32_t u;
    OSSA_TRY(ossa_rd_u32(r, &u, what));
    memcpy(out, &u, 4);
    return OSSA_OK;
}

ossa_status ossa_rd_f32_raw(ossa_reader *r, float *out, const char *what)
{
    uint32_t u;
    OSSA_TRY(ossa_rd_u32(r, &u, what));
    memcpy(out, &u, 4);
    return OSSA_OK;
}

ossa_status ossa_rd_f32(ossa_reader *r, float *out, const char *what)
{
    size_t at = r->pos;
    OSSA_TRY(ossa_rd_f32_raw(r, out, what));
    if (!isfinite(*out))
        return ossa_fail(r->b, OSSA_ERR_VALUE, (int64_t)at, "%s is not a finite number", what);
    return OSSA_OK;
}

ossa_status ossa_rd_f32v(ossa_reader *r, float *out, size_t n, const char *what)
{
    OSSA_TRY(need(r, n * 4, what));
    for (size_t i = 0; i < n; i++)
        OSSA_TRY(ossa_rd_f32(r, &out[i], what));
    return OSSA_OK;
}

ossa_status ossa_rd_check_count(ossa_reader *r, size_t at, uint32_t count, uint32_t cap,
                                size_t min_bytes_each, const char *what, const char *where)
{
    if (count > cap)
        return ossa_fail(r->b, OSSA_ERR_RANGE, (int64_t)at, "%s %u exceeds the limit of %u", what,
                         count, cap);
    if (min_bytes_each && count > ossa_rd_left(r) / min_bytes_each)
        return ossa_fail(r->b, OSSA_ERR_TRUNCATED, (int64_t)at,
                         "%s %u needs at least %zu bytes, only %zu left%s", what, count,
                         (size_t)count * min_bytes_each, ossa_rd_left(r), where);
    return OSSA_OK;
}

ossa_status ossa_rd_count(ossa_reader *r, uint32_t *out, uint32_t cap, size_t min_bytes_each,
                          const char *what)
{
    size_t at = r->pos;
    int32_t v;
    OSSA_TRY(ossa_rd_i32(r, &v, what));
    if (v < 0)
        return ossa_fail(r->b, OSSA_ERR_RANGE, (int64_t)at, "%s is negative (%d)", what, v);
    OSSA_TRY(ossa_rd_check_count(r, at, (uint32_t)v, cap, min_bytes_each, what, ""));
    *out = (uint32_t)v;
    return OSSA_OK;
}

ossa_status ossa_rd_cal3d_string(ossa_reader *r, const char **out, const char *what)
{
    uint32_t len = 0; /* set by the call below; GCC -O3 cannot see it */
    OSSA_TRY(ossa_rd_count(r, &len, OSSA_MAX_STRING, 1, what));
    const char *s = (const char *)r->data + r->pos;
    size_t text = 0;
    while (text < len && s[text])
        text++;
    OSSA_TRY(ossa_build_strndup(r->b, out, s, text));
    r->pos += len;
    return OSSA_OK;
}
