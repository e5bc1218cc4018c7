/* Runtime clips and sampling caches: building a clip from a model's clip (its key times with
 * Cal3D's loop key, and one pair record per pair of keys, see rt_internal.h), freeing it and the
 * queries on it; creating, freeing and resetting a sample cache. Apart from rt_clip.c, the
 * sampling job that reads them every frame: a clip is built once, before its first frame. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/error.h"
#include "interp.h"
#include "rt_internal.h"

static ossa_status rt_fail(ossa_error *err, ossa_status st, const char *msg)
{
    if (err) {
        err->status = st;
        err->offset = -1;
        err->line = 0;
        snprintf(err->message, sizeof err->message, "%s", msg);
    }
    return st;
}

/* Fills one key pair record (see rt_internal.h). */
static void fill_pair(float *rec, const float *ta, const float *qa, const float *tb,
                      const float *qb)
{
    float theta, inv_sin;
    int flip = ossa_slerp_setup(qa, qb, &theta, &inv_sin);
    memcpy(rec, ta, 3 * sizeof(float));
    rec[3] = theta;
    memcpy(rec + 4, qa, 4 * sizeof(float));
    memcpy(rec + 8, tb, 3 * sizeof(float));
    rec[11] = inv_sin;
    for (int k = 0; k < 4; k++)
        rec[12 + k] = flip ? -qb[k] : qb[k];
}

/* The lane-major copy of a uniform clip's pair records (rt_internal.h); 0 when out of memory.
 * Padding columns repeat track 0, so that they hold finite values. */
static int fill_lanes(ossa_rt_clip *c)
{
    uint32_t keys = c->tracks[0].key_count;
    uint32_t stride = (c->track_count + 7u) & ~7u;
    size_t floats = (size_t)keys * OSSA_RT_PAIR_FLOATS * stride;
    c->lanes = aligned_alloc(64, (floats * sizeof(float) + 63) & ~(size_t)63);
    if (!c->lanes)
        return 0;
    c->lane_stride = stride;
    for (uint32_t a = 0; a < keys; a++)
        for (uint32_t k = 0; k < OSSA_RT_PAIR_FLOATS; k++) {
            float *row = c->lanes + ((size_t)a * OSSA_RT_PAIR_FLOATS + k) * stride;
            for (uint32_t i = 0; i < stride; i++) {
                const ossa_rt_track *tr = &c->tracks[i < c->track_count ? i : 0];
                row[i] = c->pairs[OSSA_RT_PAIR_FLOATS * ((size_t)tr->pair_first + a) + k];
            }
        }
    return 1;
}

ossa_status ossa_rt_clip_create(const ossa_model *model, const ossa_clip *clip,
                                ossa_rt_clip **out, ossa_error *err)
{
    *out = NULL;
    if (!model || !clip || (clip->track_count && !clip->tracks))
        return rt_fail(err, OSSA_ERR_INVALID_ARGUMENT, "runtime clip: no model or clip");
    uint64_t keys = 0, scale_keys = 0;
    uint32_t used = 0;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const ossa_track *tr = &clip->tracks[i];
        if (tr->bone >= model->bone_count)
            continue;
        if (tr->key_count == 0 || !tr->times || !tr->translations || !tr->rotations)
            return rt_fail(err, OSSA_ERR_INVALID_ARGUMENT, "runtime clip: track without keys");
        used++;
        keys += (uint64_t)tr->key_count + 1;
        if (tr->scales)
            scale_keys += (uint64_t)tr->key_count + 1;
    }
    if (keys > (UINT32_MAX / 32))
        return rt_fail(err, OSSA_ERR_RANGE, "runtime clip: too many keys");
    uint32_t groups = (used + OSSA_RT_LANES - 1) / OSSA_RT_LANES;
    ossa_rt_clip *c = calloc(1, sizeof *c);
    if (c) {
        c->tracks = malloc(((size_t)used + 1) * sizeof *c->tracks);
        c->times = malloc(((size_t)keys + 1) * sizeof(float));
        /* keys counts key_count + 1 per track, one more than the pairs: room to spare. */
        c->pairs = aligned_alloc(64, ((size_t)keys + 1) * OSSA_RT_PAIR_FLOATS * sizeof(float));
        c->scales = malloc(((size_t)scale_keys + 1) * 3 * sizeof(float));
        c->group_bone = malloc(((size_t)groups + 1) * sizeof *c->group_bone);
    }
    if (!c || !c->tracks || !c->times || !c->pairs || !c->scales || !c->group_bone) {
        ossa_rt_clip_destroy(c);
        return rt_fail(err, OSSA_ERR_NOMEM, "runtime clip: out of memory");
    }
    c->duration = clip->duration;
    /* Cal3D decides on the loop key from the first track alone and then adds it to all. */
    c->loop_key = clip->track_count &&
                  clip->tracks[0].times[clip->tracks[0].key_count - 1] < clip->duration;
    uint32_t k = 0, pk = 0, sk = 0;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const ossa_track *tr = &clip->tracks[i];
        if (tr->bone >= model->bone_count)
            continue;
        ossa_rt_track *rt = &c->tracks[c->track_count++];
        uint32_t n = tr->key_count;
        rt->bone = tr->bone;
        rt->key_count = n;
        rt->first = k;
        rt->pair_first = pk;
        rt->scale_first = tr->scales ? sk : UINT32_MAX;
        rt->same_times = c->track_count > 1 && rt[-1].key_count == n &&
                         !memcmp(c->times + rt[-1].first, tr->times, n * sizeof(float));
        if (tr->bone + 1 > c->bone_limit)
            c->bone_limit = tr->bone + 1;
        for (uint32_t j = 0; j <= n; j++) {
            uint32_t src = j < n ? j : 0; /* the loop key copies the first key */
            c->times[k + j] = j < n ? tr->times[j] : clip->duration;
            if (tr->scales)
                memcpy(c->scales + 3 * (size_t)(sk + j), tr->scales + 3 * (size_t)src,
                       3 * sizeof(float));
        }
        for (uint32_t j = 0; j < n; j++) {
            uint32_t nx = j + 1 < n ? j + 1 : 0;
            fill_pair(c->pairs + OSSA_RT_PAIR_FLOATS * (size_t)(pk + j),
                      tr->translations + 3 * (size_t)j, tr->rotations + 4 * (size_t)j,
                      tr->translations + 3 * (size_t)nx, tr->rotations + 4 * (size_t)nx);
        }
        k += n + 1;
        pk += n;
        if (tr->scales)
            sk += n + 1;
    }
    /* Which bones the tracks animate (the mixer's single-cycle path needs each once). */
    uint8_t *seen = calloc((size_t)model->bone_count + 1, 1);
    if (!seen) {
        ossa_rt_clip_destroy(c);
        return rt_fail(err, OSSA_ERR_NOMEM, "runtime clip: out of memory");
    }
    uint32_t distinct = 0;
    c->unique_bones = 1;
    for (uint32_t i = 0; i < c->track_count; i++) {
        uint32_t b = c->tracks[i].bone;
        if (seen[b])
            c->unique_bones = 0;
        else
            distinct++;
        seen[b] = 1;
        if (c->tracks[i].scale_first != UINT32_MAX)
            c->has_scales = 1;
    }
    free(seen);
    c->uniform = c->track_count > 0;
    for (uint32_t i = 1; i < c->track_count; i++)
        c->uniform &= c->tracks[i].same_times != 0;
    c->all_bones = distinct == model->bone_count;
    if (c->uniform && !c->has_scales && !fill_lanes(c)) {
        ossa_rt_clip_destroy(c);
        return rt_fail(err, OSSA_ERR_NOMEM, "runtime clip: out of memory");
    }
    for (uint32_t g = 0; g < groups; g++) {
        uint32_t t0 = g * OSSA_RT_LANES, b0 = c->tracks[t0].bone;
        int contiguous = t0 + OSSA_RT_LANES <= c->track_count;
        for (uint32_t j = 1; contiguous && j < OSSA_RT_LANES; j++)
            contiguous = c->tracks[t0 + j].bone == b0 + j;
        c->group_bone[g] = contiguous ? b0 : UINT32_MAX;
    }
    *out = c;
    return OSSA_OK;
}

void ossa_rt_clip_destroy(ossa_rt_clip *clip)
{
    if (!clip)
        return;
    free(clip->tracks);
    free(clip->times);
    free(clip->pairs);
    free(clip->scales);
    free(clip->group_bone);
    free(clip->lanes);
    free(clip);
}

float ossa_rt_clip_duration(const ossa_rt_clip *clip)
{
    return clip ? clip->duration : 0.0f;
}

uint32_t ossa_rt_clip_track_count(const ossa_rt_clip *clip)
{
    return clip ? clip->track_count : 0;
}

uint32_t ossa_rt_clip_track_bone(const ossa_rt_clip *clip, uint32_t track)
{
    return clip && track < clip->track_count ? clip->tracks[track].bone : UINT32_MAX;
}

ossa_status ossa_sample_cache_create(uint32_t max_tracks, ossa_sample_cache **out,
                                     ossa_error *err)
{
    if (!out)
        return rt_fail(err, OSSA_ERR_INVALID_ARGUMENT, "sample cache: NULL output");
    *out = NULL;
    if (max_tracks > OSSA_SAMPLE_CACHE_MAX_TRACKS)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "sample cache: max_tracks %u above the cap of %u", max_tracks,
                               (unsigned)OSSA_SAMPLE_CACHE_MAX_TRACKS);
    /* one block, the cursors right after the struct: a crowd asks for both at once
     * (ossa_mixer_prefetch_cycles) */
    ossa_sample_cache *c = calloc(1, ossa_sample_cache_bytes(max_tracks));
    if (!c)
        return rt_fail(err, OSSA_ERR_NOMEM, "sample cache: out of memory");
    c->cursor = (uint32_t *)(void *)(c + 1);
    c->capacity = max_tracks;
    *out = c;
    return OSSA_OK;
}

void ossa_sample_cache_destroy(ossa_sample_cache *cache)
{
    free(cache);
}

void ossa_sample_cache_reset(ossa_sample_cache *cache)
{
    if (!cache)
        return;
    cache->clip = NULL;
    memset(cache->cursor, 0, (size_t)cache->capacity * sizeof *cache->cursor);
}
