/* Malformed CFF input, as the malformed-* tests do for Cal3D, over the hand-built fixture and the
 * demo written by ossa_write_cff (at 4 and at 25 frames per second):
 *  - cut at every byte (a plan.h budget for the largest file): a cut before the end of the
 *    structure fails with TRUNCATED and an offset within the data; the BSP section after it is
 *    not read, so cuts there load;
 *  - random byte flips and random buffers: any outcome, but a well-formed error or a model whose
 *    pose and skinning are finite (fuzz_check_input);
 *  - lying counts: huge ones fail with RANGE or TRUNCATED at the count's offset, off-by-one ones
 *    fail or load cleanly;
 *  - bad indices (face, texture) fail with RANGE at the index;
 *  - NaN, Inf and huge values where the reader uses them fail with VALUE at the value; where it
 *    does not (mesh origin, radius, LOD distance) they load.
 * Every buffer is exactly as large as the data, so ASan sees any read past the end. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cff_test_util.h"
#include "fuzz_check.h"
#include "malformed.h"
#include "plan.h"

typedef struct subject {
    const char *label;
    uint8_t *data;
    size_t size, end;
} subject;

static ossa_status load(const uint8_t *data, size_t size, ossa_model **m, ossa_error *err)
{
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) {
        *m = NULL;
        return OSSA_ERR_NOMEM;
    }
    memcpy(copy, data, size);
    ossa_load_options opt = {0};
    opt.format = OSSA_FORMAT_CFF;
    ossa_status st = ossa_load_memory(copy, size, "mutant.cff", &opt, m, err);
    free(copy);
    return st;
}

static void check_mutant(mf_tally *t, const char *what, const uint8_t *data, size_t size)
{
    char why[768];
    fuzz_target target = {"mutant.cff", OSSA_FORMAT_CFF};
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return;
    memcpy(copy, data, size);
    if (fuzz_check_input(copy, size, target, why, sizeof why))
        mf_fail(t, "%s: %s", what, why);
    free(copy);
}

static void truncate_all(const subject *s)
{
    mf_tally t = {s->label, 0, 0, 8};
    mf_cut_plan plan;
    mf_cut_plan_make(&plan, s->size, false);
    size_t cuts = mf_cut_count(&plan);
    for (size_t i = 0; i < cuts; i++) {
        size_t cut = mf_cut_at(&plan, i);
        ossa_model *m = NULL;
        ossa_error err;
        ossa_status st = load(s->data, cut, &m, &err);
        char what[64];
        snprintf(what, sizeof what, "cut at %zu of %zu", cut, s->size);
        if (cut >= s->end) {
            mf_check_any(&t, what, st, m, &err);
            continue;
        }
        if (!mf_check_error(&t, what, st, m, &err)) {
            ossa_model_destroy(m);
            continue;
        }
        if (st != OSSA_ERR_TRUNCATED)
            mf_fail(&t, "%s: %s (\"%s\"), expected TRUNCATED", what, ossa_status_name(st),
                    err.message);
        else if (err.offset < 0 || (uint64_t)err.offset > cut)
            mf_fail(&t, "%s: error offset %lld not within the data (\"%s\")", what,
                    (long long)err.offset, err.message);
    }
    printf("%s: %zu cuts\n", s->label, cuts);
    mf_tally_end(&t);
}

static void flip_all(const subject *s, unsigned count)
{
    mf_tally t = {s->label, 0, 0, 8};
    mf_rng rng;
    mf_rng_seed(&rng, mf_hash(s->label));
    uint8_t *buf = malloc(s->size);
    for (unsigned i = 0; i < count && buf; i++) {
        memcpy(buf, s->data, s->size);
        unsigned flips = 1 + (i % 4 == 3 ? mf_rng_below(&rng, 8) : 0);
        for (unsigned k = 0; k < flips; k++) {
            size_t at = mf_rng_below(&rng, (uint32_t)s->size);
            buf[at] ^= (uint8_t)(1u << mf_rng_below(&rng, 8));
            if (i % 2)
                buf[at] = (uint8_t)mf_rng_below(&rng, 256);
        }
        char what[64];
        snprintf(what, sizeof what, "mutant %u", i);
        check_mutant(&t, what, buf, s->size);
    }
    free(buf);
    mf_tally_end(&t);
}

/* Sets the u32 at `at` to v and expects the given status (OSSA_OK: any clean outcome) with the
 * error at `at` or, for TRUNCATED, anywhere in the data. */
static void expect_at(mf_tally *t, const subject *s, size_t at, uint32_t v, float fv, int as_float,
                      ossa_status want, const char *what)
{
    uint8_t *buf = malloc(s->size);
    if (!buf)
        return;
    memcpy(buf, s->data, s->size);
    if (as_float)
        cff_store_f32(buf + at, fv);
    else
        cff_store_u32(buf + at, v);
    ossa_model *m = NULL;
    ossa_error err;
    ossa_status st = load(buf, s->size, &m, &err);
    char label[160];
    snprintf(label, sizeof label, "%s at %zu", what, at);
    if (want == OSSA_OK) {
        mf_check_any(t, label, st, m, &err);
        check_mutant(t, label, buf, s->size);
    } else if (mf_check_error(t, label, st, m, &err)) {
        bool status_ok = st == want || (want == OSSA_ERR_RANGE && st == OSSA_ERR_TRUNCATED);
        if (!status_ok)
            mf_fail(t, "%s: %s (\"%s\"), expected %s", label, ossa_status_name(st), err.message,
                    ossa_status_name(want));
        else if (st != OSSA_ERR_TRUNCATED && err.offset != (int64_t)at)
            mf_fail(t, "%s: error at offset %lld (\"%s\")", label, (long long)err.offset,
                    err.message);
    } else {
        ossa_model_destroy(m);
    }
    free(buf);
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void lying_count(mf_tally *t, const subject *s, size_t at, const char *what)
{
    static const uint32_t huge[] = {0x7fffffffu, 0xffffffffu, 0x80000000u, 1u << 22, 1u << 24};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++)
        expect_at(t, s, at, huge[i], 0, 0, OSSA_ERR_RANGE, what);
    uint32_t v = get_u32(s->data + at);
    expect_at(t, s, at, v + 1, 0, 0, OSSA_OK, what);
    expect_at(t, s, at, v * 2 + 3, 0, 0, OSSA_OK, what);
    if (v)
        expect_at(t, s, at, v - 1, 0, 0, OSSA_OK, what);
}

static void fixture_checks(const cff_fixture *fx, const subject *s)
{
    mf_tally t = {"fixture fields", 0, 0, 16};
    lying_count(&t, s, fx->texture_count_at, "texture count");
    lying_count(&t, s, fx->material_count_at, "material count");
    lying_count(&t, s, fx->lod_count_at, "LOD count");
    lying_count(&t, s, fx->material_entry_count_at, "material entry count");
    for (int l = 0; l < 2; l++)
        lying_count(&t, s, fx->mesh_count_at[l], "mesh count");
    for (int i = 0; i < 3; i++) {
        lying_count(&t, s, fx->vertex_count_at[i], "vertex count");
        lying_count(&t, s, fx->face_count_at[i], "face count");
        lying_count(&t, s, fx->frame_count_at[i], "frame count");
        expect_at(&t, s, fx->texture_index_at[i], 2, 0, 0, OSSA_ERR_RANGE, "texture index");
        expect_at(&t, s, fx->texture_index_at[i], 0xffffffffu, 0, 0, OSSA_ERR_RANGE,
                  "texture index");
        expect_at(&t, s, fx->uv_divisor_at[i], 0, 0.0f, 1, OSSA_ERR_VALUE, "UV divisor 0");
        expect_at(&t, s, fx->uv_divisor_at[i], 0, NAN, 1, OSSA_ERR_VALUE, "UV divisor NaN");
        expect_at(&t, s, fx->uv_divisor_at[i], 0, 1e-30f, 1, OSSA_ERR_VALUE, "UV divisor tiny");
        /* Unused fields: mesh origin and radius may hold anything. */
        expect_at(&t, s, fx->uv_divisor_at[i] - 12, 0, NAN, 1, OSSA_OK, "mesh origin NaN");
        expect_at(&t, s, fx->uv_divisor_at[i] + 4, 0, INFINITY, 1, OSSA_OK, "radius Inf");
        if (fx->frame_count[i]) {
            size_t f = fx->first_frame_at[i];
            const float bad[] = {NAN, INFINITY, -INFINITY};
            for (int k = 0; k < 7; k++)
                for (int b = 0; b < 3; b++)
                    expect_at(&t, s, f + 4 * (size_t)k, 0, bad[b], 1, OSSA_ERR_VALUE,
                              "frame value");
            expect_at(&t, s, f, 0, 1e20f, 1, OSSA_ERR_VALUE, "huge translation");
            expect_at(&t, s, f + 12, 0, 1e30f, 1, OSSA_OK, "huge angle");
        }
    }
    /* Face indices one past the vertices, in 8 and 16 bits. */
    uint8_t *buf = malloc(s->size);
    for (int i = 0; i < 3 && buf; i++) {
        for (int wide = 0; wide < 2; wide++) {
            memcpy(buf, s->data, s->size);
            size_t at = fx->first_face_at[i];
            uint32_t v = wide ? 0xffffu : fx->vertex_count[i];
            if (fx->vertex_count[i] > 256) {
                buf[at] = (uint8_t)v;
                buf[at + 1] = (uint8_t)(v >> 8);
            } else {
                buf[at] = (uint8_t)(wide ? 0xff : v);
            }
            ossa_model *m = NULL;
            ossa_error err;
            ossa_status st = load(buf, s->size, &m, &err);
            if (mf_check_error(&t, "face index", st, m, &err) &&
                (st != OSSA_ERR_RANGE || err.offset != (int64_t)at))
                mf_fail(&t, "face index of mesh %d: %s at %lld (\"%s\"), expected RANGE at %zu",
                        i, ossa_status_name(st), (long long)err.offset, err.message, at);
            if (st == OSSA_OK)
                ossa_model_destroy(m);
        }
    }
    free(buf);
    /* Header values. */
    for (int k = 0; k < 6; k++) {
        expect_at(&t, s, 4 * (size_t)k, 0, NAN, 1, OSSA_ERR_VALUE, "header NaN");
        expect_at(&t, s, 4 * (size_t)k, 0, INFINITY, 1, OSSA_ERR_VALUE, "header Inf");
        expect_at(&t, s, 4 * (size_t)k, 0, 1e30f, 1, OSSA_ERR_VALUE, "header huge");
    }
    expect_at(&t, s, 40, 0, NAN, 1, OSSA_OK, "LOD distance NaN");
    expect_at(&t, s, 36, 12345, 0, 0, OSSA_OK, "BSP offset elsewhere");
    mf_tally_end(&t);
}

/* Counts of a file the writer made: walk its LODs and meshes. */
static void written_checks(const subject *s)
{
    mf_tally t = {s->label, 0, 0, 16};
    lying_count(&t, s, 24, "texture count");
    lying_count(&t, s, 32, "LOD count");
    size_t at = 44;
    for (uint32_t i = 0, n = get_u32(s->data + 24); i < n; i++)
        at += 1 + s->data[at];
    uint32_t meshes = get_u32(s->data + at);
    lying_count(&t, s, at, "mesh count");
    at += 8;
    for (uint32_t i = 0; i < meshes && i < 4; i++) {
        uint32_t nv = get_u32(s->data + at + 24), nf = get_u32(s->data + at + 28);
        uint32_t frames = get_u32(s->data + at + 36);
        lying_count(&t, s, at + 24, "vertex count");
        lying_count(&t, s, at + 28, "face count");
        lying_count(&t, s, at + 36, "frame count");
        expect_at(&t, s, at + 20, 3, 0, 0, OSSA_ERR_RANGE, "texture index");
        at += 44 + 13 * (size_t)nv + 3 * (size_t)nf * (nv > 256 ? 2 : 1) + 28 * (size_t)frames;
    }
    mf_tally_end(&t);
}

static void random_buffers(unsigned count)
{
    mf_tally t = {"random bytes", 0, 0, 8};
    mf_rng rng;
    mf_rng_seed(&rng, 77);
    uint8_t buf[512];
    for (unsigned i = 0; i < count; i++) {
        size_t n = mf_rng_below(&rng, sizeof buf);
        for (size_t k = 0; k < n; k++)
            buf[k] = (uint8_t)mf_rng_below(&rng, 256);
        /* Small counts now and then, so that some get past the header. */
        if (n >= 44 && i % 2) {
            for (int k = 0; k < 6; k++)
                cff_store_f32(buf + 4 * k, (float)mf_rng_below(&rng, 100) - 50.0f);
            for (int k = 6; k < 9; k++)
                cff_store_u32(buf + 4 * k, mf_rng_below(&rng, 3));
        }
        char what[32];
        snprintf(what, sizeof what, "buffer %u", i);
        check_mutant(&t, what, buf, n);
    }
    mf_tally_end(&t);
}

int main(void)
{
    cff_fixture fx;
    char *dir = cff_temp_dir();
    char path[4096];
    size_t small_size = 0, full_size = 0;
    CHECK(cff_fixture_make(&fx) && dir);
    uint8_t *small = dir ? cff_write_demo(dir, "demo4.cff", 4.0f, path, sizeof path, &small_size)
                         : NULL;
    uint8_t *full = dir ? cff_write_demo(dir, "demo25.cff", 25.0f, path, sizeof path, &full_size)
                        : NULL;
    CHECK(small && full);
    if (fx.data && small && full) {
        subject subjects[] = {{"fixture", fx.data, fx.size, fx.structure_end},
                              {"demo at 4 fps", small, small_size, small_size},
                              {"demo at 25 fps", full, full_size, full_size}};
        for (size_t i = 0; i < 3; i++) {
            truncate_all(&subjects[i]);
            flip_all(&subjects[i], (unsigned)mf_mutants_affordable(300, subjects[i].size, false,
                                                                    100));
        }
        fixture_checks(&fx, &subjects[0]);
        written_checks(&subjects[1]);
        random_buffers(2000);
    }
    free(small);
    free(full);
    cff_fixture_free(&fx);
    cff_remove_dir(dir);
    return test_finish("cff-malformed");
}
