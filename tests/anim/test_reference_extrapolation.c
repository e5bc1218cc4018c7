/* Extrapolation far outside a track's keys against libcal3d 0.11, on clips built in memory on
 * both sides (cal3d_synth_oracle.h); no assets needed.
 *
 * (a) A real-looking walk-like clip on an 11-bone biped whose first two keys are 7e-5 s apart,
 *     played as a cycle from time 0, 0.2 s before them (Cal3D's factor about -2857): every
 *     bone's model-space transform through ossa_mixer equals CalMixer's, and every track's local
 *     state equals CalCoreTrack::getState. (The factor cap of 1024 spans this replaced was
 *     0.15 times the model's size away here, 0.3 in rotation.)
 * (b) Seeded random clips whose keys are 1e-5..1e-3 s apart (sometimes a denormal apart from a
 *     first key at 0, sometimes with translations near 1e14), rotations turning at up to 20
 *     rad/s (so both Cal3D's linear weights and slerp), sampled up to 5 s before the first key
 *     and after the last: ossa_sample_clip equals CalCoreTrack::getState wherever libcal3d's
 *     result is inside validation's bounds (OSSA_MAX_COORD, OSSA_MAX_ROTATION_NORM2); where it
 *     is not (Inf, NaN or merely too large) Ossa's limit applies (exactly there), and its
 *     result must be finite and inside them. Those cases are counted. The runtime sampler equals ossa_sample_clip bit
 *     for bit at the same times, in every time mode. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim/extrap.h"
#include "anim/interp.h"
#include "cal3d_synth_oracle.h"
#include "ossa/limits.h"
#include "ossa/ossa.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/pose.h"
#include "ossa/mixer.h"
#include "test_common.h"
#include "test_rng.h"

enum { MAX_BONES = 12, MAX_KEYS = 40, MODELS = 500, TIMES = 48 };

/* The tolerance of the other sampler references (state_diff says relative to what). */
#define TOL 1e-4

typedef struct synth {
    ossa_model m;
    ossa_bone bones[MAX_BONES];
    ossa_clip clip;
    ossa_track tracks[MAX_BONES];
    float times[MAX_BONES][MAX_KEYS];
    float trans[MAX_BONES][3 * MAX_KEYS];
    float rots[MAX_BONES][4 * MAX_KEYS];
} synth;

static double norm2(const float *q)
{
    return (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3];
}

static void normalise(float *q)
{
    double n = sqrt(norm2(q));
    for (int k = 0; k < 4; k++)
        q[k] = (float)(q[k] / n);
}

/* The rotation by angle about a unit axis. */
static void axis_angle(float *q, const float *axis, float angle)
{
    float s = sinf(0.5f * angle);
    q[0] = axis[0] * s;
    q[1] = axis[1] * s;
    q[2] = axis[2] * s;
    q[3] = cosf(0.5f * angle);
}

/* Whether a local state is inside validation's bounds (and finite). */
static int inside(const float *t, const float *q)
{
    for (int k = 0; k < 3; k++)
        if (!(fabsf(t[k]) <= OSSA_MAX_COORD))
            return 0;
    return norm2(q) <= OSSA_MAX_ROTATION_NORM2;
}

/* Relative difference of two local states, scaled as the mixer references scale: by the
 * largest translation and by the rotation's norm or, larger far outside a slerp pair, the size
 * of the weights its blend sums (up to 1 / sin(theta)): libcal3d's sines (libm) and Ossa's
 * (interp.h's polynomial) may differ in the last bit of those weights. */
static double state_diff(const float *t, const float *q, const float *t2, const float *q2,
                         double weights)
{
    double dt = 0, dq = 0, st = 1, sq = fmax(1, weights);
    for (int k = 0; k < 3; k++) {
        dt = fmax(dt, fabs((double)t[k] - t2[k]));
        st = fmax(st, fabs((double)t[k]));
    }
    for (int k = 0; k < 4; k++)
        dq = fmax(dq, fabs((double)q[k] - q2[k]));
    sq = fmax(sq, sqrt(norm2(q)));
    double d = fmax(dt / st, dq / sq);
    return d == d ? d : INFINITY;
}

static void set_bone(synth *s, uint32_t i, int32_t parent, float x, float y, float z)
{
    ossa_bone *b = &s->bones[i];
    b->name = "bone";
    b->parent = parent;
    b->source_index = i;
    b->rest_t[0] = x;
    b->rest_t[1] = y;
    b->rest_t[2] = z;
    b->rest_r[3] = b->inv_bind_r[3] = 1.0f;
    b->rest_s[0] = b->rest_s[1] = b->rest_s[2] = 1.0f;
    b->inv_bind_t[2] = -z;
}

/* |wa| + |wb| of the rotation blend ossa_sample_clip makes for a track at time; *cal3d_f:
 * Cal3D's factor there, *limited: whether Ossa's extrapolation limit changed it. */
static double blend_weights(const ossa_track *tr, float time, float *cal3d_f, int *limited)
{
    *limited = 0;
    *cal3d_f = 0.0f;
    if (tr->key_count < 2)
        return 1;
    uint32_t a = ossa_key_search(tr->times, tr->key_count, time);
    float f = ossa_key_factor(time, tr->times[a], tr->times[a + 1]);
    *cal3d_f = f;
    const float *ta = tr->translations + 3 * a, *qa = tr->rotations + 4 * a;
    if (ossa_factor_extrapolates(f)) {
        float limit = ossa_extrap_factor_keys(ta, ta + 3, qa, qa + 4, NULL, NULL, 0, f);
        *limited = limit != f;
        f = limit;
    }
    float theta, inv_sin, wa, wb;
    ossa_slerp_setup(qa, qa + 4, &theta, &inv_sin);
    ossa_slerp_weights(theta, inv_sin, f, &wa, &wb);
    return fabs((double)wa) + fabs((double)wb);
}

/* ---- (a) the fixed clip --------------------------------------------------------------- */

/* A biped (hips, spine, chest, neck, head, arm, forearm, hand, thigh, shin, foot; 190 units
 * tall), keys at 0.2 and 0.20007 s and then every 1/30 s to the duration of 1 s. Each bone
 * swings about its own axis at up to 3 rad/s; the hips also sway and bob. */
static void make_walk(synth *s)
{
    memset(s, 0, sizeof *s);
    static const struct {
        int32_t parent;
        float t[3];
    } rig[] = {{-1, {0, 0, 95}},  {0, {0, 0, 10}}, {1, {0, 0, 15}}, {2, {0, 0, 20}},
               {3, {0, 0, 8}},    {2, {18, 0, 15}}, {5, {28, 0, 0}}, {6, {25, 0, 0}},
               {0, {10, 0, -5}},  {8, {0, 0, -45}}, {9, {0, 0, -42}}};
    uint32_t nb = sizeof rig / sizeof rig[0];
    for (uint32_t i = 0; i < nb; i++)
        set_bone(s, i, rig[i].parent, rig[i].t[0], rig[i].t[1], rig[i].t[2]);
    s->clip.name = "walk";
    s->clip.duration = 1.0f;
    s->clip.track_count = nb;
    s->clip.tracks = s->tracks;
    const uint32_t n = 26;
    for (uint32_t i = 0; i < nb; i++) {
        ossa_track *tr = &s->tracks[i];
        float *times = s->times[i], *x = s->trans[i], *q = s->rots[i];
        float axis[3] = {sinf(1.3f * (float)i), cosf(0.7f * (float)i), 0.5f};
        float len = sqrtf(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        for (int k = 0; k < 3; k++)
            axis[k] /= len;
        float amp = 0.2f + 0.03f * (float)i, phase = 0.9f * (float)i;
        for (uint32_t k = 0; k < n; k++) {
            float t = k == 0 ? 0.2f : k == 1 ? 0.20007f : 0.2f + (float)(k - 1) / 30.0f;
            if (k == n - 1)
                t = s->clip.duration;
            times[k] = t;
            float w = 6.2831853f * t;
            memcpy(x + 3 * k, rig[i].t, sizeof rig[i].t);
            if (i == 0) {
                x[3 * k + 0] += 5.0f * sinf(w);
                x[3 * k + 2] += 3.0f * sinf(2.0f * w);
            }
            axis_angle(q + 4 * k, axis, amp * sinf(w + phase));
        }
        tr->bone = i;
        tr->key_count = n;
        tr->times = times;
        tr->translations = x;
        tr->rotations = q;
    }
    s->m.bone_count = nb;
    s->m.bones = s->bones;
    s->m.clip_count = 1;
    s->m.clips = &s->clip;
    s->m.scale = 1.0f;
}

static void test_fixed_clip(void)
{
    synth *s = calloc(1, sizeof *s);
    CHECK(s != NULL);
    if (!s)
        return;
    make_walk(s);
    ossa_error err;
    CHECKF(ossa_model_validate(&s->m, &err) == OSSA_OK, "%s", err.message);
    char msg[512];
    cal3d_synth *ref = cal3d_synth_new(&s->m, msg, sizeof msg);
    CHECKF(ref != NULL, "%s", msg);
    if (!ref) {
        free(s);
        return;
    }
    uint32_t nb = s->m.bone_count;
    /* Local states at time 0, before the cycle adds anything to the core tracks. */
    float lt[3 * MAX_BONES], lr[4 * MAX_BONES], ls[3 * MAX_BONES];
    ossa_pose_rest(&s->m, lt, lr, ls, s->m.bone_count, NULL);
    ossa_sample_clip(&s->m, &s->clip, 0.0f, OSSA_WRAP_EXTRAPOLATE, lt, lr, ls, s->m.bone_count,
                     NULL);
    double local_worst = 0;
    for (uint32_t i = 0; i < nb; i++) {
        float t[3], q[4];
        CHECK(cal3d_synth_track_state(ref, 0, (int)i, 0.0f, t, q));
        CHECKF(inside(t, q), "bone %u: libcal3d leaves the bounds at time 0", i);
        local_worst = fmax(local_worst, state_diff(t, q, lt + 3 * i, lr + 4 * i, 1));
    }
    CHECKF(local_worst <= TOL, "local states differ by %g", local_worst);
    /* The cycle from time 0 through both mixers, in model space. */
    ossa_mixer *mx = NULL;
    CHECK(ossa_mixer_create(&s->m, NULL, &mx, &err) == OSSA_OK);
    ossa_soa_pose local, model;
    CHECK(ossa_soa_pose_create(nb, &local, NULL) == OSSA_OK);
    CHECK(ossa_soa_pose_create(nb, &model, NULL) == OSSA_OK);
    if (mx) {
        CHECK(ossa_mixer_blend_cycle(mx, 0, 1.0f, 0.0f, NULL) == OSSA_OK);
        CHECK(cal3d_synth_blend_cycle(ref, 0, 1.0f, 0.0f) == 1);
        ossa_mixer_update(mx, 0.0f);
        cal3d_synth_update(ref, 0.0f);
        CHECK(ossa_mixer_time(mx) == 0.0f && cal3d_synth_time(ref) == 0.0f);
        CHECK(ossa_mixer_evaluate(mx, &local, NULL) == OSSA_OK);
        ossa_ltm_job lj = {.skeleton = ossa_mixer_skeleton(mx), .local = &local, .model = &model};
        CHECK(ossa_ltm_job_run(&lj, NULL) == OSSA_OK);
        double size = 1, dt = 0, dq = 0;
        for (uint32_t i = 0; i < nb; i++) {
            float t[3], q[4];
            cal3d_synth_bone(ref, (int)i, t, q);
            float mt[3] = {model.tx[i], model.ty[i], model.tz[i]};
            float mq[4] = {model.qx[i], model.qy[i], model.qz[i], model.qw[i]};
            for (int k = 0; k < 3; k++) {
                size = fmax(size, fabs((double)t[k]));
                dt = fmax(dt, fabs((double)t[k] - mt[k]));
            }
            for (int k = 0; k < 4; k++)
                dq = fmax(dq, fabs((double)q[k] - mq[k]));
        }
        printf("(a) walk clip at 0.2 s before keys 7e-5 s apart: model space %.3g x size "
               "(size %.4g), rotations %.3g; local states %.3g\n",
               dt / size, size, dq, local_worst);
        CHECKF(dt / size <= TOL && dq <= TOL, "model space differs: %g x size, rotations %g",
               dt / size, dq);
        ossa_mixer_destroy(mx);
    }
    ossa_soa_pose_destroy(&local);
    ossa_soa_pose_destroy(&model);
    cal3d_synth_free(ref);
    free(s);
}

/* ---- (b) random clips ----------------------------------------------------------------- */

typedef struct stats {
    long compared, limited, not_finite, samples, runtime, ossa_limited, beyond_old_cap;
    double worst;
} stats;

static float log_uniform(rng *g, float lo, float hi)
{
    return expf(uniform(g, logf(lo), logf(hi)));
}

static void random_unit(rng *g, float *v, int n)
{
    double len;
    do {
        len = 0;
        for (int k = 0; k < n; k++) {
            v[k] = uniform(g, -1, 1);
            len += (double)v[k] * v[k];
        }
    } while (len < 0.01 || len > 1.0);
    for (int k = 0; k < n; k++)
        v[k] = (float)(v[k] / sqrt(len));
}

static void draw_track(rng *g, synth *s, uint32_t i)
{
    ossa_track *tr = &s->tracks[i];
    float *t = s->times[i], *x = s->trans[i], *q = s->rots[i];
    int n = 2 + below(g, 7);
    int denormal = below(g, 10) == 0;
    t[0] = denormal ? 0.0f : uniform(g, 0.0f, 3.0f);
    for (int k = 1; k < n; k++) {
        float gap = log_uniform(g, 1e-5f, 1e-3f);
        if (denormal && (k == 1 || n == 2))
            gap = log_uniform(g, 1e-45f, 1e-38f);
        t[k] = t[k - 1] + gap;
    }
    /* Translations moving at up to 50 units/s, or near 1e14 at up to 1e17 units/s. */
    float scale = below(g, 8) == 0 ? 1e14f : 1.0f, speed = scale > 1.0f ? 1e17f : 50.0f;
    float axis[3], vel[3], omega = uniform(g, 0.0f, 20.0f);
    random_unit(g, axis, 3);
    for (int j = 0; j < 3; j++) {
        x[j] = scale * uniform(g, -1, 1);
        vel[j] = uniform(g, -speed, speed);
    }
    random_unit(g, q, 4);
    for (int k = 1; k < n; k++) {
        float dt = t[k] - t[k - 1];
        for (int j = 0; j < 3; j++)
            x[3 * k + j] = x[3 * (k - 1) + j] + vel[j] * dt;
        float step[4], *p = q + 4 * (k - 1), *c = q + 4 * k;
        axis_angle(step, axis, omega * dt);
        /* c = step * p (Hamilton) */
        c[0] = step[3] * p[0] + step[0] * p[3] + step[1] * p[2] - step[2] * p[1];
        c[1] = step[3] * p[1] - step[0] * p[2] + step[1] * p[3] + step[2] * p[0];
        c[2] = step[3] * p[2] + step[0] * p[1] - step[1] * p[0] + step[2] * p[3];
        c[3] = step[3] * p[3] - step[0] * p[0] - step[1] * p[1] - step[2] * p[2];
        if (below(g, 8) == 0)
            random_unit(g, c, 4); /* a jump: a wide slerp */
        if (below(g, 4) == 0)
            for (int j = 0; j < 4; j++)
                c[j] = -c[j]; /* the other hemisphere: Cal3D flips */
        normalise(c);
    }
    tr->bone = i;
    tr->key_count = (uint32_t)n;
    tr->times = t;
    tr->translations = x;
    tr->rotations = q;
}

static void draw_model(rng *g, synth *s)
{
    memset(s, 0, sizeof *s);
    uint32_t nb = 4 + (uint32_t)below(g, MAX_BONES - 3);
    for (uint32_t i = 0; i < nb; i++) {
        set_bone(s, i, i == 0 ? -1 : below(g, (int)i), uniform(g, -1, 1), uniform(g, -1, 1),
                 uniform(g, -1, 1));
        draw_track(g, s, i);
    }
    s->clip.name = "clip";
    s->clip.duration = 4.0f;
    s->clip.track_count = nb;
    s->clip.tracks = s->tracks;
    s->m.bone_count = nb;
    s->m.bones = s->bones;
    s->m.clip_count = 1;
    s->m.clips = &s->clip;
    s->m.scale = 1.0f;
}

/* Up to 5 s before each of a few tracks' first keys and after their last, a few inside. */
static int pick_times(rng *g, const synth *s, float *out)
{
    int n = 0;
    for (uint32_t i = 0; i < s->clip.track_count && n + 6 <= TIMES; i++) {
        const ossa_track *tr = &s->tracks[i];
        float first = tr->times[0], last = tr->times[tr->key_count - 1];
        out[n++] = first - uniform(g, 0.0f, 5.0f);
        out[n++] = first - log_uniform(g, 1e-6f, 5.0f);
        out[n++] = last + uniform(g, 0.0f, 5.0f);
        out[n++] = last + log_uniform(g, 1e-6f, 5.0f);
        out[n++] = uniform(g, first, last);
    }
    out[n++] = -1e4f;
    return n;
}

static void check_runtime(stats *st, int mi, const synth *s, const ossa_rt_clip *rc,
                          ossa_sample_cache *cache, ossa_soa_pose *pose, float time)
{
    uint32_t nb = s->m.bone_count;
    float t[3 * MAX_BONES], r[4 * MAX_BONES], sc[3 * MAX_BONES];
    float t2[3 * MAX_BONES], r2[4 * MAX_BONES], s2[3 * MAX_BONES];
    for (int mode = OSSA_WRAP_EXTRAPOLATE; mode <= OSSA_WRAP_LOOP; mode++)
        for (int cached = 0; cached < 2; cached++) {
            ossa_pose_rest(&s->m, t, r, sc, s->m.bone_count, NULL);
            ossa_sample_clip(&s->m, &s->clip, time, (ossa_wrap)mode, t, r, sc, s->m.bone_count,
                             NULL);
            ossa_soa_pose_from_aos(pose, t, r, sc, s->m.bone_count, NULL);
            ossa_sample_job job = {.clip = rc, .cache = cached ? cache : NULL, .time = time,
                                   .wrap = (ossa_wrap)mode, .rot = OSSA_ROT_SLERP,
                                   .output = pose};
            CHECK(ossa_sample_job_run(&job, NULL) == OSSA_OK);
            ossa_soa_pose_to_aos(pose, t2, r2, s2, pose->bone_count, NULL);
            CHECKF(!memcmp(t, t2, 12 * nb) && !memcmp(r, r2, 16 * nb) && !memcmp(sc, s2, 12 * nb),
                   "model %d time %.9g mode %d: runtime != ossa_sample_clip", mi, (double)time,
                   mode);
            st->runtime++;
        }
}

static void run_model(stats *st, rng *g, int mi, const synth *s)
{
    char msg[512];
    cal3d_synth *ref = cal3d_synth_new(&s->m, msg, sizeof msg);
    CHECKF(ref != NULL, "model %d: %s", mi, msg);
    ossa_rt_clip *rc = NULL;
    ossa_sample_cache *cache = NULL;
    ossa_error err;
    ossa_soa_pose pose;
    CHECK(ossa_rt_clip_create(&s->m, &s->clip, &rc, &err) == OSSA_OK);
    CHECK(ossa_sample_cache_create(s->clip.track_count, &cache, &err) == OSSA_OK);
    CHECK(ossa_soa_pose_create(s->m.bone_count, &pose, NULL) == OSSA_OK);
    float times[TIMES];
    int nt = pick_times(g, s, times);
    for (int k = 0; ref && rc && cache && k < nt; k++) {
        float lt[3 * MAX_BONES], lr[4 * MAX_BONES], ls[3 * MAX_BONES];
        ossa_pose_rest(&s->m, lt, lr, ls, s->m.bone_count, NULL);
        ossa_sample_clip(&s->m, &s->clip, times[k], OSSA_WRAP_EXTRAPOLATE, lt, lr, ls,
                         s->m.bone_count, NULL);
        for (uint32_t i = 0; i < s->clip.track_count; i++) {
            float t[3], q[4], *mt = lt + 3 * i, *mq = lr + 4 * i;
            CHECK(cal3d_synth_track_state(ref, 0, (int)i, times[k], t, q));
            int ossa_limited;
            float f;
            double weights = blend_weights(&s->tracks[i], times[k], &f, &ossa_limited);
            st->samples++;
            st->ossa_limited += ossa_limited;
            CHECKF(ossa_limited == !inside(t, q), "model %d track %u time %.9g: Ossa %s the "
                   "factor, libcal3d's state is %s the bounds", mi, i, (double)times[k],
                   ossa_limited ? "limits" : "keeps", inside(t, q) ? "inside" : "outside");
            if (inside(t, q)) {
                double d = state_diff(t, q, mt, mq, weights);
                st->worst = fmax(st->worst, d);
                CHECKF(d <= TOL,
                       "model %d track %u time %.9g: Ossa (%g %g %g | %g %g %g %g) vs libcal3d "
                       "(%g %g %g | %g %g %g %g): %g",
                       mi, i, (double)times[k], mt[0], mt[1], mt[2], mq[0], mq[1], mq[2], mq[3],
                       t[0], t[1], t[2], q[0], q[1], q[2], q[3], d);
                st->compared++;
                st->beyond_old_cap += f < -1024.0f || f > 1025.0f;
            } else {
                /* Cal3D leaves the bounds: Ossa's limit applies and stays inside them. */
                st->limited++;
                st->not_finite += !(isfinite(t[0]) && isfinite(t[1]) && isfinite(t[2]) &&
                                    isfinite(q[0]) && isfinite(q[1]) && isfinite(q[2]) &&
                                    isfinite(q[3]));
                CHECKF(inside(mt, mq), "model %d track %u time %.9g: Ossa's limited state "
                       "(%g %g %g | %g %g %g %g) leaves the bounds", mi, i, (double)times[k],
                       mt[0], mt[1], mt[2], mq[0], mq[1], mq[2], mq[3]);
            }
        }
        check_runtime(st, mi, s, rc, cache, &pose, times[k]);
    }
    ossa_soa_pose_destroy(&pose);
    ossa_sample_cache_destroy(cache);
    ossa_rt_clip_destroy(rc);
    cal3d_synth_free(ref);
}

static void test_random_clips(void)
{
    stats st = {0};
    synth *s = malloc(sizeof *s);
    CHECK(s != NULL);
    rng g = {0x3e7a0c1d5b2f9e41ull};
    for (int mi = 0; s && mi < MODELS; mi++) {
        draw_model(&g, s);
        ossa_error err;
        if (ossa_model_validate(&s->m, &err) != OSSA_OK) {
            CHECKF(0, "model %d: %s", mi, err.message);
            continue;
        }
        run_model(&st, &g, mi, s);
    }
    free(s);
    printf("(b) %d models: %ld track samples, %ld equal to libcal3d (worst %.3g x scale; %ld "
           "of them more than 1024 key spans out), %ld "
           "where libcal3d leaves the bounds (%ld of them not finite) and Ossa's limit holds "
           "them (Ossa limited %ld factors in all); %ld runtime samples identical to "
           "ossa_sample_clip\n",
           MODELS, st.samples, st.compared, st.worst, st.beyond_old_cap, st.limited,
           st.not_finite,
           st.ossa_limited, st.runtime);
    CHECK(st.compared > 10000 && st.beyond_old_cap > 1000 && st.limited > 500 &&
          st.not_finite > 50);
}

int main(void)
{
    test_fixed_clip();
    test_random_clips();
    return test_finish("reference-extrapolation");
}
