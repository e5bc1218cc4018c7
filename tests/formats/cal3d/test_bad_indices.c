/* Out-of-range indices in every Cal3D file (binary fields found by cal3d_layout.c, XML values
 * found in the text; the first occurrence, then the middle and the last one while the file's
 * parse budget (plan.h) allows): parent id, child id, face vertex index,
 * spring vertex index (files loaded alone), influence bone id and track bone id (alone with ids
 * no skeleton can have, and with the skeleton of the same folder with its bone count). Rule: the
 * load fails with OSSA_ERR_RANGE, the file name, and a message naming the problem (it contains
 * one of the words given per case). */
#include <stdio.h>
#include <string.h>

#include "cal3d_layout.h"
#include "ossa/limits.h"
#include "malformed.h"
#include "plan.h"

typedef struct index_case {
    const char *what;       /* description for failures */
    const char *word1, *word2; /* the message must contain one of them */
} index_case;

static void expect_range(mf_tally *t, const mf_file *f, const uint8_t *data, size_t size,
                         bool with_skeleton, const index_case *c, unsigned *tried)
{
    ossa_model *m = NULL;
    ossa_error err;
    ossa_status st = with_skeleton ? mf_load_with_skeleton(f, data, size, &m, &err)
                                   : mf_load(f, data, size, &m, &err);
    (*tried)++;
    if (!mf_check_error(t, c->what, st, m, &err)) {
        ossa_model_destroy(m);
        return;
    }
    if (st != OSSA_ERR_RANGE)
        mf_fail(t, "%s: %s (\"%s\"), expected RANGE", c->what, ossa_status_name(st),
                err.message);
    else if (!mf_contains(err.message, c->word1) && !mf_contains(err.message, c->word2))
        mf_fail(t, "%s: message \"%s\" does not name the problem (no \"%s\" or \"%s\")", c->what,
                err.message, c->word1, c->word2);
}

/* Bone count of a skeleton file, or 0. */
static uint32_t skeleton_bones(const char *path, bool xml)
{
    size_t size;
    uint8_t *data = test_read_file(path, &size);
    if (!data)
        return 0;
    uint32_t bones = 0;
    if (xml) {
        bones = (uint32_t)mf_xml_count(data, size, "BONE");
    } else {
        mf_layout l;
        mf_decode(data, size, OSSA_FORMAT_CSF, &l);
        for (size_t i = 0; l.ok && i < l.count; i++)
            bones += l.fields[i].kind == MF_IDX_PARENT;
        mf_layout_free(&l);
    }
    free(data);
    return bones;
}

/* True when f loads with its skeleton as it is (otherwise the with-skeleton cases say nothing). */
static bool loads_with_skeleton(const mf_file *f)
{
    if (!f->skeleton)
        return false;
    ossa_model *m = NULL;
    ossa_error err;
    ossa_status st = mf_load_with_skeleton(f, f->data, f->size, &m, &err);
    ossa_model_destroy(m);
    if (st != OSSA_OK)
        printf("  %s: does not load with %s (%s: %s); with-skeleton cases skipped\n", f->label,
               f->skeleton, ossa_status_name(st), err.message);
    return st == OSSA_OK;
}

static void binary_file(const mf_file *f, unsigned *tried)
{
    mf_layout layout;
    mf_decode(f->data, f->size, f->format, &layout);
    if (!layout.ok) {
        printf("  %s: not decoded (%s), skipped\n", f->label, layout.why);
        mf_layout_free(&layout);
        return;
    }
    mf_tally t = {f->label, 0, 0, 12};
    uint8_t *buf = malloc(f->size);
    bool skel = loads_with_skeleton(f);
    uint32_t skel_bones = skel ? skeleton_bones(f->skeleton, false) : 0;
    size_t allowed = mf_mutants_affordable(SIZE_MAX / 2, f->size, false, 0);
    size_t done = 0, first_pass = 0;
    for (size_t p = 0; p < 3 && buf && (!p || done + first_pass <= allowed); p++) {
        size_t before = done;
        for (int k = MF_FIRST_INDEX; k <= MF_LAST_INDEX; k++) {
            const mf_field *picked[3];
            if (mf_pick(&layout, (mf_kind)k, picked) <= p)
                continue;
            const mf_field *fd = picked[p];
            int32_t lim = (int32_t)fd->limit;
            bool bone_ref = k == MF_IDX_INFLUENCE_BONE || k == MF_IDX_TRACK_BONE;
            /* values, and whether each is tried with the skeleton */
            int32_t values[4];
            bool with[4] = {false, false, false, false};
            size_t nv = 0;
            if (bone_ref) {
                values[nv++] = -1;
                values[nv++] = (int32_t)OSSA_MAX_BONES;
                values[nv++] = INT32_MAX;
                if (skel && skel_bones) {
                    with[nv] = true;
                    values[nv++] = (int32_t)skel_bones;
                }
            } else {
                values[nv++] = lim;
                values[nv++] = k == MF_IDX_PARENT ? -2 : -1;
                values[nv++] = INT32_MAX;
            }
            const char *w1 = k == MF_IDX_PARENT ? "parent"
                           : k == MF_IDX_CHILD ? "child"
                           : k == MF_IDX_FACE_VERTEX ? "face"
                           : k == MF_IDX_SPRING_VERTEX ? "spring" : "bone";
            const char *w2 = k == MF_IDX_FACE_VERTEX ? "vertex"
                           : k == MF_IDX_TRACK_BONE ? "track"
                           : k == MF_IDX_INFLUENCE_BONE ? "influence" : w1;
            for (size_t v = 0; v < nv; v++) {
                char what[160];
                snprintf(what, sizeof what, "%s at offset %u set to %d (was %d)%s",
                         mf_kind_name((mf_kind)k), fd->offset, values[v], fd->value,
                         with[v] ? ", loaded with the skeleton" : "");
                memcpy(buf, f->data, f->size);
                mf_put_i32(buf + fd->offset, values[v]);
                index_case c = {what, w1, w2};
                expect_range(&t, f, buf, f->size, with[v], &c, tried);
                done++;
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

/* One XML index site: element (and attribute, NULL for the text) in format fmt. */
typedef struct xml_site {
    ossa_format fmt;
    const char *element, *attr;
    const char *word1, *word2;
    int kind; /* 0: bone list index (limit: bones in the file), 1: vertex index (limit: the
                 submesh's NUMVERTICES), 2: bone reference (skeleton) */
    int32_t low; /* an invalid negative value */
} xml_site;

static const xml_site xml_sites[] = {
    {OSSA_FORMAT_XSF, "PARENTID", NULL, "parent", "parent", 0, -2},
    {OSSA_FORMAT_XSF, "CHILDID", NULL, "child", "child", 0, -1},
    {OSSA_FORMAT_XMF, "FACE", "VERTEXID", "face", "vertex", 1, -1},
    {OSSA_FORMAT_XMF, "SPRING", "VERTEXID", "spring", "spring", 1, -1},
    {OSSA_FORMAT_XMF, "INFLUENCE", "ID", "bone", "influence", 2, -1},
    {OSSA_FORMAT_XAF, "TRACK", "BONEID", "bone", "track", 2, -1},
};

/* The mutants of one XML site at one occurrence; returns how many loads it made. */
static size_t xml_site_mutants(mf_tally *t, const mf_file *f, const xml_site *site,
                               size_t occurrence, uint32_t skel_bones, unsigned *tried)
{
    size_t a, b;
    if (!mf_xml_find(f->data, f->size, site->element, site->attr, occurrence, &a, &b))
        return 0;
    long values[4];
    bool with[4] = {false, false, false, false};
    size_t nv = 0, loads = 0;
    if (site->kind == 0) {
        values[nv++] = (long)mf_xml_count(f->data, f->size, "BONE");
    } else if (site->kind == 1) {
        long vertices = mf_xml_enclosing_attr(f->data, f->size, a, "SUBMESH", "NUMVERTICES");
        if (vertices >= 0)
            values[nv++] = vertices;
    } else {
        values[nv++] = (long)OSSA_MAX_BONES;
        if (skel_bones) {
            with[nv] = true;
            values[nv++] = (long)skel_bones;
        }
    }
    values[nv++] = site->low;
    values[nv++] = 16777215;
    for (size_t v = 0; v < nv; v++) {
        char text[32], what[192];
        snprintf(text, sizeof text, "%ld", values[v]);
        snprintf(what, sizeof what, "%s%s%s #%zu (byte %zu) set to %s (was %.*s)%s",
                 site->element, site->attr ? " " : "", site->attr ? site->attr : "", occurrence,
                 a, text, (int)(b - a), (const char *)f->data + a,
                 with[v] ? ", loaded with the skeleton" : "");
        size_t n;
        uint8_t *mutant = mf_splice(f->data, f->size, a, b, text, &n);
        if (!mutant) {
            mf_fail(t, "out of memory");
            continue;
        }
        index_case c = {what, site->word1, site->word2};
        expect_range(t, f, mutant, n, with[v], &c, tried);
        free(mutant);
        loads++;
    }
    return loads;
}

static void xml_file(const mf_file *f, unsigned *tried)
{
    mf_tally t = {f->label, 0, 0, 12};
    bool skel_checked = false;
    uint32_t skel_bones = 0; /* 0: no usable skeleton */
    size_t allowed = mf_mutants_affordable(SIZE_MAX / 2, f->size, true, 0);
    size_t done = 0, first_pass = 0;
    for (size_t p = 0; p < 3 && (!p || done + first_pass <= allowed); p++) {
        size_t before = done;
        for (size_t s = 0; s < sizeof xml_sites / sizeof xml_sites[0]; s++) {
            const xml_site *site = &xml_sites[s];
            if (site->fmt != f->format)
                continue;
            if (site->kind == 2 && !skel_checked) {
                skel_checked = true;
                if (loads_with_skeleton(f))
                    skel_bones = skeleton_bones(f->skeleton, true);
            }
            size_t count = mf_xml_count(f->data, f->size, site->element);
            size_t picks[3] = {0, count / 2, count ? count - 1 : 0};
            if (count && (!p || picks[p] != picks[p - 1]))
                done += xml_site_mutants(&t, f, site, picks[p], skel_bones, tried);
        }
        if (!p)
            first_pass = done - before;
    }
    mf_tally_end(&t);
}

int main(void)
{
    return mf_run(binary_file, xml_file, "out-of-range indices tried", "malformed-bad-indices");
}
