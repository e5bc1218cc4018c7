/* Runtime clips, sampling caches and the sampling job. The interpolation is interp.h's, shared
 * with ossa_sample_clip, so both give the same bits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    if (keys > (UINT32_MAX / 8))
        return rt_fail(err, OSSA_ERR_RANGE, "runtime clip: too many keys");
    ossa_rt_clip *c = calloc(1, sizeof *c);
    if (c) {
        c->tracks = malloc(((size_t)used + 1) * sizeof *c->tracks);
        c->times = malloc(((size_t)keys + 1) * sizeof(float));
        c->keys = malloc(((size_t)keys + 1) * 7 * sizeof(float));
        c->scales = malloc(((size_t)scale_keys + 1) * 3 * sizeof(float));
    }
    if (!c || !c->tracks || !c->times || !c->keys || !c->scales) {
        ossa_rt_clip_free(c);
        return rt_fail(err, OSSA_ERR_NOMEM, "runtime clip: out of memory");
    }
    c->duration = clip->duration;
    /* Cal3D decides on the loop key from the first track alone and then adds it to all. */
    c->loop_key = clip->track_count &&
                  clip->tracks[0].times[clip->tracks[0].key_count - 1] < clip->duration;
    uint32_t k = 0, sk = 0;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const ossa_track *tr = &clip->tracks[i];
        if (tr->bone >= model->bone_count)
            continue;
        ossa_rt_track *rt = &c->tracks[c->track_count++];
        uint32_t n = tr->key_count;
        rt->bone = tr->bone;
        rt->key_count = n;
        rt->first = k;
        rt->scale_first = tr->scales ? sk : UINT32_MAX;
        if (tr->bone + 1 > c->bone_limit)
            c->bone_limit = tr->bone + 1;
        for (uint32_t j = 0; j <= n; j++) {
            uint32_t src = j < n ? j : 0; /* the loop key copies the first key */
            c->times[k + j] = j < n ? tr->times[j] : clip->duration;
            memcpy(c->keys + 7 * (size_t)(k + j), tr->translations + 3 * (size_t)src,
                   3 * sizeof(float));
            memcpy(c->keys + 7 * (size_t)(k + j) + 3, tr->rotations + 4 * (size_t)src,
                   4 * sizeof(float));
            if (tr->scales)
                memcpy(c->scales + 3 * (size_t)(sk + j), tr->scales + 3 * (size_t)src,
                       3 * sizeof(float));
        }
        k += n + 1;
        if (tr->scales)
            sk += n + 1;
    }
    *out = c;
    return OSSA_OK;
}

void ossa_rt_clip_free(ossa_rt_clip *clip)
{
    if (!clip)
        return;
    free(clip->tracks);
    free(clip->times);
    free(clip->keys);
    free(clip->scales);
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
    *out = NULL;
    if (max_tracks > (1u << 24))
        return rt_fail(err, OSSA_ERR_RANGE, "sample cache: too many tracks");
    ossa_sample_cache *c = calloc(1, sizeof *c);
    if (c)
        c->cursor = calloc((size_t)max_tracks + 1, sizeof *c->cursor);
    if (!c || !c->cursor) {
        if (c)
            free(c->cursor);
        free(c);
        return rt_fail(err, OSSA_ERR_NOMEM, "sample cache: out of memory");
    }
    c->capacity = max_tracks;
    *out = c;
    return OSSA_OK;
}

void ossa_sample_cache_free(ossa_sample_cache *cache)
{
    if (!cache)
        return;
    free(cache->cursor);
    free(cache);
}

void ossa_sample_cache_reset(ossa_sample_cache *cache)
{
    if (!cache)
        return;
    cache->clip = NULL;
    memset(cache->cursor, 0, (size_t)cache->capacity * sizeof *cache->cursor);
}

int ossa_sample_job_validate(const ossa_sample_job *job)
{
    if (!job || !job->clip || !job->output || !job->output->block)
        return 0;
    if (job->cache && job->cache->capacity < job->clip->track_count)
        return 0;
    if ((unsigned)job->time_mode > OSSA_TIME_LOOP || (unsigned)job->rot > OSSA_ROT_NLERP)
        return 0;
    return job->output->bone_count >= job->clip->bone_limit;
}

int ossa_sample_job_run(const ossa_sample_job *job)
{
    if (!ossa_sample_job_validate(job))
        return 0;
    const ossa_rt_clip *c = job->clip;
    ossa_sample_cache *cache = job->cache;
    if (cache && cache->clip != c) {
        ossa_sample_cache_reset(cache);
        cache->clip = c;
    }
    ossa_soa_pose *o = job->output;
    float time = job->time;
    int clamp = job->time_mode == OSSA_TIME_CLAMP;
    int loop = job->time_mode == OSSA_TIME_LOOP && c->loop_key;
    int nlerp = job->rot == OSSA_ROT_NLERP;
    for (uint32_t i = 0; i < c->track_count; i++) {
        const ossa_rt_track *tr = &c->tracks[i];
        const float *times = c->times + tr->first;
        const float *keys = c->keys + 7 * (size_t)tr->first;
        const float *sc = tr->scale_first != UINT32_MAX ? c->scales + 3 * (size_t)tr->scale_first
                                                        : NULL;
        uint32_t n = tr->key_count, b = tr->bone;
        float t[3], r[4], s[3];
        if (loop && time >= times[n - 1]) {
            /* From the last key to the loop key (the first key again, at t = duration). */
            uint32_t a = n - 1;
            float f = ossa_key_factor(time, times[a], times[n]);
            ossa_interp_pair(keys + 7 * a, keys + 7 * n, keys + 7 * a + 3, keys + 7 * n + 3,
                             sc ? sc + 3 * a : NULL, sc ? sc + 3 * n : NULL, f, nlerp, t, r, s);
        } else if (n == 1 || (clamp && time <= times[0])) {
            memcpy(t, keys, 3 * sizeof(float));
            memcpy(r, keys + 3, 4 * sizeof(float));
            if (sc)
                memcpy(s, sc, 3 * sizeof(float));
        } else if (clamp && time >= times[n - 1]) {
            memcpy(t, keys + 7 * (n - 1), 3 * sizeof(float));
            memcpy(r, keys + 7 * (n - 1) + 3, 4 * sizeof(float));
            if (sc)
                memcpy(s, sc + 3 * (n - 1), 3 * sizeof(float));
        } else {
            uint32_t a = cache ? ossa_key_search_cursor(times, n, time, cache->cursor[i])
                               : ossa_key_search(times, n, time);
            if (cache)
                cache->cursor[i] = a;
            float f = ossa_key_factor(time, times[a], times[a + 1]);
            const float *ka = keys + 7 * a, *kb = ka + 7;
            ossa_interp_pair(ka, kb, ka + 3, kb + 3, sc ? sc + 3 * a : NULL,
                             sc ? sc + 3 * (a + 1) : NULL, f, nlerp, t, r, s);
        }
        o->tx[b] = t[0]; o->ty[b] = t[1]; o->tz[b] = t[2];
        o->qx[b] = r[0]; o->qy[b] = r[1]; o->qz[b] = r[2]; o->qw[b] = r[3];
        if (sc) {
            o->sx[b] = s[0]; o->sy[b] = s[1]; o->sz[b] = s[2];
        }
    }
    return 1;
}

float ossa_playback_time(float duration, float time, ossa_wrap_mode wrap)
{
    if (!(duration > 0.0f) || !isfinite(duration) || !isfinite(time))
        return 0.0f;
    switch (wrap) {
    case OSSA_WRAP_PINGPONG: {
        float period = 2.0f * duration;
        float p = fmodf(time, period);
        if (p < 0.0f)
            p += period;
        if (p >= period)
            p = 0.0f;
        return p > duration ? period - p : p;
    }
    case OSSA_WRAP_ONCE:
        return time < 0.0f ? 0.0f : time > duration ? duration : time;
    case OSSA_WRAP_LOOP:
    default: {
        float w = fmodf(time, duration);
        if (w < 0.0f)
            w += duration;
        return w >= duration ? 0.0f : w;
    }
    }
}
