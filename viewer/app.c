/* What ossa-view's actions do to its state (app.h), without GL or SDL: clip changes and their
 * cross-fades, playback keys, scrubbing, camera drags, the pose and springs of each tick, the
 * title and messages. What needs a window goes through app->ops. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "input.h"
#include "script.h"

#define MESSAGE_SECONDS 6.0
#define CROWD_MAX_THREADS 8

static void title_changed(view_app *app)
{
    if (app->ops && app->ops->title_changed)
        app->ops->title_changed(app);
}

void view_app_message(view_app *app, const char *text)
{
    size_t n = strlen(text);
    if (n >= sizeof app->message)
        n = sizeof app->message - 1; /* the HUD wraps long lines, it cannot show pages */
    memcpy(app->message, text, n);
    app->message[n] = '\0';
    app->message_until = app->clock + MESSAGE_SECONDS;
}

const char *view_app_message_now(const view_app *app)
{
    return app->clock < app->message_until ? app->message : "";
}

void view_model_release(view_model *vm)
{
    if (vm->crowd_ready)
        view_crowd_free(&vm->crowd);
    if (vm->scene_ready)
        view_scene_free(&vm->scene);
    free(vm->durations);
    free(vm->labels);
    ossa_model_destroy(vm->model);
    memset(vm, 0, sizeof *vm);
}

bool view_model_init(view_model *vm, ossa_model *model, float fade, char *err, size_t err_size)
{
    memset(vm, 0, sizeof *vm);
    vm->model = model;
    const ossa_model *m = vm->model;
    vm->durations = calloc(m->clip_count ? m->clip_count : 1, sizeof *vm->durations);
    vm->labels = calloc(m->bone_count ? m->bone_count : 1, sizeof *vm->labels);
    if (!vm->durations || !vm->labels || !view_scene_init(&vm->scene, m)) {
        snprintf(err, err_size, "out of memory for %s", m->source ? m->source : "the model");
        view_model_release(vm);
        return false;
    }
    vm->scene_ready = true;
    for (uint32_t i = 0; i < m->clip_count; i++)
        vm->durations[i] = m->clips[i].duration;
    vm->fade_seconds = fade > 0.0f && isfinite(fade) ? fade : VIEW_CROSSFADE_SECONDS;
    view_scene_bind_bounds(&vm->scene, vm->bind_min, vm->bind_max);
    const char *src = m->source && m->source[0] ? m->source : "model";
    const char *slash = strrchr(src, '/');
    /* A skeleton alone (or meshes that are all hidden) has nothing to draw but its bones. */
    vm->skeleton_only = m->bone_count > 0;
    for (uint32_t i = 0; i < vm->scene.part_count; i++)
        vm->skeleton_only &= vm->scene.hidden[i] || !vm->scene.parts[i].index_count;
    if (m->format == OSSA_FORMAT_DEMO)
        snprintf(vm->name, sizeof vm->name, "built-in demo");
    else
        snprintf(vm->name, sizeof vm->name, "%s (%s)", slash && slash[1] ? slash + 1 : src,
                 ossa_format_name(m->format));
    return true;
}

const ossa_clip *view_app_current_clip(const view_app *app)
{
    return app->playback->clip_count ? &app->cur.model->clips[app->playback->clip] : NULL;
}

void view_app_rebuild_ticks(view_app *app)
{
    memset(&app->ticks, 0, sizeof app->ticks);
    const ossa_clip *clip = view_app_current_clip(app);
    if (!clip)
        return;
    for (uint32_t k = 0; k < clip->track_count; k++)
        view_ticks_add(&app->ticks, clip->tracks[k].times, clip->tracks[k].key_count,
                       clip->duration);
}

void view_app_title(const view_app *app, char *out, size_t size)
{
    const ossa_clip *clip = view_app_current_clip(app);
    snprintf(out, size, "ossa-view - %s - %s%s", app->cur.name,
             clip ? (clip->name ? clip->name : "(clip)") : "rest pose",
             app->playback->playing ? "" : " (paused)");
}

/* What the camera frames: the crowd's grid, else the model's bind pose. */
static void framed_box(const view_app *app, const float **min, const float **max)
{
    *min = app->cur.crowd_ready ? app->cur.crowd.bounds_min : app->cur.bind_min;
    *max = app->cur.crowd_ready ? app->cur.crowd.bounds_max : app->cur.bind_max;
}

static void start_crowd(view_app *app, uint32_t clip, float time)
{
    view_model *vm = &app->cur;
    if (!app->opt.crowd || vm->crowd_ready)
        return;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t threads = cpus > CROWD_MAX_THREADS ? CROWD_MAX_THREADS : cpus > 1 ? (uint32_t)cpus : 1;
    char err[600];
    if (!view_crowd_init(&vm->crowd, vm->model, app->opt.crowd, VIEW_CROWD_SEED,
                         vm->scene.vertex_count, vm->bind_min, vm->bind_max, (int)app->camera.up,
                         threads, err, sizeof err)) {
        fprintf(stderr, "ossa-view: warning: no crowd: %s\n", err);
        return;
    }
    vm->crowd_ready = true;
    view_crowd_play(&vm->crowd, clip, 0.0f, time);
}

void view_app_start_model(view_app *app, uint32_t clip, float time)
{
    const ossa_model *m = app->cur.model;
    ossa_instance *inst = app->cur.scene.instance;
    app->playback = ossa_instance_clock(inst);
    ossa_clock_init(app->playback, m->clip_count, app->cur.durations);
    ossa_clock_set_frame_rate(app->playback, app->opt.frame_rate);
    ossa_clock_set_mode(app->playback, app->opt.mode);
    app->playback->speed = app->opt.speed;
    ossa_instance_seek_clock(inst, clip, time);
    if (app->opt.paused)
        app->playback->playing = false;
    app->time_jumped = true;
    view_camera_init(&app->camera);
    app->camera.up = app->opt.up != VIEW_UP_AUTO ? app->opt.up : view_camera_up_for_model(m);
    start_crowd(app, app->playback->clip, app->playback->time);
    const float *box_min, *box_max;
    framed_box(app, &box_min, &box_max);
    view_camera_reset(&app->camera, box_min, box_max);
    view_app_rebuild_ticks(app);
    if (app->cur.skeleton_only)
        app->display.bones = true;
    app->clip_first = 0;
    app->clip_followed = UINT32_MAX; /* the list shows the first clip played */
    app->selected_bone = -1;
    title_changed(app);
}

void view_app_update_pose(view_app *app)
{
    ossa_instance_show(app->cur.scene.instance);
    view_scene_sync(&app->cur.scene);
}

/* Time jumped (seek, scrub, frame step): the springs go to rest at the next tick, the crowd
 * seeks now, so what a state line or screenshot shows next follows at once. */
static void time_jump(view_app *app)
{
    app->time_jumped = true;
    if (app->cur.crowd_ready)
        view_crowd_seek(&app->cur.crowd, app->playback->time);
}

void view_app_switch_clip(view_app *app, uint32_t to)
{
    ossa_clock *p = app->playback;
    if (to >= p->clip_count || to == p->clip)
        return;
    app->time_jumped = true;
    ossa_instance_switch_clip(app->cur.scene.instance, to, app->cur.fade_seconds, NULL);
    if (app->cur.crowd_ready) {
        view_crowd_play(&app->cur.crowd, to, app->cur.fade_seconds, p->time);
        app->clip_switched = true;
    }
    view_app_rebuild_ticks(app);
}

void view_app_apply(view_app *app, view_action a)
{
    ossa_clock *p = app->playback;
    view_display *d = &app->display;
    switch (a.kind) {
    case VIEW_ACT_NONE: return;
    case VIEW_ACT_QUIT: app->quit = true; break;
    case VIEW_ACT_PLAY_PAUSE: ossa_clock_toggle(p); break;
    case VIEW_ACT_STEP:
        ossa_clock_step_frames(p, a.arg);
        time_jump(app);
        break;
    case VIEW_ACT_FIRST_FRAME:
        ossa_clock_first_frame(p);
        time_jump(app);
        break;
    case VIEW_ACT_LAST_FRAME:
        ossa_clock_last_frame_seek(p);
        time_jump(app);
        break;
    case VIEW_ACT_SPEED: ossa_clock_speed_step(p, a.arg); break;
    case VIEW_ACT_REVERSE: ossa_clock_reverse(p); break;
    case VIEW_ACT_CYCLE_MODE: ossa_clock_cycle_mode(p); break;
    case VIEW_ACT_CLIP: view_app_switch_clip(app, (uint32_t)a.arg); break;
    case VIEW_ACT_CLIP_STEP:
        if (p->clip_count > 1)
            view_app_switch_clip(app, (uint32_t)(((int64_t)p->clip + a.arg + p->clip_count) %
                                        p->clip_count));
        break;
    case VIEW_ACT_HELP: app->show_help = !app->show_help; break;
    case VIEW_ACT_HUD: app->show_info = !app->show_info; break;
    case VIEW_ACT_BONES: d->bones = !d->bones; break;
    case VIEW_ACT_JOINT_NAMES: d->joint_names = !d->joint_names; break;
    case VIEW_ACT_WIREFRAME: d->wireframe = !d->wireframe; break;
    case VIEW_ACT_NORMALS: d->normals = !d->normals; break;
    case VIEW_ACT_BIND_POSE: d->bind_pose = !d->bind_pose; break;
    case VIEW_ACT_GRID: d->grid = !d->grid; break;
    case VIEW_ACT_SKINNING:
        d->skinning = d->skinning == VIEW_SKIN_GPU ? VIEW_SKIN_CPU : VIEW_SKIN_GPU;
        if (app->ops && app->ops->skinning_changed)
            app->ops->skinning_changed(app);
        break;
    case VIEW_ACT_FRAME_MODEL:
    case VIEW_ACT_RESET_CAMERA: {
        const float *box_min, *box_max;
        framed_box(app, &box_min, &box_max);
        if (a.kind == VIEW_ACT_FRAME_MODEL)
            view_camera_frame(&app->camera, box_min, box_max);
        else
            view_camera_reset(&app->camera, box_min, box_max);
        break;
    }
    }
    title_changed(app);
}

void view_app_key(view_app *app, int key, unsigned mods)
{
    view_app_apply(app, view_key_action(key, mods));
}

void view_app_scrub_to(view_app *app, float x)
{
    view_timeline tl;
    view_timeline_layout(&tl, app->view_w, app->view_h);
    ossa_clock *p = app->playback;
    float t = view_timeline_time_at(&tl, x, p->duration);
    /* A loop's end is its start: the right end of the bar stays at the end. */
    if (p->wrap == OSSA_WRAP_LOOP && p->duration > 0.0f && t >= p->duration)
        t = nextafterf(p->duration, 0.0f);
    ossa_clock_seek(p, t);
    time_jump(app);
}

void view_app_button(view_app *app, int button, bool down, float x, float y)
{
    if (down) {
        view_timeline tl;
        view_timeline_layout(&tl, app->view_w, app->view_h);
        int64_t clip = button == VIEW_BUTTON_LEFT && app->ops && app->ops->clip_at
                           ? app->ops->clip_at(app, x, y)
                           : -1;
        if (clip >= 0) {
            view_app_switch_clip(app, (uint32_t)clip); /* a row of the clip panel */
            title_changed(app);
        } else if (button == VIEW_BUTTON_LEFT && app->show_info && app->playback->duration > 0.0f &&
            view_timeline_hit(&tl, x, y)) {
            /* Scrubbing holds playback and gives it back on release. */
            app->scrubbing = true;
            app->play_after_scrub = app->playback->playing;
            app->playback->playing = false;
            view_app_scrub_to(app, x);
        } else {
            app->drag_button = button;
            app->drag_moved = false;
        }
    } else {
        /* A left click that did not orbit picks the joint under it (or none). */
        if (button == VIEW_BUTTON_LEFT && app->drag_button == VIEW_BUTTON_LEFT &&
            !app->drag_moved && app->ops && app->ops->pick_joint)
            app->ops->pick_joint(app, x, y);
        if (button == VIEW_BUTTON_LEFT && app->scrubbing) {
            app->scrubbing = false;
            app->playback->playing = app->play_after_scrub;
        }
        if (button == app->drag_button)
            app->drag_button = 0;
    }
}

void view_app_motion(view_app *app, float x, float dx, float dy)
{
    if (app->scrubbing)
        view_app_scrub_to(app, x);
    else if (app->drag_button == VIEW_BUTTON_LEFT) {
        view_camera_orbit(&app->camera, dx, dy);
        app->drag_moved |= dx != 0.0f || dy != 0.0f;
    }
    else if (app->drag_button == VIEW_BUTTON_RIGHT || app->drag_button == VIEW_BUTTON_MIDDLE)
        view_camera_pan(&app->camera, dx, dy);
}

/* The crowd follows the shared clock: a jump seeks every character to its own offset from it
 * (its fade still moving by dt, its cloth to rest, as the single model's), a clip change lets
 * each fade from where it is, a tick moves each by the clock's change (a loop's wrap counted as
 * going on), its fades by dt as the single model's. */
static void crowd_tick(view_app *app, float before, float dt)
{
    ossa_clock *p = app->playback;
    view_crowd *c = &app->cur.crowd;
    if (app->time_jumped && !app->clip_switched) {
        view_crowd_seek(c, p->time);
        view_crowd_advance(c, 0.0f, dt);
        return;
    }
    float delta = p->time - before;
    if (p->wrap == OSSA_WRAP_LOOP && p->duration > 0.0f) {
        if (p->speed > 0.0f && delta < 0.0f)
            delta += p->duration;
        else if (p->speed < 0.0f && delta > 0.0f)
            delta -= p->duration;
    }
    view_crowd_advance(c, delta, dt);
}

void view_app_tick(view_app *app, float dt)
{
    ossa_instance *inst = app->cur.scene.instance;
    app->clock += dt;
    float before = app->playback->time;
    if (app->time_jumped)
        ossa_instance_jumped(inst);
    ossa_instance_tick(inst, dt);
    view_scene_sync(&app->cur.scene);
    if (app->cur.crowd_ready)
        crowd_tick(app, before, dt);
    app->time_jumped = false;
    app->clip_switched = false;
}

void view_app_wheel(view_app *app, float x, float y, float notches)
{
    if (!(app->ops && app->ops->clip_wheel && app->ops->clip_wheel(app, x, y, notches)))
        view_camera_zoom(&app->camera, notches);
}
