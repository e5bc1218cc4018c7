/* ossa-view's actions without a window (viewer/app.c, no SDL, no GL): an app on the demo model
 * (walk 1 s, wave 2 s, idle 2 s, all looping) driven by keys, buttons, motion and the wheel as
 * abstract input, checking the playback, camera, display and cross-fade state each one leaves. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "input.h"
#include "demo.h"
#include "script.h"
#include "test_common.h"

/* What the app asked of the window side, counted. */
typedef struct hook_log {
    int titles, skinning_changes, picks;
    int64_t clip_under_mouse;   /* what clip_at answers */
    bool wheel_over_clips;      /* what clip_wheel answers */
    float pick_x, pick_y;
} hook_log;

/* The app first, so a hook finds the log from the app's address. */
typedef struct logged_app {
    view_app app;
    hook_log log;
} logged_app;

static hook_log *log_of(view_app *app)
{
    return &((logged_app *)app)->log;
}

static void on_title(view_app *app)
{
    log_of(app)->titles++;
}

static void on_skinning(view_app *app)
{
    log_of(app)->skinning_changes++;
}

static int64_t on_clip_at(view_app *app, float x, float y)
{
    (void)x, (void)y;
    return log_of(app)->clip_under_mouse;
}

static bool on_clip_wheel(view_app *app, float x, float y, float notches)
{
    (void)x, (void)y, (void)notches;
    return log_of(app)->wheel_over_clips;
}

static void on_pick(view_app *app, float x, float y)
{
    hook_log *log = log_of(app);
    log->picks++;
    log->pick_x = x;
    log->pick_y = y;
}

static const view_app_ops test_ops = {
    .title_changed = on_title,
    .skinning_changed = on_skinning,
    .clip_at = on_clip_at,
    .clip_wheel = on_clip_wheel,
    .pick_joint = on_pick,
};

/* Key times of every track of clip c: the timeline's tick count. */
static uint32_t key_total(const ossa_model *m, uint32_t c)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < m->clips[c].track_count; k++)
        n += m->clips[c].tracks[k].key_count;
    return n;
}

/* Largest joint distance between the app's current pose and clip c posed alone at time t. */
static float pose_gap(const view_app *app, view_scene *probe, uint32_t c, float t)
{
    view_scene_pose(probe, c, t);
    float gap = 0.0f;
    for (uint32_t i = 0; i < 3 * app->cur.model->bone_count; i++)
        gap = fmaxf(gap, fabsf(probe->joints[i] - app->cur.scene.joints[i]));
    return gap;
}

static void press(view_app *app, int key, unsigned mods)
{
    view_app_key(app, key, mods);
}

int main(void)
{
    logged_app *logged = calloc(1, sizeof *logged); /* large: off the stack */
    if (!logged)
        return 1;
    view_app *app = &logged->app;
    hook_log *hooks = &logged->log;
    hooks->clip_under_mouse = -1;
    app->opt.frame_rate = OSSA_CLOCK_FRAME_RATE;
    app->opt.speed = 1.0f;
    app->opt.fade = VIEW_CROSSFADE_SECONDS;
    app->opt.mode = OSSA_WRAP_LOOP;
    app->ops = &test_ops;
    app->view_w = 800;
    app->view_h = 600;
    app->show_info = true;

    ossa_model *model;
    ossa_error e;
    if (ossa_demo_model(&model, &e) != OSSA_OK) {
        fprintf(stderr, "demo model: %s\n", e.message);
        free(logged);
        return 1;
    }
    char err[600];
    if (!view_model_init(&app->cur, model, app->opt.fade, err, sizeof err)) {
        fprintf(stderr, "view_model_init: %s\n", err);
        free(logged);
        return 1;
    }
    const ossa_model *m = app->cur.model;
    CHECK(m->clip_count == 3);
    CHECK(strcmp(app->cur.name, "built-in demo") == 0);
    CHECK(!app->cur.skeleton_only);
    CHECK(ossa_instance_mixer(app->cur.scene.instance) != NULL);
    CHECK_NEAR(app->cur.durations[0], 1.0, 1e-6);
    CHECK_NEAR(app->cur.durations[1], 2.0, 1e-6);

    view_scene probe;
    CHECK(view_scene_init(&probe, m));

    /* Start: clip 1 ("wave") at 0.5 s, as --clip 1 --time 0.5 would. */
    view_app_start_model(app, 1, 0.5f);
    CHECK(app->playback->clip == 1 && app->playback->playing);
    CHECK_NEAR(app->playback->time, 0.5, 1e-6);
    CHECK_NEAR(app->playback->duration, 2.0, 1e-6);
    CHECK(app->camera.up == VIEW_UP_Y); /* the demo is Y up */
    CHECK(app->selected_bone == -1 && app->clip_followed == UINT32_MAX);
    CHECK(app->ticks.key_count == key_total(m, 1));
    CHECK(app->time_jumped);
    CHECK(hooks->titles == 1);
    char title[600];
    view_app_title(app, title, sizeof title);
    CHECK(strcmp(title, "ossa-view - built-in demo - wave") == 0);
    view_app_start_model(app, 0, 0.0f);
    CHECK(app->playback->clip == 0 && app->playback->time == 0.0f);
    CHECK(app->ticks.key_count == key_total(m, 0));

    /* Time: a tick moves playback and clears the jump; the pose is the clip's own. */
    view_app_tick(app, 0.25f);
    CHECK_NEAR(app->playback->time, 0.25, 1e-6);
    CHECK_NEAR(app->clock, 0.25, 1e-9);
    CHECK(!app->time_jumped);
    CHECK(pose_gap(app, &probe, 0, 0.25f) < 1e-5f);
    view_app_tick(app, 0.875f); /* loops: 1.125 s into a 1 s clip */
    CHECK_NEAR(app->playback->time, 0.125, 1e-5);

    /* Space pauses (the title says so) and plays again. */
    int titles = hooks->titles;
    press(app, ' ', 0);
    CHECK(!app->playback->playing);
    CHECK(hooks->titles == titles + 1);
    view_app_title(app, title, sizeof title);
    CHECK(strcmp(title, "ossa-view - built-in demo - walk (paused)") == 0);
    view_app_tick(app, 0.5f);
    CHECK_NEAR(app->playback->time, 0.125, 1e-5);
    press(app, ' ', 0);
    CHECK(app->playback->playing);

    /* Frame steps pause on the 30 fps grid; Home, End (a loop's last frame is before its end). */
    press(app, VIEW_KEY_HOME, 0);
    CHECK(!app->playback->playing && app->playback->time == 0.0f && app->time_jumped);
    press(app, VIEW_KEY_RIGHT, 0);
    CHECK_NEAR(app->playback->time, 1.0 / 30.0, 1e-6);
    press(app, VIEW_KEY_UP, 0);
    CHECK(ossa_clock_frame(app->playback) == 11);
    press(app, VIEW_KEY_LEFT, 0);
    CHECK(ossa_clock_frame(app->playback) == 10);
    press(app, VIEW_KEY_END, 0);
    CHECK(ossa_clock_frame(app->playback) == 29);
    CHECK_NEAR(app->playback->time, 29.0 / 30.0, 1e-5);
    press(app, VIEW_KEY_RIGHT, 0); /* wraps round the loop's grid */
    CHECK(ossa_clock_frame(app->playback) == 0);
    press(app, VIEW_KEY_LEFT, VIEW_MOD_SHIFT); /* Shift+Left: first frame */
    CHECK(app->playback->time == 0.0f);
    press(app, ' ', 0);

    /* Speed: ] doubles up to 16, [ halves down to 1/16 and then turns into reverse. */
    press(app, ']', 0);
    CHECK_NEAR(app->playback->speed, 2.0, 0);
    for (int i = 0; i < 10; i++)
        press(app, ']', 0);
    CHECK_NEAR(app->playback->speed, OSSA_CLOCK_SPEED_MAX, 0);
    for (int i = 0; i < 8; i++)
        press(app, '[', 0);
    CHECK_NEAR(app->playback->speed, OSSA_CLOCK_SPEED_MIN, 0);
    press(app, '-', 0);
    CHECK_NEAR(app->playback->speed, -OSSA_CLOCK_SPEED_MIN, 0);
    for (int i = 0; i < 20; i++)
        press(app, VIEW_KEY_KP_MINUS, 0);
    CHECK_NEAR(app->playback->speed, -OSSA_CLOCK_SPEED_MAX, 0);
    for (int i = 0; i < 8; i++)
        press(app, '=', 0);
    CHECK_NEAR(app->playback->speed, -OSSA_CLOCK_SPEED_MIN, 0);
    press(app, VIEW_KEY_BACKSPACE, 0); /* reverse */
    CHECK_NEAR(app->playback->speed, OSSA_CLOCK_SPEED_MIN, 0);
    for (int i = 0; i < 4; i++)
        press(app, ']', 0);
    CHECK_NEAR(app->playback->speed, 1.0, 0);
    press(app, VIEW_KEY_BACKSPACE, 0);
    CHECK_NEAR(app->playback->speed, -1.0, 0);
    ossa_clock_seek(app->playback, 0.5f);
    view_app_tick(app, 0.125f); /* backwards */
    CHECK_NEAR(app->playback->time, 0.375, 1e-5);
    press(app, VIEW_KEY_BACKSPACE, 0);
    CHECK_NEAR(app->playback->speed, 1.0, 0);

    /* L: loop -> ping-pong -> once -> loop. */
    press(app, 'L', 0);
    CHECK(app->playback->wrap == OSSA_WRAP_PINGPONG);
    press(app, 'L', 0);
    CHECK(app->playback->wrap == OSSA_WRAP_CLAMP);
    press(app, 'L', 0);
    CHECK(app->playback->wrap == OSSA_WRAP_LOOP);

    /* Clips: Tab next, Shift+Tab previous, both wrapping; digits pick one, past the end
     * nothing. Every change fades from where the old clip was. */
    ossa_clock_seek(app->playback, 0.4f);
    press(app, VIEW_KEY_TAB, 0);
    CHECK(app->playback->clip == 1 && app->playback->time == 0.0f);
    CHECK_NEAR(app->playback->duration, 2.0, 1e-6);
    uint32_t from = OSSA_INSTANCE_NO_CLIP;
    CHECK(ossa_instance_fading(app->cur.scene.instance, &from) && from == 0);
    CHECK(app->time_jumped);
    CHECK(app->ticks.key_count == key_total(m, 1));
    view_app_title(app, title, sizeof title);
    CHECK(strcmp(title, "ossa-view - built-in demo - wave") == 0);
    /* Mid-fade: the old clip runs on at its own pace and the pose is a blend, not the new
     * clip's alone. */
    view_app_tick(app, 0.1f);
    CHECK(ossa_instance_fading(app->cur.scene.instance, NULL));
    CHECK_NEAR(app->playback->time, 0.1, 1e-5);
    ossa_mixer *fade_mixer = ossa_instance_mixer(app->cur.scene.instance);
    float w_old = ossa_mixer_weight(fade_mixer, 0);
    float w_new = ossa_mixer_weight(fade_mixer, 1);
    CHECKF(w_old > 0.0f && w_new > 0.0f && w_new < 1.0f, "weights %g %g", (double)w_old,
           (double)w_new);
    CHECKF(pose_gap(app, &probe, 1, 0.1f) > 1e-4f, "mid-fade pose is the new clip's alone");
    /* Past the fade's 0.25 s the new clip shows alone. */
    for (int i = 0; i < 4; i++)
        view_app_tick(app, 0.05f);
    CHECK(!ossa_instance_fading(app->cur.scene.instance, NULL));
    CHECK_NEAR(app->playback->time, 0.3, 1e-5);
    CHECK(pose_gap(app, &probe, 1, app->playback->time) < 1e-5f);

    press(app, VIEW_KEY_TAB, 0);
    CHECK(app->playback->clip == 2);
    press(app, VIEW_KEY_TAB, 0); /* wraps to the first */
    CHECK(app->playback->clip == 0);
    press(app, VIEW_KEY_TAB, VIEW_MOD_SHIFT); /* and back to the last */
    CHECK(app->playback->clip == 2);
    press(app, '2', 0);
    CHECK(app->playback->clip == 1 && ossa_instance_fading(app->cur.scene.instance, &from) &&
          from == 2);
    press(app, '9', 0); /* no clip 9: nothing */
    CHECK(app->playback->clip == 1 && ossa_instance_fading(app->cur.scene.instance, &from) &&
          from == 2);
    view_app_switch_clip(app, 1); /* the same clip: no fade restarts */
    CHECK(ossa_instance_fading(app->cur.scene.instance, &from) && from == 2);
    press(app, '1', 0);
    CHECK(app->playback->clip == 0 && ossa_instance_fading(app->cur.scene.instance, &from) &&
          from == 1);
    for (int i = 0; i < 10; i++)
        view_app_tick(app, 0.05f);
    CHECK(!ossa_instance_fading(app->cur.scene.instance, NULL));

    /* Display toggles, the HUD, help, the skinning path (the window names GPU notes). */
    press(app, 'B', 0);
    press(app, 'J', 0);
    press(app, 'W', 0);
    press(app, 'N', 0);
    press(app, 'P', 0);
    press(app, 'G', 0);
    CHECK(app->display.bones && app->display.joint_names && app->display.wireframe &&
          app->display.normals && app->display.bind_pose && app->display.grid);
    press(app, 'W', 0);
    CHECK(!app->display.wireframe);
    press(app, VIEW_KEY_F1, 0);
    CHECK(app->show_help);
    press(app, 'H', 0);
    CHECK(!app->show_help);
    CHECK(app->display.skinning == VIEW_SKIN_CPU);
    press(app, 'K', 0);
    CHECK(app->display.skinning == VIEW_SKIN_GPU && hooks->skinning_changes == 1);
    press(app, 'K', 0);
    CHECK(app->display.skinning == VIEW_SKIN_CPU && hooks->skinning_changes == 2);
    press(app, 'B', VIEW_MOD_CTRL); /* Ctrl combinations belong to the desktop */
    CHECK(app->display.bones);

    /* Scrubbing: a press on the timeline holds playback and seeks to the time under it, motion
     * follows, the release gives playback back. */
    view_timeline tl;
    view_timeline_layout(&tl, app->view_w, app->view_h);
    float ty = 0.5f * (tl.y0 + tl.y1);
    CHECK(app->playback->playing);
    view_app_button(app, VIEW_BUTTON_LEFT, true, tl.x0 + 0.5f * (tl.x1 - tl.x0), ty);
    CHECK(app->scrubbing && !app->playback->playing);
    CHECK_NEAR(app->playback->time, 0.5, 1e-4);
    view_app_motion(app, tl.x0 + 0.25f * (tl.x1 - tl.x0), -10.0f, 0.0f);
    CHECK_NEAR(app->playback->time, 0.25, 1e-4);
    view_app_motion(app, tl.x1 + 50.0f, 10.0f, 0.0f); /* past the end of a loop: just before */
    CHECK(app->playback->time < 1.0f && app->playback->time > 0.999f);
    view_app_button(app, VIEW_BUTTON_LEFT, false, tl.x1 + 50.0f, ty);
    CHECK(!app->scrubbing && app->playback->playing);
    CHECK(hooks->picks == 0); /* a scrub picks no joint */
    /* Without the HUD the timeline is not there: the press starts an orbit instead. */
    press(app, 'I', 0);
    CHECK(!app->show_info);
    view_app_button(app, VIEW_BUTTON_LEFT, true, tl.x0 + 5.0f, ty);
    CHECK(!app->scrubbing && app->drag_button == VIEW_BUTTON_LEFT);
    view_app_button(app, VIEW_BUTTON_LEFT, false, tl.x0 + 5.0f, ty);
    press(app, 'I', 0);
    CHECK(hooks->picks == 1); /* a click without motion picks */

    /* Camera: a left drag orbits (and then picks nothing), a right drag pans, the wheel zooms
     * unless it is over the clip panel, R resets the angles. */
    float yaw0 = app->camera.yaw, pitch0 = app->camera.pitch;
    view_app_button(app, VIEW_BUTTON_LEFT, true, 400.0f, 200.0f);
    CHECK(app->drag_button == VIEW_BUTTON_LEFT && !app->drag_moved);
    view_app_motion(app, 440.0f, 40.0f, 10.0f);
    CHECK(app->drag_moved && app->camera.yaw != yaw0 && app->camera.pitch != pitch0);
    view_app_button(app, VIEW_BUTTON_LEFT, false, 440.0f, 210.0f);
    CHECK(hooks->picks == 1 && app->drag_button == 0);
    view_app_button(app, VIEW_BUTTON_LEFT, true, 300.0f, 250.0f);
    view_app_button(app, VIEW_BUTTON_LEFT, false, 300.0f, 250.0f);
    CHECK(hooks->picks == 2 && hooks->pick_x == 300.0f && hooks->pick_y == 250.0f);
    float target0[3];
    memcpy(target0, app->camera.target, sizeof target0);
    view_app_button(app, VIEW_BUTTON_RIGHT, true, 300.0f, 250.0f);
    view_app_motion(app, 330.0f, 30.0f, 0.0f);
    view_app_button(app, VIEW_BUTTON_RIGHT, false, 330.0f, 250.0f);
    CHECK(memcmp(target0, app->camera.target, sizeof target0) != 0);
    CHECK(hooks->picks == 2); /* only the left button picks */
    float distance = app->camera.distance;
    view_app_wheel(app, 400.0f, 300.0f, 2.0f);
    CHECK(app->camera.distance < distance);
    distance = app->camera.distance;
    hooks->wheel_over_clips = true;
    view_app_wheel(app, 400.0f, 300.0f, 2.0f);
    CHECK(app->camera.distance == distance);
    hooks->wheel_over_clips = false;
    press(app, 'R', 0);
    CHECK(app->camera.yaw == yaw0 && app->camera.pitch == pitch0);
    press(app, 'F', 0);
    CHECK(app->camera.frame_pending);

    /* A click on a row of the clip panel changes clip there. */
    hooks->clip_under_mouse = 2;
    titles = hooks->titles;
    view_app_button(app, VIEW_BUTTON_LEFT, true, 700.0f, 100.0f);
    view_app_button(app, VIEW_BUTTON_LEFT, false, 700.0f, 100.0f);
    CHECK(app->playback->clip == 2 && ossa_instance_fading(app->cur.scene.instance, NULL));
    CHECK(hooks->titles > titles);
    CHECK(hooks->picks == 2); /* the panel click was no pick */
    hooks->clip_under_mouse = -1;

    /* Messages last six seconds of the app's clock. */
    view_app_message(app, "cannot open: x.cfg");
    CHECK(strcmp(view_app_message_now(app), "cannot open: x.cfg") == 0);
    view_app_tick(app, 5.0f);
    CHECK(strcmp(view_app_message_now(app), "cannot open: x.cfg") == 0);
    view_app_tick(app, 1.5f);
    CHECK(strcmp(view_app_message_now(app), "") == 0);

    /* Escape quits. */
    CHECK(!app->quit);
    press(app, VIEW_KEY_ESCAPE, 0);
    CHECK(app->quit);

    /* A headless app with no hooks at all does the same without a window. */
    app->ops = NULL;
    app->quit = false;
    press(app, VIEW_KEY_TAB, 0);
    CHECK(app->playback->clip == 0);
    press(app, 'K', 0);
    CHECK(app->display.skinning == VIEW_SKIN_GPU);
    view_app_button(app, VIEW_BUTTON_LEFT, true, 10.0f, 10.0f);
    view_app_button(app, VIEW_BUTTON_LEFT, false, 10.0f, 10.0f);
    CHECK(hooks->picks == 2);
    distance = app->camera.distance;
    view_app_wheel(app, 400.0f, 300.0f, -1.0f);
    CHECK(app->camera.distance > distance);

    view_scene_free(&probe);
    view_model_release(&app->cur);
    CHECK(app->cur.model == NULL);
    free(logged);
    return test_finish("viewer-app");
}
