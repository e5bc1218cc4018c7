/* Lying counts in every decodable binary Cal3D file (real assets and generated seeds): each
 * count field found by cal3d_layout.c (bones, children, tracks, keys, submeshes, vertices,
 * faces, springs, texture coordinate sets, influences, morphs, maps, string lengths; its first,
 * middle and last occurrence) is overwritten with negative and huge values. Rule: the load fails
 * with OSSA_ERR_TRUNCATED or OSSA_ERR_RANGE, a message, the file name and an offset within the
 * file. The meson test runs this with ASan's allocator_may_return_null=0 and a small
 * max_allocation_size_mb, so a loader that allocates for the lie before checking it aborts. */
#include <stdio.h>
#include <string.h>

#include "cal3d_layout.h"
#include "malformed.h"

static const int32_t lies[] = {-1, INT32_MIN, INT32_MAX, 0x01000000, 0x000FFFFF};

static void lie_in_file(const mf_file *f, unsigned *tried)
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
    for (int k = MF_FIRST_COUNT; k <= MF_LAST_COUNT && buf; k++) {
        const mf_field *picked[3];
        size_t n = mf_pick(&layout, (mf_kind)k, picked);
        for (size_t p = 0; p < n; p++)
            for (size_t v = 0; v < sizeof lies / sizeof lies[0]; v++) {
                if (lies[v] == picked[p]->value)
                    continue;
                memcpy(buf, f->data, f->size);
                mf_put_i32(buf + picked[p]->offset, lies[v]);
                ossa_model *m = NULL;
                ossa_error err;
                ossa_status st = mf_load(f, buf, f->size, &m, &err);
                char what[128];
                snprintf(what, sizeof what, "%s at offset %u set to %d (was %d)",
                         mf_kind_name((mf_kind)k), picked[p]->offset, lies[v], picked[p]->value);
                (*tried)++;
                if (!mf_check_error(&t, what, st, m, &err)) {
                    ossa_model_destroy(m);
                    continue;
                }
                if (st != OSSA_ERR_TRUNCATED && st != OSSA_ERR_RANGE)
                    mf_fail(&t, "%s: %s (\"%s\"), expected TRUNCATED or RANGE", what,
                            ossa_status_name(st), err.message);
                else if (err.offset < 0 || (uint64_t)err.offset > f->size)
                    mf_fail(&t, "%s: error offset %lld outside the file (\"%s\")", what,
                            (long long)err.offset, err.message);
            }
    }
    if (!buf)
        mf_fail(&t, "out of memory");
    free(buf);
    mf_tally_end(&t);
    mf_layout_free(&layout);
}

int main(void)
{
    return mf_run(lie_in_file, NULL, "lying counts tried", "malformed-lying-counts");
}
