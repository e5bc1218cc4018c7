/* Malformed SKM/SKP input, over the hand-made pair (skm_hand.c) and the demo as the writer
 * produces it:
 *  - cuts: every cut must fail with TRUNCATED and an offset within the data given, both as cut
 *    (the header's file size then lies) and with the file size field patched to the cut, which
 *    makes the reader go as deep as the data allows;
 *  - random byte flips: no crash, no leak, and either a model that validates or a well-formed
 *    error (as a lone file from memory, and a share of them beside their good partner file);
 *  - lying counts and offsets, out-of-range indices, parents, non-finite numbers, wrong id,
 *    type and file size: the exact status and, where one field is to blame, its offset.
 * Memory loads force the format; pairs are written to a temporary folder and loaded together.
 * Under ASan a believed lying count aborts (allocations are capped in meson.build). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "demo.h"
#include "ossa/load.h"
#include "ossa/write.h"
#include "skm_hand.h"

typedef struct mf_input {
    const char *name;     /* "x.skm" or "x.skp" */
    ossa_format format;
    uint8_t *data;
    size_t size;
    size_t header_bytes;
} mf_input;

static char tmp_dir[4096];
static unsigned loads;

/* Checks an error record; label names the mutant. */
static bool check_error(const char *label, ossa_status st, const ossa_model *m,
                        const ossa_error *err)
{
    bool ok = st != OSSA_OK && !m && err->status == st && err->message[0] && err->file[0];
    CHECKF(ok, "%s: status %s, record %s, message '%s', file '%s'", label, ossa_status_name(st),
           ossa_status_name(err->status), err->message, err->file);
    return ok;
}

static bool check_any(const char *label, ossa_status st, ossa_model *m, const ossa_error *err)
{
    if (st == OSSA_OK) {
        ossa_error verr;
        ossa_error_clear(&verr);
        bool ok = m && ossa_model_validate(m, &verr) == OSSA_OK;
        CHECKF(ok, "%s: loaded but does not validate: %s", label, verr.message);
        ossa_model_destroy(m);
        return ok;
    }
    return check_error(label, st, m, err);
}

static ossa_status load_mem(const mf_input *in, const uint8_t *data, size_t size, ossa_model **m,
                            ossa_error *err)
{
    ossa_load_options opt = {0};
    opt.format = in->format;
    loads++;
    return ossa_load_memory(data, size, in->name, &opt, m, err);
}

/* Loads the mutated file beside its good partner (both written to the temporary folder). */
static ossa_status load_pair(const mf_input *in, const uint8_t *data, size_t size,
                             const mf_input *partner, ossa_model **m, ossa_error *err)
{
    char a[4200], b[4200];
    snprintf(a, sizeof a, "%s/%s", tmp_dir, in->name);
    snprintf(b, sizeof b, "%s/%s", tmp_dir, partner->name);
    if (!skt_write(tmp_dir, in->name, data, size) ||
        !skt_write(tmp_dir, partner->name, partner->data, partner->size)) {
        CHECKF(0, "cannot write to %s", tmp_dir);
        *m = NULL;
        return OSSA_ERR_IO;
    }
    const char *paths[2] = {a, b};
    loads++;
    return ossa_load_files(paths, 2, NULL, m, err);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* ---- cuts ---- */

static void cut_file(const mf_input *in)
{
    /* Small files: every cut. Larger ones: every cut of the first 1 KiB and the last 512
     * bytes, and 400 spread between (each patched load parses up to the cut). */
    size_t head = in->size <= 4096 ? in->size : 1024, tail = in->size <= 4096 ? 0 : 512;
    size_t spread = in->size <= 4096 ? 0 : 400;
    uint8_t *buf = malloc(in->size);
    unsigned failures_before = (unsigned)test_failures;
    size_t count = head + tail + spread;
    for (size_t i = 0; i < count && buf; i++) {
        size_t cut = i < head ? i
                     : i < head + tail ? in->size - tail + (i - head)
                                       : head + (i - head - tail) * (in->size - head - tail) / spread;
        if (cut >= in->size)
            continue;
        for (int patched = 0; patched < 2; patched++) {
            if (patched && cut < in->header_bytes)
                continue;
            /* At the end of an exact-size buffer, so ASan sees any read past the cut. */
            uint8_t *data = buf + (in->size - cut);
            memcpy(data, in->data, cut);
            if (patched)
                put_u32(data + 8, (uint32_t)cut);
            ossa_model *m = NULL;
            ossa_error err;
            ossa_status st = load_mem(in, data, cut, &m, &err);
            char label[128];
            snprintf(label, sizeof label, "%s cut at %zu%s", in->name, cut,
                     patched ? " (file size patched)" : "");
            if (!check_error(label, st, m, &err)) {
                ossa_model_destroy(m);
                continue;
            }
            CHECKF(st == OSSA_ERR_TRUNCATED, "%s: %s (%s)", label, ossa_status_name(st),
                   err.message);
            CHECKF(err.offset >= 0 && (size_t)err.offset <= cut, "%s: offset %lld (%s)", label,
                   (long long)err.offset, err.message);
        }
        if ((unsigned)test_failures > failures_before + 10)
            break; /* enough to see the problem */
    }
    free(buf);
}

/* ---- flips ---- */

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

static void flip_file(const mf_input *in, const mf_input *partner, unsigned mutants,
                      unsigned paired_every)
{
    uint64_t state = 0x9E3779B97F4A7C15ull ^ in->size;
    uint8_t *buf = malloc(in->size);
    unsigned failures_before = (unsigned)test_failures;
    for (unsigned i = 0; i < mutants && buf; i++) {
        memcpy(buf, in->data, in->size);
        unsigned flips = 1 + (unsigned)(rng_next(&state) % 6);
        char label[256];
        int len = snprintf(label, sizeof label, "%s mutant %u:", in->name, i);
        for (unsigned k = 0; k < flips; k++) {
            size_t at = (size_t)(rng_next(&state) % in->size);
            uint8_t mask = (uint8_t)(1 + rng_next(&state) % 255);
            buf[at] ^= mask;
            if (len > 0 && (size_t)len < sizeof label)
                len += snprintf(label + len, sizeof label - (size_t)len, " [%zu]^=%02x", at, mask);
        }
        ossa_model *m = NULL;
        ossa_error err;
        ossa_status st = paired_every && i % paired_every == 0
                             ? load_pair(in, buf, in->size, partner, &m, &err)
                             : load_mem(in, buf, in->size, &m, &err);
        check_any(label, st, m, &err);
        if ((unsigned)test_failures > failures_before + 10)
            break;
    }
    free(buf);
}

/* ---- targeted mutations ---- */

typedef struct mutation {
    const char *what;
    size_t at;            /* where the 4-byte value goes */
    uint32_t value;
    ossa_status want;
    int64_t want_offset;  /* -2: any */
    bool paired;          /* load beside the partner file (the skeleton matters) */
} mutation;

static void apply(const mf_input *in, const mf_input *partner, const mutation *mu)
{
    uint8_t *buf = malloc(in->size);
    if (!buf)
        return;
    memcpy(buf, in->data, in->size);
    put_u32(buf + mu->at, mu->value);
    ossa_model *m = NULL;
    ossa_error err;
    ossa_status st = mu->paired ? load_pair(in, buf, in->size, partner, &m, &err)
                                : load_mem(in, buf, in->size, &m, &err);
    char label[160];
    snprintf(label, sizeof label, "%s: %s (0x%08x at %zu)", in->name, mu->what, mu->value,
             mu->at);
    if (check_error(label, st, m, &err)) {
        CHECKF(st == mu->want, "%s: %s, expected %s (%s)", label, ossa_status_name(st),
               ossa_status_name(mu->want), err.message);
        if (mu->want_offset != -2)
            CHECKF(err.offset == mu->want_offset, "%s: offset %lld, expected %lld (%s)", label,
                   (long long)err.offset, (long long)mu->want_offset, err.message);
        if (mu->paired) /* a mismatch may be reported in the partner, read second */
            CHECKF(strstr(err.file, tmp_dir) != NULL, "%s: error names %s", label, err.file);
    } else {
        ossa_model_destroy(m);
    }
    free(buf);
}

static uint32_t f32_bits(float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    return v;
}

static void targeted(const mf_input *skp, const mf_input *skm, const skm_hand_layout *l)
{
    const uint32_t nan = 0x7FC00000u, inf = 0x7F800000u;
    const size_t r0 = l->skm_records, r1 = r0 + 156;
    const size_t v0 = l->skm_verts, bv0 = v0 + 4; /* vertex 0's count, its first bone-vert */
    const size_t fr1 = l->skp_frames + 68, pose1 = l->skp_poses + 3 * 28; /* frame 1 */
    const mutation skm_cases[] = {
        {"id", 0, 0x314D4B54u, OSSA_ERR_FORMAT, 0, false},
        {"type 3", 4, 3, OSSA_ERR_VERSION, 4, false},
        {"file size over 16 MiB", 8, 16777217u, OSSA_ERR_RANGE, 8, false},
        {"file size beyond the data", 8, (uint32_t)skm->size + 1, OSSA_ERR_TRUNCATED, 8, false},
        {"file size below the header", 8, 20, OSSA_ERR_FORMAT, 8, false},
        {"no bones", 12, 0, OSSA_ERR_RANGE, 12, false},
        {"257 bones", 12, 257, OSSA_ERR_RANGE, 12, false},
        {"bones unlike the skeleton", 12, 4, OSSA_ERR_MISMATCH, 12, true},
        {"no meshes", 16, 0, OSSA_ERR_RANGE, 16, false},
        {"33 meshes", 16, 33, OSSA_ERR_RANGE, 16, false},
        {"mesh table past the end", 20, (uint32_t)skm->size - 100, OSSA_ERR_TRUNCATED, 20, false},
        {"mesh table offset -1", 20, 0xFFFFFFFFu, OSSA_ERR_TRUNCATED, 20, false},
        {"no vertices", r0 + 128, 0, OSSA_ERR_RANGE, (int64_t)r0 + 128, false},
        {"196609 vertices", r0 + 128, 196609, OSSA_ERR_RANGE, (int64_t)r0 + 128, false},
        {"vertices past the data", r1 + 128, 196608, OSSA_ERR_TRUNCATED, -2, false},
        {"no triangles", r1 + 132, 0, OSSA_ERR_RANGE, (int64_t)r1 + 132, false},
        {"65537 triangles", r1 + 132, 65537, OSSA_ERR_RANGE, (int64_t)r1 + 132, false},
        {"65536 triangles", r1 + 132, 65536, OSSA_ERR_TRUNCATED, (int64_t)r1 + 148, false},
        {"no references", r0 + 136, 0, OSSA_ERR_RANGE, (int64_t)r0 + 136, false},
        {"257 references", r0 + 136, 257, OSSA_ERR_RANGE, (int64_t)r0 + 136, false},
        {"vertex offset -1", r0 + 140, 0xFFFFFFFFu, OSSA_ERR_TRUNCATED, (int64_t)r0 + 140, false},
        {"uv offset at the end", r0 + 144, (uint32_t)skm->size - 4, OSSA_ERR_TRUNCATED,
         (int64_t)r0 + 144, false},
        {"triangle offset -4", r1 + 148, 0xFFFFFFFCu, OSSA_ERR_TRUNCATED, (int64_t)r1 + 148, false},
        {"reference offset past the end", r0 + 152, (uint32_t)skm->size, OSSA_ERR_TRUNCATED,
         (int64_t)r0 + 152, false},
        {"vertex without influences", v0, 0, OSSA_ERR_FORMAT, (int64_t)v0, false},
        {"65 influences", v0, 65, OSSA_ERR_RANGE, (int64_t)v0, false},
        {"influence count 2^31", v0, 0x80000000u, OSSA_ERR_RANGE, (int64_t)v0, false},
        {"influences past the data", v0, 64, OSSA_ERR_TRUNCATED, -2, false},
        {"bone number 3", bv0 + 28, 3, OSSA_ERR_RANGE, (int64_t)bv0 + 28, false},
        {"bone number -1", bv0 + 28, 0xFFFFFFFFu, OSSA_ERR_RANGE, (int64_t)bv0 + 28, true},
        {"reference to bone 3", l->skm_refs + 4, 3, OSSA_ERR_RANGE, (int64_t)l->skm_refs + 4,
         false},
        {"triangle index 3", l->skm_indices + 8, 3, OSSA_ERR_RANGE,
         (int64_t)l->skm_indices + 8, true},
        {"triangle index -1", l->skm_indices, 0xFFFFFFFFu, OSSA_ERR_RANGE,
         (int64_t)l->skm_indices, false},
        {"NaN origin", bv0 + 4, nan, OSSA_ERR_VALUE, (int64_t)bv0 + 4, false},
        {"infinite influence", bv0 + 12, inf, OSSA_ERR_VALUE, (int64_t)bv0 + 12, true},
        {"NaN normal", bv0 + 24, nan, OSSA_ERR_VALUE, (int64_t)bv0 + 24, false},
        {"NaN texture coordinate", l->skm_uvs + 12, nan, OSSA_ERR_VALUE,
         (int64_t)l->skm_uvs + 12, false},
        {"origin of 1e38", bv0, f32_bits(1e38f), OSSA_ERR_VALUE, (int64_t)v0, false},
    };
    const mutation skp_cases[] = {
        {"id", 0, 0x304D4B53u, OSSA_ERR_FORMAT, 0, false},
        {"type 1", 4, 1, OSSA_ERR_VERSION, 4, false},
        {"file size beyond the data", 8, (uint32_t)skp->size + 4, OSSA_ERR_TRUNCATED, 8, false},
        {"no bones", 12, 0, OSSA_ERR_RANGE, 12, false},
        {"257 bones", 12, 257, OSSA_ERR_RANGE, 12, false},
        {"more bones than the poses", 12, 4, OSSA_ERR_TRUNCATED, -2, false},
        {"bones unlike the mesh", 12, 2, OSSA_ERR_MISMATCH, -2, true},
        {"no frames", 16, 0, OSSA_ERR_RANGE, 16, false},
        {"65537 frames", 16, 65537, OSSA_ERR_RANGE, 16, false},
        {"65536 frames", 16, 65536, OSSA_ERR_TRUNCATED, 16, false},
        {"bone table past the end", 20, (uint32_t)skp->size - 8, OSSA_ERR_TRUNCATED, 20, false},
        {"frame table offset -1", 24, 0xFFFFFFFFu, OSSA_ERR_TRUNCATED, 24, false},
        {"frame poses past the end", fr1 + 64, (uint32_t)skp->size - 28, OSSA_ERR_TRUNCATED,
         (int64_t)fr1 + 64, false},
        {"frame poses offset -1", fr1 + 64, 0xFFFFFFFFu, OSSA_ERR_TRUNCATED, (int64_t)fr1 + 64,
         true},
        {"parent is itself", l->skp_bones + 72 + 64, 1, OSSA_ERR_RANGE,
         (int64_t)l->skp_bones + 72 + 64, false},
        {"parent after the bone", l->skp_bones + 72 + 64, 2, OSSA_ERR_RANGE,
         (int64_t)l->skp_bones + 72 + 64, true},
        {"parent -2", l->skp_bones + 2 * 72 + 64, 0xFFFFFFFEu, OSSA_ERR_RANGE,
         (int64_t)l->skp_bones + 2 * 72 + 64, false},
        {"parent 300", l->skp_bones + 2 * 72 + 64, 300, OSSA_ERR_RANGE,
         (int64_t)l->skp_bones + 2 * 72 + 64, false},
        {"NaN rotation", pose1 + 28 + 8, nan, OSSA_ERR_VALUE, (int64_t)pose1 + 28 + 8, false},
        {"infinite origin", pose1 + 20, inf, OSSA_ERR_VALUE, (int64_t)pose1 + 20, true},
        {"zero rotation", l->skp_poses + 12, 0, OSSA_ERR_VALUE, (int64_t)l->skp_poses, false},
    };
    for (size_t i = 0; i < sizeof skm_cases / sizeof skm_cases[0]; i++)
        apply(skm, skp, &skm_cases[i]);
    for (size_t i = 0; i < sizeof skp_cases / sizeof skp_cases[0]; i++)
        apply(skp, skm, &skp_cases[i]);
}

/* The demo through the writer, read back into memory buffers. */
static bool demo_inputs(mf_input *skp, mf_input *skm)
{
    ossa_model *demo = NULL;
    ossa_error err;
    if (ossa_demo_model(&demo, &err) != OSSA_OK)
        return false;
    bool ok = ossa_write_skm(demo, tmp_dir, "demo", NULL, &err) == OSSA_OK;
    ossa_model_destroy(demo);
    char path[4200];
    snprintf(path, sizeof path, "%s/demo.skp", tmp_dir);
    skp->data = ok ? test_read_file(path, &skp->size) : NULL;
    snprintf(path, sizeof path, "%s/demo.skm", tmp_dir);
    skm->data = ok ? test_read_file(path, &skm->size) : NULL;
    return skp->data && skm->data;
}

int main(void)
{
    if (!skt_make_dir(tmp_dir, sizeof tmp_dir))
        return 1;
    skt_bytes hand_skp, hand_skm;
    skm_hand_layout layout;
    skm_hand_build(&hand_skp, &hand_skm, &layout);
    mf_input hskp = {"hand.skp", OSSA_FORMAT_SKP, hand_skp.data, hand_skp.size, 28};
    mf_input hskm = {"hand.skm", OSSA_FORMAT_SKM, hand_skm.data, hand_skm.size, 24};
    mf_input dskp = {"demo.skp", OSSA_FORMAT_SKP, NULL, 0, 28};
    mf_input dskm = {"demo.skm", OSSA_FORMAT_SKM, NULL, 0, 24};
    CHECK(demo_inputs(&dskp, &dskm));

    /* The unmutated inputs load, alone and as pairs. */
    const mf_input *all[4] = {&hskp, &hskm, &dskp, &dskm};
    for (int i = 0; i < 4; i++) {
        if (!all[i]->data)
            continue;
        ossa_model *m = NULL;
        ossa_error err;
        CHECKF(load_mem(all[i], all[i]->data, all[i]->size, &m, &err) == OSSA_OK, "%s: %s",
               all[i]->name, err.message);
        ossa_model_destroy(m);
        const mf_input *partner = all[i ^ 1];
        CHECKF(load_pair(all[i], all[i]->data, all[i]->size, partner, &m, &err) == OSSA_OK,
               "%s: %s", all[i]->name, err.message);
        ossa_model_destroy(m);
    }

    targeted(&hskp, &hskm, &layout);
    for (int i = 0; i < 4; i++)
        if (all[i]->data)
            cut_file(all[i]);
    for (int i = 0; i < 4; i++)
        if (all[i]->data)
            flip_file(all[i], all[i ^ 1], i < 2 ? 1500 : 400, i < 2 ? 10 : 40);
    printf("%u loads\n", loads);

    free(dskp.data);
    free(dskm.data);
    skt_free(&hand_skp);
    skt_free(&hand_skm);
    skt_remove_dir(tmp_dir);
    return test_finish("skm-malformed");
}
