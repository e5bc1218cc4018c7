#include <math.h>
#include <string.h>
#include "ossa/anim.h"

void ossa_pose_rest(const ossa_model *m, float *t, float *r, float *s)
{
    for (uint32_t i = 0; i < m->bone_count; i++) {
        memcpy(t + 3 * i, m->bones[i].rest_t, 3 * sizeof(float));
        memcpy(r + 4 * i, m->bones[i].rest_r, 4 * sizeof(float));
        memcpy(s + 3 * i, m->bones[i].rest_s, 3 * sizeof(float));
    }
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

/* Cal3D's CalQuaternion::blend: slerp along the shorter arc, linear weights when the
 * quaternions are nearly equal, no renormalisation. */
static void quat_blend(float *out, const float *a, const float *b, float f)
{
    float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    int flip = dot < 0.0f;
    if (flip)
        dot = -dot;
    float wa, wb;
    if (1.0f - dot < 0.000001f) {
        wa = 1.0f - f;
        wb = f;
    } else {
        float theta = acosf(dot);
        float inv_sin = 1.0f / sinf(theta);
        wa = sinf((1.0f - f) * theta) * inv_sin;
        wb = sinf(f * theta) * inv_sin;
    }
    if (flip)
        wb = -wb;
    for (int k = 0; k < 4; k++)
        out[k] = wa * a[k] + wb * b[k];
}

/* Cal3D's key search: for two or more keys it returns a pair even outside the key range, so the
 * factor extrapolates (< 0 or > 1); that is FORMAT-NOTES Decision 4. */
/* Between the last key (index n - 1) and the loop key: the first key again at t = duration. */
static void sample_loop_tail(const ossa_track *tr, float time, float duration, float *t, float *r,
                             float *s)
{
    uint32_t a = tr->key_count - 1;
    float span = duration - tr->times[a];
    float f = span != 0.0f ? (time - tr->times[a]) / span : 0.0f;
    for (int k = 0; k < 3; k++) {
        float ta = tr->translations[3 * a + k];
        t[k] = ta + f * (tr->translations[k] - ta);
        if (tr->scales) {
            float sa = tr->scales[3 * a + k];
            s[k] = sa + f * (tr->scales[k] - sa);
        }
    }
    quat_blend(r, tr->rotations + 4 * a, tr->rotations, f);
}

static void sample_track(const ossa_track *tr, float time, ossa_time_mode mode, float *t,
                         float *r, float *s)
{
    uint32_t n = tr->key_count;
    if (n == 1 || (mode == OSSA_TIME_CLAMP && time <= tr->times[0])) {
        memcpy(t, tr->translations, 3 * sizeof(float));
        memcpy(r, tr->rotations, 4 * sizeof(float));
        if (tr->scales)
            memcpy(s, tr->scales, 3 * sizeof(float));
        return;
    }
    if (mode == OSSA_TIME_CLAMP && time >= tr->times[n - 1]) {
        memcpy(t, tr->translations + 3 * (n - 1), 3 * sizeof(float));
        memcpy(r, tr->rotations + 4 * (n - 1), 4 * sizeof(float));
        if (tr->scales)
            memcpy(s, tr->scales + 3 * (n - 1), 3 * sizeof(float));
        return;
    }
    uint32_t lo = 0, hi = n - 1;
    while (lo + 1 < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (time >= tr->times[mid])
            lo = mid;
        else
            hi = mid;
    }
    uint32_t a = hi - 1, b = hi;
    float span = tr->times[b] - tr->times[a];
    float f = span != 0.0f ? (time - tr->times[a]) / span : 0.0f;
    for (int k = 0; k < 3; k++) {
        float ta = tr->translations[3 * a + k];
        t[k] = ta + f * (tr->translations[3 * b + k] - ta);
        if (tr->scales) {
            float sa = tr->scales[3 * a + k];
            s[k] = sa + f * (tr->scales[3 * b + k] - sa);
        }
    }
    quat_blend(r, tr->rotations + 4 * a, tr->rotations + 4 * b, f);
}

void ossa_sample_clip(const ossa_model *m, const ossa_clip *clip, float time, ossa_time_mode mode,
                      float *t, float *r, float *s)
{
    /* Cal3D decides on the loop key from the first track alone and then adds it to all. */
    int loop_key = mode == OSSA_TIME_LOOP && clip->track_count &&
                   clip->tracks[0].times[clip->tracks[0].key_count - 1] < clip->duration;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const ossa_track *tr = &clip->tracks[i];
        if (tr->bone >= m->bone_count)
            continue;
        uint32_t b = tr->bone;
        if (loop_key && time >= tr->times[tr->key_count - 1])
            sample_loop_tail(tr, time, clip->duration, t + 3 * b, r + 4 * b, s + 3 * b);
        else
            sample_track(tr, time, mode, t + 3 * b, r + 4 * b, s + 3 * b);
    }
}
