/* The sampling job on runtime clips, and ossa_playback_time; rt_clip_build.c builds the clips
 * and their caches. The interpolation is interp.h's, shared with ossa_sample_clip, so both give
 * the same bits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/error.h"
#include "extrap.h"
#include "interp.h"
#include "rt_internal.h"
#include "simd4.h"
#include "simd8.h"

static int sample_job_validate_impl(const ossa_sample_job *job)
{
    if (!job || !job->clip || !job->output || !job->output->block)
        return 0;
    if (job->cache && job->cache->capacity < job->clip->track_count)
        return 0;
    if ((unsigned)job->wrap > OSSA_WRAP_PINGPONG || (unsigned)job->rot > OSSA_ROT_NLERP)
        return 0;
    return job->output->bone_count >= job->clip->bone_limit;
}

/* ossa_sin_approx on four lanes, the same operations in the same order. */
static inline v4f v4_sin(v4f x)
{
    v4f ax = (v4f)((v4i)x & 0x7fffffff);
    v4i small = ax <= OSSA_SIN_NO_REDUCE;
    v4f r = x, res;
    v4i odd = {0, 0, 0, 0};
    if (__builtin_expect((small[0] & small[1] & small[2] & small[3]) == 0, 0)) {
        v4i in_range = ax <= OSSA_SIN_LIMIT;
        v4f xs = v4_select(in_range, x, v4_splat(0.0f)); /* no conversion of huge values */
        v4f k = (xs * OSSA_SIN_INV_PI + OSSA_SIN_ROUND) - OSSA_SIN_ROUND;
        r = xs - k * OSSA_SIN_PI1;
        r = r - k * OSSA_SIN_PI2;
        r = r - k * OSSA_SIN_PI3;
        odd = (__builtin_convertvector(k, v4i) & 1) << 31;
        v4f u = r * r;
        v4f p = (OSSA_SIN_C3 + OSSA_SIN_C5 * u) + (u * u) * (OSSA_SIN_C7 + OSSA_SIN_C9 * u);
        res = (v4f)((v4i)(r + (r * u) * p) ^ odd);
        for (int j = 0; j < 4; j++)
            if (!in_range[j])
                res[j] = ossa_sin_approx(x[j]);
        return res;
    }
    v4f u = r * r;
    v4f p = (OSSA_SIN_C3 + OSSA_SIN_C5 * u) + (u * u) * (OSSA_SIN_C7 + OSSA_SIN_C9 * u);
    return r + (r * u) * p;
}

#ifdef OSSA_ANIM_HAVE_AVX2
/* v4_sin on eight lanes: the polynomial directly when every lane needs no reduction (the
 * usual case: slerp angles are below pi / 2), otherwise v4_sin on each half. */
OSSA_ANIM_AVX2 static inline v8f v8_sin(v8f x)
{
    v8f ax = (v8f)((v8i)x & 0x7fffffff);
    v8i small = ax <= OSSA_SIN_NO_REDUCE;
    int all_small = 1;
    for (int j = 0; j < 8; j++)
        all_small &= small[j] != 0;
    if (__builtin_expect(!all_small, 0)) {
        float lanes[8];
        memcpy(lanes, &x, sizeof lanes);
        v4_store(lanes, v4_sin(v4_load(lanes)));
        v4_store(lanes + 4, v4_sin(v4_load(lanes + 4)));
        return v8_load(lanes);
    }
    v8f u = x * x;
    v8f p = (OSSA_SIN_C3 + OSSA_SIN_C5 * u) + (u * u) * (OSSA_SIN_C7 + OSSA_SIN_C9 * u);
    return x + (x * u) * p;
}

/* The pair fields of eight tracks, one vector each (rt_internal.h's record order). */
typedef struct pair8 {
    v8f ta_x, ta_y, ta_z, theta, qa_x, qa_y, qa_z, qa_w;
    v8f tb_x, tb_y, tb_z, inv_sin, qb_x, qb_y, qb_z, qb_w;
} pair8;

/* interp_group for eight tracks that animate bones bone .. bone + 7 in order, with slerp, no
 * single-key copy and no scales: the same operations on eight lanes. */
OSSA_ANIM_AVX2 static inline void interp8_fields(const pair8 *p, v8f f, float *const *dst,
                                                 uint32_t bone)
{
    v8f one_f = 1.0f - f;
    v8i linear = p->theta == 0.0f;
    v8f wa = v8_select(linear, one_f, v8_sin(one_f * p->theta) * p->inv_sin);
    v8f wb = v8_select(linear, f, v8_sin(f * p->theta) * p->inv_sin);
    v8_store(dst[0] + bone, p->ta_x + f * (p->tb_x - p->ta_x));
    v8_store(dst[1] + bone, p->ta_y + f * (p->tb_y - p->ta_y));
    v8_store(dst[2] + bone, p->ta_z + f * (p->tb_z - p->ta_z));
    v8_store(dst[3] + bone, wa * p->qa_x + wb * p->qb_x);
    v8_store(dst[4] + bone, wa * p->qa_y + wb * p->qb_y);
    v8_store(dst[5] + bone, wa * p->qa_z + wb * p->qb_z);
    v8_store(dst[6] + bone, wa * p->qa_w + wb * p->qb_w);
}

/* Eight tracks' records rec[0..7], gathered by four transposes. */
OSSA_ANIM_AVX2 static void interp8(const float *const *rec, const float *fl,
                                   float *const *dst, uint32_t bone)
{
    pair8 p;
    v8f *v = &p.ta_x;
    for (int g = 0; g < 4; g++) {
        for (int j = 0; j < 4; j++)
            v[4 * g + j] = v8_load2(rec[j] + 4 * g, rec[j + 4] + 4 * g);
        v8_transpose(&v[4 * g], &v[4 * g + 1], &v[4 * g + 2], &v[4 * g + 3]);
    }
    interp8_fields(&p, v8_load(fl), dst, bone);
}

/* Eight tracks of a uniform clip from its lane-major table: row k of the pair at `row0` holds
 * field k, tracks side by side. */
OSSA_ANIM_AVX2 static void interp8_lanes(const float *row0, size_t stride, float f,
                                         float *const *dst, uint32_t bone)
{
    pair8 p;
    v8f *v = &p.ta_x;
    for (int k = 0; k < OSSA_RT_PAIR_FLOATS; k++)
        v[k] = v8_load(row0 + (size_t)k * stride);
    interp8_fields(&p, (v8f){f, f, f, f, f, f, f, f}, dst, bone);
}
#endif

/* Interpolates tracks base .. base + lanes - 1 (lanes <= 4) from their pair records, factors
 * and copy flags, and stores them into o. */
static inline void interp_group(const ossa_rt_clip *c, uint32_t base, uint32_t lanes,
                                const float *const *rec_in, const float *f_in,
                                const int *copy, int any_copy, int nlerp, ossa_soa_pose *o)
{
    {
        const ossa_rt_track *tr = c->tracks + base;
        const float *rec[OSSA_RT_LANES];
        float fl[OSSA_RT_LANES];
        for (uint32_t j = 0; j < OSSA_RT_LANES; j++) {
            rec[j] = rec_in[j < lanes ? j : 0];
            fl[j] = f_in[j < lanes ? j : 0];
        }
        /* Gather: four 4x4 transposes turn the records into one vector per field. */
        v4f ta_x = v4_load(rec[0]), ta_y = v4_load(rec[1]), ta_z = v4_load(rec[2]),
            theta = v4_load(rec[3]);
        v4f qa_x = v4_load(rec[0] + 4), qa_y = v4_load(rec[1] + 4), qa_z = v4_load(rec[2] + 4),
            qa_w = v4_load(rec[3] + 4);
        v4f tb_x = v4_load(rec[0] + 8), tb_y = v4_load(rec[1] + 8), tb_z = v4_load(rec[2] + 8),
            inv_sin = v4_load(rec[3] + 8);
        v4f qb_x = v4_load(rec[0] + 12), qb_y = v4_load(rec[1] + 12),
            qb_z = v4_load(rec[2] + 12), qb_w = v4_load(rec[3] + 12);
        v4_transpose(&ta_x, &ta_y, &ta_z, &theta);
        v4_transpose(&qa_x, &qa_y, &qa_z, &qa_w);
        v4_transpose(&tb_x, &tb_y, &tb_z, &inv_sin);
        v4_transpose(&qb_x, &qb_y, &qb_z, &qb_w);
        v4f f = {fl[0], fl[1], fl[2], fl[3]};
        v4f one_f = 1.0f - f;
        v4f wa = one_f, wb = f;
        if (!nlerp) {
            /* ossa_slerp_weights: linear where theta is 0, sines elsewhere. */
            v4i linear = theta == 0.0f;
            wa = v4_select(linear, one_f, v4_sin(one_f * theta) * inv_sin);
            wb = v4_select(linear, f, v4_sin(f * theta) * inv_sin);
        }
        v4f v[7] = {
            ta_x + f * (tb_x - ta_x), ta_y + f * (tb_y - ta_y), ta_z + f * (tb_z - ta_z),
            wa * qa_x + wb * qb_x,    wa * qa_y + wb * qb_y,    wa * qa_z + wb * qb_z,
            wa * qa_w + wb * qb_w,
        };
        if (nlerp) {
            for (int j = 0; j < OSSA_RT_LANES; j++) {
                float len2 = 0.0f;
                for (int k = 3; k < 7; k++)
                    len2 += v[k][j] * v[k][j];
                float inv = len2 > 0.0f ? 1.0f / sqrtf(len2) : 0.0f;
                for (int k = 3; k < 7; k++)
                    v[k][j] *= inv;
            }
        }
        float *dst[7] = {o->tx, o->ty, o->tz, o->qx, o->qy, o->qz, o->qw};
        uint32_t gb = c->group_bone[base / OSSA_RT_LANES];
        if (gb != UINT32_MAX) {
            for (int k = 0; k < 7; k++)
                v4_store(dst[k] + gb, v[k]);
        } else {
            /* Lane by lane, in track order: a later track of the same bone wins. */
            for (uint32_t j = 0; j < lanes; j++)
                for (int k = 0; k < 7; k++)
                    dst[k][tr[j].bone] = copy[j] ? rec[j][k < 3 ? k : k + 1] : v[k][j];
            any_copy = 0;
        }
        for (uint32_t j = 0; j < lanes; j++) {
            uint32_t b = tr[j].bone;
            if (__builtin_expect(any_copy, 0) && copy[j]) {
                o->tx[b] = rec[j][0]; o->ty[b] = rec[j][1]; o->tz[b] = rec[j][2];
                o->qx[b] = rec[j][4]; o->qy[b] = rec[j][5]; o->qz[b] = rec[j][6];
                o->qw[b] = rec[j][7];
            }
            if (tr[j].scale_first != UINT32_MAX) {
                /* The pair's index within its track picks its scales. */
                size_t a = (size_t)(rec[j] - c->pairs) / OSSA_RT_PAIR_FLOATS - tr[j].pair_first;
                const float *sa = c->scales + 3 * ((size_t)tr[j].scale_first + a);
                float s[3];
                for (int k = 0; k < 3; k++)
                    s[k] = copy[j] ? sa[k] : sa[k] + fl[j] * (sa[3 + k] - sa[k]);
                o->sx[b] = s[0]; o->sy[b] = s[1]; o->sz[b] = s[2];
            }
        }
    }
}

/* Where track tr is sampled at time: the pair record and factor, or (copy set) key `pair`
 * alone (the first half of its record). Same decisions, in the same order, as
 * ossa_sample_clip. A factor outside [0, 1] (or NaN) sets *extrap, which is never cleared
 * here: the caller limits it per track (rt_extrap_factor; NaN becomes 0 as in
 * ossa_key_factor). */
static inline uint32_t locate(const ossa_rt_clip *c, const ossa_rt_track *tr,
                                  uint32_t *cursor, float time, int clamp, int loop, float *f,
                                  int *copy, int *extrap)
{
    const float *times = c->times + tr->first;
    uint32_t n = tr->key_count, a;
    *f = 0.0f;
    *copy = 0;
    if (loop && time >= times[n - 1]) {
        a = n - 1; /* from the last key to the loop key */
        *f = ossa_key_factor_raw(time, times[a], times[n]);
        if (__builtin_expect(ossa_factor_extrapolates(*f), 0))
            *extrap = 1;
    } else if (n == 1 || (clamp && time <= times[0])) {
        a = 0;
        *copy = 1;
    } else if (clamp && time >= times[n - 1]) {
        a = n - 1;
        *copy = 1;
    } else {
        a = cursor ? ossa_key_search_cursor(times, n, time, *cursor)
                   : ossa_key_search(times, n, time);
        if (cursor)
            *cursor = a;
        *f = ossa_key_factor_raw(time, times[a], times[a + 1]);
        if (__builtin_expect(ossa_factor_extrapolates(*f), 0))
            *extrap = 1;
    }
    return a;
}

/* The factor track tr blends its pair record rec with when the shared factor f extrapolates:
 * f limited by this pair's own values (extrap.h), as ossa_sample_clip limits it. */
static float rt_extrap_factor(const ossa_rt_clip *c, const ossa_rt_track *tr, const float *rec,
                              float f, int nlerp)
{
    const float *sa = NULL, *sb = NULL;
    if (tr->scale_first != UINT32_MAX) {
        size_t a = (size_t)(rec - c->pairs) / OSSA_RT_PAIR_FLOATS - tr->pair_first;
        sa = c->scales + 3 * ((size_t)tr->scale_first + a);
        sb = sa + 3;
    }
    ossa_pair_view pair = {
        .ta = rec, .tb = rec + 8, .sa = sa, .sb = sb, .qa = rec + 4, .qb = rec + 12,
        .theta = rec[3], .inv_sin = rec[11],
        .rot = nlerp ? OSSA_PAIR_NLERP : rec[3] == 0.0f ? OSSA_PAIR_LINEAR : OSSA_PAIR_SLERP,
    };
    return ossa_extrap_factor(&pair, f);
}

static int sample_job_run_impl(const ossa_sample_job *job)
{
    if (!sample_job_validate_impl(job))
        return 0;
    const ossa_rt_clip *c = job->clip;
    ossa_sample_cache *cache = job->cache;
    if (cache && cache->clip != c) {
        ossa_sample_cache_reset(cache);
        cache->clip = c;
    }
    ossa_soa_pose *o = job->output;
    float time = job->time;
    int clamp = job->wrap == OSSA_WRAP_CLAMP || job->wrap == OSSA_WRAP_PINGPONG;
    int loop = job->wrap == OSSA_WRAP_LOOP && c->loop_key;
    int nlerp = job->rot == OSSA_ROT_NLERP;
#ifdef OSSA_ANIM_HAVE_AVX2
    /* The eight-lane path covers slerp on tracks without scales. */
    int wide = !nlerp && !c->has_scales && ossa_anim_has_avx2();
    float *const dst[7] = {o->tx, o->ty, o->tz, o->qx, o->qy, o->qz, o->qw};
#endif
    /* Uniform clips: one key search for all tracks (only the first track's cursor is kept: a
     * cache serving this clip always comes here); track i's pair is a fixed stride further.
     * Outside the keys each track limits the factor by its own pair: the general path below
     * does that (rare; it finds the same pair again). */
    float f_all = 0.0f;
    int copy_all = 0, extrap = 0;
    uint32_t pair = 0;
    if (c->uniform)
        pair = locate(c, c->tracks, cache ? &cache->cursor[0] : NULL, time, clamp, loop, &f_all,
                      &copy_all, &extrap);
    if (c->uniform && __builtin_expect(!extrap, 1)) {
        const float *rec0 = c->pairs + OSSA_RT_PAIR_FLOATS * (size_t)pair;
        size_t stride = OSSA_RT_PAIR_FLOATS * (size_t)c->tracks[0].key_count;
#ifdef OSSA_ANIM_HAVE_AVX2
        /* The pair's rows in the lane-major table (built for uniform clips without scales,
         * the clips `wide` covers). */
        const float *lanes0 =
            c->lanes ? c->lanes + (size_t)pair * OSSA_RT_PAIR_FLOATS * c->lane_stride : NULL;
#endif
        float fl[2 * OSSA_RT_LANES];
        int copies[OSSA_RT_LANES];
        for (uint32_t j = 0; j < 2 * OSSA_RT_LANES; j++)
            fl[j] = f_all;
        for (uint32_t j = 0; j < OSSA_RT_LANES; j++)
            copies[j] = copy_all;
        for (uint32_t base = 0; base < c->track_count;) {
            const float *rec[2 * OSSA_RT_LANES];
            uint32_t left = c->track_count - base;
#ifdef OSSA_ANIM_HAVE_AVX2
            if (wide && !copy_all && left >= 2 * OSSA_RT_LANES) {
                uint32_t gb = c->group_bone[base / OSSA_RT_LANES];
                if (gb != UINT32_MAX &&
                    c->group_bone[base / OSSA_RT_LANES + 1] == gb + OSSA_RT_LANES) {
                    if (lanes0) {
                        interp8_lanes(lanes0 + base, c->lane_stride, f_all, dst, gb);
                    } else {
                        for (uint32_t j = 0; j < 2 * OSSA_RT_LANES; j++)
                            rec[j] = rec0 + (base + j) * stride;
                        interp8(rec, fl, dst, gb);
                    }
                    base += 2 * OSSA_RT_LANES;
                    continue;
                }
            }
#endif
            uint32_t lanes = left < OSSA_RT_LANES ? left : OSSA_RT_LANES;
            for (uint32_t j = 0; j < lanes; j++)
                rec[j] = rec0 + (base + j) * stride;
            interp_group(c, base, lanes, rec, fl, copies, copy_all, nlerp, o);
            base += OSSA_RT_LANES;
        }
        return 1;
    }
    /* Blocks of tracks: first every track's key search (scalar, branchy), then the
     * interpolation four tracks at a time (branch-free, so the groups overlap). */
    enum { BLOCK = 32 };
    const float *rec_block[BLOCK];
    float f_block[BLOCK];
    int copy_block[BLOCK];
    uint32_t a = 0;
    float f = 0.0f;
    int copy = 0;
    for (uint32_t start = 0; start < c->track_count; start += BLOCK) {
        uint32_t end = c->track_count - start < BLOCK ? c->track_count : start + BLOCK;
        int any_copy = 0, any_extrap = 0;
        for (uint32_t i = start; i < end; i++) {
            const ossa_rt_track *tr = c->tracks + i;
            uint32_t *cursor = cache ? &cache->cursor[i] : NULL;
            /* The same key times as the track before give the same pair, factor and copy. */
            if (!tr->same_times)
                a = locate(c, tr, cursor, time, clamp, loop, &f, &copy, &any_extrap);
            else if (cursor)
                *cursor = a;
            rec_block[i - start] = c->pairs + OSSA_RT_PAIR_FLOATS * (size_t)(tr->pair_first + a);
            f_block[i - start] = f;
            copy_block[i - start] = copy;
            any_copy |= copy;
        }
        /* Factors outside their pairs, each limited by its own track's pair (rare; kept out
         * of the loop above, which stays free of calls). */
        if (__builtin_expect(any_extrap, 0))
            for (uint32_t i = start; i < end; i++)
                if (ossa_factor_extrapolates(f_block[i - start]))
                    f_block[i - start] = rt_extrap_factor(c, c->tracks + i, rec_block[i - start],
                                                          f_block[i - start], nlerp);
        for (uint32_t base = start; base < end;) {
#ifdef OSSA_ANIM_HAVE_AVX2
            /* Eight tracks of eight bones in order at once. */
            if (wide && !any_copy && end - base >= 2 * OSSA_RT_LANES) {
                uint32_t gb = c->group_bone[base / OSSA_RT_LANES];
                if (gb != UINT32_MAX &&
                    c->group_bone[base / OSSA_RT_LANES + 1] == gb + OSSA_RT_LANES) {
                    interp8(rec_block + (base - start), f_block + (base - start), dst, gb);
                    base += 2 * OSSA_RT_LANES;
                    continue;
                }
            }
#endif
            interp_group(c, base, end - base < OSSA_RT_LANES ? end - base : OSSA_RT_LANES,
                         rec_block + (base - start), f_block + (base - start),
                         copy_block + (base - start), any_copy, nlerp, o);
            base += OSSA_RT_LANES;
        }
    }
    return 1;
}

float ossa_playback_time(float duration, float time, ossa_wrap wrap)
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
    case OSSA_WRAP_CLAMP:
        return time < 0.0f ? 0.0f : time > duration ? duration : time;
    case OSSA_WRAP_EXTRAPOLATE:
        return time;
    case OSSA_WRAP_LOOP:
    default: {
        float w = fmodf(time, duration);
        if (w < 0.0f)
            w += duration;
        return w >= duration ? 0.0f : w;
    }
    }
}

/* The first reason a sample job is invalid, into err; called only when the quick check failed. */
static ossa_status sample_job_explain(const ossa_sample_job *job, ossa_error *err)
{
    const ossa_status bad = OSSA_ERR_INVALID_ARGUMENT;
    if (!job || !job->clip || !job->output)
        return ossa_error_fail(err, bad, "sample job: %s is NULL",
                               !job ? "job" : !job->clip ? "clip" : "output");
    if (!job->output->block)
        return ossa_error_fail(err, bad, "sample job: output pose has no arrays (not created)");
    if (job->cache && job->cache->capacity < job->clip->track_count)
        return ossa_error_fail(err, bad, "sample job: cache holds %u tracks, the clip has %u",
                               job->cache->capacity, job->clip->track_count);
    if ((unsigned)job->wrap > OSSA_WRAP_PINGPONG)
        return ossa_error_fail(err, bad, "sample job: wrap %u is not an ossa_wrap",
                               (unsigned)job->wrap);
    if ((unsigned)job->rot > OSSA_ROT_NLERP)
        return ossa_error_fail(err, bad, "sample job: rot %u is not an ossa_rot_interp",
                               (unsigned)job->rot);
    return ossa_error_fail(err, bad, "sample job: output pose has %u bones, the clip needs %u "
                           "(its highest animated bone + 1)", job->output->bone_count, job->clip->bone_limit);
}

/* The public calls return a status; the implementations above keep their 1 / 0, and the error
 * record is only written on failure. */
ossa_status ossa_sample_job_validate(const ossa_sample_job *job, ossa_error *err)
{
    return sample_job_validate_impl(job) ? OSSA_OK : sample_job_explain(job, err);
}

ossa_status ossa_sample_job_run(const ossa_sample_job *job, ossa_error *err)
{
    return sample_job_run_impl(job) ? OSSA_OK : sample_job_explain(job, err);
}
