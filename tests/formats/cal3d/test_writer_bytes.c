/* Pins the test writer's byte layouts to the spec with hand-computed bytes, so the round-trip
 * tests cannot drift into agreeing with a reader on a wrong reading. The expected bytes are
 * derived in the comments from docs/FORMATS.md (Cal3D binary layouts, D2). */
#include <math.h>
#include <string.h>

#include "cal3d_writer.h"
#include "test_common.h"

static void check_bytes(const char *what, const uint8_t *got, const uint8_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        CHECKF(got[i] == want[i], "%s byte %zu: %02x, want %02x", what, i, got[i], want[i]);
}

/* CAF header words by version (docs/FORMATS.md, CAF layout, D1). */
static void test_caf_headers(void)
{
    cw_key key = {0.0f, {0, 0, 0}, {0, 0, 0, 1}};
    cw_track track = {7, 0, 1, &key};
    cw_animation a = {1.0f, 1, &track};
    struct {
        int version;
        cw_caf_options opt;
        size_t header; /* bytes before the first track */
        int32_t words[3]; /* the words after magic + version, duration as its bits */
    } cases[] = {
        {1100, {1, 1}, 16, {0x3f800000, 1, 7}},     /* duration, tracks; no extra words */
        {918, {0, 0}, 16, {0x3f800000, 1, 0x10007}}, /* bit-packed header: bone 7, 1 key */
        {919, {1, 0}, 20, {1, 0x3f800000, 1}},      /* compression flag after the version */
        {1200, {0, 1}, 20, {0x3f800000, 1, 1}},     /* flags after the track count */
        {1300, {1, 5}, 24, {1, 0x3f800000, 1}},     /* both */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t size;
        uint8_t *d = cw_write_caf(&a, cases[i].version, &cases[i].opt, &size);
        CHECK(d != NULL);
        if (!d)
            continue;
        CHECK(memcmp(d, "CAF\0", 4) == 0);
        int32_t w[5];
        memcpy(w, d + 4, sizeof w);
        CHECKF(w[0] == cases[i].version, "version word %d", w[0]);
        for (int k = 0; k < 3; k++)
            CHECKF(w[1 + k] == cases[i].words[k], "v%d word %d: %d, want %d", cases[i].version,
                   k, w[1 + k], cases[i].words[k]);
        if (cases[i].version == 1300)
            CHECKF(w[4] == 5, "1300 flags word %d", w[4]);
        /* The first track starts with bone id 7 (int32 raw/quantised, or the bit-packed header). */
        CHECKF(d[cases[i].header] == 7, "v%d: first track byte %u", cases[i].version,
               d[cases[i].header]);
        free(d);
    }
}

/* Bit-packed, low range. Header: bone 0x123 -> b0 = 0x23, b1 = 0x01 | 0x80 (required) | 0x20
 * (dynamic), key count 1 -> 01 00. Translation (128, 0, -128): x mag 511 at bits 0-8, sign 0 at bit
 * 9; y 0; z mag 511 at bits 20-28, sign 1 at bit 29 -> 0x3FF001FF -> FF 01 F0 3F. Rotation (-0.6,
 * 0, 0, 0.8): w dropped (3 in bits 0-1); x sign 1 at bit 2, mag round(0.6 * 2047) = 1228 at bits
 * 3-13; y, z zero; time 1.0 s = 30 steps at bits 38-47. 3 | 4 | 1228 << 3 = 0x2667 -> 67 26 00 00,
 * 30 << 38 -> byte 4 = 0x80, byte 5 = 0x07. */
static void test_bitpacked_low(void)
{
    cw_key key = {1.0f, {128.0f, 0.0f, -128.0f}, {-0.6f, 0.0f, 0.0f, 0.8f}};
    cw_track track = {0x123, CW_TRACK_TRANSLATION_REQUIRED | CW_TRACK_TRANSLATION_DYNAMIC, 1,
                      &key};
    cw_animation a = {2.0f, 1, &track};
    size_t size;
    uint8_t *d = cw_write_caf(&a, 913, NULL, &size);
    CHECK(d && size == 16 + 4 + 4 + 6);
    if (!d)
        return;
    static const uint8_t want[] = {0x23, 0xA1, 0x01, 0x00, 0xFF, 0x01, 0xF0, 0x3F,
                                   0x67, 0x26, 0x00, 0x00, 0x80, 0x07};
    check_bytes("913 low-range key", d + 16, want, sizeof want);
    free(d);

    /* 917: raw translation then raw rotation follow the 6 bytes; 916: only the rotation. */
    d = cw_write_caf(&a, 917, NULL, &size);
    CHECK(d && size == 16 + 4 + 4 + 6 + 12 + 16);
    if (d) {
        float raw[7];
        memcpy(raw, d + 30, sizeof raw);
        CHECK(raw[0] == 128.0f && raw[2] == -128.0f && raw[3] == -0.6f && raw[6] == 0.8f);
        free(d);
    }
    d = cw_write_caf(&a, 916, NULL, &size);
    CHECK(d && size == 16 + 4 + 4 + 6 + 16);
    free(d);
}

/* Bit-packed, high range: x = 2^23 -> mag 2^25 - 1 at bits 0-24, sign 0 at 25; y = -1 ->
 * mag round(2^25 - 1) / 2^23) = 4 at bits 26-50, sign 1 at bit 51; z = 0 at bits 52-77.
 * Bytes: FF FF FF (0x01 | 4 << 2 = 0x11) 00 00 08 00 00 00. A second key of a dynamic track
 * has its own block; of a static one none. */
static void test_bitpacked_high(void)
{
    cw_key keys[2] = {{0.0f, {8388608.0f, -1.0f, 0.0f}, {0, 0, 0, 1}},
                      {0.5f, {0.0f, 0.0f, 0.0f}, {0, 0, 0, 1}}};
    cw_track track = {1, CW_TRACK_TRANSLATION_REQUIRED | CW_TRACK_HIGH_RANGE, 2, keys};
    cw_animation a = {1.0f, 1, &track};
    size_t size;
    uint8_t *d = cw_write_caf(&a, 918, NULL, &size);
    CHECK(d && size == 16 + 4 + (10 + 6) + 6);
    if (!d)
        return;
    static const uint8_t want[] = {0x01, 0xC0, 0x02, 0x00, 0xFF, 0xFF, 0xFF, 0x11, 0x00,
                                   0x00, 0x08, 0x00, 0x00, 0x00};
    check_bytes("918 high-range key", d + 16, want, sizeof want);
    free(d);
}

/* D2, 1200 flags bit 0. Keys (0,0,0) at t 0 and (10.23, 20.47, -20.47) at t 2
 * (duration 2): min = (0, 0, -20.47), scale = range / (1023, 2047, 2047) = 0.01 each.
 * Key 0: time 0; x 0, y 0, z 2047 -> 2047 << 21 = 0xFFE00000; identity rotation: w dropped,
 * which 3 -> s = (0, 0|1, 0|1). Key 1: time 65535; x 1023 | y 2047 << 10 | z 0 = 0x001FFFFF;
 * rotation (0,0,1,0): z dropped, which 2 -> stored x, y, w = 0, tags s1 |= 1, s2 |= 0. */
static void test_quantised(void)
{
    cw_key keys[2] = {{0.0f, {0, 0, 0}, {0, 0, 0, 1}},
                      {2.0f, {10.23f, 20.47f, -20.47f}, {0, 0, 1, 0}}};
    cw_track track = {3, 0, 2, keys};
    cw_animation a = {2.0f, 1, &track};
    cw_caf_options opt = {0, 1};
    size_t size;
    uint8_t *d = cw_write_caf(&a, 1200, &opt, &size);
    CHECK(d && size == 20 + 8 + 24 + 2 * 12);
    if (!d)
        return;
    float hdr[6];
    memcpy(hdr, d + 28, sizeof hdr);
    CHECK(hdr[0] == 0.0f && hdr[1] == 0.0f && hdr[2] == -20.47f);
    CHECK_NEAR(hdr[3], 0.01, 1e-7);
    CHECK_NEAR(hdr[4], 0.01, 1e-7);
    CHECK_NEAR(hdr[5], 0.01, 1e-7);
    static const uint8_t want[] = {
        0x00, 0x00, 0x00, 0x00, 0xE0, 0xFF, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
        0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00};
    check_bytes("1200 quantised keys", d + 52, want, sizeof want);
    free(d);
}

/* Cal3D strings and the CMF sparse morph list: "ab" is 03 00 00 00 'a' 'b' 00; the blend list of a
 * 2-vertex submesh ends with id 3. */
static void test_cmf_morph(void)
{
    cw_vertex v[2];
    memset(v, 0, sizeof v);
    v[0].collapse_id = v[1].collapse_id = -1;
    cw_blend_vertex bv;
    memset(&bv, 0, sizeof bv);
    bv.vertex = 1;
    cw_morph morph = {"ab", 1, &bv};
    int32_t face[3] = {0, 1, 1};
    cw_submesh sm = {.material = 0, .vertex_count = 2, .vertices = v, .morph_count = 1,
                     .morphs = &morph, .face_count = 1, .faces = face};
    cw_mesh mesh = {1, &sm};
    size_t size;
    uint8_t *d = cw_write_cmf(&mesh, 1300, &size);
    /* header 12, submesh words 7 * 4, vertex 2 * (6 + 3 floats + 2 ints + influence count),
     * morph: name 7, id 4, 6 floats, terminator 4; face 12. */
    size_t vertex = 4 * (6 + 3 + 2 + 1);
    CHECK(d && size == 12 + 28 + 2 * vertex + 7 + 4 + 24 + 4 + 12);
    if (!d)
        return;
    size_t at = 12 + 28 + 2 * vertex;
    static const uint8_t name[] = {3, 0, 0, 0, 'a', 'b', 0, 1, 0, 0, 0};
    check_bytes("morph name and first id", d + at, name, sizeof name);
    static const uint8_t term[] = {3, 0, 0, 0};
    check_bytes("morph terminator", d + at + 11 + 24, term, sizeof term);
    free(d);
    /* Classic layout: no morph count, colours or morphs. */
    d = cw_write_cmf(&mesh, 1100, &size);
    CHECK(d && size == 12 + 24 + 2 * (vertex - 12) + 12);
    free(d);
    /* mp3butcher 1300 (Cal3D version thresholds): the morph count and the morph, no vertex colours;
     * the file says 1300 all the same. */
    d = cw_write_cmf(&mesh, 1300 | CW_MP3BUTCHER, &size);
    CHECK(d && size == 12 + 28 + 2 * (vertex - 12) + 7 + 4 + 24 + 4 + 12);
    if (d) {
        static const uint8_t head[] = {'C', 'M', 'F', 0, 0x14, 0x05, 0, 0};
        check_bytes("mp3butcher CMF header", d, head, sizeof head);
        check_bytes("mp3butcher morph name", d + 12 + 28 + 2 * (vertex - 12), name, sizeof name);
    }
    free(d);
}

/* CSF layout: upstream 1300/1301 put a scene ambient colour after the bone count and a light type
 * and colour after each parent id; the mp3butcher fork neither. One bone named "b" (string 6
 * bytes), 14 floats, parent, no children. */
static void test_csf_lineages(void)
{
    cw_bone bone = {"b", -1, {0, 0, 0}, {0, 0, 0, 1}, {0, 0, 0}, {0, 0, 0, 1}, 3,
                    {0.5f, 0.5f, 0.5f}, 0, NULL};
    cw_skeleton skel = {1, &bone, {0.25f, 0.25f, 0.25f}};
    size_t plain = 12 + 6 + 56 + 4 + 4, size;
    uint8_t *d = cw_write_csf(&skel, 1301, &size);
    CHECK(d && size == plain + 12 + 16);
    if (d) {
        float ambient;
        int32_t light;
        memcpy(&ambient, d + 12, 4);
        memcpy(&light, d + 12 + 12 + 6 + 56 + 4, 4);
        CHECK(ambient == 0.25f && light == 3);
    }
    free(d);
    d = cw_write_csf(&skel, 1301 | CW_MP3BUTCHER, &size);
    CHECK(d && size == plain);
    if (d) {
        static const uint8_t head[] = {'C', 'S', 'F', 0, 0x15, 0x05, 0, 0, 1, 0, 0, 0,
                                       2, 0, 0, 0, 'b', 0};
        check_bytes("mp3butcher CSF start", d, head, sizeof head);
    }
    free(d);
}

int main(void)
{
    test_caf_headers();
    test_bitpacked_low();
    test_bitpacked_high();
    test_quantised();
    test_cmf_morph();
    test_csf_lineages();
    return test_finish("layouts-writer-bytes");
}
