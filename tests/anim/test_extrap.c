/* Extrapolation limits (anim/extrap.h): Cal3D's factor where its result is inside validation's
 * bounds, the largest factor inside them elsewhere (denormal spans, linear-weight pairs and
 * translations far out, scales, non-unit slerp pairs, nlerp, morph weights), and the runtime
 * sampler equal to ossa_sample_clip bit for bit wherever a limit applies. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "anim/extrap.h"
#include "anim/interp.h"
#include "ossa/limits.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/pose.h"
#include "test_common.h"

static double norm2(const float *q)
{
    return (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3];
}

static void normalise(float *q)
{
    float n = sqrtf((float)norm2(q));
    for (int k = 0; k < 4; k++)
        q[k] /= n;
}

/* One key pair and the blend at a factor, as ossa_sample_clip computes it. */
typedef struct pair {
    float ta[3], tb[3], qa[4], qb[4], sa[3], sb[3];
    int scaled;
} pair;

static void blend(const pair *p, float f, float *t, float *q, float *s)
{
    ossa_interp_pair(p->ta, p->tb, p->qa, p->qb, p->scaled ? p->sa : NULL,
                     p->scaled ? p->sb : NULL, f, 0, t, q, s);
}

static int inside(const pair *p, float f)
{
    float t[3], q[4], s[3];
    blend(p, f, t, q, s);
    for (int k = 0; k < 3; k++)
        if (!(fabsf(t[k]) <= OSSA_MAX_COORD) || (p->scaled && !(fabsf(s[k]) <= OSSA_MAX_COORD)))
            return 0;
    return norm2(q) <= OSSA_MAX_ROTATION_NORM2;
}

static float limit(const pair *p, float f)
{
    return ossa_extrap_factor_keys(p->ta, p->tb, p->qa, p->qb, p->scaled ? p->sa : NULL,
                                   p->scaled ? p->sb : NULL, 0, f);
}

/* The limit of a pair found outside at f: finite, on f's side, inside, and the next factor
 * outward is outside again (the largest such factor). */
static float check_tight(const pair *p, float f, const char *what)
{
    CHECKF(!inside(p, f), "%s: Cal3D's factor %g is inside the bounds", what, (double)f);
    float l = limit(p, f);
    CHECKF(isfinite(l) && (f < 0.0f ? l <= 0.0f : l >= 1.0f), "%s: limit %g", what, (double)l);
    CHECKF(inside(p, l), "%s: limit %g leaves the bounds", what, (double)l);
    CHECKF(!inside(p, nextafterf(l, f)), "%s: limit %g is not the largest", what, (double)l);
    return l;
}

static void unit_pair(pair *p)
{
    memset(p, 0, sizeof *p);
    p->qa[3] = p->qb[3] = 1.0f;
    p->sa[0] = p->sa[1] = p->sa[2] = p->sb[0] = p->sb[1] = p->sb[2] = 1.0f;
}

/* Inside the bounds the factor is Cal3D's, untouched: the case of keys 7e-5 s apart
 * sampled 0.2 s before them, a factor of about -2857 (old code: -1024). */
static void test_cal3d_factor_kept(void)
{
    pair p;
    unit_pair(&p);
    p.tb[0] = 7e-5f;
    p.tb[1] = -3e-5f;
    p.qb[2] = 1e-4f; /* 1 - dot ~ 5e-9: Cal3D's linear weights */
    normalise(p.qb);
    float f = ossa_key_factor(0.0f, 0.2f, 0.20007f);
    CHECK(f < -2800.0f && f > -2900.0f);
    CHECK(limit(&p, f) == f);
    CHECK(limit(&p, 1.0f - f) == 1.0f - f);
    /* A NaN factor holds the first key; keys at the same time give 0. */
    CHECK(ossa_extrap_factor_keys(p.ta, p.tb, p.qa, p.qb, NULL, NULL, 0, NAN) == 0.0f);
    CHECK(ossa_key_factor(3.0f, 1.0f, 1.0f) == 0.0f);
    CHECK(ossa_key_factor(3e38f, -3e38f, 3e38f) == 0.0f); /* Inf / Inf */
}

/* A denormal span makes Cal3D's factor infinite: the limit is finite and inside. */
static void test_denormal_span(void)
{
    float f = ossa_key_factor(-1.0f, 0.0f, 1e-45f);
    CHECK(isinf(f) && f < 0.0f);
    float g = ossa_key_factor(2.0f, 1.0f, nextafterf(1.0f, 2.0f)); /* ~8.4e6, finite */
    CHECK(isfinite(g) && g > 1e6f);
    pair p;
    for (int kind = 0; kind < 4; kind++) {
        unit_pair(&p);
        if (kind != 1)
            p.tb[2] = 0.5f; /* moves (kind 1: only the rotation does) */
        p.qb[0] = kind == 2 ? 0.6f : 1e-4f; /* kind 2: a slerp pair */
        normalise(p.qb);
        p.scaled = kind == 3;
        p.sb[1] = 1.5f;
        float l = limit(&p, f), t[3], q[4], s[3] = {0.0f, 0.0f, 0.0f};
        blend(&p, l, t, q, s);
        CHECKF(isfinite(l) && l <= 0.0f && inside(&p, l), "kind %d: limit %g", kind, (double)l);
        for (int k = 0; k < 3; k++)
            CHECK(isfinite(t[k]) && isfinite(s[k]));
        for (int k = 0; k < 4; k++)
            CHECK(isfinite(q[k]));
        if (kind != 2)
            check_tight(&p, f, "denormal span");
        l = limit(&p, -f); /* after the pair, factor +Inf */
        CHECK(isfinite(l) && l >= 1.0f && inside(&p, l));
    }
}

/* A linear-weight pair far out: the norm reaches the bound and stops there. */
static void test_linear_pair(void)
{
    pair p;
    unit_pair(&p);
    p.qa[0] = 0.3f;
    normalise(p.qa);
    memcpy(p.qb, p.qa, sizeof p.qb);
    p.qb[1] += 6e-4f; /* 1 - dot ~ 2e-7 */
    normalise(p.qb);
    float th, is;
    ossa_slerp_setup(p.qa, p.qb, &th, &is);
    CHECK(th == 0.0f);
    for (int side = 0; side < 2; side++) {
        float l = check_tight(&p, side ? 1e6f : -1e6f, "linear pair");
        float t[3], q[4], s[3];
        blend(&p, l, t, q, s);
        CHECKF(norm2(q) <= OSSA_MAX_ROTATION_NORM2 && norm2(q) > 3.999, "norm^2 %.9g",
               norm2(q));
    }
    /* Equal keys: no growth in real numbers, only rounding that grows with the factor (and
     * cancels exactly at some factors): Cal3D's result wherever it is inside, the limit inside
     * wherever it is not. */
    memcpy(p.qb, p.qa, sizeof p.qb);
    int limited = 0;
    for (float f = -1e5f; f > -1e30f; f *= 3.1f) {
        float l = limit(&p, f);
        CHECKF(inside(&p, l) && (l == f || !inside(&p, f)) && l <= 0.0f && l >= f,
               "equal keys: factor %g, limit %g", (double)f, (double)l);
        limited += l != f;
    }
    CHECK(limited > 0);
}

/* Translations and scales far out stop at OSSA_MAX_COORD, from either side. */
static void test_translation_and_scale(void)
{
    pair p;
    unit_pair(&p);
    p.ta[0] = 3.0f;
    p.tb[0] = 1.0f;
    p.tb[1] = 2.0f;
    p.tb[2] = -3e14f;
    for (int side = 0; side < 2; side++) {
        float l = check_tight(&p, side ? 1e20f : -1e20f, "translation");
        float t[3], q[4], s[3];
        blend(&p, l, t, q, s);
        CHECK(fabsf(t[2]) <= OSSA_MAX_COORD && fabsf(t[2]) > 0.999f * OSSA_MAX_COORD);
    }
    unit_pair(&p);
    p.scaled = 1;
    p.sb[1] = 2.0f;
    float l = check_tight(&p, 3e16f, "scale");
    float t[3], q[4], s[3];
    blend(&p, l, t, q, s);
    CHECK(s[1] <= OSSA_MAX_COORD && s[1] > 0.999f * OSSA_MAX_COORD);
}

/* Validation admits |q| up to 2: a slerp pair of such keys grows past it when extrapolated
 * (its weights reach 1 / sin(theta)); the bound holds there too. */
static void test_nonunit_slerp(void)
{
    pair p;
    unit_pair(&p);
    float a[4] = {0.0f, 0.0f, 0.0f, 2.0f}, b[4] = {1.9f, 0.0f, 0.0f, 0.49f};
    memcpy(p.qa, a, sizeof a);
    memcpy(p.qb, b, sizeof b);
    CHECK(norm2(p.qb) <= 4.0);
    float th, is;
    ossa_slerp_setup(p.qa, p.qb, &th, &is);
    CHECK(th > 0.0f);
    int limited = 0;
    for (float f = -3.0f; f > -3000.0f; f *= 1.7f) {
        float l = limit(&p, f);
        CHECKF(inside(&p, l), "factor %g: limit %g leaves the bounds", (double)f, (double)l);
        CHECK(l <= 0.0f && l >= f);
        limited += l != f;
    }
    CHECK(limited > 0);
}

/* nlerp renormalises, so only the squared length must stay finite. */
static void test_nlerp(void)
{
    pair p;
    unit_pair(&p);
    p.qb[0] = 0.5f;
    normalise(p.qb);
    float keep = ossa_extrap_factor_keys(p.ta, p.tb, p.qa, p.qb, NULL, NULL, 1, 1e6f);
    CHECK(keep == 1e6f); /* slerp's bound on the unnormalised norm does not apply */
    float l = ossa_extrap_factor_keys(p.ta, p.tb, p.qa, p.qb, NULL, NULL, 1, -INFINITY);
    float q[4];
    ossa_quat_nlerp(q, p.qa, p.qb, l);
    CHECKF(isfinite(l) && fabs(norm2(q) - 1.0) < 1e-5, "limit %g", (double)l);
}

static void test_morph_weight(void)
{
    float l = ossa_extrap_factor_lerp(0.25f, 1.0f, OSSA_MAX_WEIGHT, 1e30f);
    float w = 0.25f + l * (1.0f - 0.25f);
    float w_next = 0.25f + nextafterf(l, INFINITY) * (1.0f - 0.25f);
    CHECK(w <= OSSA_MAX_WEIGHT && w_next > OSSA_MAX_WEIGHT);
    CHECK(ossa_extrap_factor_lerp(0.25f, 1.0f, OSSA_MAX_WEIGHT, -5.0f) == -5.0f);
    l = ossa_extrap_factor_lerp(0.5f, 0.5f, OSSA_MAX_WEIGHT, -INFINITY);
    CHECK(isfinite(l) && l <= 0.0f);
}

/* ---- end to end: ossa_sample_clip and the runtime sampler ------------------------------- */

enum { BONES = 20, KEYS = 6, CLIPS = 3 };

typedef struct scene {
    ossa_model m;
    ossa_bone bones[BONES];
    ossa_clip clips[CLIPS];
    ossa_track tracks[CLIPS][BONES];
    float times[CLIPS][BONES][KEYS];
    float trans[CLIPS][BONES][3 * KEYS], rots[CLIPS][BONES][4 * KEYS];
    float scales[CLIPS][BONES][3 * KEYS];
} scene;

static uint32_t next(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static float urand(uint32_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)next(s) / 16777216.0f;
}

/* Clip 0: every track on the same times (the runtime's uniform path), keys 1e-5 s apart at
 * first; clip 1: per-track times, a denormal first span on some, big translations on others;
 * clip 2: scales. Rotations near each other (linear weights) or not. */
static void make_scene(scene *sc)
{
    memset(sc, 0, sizeof *sc);
    uint32_t seed = 7;
    for (uint32_t i = 0; i < BONES; i++) {
        ossa_bone *b = &sc->bones[i];
        b->name = "bone";
        b->parent = (int32_t)i - 1;
        b->rest_t[1] = 1.0f;
        b->rest_r[3] = b->inv_bind_r[3] = 1.0f;
        b->rest_s[0] = b->rest_s[1] = b->rest_s[2] = 1.0f;
        b->source_index = i;
    }
    for (uint32_t c = 0; c < CLIPS; c++) {
        ossa_clip *cl = &sc->clips[c];
        cl->name = "clip";
        cl->duration = 2.0f;
        cl->track_count = BONES;
        cl->tracks = sc->tracks[c];
        for (uint32_t i = 0; i < BONES; i++) {
            ossa_track *tr = &sc->tracks[c][i];
            float *t = sc->times[c][i], *x = sc->trans[c][i], *q = sc->rots[c][i];
            float start = c == 0 ? 0.5f : urand(&seed, 0.1f, 1.0f);
            float gap = c == 1 && i % 3 == 0 ? 1e-45f : c == 0 ? 1e-5f : urand(&seed, 1e-5f, 1e-3f);
            t[0] = start;
            t[1] = start + gap;
            for (int k = 2; k < KEYS; k++)
                t[k] = t[k - 1] + (c == 0 ? 0.1f : urand(&seed, 1e-5f, 0.2f));
            float big = c == 1 && i % 3 == 1 ? 1e13f : 1.0f;
            for (int k = 0; k < KEYS; k++) {
                for (int j = 0; j < 3; j++)
                    x[3 * k + j] = big * urand(&seed, -1.0f, 1.0f);
                if (k && next(&seed) % 2) {
                    memcpy(q + 4 * k, q + 4 * (k - 1), 4 * sizeof(float));
                    q[4 * k + next(&seed) % 4] += urand(&seed, -1e-3f, 1e-3f);
                } else {
                    for (int j = 0; j < 4; j++)
                        q[4 * k + j] = urand(&seed, -1.0f, 1.0f);
                }
                normalise(q + 4 * k);
                for (int j = 0; j < 3; j++)
                    sc->scales[c][i][3 * k + j] = urand(&seed, 0.5f, 2.0f);
            }
            tr->bone = i;
            tr->key_count = KEYS;
            tr->times = t;
            tr->translations = x;
            tr->rotations = q;
            tr->scales = c == 2 ? sc->scales[c][i] : NULL;
        }
    }
    sc->m.bone_count = BONES;
    sc->m.bones = sc->bones;
    sc->m.clip_count = CLIPS;
    sc->m.clips = sc->clips;
    sc->m.scale = 1.0f;
}

static void test_runtime_equals_scalar(void)
{
    static scene sc;
    make_scene(&sc);
    ossa_error err;
    CHECKF(ossa_model_validate(&sc.m, &err) == OSSA_OK, "%s", err.message);
    ossa_soa_pose pose, pose_nl;
    CHECK(ossa_soa_pose_create(BONES, &pose, NULL) == OSSA_OK);
    CHECK(ossa_soa_pose_create(BONES, &pose_nl, NULL) == OSSA_OK);
    float t[3 * BONES], r[4 * BONES], s[3 * BONES], t2[3 * BONES], r2[4 * BONES], s2[3 * BONES];
    long compared = 0, far_out = 0, limited = 0;
    for (uint32_t c = 0; c < CLIPS; c++) {
        ossa_rt_clip *rc = NULL;
        ossa_sample_cache *cache = NULL;
        CHECK(ossa_rt_clip_create(&sc.m, &sc.clips[c], &rc, &err) == OSSA_OK);
        CHECK(ossa_sample_cache_create(BONES, &cache, &err) == OSSA_OK);
        float times[] = {-5.0f, -1.0f, -0.2f, 0.0f, 0.3f, 0.49999f, 0.5f, 0.6f, 1.5f, 1.99f,
                         2.0f, 2.5f, 7.0f, 3e5f, -3e5f, 1e30f, -1e30f, NAN};
        for (int mode = OSSA_WRAP_EXTRAPOLATE; mode <= OSSA_WRAP_LOOP; mode++)
            for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
                ossa_pose_rest(&sc.m, t, r, s, sc.m.bone_count, NULL);
                ossa_sample_clip(&sc.m, &sc.clips[c], times[k], (ossa_wrap)mode, t, r, s,
                                 sc.m.bone_count, NULL);
                for (uint32_t i = 0; i < BONES; i++) {
                    int ok = norm2(r + 4 * i) <= OSSA_MAX_ROTATION_NORM2;
                    for (int j = 0; j < 3; j++)
                        ok &= fabsf(t[3 * i + j]) <= OSSA_MAX_COORD &&
                              fabsf(s[3 * i + j]) <= OSSA_MAX_COORD;
                    CHECKF(ok, "clip %u bone %u time %g mode %d: outside the bounds", c, i,
                           (double)times[k], mode);
                }
                for (int cached = 0; cached < 2; cached++) {
                    ossa_soa_pose_from_aos(&pose, t, r, s, sc.m.bone_count, NULL);
                    ossa_sample_job job = {.clip = rc, .cache = cached ? cache : NULL,
                                           .time = times[k], .wrap = (ossa_wrap)mode,
                                           .rot = OSSA_ROT_SLERP, .output = &pose};
                    CHECK(ossa_sample_job_run(&job, NULL) == OSSA_OK);
                    ossa_soa_pose_to_aos(&pose, t2, r2, s2, pose.bone_count, NULL);
                    CHECKF(!memcmp(t, t2, sizeof t) && !memcmp(r, r2, sizeof r) &&
                               !memcmp(s, s2, sizeof s),
                           "clip %u time %g mode %d: runtime != ossa_sample_clip", c,
                           (double)times[k], mode);
                    compared++;
                }
                /* nlerp: unit rotations, finite everything. */
                ossa_sample_job job = {.clip = rc, .time = times[k],
                                       .wrap = (ossa_wrap)mode,
                                       .rot = OSSA_ROT_NLERP, .output = &pose_nl};
                CHECK(ossa_sample_job_run(&job, NULL) == OSSA_OK);
                ossa_soa_pose_to_aos(&pose_nl, t2, r2, s2, pose_nl.bone_count, NULL);
                for (uint32_t i = 0; i < BONES; i++)
                    CHECKF(fabs(norm2(r2 + 4 * i) - 1.0) < 1e-4 && isfinite(t2[3 * i]),
                           "clip %u bone %u time %g: nlerp %g", c, i, (double)times[k],
                           norm2(r2 + 4 * i));
                far_out += fabsf(times[k]) >= 1e5f;
                /* How many tracks had their factor limited here. */
                for (uint32_t i = 0; mode == OSSA_WRAP_EXTRAPOLATE && i < BONES; i++) {
                    const ossa_track *tr = &sc.tracks[c][i];
                    uint32_t a = ossa_key_search(tr->times, KEYS, times[k]);
                    float f = ossa_key_factor(times[k], tr->times[a], tr->times[a + 1]);
                    const float *sa = tr->scales ? tr->scales + 3 * a : NULL;
                    limited += ossa_factor_extrapolates(f) &&
                               ossa_extrap_factor_keys(tr->translations + 3 * a,
                                                       tr->translations + 3 * a + 3,
                                                       tr->rotations + 4 * a,
                                                       tr->rotations + 4 * a + 4, sa,
                                                       sa ? sa + 3 : NULL, 0, f) != f;
                }
            }
        ossa_sample_cache_destroy(cache);
        ossa_rt_clip_destroy(rc);
    }
    printf("%ld runtime samples equal to ossa_sample_clip; %ld track samples limited\n",
           compared, limited);
    CHECK(compared > 200 && far_out > 0 && limited > 50);
    ossa_soa_pose_destroy(&pose);
    ossa_soa_pose_destroy(&pose_nl);
}

int main(void)
{
    test_cal3d_factor_kept();
    test_denormal_span();
    test_linear_pair();
    test_translation_and_scale();
    test_nonunit_slerp();
    test_nlerp();
    test_morph_weight();
    test_runtime_equals_scalar();
    return test_finish("unit-extrap");
}
