/* Mixer weight arithmetic on a hand-built model whose clips hold constant poses, so every
 * blended value is known exactly: fades, synchronised durations, actions' envelopes and
 * auto-lock, layering (actions first, cycles fill the rest, lone animations at 100%, rest pose
 * for untouched bones), clearCycle, capacities and morph weights. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "anim_fixture.h"
#include "test_common.h"

static const float ident[4] = {0, 0, 0, 1};

typedef struct scene {
    ossa_model model;
    ossa_bone bones[3];
    ossa_clip clips[3];
    ossa_track tracks[4];
    float times[4][1], trans[4][3];
    ossa_morph_clip morph_clips[2];
    ossa_morph_track morph_tracks[3];
    float mtimes[3][2], mweights[3][2];
    ossa_mesh mesh;
    ossa_submesh sub;
    ossa_morph_target targets[2];
} scene;

static void track(scene *s, int k, uint32_t bone, float x, float y)
{
    s->times[k][0] = 0.0f;
    s->trans[k][0] = x;
    s->trans[k][1] = y;
    s->trans[k][2] = 0.0f;
    s->tracks[k] = (ossa_track){.bone = bone, .key_count = 1, .times = s->times[k],
                                .translations = s->trans[k], .rotations = ident};
}

/* Bones: 0 root, 1 its child, 2 never animated (rest t = (0, 0, 7)).
 * Clip 0 "A" (1 s): bone 0 at x = 1, bone 1 at y = 1. Clip 1 "B" (2 s): bone 0 at x = 3.
 * Clip 2 "C" (1 s, the action): bone 0 at x = 10.
 * Morph clips: 0 keys "smile" 0.5; 1 keys "blink" 1 and "smile" 0.9 (constant). */
static void make_scene(scene *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 3; i++) {
        s->bones[i].name = i == 0 ? "root" : i == 1 ? "child" : "free";
        s->bones[i].parent = i == 0 ? -1 : 0;
        s->bones[i].rest_r[3] = 1;
        s->bones[i].rest_s[0] = s->bones[i].rest_s[1] = s->bones[i].rest_s[2] = 1;
        s->bones[i].inv_bind_r[3] = 1;
    }
    s->bones[2].rest_t[2] = 7;
    track(s, 0, 0, 1, 0);
    track(s, 1, 1, 0, 1);
    track(s, 2, 0, 3, 0);
    track(s, 3, 0, 10, 0);
    s->clips[0] = (ossa_clip){.name = "A", .duration = 1, .track_count = 2, .tracks = s->tracks};
    s->clips[1] = (ossa_clip){.name = "B", .duration = 2, .track_count = 1,
                              .tracks = s->tracks + 2};
    s->clips[2] = (ossa_clip){.name = "C", .duration = 1, .track_count = 1,
                              .tracks = s->tracks + 3};
    const char *names[3] = {"smile", "blink", "smile"};
    const float w[3] = {0.5f, 1.0f, 0.9f};
    for (int k = 0; k < 3; k++) {
        s->mtimes[k][1] = 1;
        s->mweights[k][0] = s->mweights[k][1] = w[k];
        s->morph_tracks[k] = (ossa_morph_track){.morph_name = names[k], .key_count = 2,
                                                .times = s->mtimes[k],
                                                .weights = s->mweights[k]};
    }
    s->morph_clips[0] = (ossa_morph_clip){.name = "m0", .duration = 1, .track_count = 1,
                                          .tracks = s->morph_tracks};
    s->morph_clips[1] = (ossa_morph_clip){.name = "m1", .duration = 1, .track_count = 2,
                                          .tracks = s->morph_tracks + 1};
    s->targets[0].name = "blink";
    s->targets[1].name = "smile";
    s->sub.morph_count = 2;
    s->sub.morphs = s->targets;
    s->mesh.submesh_count = 1;
    s->mesh.submeshes = &s->sub;
    s->model = (ossa_model){.bone_count = 3, .bones = s->bones, .clip_count = 3,
                            .clips = s->clips, .morph_clip_count = 2,
                            .morph_clips = s->morph_clips, .mesh_count = 1,
                            .meshes = &s->mesh, .scale = 1};
}

static ossa_mixer *new_mixer(const scene *s, uint32_t max_cycles)
{
    ossa_mixer *mx = NULL;
    ossa_error err;
    ossa_mixer_desc d = {.max_cycles = max_cycles};
    CHECK(ossa_mixer_create(&s->model, &d, &mx, &err) == OSSA_OK);
    return mx;
}

static void eval(ossa_mixer *mx, ossa_soa_pose *p)
{
    CHECK(ossa_mixer_evaluate(mx, p, NULL) == OSSA_OK);
}

static void test_lone_and_two_cycles(const scene *s, ossa_soa_pose *p)
{
    ossa_mixer *mx = new_mixer(s, 0);
    CHECK(ossa_mixer_blend_cycle(mx, 0, 0.3f, 0, NULL) == OSSA_OK);
    ossa_mixer_update(mx, 0);
    CHECK_NEAR(ossa_mixer_weight(mx, 0), 0.3, 1e-7);
    eval(mx, p);
    CHECK_NEAR(p->tx[0], 1.0, 1e-7); /* a lone animation at 0.3 shows at 100% */
    CHECK_NEAR(p->ty[1], 1.0, 1e-7);
    CHECK_NEAR(p->tz[2], 7.0, 1e-7); /* untouched: rest pose */
    CHECK_NEAR(ossa_mixer_duration(mx), 1.0, 1e-7);
    /* B newest at 0.7: bone 0 = 3 then A folded in at 0.3 / (0.7 + 0.3) */
    CHECK(ossa_mixer_blend_cycle(mx, 1, 0.7f, 0, NULL) == OSSA_OK);
    ossa_mixer_update(mx, 0);
    eval(mx, p);
    CHECK_NEAR(p->tx[0], 3.0 + 0.3 * (1.0 - 3.0), 1e-6);
    CHECK_NEAR(p->ty[1], 1.0, 1e-7); /* only A animates bone 1 */
    CHECK_NEAR(ossa_mixer_duration(mx), (0.3 * 1 + 0.7 * 2) / 1.0, 1e-6);
    /* the synchronised clock wraps with the weighted duration */
    ossa_mixer_update(mx, 1.0f);
    CHECK_NEAR(ossa_mixer_time(mx), 1.0, 1e-6);
    ossa_mixer_update(mx, 1.0f);
    CHECK_NEAR(ossa_mixer_time(mx), 2.0 - 1.7, 1e-5);
    CHECK(ossa_mixer_active_count(mx) == 2);
    ossa_mixer_destroy(mx);
}

static void test_fade(const scene *s, ossa_soa_pose *p)
{
    ossa_mixer *mx = new_mixer(s, 0);
    CHECK(ossa_mixer_blend_cycle(mx, 0, 1, 0, NULL) == OSSA_OK);
    ossa_mixer_update(mx, 0);
    CHECK(ossa_mixer_blend_cycle(mx, 1, 1, 1.0f, NULL) == OSSA_OK);
    ossa_mixer_update(mx, 0.25f); /* f = 0.25 / 1 */
    CHECK_NEAR(ossa_mixer_weight(mx, 1), 0.25, 1e-7);
    eval(mx, p);
    CHECK_NEAR(p->tx[0], 3.0 + (1.0 / 1.25) * (1.0 - 3.0), 1e-6);
    ossa_mixer_update(mx, 0.25f); /* f = 0.25 / 0.75 */
    CHECK_NEAR(ossa_mixer_weight(mx, 1), 0.5, 1e-6);
    ossa_mixer_update(mx, 0.5f); /* delay reached */
    CHECK(ossa_mixer_weight(mx, 1) == 1.0f);
    /* fade A out: removed when it reaches 0 */
    CHECK(ossa_mixer_blend_cycle(mx, 0, 0, 0.5f, NULL) == OSSA_OK);
    ossa_mixer_update(mx, 0.25f);
    CHECK_NEAR(ossa_mixer_weight(mx, 0), 0.5, 1e-6);
    ossa_mixer_update(mx, 0.25f);
    CHECK(ossa_mixer_active_count(mx) == 1);
    CHECK(!ossa_mixer_is_active(mx, 0) && ossa_mixer_weight(mx, 0) == 0.0f);
    eval(mx, p);
    CHECK_NEAR(p->tx[0], 3.0, 1e-7);
    CHECK_NEAR(p->ty[1], 0.0, 1e-7); /* bone 1 back to its rest pose */
    ossa_mixer_destroy(mx);
}

static void test_clear_cycle(const scene *s, ossa_soa_pose *p)
{
    ossa_mixer *mx = new_mixer(s, 0);
    CHECK(ossa_mixer_blend_cycle(mx, 0, 1, 0, NULL) == OSSA_OK);
    CHECK(ossa_mixer_blend_cycle(mx, 1, 1, 0, NULL) == OSSA_OK);
    ossa_mixer_update(mx, 0);
    ossa_mixer_update(mx, 0.3f);
    CHECK_NEAR(ossa_mixer_duration(mx), 1.5, 1e-6);
    CHECK(ossa_mixer_clear_cycle(mx, 1, 1.0f, NULL) == OSSA_OK);
    CHECK(ossa_mixer_clear_cycle(mx, 2, 1.0f, NULL) == OSSA_OK); /* inactive: nothing to do */
    ossa_mixer_update(mx, 0.5f);
    /* B left the synchronised group: the duration is A's alone */
    CHECK_NEAR(ossa_mixer_duration(mx), 1.0, 1e-6);
    CHECK_NEAR(ossa_mixer_weight(mx, 1), 0.5, 1e-6);
    eval(mx, p);
    CHECK_NEAR(p->tx[0], 3.0 + (1.0 / 1.5) * (1.0 - 3.0), 1e-6);
    ossa_mixer_update(mx, 0.5f);
    CHECK(ossa_mixer_active_count(mx) == 1);
    /* capacity: two cycles at most */
    ossa_mixer_destroy(mx);
    mx = new_mixer(s, 2);
    CHECK(ossa_mixer_blend_cycle(mx, 0, 1, 0, NULL) == OSSA_OK);
    CHECK(ossa_mixer_blend_cycle(mx, 1, 1, 0, NULL) == OSSA_OK);
    ossa_error err = {0};
    CHECK(ossa_mixer_blend_cycle(mx, 2, 1, 0, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err.message, "all 2 cycle slots are in use"), "%s", err.message);
    CHECK(ossa_mixer_blend_cycle(mx, 0, 0.5f, 0, NULL) == OSSA_OK); /* retarget, no new slot */
    CHECK(ossa_mixer_blend_cycle(mx, 9, 1, 0, &err) != OSSA_OK);
    CHECKF(strstr(err.message, "id 9 of 5 animations"), "%s", err.message);
    CHECK(ossa_mixer_blend_cycle(mx, 0, NAN, 0, &err) != OSSA_OK);
    CHECKF(strstr(err.message, "weight is not finite"), "%s", err.message);
    ossa_mixer_destroy(mx);
}

static void test_action(const scene *s, ossa_soa_pose *p, int auto_lock)
{
    ossa_mixer *mx = new_mixer(s, 0);
    CHECK(ossa_mixer_blend_cycle(mx, 0, 1, 0, NULL) == OSSA_OK);
    CHECK(ossa_mixer_execute_action(mx, 2, 0.5f, 0.3f, 0.8f, auto_lock, NULL) == OSSA_OK);
    ossa_mixer_update(mx, 0);
    CHECK(ossa_mixer_weight(mx, 2) == 0.0f && ossa_mixer_is_active(mx, 2));
    ossa_mixer_update(mx, 0.25f); /* fade in: 0.25 / 0.5 x 0.8 */
    CHECK_NEAR(ossa_mixer_weight(mx, 2), 0.4, 1e-6);
    eval(mx, p);
    /* action first at 0.4, the cycle fills the remaining 0.6 */
    CHECK_NEAR(p->tx[0], 10.0 + 0.6 * (1.0 - 10.0), 1e-5);
    CHECK_NEAR(p->ty[1], 1.0, 1e-7);
    ossa_mixer_update(mx, 0.3f); /* steady */
    CHECK_NEAR(ossa_mixer_weight(mx, 2), 0.8, 1e-6);
    eval(mx, p);
    CHECK_NEAR(p->tx[0], 10.0 + 0.2 * (1.0 - 10.0), 1e-5);
    ossa_mixer_update(mx, 0.2f); /* t = 0.75: fading out, 0.25 / 0.3 x 0.8 */
    if (!auto_lock) {
        CHECK_NEAR(ossa_mixer_weight(mx, 2), 0.25 / 0.3 * 0.8, 1e-5);
        ossa_mixer_update(mx, 0.3f);
        CHECK(!ossa_mixer_is_active(mx, 2)); /* ended and removed */
        CHECK(ossa_mixer_active_count(mx) == 1);
    } else {
        CHECK_NEAR(ossa_mixer_weight(mx, 2), 0.8, 1e-6);
        ossa_mixer_update(mx, 5.0f); /* held on its last frame */
        CHECK_NEAR(ossa_mixer_weight(mx, 2), 0.8, 1e-6);
        eval(mx, p);
        CHECK_NEAR(p->tx[0], 10.0 + 0.2 * (1.0 - 10.0), 1e-5);
        CHECK(ossa_mixer_remove_action(mx, 2, NULL) == OSSA_OK);
        CHECK(ossa_mixer_remove_action(mx, 2, NULL) != OSSA_OK);
        eval(mx, p);
        CHECK_NEAR(p->tx[0], 1.0, 1e-6);
    }
    /* two actions at full weight: averaged within their layer, the cycle gets nothing */
    CHECK(ossa_mixer_execute_action(mx, 2, 0, 0, 1, 0, NULL) == OSSA_OK);
    CHECK(ossa_mixer_execute_action(mx, 1, 0, 0, 1, 0, NULL) == OSSA_OK);
    ossa_mixer_update(mx, 0.1f);
    eval(mx, p);
    CHECK_NEAR(p->tx[0], 3.0 + 0.5 * (10.0 - 3.0), 1e-5);
    CHECK_NEAR(p->ty[1], 1.0, 1e-7); /* bone 1: actions leave it to the cycle */
    ossa_mixer_destroy(mx);
}

static void test_morph(const scene *s)
{
    ossa_mixer *mx = new_mixer(s, 0);
    float w[2] = {-1, -1};
    CHECK(ossa_mixer_morph_weights(mx, 0, 0, w, 2, NULL) == OSSA_OK);
    CHECK(w[0] == 0.0f && w[1] == 0.0f);
    uint32_t m0 = ossa_mixer_morph_id(mx, 0), m1 = ossa_mixer_morph_id(mx, 1);
    CHECK(m0 == 3 && m1 == 4);
    CHECK(ossa_mixer_blend_cycle(mx, m0, 0.3f, 0, NULL) == OSSA_OK);
    ossa_mixer_update(mx, 0);
    CHECK(ossa_mixer_morph_weights(mx, 0, 0, w, 2, NULL) == OSSA_OK);
    CHECK_NEAR(w[1], 0.5, 1e-7); /* smile, shown at 100% */
    CHECK(w[0] == 0.0f);         /* blink: nothing plays it */
    CHECK(ossa_mixer_execute_action(mx, m1, 0, 0, 0.5f, 1, NULL) == OSSA_OK);
    ossa_mixer_update(mx, 0.1f);
    CHECK(ossa_mixer_morph_weights(mx, 0, 0, w, 2, NULL) == OSSA_OK);
    CHECK_NEAR(w[0], 1.0, 1e-6);                    /* blink: the action alone */
    /* smile: the action at 0.5, then the cycle's 0.3 (under the 0.5 left) folded in */
    CHECK_NEAR(w[1], 0.9 + 0.3 / 0.8 * (0.5 - 0.9), 1e-6);
    CHECK(ossa_mixer_morph_weights(mx, 1, 0, w, 2, NULL) != OSSA_OK);
    /* an out array one weight short is refused, named with both sizes, and left untouched */
    ossa_error err = {0};
    w[0] = w[1] = -1.0f;
    CHECK(ossa_mixer_morph_weights(mx, 0, 0, w, 1, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err.message, "out holds 1 weights") && strstr(err.message, "2 morph targets"),
           "%s", err.message);
    CHECK(w[0] == -1.0f && w[1] == -1.0f);
    ossa_mixer_destroy(mx);
}

/* One cycle and no action (the mixer samples straight into the pose): at every frame of a
 * fade-in, bit for bit the runtime sampler at the cycle's time over the rest pose, for a clip
 * of every other bone and one of every bone; then a second cycle joins (the general path) and
 * leaves again. */
static void test_single_cycle_path(void)
{
    fixture f;
    fixture_random(&f, 31, 37, 2, 9, 0);
    const ossa_model *m = &f.model;
    uint32_t n = m->bone_count;
    ossa_soa_pose got, want;
    CHECK(ossa_soa_pose_create(n, &got, NULL) == OSSA_OK);
    CHECK(ossa_soa_pose_create(n, &want, NULL) == OSSA_OK);
    for (uint32_t id = 0; id < 2; id++) {
        ossa_mixer *mx = NULL;
        ossa_rt_clip *rc = NULL;
        ossa_error err;
        CHECK(ossa_mixer_create(m, NULL, &mx, &err) == OSSA_OK);
        CHECK(ossa_rt_clip_create(m, &m->clips[id], &rc, &err) == OSSA_OK);
        CHECK(ossa_mixer_blend_cycle(mx, id, 0.6f, 0.5f, NULL) == OSSA_OK);
        int compared = 0;
        for (int frame = 0; frame < 60; frame++) {
            if (frame == 20)
                CHECK(ossa_mixer_blend_cycle(mx, 1 - id, 0.5f, 0.0f, NULL) == OSSA_OK);
            if (frame == 30)
                CHECK(ossa_mixer_clear_cycle(mx, 1 - id, 0.0f, NULL) == OSSA_OK);
            ossa_mixer_update(mx, 0.07f);
            CHECK(ossa_mixer_evaluate(mx, &got, NULL) == OSSA_OK);
            if (frame >= 20 && frame <= 30)
                continue; /* two cycles blend */
            /* CalMixer::updateSkeleton's time of a synchronised cycle. */
            float d = m->clips[id].duration, md = ossa_mixer_duration(mx);
            float t = md == 0.0f ? 0.0f : ossa_mixer_time(mx) * d / md;
            ossa_rt_skeleton_rest(ossa_mixer_skeleton(mx), &want, NULL);
            ossa_sample_job job = {.clip = rc, .time = t, .wrap = OSSA_WRAP_LOOP,
                                   .output = &want};
            CHECK(ossa_sample_job_run(&job, NULL) == OSSA_OK);
            size_t bytes = (size_t)want.capacity * 10 * sizeof(float);
            CHECKF(!memcmp(got.block, want.block, bytes),
                   "clip %u frame %d: single-cycle mixer != sampler at t=%g", id, frame, t);
            compared++;
        }
        CHECK(compared == 49);
        CHECK(ossa_mixer_weight(mx, id) > 0.59f);
        ossa_rt_clip_destroy(rc);
        ossa_mixer_destroy(mx);
    }
    ossa_soa_pose_destroy(&got);
    ossa_soa_pose_destroy(&want);
    fixture_free(&f);
}

int main(void)
{
    scene s;
    make_scene(&s);
    ossa_soa_pose p;
    CHECK(ossa_soa_pose_create(3, &p, NULL) == OSSA_OK);
    test_lone_and_two_cycles(&s, &p);
    test_fade(&s, &p);
    test_clear_cycle(&s, &p);
    test_action(&s, &p, 0);
    test_action(&s, &p, 1);
    test_morph(&s);
    test_single_cycle_path();
    ossa_soa_pose_destroy(&p);
    return test_finish("anim-mixer");
}
