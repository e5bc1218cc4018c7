/* Hand-built CAF files of every layout, written by a small encoder that follows the specs
 * (FORMAT-NOTES A.4, B.1, B.2, Decision 2), decoded by the loader and compared with what was
 * encoded, within each encoding's quantisation step. Malformed files fail with the right error. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/build.h"
#include "formats/formats.h"
#include "test_common.h"

/* ---- byte writer --------------------------------------------------------------------------- */

typedef struct bytes {
    uint8_t d[16384];
    size_t n;
} bytes;

static void put_u8(bytes *b, uint32_t v)
{
    if (b->n < sizeof b->d)
        b->d[b->n++] = (uint8_t)v;
}
static void put_u16(bytes *b, uint32_t v)
{
    put_u8(b, v & 0xFF);
    put_u8(b, (v >> 8) & 0xFF);
}
static void put_u32(bytes *b, uint32_t v)
{
    put_u16(b, v & 0xFFFF);
    put_u16(b, v >> 16);
}
static void put_i32(bytes *b, int32_t v) { put_u32(b, (uint32_t)v); }
static void put_f32(bytes *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32(b, u);
}

/* LSB-first bit writer: fields fill the low bits of an accumulator, whole bytes leave it. */
typedef struct bits {
    bytes *out;
    uint64_t acc;
    unsigned count;
} bits;
static void put_bits(bits *w, uint32_t v, unsigned n)
{
    w->acc |= (uint64_t)(v & ((1u << n) - 1u)) << w->count;
    w->count += n;
    while (w->count >= 8) {
        put_u8(w->out, (uint32_t)(w->acc & 0xFF));
        w->acc >>= 8;
        w->count -= 8;
    }
}

static void caf_header(bytes *b, int32_t version)
{
    b->n = 0;
    put_u8(b, 'C');
    put_u8(b, 'A');
    put_u8(b, 'F');
    put_u8(b, 0);
    put_i32(b, version);
}

/* A key as the file means it: Cal3D (conjugated) quaternion, unit length. */
typedef struct key {
    float t;
    float tr[3];
    float q[4];
} key;

static void normalise(float q[4])
{
    double l = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                    (double)q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        q[i] = (float)(q[i] / l);
}

static void put_plain_track(bytes *b, int32_t bone, const key *keys, int n)
{
    put_i32(b, bone);
    put_i32(b, n);
    for (int k = 0; k < n; k++) {
        put_f32(b, keys[k].t);
        for (int i = 0; i < 3; i++)
            put_f32(b, keys[k].tr[i]);
        for (int i = 0; i < 4; i++)
            put_f32(b, keys[k].q[i]);
    }
}

/* ---- IMVU bit-packed encoder (B.1) --------------------------------------------------------- */

static void put_packed_header(bytes *b, uint32_t bone, int req, int high, int dyn, uint32_t n)
{
    put_u8(b, bone & 0xFF);
    put_u8(b, ((bone >> 8) & 0x1F) | (req ? 0x80u : 0) | (high ? 0x40u : 0) | (dyn ? 0x20u : 0));
    put_u16(b, n);
}

static void put_packed_translation(bytes *b, const float tr[3], int high)
{
    unsigned nb = high ? 25 : 9;
    double range = high ? 8388608.0 : 128.0;
    bits w = {b, 0, 0};
    for (int i = 0; i < 3; i++) {
        double mag = fabs(tr[i]) / range * (double)((1u << nb) - 1u);
        put_bits(&w, (uint32_t)lround(mag), nb);
        put_bits(&w, tr[i] < 0, 1);
    }
    put_bits(&w, 0, 2);
}

static void put_packed_rotation_time(bytes *b, const float q_in[4], float t)
{
    float q[4];
    memcpy(q, q_in, sizeof q);
    unsigned big = 0;
    for (unsigned i = 1; i < 4; i++)
        if (fabsf(q[i]) > fabsf(q[big]))
            big = i;
    if (q[big] < 0) /* the dropped component must come back as a positive root */
        for (int i = 0; i < 4; i++)
            q[i] = -q[i];
    bits w = {b, 0, 0};
    put_bits(&w, big, 2);
    for (unsigned i = 0; i < 4; i++) {
        if (i == big)
            continue;
        put_bits(&w, q[i] < 0, 1);
        put_bits(&w, (uint32_t)lround(fabs(q[i]) * 2047.0), 11);
    }
    put_bits(&w, (uint32_t)lround(t * 30.0), 10);
}

typedef struct packed_track {
    uint32_t bone;
    int req, high, dyn;
    int n;
    key keys[4];
    key raw[4]; /* 916/917 raw extras (exact values) */
} packed_track;

static void put_packed_track(bytes *b, const packed_track *p, int version_extras)
{
    put_packed_header(b, p->bone, p->req, p->high, p->dyn, (uint32_t)p->n);
    for (int k = 0; k < p->n; k++) {
        int written = p->req && (k == 0 || p->dyn);
        if (written)
            put_packed_translation(b, p->keys[k].tr, p->high);
        put_packed_rotation_time(b, p->keys[k].q, p->keys[k].t);
        if (version_extras == 917 && written)
            for (int i = 0; i < 3; i++)
                put_f32(b, p->raw[k].tr[i]);
        if (version_extras == 916 || version_extras == 917)
            for (int i = 0; i < 4; i++)
                put_f32(b, p->raw[k].q[i]);
    }
}

/* ---- v1200 quantised encoder (B.2 / Decision 2) -------------------------------------------- */

typedef struct quant_track {
    int32_t bone;
    float min[3], scale[3];
    int n;
    key keys[4];
} quant_track;

static uint32_t quant(float v, float min, float scale, uint32_t max)
{
    long r = lround((v - min) / scale);
    return r < 0 ? 0u : r > (long)max ? max : (uint32_t)r;
}

static uint16_t word(float c)
{
    float s = c * 1.41421f;
    s = s > 1.0f ? 1.0f : s < -1.0f ? -1.0f : s;
    return (uint16_t)(int16_t)lroundf(s * 32767.0f);
}

static void put_quant_track(bytes *b, const quant_track *p, float duration)
{
    put_i32(b, p->bone);
    put_i32(b, p->n);
    for (int i = 0; i < 3; i++)
        put_f32(b, p->min[i]);
    for (int i = 0; i < 3; i++)
        put_f32(b, p->scale[i]);
    for (int k = 0; k < p->n; k++) {
        const key *kk = &p->keys[k];
        put_u16(b, (uint32_t)lround(kk->t / duration * 65535.0));
        uint32_t x = quant(kk->tr[0], p->min[0], p->scale[0], 1023);
        uint32_t y = quant(kk->tr[1], p->min[1], p->scale[1], 2047);
        uint32_t z = quant(kk->tr[2], p->min[2], p->scale[2], 2047);
        put_u32(b, x | y << 10 | z << 21);
        float q[4];
        memcpy(q, kk->q, sizeof q);
        unsigned big = 0;
        for (unsigned i = 1; i < 4; i++)
            if (fabsf(q[i]) > fabsf(q[big]))
                big = i;
        if (q[big] < 0)
            for (int i = 0; i < 4; i++)
                q[i] = -q[i];
        /* which = index of the reconstructed component; the other three in x,y,z,w order. */
        uint16_t w[3];
        int j = 0;
        for (unsigned i = 0; i < 4; i++)
            if (i != big)
                w[j++] = word(q[i]);
        w[1] = (uint16_t)((w[1] & 0xFFFEu) | ((big >> 1) & 1u));
        w[2] = (uint16_t)((w[2] & 0xFFFEu) | (big & 1u));
        for (int i = 0; i < 3; i++)
            put_u16(b, w[i]);
    }
}

/* ---- loading ------------------------------------------------------------------------------- */

enum { SKEL_BONES = 6 };

/* File bone i (< 5) hangs off the root, which is LAST in the file, so that mapping is not the
 * identity: file i -> model i + 1, file 5 -> model 0. Rest translation of file bone i is
 * (i + 1, 10 (i + 1), -100 (i + 1)). */
static ossa_status add_skeleton(ossa_build *b, uint32_t count)
{
    ossa_bone bones[64];
    if (count > 64)
        return OSSA_ERR_RANGE;
    memset(bones, 0, sizeof bones);
    for (uint32_t i = 0; i < count; i++) {
        bones[i].name = "bone";
        bones[i].parent = i + 1 == count ? -1 : (int32_t)count - 1;
        bones[i].rest_t[0] = (float)(i + 1);
        bones[i].rest_t[1] = 10.0f * (float)(i + 1);
        bones[i].rest_t[2] = -100.0f * (float)(i + 1);
        bones[i].rest_r[3] = bones[i].inv_bind_r[3] = 1.0f;
        bones[i].rest_s[0] = bones[i].rest_s[1] = bones[i].rest_s[2] = 1.0f;
    }
    return ossa_build_set_skeleton(b, bones, count);
}

static uint32_t model_bone(uint32_t file_bone)
{
    return file_bone + 1 == SKEL_BONES ? 0 : file_bone + 1;
}

static ossa_status load(const bytes *b, uint32_t skeleton_bones, ossa_model **out,
                        ossa_error *err)
{
    ossa_error_clear(err);
    *out = NULL;
    ossa_build bd;
    if (!ossa_build_init(&bd, err, NULL))
        return OSSA_ERR_NOMEM;
    ossa_status st = ossa_build_set_file(&bd, "synthetic.caf");
    if (st == OSSA_OK && skeleton_bones)
        st = add_skeleton(&bd, skeleton_bones);
    if (st == OSSA_OK)
        st = ossa_read_caf(&bd, b->d, b->n);
    if (st == OSSA_OK && bd.last_version == 0)
        st = OSSA_ERR_INVALID_ARGUMENT;
    return ossa_build_finish(&bd, st, out);
}

/* The loader's Hamilton quaternion against the file's Cal3D one (q and -q are one rotation). */
static void check_quat(const float *got, const float cal3d[4], double tol, const char *what)
{
    const float h[4] = {-cal3d[0], -cal3d[1], -cal3d[2], cal3d[3]};
    double same = 0, flipped = 0;
    for (int i = 0; i < 4; i++) {
        same = fmax(same, fabs((double)got[i] - h[i]));
        flipped = fmax(flipped, fabs((double)got[i] + h[i]));
    }
    CHECKF(fmin(same, flipped) <= tol, "%s: (%g %g %g %g) vs Hamilton (%g %g %g %g)", what,
           (double)got[0], (double)got[1], (double)got[2], (double)got[3], (double)h[0],
           (double)h[1], (double)h[2], (double)h[3]);
}

static void check_vec(const float *got, const float want[3], double tol, const char *what)
{
    for (int i = 0; i < 3; i++)
        CHECKF(fabs((double)got[i] - want[i]) <= tol, "%s[%d]: %.9g vs %.9g (tol %g)", what, i,
               (double)got[i], (double)want[i], tol);
}

static int has_warning(const ossa_model *m, const char *text)
{
    for (uint32_t i = 0; i < m->warning_count; i++)
        if (strstr(m->warnings[i], text))
            return 1;
    return 0;
}

static key mk(float t, float x, float y, float z, float qx, float qy, float qz, float qw)
{
    key k = {t, {x, y, z}, {qx, qy, qz, qw}};
    normalise(k.q);
    return k;
}

/* Quantisation steps of B.1. */
static const double high_step = 8388608.0 / 33554431.0; /* ~0.25 */
static const double low_step = 128.0 / 511.0;           /* ~0.25 */
static const double packed_q_tol = 3e-3;                 /* 1/2047 per component + root */

/* ---- layouts ------------------------------------------------------------------------------- */

static packed_track imvu_tracks[3];

static void make_imvu_tracks(void)
{
    /* High range, dynamic: every key carries its translation. */
    packed_track *a = &imvu_tracks[0];
    memset(a, 0, sizeof *a);
    a->bone = 1;
    a->req = 1, a->high = 1, a->dyn = 1, a->n = 3;
    a->keys[0] = mk(0.0f, 1000.5f, -20000.25f, 3.0f, 0.1f, -0.2f, 0.3f, 0.9f);
    a->keys[1] = mk(0.5f, -4000000.0f, 12.75f, 0.0f, -0.7f, 0.1f, 0.1f, 0.2f);
    a->keys[2] = mk(1.0f, 8388000.0f, -1.0f, 250.5f, 0.0f, 0.0f, -0.95f, 0.3f);
    /* Low range, static: only the first key has a translation, later keys repeat it. */
    packed_track *bt = &imvu_tracks[1];
    memset(bt, 0, sizeof *bt);
    bt->bone = 2;
    bt->req = 1, bt->high = 0, bt->dyn = 0, bt->n = 3;
    bt->keys[0] = mk(0.0f, 10.0f, -50.0f, 127.9f, 0.0f, 0.6f, 0.0f, 0.8f);
    bt->keys[1] = mk(1.0f / 3.0f, 99.0f, 99.0f, 99.0f, 0.5f, 0.5f, -0.5f, 0.5f);
    bt->keys[2] = mk(2.0f, 1.0f, 1.0f, 1.0f, -0.3f, -0.3f, 0.3f, -0.85f);
    /* No translation at all: the skeleton's rest translation, else 0. */
    packed_track *c = &imvu_tracks[2];
    memset(c, 0, sizeof *c);
    c->bone = 3;
    c->req = 0, c->high = 0, c->dyn = 0, c->n = 2;
    c->keys[0] = mk(0.0f, 0, 0, 0, 0, 0, 0, 1);
    c->keys[1] = mk(2.0f, 0, 0, 0, 0.9f, 0.1f, 0.0f, -0.1f);
    /* 916/917 raw extras: the exact keys (a zero quaternion is rejected as no rotation). */
    for (int t = 0; t < 3; t++)
        for (int k = 0; k < imvu_tracks[t].n; k++)
            imvu_tracks[t].raw[k] = imvu_tracks[t].keys[k];
}

static void check_imvu_clip(const ossa_model *m, int skeleton, const char *label)
{
    CHECKF(m->clip_count == 1, "%s", label);
    const ossa_clip *c = &m->clips[0];
    CHECK(c->compressed && c->track_count == 3 && c->format == OSSA_FORMAT_CAF);
    CHECK_NEAR(c->duration, 2.0, 0);
    CHECK(strcmp(c->name, "synthetic") == 0);
    const packed_track *p = imvu_tracks;
    for (uint32_t t = 0; t < 3 && t < c->track_count; t++) {
        const ossa_track *tr = &c->tracks[t];
        CHECK(tr->bone == (skeleton ? model_bone(p[t].bone) : p[t].bone));
        CHECK(tr->key_count == (uint32_t)p[t].n && tr->scales == NULL);
        uint32_t want_flags = (p[t].req ? OSSA_TRACK_TRANSLATION_REQUIRED : 0u) |
                              (p[t].dyn ? OSSA_TRACK_TRANSLATION_DYNAMIC : 0u) |
                              (p[t].high ? OSSA_TRACK_HIGH_RANGE : 0u);
        CHECK(tr->flags == want_flags);
        for (int k = 0; k < p[t].n; k++) {
            char what[64];
            snprintf(what, sizeof what, "%s track %u key %d", label, t, k);
            CHECK_NEAR(tr->times[k], p[t].keys[k].t, 1e-5);
            check_quat(tr->rotations + 4 * k, p[t].keys[k].q, packed_q_tol, what);
            float want[3] = {0, 0, 0};
            if (p[t].req)
                memcpy(want, p[t].keys[p[t].dyn ? k : 0].tr, sizeof want);
            else if (skeleton)
                want[0] = (float)(p[t].bone + 1), want[1] = 10.0f * want[0],
                want[2] = -100.0f * want[0];
            /* Half a quantisation step, plus float rounding of values up to 2^23. */
            double big = fmax(fabs(want[0]), fmax(fabs(want[1]), fabs(want[2])));
            double tol = !p[t].req ? 0.0
                                   : (p[t].high ? high_step : low_step) * 0.5 + 1e-3 + big * 3e-7;
            check_vec(tr->translations + 3 * k, want, tol, what);
        }
    }
}

static void test_imvu_913(void)
{
    make_imvu_tracks();
    bytes b;
    caf_header(&b, 913);
    put_f32(&b, 2.0f);
    put_i32(&b, 3);
    for (int t = 0; t < 3; t++)
        put_packed_track(&b, &imvu_tracks[t], 0);
    ossa_model *m;
    ossa_error err;
    CHECKF(load(&b, 0, &m, &err) == OSSA_OK, "913: %s", err.message);
    if (m) {
        check_imvu_clip(m, 0, "913");
        CHECK(m->clips[0].version == 913);
        CHECK(has_warning(m, "no skeleton") || has_warning(m, "none was loaded"));
        ossa_model_destroy(m);
    }
    CHECKF(load(&b, SKEL_BONES, &m, &err) == OSSA_OK, "913 skel: %s", err.message);
    if (m) {
        check_imvu_clip(m, 1, "913 with skeleton");
        CHECK(m->warning_count == 1); /* only the skeleton reordering */
        ossa_model_destroy(m);
    }
    /* 918 has the same layout (no raw extras from 918 on). */
    b.d[4] = 918 & 0xFF;
    b.d[5] = 918 >> 8;
    CHECKF(load(&b, 0, &m, &err) == OSSA_OK, "918: %s", err.message);
    if (m) {
        check_imvu_clip(m, 0, "918");
        ossa_model_destroy(m);
    }
}

/* 916: 4 raw rotation floats after every key; 917: also 3 raw translation floats first when a
 * translation block was written. The raw values replace the decoded ones exactly. */
static void test_imvu_extras(int version)
{
    packed_track p[2];
    memset(p, 0, sizeof p);
    p[0].bone = 0, p[0].req = 1, p[0].high = 0, p[0].dyn = 1, p[0].n = 2;
    p[1].bone = 4, p[1].req = 1, p[1].high = 1, p[1].dyn = 0, p[1].n = 3;
    for (int t = 0; t < 2; t++)
        for (int k = 0; k < p[t].n; k++) {
            /* Packed: something coarse; raw: the exact value that must win. */
            p[t].keys[k] = mk((float)k / 3.0f, 5.0f, 6.0f, 7.0f, 0, 0, 0, 1);
            p[t].raw[k] = mk(0, 1.2345678f + (float)k, -2.5f * (float)t, 1e-3f, 0.1f * (float)k,
                             0.2f, -0.3f, 0.9f);
        }
    bytes b;
    caf_header(&b, version);
    put_f32(&b, 1.0f);
    put_i32(&b, 2);
    put_packed_track(&b, &p[0], version);
    put_packed_track(&b, &p[1], version);
    ossa_model *m;
    ossa_error err;
    CHECKF(load(&b, 0, &m, &err) == OSSA_OK, "%d: %s", version, err.message);
    if (!m)
        return;
    const ossa_clip *c = &m->clips[0];
    CHECK(c->track_count == 2 && c->compressed);
    for (uint32_t t = 0; t < 2 && t < c->track_count; t++)
        for (int k = 0; k < p[t].n; k++) {
            const ossa_track *tr = &c->tracks[t];
            const float *q = tr->rotations + 4 * k, *rq = p[t].raw[k].q;
            CHECK(q[0] == -rq[0] && q[1] == -rq[1] && q[2] == -rq[2] && q[3] == rq[3]);
            CHECK_NEAR(tr->times[k], p[t].keys[k].t, 1e-5);
            const float *v = tr->translations + 3 * k;
            int written = k == 0 || p[t].dyn;
            if (version == 917) {
                /* Raw translation where a block was written; a static key repeats key 0's. */
                const float *want = p[t].raw[written ? k : 0].tr;
                CHECK(v[0] == want[0] && v[1] == want[1] && v[2] == want[2]);
            } else {
                check_vec(v, p[t].keys[k].tr, (p[t].high ? high_step : low_step) * 0.5 + 1e-3,
                          "916 translation");
            }
        }
    ossa_model_destroy(m);
}

static void test_imvu_919(void)
{
    key keys[2] = {mk(0.0f, 1, 2, 3, 0.1f, 0.2f, 0.3f, 0.9f),
                   mk(0.5f, -4, 5, -6, -0.4f, 0.1f, 0.0f, 0.8f)};
    /* Flag 0: plain 32-byte keys. */
    bytes b;
    caf_header(&b, 919);
    put_i32(&b, 0);
    put_f32(&b, 0.5f);
    put_i32(&b, 1);
    put_plain_track(&b, 2, keys, 2);
    ossa_model *m;
    ossa_error err;
    CHECKF(load(&b, 0, &m, &err) == OSSA_OK, "919/0: %s", err.message);
    if (m) {
        const ossa_track *tr = &m->clips[0].tracks[0];
        CHECK(!m->clips[0].compressed && tr->bone == 2 && tr->key_count == 2);
        for (int k = 0; k < 2 && k < (int)tr->key_count; k++) {
            check_vec(tr->translations + 3 * k, keys[k].tr, 0, "919/0 translation");
            check_quat(tr->rotations + 4 * k, keys[k].q, 0, "919/0 rotation");
            CHECK(tr->times[k] == keys[k].t);
        }
        ossa_model_destroy(m);
    }
    /* Flag 1: bit-packed, no raw extras. */
    make_imvu_tracks();
    caf_header(&b, 919);
    put_i32(&b, 1);
    put_f32(&b, 2.0f);
    put_i32(&b, 3);
    for (int t = 0; t < 3; t++)
        put_packed_track(&b, &imvu_tracks[t], 0);
    CHECKF(load(&b, SKEL_BONES, &m, &err) == OSSA_OK, "919/1: %s", err.message);
    if (m) {
        check_imvu_clip(m, 1, "919/1");
        ossa_model_destroy(m);
    }
}

static void test_v1200(void)
{
    key keys[3] = {mk(0.0f, 1, 2, 3, 0.1f, 0.2f, 0.3f, 0.9f),
                   mk(0.75f, -4, 5.5f, -6, -0.4f, 0.1f, 0.0f, 0.8f),
                   mk(1.5f, 0.25f, -1, 9, 0.0f, -0.6f, 0.1f, 0.2f)};
    /* Flags 0: plain tracks after the flags word. */
    bytes b;
    caf_header(&b, 1200);
    put_f32(&b, 1.5f);
    put_i32(&b, 1);
    put_u32(&b, 0);
    put_plain_track(&b, 1, keys, 3);
    ossa_model *m;
    ossa_error err;
    CHECKF(load(&b, 0, &m, &err) == OSSA_OK, "1200/0: %s", err.message);
    if (m) {
        const ossa_track *tr = &m->clips[0].tracks[0];
        CHECK(!m->clips[0].compressed && tr->key_count == 3);
        for (int k = 0; k < 3 && k < (int)tr->key_count; k++) {
            check_vec(tr->translations + 3 * k, keys[k].tr, 0, "1200/0 translation");
            check_quat(tr->rotations + 4 * k, keys[k].q, 0, "1200/0 rotation");
        }
        ossa_model_destroy(m);
    }

    /* Flags 1: quantised tracks; every reconstructed-component case (x, y, z, w largest). */
    quant_track q[2];
    memset(q, 0, sizeof q);
    q[0].bone = 3;
    q[0].n = 4;
    const float min0[3] = {-10, -20, -5}, scale0[3] = {0.02f, 0.05f, 0.01f};
    memcpy(q[0].min, min0, sizeof min0);
    memcpy(q[0].scale, scale0, sizeof scale0);
    q[0].keys[0] = mk(0.0f, -10, -20, -5, 0.9f, 0.1f, -0.2f, 0.1f);   /* x largest */
    q[0].keys[1] = mk(0.4f, 0.4f, 30, 10, 0.1f, -0.95f, 0.2f, 0.1f);  /* y largest, negative */
    q[0].keys[2] = mk(1.1f, 10.4f, 82, 15.47f, 0.2f, 0.1f, 0.9f, -0.3f); /* z largest */
    q[0].keys[3] = mk(1.5f, 3.3f, 0, 0, -0.1f, 0.2f, 0.3f, 0.9f);     /* w largest */
    q[1].bone = 0;
    q[1].n = 2;
    const float min1[3] = {100, 100, 100}, scale1[3] = {1, 1, 1};
    memcpy(q[1].min, min1, sizeof min1);
    memcpy(q[1].scale, scale1, sizeof scale1);
    q[1].keys[0] = mk(0.0f, 1123, 2147, 100, 0, 0, 0, 1);
    q[1].keys[1] = mk(1.5f, 100, 100, 2147, 0.5f, 0.5f, 0.5f, 0.5f);
    caf_header(&b, 1200);
    put_f32(&b, 1.5f);
    put_i32(&b, 2);
    put_u32(&b, 1);
    put_quant_track(&b, &q[0], 1.5f);
    put_quant_track(&b, &q[1], 1.5f);
    CHECKF(load(&b, SKEL_BONES, &m, &err) == OSSA_OK, "1200/1: %s", err.message);
    if (m) {
        const ossa_clip *c = &m->clips[0];
        CHECK(c->compressed && c->track_count == 2 && c->version == 1200);
        for (uint32_t t = 0; t < 2 && t < c->track_count; t++) {
            const ossa_track *tr = &c->tracks[t];
            CHECK(tr->bone == model_bone((uint32_t)q[t].bone) && tr->key_count == (uint32_t)q[t].n);
            for (int k = 0; k < q[t].n && k < (int)tr->key_count; k++) {
                char what[64];
                snprintf(what, sizeof what, "1200/1 track %u key %d", t, k);
                CHECK_NEAR(tr->times[k], q[t].keys[k].t, 1.5 / 65535.0);
                double step = fmax(q[t].scale[0], fmax(q[t].scale[1], q[t].scale[2]));
                check_vec(tr->translations + 3 * k, q[t].keys[k].tr, step * 0.5 + 1e-4, what);
                check_quat(tr->rotations + 4 * k, q[t].keys[k].q, 2e-4, what);
            }
        }
        ossa_model_destroy(m);
    }
}

static void test_upstream(void)
{
    make_imvu_tracks();
    /* 1300, compression flag 1: bit-packed without the 916/917 extras. */
    bytes b;
    caf_header(&b, 1300);
    put_i32(&b, 1);
    put_f32(&b, 2.0f);
    put_i32(&b, 3);
    put_u32(&b, 0);
    for (int t = 0; t < 3; t++)
        put_packed_track(&b, &imvu_tracks[t], 0);
    ossa_model *m;
    ossa_error err;
    CHECKF(load(&b, SKEL_BONES, &m, &err) == OSSA_OK, "1300/1: %s", err.message);
    if (m) {
        check_imvu_clip(m, 1, "1300/1");
        CHECK(!has_warning(m, "bit-packed"));
        ossa_model_destroy(m);
    }
    /* 1300, compression flag 0 but flags bit 0: the upstream saver's bit-packed tracks. */
    b.d[8] = 0;  /* compression flag */
    b.d[20] = 1; /* flags */
    CHECKF(load(&b, 0, &m, &err) == OSSA_OK, "1300 flags: %s", err.message);
    if (m) {
        check_imvu_clip(m, 0, "1300 flags bit 0");
        CHECK(has_warning(m, "bit-packed"));
        ossa_model_destroy(m);
    }

    /* 1301, plain tracks: the 1e10 sentinel becomes the bone's rest translation. */
    key keys[3] = {mk(0.0f, 1e10f, 1e10f, 1e10f, 0.1f, 0.2f, 0.3f, 0.9f),
                   mk(0.2f, 1, 2, 3, 0, 0, 0, 1),
                   mk(0.4f, 1e10f, 1e10f, 1e10f, 0, 1, 0, 0)};
    caf_header(&b, 1301);
    put_i32(&b, 0);
    put_f32(&b, 0.4f);
    put_i32(&b, 2);
    put_u32(&b, 0);
    put_plain_track(&b, 4, keys, 3);
    put_plain_track(&b, 5, keys, 3);
    CHECKF(load(&b, SKEL_BONES, &m, &err) == OSSA_OK, "1301: %s", err.message);
    if (m) {
        const ossa_clip *c = &m->clips[0];
        CHECK(c->version == 1301 && !c->compressed && c->track_count == 2);
        CHECK(c->tracks[0].bone == 5 && c->tracks[1].bone == 0);
        const float rest4[3] = {5, 50, -500}, rest5[3] = {6, 60, -600};
        check_vec(c->tracks[0].translations + 0, rest4, 0, "1301 sentinel key 0");
        check_vec(c->tracks[0].translations + 3, keys[1].tr, 0, "1301 key 1");
        check_vec(c->tracks[0].translations + 6, rest4, 0, "1301 sentinel key 2");
        check_vec(c->tracks[1].translations + 6, rest5, 0, "1301 root sentinel");
        check_quat(c->tracks[1].rotations + 8, keys[2].q, 0, "1301 rotation");
        ossa_model_destroy(m);
    }
    /* Without a skeleton the sentinel becomes 0, with one warning for the whole file. */
    CHECKF(load(&b, 0, &m, &err) == OSSA_OK, "1301 no skeleton: %s", err.message);
    if (m) {
        const float zero[3] = {0, 0, 0};
        check_vec(m->clips[0].tracks[0].translations, zero, 0, "1301 sentinel without skeleton");
        check_vec(m->clips[0].tracks[1].translations + 6, zero, 0, "1301 sentinel 2");
        CHECK(m->warning_count == 1 && has_warning(m, "1e10"));
        ossa_model_destroy(m);
    }
}

static void test_classic_unsorted(void)
{
    key keys[3] = {mk(0.5f, 1, 0, 0, 0, 0, 0, 1), mk(0.0f, 2, 0, 0, 0, 0, 0, 1),
                   mk(0.25f, 3, 0, 0, 0, 0, 1, 0)};
    bytes b;
    caf_header(&b, 1000);
    put_f32(&b, 0.5f);
    put_i32(&b, 1);
    put_plain_track(&b, 0, keys, 3);
    ossa_model *m;
    ossa_error err;
    CHECKF(load(&b, 0, &m, &err) == OSSA_OK, "unsorted: %s", err.message);
    if (m) {
        const ossa_track *tr = &m->clips[0].tracks[0];
        CHECK(tr->times[0] == 0.0f && tr->times[1] == 0.25f && tr->times[2] == 0.5f);
        CHECK(tr->translations[0] == 2.0f && tr->translations[3] == 3.0f &&
              tr->translations[6] == 1.0f);
        CHECK(tr->rotations[4 + 2] == -1.0f);
        CHECK(has_warning(m, "out of time order"));
        ossa_model_destroy(m);
    }
}

/* ---- errors -------------------------------------------------------------------------------- */

static void expect_fail(const bytes *b, uint32_t skeleton, ossa_status want, int64_t offset,
                        const char *text, const char *label)
{
    ossa_model *m;
    ossa_error err;
    ossa_status st = load(b, skeleton, &m, &err);
    CHECKF(st == want && m == NULL, "%s: status %s (%s), want %s", label, ossa_status_name(st),
           err.message, ossa_status_name(want));
    if (offset >= 0)
        CHECKF(err.offset == offset, "%s: offset %lld, want %lld (%s)", label,
               (long long)err.offset, (long long)offset, err.message);
    if (text)
        CHECKF(strstr(err.message, text) != NULL, "%s: message '%s' lacks '%s'", label,
               err.message, text);
    ossa_model_destroy(m);
}

static void test_errors(void)
{
    key keys[2] = {mk(0.0f, 1, 2, 3, 0, 0, 0, 1), mk(0.5f, 1, 2, 3, 0, 0, 0, 1)};
    bytes b;

    /* Versions outside 699..1301, named in the message. */
    caf_header(&b, 698);
    put_f32(&b, 1.0f);
    put_i32(&b, 1);
    put_plain_track(&b, 0, keys, 2);
    expect_fail(&b, 0, OSSA_ERR_VERSION, 4, "698", "version 698");
    b.d[4] = 1302 & 0xFF;
    b.d[5] = 1302 >> 8;
    expect_fail(&b, 0, OSSA_ERR_VERSION, 4, "1302", "version 1302");

    /* Bad magic. */
    caf_header(&b, 700);
    b.d[2] = 'X';
    put_f32(&b, 1.0f);
    put_i32(&b, 1);
    put_plain_track(&b, 0, keys, 2);
    expect_fail(&b, 0, OSSA_ERR_FORMAT, 0, "magic", "magic");

    /* A track for bone 40 with a 37-bone skeleton: rejected at the bone id. */
    caf_header(&b, 700);
    put_f32(&b, 1.0f);
    put_i32(&b, 2);
    put_plain_track(&b, 36, keys, 2);
    size_t bone_at = b.n;
    put_plain_track(&b, 40, keys, 2);
    expect_fail(&b, 37, OSSA_ERR_RANGE, (int64_t)bone_at, "40", "bone 40 of 37");
    /* The same file without a skeleton is fine. */
    ossa_model *m;
    ossa_error err;
    CHECKF(load(&b, 0, &m, &err) == OSSA_OK, "bone 40 without skeleton: %s", err.message);
    ossa_model_destroy(m);
    /* And in a bit-packed track (13-bit id in the header word). */
    packed_track p;
    memset(&p, 0, sizeof p);
    p.bone = 40, p.req = 1, p.dyn = 1, p.n = 1;
    p.keys[0] = keys[0];
    caf_header(&b, 913);
    put_f32(&b, 1.0f);
    put_i32(&b, 1);
    put_packed_track(&b, &p, 0);
    expect_fail(&b, 37, OSSA_ERR_RANGE, 16, "40", "packed bone 40 of 37");

    /* NaN key time, at its offset. */
    caf_header(&b, 1000);
    put_f32(&b, 1.0f);
    put_i32(&b, 1);
    put_plain_track(&b, 0, keys, 2);
    size_t time1 = 16 + 8 + 32;
    const float nan = NAN;
    memcpy(b.d + time1, &nan, 4);
    expect_fail(&b, 0, OSSA_ERR_VALUE, (int64_t)time1, "time", "NaN time");
    /* Infinite rotation component. */
    caf_header(&b, 1000);
    put_f32(&b, 1.0f);
    put_i32(&b, 1);
    put_plain_track(&b, 0, keys, 2);
    const float inf = INFINITY;
    memcpy(b.d + 16 + 8 + 32 + 28, &inf, 4);
    expect_fail(&b, 0, OSSA_ERR_VALUE, 16 + 8 + 32 + 28, "rotation", "Inf rotation");

    /* Every truncation of a valid file fails cleanly, and a cut inside a key says so. */
    caf_header(&b, 1000);
    put_f32(&b, 1.0f);
    put_i32(&b, 2);
    put_plain_track(&b, 0, keys, 2);
    put_plain_track(&b, 1, keys, 2);
    bytes cut = b;
    for (size_t n = 0; n < b.n; n++) {
        cut.n = n;
        ossa_status st = load(&cut, 0, &m, &err);
        CHECKF(st != OSSA_OK && m == NULL, "prefix of %zu bytes loaded", n);
        CHECKF(st == OSSA_ERR_TRUNCATED || st == OSSA_ERR_RANGE, "prefix %zu: %s", n,
               err.message);
        ossa_model_destroy(m);
    }
    cut.n = b.n - 5; /* inside the last key */
    expect_fail(&cut, 0, OSSA_ERR_TRUNCATED, 16 + 72 + 4, "keyframe", "truncated key");

    /* Lying counts: keys beyond the bytes left, beyond the cap, negative, zero. */
    caf_header(&b, 1000);
    put_f32(&b, 1.0f);
    put_i32(&b, 1);
    put_plain_track(&b, 0, keys, 2);
    bytes lie = b;
    memcpy(lie.d + 20, &(int32_t){1000000}, 4);
    expect_fail(&lie, 0, OSSA_ERR_TRUNCATED, 20, "keyframe", "key count 1e6");
    memcpy(lie.d + 20, &(int32_t){0x7fffffff}, 4);
    expect_fail(&lie, 0, OSSA_ERR_RANGE, 20, "keyframe", "key count 2^31-1");
    memcpy(lie.d + 20, &(int32_t){-3}, 4);
    expect_fail(&lie, 0, OSSA_ERR_RANGE, 20, "negative", "key count -3");
    memcpy(lie.d + 20, &(int32_t){0}, 4);
    expect_fail(&lie, 0, OSSA_ERR_RANGE, 20, "0", "key count 0");
    lie = b;
    memcpy(lie.d + 12, &(int32_t){3000}, 4);
    expect_fail(&lie, 0, OSSA_ERR_TRUNCATED, 12, "track count", "track count 3000");
    memcpy(lie.d + 12, &(int32_t){0}, 4);
    expect_fail(&lie, 0, OSSA_ERR_RANGE, 12, "track count", "track count 0");
    lie = b;
    memcpy(lie.d + 8, &(float){0.0f}, 4);
    expect_fail(&lie, 0, OSSA_ERR_VALUE, 8, "duration", "duration 0");
    memcpy(lie.d + 8, &nan, 4);
    expect_fail(&lie, 0, OSSA_ERR_VALUE, 8, "duration", "duration NaN");

    /* Bit-packed: a 16-bit key count larger than the bytes, and a count of 0. */
    caf_header(&b, 913);
    put_f32(&b, 1.0f);
    put_i32(&b, 1);
    put_packed_track(&b, &p, 0);
    lie = b;
    lie.d[18] = 0xFF;
    lie.d[19] = 0xFF;
    expect_fail(&lie, 0, OSSA_ERR_TRUNCATED, 18, "65535", "packed key count");
    lie.d[18] = 0;
    lie.d[19] = 0;
    expect_fail(&lie, 0, OSSA_ERR_RANGE, 18, "0", "packed key count 0");
    /* 917 raw extras that are NaN. */
    packed_track p17 = p;
    p17.raw[0] = keys[0];
    p17.raw[0].q[1] = NAN;
    caf_header(&b, 917);
    put_f32(&b, 1.0f);
    put_i32(&b, 1);
    put_packed_track(&b, &p17, 917);
    expect_fail(&b, 0, OSSA_ERR_VALUE, -1, "raw keyframe rotation", "917 NaN raw rotation");

    /* Quantised: min + raw x scale overflowing to infinity. */
    quant_track q;
    memset(&q, 0, sizeof q);
    q.n = 1;
    q.min[0] = 3e38f;
    q.scale[0] = 3e38f;
    q.scale[1] = q.scale[2] = 1.0f;
    q.keys[0] = mk(0, 0, 0, 0, 0, 0, 0, 1);
    caf_header(&b, 1200);
    put_f32(&b, 1.0f);
    put_i32(&b, 1);
    put_u32(&b, 1);
    put_quant_track(&b, &q, 1.0f);
    b.d[20 + 8 + 24 + 2] = 0xFF; /* raw x = 1023 */
    b.d[20 + 8 + 24 + 3] |= 0x03;
    expect_fail(&b, 0, OSSA_ERR_VALUE, 20 + 8 + 24, "overflows", "quantised overflow");
}

/* Every single-bit flip of a few valid files either loads a valid model or fails with an error;
 * under the sanitizers this also proves no out-of-bounds read and no leak. */
static void flip_all_bits(const bytes *b, uint32_t skeleton, const char *label)
{
    bytes f = *b;
    int loaded = 0, failed = 0;
    for (size_t i = 0; i < b->n; i++)
        for (int bit = 0; bit < 8; bit++) {
            f.d[i] = (uint8_t)(b->d[i] ^ (1u << bit));
            ossa_model *m;
            ossa_error err;
            ossa_status st = load(&f, skeleton, &m, &err);
            CHECKF((st == OSSA_OK) == (m != NULL), "%s: byte %zu bit %d", label, i, bit);
            CHECKF(st == OSSA_OK || err.message[0], "%s: failure without a message", label);
            if (st == OSSA_OK)
                loaded++;
            else
                failed++;
            ossa_model_destroy(m);
            f.d[i] = b->d[i];
        }
    CHECKF(loaded > 0 && failed > 0, "%s: %d loaded, %d failed", label, loaded, failed);
}

static void test_bit_flips(void)
{
    make_imvu_tracks();
    bytes b;
    caf_header(&b, 917);
    put_f32(&b, 2.0f);
    put_i32(&b, 3);
    for (int t = 0; t < 3; t++)
        put_packed_track(&b, &imvu_tracks[t], 917);
    flip_all_bits(&b, SKEL_BONES, "917");
    caf_header(&b, 1300);
    put_i32(&b, 1);
    put_f32(&b, 2.0f);
    put_i32(&b, 3);
    put_u32(&b, 0);
    for (int t = 0; t < 3; t++)
        put_packed_track(&b, &imvu_tracks[t], 0);
    flip_all_bits(&b, 0, "1300");
    quant_track q;
    memset(&q, 0, sizeof q);
    q.bone = 2;
    q.n = 2;
    q.scale[0] = q.scale[1] = q.scale[2] = 0.5f;
    q.keys[0] = mk(0, 1, 2, 3, 0.1f, 0.2f, 0.3f, 0.9f);
    q.keys[1] = mk(1, 3, 2, 1, 0.9f, 0.2f, 0.3f, 0.1f);
    caf_header(&b, 1200);
    put_f32(&b, 1.0f);
    put_i32(&b, 1);
    put_u32(&b, 1);
    put_quant_track(&b, &q, 1.0f);
    flip_all_bits(&b, SKEL_BONES, "1200");
    key keys[2] = {mk(0.0f, 1e10f, 1e10f, 1e10f, 0, 0, 0, 1), mk(0.5f, 1, 2, 3, 0, 0, 0, 1)};
    caf_header(&b, 1301);
    put_i32(&b, 0);
    put_f32(&b, 1.0f);
    put_i32(&b, 1);
    put_u32(&b, 0);
    put_plain_track(&b, 4, keys, 2);
    flip_all_bits(&b, SKEL_BONES, "1301");
}

int main(void)
{
    test_imvu_913();
    test_imvu_extras(916);
    test_imvu_extras(917);
    test_imvu_919();
    test_v1200();
    test_upstream();
    test_classic_unsorted();
    test_errors();
    test_bit_flips();
    return test_finish("binary-caf-layouts");
}
