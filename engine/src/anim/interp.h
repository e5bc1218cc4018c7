/* Key interpolation shared by the scalar sampler (reference_sample.c) and the runtime sampler
 * (rt_clip.c): one copy of the math, so both give the same bits. */
#ifndef OSSA_ANIM_INTERP_H
#define OSSA_ANIM_INTERP_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* sin(x) in float: a degree-9 odd polynomial (least-squares fit of sin on [0, pi/2], max error
 * ~2 ulp) after reducing x by a multiple of pi in three exact-ish parts. Arguments beyond
 * OSSA_SIN_LIMIT (and NaN) go to sinf. For |x| <= OSSA_SIN_NO_REDUCE, k is 0 and the reduction
 * leaves x as it is, so it may be skipped. The SIMD sampler (rt_clip.c) computes the very same
 * operations lane by lane, so scalar and SIMD results agree bit for bit. */
#define OSSA_SIN_LIMIT 8192.0f
#define OSSA_SIN_NO_REDUCE 1.5f
#define OSSA_SIN_INV_PI 0x1.45f306p-2f
#define OSSA_SIN_PI1 0x1.92p+1f      /* 8 bits: k * PI1 is exact for |k| < 2^15 */
#define OSSA_SIN_PI2 0x1.fb4p-11f    /* the next 12 bits */
#define OSSA_SIN_PI3 0x1.4442d2p-23f /* the rest */
#define OSSA_SIN_ROUND 12582912.0f   /* 1.5 * 2^23: adding and subtracting rounds to an integer */
#define OSSA_SIN_C3 -0x1.55554cp-3f
#define OSSA_SIN_C5 0x1.110ee8p-7f
#define OSSA_SIN_C7 -0x1.9f733cp-13f
#define OSSA_SIN_C9 0x1.5de718p-19f

static inline float ossa_sin_approx(float x)
{
    if (!(fabsf(x) <= OSSA_SIN_LIMIT))
        return sinf(x);
    float k = (x * OSSA_SIN_INV_PI + OSSA_SIN_ROUND) - OSSA_SIN_ROUND;
    float r = x - k * OSSA_SIN_PI1;
    r = r - k * OSSA_SIN_PI2;
    r = r - k * OSSA_SIN_PI3;
    float u = r * r;
    /* Estrin's scheme: a shorter dependency chain than Horner's. */
    float p = (OSSA_SIN_C3 + OSSA_SIN_C5 * u) + (u * u) * (OSSA_SIN_C7 + OSSA_SIN_C9 * u);
    float s = r + (r * u) * p;
    return ((int32_t)k & 1) ? -s : s;
}

/* The part of Cal3D's CalQuaternion::blend that depends on the two quaternions only: whether b
 * is negated (the shorter arc), the angle theta and 1 / sin(theta); theta = 0 (and inv_sin 0)
 * marks nearly equal quaternions, which blend with linear weights. Returns the flip. */
static inline int ossa_slerp_setup(const float *a, const float *b, float *theta, float *inv_sin)
{
    float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    int flip = dot < 0.0f;
    if (flip)
        dot = -dot;
    if (1.0f - dot < 0.000001f) {
        *theta = 0.0f;
        *inv_sin = 0.0f;
    } else {
        *theta = acosf(dot);
        *inv_sin = 1.0f / ossa_sin_approx(*theta);
    }
    return flip;
}

/* The weights of a and of (possibly negated) b at factor f, from ossa_slerp_setup's values. */
static inline void ossa_slerp_weights(float theta, float inv_sin, float f, float *wa, float *wb)
{
    if (theta == 0.0f) {
        *wa = 1.0f - f;
        *wb = f;
    } else {
        *wa = ossa_sin_approx((1.0f - f) * theta) * inv_sin;
        *wb = ossa_sin_approx(f * theta) * inv_sin;
    }
}

/* Cal3D's CalQuaternion::blend: slerp along the shorter arc, linear weights when the
 * quaternions are nearly equal, no renormalisation. */
static inline void ossa_quat_slerp(float *out, const float *a, const float *b, float f)
{
    float theta, inv_sin, wa, wb;
    int flip = ossa_slerp_setup(a, b, &theta, &inv_sin);
    ossa_slerp_weights(theta, inv_sin, f, &wa, &wb);
    /* wa a + wb (-b): the same bits as Cal3D's wa a + (-wb) b, which the runtime clip relies
     * on (it stores b negated). */
    if (flip)
        for (int k = 0; k < 4; k++)
            out[k] = wa * a[k] + wb * -b[k];
    else
        for (int k = 0; k < 4; k++)
            out[k] = wa * a[k] + wb * b[k];
}

/* Shortest-path lerp, renormalised (the cheaper option). */
static inline void ossa_quat_nlerp(float *out, const float *a, const float *b, float f)
{
    float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    float wa = 1.0f - f, wb = f, sb = dot < 0.0f ? -1.0f : 1.0f;
    float q[4], len2 = 0.0f;
    for (int k = 0; k < 4; k++) {
        q[k] = wa * a[k] + wb * (sb * b[k]);
        len2 += q[k] * q[k];
    }
    float inv = len2 > 0.0f ? 1.0f / sqrtf(len2) : 0.0f;
    for (int k = 0; k < 4; k++)
        out[k] = q[k] * inv;
}

/* Cal3D's factor between two key times, (time - ta) / (tb - ta), unclamped: outside [0, 1]
 * it extrapolates, and the caller limits it per pair (extrap.h). 0 for keys at the same time,
 * where Cal3D divides 0 by 0. NaN where the span and numerator are both Inf (huge key times)
 * or time is NaN: ossa_factor_extrapolates is true for it, and the limit makes it 0. */
static inline float ossa_key_factor_raw(float time, float ta, float tb)
{
    float span = tb - ta;
    return span != 0.0f ? (time - ta) / span : 0.0f;
}

/* The same with NaN as 0 (the pair's first key). */
static inline float ossa_key_factor(float time, float ta, float tb)
{
    float f = ossa_key_factor_raw(time, ta, tb);
    return f == f ? f : 0.0f;
}

/* Whether a factor leaves its pair, or is NaN (and so needs extrap.h's limit). */
static inline int ossa_factor_extrapolates(float f)
{
    return !(f >= 0.0f && f <= 1.0f);
}

/* Interpolates one key pair: translation (and scale when both are given) lerp, rotation slerp
 * or nlerp. f outside [0, 1] extrapolates (docs/FORMATS.md, D4). */
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
