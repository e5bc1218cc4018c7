/* Malformed C3S input, as the Cal3D suite does it (malformed-*): over the hand-made scenes
 * and the writer's files of the demo model (both forms) and of the features scene.
 *  - cuts: a file cut short fails with OSSA_ERR_TRUNCATED at an offset within the cut (every
 *    byte of the small files, a spread of cuts of the large ones); cut again with every
 *    enclosing chunk length patched to end at the cut, so the reader walks into the cut
 *    fields: any outcome must be clean (fuzz_check_input: an error record, or a model that
 *    validates and poses to finite numbers);
 *  - flips: random bytes xor-ed, same rule;
 *  - lies: every count of the hand-made scenes replaced by a huge one (must fail RANGE or
 *    TRUNCATED) or by 0, every index by one past any range (must fail RANGE) or by 0, every
 *    float by NaN or infinity (must fail VALUE) or by 1e30 (clean).
 * Each mutated input sits at the end of an exact-size allocation so ASan sees any over-read. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "c3s_test_util.h"
#include "fuzz_check.h"
#include "demo.h"
#include "test_common.h"

typedef struct input {
    const char *label;
    uint8_t *data;
    size_t size;
} input;

static unsigned reported;

#define FAILF(...)                                  \
    do {                                            \
        test_failures++;                            \
        if (reported++ < 40) {                      \
            fprintf(stderr, __VA_ARGS__);           \
            fputc('\n', stderr);                    \
        }                                           \
    } while (0)

static ossa_status load_exact(const uint8_t *src, size_t n, ossa_error *err, ossa_model **m)
{
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf)
        return OSSA_ERR_NOMEM;
    memcpy(buf + (n ? 0 : 0), src, n);
    ossa_status st = ct_load_bytes(buf, n, m, err);
    free(buf);
    return st;
}

/* fuzz_check_input over an exact-size copy. */
static void check_clean(const char *label, const char *what, const uint8_t *src, size_t n)
{
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf)
        return;
    memcpy(buf, src, n);
    char why[768];
    fuzz_target t = {"test.c3s", OSSA_FORMAT_C3S};
    if (fuzz_check_input(buf, n, t, why, sizeof why))
        FAILF("%s %s: %s", label, what, why);
    free(buf);
}

/* Top-level chunks and SMDL subchunks: header offset, data start and end. */
typedef struct span { size_t head, at, end; } span;

static size_t walk(const uint8_t *d, size_t n, span *out, size_t cap)
{
    size_t count = 0;
    if (n < 12)
        return 0;
    uint32_t riff =
        (uint32_t)d[4] | (uint32_t)d[5] << 8 | (uint32_t)d[6] << 16 | (uint32_t)d[7] << 24;
    size_t end = 8 + (size_t)riff < n ? 8 + (size_t)riff : n;
    for (size_t pos = 12; pos + 8 <= end && count < cap;) {
        uint32_t len = (uint32_t)d[pos + 4] | (uint32_t)d[pos + 5] << 8 |
                       (uint32_t)d[pos + 6] << 16 | (uint32_t)d[pos + 7] << 24;
        span s = {pos, pos + 8, pos + 8 + len};
        out[count++] = s;
        if (memcmp(d + pos, "SMDL", 4) == 0) {
            size_t p = s.at + 4;
            while (p < s.end && d[p])
                p++;
            p++;
            if ((p - (s.at + 4)) & 1)
                p++;
            while (p + 8 <= s.end && count < cap) {
                uint32_t sl = (uint32_t)d[p + 4] | (uint32_t)d[p + 5] << 8 |
                              (uint32_t)d[p + 6] << 16 | (uint32_t)d[p + 7] << 24;
                span ss = {p, p + 8, p + 8 + sl};
                out[count++] = ss;
                p = ss.end + (sl & 1);
            }
        }
        pos = s.end + (len & 1);
    }
    return count;
}

static void put_len(uint8_t *d, size_t at, size_t len)
{
    for (int i = 0; i < 4; i++)
        d[at + (size_t)i] = (uint8_t)(len >> (8 * i));
}

static void cuts(const input *in)
{
    size_t n = in->size;
    size_t cap = n / 8 + 16;
    span *spans = malloc(cap * sizeof *spans);
    uint8_t *patched = malloc(n);
    if (!spans || !patched) {
        free(spans);
        free(patched);
        return;
    }
    size_t count = walk(in->data, n, spans, cap);
    bool small = n <= 8192;
    size_t plain = 0, walked = 0;
    for (size_t cut = 0; cut < n; cut++) {
        if (!small && cut > 512 && cut + 512 < n && cut % (n / 700 + 1) != 0)
            continue;
        ossa_model *m = NULL;
        ossa_error err;
        ossa_status st = load_exact(in->data, cut, &err, &m);
        plain++;
        if (st != OSSA_ERR_TRUNCATED || m || !err.message[0] || err.offset < 0 ||
            (size_t)err.offset > cut)
            FAILF("%s cut at %zu: %s at %lld (%s), expected TRUNCATED within the cut", in->label,
                  cut, ossa_status_name(st), (long long)err.offset, err.message);
        ossa_model_destroy(m);
        if (!small && cut % 3 != 0)
            continue;
        /* Every chunk that the cut falls inside now ends at the cut. */
        memcpy(patched, in->data, cut);
        if (cut >= 8)
            put_len(patched, 4, cut - 8);
        for (size_t i = 0; i < count; i++)
            if (spans[i].at <= cut && cut <= spans[i].end)
                put_len(patched, spans[i].head + 4, cut - spans[i].at);
        char what[64];
        snprintf(what, sizeof what, "patched cut at %zu", cut);
        check_clean(in->label, what, patched, cut);
        walked++;
    }
    printf("  %s: %zu bytes, %zu plain cuts, %zu patched cuts\n", in->label, n, plain, walked);
    free(spans);
    free(patched);
}

static void flips(const input *in, unsigned rounds)
{
    uint8_t *d = malloc(in->size);
    if (!d)
        return;
    uint64_t x = 0x2545F4914F6CDD1Dull ^ in->size;
    for (unsigned r = 0; r < rounds; r++) {
        memcpy(d, in->data, in->size);
        unsigned k = 1 + r % 3;
        for (unsigned i = 0; i < k; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            size_t at = (size_t)(x % in->size);
            d[at] ^= (uint8_t)(1u << ((x >> 32) & 7)) | (r & 1 ? (uint8_t)(x >> 40) : 0);
        }
        char what[64];
        snprintf(what, sizeof what, "flip round %u", r);
        check_clean(in->label, what, d, in->size);
    }
    free(d);
}

typedef void (*scene_fn)(ct_buf *);

/* Builds the scene with one lie and loads it. */
static ossa_status lie(scene_fn scene, ct_site kind, uint32_t site, uint32_t value, float f,
                       ct_buf *b, ossa_error *err)
{
    ct_init(b);
    b->lie_kind = (int)kind;
    b->lie_site = site;
    b->lie_value = value;
    b->lie_float = f;
    scene(b);
    ossa_model *m = NULL;
    ossa_status st = load_exact(b->data, b->size, err, &m);
    ossa_model_destroy(m);
    return st;
}

static void lies(const char *label, scene_fn scene)
{
    ct_buf b;
    ct_init(&b);
    scene(&b);
    uint32_t sites[CT_SITE_KINDS];
    memcpy(sites, b.sites, sizeof sites);
    ct_free(&b);
    ossa_error err;
    for (uint32_t i = 0; i < sites[CT_COUNT]; i++) {
        ossa_status st = lie(scene, CT_COUNT, i, 0x7FFFFFFF, 0, &b, &err);
        if (st != OSSA_ERR_RANGE && st != OSSA_ERR_TRUNCATED)
            FAILF("%s count %u = 2^31-1: %s (%s)", label, i, ossa_status_name(st), err.message);
        else if (err.offset < 0 || (size_t)err.offset > b.size)
            FAILF("%s count %u: offset %lld", label, i, (long long)err.offset);
        ct_free(&b);
        for (uint32_t v = 0; v < 2; v++) {
            ct_init(&b);
            b.lie_kind = CT_COUNT;
            b.lie_site = i;
            b.lie_value = v ? 3 : 0;
            scene(&b);
            char what[64];
            snprintf(what, sizeof what, "count %u = %u", i, b.lie_value);
            check_clean(label, what, b.data, b.size);
            ct_free(&b);
        }
    }
    for (uint32_t i = 0; i < sites[CT_INDEX]; i++) {
        ossa_status st = lie(scene, CT_INDEX, i, 0x0FFFFFFF, 0, &b, &err);
        if (st != OSSA_ERR_RANGE || !strstr(err.message, "not in"))
            FAILF("%s index %u out of range: %s (%s)", label, i, ossa_status_name(st), err.message);
        ct_free(&b);
        ct_init(&b);
        b.lie_kind = CT_INDEX;
        b.lie_site = i;
        b.lie_value = 0;
        scene(&b);
        char what[64];
        snprintf(what, sizeof what, "index %u = 0", i);
        check_clean(label, what, b.data, b.size);
        ct_free(&b);
    }
    for (uint32_t i = 0; i < sites[CT_FLOAT]; i++) {
        static const float bad[2] = {NAN, INFINITY};
        for (int k = 0; k < 2; k++) {
            ossa_status st = lie(scene, CT_FLOAT, i, 0, bad[k], &b, &err);
            if (st != OSSA_ERR_VALUE)
                FAILF("%s float %u = %g: %s (%s)", label, i, (double)bad[k], ossa_status_name(st),
                      err.message);
            ct_free(&b);
        }
        ct_init(&b);
        b.lie_kind = CT_FLOAT;
        b.lie_site = i;
        b.lie_float = 1e30f;
        scene(&b);
        char what[64];
        snprintf(what, sizeof what, "float %u = 1e30", i);
        check_clean(label, what, b.data, b.size);
        ct_free(&b);
    }
    printf("  %s: lied at %u counts, %u indices, %u floats\n", label, sites[CT_COUNT],
           sites[CT_INDEX], sites[CT_FLOAT]);
}

static bool written(const ossa_model *m, bool frames, input *out, const char *label)
{
    char path[512];
    if (!ct_temp_path(path, sizeof path, "m.c3s"))
        return false;
    ossa_c3s_write_options opt = {.vertex_frames = frames, .frame_rate = 0.0f};
    ossa_error err;
    bool ok = ossa_write_c3s(m, path, &opt, &err) == OSSA_OK;
    out->data = ok ? test_read_file(path, &out->size) : NULL;
    out->label = label;
    ct_remove_temp(path);
    return out->data != NULL;
}

int main(void)
{
    input inputs[6];
    size_t count = 0;
    ct_buf b;
    ct_init(&b);
    ct_scene_features(&b);
    inputs[count++] = (input){"features scene", b.data, b.size};
    ct_init(&b);
    ct_scene_frames(&b);
    inputs[count++] = (input){"frames scene", b.data, b.size};
    ossa_model *demo = NULL, *features = NULL;
    ossa_error err;
    CHECK(ossa_demo_model(&demo, &err) == OSSA_OK);
    CHECK(ct_load_bytes(inputs[0].data, inputs[0].size, &features, &err) == OSSA_OK);
    if (features && written(features, false, &inputs[count], "features written"))
        count++;
    if (demo && written(demo, false, &inputs[count], "demo bone weighted"))
        count++;
    if (demo && written(demo, true, &inputs[count], "demo vertex frames"))
        count++;
    CHECK(count == 5);
    for (size_t i = 0; i < count; i++) {
        cuts(&inputs[i]);
        flips(&inputs[i], inputs[i].size > 100000 ? 60 : 400);
    }
    lies("features scene", ct_scene_features);
    lies("frames scene", ct_scene_frames);
    for (size_t i = 0; i < count; i++)
        free(inputs[i].data);
    ossa_model_destroy(demo);
    ossa_model_destroy(features);
    return test_finish("c3s-malformed");
}
