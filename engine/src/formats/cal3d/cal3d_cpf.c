/* Cal3D binary morph animation (CPF), docs/FORMATS.md, CPF layout: per morph target, a track of
 * (time, weight) keys. Becomes one ossa_morph_clip named after the file. */
#include <stdlib.h>
#include <string.h>
#include "ossa/limits.h"
#include "core/reader.h"
#include "formats/formats.h"

/* A key with its file position, so that sorting keeps equal times in file order. */
typedef struct cpf_key {
    float time, weight;
    uint32_t order;
} cpf_key;

static int compare_keys(const void *pa, const void *pb)
{
    const cpf_key *a = pa, *b = pb;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* Cal3D's key search assumes ascending times: out-of-order keys are sorted, with a warning. */
static ossa_status sort_keys(ossa_build *b, ossa_morph_track *t, float *times, float *weights)
{
    uint32_t n = t->key_count;
    cpf_key *keys;
    OSSA_TRY(ossa_build_array(b, &keys, n, sizeof *keys));
    for (uint32_t k = 0; k < n; k++)
        keys[k] = (cpf_key){times[k], weights[k], k};
    qsort(keys, n, sizeof *keys, compare_keys);
    for (uint32_t k = 0; k < n; k++) {
        times[k] = keys[k].time;
        weights[k] = keys[k].weight;
    }
    ossa_warn(b, "morph track '%s': keys were out of time order and have been sorted",
              t->morph_name);
    return OSSA_OK;
}

static ossa_status read_track(ossa_reader *r, ossa_morph_track *t, uint32_t index)
{
    ossa_build *b = r->b;
    OSSA_TRY(ossa_rd_cal3d_string(r, &t->morph_name, "morph name"));
    size_t at = r->pos;
    uint32_t n;
    OSSA_TRY(ossa_rd_count(r, &n, OSSA_MAX_KEYS, 8, "keyframe count"));
    if (n == 0)
        return ossa_fail(b, OSSA_ERR_FORMAT, (int64_t)at, "track %u ('%s') has no keyframes",
                         index, t->morph_name);
    float *times, *weights;
    OSSA_TRY(ossa_build_array(b, &times, n, sizeof *times));
    OSSA_TRY(ossa_build_array(b, &weights, n, sizeof *weights));
    bool sorted = true;
    for (uint32_t k = 0; k < n; k++) {
        OSSA_TRY(ossa_rd_f32(r, &times[k], "keyframe time"));
        OSSA_TRY(ossa_rd_f32(r, &weights[k], "keyframe weight"));
        sorted &= k == 0 || times[k - 1] <= times[k];
    }
    t->key_count = n;
    t->times = times;
    t->weights = weights;
    return sorted ? OSSA_OK : sort_keys(b, t, times, weights);
}

ossa_status ossa_read_cpf(ossa_build *b, const uint8_t *data, size_t size)
{
    ossa_reader r;
    ossa_reader_init(&r, b, data, size);
    char magic[4];
    OSSA_TRY(ossa_rd_bytes(&r, magic, 4, "CPF magic"));
    if (memcmp(magic, "CPF\0", 4) != 0)
        return ossa_fail(b, OSSA_ERR_FORMAT, 0,
                         "not a Cal3D morph animation: magic is not \"CPF\"");
    int32_t version;
    OSSA_TRY(ossa_rd_i32(&r, &version, "CPF version"));
    ossa_cal3d_lineage lineage;
    OSSA_TRY(ossa_cal3d_check_version(b, version, 4, 0, &lineage));
    b->last_version = (uint32_t)version;

    size_t at = r.pos;
    float duration;
    OSSA_TRY(ossa_rd_f32(&r, &duration, "duration"));
    if (!(duration > 0.0f))
        return ossa_fail(b, OSSA_ERR_VALUE, (int64_t)at, "duration %g is not positive",
                         (double)duration);
    at = r.pos;
    uint32_t count;
    /* A track is at least a name length and a key count. */
    OSSA_TRY(ossa_rd_count(&r, &count, OSSA_MAX_TRACKS, 8, "track count"));
    if (count == 0)
        return ossa_fail(b, OSSA_ERR_FORMAT, (int64_t)at, "morph animation has no tracks");
    ossa_morph_track *tracks;
    OSSA_TRY(ossa_build_array(b, &tracks, count, sizeof *tracks));
    for (uint32_t i = 0; i < count; i++)
        OSSA_TRY(read_track(&r, &tracks[i], i));
    if (ossa_rd_left(&r))
        ossa_warn(b, "%zu bytes after the last track ignored", ossa_rd_left(&r));

    ossa_morph_clip *clip = ossa_build_push_morph_clip(b);
    if (!clip)
        return OSSA_ERR_NOMEM;
    clip->name = b->stem;
    clip->duration = duration;
    clip->track_count = count;
    clip->tracks = tracks;
    clip->format = OSSA_FORMAT_CPF;
    clip->version = (uint32_t)version;
    return OSSA_OK;
}
