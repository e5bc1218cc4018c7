/* Malformed CAF files of every layout (caf_fixture.h) fail with the right status, byte offset
 * and words; every single-bit flip of small valid files loads or fails cleanly. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/build_context.h"
#include "formats/formats.h"
#include "caf_fixture.h"
#include "test_common.h"

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
    packed_track imvu_tracks[3];
    make_imvu_tracks(imvu_tracks);
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
    test_errors();
    test_bit_flips();
    return test_finish("binary-caf-errors");
}
