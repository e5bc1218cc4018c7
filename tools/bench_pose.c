/* ossa bench's pose figures: sample + local_to_model + palette of a synthetic skeleton, the same
 * through the mixer, and libcal3d's updateAnimation + updateSkeleton on the same clip. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_model.h"
#include "bench_report.h"
#include "ossa/mixer.h"
#include "ossa/pose.h"
#include "ossa/sample.h"
#ifdef OSSA_BENCH_CAL3D
#include "bench_cal3d.h"
#endif

#define FRAME_DT (1.0f / 60.0f)
static const uint32_t pose_bones[POSE_SIZES] = {64, 256};

typedef struct pose_ctx {
    ossa_rt_skeleton *skel;
    ossa_rt_clip *clip;
    ossa_sample_cache *cache;
    ossa_mixer *mixer;
    ossa_soa_pose local, model;
    float *palette;
    size_t palette_floats;
    float duration;
    double time;
    int failed;
#ifdef OSSA_BENCH_CAL3D
    bench_cal3d *cal;
#endif
} pose_ctx;

static void pose_ltm_palette(pose_ctx *p)
{
    ossa_ltm_job ltm = {p->skel, &p->local, &p->model};
    ossa_palette_job pal = {p->skel, &p->model, p->palette, p->palette_floats};
    p->failed |= ossa_ltm_job_run(&ltm, NULL) != OSSA_OK ||
                 ossa_palette_job_run(&pal, NULL) != OSSA_OK;
}

/* Sample (cursor cache, playing forward a frame at a time) + local_to_model + palette. */
static void pose_sample_once(void *v)
{
    pose_ctx *p = v;
    p->time += FRAME_DT;
    ossa_sample_job job = {p->clip, p->cache,
                           ossa_playback_time(p->duration, (float)p->time, OSSA_WRAP_LOOP),
                           OSSA_WRAP_LOOP, OSSA_ROT_SLERP, &p->local};
    p->failed |= ossa_sample_job_run(&job, NULL) != OSSA_OK;
    pose_ltm_palette(p);
}

/* The same through the mixer (one cycle): Cal3D's updateAnimation + updateSkeleton path. */
static void pose_mixer_once(void *v)
{
    pose_ctx *p = v;
    ossa_mixer_update(p->mixer, FRAME_DT);
    p->failed |= ossa_mixer_evaluate(p->mixer, &p->local, NULL) != OSSA_OK;
    pose_ltm_palette(p);
}

#ifdef OSSA_BENCH_CAL3D
static void pose_cal3d_once(void *v)
{
    pose_ctx *p = v;
    bench_cal3d_pose(p->cal, FRAME_DT);
}
#endif

static void pose_ctx_release(pose_ctx *p)
{
    ossa_mixer_destroy(p->mixer);
    ossa_sample_cache_destroy(p->cache);
    ossa_rt_clip_destroy(p->clip);
    ossa_rt_skeleton_destroy(p->skel);
    ossa_soa_pose_destroy(&p->local);
    ossa_soa_pose_destroy(&p->model);
    free(p->palette);
#ifdef OSSA_BENCH_CAL3D
    bench_cal3d_free(p->cal);
#endif
}

int bench_pose(const bench_opts *o, bench_report *r, size_t which)
{
    pose_result *res = &r->pose[which];
    res->bones = pose_bones[which];
    bench_model_params params = {0, 0, res->bones, 31, 2.0f, BENCH_SEED + res->bones, 1};
    ossa_model *m = NULL;
    ossa_error err;
    if (bench_synthetic_model(&params, &m, &err) != OSSA_OK) {
        fprintf(stderr, "ossa bench: %s\n", err.message);
        return 0;
    }
    pose_ctx p;
    memset(&p, 0, sizeof p);
    int ok = ossa_rt_skeleton_create(m, &p.skel, &err) == OSSA_OK &&
             ossa_rt_clip_create(m, &m->clips[0], &p.clip, &err) == OSSA_OK &&
             ossa_sample_cache_create(m->clips[0].track_count, &p.cache, &err) == OSSA_OK &&
             ossa_mixer_create(m, NULL, &p.mixer, &err) == OSSA_OK &&
             ossa_soa_pose_create(m->bone_count, &p.local, NULL) == OSSA_OK &&
             ossa_soa_pose_create(m->bone_count, &p.model, NULL) == OSSA_OK;
    p.palette_floats = 12 * (size_t)m->bone_count;
    p.palette = ok ? malloc(p.palette_floats * sizeof(float)) : NULL;
    p.duration = m->clips[0].duration;
    if (!ok || !p.palette) {
        fprintf(stderr, "ossa bench: pose set-up failed: %s\n", err.message);
        pose_ctx_release(&p);
        ossa_model_destroy(m);
        return 0;
    }
    ossa_rt_skeleton_rest(p.skel, &p.local, NULL);
    ok = ossa_mixer_blend_cycle(p.mixer, 0, 1.0f, 0.0f, NULL) == OSSA_OK;
    ossa_mixer_update(p.mixer, 0.0f);
    bench_subject subs[3] = {{.fn = pose_sample_once, .ctx = &p},
                             {.fn = pose_mixer_once, .ctx = &p}};
    size_t n = 2;
#ifdef OSSA_BENCH_CAL3D
    char msg[256];
    p.cal = bench_cal3d_new(m, 0, msg, sizeof msg);
    if (p.cal) {
        subs[n++] = (bench_subject){.fn = pose_cal3d_once, .ctx = &p};
        res->has_cal3d = 1;
    } else {
        snprintf(r->cal3d_note, sizeof r->cal3d_note, "%s", msg);
    }
#endif
    bench_measure_rounds(subs, n, o->runs, &r->load);
    res->ossa = bench_timing_of(&subs[0], o->runs);
    res->mixer = bench_timing_of(&subs[1], o->runs);
    if (res->has_cal3d) {
        res->cal3d = bench_timing_of(&subs[2], o->runs);
        res->speedup = bench_median_ratio(subs[2].samples, subs[0].samples, o->runs);
        res->mixer_speedup = bench_median_ratio(subs[2].samples, subs[1].samples, o->runs);
    }
    if (!ok || p.failed)
        fprintf(stderr, "ossa bench: a pose job failed (%u bones)\n", res->bones);
    ok = ok && !p.failed;
    pose_ctx_release(&p);
    ossa_model_destroy(m);
    return ok;
}
