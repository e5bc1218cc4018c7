/* Randomised differential test of the sampler on synthetic clips, no assets needed:
 *
 * (a) ossa_mixer playing one cycle of weight 1 against libcal3d 0.11's CalMixer (blendCycle,
 *     then setAnimationTime or update, then CalModel::update), every bone's model-space
 *     transform compared, on models built in memory on both sides (cal3d_synth_oracle.h);
 * (b) ossa_sample_job over an ossa_rt_clip, with its cursor cache (forward play, backwards, random
 *     seeks) and without, against ossa_sample_clip, bit for bit, in every time mode.
 *
 * A fixed-seed PRNG draws the models: 2-12 bones in random parent-first trees (several roots at
 * times), 1-3 clips of 0.1-5 s, tracks of 1-40 keys over a random subset of the bones in random
 * order. Key times are sorted but sometimes duplicated or 1e-4 s apart; the first key is
 * sometimes after 0 and the last before the duration (so Cal3D's loop key matters, and when
 * track 0 ends at the duration no loop key is added and the other tracks extrapolate past their
 * last key). Rotations are random unit quaternions, sometimes a negated neighbour's (dot < 0),
 * sometimes within the linear-fallback band of the previous key (1 - |dot| < 1e-6) or just
 * outside it.
 *
 * Two documented differences are kept out of (a)'s draws: every extrapolation factor the mixer
 * can reach stays below 500, where Cal3D's results stay inside validation's bounds (a
 * linear-weight pair of unit keys, |a - b| < 1.42e-3, keeps its norm below 1 + 500 x 1.42e-3
 * < 2), so Ossa's extrapolation limit (anim/extrap.h; reference-extrapolation tests it) never
 * applies; and a pair of equal key times that Cal3D would divide by (a span of 0 it
 * extrapolates along) is never drawn where a time in [0, duration) reaches it. (b) compares
 * Ossa with itself and takes the clips as drawn. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cal3d_synth_oracle.h"
#include "ossa/ossa.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/pose.h"
#include "ossa/mixer.h"
#include "test_common.h"
#include "test_rng.h"

enum { MODELS = 300, MAX_BONES = 12, MAX_CLIPS = 3, MAX_KEYS = 40, MAX_TIMES = 512 };

/* The largest extrapolation factor a draw may need (inside the bounds, see above). */
#define FACTOR_LIMIT 500.0f
/* Tolerances of the mixer reference (mixer_harness.c), relative to the largest translation
 * (rotation norm) of the pose, at least 1: extrapolation may scale values far past 1. */
#define TOL_T 1e-4
#define TOL_R 1e-4

static void normalise(float *q)
{
    float n = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++)
        q[k] /= n;
}

static void random_quat(rng *g, float *q)
{
    float n2;
    do {
        for (int k = 0; k < 4; k++)
            q[k] = uniform(g, -1, 1);
        n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    } while (n2 < 0.01f || n2 > 1.0f);
    normalise(q);
}

static float dot4(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

typedef struct synth {
    ossa_model m;
    ossa_bone bones[MAX_BONES];
    ossa_clip clips[MAX_CLIPS];
    ossa_track tracks[MAX_CLIPS][MAX_BONES];
    float times[MAX_CLIPS][MAX_BONES][MAX_KEYS];
    float trans[MAX_CLIPS][MAX_BONES][3 * MAX_KEYS];
    float rots[MAX_CLIPS][MAX_BONES][4 * MAX_KEYS];
} synth;

/* Whether Cal3D samples the track in [0, duration) without a zero span to extrapolate along
 * and with factors below FACTOR_LIMIT; loop: the clip gets Cal3D's loop key. */
static int cal3d_safe(const float *times, int n, float d, int loop)
{
    float t[MAX_KEYS + 1];
    memcpy(t, times, (size_t)n * sizeof(float));
    if (loop)
        t[n++] = d;
    if (n < 2)
        return 1;
    /* Before the first key (and at time 0 with two keys) the first pair extrapolates. */
    if (t[0] > 0.0f || n == 2) {
        float span = t[1] - t[0];
        if (!(span > 0.0f) || t[0] / span > FACTOR_LIMIT)
            return 0;
    }
    /* Past the last key the last pair does. */
    if (t[n - 1] < d) {
        float span = t[n - 1] - t[n - 2];
        if (!(span > 0.0f) || (d - t[n - 2]) / span > FACTOR_LIMIT)
            return 0;
    }
    return 1;
}

static void draw_times(rng *g, float *t, int n, float d, int end_at_duration)
{
    float first = below(g, 5) < 3 ? 0.0f : uniform(g, 0.0f, 0.5f * d);
    float last = end_at_duration ? d : uniform(g, first, d);
    if (n == 1) {
        t[0] = end_at_duration ? d : first;
        return;
    }
    t[0] = first;
    t[n - 1] = last;
    for (int k = 1; k < n - 1; k++)
        t[k] = uniform(g, first, last);
    /* insertion sort */
    for (int k = 1; k < n - 1; k++)
        for (int j = k; j > 1 && t[j] < t[j - 1]; j--) {
            float x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    for (int k = 1; k < n; k++) {
        int kind = below(g, 12);
        if (kind == 0)
            t[k] = t[k - 1]; /* a duplicated time */
        else if (kind == 1)
            t[k] = t[k - 1] + 1e-4f; /* very close */
        if (t[k] < t[k - 1])
            t[k] = t[k - 1];
        if (t[k] > d)
            t[k] = d;
    }
}

static void draw_keys(rng *g, float *tr, float *rot, int n)
{
    for (int k = 0; k < n; k++) {
        float *q = rot + 4 * k;
        const float *p = rot + 4 * (k - 1);
        for (int j = 0; j < 3; j++)
            tr[3 * k + j] = k && below(g, 6) == 0 ? tr[3 * (k - 1) + j] : uniform(g, -1, 1);
        int kind = k ? below(g, 10) : 9;
        if (kind <= 2) {
            /* Near the previous key: inside the linear band (about 1e-8 or 5e-7 off 1) or just
             * outside it (about 2e-6); sometimes the negated quaternion. */
            float eps = kind == 0 ? 2e-4f : kind == 1 ? 1.4e-3f : 4e-3f;
            for (int j = 0; j < 4; j++)
                q[j] = p[j] + uniform(g, -eps, eps);
            normalise(q);
            if (below(g, 3) == 0)
                for (int j = 0; j < 4; j++)
                    q[j] = -q[j];
        } else if (kind == 3) {
            memcpy(q, p, 4 * sizeof(float));
        } else {
            random_quat(g, q);
            if (kind <= 5 && dot4(p, q) > 0.0f) /* a neighbour across the hemisphere */
                for (int j = 0; j < 4; j++)
                    q[j] = -q[j];
        }
    }
}

static int draw_key_count(rng *g)
{
    switch (below(g, 6)) {
    case 0:
        return 1;
    case 1:
        return 2;
    case 2:
        return 3 + below(g, 3);
    default:
        return 1 + below(g, MAX_KEYS);
    }
}

static void draw_model(synth *s, rng *g)
{
    memset(s, 0, sizeof *s);
    uint32_t nb = 2 + (uint32_t)below(g, MAX_BONES - 1);
    for (uint32_t i = 0; i < nb; i++) {
        ossa_bone *b = &s->bones[i];
        b->name = "bone";
        b->parent = i == 0 || below(g, 8) == 0 ? -1 : below(g, (int)i);
        b->source_index = i;
        for (int k = 0; k < 3; k++) {
            b->rest_t[k] = uniform(g, -1, 1);
            b->rest_s[k] = 1.0f;
            b->inv_bind_t[k] = uniform(g, -1, 1);
        }
        random_quat(g, b->rest_r);
        random_quat(g, b->inv_bind_r);
    }
    uint32_t nc = 1 + (uint32_t)below(g, MAX_CLIPS);
    for (uint32_t c = 0; c < nc; c++) {
        ossa_clip *cl = &s->clips[c];
        cl->name = "clip";
        cl->duration = uniform(g, 0.1f, 5.0f);
        float d = cl->duration;
        /* A random subset of the bones (at least one) in random order. */
        uint32_t order[MAX_BONES], nt = 0;
        for (uint32_t i = 0; i < nb; i++)
            if (below(g, 10) < 7)
                order[nt++] = i;
        if (!nt)
            order[nt++] = (uint32_t)below(g, (int)nb);
        for (uint32_t i = nt - 1; i > 0; i--) {
            uint32_t j = (uint32_t)below(g, (int)i + 1), x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        /* Track 0 decides on the loop key: sometimes it ends at the duration (no loop key). */
        int loop = below(g, 3) != 0;
        for (uint32_t t = 0; t < nt; t++) {
            ossa_track *tr = &s->tracks[c][t];
            float *times = s->times[c][t];
            int n = draw_key_count(g);
            int tries = 0, ok;
            do {
                /* Track 0 ends before the duration exactly when it loops. */
                int end_at_d = t == 0 ? !loop : below(g, 3) == 0;
                draw_times(g, times, n, d, end_at_d);
                ok = cal3d_safe(times, n, d, loop) && (t || !loop || times[n - 1] < d);
            } while (!ok && ++tries < 50);
            if (tries == 50) { /* evenly spaced keys are always safe */
                for (int k = 0; k < n; k++)
                    times[k] = n == 1 ? 0.0f : (loop ? 0.9f : 1.0f) * d * (float)k / (float)(n - 1);
            }
            tr->bone = order[t];
            tr->key_count = (uint32_t)n;
            tr->times = times;
            tr->translations = s->trans[c][t];
            tr->rotations = s->rots[c][t];
            draw_keys(g, s->trans[c][t], s->rots[c][t], n);
        }
        cl->track_count = nt;
        cl->tracks = s->tracks[c];
    }
    s->m.bone_count = nb;
    s->m.bones = s->bones;
    s->m.clip_count = nc;
    s->m.clips = s->clips;
    s->m.scale = 1.0f;
}

/* ---- (a) ossa_mixer against CalMixer ---------------------------------------------------- */

typedef struct stats {
    long models, clips, compared, bone_values, part_b;
    long before_first, inside, after_last, beyond, loop_clips, extrapolating_clips;
    double err_t, err_r, abs_t, abs_r, max_t, max_r, err_clock, worst;
    long nan_at_duration;
    int worst_model, worst_clip;
    float worst_time;
} stats;

static double worse(double acc, double d)
{
    return d == d ? fmax(acc, d) : INFINITY;
}

/* Whether a track's last key pair, as Cal3D holds it after blendCycle, spans no time. */
static int zero_last_span(const ossa_clip *cl)
{
    const ossa_track *t0 = &cl->tracks[0];
    int loop = t0->times[t0->key_count - 1] < cl->duration;
    for (uint32_t t = 0; t < cl->track_count; t++) {
        const float *x = cl->tracks[t].times;
        uint32_t n = cl->tracks[t].key_count;
        if (loop ? x[n - 1] == cl->duration : n >= 2 && x[n - 1] == x[n - 2])
            return 1;
    }
    return 0;
}

/* Compares the two mixers after their latest update; raw: the time asked for (for messages). */
static void compare(stats *st, int mi, uint32_t ci, const ossa_model *m, ossa_mixer *mx,
                    cal3d_synth *ref, ossa_soa_pose *local, ossa_soa_pose *model, float raw)
{
    CHECK(ossa_mixer_evaluate(mx, local, NULL) == OSSA_OK);
    ossa_ltm_job lj = {.skeleton = ossa_mixer_skeleton(mx), .local = local, .model = model};
    CHECK(ossa_ltm_job_run(&lj, NULL) == OSSA_OK);
    float mt = ossa_mixer_time(mx), rt = cal3d_synth_time(ref);
    double clock = worse(0, fabs((double)mt - rt));
    clock = worse(clock, fabs((double)ossa_mixer_duration(mx) - cal3d_synth_duration(ref)));
    st->err_clock = fmax(st->err_clock, clock);
    CHECKF(clock <= 1e-5, "model %d clip %u time %.9g: clock %.9g vs %.9g", mi, ci, (double)raw,
           (double)mt, (double)rt);
    double et = 0, er = 0, st_ = 1, sr = 1;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        float t[3], q[4];
        cal3d_synth_bone(ref, (int)i, t, q);
        float mine[4] = {model->qx[i], model->qy[i], model->qz[i], model->qw[i]};
        float tm[3] = {model->tx[i], model->ty[i], model->tz[i]};
        double dp = 0, dn = 0;
        for (int k = 0; k < 4; k++) {
            dp = worse(dp, fabs((double)mine[k] - q[k]));
            dn = worse(dn, fabs((double)mine[k] + q[k]));
        }
        er = worse(er, fmin(dp, dn));
        for (int k = 0; k < 3; k++) {
            et = worse(et, fabs((double)tm[k] - t[k]));
            st_ = worse(st_, fabs((double)t[k]));
        }
        sr = worse(sr, sqrt((double)dot4(q, q)));
        st->bone_values++;
    }
    /* Documented: Cal3D divides by a last key span of 0 (a track that ends at the duration
     * and is given the loop key there, or ends on two equal times) when the cycle's time lands
     * on the duration itself (a clock a hair below it, or wrapped from a hair below 0, times
     * duration / mixer duration, rounds up to it); Ossa takes the factor as 0 there. */
    if (!isfinite(st_) || !isfinite(sr)) {
        int mine_finite = 1;
        for (uint32_t i = 0; i < m->bone_count; i++)
            mine_finite &= isfinite(model->tx[i]) && isfinite(model->ty[i]) &&
                           isfinite(model->tz[i]) && isfinite(model->qw[i]);
        float d = m->clips[ci].duration;
        if (mt * d / ossa_mixer_duration(mx) >= d && zero_last_span(&m->clips[ci])) {
            CHECKF(mine_finite, "model %d clip %u: Ossa's pose not finite at the duration", mi,
                   ci);
            st->nan_at_duration++;
            return;
        }
    }
    st->max_t = fmax(st->max_t, st_);
    st->max_r = fmax(st->max_r, sr);
    st->abs_t = worse(st->abs_t, et);
    st->abs_r = worse(st->abs_r, er);
    double rel_t = et / st_, rel_r = er / sr;
    if (!(fmax(rel_t, rel_r) <= st->worst)) {
        st->worst = worse(0, fmax(rel_t, rel_r));
        st->worst_model = mi;
        st->worst_clip = (int)ci;
        st->worst_time = raw;
    }
    st->err_t = worse(st->err_t, rel_t);
    st->err_r = worse(st->err_r, rel_r);
    CHECKF(rel_t <= TOL_T && rel_r <= TOL_R,
           "model %d clip %u time %.9g (mixer %.9g): bones differ: t %g (scale %g), r %g "
           "(scale %g)",
           mi, ci, (double)raw, (double)mt, et, st_, er, sr);
    st->compared++;
    /* Where the sample fell, by track 0's keys. */
    const ossa_track *t0 = &m->clips[ci].tracks[0];
    float d = m->clips[ci].duration;
    float at = mt * d / ossa_mixer_duration(mx);
    if (!(raw >= 0.0f && raw < d))
        st->beyond++;
    if (at < t0->times[0])
        st->before_first++;
    else if (at > t0->times[t0->key_count - 1])
        st->after_last++;
    else
        st->inside++;
}

/* Times worth asking for: keys and their neighbours, midpoints, the ends, past the duration,
 * negative, random. */
static int pick_times(rng *g, const ossa_clip *cl, float *out)
{
    int n = 0;
    float d = cl->duration;
    for (uint32_t t = 0; t < cl->track_count && t < 3; t++) {
        const ossa_track *tr = &cl->tracks[t];
        for (uint32_t k = 0; k < tr->key_count && n + 4 < MAX_TIMES / 2; k++) {
            float x = tr->times[k];
            out[n++] = x;
            out[n++] = nextafterf(x, -INFINITY);
            out[n++] = nextafterf(x, INFINITY);
            out[n++] = k + 1 < tr->key_count ? 0.5f * (x + tr->times[k + 1]) : 0.5f * (x + d);
        }
        out[n++] = 0.5f * tr->times[0];
        out[n++] = 0.999f * tr->times[0];
    }
    float fixed[] = {0.0f, 1e-6f, nextafterf(d, 0.0f), d, nextafterf(d, INFINITY), 0.999f * d,
                     1.25f * d, 2.0f * d, 3.5f * d, 17.75f * d, -1e-6f, -0.3f * d, -d, -2.6f * d};
    for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
        out[n++] = fixed[k];
    while (n < MAX_TIMES / 2 + 64)
        out[n++] = uniform(g, -d, 4.0f * d);
    return n;
}

static void run_mixer(stats *st, rng *g, int mi, const ossa_model *m, cal3d_synth *ref)
{
    ossa_soa_pose local, model;
    CHECK(ossa_soa_pose_create(m->bone_count, &local, NULL) == OSSA_OK);
    CHECK(ossa_soa_pose_create(m->bone_count, &model, NULL) == OSSA_OK);
    float *times = malloc(MAX_TIMES * sizeof(float));
    CHECK(times != NULL);
    for (uint32_t ci = 0; times && ci < m->clip_count; ci++) {
        const ossa_clip *cl = &m->clips[ci];
        ossa_mixer *mx = NULL;
        ossa_error err;
        CHECK(cal3d_synth_reset(ref));
        if (ossa_mixer_create(m, NULL, &mx, &err) != OSSA_OK) {
            CHECKF(0, "model %d: %s", mi, err.message);
            continue;
        }
        const ossa_track *t0 = &cl->tracks[0];
        int loop = t0->times[t0->key_count - 1] < cl->duration;
        st->loop_clips += loop;
        st->extrapolating_clips += !loop && cl->track_count > 1;
        CHECK(ossa_mixer_blend_cycle(mx, ci, 1.0f, 0.0f, NULL) == OSSA_OK);
        CHECK(cal3d_synth_blend_cycle(ref, (int)ci, 1.0f, 0.0f) == 1);
        /* libcal3d now holds the loop key exactly when Ossa assumes it. */
        for (uint32_t t = 0; t < cl->track_count; t++)
            CHECKF(cal3d_synth_key_count(ref, (int)ci, (int)t) ==
                       (int)cl->tracks[t].key_count + loop,
                   "model %d clip %u track %u: libcal3d has %d keys, %u expected", mi, ci, t,
                   cal3d_synth_key_count(ref, (int)ci, (int)t), cl->tracks[t].key_count + loop);
        ossa_mixer_update(mx, 0.0f);
        cal3d_synth_update(ref, 0.0f);
        compare(st, mi, ci, m, mx, ref, &local, &model, 0.0f);
        /* Seeks: setAnimationTime, then an update of 0 wraps the clock as Cal3D does. */
        int n = pick_times(g, cl, times);
        for (int k = 0; k < n; k++) {
            ossa_mixer_set_time(mx, times[k]);
            cal3d_synth_set_time(ref, times[k]);
            ossa_mixer_update(mx, 0.0f);
            cal3d_synth_update(ref, 0.0f);
            compare(st, mi, ci, m, mx, ref, &local, &model, times[k]);
        }
        /* Play: steps from tiny to longer than the clip, wrapping many times. */
        ossa_mixer_set_time(mx, 0.0f);
        cal3d_synth_set_time(ref, 0.0f);
        float clock = 0.0f;
        for (int k = 0; k < 60; k++) {
            float dt = below(g, 4) == 0 ? uniform(g, 0.0f, 2.5f * cl->duration)
                                        : uniform(g, 0.0f, 0.1f * cl->duration);
            clock += dt;
            ossa_mixer_update(mx, dt);
            cal3d_synth_update(ref, dt);
            compare(st, mi, ci, m, mx, ref, &local, &model, clock);
        }
        ossa_mixer_destroy(mx);
        st->clips++;
    }
    free(times);
    ossa_soa_pose_destroy(&local);
    ossa_soa_pose_destroy(&model);
}

/* ---- (b) ossa_sample_job against ossa_sample_clip ---------------------------------------- */

typedef struct scalar_buf {
    float t[3 * MAX_BONES], r[4 * MAX_BONES], s[3 * MAX_BONES];
    float t2[3 * MAX_BONES], r2[4 * MAX_BONES], s2[3 * MAX_BONES];
} scalar_buf;

static void sample_same(stats *st, int mi, const ossa_model *m, uint32_t ci,
                        const ossa_rt_clip *rc, ossa_sample_cache *cache, float time,
                        ossa_wrap mode, ossa_soa_pose *a, ossa_soa_pose *b, scalar_buf *sb)
{
    uint32_t n = m->bone_count;
    ossa_pose_rest(m, sb->t, sb->r, sb->s, m->bone_count, NULL);
    ossa_soa_pose_from_aos(a, sb->t, sb->r, sb->s, n, NULL);
    ossa_soa_pose_from_aos(b, sb->t, sb->r, sb->s, n, NULL);
    ossa_sample_clip(m, &m->clips[ci], time, mode, sb->t, sb->r, sb->s, m->bone_count, NULL);
    ossa_sample_job job = {.clip = rc, .cache = cache, .time = time, .wrap = mode,
                           .rot = OSSA_ROT_SLERP, .output = a};
    CHECK(ossa_sample_job_run(&job, NULL) == OSSA_OK);
    job.cache = NULL;
    job.output = b;
    CHECK(ossa_sample_job_run(&job, NULL) == OSSA_OK);
    const ossa_soa_pose *poses[2] = {a, b};
    for (int p = 0; p < 2; p++) {
        ossa_soa_pose_to_aos(poses[p], sb->t2, sb->r2, sb->s2, poses[p]->bone_count, NULL);
        int same = !memcmp(sb->t, sb->t2, 12 * n) && !memcmp(sb->r, sb->r2, 16 * n) &&
                   !memcmp(sb->s, sb->s2, 12 * n);
        CHECKF(same, "model %d clip %u time %.9g mode %d: %s ossa_sample_job != "
                     "ossa_sample_clip",
               mi, ci, (double)time, (int)mode, p ? "uncached" : "cached");
    }
    st->part_b++;
}

static void run_runtime(stats *st, rng *g, int mi, const ossa_model *m)
{
    ossa_soa_pose a, b;
    CHECK(ossa_soa_pose_create(m->bone_count, &a, NULL) == OSSA_OK);
    CHECK(ossa_soa_pose_create(m->bone_count, &b, NULL) == OSSA_OK);
    scalar_buf *sb = malloc(sizeof *sb);
    CHECK(sb != NULL);
    for (uint32_t ci = 0; sb && ci < m->clip_count; ci++) {
        ossa_rt_clip *rc = NULL;
        ossa_sample_cache *cache = NULL;
        ossa_error err;
        if (ossa_rt_clip_create(m, &m->clips[ci], &rc, &err) != OSSA_OK ||
            ossa_sample_cache_create(ossa_rt_clip_track_count(rc), &cache, &err) != OSSA_OK) {
            CHECKF(0, "model %d clip %u: %s", mi, ci, err.message);
            ossa_rt_clip_destroy(rc);
            continue;
        }
        float d = m->clips[ci].duration;
        for (int mode = OSSA_WRAP_EXTRAPOLATE; mode <= OSSA_WRAP_LOOP; mode++) {
            ossa_wrap tm = (ossa_wrap)mode;
            for (float x = -0.5f * d; x <= 2.5f * d; x += d / 41.0f) /* forward */
                sample_same(st, mi, m, ci, rc, cache, x, tm, &a, &b, sb);
            for (float x = 1.2f * d; x >= -0.2f * d; x -= d / 23.0f) /* backwards */
                sample_same(st, mi, m, ci, rc, cache, x, tm, &a, &b, sb);
            for (int k = 0; k < 40; k++) /* seeks */
                sample_same(st, mi, m, ci, rc, cache, uniform(g, -2.0f * d, 3.0f * d), tm, &a,
                            &b, sb);
            const ossa_track *t0 = &m->clips[ci].tracks[0];
            for (uint32_t k = 0; k < t0->key_count; k++) /* on keys, in order */
                sample_same(st, mi, m, ci, rc, cache, t0->times[k], tm, &a, &b, sb);
            sample_same(st, mi, m, ci, rc, cache, d, tm, &a, &b, sb);
        }
        ossa_sample_cache_destroy(cache);
        ossa_rt_clip_destroy(rc);
    }
    free(sb);
    ossa_soa_pose_destroy(&a);
    ossa_soa_pose_destroy(&b);
}

int main(void)
{
    stats st = {0};
    synth *s = malloc(sizeof *s);
    CHECK(s != NULL);
    rng g = {0x05a3b1e2c0ffee11ull};
    for (int mi = 0; s && mi < MODELS; mi++) {
        draw_model(s, &g);
        ossa_error err;
        if (ossa_model_validate(&s->m, &err) != OSSA_OK) {
            CHECKF(0, "model %d: %s", mi, err.message);
            continue;
        }
        char msg[512];
        cal3d_synth *ref = cal3d_synth_new(&s->m, msg, sizeof msg);
        CHECKF(ref != NULL, "model %d: %s", mi, msg);
        if (!ref)
            continue;
        run_mixer(&st, &g, mi, &s->m, ref);
        cal3d_synth_free(ref);
        run_runtime(&st, &g, mi, &s->m);
        st.models++;
    }
    free(s);
    printf("(a) %ld models, %ld clips (%ld with the loop key, %ld extrapolating past last keys), "
           "%ld comparisons (%ld before track 0's first key, %ld inside, %ld after its last; "
           "%ld asked outside [0, duration)), %ld bone transforms\n",
           st.models, st.clips, st.loop_clips, st.extrapolating_clips, st.compared,
           st.before_first, st.inside, st.after_last, st.beyond, st.bone_values);
    printf("(a) worst: t %.3g x scale, r %.3g x scale (absolute %.3g, %.3g; largest |t| %.3g, "
           "|q| %.3g), clock %.3g s; at model %d clip %d time %.9g\n",
           st.err_t, st.err_r, st.abs_t, st.abs_r, st.max_t, st.max_r, st.err_clock,
           st.worst_model, st.worst_clip, (double)st.worst_time);
    printf("(a) %ld times the clock wrapped onto the duration where libcal3d divides by a key "
           "span of 0 (not finite; Ossa holds the key)\n",
           st.nan_at_duration);
    printf("(b) %ld runtime samples identical to ossa_sample_clip (cached and uncached)\n",
           st.part_b);
    CHECK(st.models == MODELS && st.compared > 10000);
    return test_finish("reference-sampler-random");
}
