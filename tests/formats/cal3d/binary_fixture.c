/* The hand-built Cal3D binary files of the binary-synthetic tests (binary_fixture.h). */
#include "binary_fixture.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_common.h"

/* ---- a little-endian byte buffer ---- */

static void put(buf *b, const void *p, size_t n)
{
    if (b->n + n > sizeof b->d) {
        fprintf(stderr, "test buffer overflow\n");
        exit(1);
    }
    memcpy(b->d + b->n, p, n);
    b->n += n;
}

static void put_i32(buf *b, int32_t v)
{
    uint8_t p[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)((uint32_t)v >> 24)};
    put(b, p, 4);
}

static void put_f32(buf *b, float f)
{
    int32_t i;
    memcpy(&i, &f, 4);
    put_i32(b, i);
}

static void put_fv(buf *b, int n, const float *v)
{
    for (int i = 0; i < n; i++)
        put_f32(b, v[i]);
}

#define PUT3(b, x, y, z) put_fv(b, 3, (const float[]){x, y, z})
#define PUT4(b, x, y, z, w) put_fv(b, 4, (const float[]){x, y, z, w})

/* Cal3D string: length including the NUL, then the bytes and the NUL. */
static void put_str(buf *b, const char *s)
{
    put_i32(b, (int32_t)strlen(s) + 1);
    put(b, s, strlen(s) + 1);
}

static void put_header(buf *b, const char *magic, int32_t version)
{
    put(b, magic, 4);
    put_i32(b, version);
}

/* ---- files ---- */

/* A skeleton: classic, or IMVU/upstream with scene ambient and node lights. File order lists
 * the hand before its parents: 0 hand (parent 2), 1 root (no parent), 2 arm (parent 1). */
void build_csf(buf *b, int32_t version, bool lights)
{
    put_header(b, "CSF", version);
    put_i32(b, 3);
    if (lights)
        PUT3(b, 0.1f, 0.2f, 0.3f);
    /* bone 0: hand, child of arm (2) */
    put_str(b, "hand");
    PUT3(b, 0, 0, 1);
    PUT4(b, 0, 0, 0, 1);
    PUT3(b, 0, 0, -2);
    PUT4(b, 0, 0, 0, 1);
    put_i32(b, 2);
    if (lights) {
        put_i32(b, 1);
        PUT3(b, 1.0f, 0.5f, 0.25f);
    }
    put_i32(b, 0);
    /* bone 1: root */
    put_str(b, "root");
    PUT3(b, 1, 2, 3);
    PUT4(b, 0.6f, 0, 0, 0.8f);
    PUT3(b, -1, -2, -3);
    PUT4(b, -0.6f, 0, 0, 0.8f);
    put_i32(b, -1);
    if (lights) {
        put_i32(b, 0);
        PUT3(b, 0, 0, 0);
    }
    put_i32(b, 1);
    put_i32(b, 2);
    /* bone 2: arm, child of root, parent of hand */
    put_str(b, "arm");
    PUT3(b, 0, 0, 1);
    PUT4(b, 0, 0, 0, 1);
    PUT3(b, 0, 0, -1);
    PUT4(b, 0, 0, 0, 1);
    put_i32(b, 1);
    if (lights) {
        put_i32(b, 2);
        PUT3(b, 0, 1, 0);
    }
    put_i32(b, 1);
    put_i32(b, 0);
}

/* One submesh of three vertices and one face (0, 1, 2) whose geometric normal (0, 0, -1)
 * agrees with vertex 0's normal (0, 0, -1): the classic rule flips it. extras = IMVU/upstream
 * fields (morph count, colours); with them, one morph target "smile" moves vertex 1. */
void build_cmf(buf *b, int32_t version, bool extras, cmf_marks *mk)
{
    put_header(b, "CMF", version);
    put_i32(b, 1);                 /* submeshes */
    put_i32(b, 0);                 /* material thread */
    put_i32(b, 3);                 /* vertices */
    put_i32(b, 1);                 /* faces */
    put_i32(b, 2);                 /* LODs */
    put_i32(b, 1);                 /* springs */
    put_i32(b, 1);                 /* uv sets */
    if (extras)
        put_i32(b, 1);             /* morphs */
    /* vertex 0: two influences, bones 0 and 2 */
    PUT3(b, 0, 0, 0);
    PUT3(b, 0, 0, -1);
    if (extras)
        PUT3(b, 1.0f, 0.0f, 0.5f);
    put_i32(b, 1);
    put_i32(b, 1);
    mk->uv = b->n;
    put_f32(b, 0.25f);
    put_f32(b, 0.5f);
    put_i32(b, 2);
    put_i32(b, 0);
    mk->weight = b->n;
    put_f32(b, 0.75f);
    put_i32(b, 2);
    put_f32(b, 0.25f);
    put_f32(b, 0.0f);              /* physique weight */
    /* vertex 1: one influence, bone 1 */
    PUT3(b, 1, 0, 0);
    PUT3(b, 0, 0, -1);
    if (extras)
        PUT3(b, 0.5f, 0.5f, 0.5f);
    put_i32(b, -1);
    put_i32(b, 0);
    put_f32(b, 1.0f);
    put_f32(b, 0.0f);
    put_i32(b, 1);
    mk->influence_bone = b->n;
    put_i32(b, 1);
    put_f32(b, 1.0f);
    put_f32(b, 1.0f);
    /* vertex 2: no influences */
    PUT3(b, 0, 1, 0);
    PUT3(b, 0, 0, -1);
    if (extras)
        PUT3(b, 1, 1, 1);
    put_i32(b, -1);
    put_i32(b, 0);
    put_f32(b, 0.0f);
    put_f32(b, 1.0f);
    put_i32(b, 0);
    put_f32(b, 0.5f);
    /* spring between vertices 1 and 2 */
    put_i32(b, 1);
    put_i32(b, 2);
    put_f32(b, 0.9f);
    put_f32(b, 1.5f);
    if (extras) {
        put_str(b, "smile");
        mk->morph_id = b->n;
        put_i32(b, 1);             /* vertex 1: absolute values */
        PUT3(b, 1.0f, 0.5f, 0.0f);
        PUT3(b, 0.0f, 0.6f, -0.8f);
        put_f32(b, 0.5f);
        put_f32(b, 0.75f);
        put_i32(b, 4);             /* terminator: vertexCount + 1 */
    }
    put_i32(b, 0);
    put_i32(b, 1);
    mk->face_index2 = b->n;
    put_i32(b, 2);
}

void build_crf(buf *b, int32_t version, bool typed)
{
    put_header(b, "CRF", version);
    put(b, (const uint8_t[]){255, 0, 51, 255}, 4);
    put(b, (const uint8_t[]){0, 102, 0, 128}, 4);
    put(b, (const uint8_t[]){10, 20, 30, 40}, 4);
    put_f32(b, 12.5f);
    put_i32(b, 2);
    put_str(b, "skin.png");
    if (typed)
        put_str(b, "Diffuse Color");
    put_str(b, "textures/bump.tga");
    if (typed)
        put_str(b, "Bump");
}

void build_cpf(buf *b, int32_t version)
{
    put_header(b, "CPF", version);
    put_f32(b, 2.0f);
    put_i32(b, 2);
    put_str(b, "smile");
    put_i32(b, 3);
    const float smile[] = {0, 0, 1, 1, 2, 0};
    put_fv(b, 6, smile);
    put_str(b, "blink");
    put_i32(b, 2);
    const float blink[] = {1.5f, 1.0f, 0.5f, 0.25f}; /* out of order */
    put_fv(b, 4, blink);
}

/* ---- loading ---- */

/* Writes b to a fresh /tmp file with the given suffix; the caller unlinks path. */
static bool write_temp(const buf *b, const char *suffix, char path[64])
{
    snprintf(path, 64, "/tmp/ossa-binmesh-XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0)
        return false;
    bool ok = write(fd, b->d, b->n) == (ssize_t)b->n;
    close(fd);
    return ok;
}

ossa_status load_pair(const buf *csf, const buf *cmf, const ossa_load_options *opt,
                      ossa_model **m, ossa_error *err)
{
    char sp[64], mp[64];
    bool ok = write_temp(csf, ".csf", sp);
    ok = write_temp(cmf, ".cmf", mp) && ok;
    CHECK(ok);
    const char *paths[2] = {mp, sp};
    ossa_status st = ok ? ossa_load_files(paths, 2, opt, m, err) : OSSA_ERR_IO;
    unlink(sp);
    unlink(mp);
    return st;
}

ossa_model *load_buf(const buf *b, const char *name, ossa_error *err)
{
    ossa_model *m = NULL;
    ossa_status st = ossa_load_memory(b->d, b->n, name, NULL, &m, err);
    CHECKF(st == OSSA_OK, "%s: %s", name, err->message);
    return m;
}

bool has_warning(const ossa_model *m, const char *text)
{
    for (uint32_t i = 0; i < m->warning_count; i++)
        if (strstr(m->warnings[i], text))
            return true;
    return false;
}
