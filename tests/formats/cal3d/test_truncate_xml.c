/* Every Cal3D XML file (real assets and generated seeds) cut short; which cut lengths (all of
 * them for small files, a parse budget for larger ones, plus the cuts around E below) is in
 * plan.h. Rule: let E be the offset just past the last '>' of the file. When only whitespace
 * follows E, a cut at or after E removes nothing but that whitespace and must give the same
 * status as the whole file (OK for every real file the reader accepts); every cut before E leaves
 * an unclosed element (or no root at all) and must fail with a message, the file name and an XML
 * line or byte offset. When something else follows E, cuts after E only have to end cleanly (OK
 * and valid, or a well-formed error). */
#include <stdio.h>
#include <string.h>

#include "malformed.h"
#include "plan.h"

static bool is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static void truncate_file(const mf_file *f, unsigned *files)
{
    (*files)++;
    mf_tally t = {f->label, 0, 0, 8};
    size_t end = 0;
    for (size_t i = f->size; i > 0; i--)
        if (f->data[i - 1] == '>') {
            end = i;
            break;
        }
    bool only_space_after = true;
    for (size_t i = end; i < f->size; i++)
        only_space_after = only_space_after && is_space(f->data[i]);

    ossa_model *whole_model = NULL;
    ossa_error whole_err;
    ossa_status whole = mf_load(f, f->data, f->size, &whole_model, &whole_err);
    ossa_model_destroy(whole_model);

    uint8_t *buf = malloc(f->size ? f->size : 1);
    mf_cut_plan plan;
    mf_cut_plan_make(&plan, f->size, f->xml);
    /* The plan, then the cuts around E (the boundary of the rule) whatever the plan. */
    size_t planned = mf_cut_count(&plan);
    size_t around_e[3] = {end ? end - 1 : 0, end, f->size ? f->size - 1 : 0};
    for (size_t i = 0; i < planned + 3 && buf; i++) {
        size_t cut = i < planned ? mf_cut_at(&plan, i) : around_e[i - planned];
        if (cut >= f->size)
            continue;
        uint8_t *data = buf + (f->size - cut);
        memcpy(data, f->data, cut);
        ossa_model *m = NULL;
        ossa_error err;
        ossa_status st = mf_load(f, data, cut, &m, &err);
        char what[64];
        snprintf(what, sizeof what, "cut at %zu of %zu", cut, f->size);
        if (cut >= end) {
            if (only_space_after && st != whole)
                mf_fail(&t, "%s: only trailing whitespace removed, status %s (\"%s\"), whole "
                        "file gives %s", what, ossa_status_name(st),
                        st ? err.message : "", ossa_status_name(whole));
            mf_check_any(&t, what, st, m, &err);
            continue;
        }
        if (!mf_check_error(&t, what, st, m, &err)) {
            ossa_model_destroy(m);
            continue;
        }
        if (err.line < 1 && err.offset < 0)
            mf_fail(&t, "%s: %s (\"%s\") names neither a line nor an offset", what,
                    ossa_status_name(st), err.message);
    }
    if (!buf)
        mf_fail(&t, "out of memory");
    free(buf);
    mf_tally_end(&t);
}

int main(void)
{
    return mf_run(NULL, truncate_file, "XML files truncated", "malformed-truncate-xml");
}
