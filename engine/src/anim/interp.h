/* Key interpolation shared by the scalar sampler (sample.c) and the runtime sampler
 * (rt_clip.c): one copy of the math, so both give the same bits. */
#ifndef OSSA_ANIM_INTERP_H
#define OSSA_ANIM_INTERP_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Cal3D's CalQuaternion::blend: slerp along the shorter arc, linear weights when the
 * quaternions are nearly equal, no renormalisation. */
static inline void ossa_quat_slerp(float *out, const float *a, const float *b, float f)
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

/* Shortest-path lerp, renormalised (the cheaper option). */
static inline void ossa_quat_nlerp(float *out, const float *a, const float *b, float f)
{
    float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    float wa = 1.0f - f, wb = dot < 0.0f ? -f : f;
    float q[4], len2 = 0.0f;
    for (int k = 0; k < 4; k++) {
        q[k] = wa * a[k] + wb * b[k];
        len2 += q[k] * q[k];
    }
    float inv = len2 > 0.0f ? 1.0f / sqrtf(len2) : 0.0f;
    for (int k = 0; k < 4; k++)
        out[k] = q[k] * inv;
}

/* Factor between two key times; 0 for keys at the same time (Cal3D would divide by 0). */
static inline float ossa_key_factor(float time, float ta, float tb)
{
    float span = tb - ta;
    return span != 0.0f ? (time - ta) / span : 0.0f;
}

/* Interpolates one key pair: translation (and scale when both are given) lerp, rotation slerp
 * or nlerp. f outside [0, 1] extrapolates (FORMAT-NOTES Decision 4). */
static inline void ossa_interp_pair(const float *ta, const float *tb, const float *ra,
                                    const float *rb, const float *sa, const float *sb, float f,
                                    int nlerp, float *t, float *r, float *s)
{
    for (int k = 0; k < 3; k++)
        t[k] = ta[k] + f * (tb[k] - ta[k]);
    if (sa)
        for (int k = 0; k < 3; k++)
            s[k] = sa[k] + f * (sb[k] - sa[k]);
    if (nlerp)
        ossa_quat_nlerp(r, ra, rb, f);
    else
        ossa_quat_slerp(r, ra, rb, f);
}

/* Cal3D's key search over n >= 2 ascending times: the index a of the pair (a, a + 1) with
 * a + 1 = the first key later than time, kept inside [1, n - 1]; so times before the first key
 * use the first pair and times after the last key the last pair. */
static inline uint32_t ossa_key_search(const float *times, uint32_t n, float time)
{
    uint32_t lo = 0, hi = n - 1;
    while (lo + 1 < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (time >= times[mid])
            lo = mid;
        else
            hi = mid;
    }
    return hi - 1;
}

/* The same pair from a cursor (the pair found last frame): checked, advanced while playing
 * forward, one step back, otherwise a binary search. Always equals ossa_key_search. */
static inline uint32_t ossa_key_search_cursor(const float *times, uint32_t n, float time,
                                              uint32_t cursor)
{
    uint32_t last = n - 2;
    if (cursor > last)
        return ossa_key_search(times, n, time);
    if (cursor == 0 || time >= times[cursor]) {
        /* Forward: move up while the next key is not later than time. */
        uint32_t a = cursor;
        for (int steps = 0; a < last && time >= times[a + 1]; steps++) {
            if (steps == 4)
                return ossa_key_search(times, n, time);
            a++;
        }
        return a;
    }
    if (cursor == 1 || time >= times[cursor - 1])
        return cursor - 1;
    return ossa_key_search(times, n, time);
}

#endif
