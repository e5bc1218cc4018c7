/* The CAF test fixture (caf_fixture.h). */
#include "caf_fixture.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/build_context.h"
#include "formats/formats.h"
#include "test_common.h"

/* ---- byte writer --------------------------------------------------------------------------- */


void put_u8(bytes *b, uint32_t v)
{
    if (b->n < sizeof b->d)
        b->d[b->n++] = (uint8_t)v;
}
void put_u16(bytes *b, uint32_t v)
{
    put_u8(b, v & 0xFF);
    put_u8(b, (v >> 8) & 0xFF);
}
void put_u32(bytes *b, uint32_t v)
{
    put_u16(b, v & 0xFFFF);
    put_u16(b, v >> 16);
}
void put_i32(bytes *b, int32_t v) { put_u32(b, (uint32_t)v); }
void put_f32(bytes *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32(b, u);
}

void put_bits(bits *w, uint32_t v, unsigned n)
{
    w->acc |= (uint64_t)(v & ((1u << n) - 1u)) << w->count;
    w->count += n;
    while (w->count >= 8) {
        put_u8(w->out, (uint32_t)(w->acc & 0xFF));
        w->acc >>= 8;
        w->count -= 8;
    }
}

void caf_header(bytes *b, int32_t version)
{
    b->n = 0;
    put_u8(b, 'C');
    put_u8(b, 'A');
    put_u8(b, 'F');
    put_u8(b, 0);
    put_i32(b, version);
}


void normalise(float q[4])
{
    double l = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                    (double)q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        q[i] = (float)(q[i] / l);
}

void put_plain_track(bytes *b, int32_t bone, const key *keys, int n)
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

/* ---- IMVU bit-packed encoder -------------------------------------------------------------- */

void put_packed_header(bytes *b, uint32_t bone, int req, int high, int dyn, uint32_t n)
{
    put_u8(b, bone & 0xFF);
    put_u8(b, ((bone >> 8) & 0x1F) | (req ? 0x80u : 0) | (high ? 0x40u : 0) | (dyn ? 0x20u : 0));
    put_u16(b, n);
}

void put_packed_translation(bytes *b, const float tr[3], int high)
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

void put_packed_rotation_time(bytes *b, const float q_in[4], float t)
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


void put_packed_track(bytes *b, const packed_track *p, int version_extras)
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

/* ---- v1200 quantised encoder (D2) --------------------------------------------------------- */


uint32_t quant(float v, float min, float scale, uint32_t max)
{
    long r = lround((v - min) / scale);
    return r < 0 ? 0u : r > (long)max ? max : (uint32_t)r;
}

uint16_t word(float c)
{
    float s = c * 1.41421f;
    s = s > 1.0f ? 1.0f : s < -1.0f ? -1.0f : s;
    return (uint16_t)(int16_t)lroundf(s * 32767.0f);
}

void put_quant_track(bytes *b, const quant_track *p, float duration)
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


/* File bone i (< 5) hangs off the root, which is LAST in the file, so that mapping is not the
 * identity: file i -> model i + 1, file 5 -> model 0. Rest translation of file bone i is
 * (i + 1, 10 (i + 1), -100 (i + 1)). */
ossa_status add_skeleton(ossa_build *b, uint32_t count)
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

uint32_t model_bone(uint32_t file_bone)
{
    return file_bone + 1 == SKEL_BONES ? 0 : file_bone + 1;
}

ossa_status load(const bytes *b, uint32_t skeleton_bones, ossa_model **out,
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
void check_quat(const float *got, const float cal3d[4], double tol, const char *what)
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

void check_vec(const float *got, const float want[3], double tol, const char *what)
{
    for (int i = 0; i < 3; i++)
        CHECKF(fabs((double)got[i] - want[i]) <= tol, "%s[%d]: %.9g vs %.9g (tol %g)", what, i,
               (double)got[i], (double)want[i], tol);
}

int has_warning(const ossa_model *m, const char *text)
{
    for (uint32_t i = 0; i < m->warning_count; i++)
        if (strstr(m->warnings[i], text))
            return 1;
    return 0;
}

key mk(float t, float x, float y, float z, float qx, float qy, float qz, float qw)
{
    key k = {t, {x, y, z}, {qx, qy, qz, qw}};
    normalise(k.q);
    return k;
}

/* Three IMVU tracks covering the packed encodings: high range dynamic, low range static, no
 * translation. */
void make_imvu_tracks(packed_track imvu_tracks[3])
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
