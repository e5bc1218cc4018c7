/* Test-only Cal3D binary writer, its CAF part (see cal3d_writer.h): the CAF header words of each
 * version, IMVU bit-packed keyframes, 1200 quantised keyframes (D2), and
 * what a reader decodes from them (cw_expect_key, cw_quantisation_tolerance). */
#include "cal3d_writer.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "cal3d_writer_internal.h"

/* ---- CAF version rules (CAF layout) ---- */

/* The CAF compression flag word after the version: IMVU >= 919 and upstream (CAF layout). */
static int has_compression_word(int v) { return (is_imvu(v) && v >= 919) || is_upstream(v); }
/* The flags word after the track count: 1200 (docs/FORMATS.md, CAF layout) and upstream (CAF
 * layout). */
static int has_flags_word(int v) { return is_v1200(v) || is_upstream(v); }

cw_track_layout cw_caf_layout(int v, const cw_caf_options *opt)
{
    int compress = opt ? opt->compress : 0;
    uint32_t flags = opt ? opt->flags : 0;
    if (is_imvu(v) && v >= 913 && v < 919)
        return CW_LAYOUT_BITPACKED;
    if (has_compression_word(v))
        return compress ? CW_LAYOUT_BITPACKED : CW_LAYOUT_RAW;
    if (is_v1200(v) && (flags & 1u))
        return CW_LAYOUT_QUANTISED;
    return CW_LAYOUT_RAW;
}

/* ---- IMVU bit-packed keyframes (Bit-packed CAF keys) ---- */

/* LSB-first bit stream: each field goes into the next free low bits. */
typedef struct bitw {
    uint8_t bytes[16];
    unsigned bit;
} bitw;

static void bits_put(bitw *bw, uint32_t value, unsigned count)
{
    for (unsigned i = 0; i < count; i++, bw->bit++)
        if (value & (1u << i))
            bw->bytes[bw->bit / 8] |= (uint8_t)(1u << (bw->bit % 8));
}

/* Translation magnitudes: low range 9 bits over [0, 128], high range 25 bits over [0, 2^23]. */
static unsigned trans_bits(int high) { return high ? 25u : 9u; }
static double trans_max_mag(int high) { return high ? 33554431.0 : 511.0; }
static double trans_range(int high) { return high ? 8388608.0 : 128.0; }

static uint32_t trans_encode(float v, int high, int *negative)
{
    double m = fabs((double)v) / trans_range(high) * trans_max_mag(high);
    m = floor(m + 0.5);
    if (m > trans_max_mag(high))
        m = trans_max_mag(high);
    *negative = v < 0.0f;
    return (uint32_t)m;
}

static float trans_decode(uint32_t mag, int negative, int high)
{
    float v = (float)((double)mag / trans_max_mag(high) * trans_range(high));
    return negative ? -v : v;
}

/* Quaternion: the largest |component| is dropped and made positive by negating the whole
 * quaternion (the same rotation); the other three are sign + 11-bit magnitude of c * 2047. */
typedef struct packed_quat {
    unsigned dropped;
    uint32_t mag[3];
    int negative[3];
} packed_quat;

static packed_quat quat_encode(const float q[4])
{
    packed_quat p;
    unsigned big = 0;
    for (unsigned i = 1; i < 4; i++)
        if (fabsf(q[i]) > fabsf(q[big]))
            big = i;
    float sign = q[big] < 0.0f ? -1.0f : 1.0f;
    p.dropped = big;
    unsigned k = 0;
    for (unsigned i = 0; i < 4; i++) {
        if (i == big)
            continue;
        float c = q[i] * sign;
        double m = floor(fabs((double)c) * 2047.0 + 0.5);
        p.mag[k] = m > 2047.0 ? 2047u : (uint32_t)m;
        p.negative[k] = c < 0.0f && p.mag[k] != 0;
        k++;
    }
    return p;
}

static void quat_decode(const packed_quat *p, float q[4])
{
    float sum = 0.0f;
    unsigned k = 0;
    for (unsigned i = 0; i < 4; i++) {
        if (i == p->dropped)
            continue;
        float c = (float)((double)p->mag[k] / 2047.0);
        q[i] = p->negative[k] ? -c : c;
        sum += q[i] * q[i];
        k++;
    }
    q[p->dropped] = sqrtf(1.0f - (sum < 1.0f ? sum : 1.0f));
}

static uint32_t time_steps(float t)
{
    double s = floor((double)t * 30.0 + 0.5);
    if (s < 0.0)
        s = 0.0;
    return s > 1023.0 ? 1023u : (uint32_t)s;
}

/* Whether key k of a bit-packed track carries a translation block. */
static int translation_written(const cw_track *t, uint32_t k)
{
    return (t->flags & CW_TRACK_TRANSLATION_REQUIRED) &&
           (k == 0 || (t->flags & CW_TRACK_TRANSLATION_DYNAMIC));
}

static void put_bitpacked_track(wbuf *w, const cw_track *t, int version)
{
    if (t->bone < 0 || t->bone > 0x1FFF || t->key_count > 0xFFFF) {
        w->failed = 1;
        return;
    }
    uint8_t b1 = (uint8_t)(((uint32_t)t->bone >> 8) & 0x1Fu);
    if (t->flags & CW_TRACK_TRANSLATION_REQUIRED)
        b1 |= 0x80;
    if (t->flags & CW_TRACK_HIGH_RANGE)
        b1 |= 0x40;
    if (t->flags & CW_TRACK_TRANSLATION_DYNAMIC)
        b1 |= 0x20;
    put_u8(w, (uint8_t)(t->bone & 0xFF));
    put_u8(w, b1);
    put_u16(w, (uint16_t)t->key_count);
    int high = (t->flags & CW_TRACK_HIGH_RANGE) != 0;
    for (uint32_t k = 0; k < t->key_count; k++) {
        const cw_key *key = &t->keys[k];
        int with_t = translation_written(t, k);
        if (with_t) {
            bitw bw = {{0}, 0};
            for (int i = 0; i < 3; i++) {
                int neg;
                uint32_t mag = trans_encode(key->translation[i], high, &neg);
                bits_put(&bw, mag, trans_bits(high));
                bits_put(&bw, (uint32_t)neg, 1);
            }
            bits_put(&bw, 0, 2);
            put_bytes(w, bw.bytes, bw.bit / 8);
        }
        packed_quat p = quat_encode(key->rotation);
        bitw bw = {{0}, 0};
        bits_put(&bw, p.dropped, 2);
        for (int i = 0; i < 3; i++) {
            bits_put(&bw, (uint32_t)p.negative[i], 1);
            bits_put(&bw, p.mag[i], 11);
        }
        bits_put(&bw, time_steps(key->time), 10);
        put_bytes(w, bw.bytes, 6);
        /* IMVU extras: 916/917 raw rotation, 917 raw translation first (Bit-packed CAF keys). */
        if (is_imvu(version) && version >= 916 && version < 918) {
            if (version == 917 && with_t)
                put_f32v(w, key->translation, 3);
            put_f32v(w, key->rotation, 4);
        }
    }
}

/* ---- D2: 1200 quantised keyframes ---- */

typedef struct quant_track {
    float min[3], scale[3];
} quant_track;

static const uint32_t quant_max[3] = {1023u, 2047u, 2047u}; /* x 10 bits, y and z 11 bits */

static quant_track quant_prepare(const cw_track *t)
{
    quant_track q;
    for (int i = 0; i < 3; i++) {
        float lo = t->keys[0].translation[i], hi = lo;
        for (uint32_t k = 1; k < t->key_count; k++) {
            float v = t->keys[k].translation[i];
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        q.min[i] = lo;
        q.scale[i] = (hi - lo) / (float)quant_max[i];
    }
    return q;
}

static uint32_t quant_raw(const quant_track *q, int i, float v)
{
    if (q->scale[i] == 0.0f)
        return 0;
    double r = floor(((double)v - q->min[i]) / q->scale[i] + 0.5);
    if (r < 0.0)
        r = 0.0;
    return r > quant_max[i] ? quant_max[i] : (uint32_t)r;
}

static uint32_t quant_pack(const quant_track *q, const float v[3])
{
    return quant_raw(q, 0, v[0]) | quant_raw(q, 1, v[1]) << 10 | quant_raw(q, 2, v[2]) << 21;
}

static void quant_unpack(const quant_track *q, uint32_t p, float v[3])
{
    uint32_t raw[3] = {p & 0x3FFu, (p >> 10) & 0x7FFu, p >> 21};
    for (int i = 0; i < 3; i++)
        v[i] = q->min[i] + (float)raw[i] * q->scale[i];
}

static uint16_t quant_time(float t, float duration)
{
    double r = floor((double)t / duration * 65535.0 + 0.5);
    if (r < 0.0)
        r = 0.0;
    return r > 65535.0 ? 65535u : (uint16_t)r;
}

#define QUAT3_K (1.0 / 32767.0 / 1.41421)

/* which: 3 = w dropped (x,y,z stored), 2 = z dropped (x,y,w), 1 = y (x,z,w), 0 = x (y,z,w). */
static const int quat3_stored[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};

static void quat3_encode(const float q[4], int16_t s[3])
{
    int big = 0;
    for (int i = 1; i < 4; i++)
        if (fabsf(q[i]) > fabsf(q[big]))
            big = i;
    float sign = q[big] < 0.0f ? -1.0f : 1.0f;
    for (int k = 0; k < 3; k++) {
        double c = (double)(q[quat3_stored[big][k]] * sign) * 1.41421;
        c = c > 1.0 ? 1.0 : c < -1.0 ? -1.0 : c;
        s[k] = (int16_t)lrint(c * 32767.0);
    }
    int which = big;
    s[1] = (int16_t)(((uint16_t)s[1] & 0xFFFEu) | (uint16_t)((which >> 1) & 1));
    s[2] = (int16_t)(((uint16_t)s[2] & 0xFFFEu) | (uint16_t)(which & 1));
}

static void quat3_decode(const int16_t s_in[3], float q[4])
{
    int which = ((s_in[1] & 1) << 1) | (s_in[2] & 1);
    int16_t s[3] = {s_in[0], (int16_t)(s_in[1] & ~1), (int16_t)(s_in[2] & ~1)};
    float sum = 0.0f;
    for (int k = 0; k < 3; k++) {
        float c = (float)(s[k] * QUAT3_K);
        q[quat3_stored[which][k]] = c;
        sum += c * c;
    }
    float r = 1.0f - sum;
    q[which] = r > FLT_EPSILON ? sqrtf(r) : r;
}

static void put_quantised_track(wbuf *w, const cw_track *t, float duration)
{
    quant_track q = quant_prepare(t);
    put_i32(w, t->bone);
    put_u32(w, t->key_count);
    put_f32v(w, q.min, 3);
    put_f32v(w, q.scale, 3);
    for (uint32_t k = 0; k < t->key_count; k++) {
        const cw_key *key = &t->keys[k];
        put_u16(w, quant_time(key->time, duration));
        put_u32(w, quant_pack(&q, key->translation));
        int16_t s[3];
        quat3_encode(key->rotation, s);
        for (int i = 0; i < 3; i++)
            put_u16(w, (uint16_t)s[i]);
    }
}

/* ---- CAF (CAF layout) ---- */

uint8_t *cw_write_caf(const cw_animation *a, int version, const cw_caf_options *opt,
                      size_t *size)
{
    wbuf w = {0};
    cw_track_layout layout = cw_caf_layout(version, opt);
    put_magic(&w, "CAF", version);
    if (has_compression_word(version))
        put_i32(&w, opt ? opt->compress : 0);
    put_f32(&w, a->duration);
    put_u32(&w, a->track_count);
    if (has_flags_word(version))
        put_u32(&w, opt ? opt->flags : 0);
    for (uint32_t i = 0; i < a->track_count; i++) {
        const cw_track *t = &a->tracks[i];
        if (layout == CW_LAYOUT_BITPACKED) {
            put_bitpacked_track(&w, t, version);
        } else if (layout == CW_LAYOUT_QUANTISED) {
            put_quantised_track(&w, t, a->duration);
        } else {
            put_i32(&w, t->bone);
            put_u32(&w, t->key_count);
            for (uint32_t k = 0; k < t->key_count; k++) {
                put_f32(&w, t->keys[k].time);
                put_f32v(&w, t->keys[k].translation, 3);
                put_f32v(&w, t->keys[k].rotation, 4);
            }
        }
    }
    return finish(&w, size);
}

void cw_expect_key(const cw_animation *a, const cw_skeleton *skel, int version,
                   const cw_caf_options *opt, uint32_t track, uint32_t key, cw_key *out)
{
    const cw_track *t = &a->tracks[track];
    const cw_key *in = &t->keys[key];
    cw_track_layout layout = cw_caf_layout(version, opt);
    *out = *in;
    if (layout == CW_LAYOUT_QUANTISED) {
        quant_track q = quant_prepare(t);
        out->time = (float)quant_time(in->time, a->duration) / 65535.0f * a->duration;
        quant_unpack(&q, quant_pack(&q, in->translation), out->translation);
        int16_t s[3];
        quat3_encode(in->rotation, s);
        quat3_decode(s, out->rotation);
        return;
    }
    if (layout != CW_LAYOUT_BITPACKED)
        return;
    out->time = (float)time_steps(in->time) / 30.0f;
    int raw_rotation = is_imvu(version) && version >= 916 && version < 918;
    int raw_translation = is_imvu(version) && version == 917;
    if (raw_rotation) {
        memcpy(out->rotation, in->rotation, sizeof out->rotation);
    } else {
        packed_quat p = quat_encode(in->rotation);
        quat_decode(&p, out->rotation);
    }
    if (translation_written(t, key)) {
        if (!raw_translation) {
            int high = (t->flags & CW_TRACK_HIGH_RANGE) != 0;
            for (int i = 0; i < 3; i++) {
                int neg;
                uint32_t mag = trans_encode(in->translation[i], high, &neg);
                out->translation[i] = trans_decode(mag, neg, high);
            }
        }
    } else if (t->flags & CW_TRACK_TRANSLATION_REQUIRED) {
        cw_key prev;
        cw_expect_key(a, skel, version, opt, track, key - 1, &prev);
        memcpy(out->translation, prev.translation, sizeof out->translation);
    } else {
        memcpy(out->translation, skel->bones[t->bone].translation, sizeof out->translation);
    }
}

void cw_quantisation_tolerance(const cw_animation *a, int version, const cw_caf_options *opt,
                               uint32_t track, float *time_tol, float *translation_tol,
                               float *rotation_tol)
{
    cw_track_layout layout = cw_caf_layout(version, opt);
    *time_tol = *translation_tol = *rotation_tol = 0.0f;
    if (layout == CW_LAYOUT_QUANTISED) {
        quant_track q = quant_prepare(&a->tracks[track]);
        *time_tol = a->duration / 65535.0f * 0.5f;
        for (int i = 0; i < 3; i++)
            if (q.scale[i] * 0.5f > *translation_tol)
                *translation_tol = q.scale[i] * 0.5f;
        /* Stored components: half of 1/(32767*1.41421) plus the tag bit; the reconstructed
         * one moves by at most about the sum of the others' errors. */
        *rotation_tol = (float)(4.0 * 2.0 * QUAT3_K);
    } else if (layout == CW_LAYOUT_BITPACKED) {
        int high = (a->tracks[track].flags & CW_TRACK_HIGH_RANGE) != 0;
        *time_tol = 0.5f / 30.0f;
        *translation_tol = (float)(0.5 * trans_range(high) / trans_max_mag(high));
        *rotation_tol = 4.0f * 0.5f / 2047.0f;
        if (is_imvu(version) && version >= 916 && version < 918)
            *rotation_tol = 0.0f;
        if (is_imvu(version) && version == 917)
            *translation_tol = 0.0f;
    }
}
