/* Every binary Cal3D file (real assets and generated seeds) cut short; which cut lengths (all of
 * them for small files, a parse budget for larger ones) is in plan.h. Rule: a cut before the end
 * of the file's structure (found by decoding it independently, cal3d_layout.c) must fail with
 * OSSA_ERR_TRUNCATED, a message, the file name and a byte offset within the cut data; a cut that
 * only removes bytes after the structure may load (then the model must validate) or fail
 * cleanly. Each cut is copied to the end of an exact-size buffer so that ASan sees any read past
 * it. */
#include <stdio.h>
#include <string.h>

#include "cal3d_layout.h"
#include "malformed.h"
#include "plan.h"

static void truncate_file(const mf_file *f, unsigned *files)
{
    (*files)++;
    mf_layout layout;
    mf_decode(f->data, f->size, f->format, &layout);
    size_t end = layout.ok ? layout.end : f->size;
    if (!layout.ok)
        printf("  %s: structure not decoded (%s): every cut must fail\n", f->label, layout.why);
    mf_tally t = {f->label, 0, 0, 8};
    uint8_t *buf = malloc(f->size ? f->size : 1);
    mf_cut_plan plan;
    mf_cut_plan_make(&plan, f->size, f->xml);
    size_t cuts = mf_cut_count(&plan);
    for (size_t i = 0; i < cuts && buf; i++) {
        size_t cut = mf_cut_at(&plan, i);
        /* The cut data lives at the end of buf, so reading past it leaves the allocation. */
        uint8_t *data = buf + (f->size - cut);
        memcpy(data, f->data, cut);
        ossa_model *m = NULL;
        ossa_error err;
        ossa_status st = mf_load(f, data, cut, &m, &err);
        char what[64];
        snprintf(what, sizeof what, "cut at %zu of %zu", cut, f->size);
        if (cut >= end) {
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
            mf_fail(&t, "%s: error offset %lld is not within the %zu bytes given (\"%s\")", what,
                    (long long)err.offset, cut, err.message);
    }
    if (!buf)
        mf_fail(&t, "out of memory");
    free(buf);
    mf_tally_end(&t);
    mf_layout_free(&layout);
}

int main(void)
{
    return mf_run(truncate_file, NULL, "binary files truncated", "malformed-truncate-binary");
}
