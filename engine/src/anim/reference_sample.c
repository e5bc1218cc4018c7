#include <math.h>
#include <string.h>
#include "core/compose.h"
#include "core/error.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "extrap.h"
#include "interp.h"

/* The reference path's check of its caller-owned arrays: each holds bone_capacity bones. */
static ossa_status bones_fit(const ossa_model *m, uint32_t bone_capacity, const char *call,
                             const char *arrays, ossa_error *err)
{
    if (!m)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "%s: model is NULL", call);
    if (bone_capacity < m->bone_count)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "%s: %s hold %u bones (bone_capacity), the model has %u", call,
                               arrays, bone_capacity, m->bone_count);
    return OSSA_OK;
}

ossa_status ossa_pose_rest(const ossa_model *m, float *t, float *r, float *s,
                           uint32_t bone_capacity, ossa_error *err)
{
    ossa_status st = bones_fit(m, bone_capacity, "pose rest", "t, r, s", err);
    if (st != OSSA_OK)
        return st;
    if (m->bone_count && (!t || !r || !s))
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "pose rest: %s is NULL",
                               !t ? "t" : !r ? "r" : "s");
    ossa_compose_rest(m, t, r, s);
    return OSSA_OK;
}

float ossa_clip_wrap_time(const ossa_clip *clip, float time)
{
    float d = clip->duration;
    if (!(d > 0.0f) || !isfinite(time))
        return 0.0f;
    float w = fmodf(time, d);
    if (w < 0.0f)
        w += d;
    return w >= d ? 0.0f : w;
}

/* Between the last key (index n - 1) and the loop key: the first key again at t = duration. */
static void sample_loop_tail(const ossa_track *tr, float time, float duration, float *t, float *r,
                             float *s)
{
    uint32_t a = tr->key_count - 1;
    const float *ta = tr->translations + 3 * a, *ra = tr->rotations + 4 * a;
    const float *sa = tr->scales ? tr->scales + 3 * a : NULL;
    float f = ossa_key_factor(time, tr->times[a], duration);
    if (ossa_factor_extrapolates(f))
        f = ossa_extrap_factor_keys(ta, tr->translations, ra, tr->rotations, sa, tr->scales, 0,
                                    f);
    ossa_interp_pair(ta, tr->translations, ra, tr->rotations, sa, tr->scales, f, 0, t, r, s);
}

static void copy_key(const ossa_track *tr, uint32_t k, float *t, float *r, float *s)
{
    memcpy(t, tr->translations + 3 * k, 3 * sizeof(float));
    memcpy(r, tr->rotations + 4 * k, 4 * sizeof(float));
    if (tr->scales)
        memcpy(s, tr->scales + 3 * k, 3 * sizeof(float));
}

static void sample_track(const ossa_track *tr, float time, ossa_wrap mode, float *t,
                         float *r, float *s)
{
    /* A ping-pong time already lies in [0, duration]: sampled as clamped. */
    bool clamp = mode == OSSA_WRAP_CLAMP || mode == OSSA_WRAP_PINGPONG;
    uint32_t n = tr->key_count;
    if (n == 1 || (clamp && time <= tr->times[0])) {
        copy_key(tr, 0, t, r, s);
        return;
    }
    if (clamp && time >= tr->times[n - 1]) {
        copy_key(tr, n - 1, t, r, s);
        return;
    }
    /* Cal3D's key search returns a pair even outside the key range, so the factor
     * extrapolates (< 0 or > 1): docs/FORMATS.md, D4, limited per pair (extrap.h). */
    uint32_t a = ossa_key_search(tr->times, n, time);
    const float *ta = tr->translations + 3 * a, *ra = tr->rotations + 4 * a;
    const float *sa = tr->scales ? tr->scales + 3 * a : NULL, *sb = sa ? sa + 3 : NULL;
    float f = ossa_key_factor(time, tr->times[a], tr->times[a + 1]);
    if (ossa_factor_extrapolates(f))
        f = ossa_extrap_factor_keys(ta, ta + 3, ra, ra + 4, sa, sb, 0, f);
    ossa_interp_pair(ta, ta + 3, ra, ra + 4, sa, sb, f, 0, t, r, s);
}

ossa_status ossa_sample_clip(const ossa_model *m, const ossa_clip *clip, float time,
                             ossa_wrap wrap, float *t, float *r, float *s, uint32_t bone_capacity,
                             ossa_error *err)
{
    ossa_status st = bones_fit(m, bone_capacity, "sample clip", "t, r, s", err);
    if (st != OSSA_OK)
        return st;
    if (!clip || (m->bone_count && (!t || !r || !s)))
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "sample clip: %s is NULL",
                               !clip ? "clip" : !t ? "t" : !r ? "r" : "s");
    /* Cal3D decides on the loop key from the first track alone and then adds it to all. */
    int loop_key = wrap == OSSA_WRAP_LOOP && clip->track_count &&
                   clip->tracks[0].times[clip->tracks[0].key_count - 1] < clip->duration;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const ossa_track *tr = &clip->tracks[i];
        if (tr->bone >= m->bone_count)
            continue;
        uint32_t b = tr->bone;
        if (loop_key && time >= tr->times[tr->key_count - 1])
            sample_loop_tail(tr, time, clip->duration, t + 3 * b, r + 4 * b, s + 3 * b);
        else
            sample_track(tr, time, wrap, t + 3 * b, r + 4 * b, s + 3 * b);
    }
    return OSSA_OK;
}
