#include "cal3d_layout.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cur {
    const uint8_t *d;
    size_t n, pos;
    mf_layout *l;
} cur;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static bool stop(cur *c, const char *fmt, ...)
{
    if (c->l->why[0])
        return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->l->why, sizeof c->l->why, fmt, ap);
    va_end(ap);
    return false;
}

static bool record(cur *c, mf_kind kind, size_t at, int32_t value, uint32_t limit)
{
    mf_layout *l = c->l;
    if (l->count == l->cap) {
        size_t ncap = l->cap ? 2 * l->cap : 256;
        mf_field *grown = realloc(l->fields, ncap * sizeof *grown);
        if (!grown)
            return stop(c, "out of memory");
        l->fields = grown;
        l->cap = ncap;
    }
    l->fields[l->count++] = (mf_field){(uint32_t)at, (uint32_t)kind, value, limit};
    return true;
}

static bool i32(cur *c, int32_t *out)
{
    if (c->n - c->pos < 4)
        return stop(c, "ends at %zu inside an int", c->pos);
    const uint8_t *p = c->d + c->pos;
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                 (uint32_t)p[3] << 24;
    memcpy(out, &u, 4);
    c->pos += 4;
    return true;
}

/* An int field of the given kind, recorded. */
static bool field(cur *c, mf_kind kind, uint32_t limit, int32_t *out)
{
    size_t at = c->pos;
    int32_t v = 0;
    if (!i32(c, &v))
        return false;
    if (out)
        *out = v;
    return record(c, kind, at, v, limit);
}

/* A count, recorded, that must be >= 0 and fit the bytes left at min_each bytes apiece. */
static bool count(cur *c, mf_kind kind, size_t min_each, uint32_t *out)
{
    int32_t v = 0;
    if (!field(c, kind, 0, &v))
        return false;
    if (v < 0 || (min_each && (size_t)v > (c->n - c->pos) / min_each))
        return stop(c, "%s %d at %zu does not fit", mf_kind_name(kind), v, c->pos - 4);
    *out = (uint32_t)v;
    return true;
}

static bool skip(cur *c, size_t bytes)
{
    if (c->n - c->pos < bytes)
        return stop(c, "ends at %zu inside a %zu-byte block", c->pos, bytes);
    c->pos += bytes;
    return true;
}

/* n floats, the group recorded as kind (MF_KIND_COUNT: not recorded). */
static bool floats(cur *c, mf_kind kind, size_t n)
{
    size_t at = c->pos;
    if (!skip(c, 4 * n))
        return false;
    return kind == MF_KIND_COUNT || record(c, kind, at, 0, 0);
}

static bool string(cur *c)
{
    uint32_t len = 0;
    return count(c, MF_STR_LEN, 1, &len) && skip(c, len);
}

static bool header(cur *c, const char *magic, uint32_t *version)
{
    int32_t v = 0;
    if (c->n < 4 || memcmp(c->d, magic, 4) != 0)
        return stop(c, "magic is not %s", magic);
    c->pos = 4;
    if (!i32(c, &v))
        return false;
    *version = (uint32_t)v;
    c->l->version = (uint32_t)v;
    if (v < 699 || v > 1299)
        return stop(c, "version %d not decoded here", v);
    return true;
}

static bool is_imvu(uint32_t v) { return v >= 911 && v <= 919; }

static bool csf(cur *c)
{
    uint32_t version = 0, bones;
    if (!header(c, "CSF", &version) || !count(c, MF_CNT_BONES, 68, &bones))
        return false;
    bool lights = is_imvu(version);
    if (lights && !floats(c, MF_KIND_COUNT, 3))
        return false;
    for (uint32_t b = 0; b < bones; b++) {
        uint32_t children;
        if (!string(c) || !floats(c, MF_F_BONE_TRANSLATION, 3) ||
            !floats(c, MF_F_BONE_ROTATION, 4) || !floats(c, MF_F_BONE_TRANSLATION, 3) ||
            !floats(c, MF_F_BONE_ROTATION, 4) || !field(c, MF_IDX_PARENT, bones, NULL))
            return false;
        if (lights && (!skip(c, 4) || !floats(c, MF_KIND_COUNT, 3)))
            return false;
        if (!count(c, MF_CNT_CHILDREN, 4, &children))
            return false;
        for (uint32_t k = 0; k < children; k++)
            if (!field(c, MF_IDX_CHILD, bones, NULL))
                return false;
    }
    return true;
}

static bool caf(cur *c)
{
    uint32_t version = 0, tracks, flags = 0;
    if (!header(c, "CAF", &version))
        return false;
    if (version >= 913 && version <= 919)
        return stop(c, "IMVU compressed layout (v%u) not decoded here", version);
    if (!floats(c, MF_F_DURATION, 1) || !count(c, MF_CNT_TRACKS, 8, &tracks))
        return false;
    if (version >= 1200) {
        int32_t f = 0;
        if (!i32(c, &f))
            return false;
        flags = (uint32_t)f;
    }
    bool quantised = flags & 1u;
    for (uint32_t t = 0; t < tracks; t++) {
        uint32_t keys;
        if (!field(c, MF_IDX_TRACK_BONE, 0, NULL) ||
            !count(c, MF_CNT_KEYS, quantised ? 12 : 32, &keys))
            return false;
        if (quantised) {
            if (!floats(c, MF_KIND_COUNT, 6))
                return false;
            for (uint32_t k = 0; k < keys; k++)
                if (!skip(c, 12))
                    return false;
            continue;
        }
        for (uint32_t k = 0; k < keys; k++)
            if (!floats(c, MF_F_KEY_TIME, 1) || !floats(c, MF_F_KEY_TRANSLATION, 3) ||
                !floats(c, MF_F_KEY_ROTATION, 4))
                return false;
    }
    return true;
}

static bool cmf(cur *c)
{
    uint32_t version = 0, submeshes;
    if (!header(c, "CMF", &version) || !count(c, MF_CNT_SUBMESHES, 24, &submeshes))
        return false;
    bool imvu = is_imvu(version);
    for (uint32_t s = 0; s < submeshes; s++) {
        uint32_t vertices, faces, springs, uv_sets, morphs = 0;
        int32_t material, lods;
        if (!i32(c, &material) || !count(c, MF_CNT_VERTICES, 36, &vertices) ||
            !count(c, MF_CNT_FACES, 12, &faces) || !i32(c, &lods) ||
            !count(c, MF_CNT_SPRINGS, 16, &springs) || !count(c, MF_CNT_UV_SETS, 0, &uv_sets))
            return false;
        if (imvu && !count(c, MF_CNT_MORPHS, 4, &morphs))
            return false;
        for (uint32_t v = 0; v < vertices; v++) {
            uint32_t influences;
            if (!floats(c, MF_F_POSITION, 3) || !floats(c, MF_F_NORMAL, 3))
                return false;
            if (imvu && !floats(c, MF_KIND_COUNT, 3))
                return false;
            if (!skip(c, 8))
                return false;
            for (uint32_t u = 0; u < uv_sets; u++)
                if (!floats(c, MF_F_UV, 2))
                    return false;
            if (!count(c, MF_CNT_INFLUENCES, 8, &influences))
                return false;
            for (uint32_t k = 0; k < influences; k++)
                if (!field(c, MF_IDX_INFLUENCE_BONE, 0, NULL) || !floats(c, MF_F_WEIGHT, 1))
                    return false;
            if (springs && !floats(c, MF_KIND_COUNT, 1))
                return false;
        }
        for (uint32_t k = 0; k < springs; k++)
            if (!field(c, MF_IDX_SPRING_VERTEX, vertices, NULL) ||
                !field(c, MF_IDX_SPRING_VERTEX, vertices, NULL) || !floats(c, MF_KIND_COUNT, 2))
                return false;
        for (uint32_t m = 0; m < morphs; m++) {
            int32_t id;
            if (!string(c) || !i32(c, &id))
                return false;
            for (uint32_t v = 0; v < vertices; v++) {
                if ((int64_t)v < (int64_t)id)
                    continue;
                if (!floats(c, MF_KIND_COUNT, 6 + 2 * (size_t)uv_sets) || !i32(c, &id))
                    return false;
            }
        }
        for (uint32_t f = 0; f < faces; f++)
            for (int k = 0; k < 3; k++)
                if (!field(c, MF_IDX_FACE_VERTEX, vertices, NULL))
                    return false;
    }
    return true;
}

static bool crf(cur *c)
{
    uint32_t version = 0, maps;
    if (!header(c, "CRF", &version) || !skip(c, 12) || !floats(c, MF_KIND_COUNT, 1) ||
        !count(c, MF_CNT_MAPS, 4, &maps))
        return false;
    for (uint32_t m = 0; m < maps; m++)
        if (!string(c) || (is_imvu(version) && !string(c)))
            return false;
    return true;
}

static bool cpf(cur *c)
{
    uint32_t version = 0, tracks;
    if (!header(c, "CPF", &version) || !floats(c, MF_F_DURATION, 1) ||
        !count(c, MF_CNT_TRACKS, 8, &tracks))
        return false;
    for (uint32_t t = 0; t < tracks; t++) {
        uint32_t keys;
        if (!string(c) || !count(c, MF_CNT_KEYS, 8, &keys))
            return false;
        for (uint32_t k = 0; k < keys; k++)
            if (!floats(c, MF_F_KEY_TIME, 1) || !floats(c, MF_F_MORPH_WEIGHT, 1))
                return false;
    }
    return true;
}

void mf_decode(const uint8_t *data, size_t size, ossa_format f, mf_layout *out)
{
    memset(out, 0, sizeof *out);
    cur c = {data, size, 0, out};
    bool ok;
    switch (f) {
    case OSSA_FORMAT_CSF: ok = csf(&c); break;
    case OSSA_FORMAT_CAF: ok = caf(&c); break;
    case OSSA_FORMAT_CMF: ok = cmf(&c); break;
    case OSSA_FORMAT_CRF: ok = crf(&c); break;
    case OSSA_FORMAT_CPF: ok = cpf(&c); break;
    default: ok = stop(&c, "not a binary Cal3D format");
    }
    out->ok = ok;
    out->end = ok ? c.pos : size;
}

void mf_layout_free(mf_layout *l)
{
    free(l->fields);
    memset(l, 0, sizeof *l);
}

const char *mf_kind_name(mf_kind k)
{
    static const char *const names[MF_KIND_COUNT] = {
        "bone count", "child count", "track count", "key count", "submesh count",
        "vertex count", "face count", "spring count", "texture coordinate set count",
        "influence count", "morph count", "map count", "string length",
        "parent id", "child id", "influence bone id", "face vertex index",
        "spring vertex index", "track bone id",
        "bone translation", "bone rotation", "vertex position", "vertex normal",
        "influence weight", "key time", "key translation", "key rotation", "duration",
        "texture coordinate", "morph weight"};
    return (unsigned)k < MF_KIND_COUNT ? names[k] : "?";
}

size_t mf_pick(const mf_layout *l, mf_kind k, const mf_field *out[3])
{
    size_t n = 0;
    for (size_t i = 0; i < l->count; i++)
        n += l->fields[i].kind == (uint32_t)k;
    if (!n)
        return 0;
    size_t want[3] = {0, n / 2, n - 1}, got = 0, seen = 0;
    for (size_t i = 0; i < l->count && got < 3; i++) {
        if (l->fields[i].kind != (uint32_t)k)
            continue;
        for (size_t w = got; w < 3; w++)
            if (want[w] == seen) {
                if (!got || out[got - 1] != &l->fields[i])
                    out[got++] = &l->fields[i];
            }
        seen++;
    }
    return got;
}
