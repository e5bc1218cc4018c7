/* NaN and infinities injected into the floats of every Cal3D file the runtime uses: bone
 * translations and rotations, vertex positions, normals and texture coordinates, influence
 * weights, key times, translations and rotations, durations and morph weights (binary fields
 * found by cal3d_layout.c; XML values found in the text, including "1e999", which overflows to
 * infinity when parsed). The first occurrence of each, then the middle and the last one while
 * the file's parse budget (plan.h) allows. Rule: the load fails with
 * the file name and a message; binary readers say OSSA_ERR_VALUE (ossa_rd_f32), XML readers
 * OSSA_ERR_VALUE or OSSA_ERR_FORMAT (a number that does not parse). */
#include <stdio.h>
#include <string.h>

#include "cal3d_layout.h"
#include "malformed.h"
#include "plan.h"

static void expect_rejected(mf_tally *t, const mf_file *f, const uint8_t *data, size_t size,
                            const char *what, unsigned *tried)
{
    ossa_model *m = NULL;
    ossa_error err;
    ossa_status st = mf_load(f, data, size, &m, &err);
    (*tried)++;
    if (!mf_check_error(t, what, st, m, &err)) {
        ossa_model_destroy(m);
        return;
    }
    if (st != OSSA_ERR_VALUE && (!f->xml || st != OSSA_ERR_FORMAT))
        mf_fail(t, "%s: %s (\"%s\"), expected VALUE%s", what, ossa_status_name(st), err.message,
                f->xml ? " or FORMAT" : "");
}

static void binary_file(const mf_file *f, unsigned *tried)
{
    static const struct { const char *name; uint32_t bits; } bad[] = {
        {"NaN", 0x7FC00000u}, {"+Inf", 0x7F800000u}, {"-Inf", 0xFF800000u},
        {"signalling NaN", 0x7F800001u}};
    mf_layout layout;
    mf_decode(f->data, f->size, f->format, &layout);
    if (!layout.ok) {
        printf("  %s: not decoded (%s), skipped\n", f->label, layout.why);
        mf_layout_free(&layout);
        return;
    }
    mf_tally t = {f->label, 0, 0, 12};
    uint8_t *buf = malloc(f->size);
    size_t allowed = mf_mutants_affordable(SIZE_MAX / 2, f->size, false, 0);
    size_t done = 0, first_pass = 0;
    for (size_t p = 0; p < 3 && buf && (!p || done + first_pass <= allowed); p++) {
        size_t before = done;
        for (int k = MF_FIRST_FLOAT; k <= MF_LAST_FLOAT; k++) {
            const mf_field *picked[3];
            if (mf_pick(&layout, (mf_kind)k, picked) <= p)
                continue;
            for (size_t v = 0; v < sizeof bad / sizeof bad[0]; v++, done++) {
                memcpy(buf, f->data, f->size);
                mf_put_i32(buf + picked[p]->offset, (int32_t)bad[v].bits);
                char what[128];
                snprintf(what, sizeof what, "%s at offset %u set to %s", mf_kind_name((mf_kind)k),
                         picked[p]->offset, bad[v].name);
                expect_rejected(&t, f, buf, f->size, what, tried);
            }
        }
        if (!p)
            first_pass = done - before;
    }
    if (!buf)
        mf_fail(&t, "out of memory");
    free(buf);
    mf_tally_end(&t);
    mf_layout_free(&layout);
}

typedef struct xml_float_site {
    ossa_format fmt;
    const char *element, *attr;
} xml_float_site;

static const xml_float_site xml_sites[] = {
    {OSSA_FORMAT_XSF, "TRANSLATION", NULL}, {OSSA_FORMAT_XSF, "ROTATION", NULL},
    {OSSA_FORMAT_XSF, "LOCALTRANSLATION", NULL}, {OSSA_FORMAT_XSF, "LOCALROTATION", NULL},
    {OSSA_FORMAT_XMF, "POS", NULL}, {OSSA_FORMAT_XMF, "NORM", NULL},
    {OSSA_FORMAT_XMF, "TEXCOORD", NULL}, {OSSA_FORMAT_XMF, "INFLUENCE", NULL},
    {OSSA_FORMAT_XAF, "ANIMATION", "DURATION"}, {OSSA_FORMAT_XAF, "KEYFRAME", "TIME"},
    {OSSA_FORMAT_XAF, "TRANSLATION", NULL}, {OSSA_FORMAT_XAF, "ROTATION", NULL},
    {OSSA_FORMAT_XPF, "ANIMATION", "DURATION"}, {OSSA_FORMAT_XPF, "KEYFRAME", "TIME"},
    {OSSA_FORMAT_XPF, "WEIGHT", NULL},
};

static void xml_file(const mf_file *f, unsigned *tried)
{
    static const char *const bad[] = {"nan", "NaN", "inf", "-inf", "1e999", "-1e999"};
    mf_tally t = {f->label, 0, 0, 12};
    size_t allowed = mf_mutants_affordable(SIZE_MAX / 2, f->size, true, 0);
    size_t done = 0, first_pass = 0;
    for (size_t p = 0; p < 3 && (!p || done + first_pass <= allowed); p++) {
        size_t before = done;
        for (size_t s = 0; s < sizeof xml_sites / sizeof xml_sites[0]; s++) {
            const xml_float_site *site = &xml_sites[s];
            if (site->fmt != f->format)
                continue;
            size_t count = mf_xml_count(f->data, f->size, site->element);
            size_t picks[3] = {0, count / 2, count ? count - 1 : 0};
            size_t a, b;
            if (!count || (p && picks[p] == picks[p - 1]) ||
                !mf_xml_find(f->data, f->size, site->element, site->attr, picks[p], &a, &b))
                continue;
            for (size_t v = 0; v < sizeof bad / sizeof bad[0]; v++, done++) {
                char what[160];
                snprintf(what, sizeof what, "%s%s%s #%zu (byte %zu) set to %s", site->element,
                         site->attr ? " " : "", site->attr ? site->attr : "", picks[p], a,
                         bad[v]);
                size_t n;
                uint8_t *mutant = mf_splice(f->data, f->size, a, b, bad[v], &n);
                if (!mutant) {
                    mf_fail(&t, "out of memory");
                    continue;
                }
                expect_rejected(&t, f, mutant, n, what, tried);
                free(mutant);
            }
        }
        if (!p)
            first_pass = done - before;
    }
    mf_tally_end(&t);
}

int main(void)
{
    return mf_run(binary_file, xml_file, "non-finite values tried", "malformed-nonfinite");
}
