/* Runtime sampling: the cursor cache equals binary search and ossa_sample_clip bit for bit
 * (forward play, seeks, backwards, ping-pong, every time mode), playback wrap modes, nlerp vs
 * slerp, and Cal3D assets when present. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "anim_fixture.h"
#include "test_common.h"

/* Samples clip at time with the runtime (with and without a cache) and with
 * ossa_sample_clip; all three must hold identical bits. */
static void compare_at(const ossa_model *m, uint32_t ci, const ossa_rt_clip *rc,
                       ossa_sample_cache *cache, float time, ossa_wrap mode,
                       ossa_soa_pose *a, ossa_soa_pose *b, float *t, float *r, float *s,
                       float *t2, float *r2, float *s2, long *checked)
{
    ossa_pose_rest(m, t, r, s, m->bone_count, NULL);
    ossa_sample_clip(m, &m->clips[ci], time, mode, t, r, s, m->bone_count, NULL);
    ossa_soa_pose_from_aos(a, t, r, s, m->bone_count, NULL);
    ossa_soa_pose_from_aos(b, t, r, s, m->bone_count, NULL);
    ossa_sample_job job = {.clip = rc, .cache = cache, .time = time, .wrap = mode,
                           .rot = OSSA_ROT_SLERP, .output = a};
    CHECK(ossa_sample_job_run(&job, NULL) == OSSA_OK);
    job.cache = NULL;
    job.output = b;
    CHECK(ossa_sample_job_run(&job, NULL) == OSSA_OK);
    ossa_soa_pose_to_aos(a, t2, r2, s2, a->bone_count, NULL);
    uint32_t n = m->bone_count;
    int same = !memcmp(t, t2, 12 * n) && !memcmp(r, r2, 16 * n) && !memcmp(s, s2, 12 * n);
    CHECKF(same, "cached runtime != ossa_sample_clip at t=%g mode %d", time, (int)mode);
    ossa_soa_pose_to_aos(b, t2, r2, s2, b->bone_count, NULL);
    same = !memcmp(t, t2, 12 * n) && !memcmp(r, r2, 16 * n) && !memcmp(s, s2, 12 * n);
    CHECKF(same, "uncached runtime != ossa_sample_clip at t=%g mode %d", time, (int)mode);
    (*checked)++;
}

static void sweep_model(const ossa_model *m, long *checked)
{
    uint32_t n = m->bone_count;
    ossa_soa_pose a, b;
    CHECK(ossa_soa_pose_create(n, &a, NULL) == OSSA_OK);
    CHECK(ossa_soa_pose_create(n, &b, NULL) == OSSA_OK);
    float *buf = calloc((size_t)n * 20 + 1, sizeof(float));
    float *t = buf, *r = t + 3 * n, *s = r + 4 * n, *t2 = s + 3 * n, *r2 = t2 + 3 * n,
          *s2 = r2 + 4 * n;
    for (uint32_t ci = 0; ci < m->clip_count; ci++) {
        ossa_rt_clip *rc;
        ossa_error err;
        CHECK(ossa_rt_clip_create(m, &m->clips[ci], &rc, &err) == OSSA_OK);
        ossa_sample_cache *cache = NULL;
        CHECK(ossa_sample_cache_create(OSSA_SAMPLE_CACHE_MAX_TRACKS + 1, &cache, &err) ==
              OSSA_ERR_INVALID_ARGUMENT && !cache && strstr(err.message, "above the cap"));
        CHECK(ossa_sample_cache_create(ossa_rt_clip_track_count(rc), &cache, &err) == OSSA_OK);
        float d = m->clips[ci].duration;
        for (int mode = OSSA_WRAP_EXTRAPOLATE; mode <= OSSA_WRAP_PINGPONG; mode++) {
            /* forward play past both ends */
            for (float time = -0.3f * d; time <= 1.3f * d; time += d / 97.0f)
                compare_at(m, ci, rc, cache, time, (ossa_wrap)mode, &a, &b, t, r, s, t2,
                           r2, s2, checked);
            /* backwards */
            for (float time = 1.1f * d; time >= -0.1f * d; time -= d / 53.0f)
                compare_at(m, ci, rc, cache, time, (ossa_wrap)mode, &a, &b, t, r, s, t2,
                           r2, s2, checked);
            /* ping-pong playback over three periods, and random seeks */
            for (float pt = 0; pt < 6 * d; pt += d / 31.0f)
                compare_at(m, ci, rc, cache, ossa_playback_time(d, pt, OSSA_WRAP_PINGPONG),
                           (ossa_wrap)mode, &a, &b, t, r, s, t2, r2, s2, checked);
            uint32_t rng = 12345;
            for (int k = 0; k < 60; k++) {
                rng = rng * 1664525u + 1013904223u;
                float time = -0.2f * d + 1.4f * d * (float)(rng >> 8) / (float)(1u << 24);
                compare_at(m, ci, rc, cache, time, (ossa_wrap)mode, &a, &b, t, r, s, t2,
                           r2, s2, checked);
            }
            /* exactly on keys, and the loop key */
            const ossa_track *tr0 = &m->clips[ci].tracks[0];
            for (uint32_t k = 0; k < tr0->key_count; k++)
                compare_at(m, ci, rc, cache, tr0->times[k], (ossa_wrap)mode, &a, &b, t, r,
                           s, t2, r2, s2, checked);
            compare_at(m, ci, rc, cache, d, (ossa_wrap)mode, &a, &b, t, r, s, t2, r2, s2,
                       checked);
        }
        ossa_sample_cache_destroy(cache);
        ossa_rt_clip_destroy(rc);
    }
    free(buf);
    ossa_soa_pose_destroy(&a);
    ossa_soa_pose_destroy(&b);
}

static void test_wrap(void)
{
    CHECK_NEAR(ossa_playback_time(2.0f, 5.0f, OSSA_WRAP_LOOP), 1.0f, 1e-6);
    CHECK_NEAR(ossa_playback_time(2.0f, -0.5f, OSSA_WRAP_LOOP), 1.5f, 1e-6);
    CHECK(ossa_playback_time(2.0f, 4.0f, OSSA_WRAP_LOOP) == 0.0f);
    CHECK_NEAR(ossa_playback_time(2.0f, 0.5f, OSSA_WRAP_PINGPONG), 0.5f, 1e-6);
    CHECK_NEAR(ossa_playback_time(2.0f, 2.5f, OSSA_WRAP_PINGPONG), 1.5f, 1e-6);
    CHECK_NEAR(ossa_playback_time(2.0f, 3.5f, OSSA_WRAP_PINGPONG), 0.5f, 1e-6);
    CHECK_NEAR(ossa_playback_time(2.0f, 4.5f, OSSA_WRAP_PINGPONG), 0.5f, 1e-6);
    CHECK_NEAR(ossa_playback_time(2.0f, -0.5f, OSSA_WRAP_PINGPONG), 0.5f, 1e-6);
    CHECK(ossa_playback_time(2.0f, 2.0f, OSSA_WRAP_PINGPONG) == 2.0f);
    CHECK(ossa_playback_time(2.0f, 7.0f, OSSA_WRAP_CLAMP) == 2.0f);
    CHECK(ossa_playback_time(2.0f, -1.0f, OSSA_WRAP_CLAMP) == 0.0f);
    CHECK(ossa_playback_time(2.0f, 1.25f, OSSA_WRAP_CLAMP) == 1.25f);
    CHECK(ossa_playback_time(2.0f, 7.0f, OSSA_WRAP_EXTRAPOLATE) == 7.0f);
    CHECK(ossa_playback_time(2.0f, -1.5f, OSSA_WRAP_EXTRAPOLATE) == -1.5f);
    CHECK(ossa_playback_time(2.0f, NAN, OSSA_WRAP_LOOP) == 0.0f);
    CHECK(ossa_playback_time(0.0f, 1.0f, OSSA_WRAP_PINGPONG) == 0.0f);
    /* the loop mode agrees with the scalar API's wrap */
    ossa_clip c = {.duration = 1.7f};
    for (float x = -5; x < 5; x += 0.37f)
        CHECK(ossa_playback_time(1.7f, x, OSSA_WRAP_LOOP) == ossa_clip_wrap_time(&c, x));
}

/* nlerp: unit length, equal to slerp at the keys, close in between, same hemisphere. */
static void test_nlerp(const ossa_model *m)
{
    ossa_rt_clip *rc;
    ossa_error err;
    CHECK(ossa_rt_clip_create(m, &m->clips[0], &rc, &err) == OSSA_OK);
    ossa_soa_pose a, b;
    CHECK(ossa_soa_pose_create(m->bone_count, &a, NULL) == OSSA_OK);
    CHECK(ossa_soa_pose_create(m->bone_count, &b, NULL) == OSSA_OK);
    const ossa_track *tr0 = &m->clips[0].tracks[0];
    double worst = 0;
    for (float time = tr0->times[0]; time <= tr0->times[tr0->key_count - 1]; time += 0.01f) {
        ossa_sample_job job = {.clip = rc, .time = time, .output = &a};
        CHECK(ossa_sample_job_run(&job, NULL) == OSSA_OK);
        job.rot = OSSA_ROT_NLERP;
        job.output = &b;
        CHECK(ossa_sample_job_run(&job, NULL) == OSSA_OK);
        /* Track 0 only: its key range is the one swept, others may extrapolate. */
        for (uint32_t k = 0; k < 1; k++) {
            uint32_t bn = ossa_rt_clip_track_bone(rc, k);
            double len = sqrt((double)b.qx[bn] * b.qx[bn] + (double)b.qy[bn] * b.qy[bn] +
                              (double)b.qz[bn] * b.qz[bn] + (double)b.qw[bn] * b.qw[bn]);
            CHECK_NEAR(len, 1.0, 1e-5);
            double dot = (double)a.qx[bn] * b.qx[bn] + (double)a.qy[bn] * b.qy[bn] +
                         (double)a.qz[bn] * b.qz[bn] + (double)a.qw[bn] * b.qw[bn];
            CHECK(dot > 0.99);
            worst = fmax(worst, 1.0 - dot);
            CHECK(a.tx[bn] == b.tx[bn]); /* translation is the same lerp */
        }
    }
    CHECK(worst > 1e-7); /* nlerp really differs from slerp between keys */
    /* On a key, both give the key. */
    ossa_sample_job job = {.clip = rc, .time = tr0->times[4], .rot = OSSA_ROT_NLERP,
                           .output = &b};
    CHECK(ossa_sample_job_run(&job, NULL) == OSSA_OK);
    CHECK_NEAR(b.qx[tr0->bone], tr0->rotations[16], 1e-6);
    CHECK_NEAR(b.qw[tr0->bone], tr0->rotations[19], 1e-6);
    /* Sampling a ping-pong time is sampling it clamped, past the keys too. */
    job.rot = OSSA_ROT_SLERP;
    job.time = 1e3f;
    job.wrap = OSSA_WRAP_CLAMP;
    job.output = &a;
    CHECK(ossa_sample_job_run(&job, NULL) == OSSA_OK);
    job.wrap = OSSA_WRAP_PINGPONG;
    job.output = &b;
    CHECK(ossa_sample_job_run(&job, NULL) == OSSA_OK);
    CHECK(memcmp(a.block, b.block, (size_t)a.capacity * 10 * sizeof(float)) == 0);
    CHECK(b.qw[tr0->bone] == tr0->rotations[4 * tr0->key_count - 1]);
    job.output = &b;
    /* invalid jobs are refused */
    job.wrap = (ossa_wrap)7;
    CHECK(ossa_sample_job_run(&job, NULL) != OSSA_OK);
    ossa_soa_pose small;
    CHECK(ossa_soa_pose_create(1, &small, NULL) == OSSA_OK);
    job.wrap = OSSA_WRAP_EXTRAPOLATE;
    job.output = &small;
    CHECK(ossa_sample_job_validate(&job, NULL) != OSSA_OK);
    ossa_soa_pose_destroy(&small);
    ossa_rt_clip_destroy(rc);
    ossa_soa_pose_destroy(&a);
    ossa_soa_pose_destroy(&b);
}

static void test_assets(long *checked)
{
    const char *dir = test_assets_dir();
    if (!dir)
        return;
    const char *cfgs[] = {"cal3d/cally/cally.cfg", "cal3d/paladin/paladin.cfg"};
    const char *anims[][3] = {{"cally_walk.caf", "cally_jog.caf", "cally_wave.caf"},
                              {"paladin_walk.caf", "paladin_jog.caf", "paladin_wave.caf"}};
    for (int i = 0; i < 2; i++) {
        char base[2048];
        snprintf(base, sizeof base, "%s/%s", dir, cfgs[i]);
        *strrchr(base, '/') = 0;
        const char *files[4];
        char bufs[4][4200];
        snprintf(bufs[0], sizeof bufs[0], "%s/%s", base, i ? "paladin.csf" : "cally.csf");
        files[0] = bufs[0];
        for (int k = 0; k < 3; k++) {
            snprintf(bufs[k + 1], sizeof bufs[k + 1], "%s/%s", base, anims[i][k]);
            files[k + 1] = bufs[k + 1];
        }
        ossa_model *m = NULL;
        ossa_error err;
        ossa_status st = ossa_load_files(files, 4, NULL, &m, &err);
        CHECKF(st == OSSA_OK, "%s: %s", files[0], err.message);
        if (st != OSSA_OK)
            continue;
        CHECK(m->clip_count == 3);
        sweep_model(m, checked);
        ossa_model_destroy(m);
    }
}

/* A clip keying every bone with many keys and no scales, so that whole blocks of tracks take
 * the eight-lane path where the CPU has AVX2 (the fixture's one-key track 1 would send its
 * block to the four-lane path: it is given track 2's keys). Random rotations make slerp angles
 * large enough for the sine's range reduction too. */
static void test_wide(long *checked)
{
    fixture f;
    fixture_random(&f, 4242, 83, 2, 9, 0);
    ossa_track *tr = (ossa_track *)f.model.clips[1].tracks;
    CHECK(f.model.clips[1].track_count == 83 && tr[1].key_count == 1);
    tr[1].key_count = tr[2].key_count;
    tr[1].times = tr[2].times;
    tr[1].translations = tr[2].translations;
    tr[1].rotations = tr[2].rotations;
    sweep_model(&f.model, checked);
    fixture_free(&f);
}

/* Uniform clips (every track keyed at the same times): one key search for all tracks, and
 * without scales the lane-major pair table, eight tracks of consecutive bones at once where the
 * CPU has AVX2. Clip 1 keys all 83 bones (ten blocks of eight and a tail of three), clip 0
 * every other bone (no block of consecutive bones: the records' path). */
static void test_uniform(long *checked)
{
    fixture f;
    fixture_random(&f, 5151, 83, 2, 9, 0);
    for (uint32_t ci = 0; ci < f.model.clip_count; ci++) {
        ossa_track *tr = (ossa_track *)f.model.clips[ci].tracks;
        tr[1].key_count = tr[0].key_count;
        tr[1].translations = tr[2].translations;
        tr[1].rotations = tr[2].rotations;
        for (uint32_t i = 1; i < f.model.clips[ci].track_count; i++)
            tr[i].times = tr[0].times;
    }
    sweep_model(&f.model, checked);
    fixture_free(&f);
}

int main(void)
{
    long checked = 0;
    test_wrap();
    fixture f;
    fixture_random(&f, 7, 40, 2, 12, 1);
    sweep_model(&f.model, &checked);
    test_nlerp(&f.model);
    fixture_free(&f);
    fixture_random(&f, 99, 5, 2, 2, 0); /* two-key tracks */
    sweep_model(&f.model, &checked);
    fixture_free(&f);
    test_wide(&checked);
    test_uniform(&checked);
    test_assets(&checked);
    printf("%ld samples compared\n", checked);
    CHECK(checked > 1000);
    return test_finish("anim-sampler");
}
