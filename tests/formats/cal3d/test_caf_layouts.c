/* Hand-built CAF files of every layout, written by a small encoder that follows the specs
 * (docs/FORMATS.md: CAF layout, Bit-packed and Quantised CAF keys, D2), decoded by the loader and
 * compared with what was encoded, within each encoding's quantisation step. Malformed files fail
 * with the right error. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/build_context.h"
#include "formats/formats.h"
#include "caf_fixture.h"
#include "test_common.h"

/* ---- layouts ------------------------------------------------------------------------------- */

static packed_track imvu_tracks[3];

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
            check_quat(tr->rotations + 4 * k, p[t].keys[k].q, CAF_PACKED_Q_TOL, what);
            float want[3] = {0, 0, 0};
            if (p[t].req)
                memcpy(want, p[t].keys[p[t].dyn ? k : 0].tr, sizeof want);
            else if (skeleton)
                want[0] = (float)(p[t].bone + 1), want[1] = 10.0f * want[0],
                want[2] = -100.0f * want[0];
            /* Half a quantisation step, plus float rounding of values up to 2^23. */
            double big = fmax(fabs(want[0]), fmax(fabs(want[1]), fabs(want[2])));
            double tol = !p[t].req ? 0.0
                                   : (p[t].high ? CAF_HIGH_STEP : CAF_LOW_STEP) * 0.5 + 1e-3 + big * 3e-7;
            check_vec(tr->translations + 3 * k, want, tol, what);
        }
    }
}

static void test_imvu_913(void)
{
    make_imvu_tracks(imvu_tracks);
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
                check_vec(v, p[t].keys[k].tr, (p[t].high ? CAF_HIGH_STEP : CAF_LOW_STEP) * 0.5 + 1e-3,
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
    make_imvu_tracks(imvu_tracks);
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
    make_imvu_tracks(imvu_tracks);
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

int main(void)
{
    test_imvu_913();
    test_imvu_extras(916);
    test_imvu_extras(917);
    test_imvu_919();
    test_v1200();
    test_upstream();
    test_classic_unsorted();
    return test_finish("binary-caf-layouts");
}
