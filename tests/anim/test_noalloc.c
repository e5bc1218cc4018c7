/* No allocation per frame: the allocator is wrapped at link time (-Wl,--wrap=...; libossa is
 * static, so its calls are wrapped too) and counted while sampling, posing and mixing run for
 * many frames. A test-only counter is the one piece of mutable static state here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim_fixture.h"
#include "demo.h"
#include "test_common.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t a, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_aligned_alloc(size_t a, size_t n);
void __wrap_free(void *p);

static struct {
    int armed;
    long calls;
} counter;

void *__wrap_malloc(size_t n)
{
    counter.calls += counter.armed;
    return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t m)
{
    counter.calls += counter.armed;
    return __real_calloc(n, m);
}

void *__wrap_realloc(void *p, size_t n)
{
    counter.calls += counter.armed;
    return __real_realloc(p, n);
}

void *__wrap_aligned_alloc(size_t a, size_t n)
{
    counter.calls += counter.armed;
    return __real_aligned_alloc(a, n);
}

void __wrap_free(void *p)
{
    counter.calls += counter.armed && p;
    __real_free(p);
}

static void run_frames(const ossa_model *m)
{
    uint32_t n = m->bone_count;
    ossa_error err;
    ossa_rt_skeleton *sk = NULL;
    ossa_rt_clip *rc = NULL;
    ossa_sample_cache *cache = NULL;
    ossa_mixer *mx = NULL;
    ossa_soa_pose local, model;
    float *palette = calloc(12 * (size_t)n + 1, sizeof(float));
    CHECK(ossa_rt_skeleton_create(m, &sk, &err) == OSSA_OK);
    CHECK(ossa_rt_clip_create(m, &m->clips[0], &rc, &err) == OSSA_OK);
    CHECK(ossa_sample_cache_create(ossa_rt_clip_track_count(rc), &cache, &err) == OSSA_OK);
    CHECK(ossa_mixer_create(m, NULL, &mx, &err) == OSSA_OK);
    CHECK(ossa_soa_pose_create(n, &local, NULL) == OSSA_OK);
    CHECK(ossa_soa_pose_create(n, &model, NULL) == OSSA_OK);
    if (!sk || !rc || !cache || !mx || !palette)
        return;

    /* The calls being checked do allocate nothing at all; a probe proves the counter works. */
    counter.armed = 1;
    __wrap_free(__wrap_malloc(16));
    CHECK(counter.calls == 2);
    counter.calls = 0;

    float d = ossa_rt_clip_duration(rc);
    float mw[8];
    long frames = 0;
    for (int f = 0; f < 400; f++, frames++) {
        /* sampling with the cursor cache: forward, then a seek backwards every 50 frames */
        float time = f % 50 == 49 ? 0.1f * d : ossa_playback_time(d, 0.013f * (float)f,
                                                                     f < 200 ? OSSA_WRAP_LOOP
                                                                             : OSSA_WRAP_PINGPONG);
        ossa_rt_skeleton_rest(sk, &local, NULL);
        ossa_sample_job sj = {.clip = rc, .cache = cache, .time = time,
                              .wrap = (ossa_wrap)(f % 3), .rot = (ossa_rot_interp)(f % 2),
                              .output = &local};
        CHECK(ossa_sample_job_run(&sj, NULL) == OSSA_OK);
        ossa_ltm_job lj = {.skeleton = sk, .local = &local, .model = &model};
        CHECK(ossa_ltm_job_run(&lj, NULL) == OSSA_OK);
        ossa_palette_job pj = {.skeleton = sk, .model = &model, .palette = palette,
                               .palette_floats = 12 * (size_t)n};
        CHECK(ossa_palette_job_run(&pj, NULL) == OSSA_OK);
        /* the mixer: cycles, cross-fades, actions, clears */
        if (f % 100 == 0)
            CHECK(ossa_mixer_blend_cycle(mx, 0, 1.0f, 0.2f, NULL) == OSSA_OK);
        if (f % 100 == 10 && m->clip_count > 1)
            CHECK(ossa_mixer_blend_cycle(mx, 1, 0.5f, 0.3f, NULL) == OSSA_OK);
        if (f % 100 == 30)
            CHECK(ossa_mixer_execute_action(mx, m->clip_count - 1, 0.1f, 0.1f, 0.7f, f == 130,
                                            NULL) == OSSA_OK);
        if (f % 100 == 70 && m->clip_count > 1)
            CHECK(ossa_mixer_clear_cycle(mx, 1, 0.2f, NULL) == OSSA_OK);
        if (f == 350)
            ossa_mixer_remove_action(mx, m->clip_count - 1, NULL);
        ossa_mixer_update(mx, 0.016f);
        CHECK(ossa_mixer_evaluate(mx, &local, NULL) == OSSA_OK);
        if (m->mesh_count && m->meshes[0].submesh_count && m->meshes[0].submeshes[0].morph_count <= 8)
            CHECK(ossa_mixer_morph_weights(mx, 0, 0, mw, 8, NULL) == OSSA_OK);
        CHECK(ossa_ltm_job_run(&lj, NULL) == OSSA_OK);
        CHECK(ossa_palette_job_run(&pj, NULL) == OSSA_OK);
    }
    counter.armed = 0;
    CHECKF(counter.calls == 0, "%ld allocator calls in %ld frames", counter.calls, frames);
    printf("%u bones, %ld frames: %ld allocator calls\n", n, frames, counter.calls);
    /* the frames really posed something */
    CHECK(isfinite(palette[0]) && isfinite(palette[12 * (size_t)n - 1]));
    ossa_soa_pose_destroy(&local);
    ossa_soa_pose_destroy(&model);
    ossa_mixer_destroy(mx);
    ossa_sample_cache_destroy(cache);
    ossa_rt_clip_destroy(rc);
    ossa_rt_skeleton_destroy(sk);
    free(palette);
}

/* The character instance: play, update, seek, manual posing, springs and skinning into spans
 * made beforehand allocate nothing either. */
static void run_instance(const ossa_model *m)
{
    ossa_error err;
    ossa_instance *inst = NULL;
    CHECK(ossa_instance_create(m, NULL, &inst, &err) == OSSA_OK);
    uint32_t parts = inst ? ossa_instance_part_count(inst) : 0;
    ossa_instance_span *spans = calloc(parts + 1, sizeof *spans);
    CHECK(spans != NULL);
    for (uint32_t i = 0; spans && i < parts; i++) {
        ossa_instance_part p;
        CHECK(ossa_instance_part_info(inst, i, &p, NULL) == OSSA_OK);
        spans[i].positions = malloc(3 * ((size_t)p.output_count + 1) * sizeof(float));
        spans[i].normals = malloc(3 * ((size_t)p.output_count + 1) * sizeof(float));
        spans[i].capacity = p.output_count;
    }
    if (!inst || !spans)
        return;
    counter.calls = 0;
    counter.armed = 1;
    long frames = 0;
    for (int f = 0; f < 200; f++, frames++) {
        if (f % 50 == 0 && m->clip_count)
            CHECK(ossa_instance_play(inst, (uint32_t)(f / 50) % m->clip_count, 0.3f, &err) ==
                  OSSA_OK);
        if (f == 120)
            ossa_instance_seek(inst, 0.4f);
        if (f == 170) {
            ossa_instance_pose_clip(inst, 0, 0.2f);
            ossa_instance_set_morph_time(inst, 0.2f);
            ossa_instance_springs_reset(inst);
        }
        ossa_instance_update(inst, 1.0f / 60.0f);
        CHECK(ossa_instance_skin(inst, 0, parts, spans, &err) == OSSA_OK);
        for (uint32_t k = 0; k < m->mount_count; k++) {
            float t[3], r[4], s[3];
            ossa_instance_mount(inst, k, false, t, r, s, NULL);
        }
    }
    counter.armed = 0;
    CHECKF(counter.calls == 0, "instance: %ld allocator calls in %ld frames", counter.calls,
           frames);
    printf("instance: %u parts, %ld frames: %ld allocator calls\n", parts, frames, counter.calls);
    for (uint32_t i = 0; i < parts; i++) {
        free(spans[i].positions);
        free(spans[i].normals);
    }
    free(spans);
    ossa_instance_destroy(inst);
}

int main(void)
{
    ossa_model *demo = NULL;
    ossa_error derr;
    CHECK(ossa_demo_model(&demo, &derr) == OSSA_OK);
    if (demo)
        run_instance(demo);
    ossa_model_destroy(demo);
    fixture f;
    fixture_random(&f, 5, 64, 3, 16, 1);
    run_frames(&f.model);
    fixture_free(&f);
    const char *dir = test_assets_dir();
    if (dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/cal3d/cally/cally.cfg", dir);
        ossa_model *m = NULL;
        ossa_error err;
        if (ossa_load_file(path, NULL, &m, &err) == OSSA_OK) {
            run_frames(m);
            run_instance(m); /* cally's ponytail has springs */
            ossa_model_destroy(m);
        }
    }
    return test_finish("anim-noalloc");
}
