/* Extrapolation limits (extrap.h). Cold code: the samplers call it only for a factor outside
 * [0, 1], that is before a track's first key, after its last and on the loop pair. */
#include "extrap.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ossa/limits.h"
#include "interp.h"

typedef int (*in_bounds_fn)(const void *ctx, float f);

/* Whether the pair blended at f is inside validation's bounds, computed with the very operations
 * the samplers use (interp.h, rt_clip.c), so "inside" means their result is. */
static int pair_in_bounds(const void *ctx, float f)
{
    const ossa_pair_view *p = ctx;
    for (int k = 0; k < 3; k++)
        if (!(fabsf(p->ta[k] + f * (p->tb[k] - p->ta[k])) <= OSSA_MAX_COORD)) /* NaN too */
            return 0;
    if (p->sa)
        for (int k = 0; k < 3; k++)
            if (!(fabsf(p->sa[k] + f * (p->sb[k] - p->sa[k])) <= OSSA_MAX_COORD))
                return 0;
    float wa = 1.0f - f, wb = f;
    if (p->rot == OSSA_PAIR_SLERP)
        ossa_slerp_weights(p->theta, p->inv_sin, f, &wa, &wb);
    float q[4];
    for (int k = 0; k < 4; k++)
        q[k] = wa * p->qa[k] + wb * p->qb[k];
    if (p->rot == OSSA_PAIR_NLERP) {
        /* Renormalised afterwards: only its squared length must stay finite. */
        float len2 = 0.0f;
        for (int k = 0; k < 4; k++)
            len2 += q[k] * q[k];
        return len2 <= FLT_MAX;
    }
    /* Validation's is_rotation, in double. */
    double n2 = (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                (double)q[3] * q[3];
    return n2 <= OSSA_MAX_ROTATION_NORM2;
}

/* Where xa + f (xb - xa) reaches +-bound on the side of the factors beyond 1 (upper) or
 * below 0, in real numbers; infinite where it never does. */
static double lerp_reach(float xa, float xb, double bound, int upper)
{
    float d = xb - xa;
    if (d == 0.0f || !isfinite(d))
        return upper ? INFINITY : -INFINITY;
    double target = (d > 0.0f) == upper ? bound : -bound;
    return (target - xa) / d;
}

/* Where Cal3D's linear-weight blend (1 - f) a + f b = a + f e reaches the rotation bound:
 * the root of |a + f e|^2 = bound on the factor's side (a quadratic in f). */
static double linear_quat_reach(const float *qa, const float *qb, int upper)
{
    double aa = 0.0, ae = 0.0, ee = 0.0;
    for (int k = 0; k < 4; k++) {
        double e = (double)qb[k] - qa[k];
        aa += (double)qa[k] * qa[k];
        ae += (double)qa[k] * e;
        ee += e * e;
    }
    double c = aa - OSSA_MAX_ROTATION_NORM2, disc = ae * ae - ee * c;
    if (ee == 0.0 || !(disc >= 0.0))
        return upper ? INFINITY : -INFINITY;
    /* The roots without cancellation: one from the formula, the other from their product. */
    double s = sqrt(disc), big = ae >= 0.0 ? -ae - s : -ae + s;
    if (big == 0.0)
        return 0.0;
    double r1 = big / ee, r2 = c / big;
    double lo = r1 < r2 ? r1 : r2, hi = r1 < r2 ? r2 : r1;
    return upper ? hi : lo;
}

static uint32_t magnitude_bits(float x)
{
    uint32_t u;
    x = fabsf(x);
    memcpy(&u, &x, sizeof u);
    return u;
}

static float from_bits(uint32_t u, int upper)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return upper || x == 0.0f ? x : -x;
}

/* The factor between the anchor (0 below the keys, 1 beyond them; taken as inside) and f (found
 * outside) that is inside and next to one outside, searched over the floats' bit patterns,
 * which order them by magnitude: a guess from reach first (a few steps from it settle it where
 * the bound is monotonic), then bisection. At most some 40 evaluations. */
static float search(in_bounds_fn in_bounds, const void *ctx, float f, double reach)
{
    int upper = f > 1.0f;
    uint32_t lo = magnitude_bits(upper ? 1.0f : 0.0f), hi = magnitude_bits(f);
    float guess = (float)reach;
    uint32_t g = magnitude_bits(guess);
    if ((upper ? guess > 1.0f : guess < 0.0f) && g > lo && g < hi) {
        if (in_bounds(ctx, from_bits(g, upper))) {
            lo = g;
            for (int step = 0; step < 3 && lo + 1 < hi; step++) {
                if (!in_bounds(ctx, from_bits(lo + 1, upper))) {
                    hi = lo + 1;
                    break;
                }
                lo++;
            }
        } else {
            hi = g;
            for (int step = 0; step < 3 && hi - 1 > lo; step++) {
                if (in_bounds(ctx, from_bits(hi - 1, upper))) {
                    lo = hi - 1;
                    break;
                }
                hi--;
            }
        }
    }
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (in_bounds(ctx, from_bits(mid, upper)))
            lo = mid;
        else
            hi = mid;
    }
    return from_bits(lo, upper);
}

float ossa_extrap_factor(const ossa_pair_view *p, float f)
{
    if (f != f)
        return 0.0f;
    if (pair_in_bounds(p, f))
        return f; /* Cal3D's own result */
    int upper = f > 1.0f;
    /* The nearest reach of the bounds that are linear or quadratic in f. */
    double reach = upper ? INFINITY : -INFINITY;
    for (int k = 0; k < 3; k++) {
        double r = lerp_reach(p->ta[k], p->tb[k], OSSA_MAX_COORD, upper);
        reach = upper ? fmin(reach, r) : fmax(reach, r);
        if (p->sa) {
            r = lerp_reach(p->sa[k], p->sb[k], OSSA_MAX_COORD, upper);
            reach = upper ? fmin(reach, r) : fmax(reach, r);
        }
    }
    if (p->rot == OSSA_PAIR_LINEAR) {
        double r = linear_quat_reach(p->qa, p->qb, upper);
        reach = upper ? fmin(reach, r) : fmax(reach, r);
    }
    return search(pair_in_bounds, p, f, reach);
}

float ossa_extrap_factor_keys(const float *ta, const float *tb, const float *qa, const float *qb,
                              const float *sa, const float *sb, int nlerp, float f)
{
    ossa_pair_view p = {ta, tb, sa, sb, qa, NULL, 0.0f, 0.0f, OSSA_PAIR_SLERP};
    float qb_side[4];
    int flip = ossa_slerp_setup(qa, qb, &p.theta, &p.inv_sin);
    for (int k = 0; k < 4; k++)
        qb_side[k] = flip ? -qb[k] : qb[k];
    p.qb = qb_side;
    p.rot = nlerp ? OSSA_PAIR_NLERP : p.theta == 0.0f ? OSSA_PAIR_LINEAR : OSSA_PAIR_SLERP;
    return ossa_extrap_factor(&p, f);
}

typedef struct lerp_view {
    float a, b, bound;
} lerp_view;

static int lerp_in_bounds(const void *ctx, float f)
{
    const lerp_view *v = ctx;
    return fabsf(v->a + f * (v->b - v->a)) <= v->bound;
}

float ossa_extrap_factor_lerp(float a, float b, float bound, float f)
{
    if (f != f)
        return 0.0f;
    lerp_view v = {a, b, bound};
    if (lerp_in_bounds(&v, f))
        return f;
    return search(lerp_in_bounds, &v, f, lerp_reach(a, b, bound, f > 1.0f));
}
