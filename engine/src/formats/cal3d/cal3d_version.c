/* Cal3D version dispatch (docs/FORMATS.md, D1): the lineage a version selects, and for
 * 1300/1301 skeletons and meshes, which exist in two incompatible lineages under the same version
 * numbers (Cal3D version thresholds), the lineage told from the data by trying each layout. */
#include <stdio.h>
#include <string.h>
#include "formats/formats.h"

ossa_status ossa_cal3d_check_version(ossa_build *b, int64_t v, int64_t offset, int line,
                                     ossa_cal3d_lineage *lineage)
{
    if (v < OSSA_CAL3D_EARLIEST || v > OSSA_CAL3D_LATEST) {
        if (line > 0)
            return ossa_fail_line(b, OSSA_ERR_VERSION, line,
                                  "Cal3D version %lld is not in the supported range %u..%u",
                                  (long long)v, OSSA_CAL3D_EARLIEST, OSSA_CAL3D_LATEST);
        return ossa_fail(b, OSSA_ERR_VERSION, offset,
                         "Cal3D version %lld is not in the supported range %u..%u", (long long)v,
                         OSSA_CAL3D_EARLIEST, OSSA_CAL3D_LATEST);
    }
    if (v >= 911 && v <= 919)
        *lineage = OSSA_CAL3D_IMVU;
    else if (v >= 1300)
        *lineage = OSSA_CAL3D_UPSTREAM;
    else if (v >= 1200)
        *lineage = OSSA_CAL3D_V1200;
    else
        *lineage = OSSA_CAL3D_CLASSIC;
    return OSSA_OK;
}

/* One reading of the whole file in the build. Its error goes to *err rather than the caller's,
 * and a failed reading is undone: no allocation, warning or part of it stays in the model. */
static ossa_status attempt(ossa_build *b, const uint8_t *data, size_t size,
                           ossa_cal3d_layout_reader read, ossa_cal3d_attempt *how,
                           ossa_error *err)
{
    ossa_build_savepoint sp;
    ossa_build_save(b, &sp);
    ossa_error *caller = b->err;
    ossa_error_clear(err);
    b->err = err;
    ossa_status st = read(b, data, size, how);
    b->err = caller;
    if (st != OSSA_OK)
        ossa_build_rollback(b, &sp);
    return st;
}

/* Hands an attempt's error to the caller unchanged. */
static ossa_status forward(ossa_build *b, const ossa_error *err)
{
    return ossa_fail(b, err->status, err->offset, "%s", err->message);
}

/* How far a failed attempt got. A layout that ran out of data, or failed only after reading
 * everything (a skeleton's parent cycle), agreed with the whole file: a truncated file then
 * fails as truncated in its own layout, not with whatever the other layout misread first. */
static int64_t reached(const ossa_error *err, size_t size)
{
    return err->status == OSSA_ERR_TRUNCATED || err->offset < 0 ? (int64_t)size : err->offset;
}

static void describe(char *out, size_t cap, const ossa_error *err)
{
    if (err->offset >= 0)
        snprintf(out, cap, "%.180s at offset %lld", err->message, (long long)err->offset);
    else
        snprintf(out, cap, "%.180s after the whole file was read", err->message);
}

/* Neither layout reads the file: the cause in the closer one leads (the one that got further,
 * then the larger offset, then upstream), so that a truncated file or a mesh for another
 * skeleton says so first; the other layout's failure follows. Its status and offset are the
 * error's. */
static ossa_status neither(ossa_build *b, int32_t version, size_t size, const ossa_error *up,
                           const ossa_error *mp)
{
    if (up->status == mp->status && up->offset == mp->offset &&
        strcmp(up->message, mp->message) == 0)
        return forward(b, up); /* the same failure whatever the layout */
    int64_t up_reach = reached(up, size), mp_reach = reached(mp, size);
    bool mp_first = mp_reach > up_reach || (mp_reach == up_reach && mp->offset > up->offset);
    const ossa_error *first = mp_first ? mp : up, *second = mp_first ? up : mp;
    char c[240];
    describe(c, sizeof c, second);
    return ossa_fail(b, first->status, first->offset,
                     "%.300s (in the %s %d layout, which read further; in the %s %d layout: %s; "
                     "the file fits neither Cal3D %d layout)",
                     first->message, mp_first ? "mp3butcher" : "upstream", version,
                     mp_first ? "upstream" : "mp3butcher", version, c, version);
}

ossa_status ossa_cal3d_read_lineage(ossa_build *b, const uint8_t *data, size_t size,
                                    const char magic[4], ossa_cal3d_layout_reader read)
{
    ossa_cal3d_attempt own = {false, false, 0, false, false};
    if (size < 8 || memcmp(data, magic, 4) != 0)
        return read(b, data, size, &own); /* the reader reports what is wrong */
    int32_t version = (int32_t)((uint32_t)data[4] | (uint32_t)data[5] << 8 |
                                (uint32_t)data[6] << 16 | (uint32_t)data[7] << 24);
    if (version < 1300 || version > (int32_t)OSSA_CAL3D_LATEST)
        return read(b, data, size, &own); /* one layout per version */

    ossa_error up_err, mp_err, old_err;
    ossa_cal3d_attempt up = {false, true, 0, false, false};
    ossa_cal3d_attempt mp = {true, true, 0, false, false};
    ossa_status st = attempt(b, data, size, read, &up, &up_err);
    if (st == OSSA_OK)
        return OSSA_OK;
    if (st == OSSA_ERR_NOMEM)
        return forward(b, &up_err);
    st = attempt(b, data, size, read, &mp, &mp_err);
    if (st == OSSA_OK)
        return OSSA_OK;
    if (st == OSSA_ERR_NOMEM)
        return forward(b, &mp_err);
    if (mp.had_morphs) { /* the fork's earlier morph lists, ended by a sentinel id */
        ossa_cal3d_attempt old = {true, true, 0, true, false};
        st = attempt(b, data, size, read, &old, &old_err);
        if (st == OSSA_OK)
            return OSSA_OK;
        if (st == OSSA_ERR_NOMEM)
            return forward(b, &old_err);
        if (reached(&old_err, size) > reached(&mp_err, size) ||
            (!mp.trailing && old.trailing)) {
            mp_err = old_err;
            mp = old;
        }
    }
    /* Neither ends on the last byte. A layout that read everything but left bytes over is
     * taken as Cal3D's own loader would (it ignores what follows), with a warning. */
    if (up.trailing || mp.trailing) {
        ossa_cal3d_attempt tolerant = {!up.trailing, false, 0, mp.terminated_morphs, false};
        return read(b, data, size, &tolerant);
    }
    return neither(b, version, size, &up_err, &mp_err);
}
