/* glTF document plumbing: JSON through jansson, the binary buffer, accessors and the files
 * written (.glb, or .gltf with its files beside or embedded as data: URIs). */
#include <errno.h>
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gltf_internal.h"
#include "io/out_file.h"

void ossa_gltf_warn(gltf_ctx *c, const char *fmt, ...)
{
    if (!c->opt.log.fn)
        return;
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    c->opt.log.fn(c->opt.log.user, msg);
}

json_t *ossa_gltf_text(const char *s)
{
    /* jansson takes UTF-8 only; names in legacy files are often Latin-1 (ossa_name_utf8). */
    size_t n = ossa_name_utf8(s, NULL, 0);
    char *buf = malloc(n + 1);
    if (!buf)
        return NULL;
    ossa_name_utf8(s, buf, n + 1);
    json_t *j = json_stringn(buf, n);
    free(buf);
    return j;
}

int ossa_gltf_push(gltf_ctx *c, json_t *array, json_t *item)
{
    if (!item || json_array_append_new(array, item)) {
        c->failed = true;
        return -1;
    }
    return (int)json_array_size(array) - 1;
}

void ossa_gltf_set(gltf_ctx *c, json_t *obj, const char *key, json_t *value)
{
    if (!value || json_object_set_new(obj, key, value))
        c->failed = true;
}

json_t *ossa_gltf_floats(gltf_ctx *c, const float *v, size_t n)
{
    json_t *a = json_array();
    if (!a) {
        c->failed = true;
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        ossa_gltf_push(c, a, json_real((double)v[i]));
    return a;
}

int ossa_gltf_view(gltf_ctx *c, const void *data, size_t size, int target)
{
    while (c->bin.size % 4)
        ossa_wbuf_u8(&c->bin, 0);
    size_t offset = c->bin.size;
    ossa_wbuf_put(&c->bin, data, size);
    if (c->bin.failed) {
        c->failed = true;
        return -1;
    }
    json_t *v = json_pack("{s:i, s:I, s:I}", "buffer", 0, "byteOffset", (json_int_t)offset,
                          "byteLength", (json_int_t)size);
    if (v && target)
        ossa_gltf_set(c, v, "target", json_integer(target));
    return ossa_gltf_push(c, c->views, v);
}

static const char *type_name(int comps)
{
    switch (comps) {
    case 1: return "SCALAR";
    case 2: return "VEC2";
    case 3: return "VEC3";
    case 4: return "VEC4";
    default: return "MAT4";
    }
}

static void set_minmax(gltf_ctx *c, json_t *acc, const float *v, size_t count, int comps)
{
    float lo[16], hi[16];
    for (int k = 0; k < comps; k++) {
        lo[k] = count ? FLT_MAX : 0.0f;
        hi[k] = count ? -FLT_MAX : 0.0f;
    }
    for (size_t i = 0; i < count; i++)
        for (int k = 0; k < comps; k++) {
            float x = v ? v[i * (size_t)comps + (size_t)k] : 0.0f;
            lo[k] = x < lo[k] ? x : lo[k];
            hi[k] = x > hi[k] ? x : hi[k];
        }
    ossa_gltf_set(c, acc, "min", ossa_gltf_floats(c, lo, (size_t)comps));
    ossa_gltf_set(c, acc, "max", ossa_gltf_floats(c, hi, (size_t)comps));
}

static json_t *accessor(gltf_ctx *c, int component, size_t count, int comps)
{
    json_t *a = json_pack("{s:i, s:I, s:s}", "componentType", component, "count",
                          (json_int_t)count, "type", type_name(comps));
    if (!a)
        c->failed = true;
    return a;
}

int ossa_gltf_accessor_f32(gltf_ctx *c, const float *v, size_t count, int comps, int target,
                      bool minmax)
{
    int view = ossa_gltf_view(c, v, count * (size_t)comps * sizeof(float), target);
    json_t *a = accessor(c, GLTF_FLOAT, count, comps);
    if (view < 0 || !a) {
        json_decref(a);
        return -1;
    }
    ossa_gltf_set(c, a, "bufferView", json_integer(view));
    if (minmax)
        set_minmax(c, a, v, count, comps);
    return ossa_gltf_push(c, c->accessors, a);
}

int ossa_gltf_accessor_zeros(gltf_ctx *c, size_t count, int comps, bool minmax)
{
    json_t *a = accessor(c, GLTF_FLOAT, count, comps);
    if (a && minmax)
        set_minmax(c, a, NULL, count, comps);
    return ossa_gltf_push(c, c->accessors, a);
}

int ossa_gltf_accessor_sparse_f32(gltf_ctx *c, size_t count, int comps, const uint32_t *indices,
                             const float *values, size_t n, bool minmax)
{
    if (n == 0)
        return ossa_gltf_accessor_zeros(c, count, comps, minmax);
    int iv = ossa_gltf_view(c, indices, n * sizeof(uint32_t), 0);
    int vv = ossa_gltf_view(c, values, n * (size_t)comps * sizeof(float), 0);
    json_t *a = accessor(c, GLTF_FLOAT, count, comps);
    if (iv < 0 || vv < 0 || !a) {
        json_decref(a);
        return -1;
    }
    ossa_gltf_set(c, a, "sparse",
             json_pack("{s:I, s:{s:i, s:i}, s:{s:i}}", "count", (json_int_t)n, "indices",
                       "bufferView", iv, "componentType", GLTF_UNSIGNED_INT, "values",
                       "bufferView", vv));
    if (minmax) {
        /* min/max of the accessor as read: the sparse values over zeros where not all are set */
        float lo[4], hi[4];
        for (int k = 0; k < comps; k++)
            lo[k] = hi[k] = n < count ? 0.0f : values[k];
        for (size_t i = 0; i < n; i++)
            for (int k = 0; k < comps; k++) {
                float x = values[i * (size_t)comps + (size_t)k];
                lo[k] = x < lo[k] ? x : lo[k];
                hi[k] = x > hi[k] ? x : hi[k];
            }
        ossa_gltf_set(c, a, "min", ossa_gltf_floats(c, lo, (size_t)comps));
        ossa_gltf_set(c, a, "max", ossa_gltf_floats(c, hi, (size_t)comps));
    }
    return ossa_gltf_push(c, c->accessors, a);
}

int ossa_gltf_accessor_indices(gltf_ctx *c, const uint32_t *idx, size_t count, uint32_t vertex_count)
{
    /* 65535 is the primitive-restart value of 16-bit indices: glTF forbids it as an index. */
    bool narrow = vertex_count < 65535;
    int view;
    if (narrow) {
        uint16_t *tmp = malloc(count * sizeof *tmp + 1);
        if (!tmp) {
            c->failed = true;
            return -1;
        }
        for (size_t i = 0; i < count; i++)
            tmp[i] = (uint16_t)idx[i];
        view = ossa_gltf_view(c, tmp, count * sizeof *tmp, GLTF_ELEMENT_ARRAY_BUFFER);
        free(tmp);
    } else {
        view = ossa_gltf_view(c, idx, count * sizeof *idx, GLTF_ELEMENT_ARRAY_BUFFER);
    }
    json_t *a = accessor(c, narrow ? GLTF_UNSIGNED_SHORT : GLTF_UNSIGNED_INT, count, 1);
    if (view < 0 || !a) {
        json_decref(a);
        return -1;
    }
    ossa_gltf_set(c, a, "bufferView", json_integer(view));
    return ossa_gltf_push(c, c->accessors, a);
}

int ossa_gltf_accessor_joints(gltf_ctx *c, const uint16_t *v, size_t count, uint16_t max_value)
{
    bool narrow = max_value < 256;
    int view;
    if (narrow) {
        uint8_t *tmp = malloc(4 * count + 1);
        if (!tmp) {
            c->failed = true;
            return -1;
        }
        for (size_t i = 0; i < 4 * count; i++)
            tmp[i] = (uint8_t)v[i];
        view = ossa_gltf_view(c, tmp, 4 * count, GLTF_ARRAY_BUFFER);
        free(tmp);
    } else {
        view = ossa_gltf_view(c, v, 4 * count * sizeof *v, GLTF_ARRAY_BUFFER);
    }
    json_t *a = accessor(c, narrow ? GLTF_UNSIGNED_BYTE : GLTF_UNSIGNED_SHORT, count, 4);
    if (view < 0 || !a) {
        json_decref(a);
        return -1;
    }
    ossa_gltf_set(c, a, "bufferView", json_integer(view));
    return ossa_gltf_push(c, c->accessors, a);
}

int ossa_gltf_add_side_file(gltf_ctx *c, const char *name, const void *data, size_t size)
{
    if (c->side_count == c->side_cap) {
        size_t cap = c->side_cap ? 2 * c->side_cap : 8;
        gltf_side_file *grown = realloc(c->side, cap * sizeof *grown);
        if (!grown) {
            c->failed = true;
            return -1;
        }
        c->side = grown;
        c->side_cap = cap;
    }
    gltf_side_file *f = &c->side[c->side_count];
    f->name = strdup(name);
    f->data = malloc(size ? size : 1);
    if (!f->name || !f->data) {
        free(f->name);
        free(f->data);
        c->failed = true;
        return -1;
    }
    if (size)
        memcpy(f->data, data, size);
    f->size = size;
    c->side_count++;
    return 0;
}

char *ossa_gltf_base64_uri(const char *mime, const void *data, size_t size)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t head = strlen("data:") + strlen(mime) + strlen(";base64,");
    char *out = malloc(head + 4 * ((size + 2) / 3) + 1);
    if (!out)
        return NULL;
    char *p = out + sprintf(out, "data:%s;base64,", mime);
    const uint8_t *b = data;
    for (size_t i = 0; i < size; i += 3) {
        uint32_t v = (uint32_t)b[i] << 16;
        if (i + 1 < size)
            v |= (uint32_t)b[i + 1] << 8;
        if (i + 2 < size)
            v |= b[i + 2];
        *p++ = digits[(v >> 18) & 63];
        *p++ = digits[(v >> 12) & 63];
        *p++ = i + 1 < size ? digits[(v >> 6) & 63] : '=';
        *p++ = i + 2 < size ? digits[v & 63] : '=';
    }
    *p = '\0';
    return out;
}

/* The folder of path with a trailing '/', or "" (caller frees). */
static char *folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) + 1 : 0;
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

static ossa_status write_glb(gltf_ctx *c, const char *json, size_t json_size)
{
    size_t jpad = (4 - json_size % 4) % 4, bpad = (4 - c->bin.size % 4) % 4;
    size_t jlen = json_size + jpad, blen = c->bin.size + bpad;
    size_t total = 12 + 8 + jlen + (c->bin.size ? 8 + blen : 0);
    if (total > UINT32_MAX)
        return ossa_write_fail(c->err, OSSA_ERR_RANGE, c->path,
                               "%zu bytes: more than a GLB file can hold (4 GiB)", total);
    uint8_t *head = malloc(20 + jlen + 8);
    if (!head)
        return ossa_write_fail(c->err, OSSA_ERR_NOMEM, c->path, "out of memory");
    ossa_le32_store(head, 0x46546C67u); /* "glTF" */
    ossa_le32_store(head + 4, 2);
    ossa_le32_store(head + 8, (uint32_t)total);
    ossa_le32_store(head + 12, (uint32_t)jlen);
    ossa_le32_store(head + 16, 0x4E4F534Au); /* "JSON" */
    memcpy(head + 20, json, json_size);
    memset(head + 20 + json_size, ' ', jpad);
    size_t n = 20 + jlen;
    if (c->bin.size) {
        ossa_le32_store(head + n, (uint32_t)blen);
        ossa_le32_store(head + n + 4, 0x004E4942u); /* "BIN\0" */
        n += 8;
        for (size_t i = 0; i < bpad; i++)
            ossa_wbuf_u8(&c->bin, 0);
        if (c->bin.failed) {
            free(head);
            return ossa_write_fail(c->err, OSSA_ERR_NOMEM, c->path, "out of memory");
        }
    }
    ossa_status st;
    if (c->sink)
        st = c->sink(c->sink_user, head, n) &&
                     (!c->bin.size || c->sink(c->sink_user, c->bin.data, c->bin.size))
                 ? OSSA_OK
                 : ossa_write_fail(c->err, OSSA_ERR_IO, c->path, "the stream's writer stopped");
    else {
        ossa_out_set out;
        ossa_out_init(&out, &c->opt.guard, c->err);
        st = ossa_out_add(&out, c->path, head, n, c->bin.data, c->bin.size);
        if (st == OSSA_OK)
            st = ossa_out_commit(&out);
        ossa_out_free(&out);
    }
    free(head);
    return st;
}

ossa_status ossa_gltf_write_files(gltf_ctx *c)
{
    if (c->failed)
        return ossa_write_fail(c->err, OSSA_ERR_NOMEM, c->path, "out of memory");
    if (c->glb && c->bin.size &&
        json_array_append_new(json_object_get(c->root, "buffers"),
                              json_pack("{s:I}", "byteLength", (json_int_t)c->bin.size)))
        return ossa_write_fail(c->err, OSSA_ERR_NOMEM, c->path, "out of memory");
    char *json = json_dumps(c->root, JSON_COMPACT | JSON_REAL_PRECISION(9));
    if (!json)
        return ossa_write_fail(c->err, OSSA_ERR_NOMEM, c->path, "out of memory");
    ossa_status st;
    if (c->glb) {
        st = write_glb(c, json, strlen(json));
        free(json);
        return st;
    }
    /* the .bin, the textures and the .gltf replace their targets together, or none does */
    char *dir = folder_of(c->path);
    ossa_out_set out;
    ossa_out_init(&out, &c->opt.guard, c->err);
    st = dir ? OSSA_OK : ossa_write_fail(c->err, OSSA_ERR_NOMEM, c->path, "out of memory");
    for (size_t i = 0; st == OSSA_OK && i < c->side_count; i++) {
        const gltf_side_file *f = &c->side[i];
        size_t n = strlen(dir) + strlen(f->name) + 1;
        char *p = malloc(n);
        if (!p) {
            st = ossa_write_fail(c->err, OSSA_ERR_NOMEM, c->path, "out of memory");
            break;
        }
        snprintf(p, n, "%s%s", dir, f->name);
        /* a texture exported beside its own source (or a second time) is already in place */
        if (!ossa_out_same_bytes(p, f->data, f->size))
            st = ossa_out_add(&out, p, f->data, f->size, NULL, 0);
        free(p);
    }
    if (st == OSSA_OK)
        st = ossa_out_add(&out, c->path, json, strlen(json), NULL, 0);
    if (st == OSSA_OK)
        st = ossa_out_commit(&out);
    ossa_out_free(&out);
    free(dir);
    free(json);
    return st;
}
