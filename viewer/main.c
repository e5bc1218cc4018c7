/* ossa-view: opens a model (or the built-in demo), plays its clips and renders it with OpenGL
 * 3.3 core, with a HUD, a timeline and a help overlay. --screenshot renders one frame offscreen
 * into a PNG and exits; --script replays timed input on script time; --bench-frames measures
 * frame times. The playback, input and HUD layout logic lives in GL-free files (playback.c,
 * input.c, hud.c, crossfade.c, script.c); this file ties them to SDL and GL. */
#include <glad/gl.h>
#include <SDL.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "app.h"
#include "input.h"
#include "ossa/demo.h"
#include "ossa/load.h"
#include "png_write.h"
#include "script.h"

/* Exit statuses: 1 for bad input (arguments, a file that does not load, a script that does not
 * parse, a PNG that cannot be written), 3 when no window or OpenGL 3.3 context can be had
 * (tests tell the two apart). */
enum { EXIT_INPUT = 1, EXIT_DISPLAY = 3 };

#define MAX_SCREENSHOT_SIDE 8192
#define MAX_BENCH_FRAMES 1000000L
#define HUD_MAX_QUADS 16384
#define MESSAGE_SECONDS 6.0
#define SCRIPT_STEP (1.0 / 60.0)

static void usage(FILE *out)
{
    fputs("usage: ossa-view [OPTIONS] [FILE|FOLDER...]\n"
          "Opens the files as one model (a Cal3D .cfg, or a skeleton with its meshes,\n"
          "animations and materials, or one SKM/SKP, C3S or CFF model; a Qfusion .cfg opens\n"
          "the .skm of the same name); with no file, the built-in demo mannequin. A folder\n"
          "opens its .cfg, C3S or CFF model (the first by name, with a note), else every model\n"
          "file in it and its subfolders. Files and folders dropped on the window replace the\n"
          "model the same way; a model that does not load leaves the current one shown, with\n"
          "the error in the window and on stderr.\n"
          "\n"
          "options:\n"
          "  --screenshot OUT.png  render one frame offscreen into OUT.png and exit\n"
          "  --script FILE         replay timed keys and mouse input from FILE in a hidden\n"
          "                        window, on script time, then exit (format below)\n"
          "  --bench-frames N      render N frames offscreen, one frame period apart, and print\n"
          "                        frame-time statistics as JSON (min/median/mean/p95/max ms)\n"
          "  --size WxH            offscreen size for the three above (default 800x600)\n"
          "  --clip C              clip to play, by index or name (default 0)\n"
          "  --time T              start T seconds into the clip (default 0)\n"
          "  --frame-rate FPS      frames per second for stepping and frame numbers (default 30)\n"
          "  --speed S             playback speed, negative plays backwards (default 1)\n"
          "  --mode M              loop, pingpong or once (default loop)\n"
          "  --paused              start paused\n"
          "  --fade SECONDS        cross-fade length of clip changes (default 0.25)\n"
          "  --up auto|y|z         the world's up axis (default auto: from the model's format,\n"
          "                        Y for the demo and CFF, Z for Cal3D, SKM and C3S unless the\n"
          "                        bind pose is clearly taller along Y)\n"
          "  --bones               show the bone overlay from the start (a skeleton without\n"
          "                        a mesh always shows it)\n"
          "  --skinning cpu|gpu    skinning path: the engine's SIMD kernels (default) or\n"
          "                        the vertex shader\n"
          "  --hud                 draw the HUD into --screenshot too (scripts always do); the\n"
          "                        model is then framed beside its panels, and no frame rate\n"
          "                        is shown (one frame has none)\n"
          "  --help                this text\n"
          "  --version             the version of ossa-view\n"
          "\n"
          "keys and mouse (F1 or H shows them in the window):\n",
          out);
    size_t count;
    const view_help_row *rows = view_help_rows(&count);
    for (size_t i = 0; i < count; i++)
        fprintf(out, "  %-30s %s\n", rows[i].input, rows[i].effect);
    fputs("\n"
          "script lines (times in seconds, X and Y in 0..1 of the window from its top left):\n"
          "  at T COMMAND      run COMMAND at script time T     wait S   let S seconds pass\n"
          "  key NAME          e.g. key Right, key Shift+Right, key Space, key 2, key F1\n"
          "  click X Y [left|middle|right]\n"
          "  drag X0 Y0 X1 Y1 [left|middle|right] [STEPS]\n"
          "  wheel N           N notches, positive zooms in\n"
          "  drop PATH...      open files or a folder as if dropped\n"
          "  screenshot F.png  the window's picture, HUD included\n"
          "  state             one JSON line on stdout: clip, clip_count, clip_name, time, frame,\n"
          "                    last_frame, duration, speed, playing, mode, fading, skinning,\n"
          "                    model, message, view (the free view x0 y0 x1 y1), clip_rows\n"
          "                    (first, rows, x0, x1, top, row height), font, selected_bone\n"
          "  quit              stop (the end of the script does too); '#' starts a comment\n"
          "\n"
          "The HUD's font is DejaVu Sans (fonts-dejavu-core) or another from the usual places;\n"
          "OSSA_VIEW_FONT=FILE.ttf names one. With none the HUD has no text (a note says so).\n"
          "\n"
          "exit status: 0 success, 1 bad arguments, a file that does not load, a script\n"
          "that does not parse or a PNG that cannot be written, 3 no display or no OpenGL 3.3\n"
          "core context.\n",
          out);
}

static bool parse_size(const char *s, int *w, int *h)
{
    char *end;
    errno = 0;
    long a = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X') || errno)
        return false;
    const char *second = end + 1;
    long b = strtol(second, &end, 10);
    if (end == second || *end || errno)
        return false;
    if (a < 1 || b < 1 || a > MAX_SCREENSHOT_SIDE || b > MAX_SCREENSHOT_SIDE)
        return false;
    *w = (int)a;
    *h = (int)b;
    return true;
}

static bool parse_float(const char *s, float lo, float hi, float *out)
{
    char *end;
    float v = strtof(s, &end);
    if (end == s || *end || !isfinite(v) || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* Returns 0 to go on, or an exit status (-1 for a clean exit after --help). */
static int parse_args(int argc, char **argv, view_options *o)
{
    memset(o, 0, sizeof *o);
    o->width = 800;
    o->height = 600;
    o->frame_rate = VIEW_FRAME_RATE_DEFAULT;
    o->speed = 1.0f;
    o->fade = VIEW_CROSSFADE_SECONDS;
    o->mode = OSSA_WRAP_LOOP;
    o->files = calloc((size_t)argc, sizeof *o->files);
    if (!o->files) {
        fputs("ossa-view: out of memory\n", stderr);
        return EXIT_INPUT;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return -1;
        } else if (strcmp(a, "--version") == 0) {
            printf("ossa-view %s\n", OSSA_VERSION);
            return -1;
        } else if (strcmp(a, "--bones") == 0) {
            o->bones = true;
        } else if (strcmp(a, "--paused") == 0) {
            o->paused = true;
        } else if (strcmp(a, "--hud") == 0) {
            o->hud = true;
        } else if (strcmp(a, "--skinning") == 0 && has_value) {
            const char *v = argv[++i];
            if (strcmp(v, "cpu") == 0) {
                o->skinning = VIEW_SKIN_CPU;
            } else if (strcmp(v, "gpu") == 0) {
                o->skinning = VIEW_SKIN_GPU;
            } else {
                fprintf(stderr, "ossa-view: --skinning '%s' is neither cpu nor gpu\n", v);
                return EXIT_INPUT;
            }
        } else if (strcmp(a, "--screenshot") == 0 && has_value) {
            o->screenshot = argv[++i];
        } else if (strcmp(a, "--script") == 0 && has_value) {
            o->script = argv[++i];
        } else if (strcmp(a, "--bench-frames") == 0 && has_value) {
            char *end;
            errno = 0;
            o->bench_frames = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || errno || o->bench_frames < 1 ||
                o->bench_frames > MAX_BENCH_FRAMES) {
                fprintf(stderr, "ossa-view: --bench-frames '%s' is not a count in 1..%ld\n",
                        argv[i], MAX_BENCH_FRAMES);
                return EXIT_INPUT;
            }
        } else if (strcmp(a, "--size") == 0 && has_value) {
            if (!parse_size(argv[++i], &o->width, &o->height)) {
                fprintf(stderr, "ossa-view: --size '%s' is not WxH with sides 1..%d\n", argv[i],
                        MAX_SCREENSHOT_SIDE);
                return EXIT_INPUT;
            }
        } else if (strcmp(a, "--clip") == 0 && has_value) {
            o->clip = argv[++i];
        } else if (strcmp(a, "--time") == 0 && has_value) {
            if (!parse_float(argv[++i], -1e9f, 1e9f, &o->time)) {
                fprintf(stderr, "ossa-view: --time '%s' is not a number of seconds\n", argv[i]);
                return EXIT_INPUT;
            }
        } else if (strcmp(a, "--frame-rate") == 0 && has_value) {
            if (!parse_float(argv[++i], 1.0f, 1000.0f, &o->frame_rate)) {
                fprintf(stderr, "ossa-view: --frame-rate '%s' is not 1..1000 frames a second\n",
                        argv[i]);
                return EXIT_INPUT;
            }
        } else if (strcmp(a, "--speed") == 0 && has_value) {
            if (!parse_float(argv[++i], -VIEW_SPEED_MAX, VIEW_SPEED_MAX, &o->speed) ||
                fabsf(o->speed) < VIEW_SPEED_MIN) {
                fprintf(stderr, "ossa-view: --speed '%s' is not within +-%g..%g\n", argv[i],
                        (double)VIEW_SPEED_MIN, (double)VIEW_SPEED_MAX);
                return EXIT_INPUT;
            }
        } else if (strcmp(a, "--fade") == 0 && has_value) {
            if (!parse_float(argv[++i], 0.001f, 60.0f, &o->fade)) {
                fprintf(stderr, "ossa-view: --fade '%s' is not 0.001..60 seconds\n", argv[i]);
                return EXIT_INPUT;
            }
        } else if (strcmp(a, "--mode") == 0 && has_value) {
            if (!view_wrap_mode_parse(argv[++i], &o->mode)) {
                fprintf(stderr, "ossa-view: --mode '%s' is not loop, pingpong or once\n",
                        argv[i]);
                return EXIT_INPUT;
            }
        } else if (strcmp(a, "--up") == 0 && has_value) {
            const char *v = argv[++i];
            if (strcmp(v, "auto") == 0) {
                o->up = VIEW_UP_AUTO;
            } else if (strcmp(v, "y") == 0 || strcmp(v, "Y") == 0) {
                o->up = VIEW_UP_Y;
            } else if (strcmp(v, "z") == 0 || strcmp(v, "Z") == 0) {
                o->up = VIEW_UP_Z;
            } else {
                fprintf(stderr, "ossa-view: --up '%s' is not auto, y or z\n", v);
                return EXIT_INPUT;
            }
        } else if (strcmp(a, "--") == 0) {
            while (++i < argc)
                o->files[o->file_count++] = argv[i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ossa-view: unknown option or missing value: %s (see --help)\n", a);
            return EXIT_INPUT;
        } else {
            o->files[o->file_count++] = a;
        }
    }
    if ((o->screenshot != NULL) + (o->script != NULL) + (o->bench_frames > 0) > 1) {
        fputs("ossa-view: --screenshot, --script and --bench-frames exclude one another\n",
              stderr);
        return EXIT_INPUT;
    }
    return 0;
}

/* glad takes a function-pointer loader; SDL returns void *. memcpy converts without the cast
 * ISO C leaves undefined. */
static GLADapiproc load_gl_proc(const char *name)
{
    void *p = SDL_GL_GetProcAddress(name);
    GLADapiproc f;
    memcpy(&f, &p, sizeof f);
    return f;
}


static void set_message(view_app *app, const char *text)
{
    size_t n = strlen(text);
    if (n >= sizeof app->message)
        n = sizeof app->message - 1; /* the HUD wraps long lines, it cannot show pages */
    memcpy(app->message, text, n);
    app->message[n] = '\0';
    app->message_until = app->clock + MESSAGE_SECONDS;
}

static void free_model(view_model *vm)
{
    if (vm->renderer_ready)
        view_renderer_free(&vm->renderer);
    if (vm->scene_ready)
        view_scene_free(&vm->scene);
    view_crossfade_free(&vm->fade);
    free(vm->durations);
    free(vm->labels);
    ossa_model_destroy(vm->model);
    memset(vm, 0, sizeof *vm);
}

/* Loads files (or the demo when count is 0) into vm, with a renderer when gl is set. On failure
 * vm holds nothing and err says why. */
static bool load_model(const char *const *paths, size_t count, float fade, bool gl,
                       view_model *vm, char *err, size_t err_size)
{
    memset(vm, 0, sizeof *vm);
    ossa_error e;
    ossa_status st = count ? ossa_load_files(paths, count, NULL, &vm->model, &e)
                           : ossa_demo_model(&vm->model, &e);
    if (st != OSSA_OK) {
        ossa_error_format(&e, err, err_size);
        return false;
    }
    const ossa_model *m = vm->model;
    for (uint32_t i = 0; i < m->warning_count; i++)
        fprintf(stderr, "ossa-view: warning: %s\n", m->warnings[i]);
    vm->durations = calloc(m->clip_count ? m->clip_count : 1, sizeof *vm->durations);
    vm->labels = calloc(m->bone_count ? m->bone_count : 1, sizeof *vm->labels);
    if (!vm->durations || !vm->labels || !view_scene_init(&vm->scene, m)) {
        snprintf(err, err_size, "out of memory for %s", m->source ? m->source : "the model");
        free_model(vm);
        return false;
    }
    vm->scene_ready = true;
    for (uint32_t i = 0; i < m->clip_count; i++)
        vm->durations[i] = m->clips[i].duration;
    char fade_err[600];
    if (!view_crossfade_init(&vm->fade, m, fade, fade_err, sizeof fade_err))
        fprintf(stderr, "ossa-view: warning: %s\n", fade_err);
    view_scene_bind_bounds(&vm->scene, vm->bind_min, vm->bind_max);
    const char *src = m->source && m->source[0] ? m->source : "model";
    const char *slash = strrchr(src, '/');
    /* A skeleton alone (or meshes that are all hidden) has nothing to draw but its bones. */
    vm->skeleton_only = m->bone_count > 0;
    for (uint32_t i = 0; i < vm->scene.part_count; i++)
        vm->skeleton_only &= vm->scene.parts[i].hidden || !vm->scene.parts[i].index_count;
    if (m->format == OSSA_FORMAT_DEMO)
        snprintf(vm->name, sizeof vm->name, "built-in demo");
    else
        snprintf(vm->name, sizeof vm->name, "%s (%s)", slash && slash[1] ? slash + 1 : src,
                 ossa_format_name(m->format));
    if (gl) {
        if (!view_renderer_init(&vm->renderer, &vm->scene, err, err_size)) {
            free_model(vm);
            return false;
        }
        vm->renderer_ready = true;
    }
    return true;
}

/* Clip index from --clip (a number or a name); 0 when absent. */
static int resolve_clip(const ossa_model *m, const char *clip, uint32_t *out)
{
    *out = 0;
    if (!clip)
        return 0;
    char *end;
    errno = 0;
    long n = strtol(clip, &end, 10);
    if (end != clip && !*end && !errno && n >= 0 && n < (long)m->clip_count) {
        *out = (uint32_t)n;
        return 0;
    }
    int32_t found = ossa_model_find_clip(m, clip);
    if (found < 0) {
        fprintf(stderr, "ossa-view: the model has no clip '%s' (%u clips:", clip, m->clip_count);
        for (uint32_t i = 0; i < m->clip_count; i++)
            fprintf(stderr, " %u '%s'", i, m->clips[i].name ? m->clips[i].name : "");
        fputs(")\n", stderr);
        return EXIT_INPUT;
    }
    *out = (uint32_t)found;
    return 0;
}

static const ossa_clip *current_clip(const view_app *app)
{
    return app->playback.clip_count ? &app->cur.model->clips[app->playback.clip] : NULL;
}

/* The timeline's key ticks: every key time of every track of the current clip. */
static void rebuild_ticks(view_app *app)
{
    memset(&app->ticks, 0, sizeof app->ticks);
    const ossa_clip *clip = current_clip(app);
    if (!clip)
        return;
    for (uint32_t k = 0; k < clip->track_count; k++)
        view_ticks_add(&app->ticks, clip->tracks[k].times, clip->tracks[k].key_count,
                       clip->duration);
}

static void update_title(const view_app *app)
{
    if (!app->window || app->offscreen)
        return;
    const ossa_clip *clip = current_clip(app);
    char title[600];
    snprintf(title, sizeof title, "ossa-view - %s - %s%s", app->cur.name,
             clip ? (clip->name ? clip->name : "(clip)") : "rest pose",
             app->playback.playing ? "" : " (paused)");
    SDL_SetWindowTitle(app->window, title);
}

/* Resets playback and the camera for the model just made current. */
static void start_model(view_app *app, uint32_t clip, float time)
{
    const ossa_model *m = app->cur.model;
    view_playback_init(&app->playback, m->clip_count, app->cur.durations);
    view_playback_set_frame_rate(&app->playback, app->opt.frame_rate);
    view_playback_set_mode(&app->playback, app->opt.mode);
    app->playback.speed = app->opt.speed;
    view_playback_set_clip(&app->playback, clip, app->cur.durations);
    view_playback_seek(&app->playback, time);
    if (app->opt.paused)
        app->playback.playing = false;
    app->morph_clock = time;
    app->time_jumped = true;
    view_camera_init(&app->camera);
    app->camera.up = app->opt.up != VIEW_UP_AUTO
                         ? app->opt.up
                         : view_camera_up_for_model(m->format, app->cur.bind_min,
                                                    app->cur.bind_max);
    view_camera_reset(&app->camera, app->cur.bind_min, app->cur.bind_max);
    rebuild_ticks(app);
    if (app->cur.skeleton_only)
        app->display.bones = true;
    app->clip_first = 0;
    app->clip_followed = UINT32_MAX; /* the list shows the first clip played */
    app->selected_bone = -1;
    update_title(app);
}

/* Parts the GPU path leaves to the CPU are named once a model, when GPU skinning is in use. */
static void gpu_notes(view_app *app)
{
    if (app->display.skinning == VIEW_SKIN_GPU && app->cur.renderer_ready &&
        !app->cur.gpu_notes_shown) {
        view_renderer_print_gpu_notes(&app->cur.renderer, &app->cur.scene, stderr);
        app->cur.gpu_notes_shown = true;
    }
}

/* Morph clips run on the current clip's clock (so they follow pauses, seeks and reverse), or on
 * the morph clock when the model has no skeletal clip. */
static void update_morphs(view_app *app)
{
    const view_playback *p = &app->playback;
    view_scene_set_morph_time(&app->cur.scene, p->clip_count ? p->time : app->morph_clock);
}

/* Poses the scene for the current time: from the cross-fade's blended pose while one runs,
 * else from the current clip. dt moves the fade on. */
static void update_pose(view_app *app, float dt)
{
    view_playback *p = &app->playback;
    update_morphs(app);
    const ossa_soa_pose *blend = view_crossfade_update(&app->cur.fade, dt, p->time);
    if (blend) {
        view_scene_pose_local(&app->cur.scene, blend);
        /* Vertex frames do not blend: the clip with the larger weight shows its shapes. The
         * clip faded out runs on at its own pace, as the mixer plays it. */
        const ossa_model *m = app->cur.model;
        ossa_mixer *mx = app->cur.fade.mixer;
        app->fade_from_time += isfinite(dt) && dt > 0.0f ? dt : 0.0f;
        bool old_wins = app->fade_from < m->clip_count &&
                        ossa_mixer_weight(mx, app->fade_from) >
                            ossa_mixer_weight(mx, app->cur.fade.target);
        view_scene_set_vertex_clip(&app->cur.scene,
                                   old_wins ? &m->clips[app->fade_from] : current_clip(app),
                                   old_wins ? app->fade_from_time : p->time);
        return;
    }
    /* The scene wraps times into [0, duration): the end of a clip played once is shown just
     * before it rather than as its start. */
    float t = p->duration > 0.0f && p->time >= p->duration ? nextafterf(p->duration, 0.0f)
                                                             : p->time;
    view_scene_pose(&app->cur.scene, current_clip(app), t);
}

static void switch_clip(view_app *app, uint32_t to)
{
    view_playback *p = &app->playback;
    if (to >= p->clip_count || to == p->clip)
        return;
    app->fade_from = p->clip;
    app->fade_from_time = p->time;
    app->time_jumped = true;
    view_crossfade_start(&app->cur.fade, p->clip, p->time, to);
    view_playback_set_clip(p, to, app->cur.durations);
    rebuild_ticks(app);
}

static void apply_action(view_app *app, view_action a)
{
    view_playback *p = &app->playback;
    view_display *d = &app->display;
    switch (a.kind) {
    case VIEW_ACT_NONE: return;
    case VIEW_ACT_QUIT: app->quit = true; break;
    case VIEW_ACT_PLAY_PAUSE: view_playback_toggle(p); break;
    case VIEW_ACT_STEP:
        view_playback_step_frames(p, a.arg);
        app->time_jumped = true;
        break;
    case VIEW_ACT_FIRST_FRAME:
        view_playback_first_frame(p);
        app->time_jumped = true;
        break;
    case VIEW_ACT_LAST_FRAME:
        view_playback_last_frame_seek(p);
        app->time_jumped = true;
        break;
    case VIEW_ACT_SPEED: view_playback_speed_step(p, a.arg); break;
    case VIEW_ACT_REVERSE: view_playback_reverse(p); break;
    case VIEW_ACT_CYCLE_MODE: view_playback_cycle_mode(p); break;
    case VIEW_ACT_CLIP: switch_clip(app, (uint32_t)a.arg); break;
    case VIEW_ACT_CLIP_STEP:
        if (p->clip_count > 1)
            switch_clip(app, (uint32_t)(((int64_t)p->clip + a.arg + p->clip_count) %
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
        gpu_notes(app);
        break;
    case VIEW_ACT_FRAME_MODEL:
        view_camera_frame(&app->camera, app->cur.bind_min, app->cur.bind_max);
        break;
    case VIEW_ACT_RESET_CAMERA:
        view_camera_reset(&app->camera, app->cur.bind_min, app->cur.bind_max);
        break;
    }
    update_title(app);
}

static void app_key(view_app *app, int key, unsigned mods)
{
    apply_action(app, view_key_action(key, mods));
}

static void scrub_to(view_app *app, float x)
{
    view_timeline tl;
    view_timeline_layout(&tl, app->view_w, app->view_h);
    view_playback *p = &app->playback;
    float t = view_timeline_time_at(&tl, x, p->duration);
    /* A loop's end is its start: the right end of the bar stays at the end. */
    if (p->mode == OSSA_WRAP_LOOP && p->duration > 0.0f && t >= p->duration)
        t = nextafterf(p->duration, 0.0f);
    view_playback_seek(p, t);
    app->time_jumped = true;
}

static void app_button(view_app *app, int button, bool down, float x, float y)
{
    if (down) {
        view_timeline tl;
        view_timeline_layout(&tl, app->view_w, app->view_h);
        int64_t clip = button == VIEW_BUTTON_LEFT ? view_app_clip_at(app, x, y) : -1;
        if (clip >= 0) {
            switch_clip(app, (uint32_t)clip); /* a row of the clip panel */
            update_title(app);
        } else if (button == VIEW_BUTTON_LEFT && app->show_info && app->playback.duration > 0.0f &&
            view_timeline_hit(&tl, x, y)) {
            /* Scrubbing holds playback and gives it back on release. */
            app->scrubbing = true;
            app->play_after_scrub = app->playback.playing;
            app->playback.playing = false;
            scrub_to(app, x);
        } else {
            app->drag_button = button;
            app->drag_moved = false;
        }
    } else {
        /* A left click that did not orbit picks the joint under it (or none). */
        if (button == VIEW_BUTTON_LEFT && app->drag_button == VIEW_BUTTON_LEFT && !app->drag_moved)
            view_app_pick_joint(app, x, y);
        if (button == VIEW_BUTTON_LEFT && app->scrubbing) {
            app->scrubbing = false;
            app->playback.playing = app->play_after_scrub;
        }
        if (button == app->drag_button)
            app->drag_button = 0;
    }
}

static void app_motion(view_app *app, float x, float dx, float dy)
{
    if (app->scrubbing)
        scrub_to(app, x);
    else if (app->drag_button == VIEW_BUTTON_LEFT) {
        view_camera_orbit(&app->camera, dx, dy);
        app->drag_moved |= dx != 0.0f || dy != 0.0f;
    }
    else if (app->drag_button == VIEW_BUTTON_RIGHT || app->drag_button == VIEW_BUTTON_MIDDLE)
        view_camera_pan(&app->camera, dx, dy);
}

/* ---- opening dropped files and folders ------------------------------------------------ */

/* Opens dropped paths as the new model (a folder by the engine's folder rule, as on the command
 * line); on failure the current model stays and the error is shown in the window and written
 * to stderr. */
static void open_paths(view_app *app, char *const *paths, size_t count)
{
    char *files[MAX_DROP_FILES];
    size_t n = 0;
    char err[1200] = "";
    bool oom = false;
    for (size_t i = 0; i < count && n < MAX_DROP_FILES; i++) {
        if ((files[n] = strdup(paths[i])) != NULL)
            n++;
        else
            oom = true;
    }
    view_model next;
    if (oom)
        snprintf(err, sizeof err, "out of memory opening the dropped files");
    else if (n && load_model((const char *const *)files, n, app->opt.fade, app->gl_ready, &next,
                             err, sizeof err)) {
        free_model(&app->cur);
        app->cur = next;
        start_model(app, 0, 0.0f);
        gpu_notes(app);
        char text[600];
        snprintf(text, sizeof text, "opened %s", app->cur.name);
        fprintf(stderr, "ossa-view: %s\n", text);
        app->message[0] = '\0';
    } else if (!err[0]) {
        snprintf(err, sizeof err, "nothing to open");
    }
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    if (err[0]) {
        char text[1300];
        snprintf(text, sizeof text, "cannot open: %s", err);
        fprintf(stderr, "ossa-view: %s\n", text);
        set_message(app, text);
    }
}

static void drop_clear(view_app *app)
{
    for (size_t i = 0; i < app->drop_count; i++)
        SDL_free(app->drop_paths[i]);
    app->drop_count = 0;
}

/* ---- GL ---------------------------------------------------------------------------------- */

static int open_gl(view_app *app)
{
    /* A hidden window with no display to show it on: go straight to SDL's offscreen driver
     * rather than let SDL probe Wayland, whose library complains about XDG_RUNTIME_DIR on
     * stderr. SDL_VIDEODRIVER in the environment still wins over this hint. */
    if (app->offscreen && !getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY"))
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "ossa-view: no display: %s\n", SDL_GetError());
        return EXIT_DISPLAY;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    bool hidden = app->offscreen;
    Uint32 flags = SDL_WINDOW_OPENGL | (hidden ? SDL_WINDOW_HIDDEN : SDL_WINDOW_RESIZABLE);
    app->window = SDL_CreateWindow("ossa-view", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                   hidden ? 64 : 1024, hidden ? 64 : 768, flags);
    if (!app->window) {
        fprintf(stderr, "ossa-view: cannot open a window: %s\n", SDL_GetError());
        return EXIT_DISPLAY;
    }
    app->context = SDL_GL_CreateContext(app->window);
    if (!app->context) {
        fprintf(stderr, "ossa-view: no OpenGL 3.3 core context: %s\n", SDL_GetError());
        return EXIT_DISPLAY;
    }
    int version = gladLoadGL(load_gl_proc);
    if (!version || GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 33) {
        fprintf(stderr, "ossa-view: OpenGL 3.3 functions could not be loaded\n");
        return EXIT_DISPLAY;
    }
    app->gl_ready = true;
    char err[1200];
    if (!view_renderer_init(&app->cur.renderer, &app->cur.scene, err, sizeof err)) {
        fprintf(stderr, "ossa-view: %s\n", err);
        return EXIT_DISPLAY;
    }
    app->cur.renderer_ready = true;
    view_app_font_open(app);
    if (!app->glyphs_ready || !view_hud_init(&app->hud, HUD_MAX_QUADS, &app->glyphs)) {
        fputs("ossa-view: out of memory\n", stderr);
        return EXIT_INPUT;
    }
    if (!view_hud_gl_init(&app->hud_gl, app->hud.capacity, err, sizeof err)) {
        fprintf(stderr, "ossa-view: %s\n", err);
        return EXIT_DISPLAY;
    }
    app->hud_ready = true;
    gpu_notes(app);
    update_title(app);
    return 0;
}

/* An offscreen framebuffer of w x h for screenshots, scripts and benchmarks, bound. */
static bool bind_offscreen(view_app *app, int w, int h)
{
    if (!app->fbo) {
        glGenFramebuffers(1, &app->fbo);
        glGenRenderbuffers(1, &app->fbo_color);
        glGenRenderbuffers(1, &app->fbo_depth);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, app->fbo);
    if (app->fbo_w != w || app->fbo_h != h) {
        glBindRenderbuffer(GL_RENDERBUFFER, app->fbo_color);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
        glBindRenderbuffer(GL_RENDERBUFFER, app->fbo_depth);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                                  app->fbo_color);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
                                  app->fbo_depth);
        app->fbo_w = w;
        app->fbo_h = h;
    }
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "ossa-view: cannot create a %dx%d offscreen framebuffer\n", w, h);
        return false;
    }
    return true;
}

static void free_gl(view_app *app)
{
    if (!app->gl_ready)
        return;
    if (app->fbo) {
        glDeleteFramebuffers(1, &app->fbo);
        glDeleteRenderbuffers(1, &app->fbo_color);
        glDeleteRenderbuffers(1, &app->fbo_depth);
    }
    if (app->hud_ready)
        view_hud_gl_free(&app->hud_gl);
}

static void frame_setup(const view_app *app, int width, int height, view_frame *f)
{
    memset(f, 0, sizeof *f);
    f->width = width;
    f->height = height;
    f->display = app->display;
    view_camera_view_proj(&app->camera, f->view_proj);
    /* A light over the viewer's shoulder: towards the eye, raised along the up axis. */
    float eye[3], up[3], len = 0.0f;
    view_camera_eye(&app->camera, eye, up);
    memcpy(f->up, up, sizeof f->up);
    for (int k = 0; k < 3; k++) {
        f->light_dir[k] = (eye[k] - app->camera.target[k]) / app->camera.distance + 0.8f * up[k];
        len += f->light_dir[k] * f->light_dir[k];
    }
    len = sqrtf(len);
    for (int k = 0; k < 3; k++)
        f->light_dir[k] = len > 0.0f ? f->light_dir[k] / len : up[k];
}

/* Draws the model and, when asked, the HUD into the bound framebuffer of w x h. */
static void draw(view_app *app, int w, int h, bool with_hud)
{
    view_frame f;
    view_app_hud_prepare(app, w, h, with_hud && app->hud_ready);
    frame_setup(app, w, h, &f);
    view_renderer_draw(&app->cur.renderer, &app->cur.scene, &f);
    if (with_hud && app->hud_ready) {
        view_app_hud_build(app, f.view_proj);
        view_hud_gl_draw(&app->hud_gl, &app->hud, w, h);
    }
}

/* Renders one offscreen frame of opt size and writes it as a PNG. */
static int write_screenshot(view_app *app, const char *path, bool with_hud)
{
    int w = app->opt.width, h = app->opt.height;
    if (!bind_offscreen(app, w, h))
        return EXIT_DISPLAY;
    uint8_t *pixels = malloc((size_t)w * (size_t)h * 4);
    if (!pixels) {
        fprintf(stderr, "ossa-view: out of memory for a %dx%d image\n", w, h);
        return EXIT_INPUT;
    }
    draw(app, w, h, with_hud);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    int status = 0;
    char err[600];
    if (!view_write_png(path, pixels, w, h, true, err, sizeof err)) {
        fprintf(stderr, "ossa-view: %s\n", err);
        status = EXIT_INPUT;
    }
    free(pixels);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return status;
}

/* ---- scripts ------------------------------------------------------------------------------ */

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void print_state(view_app *app)
{
    const view_playback *p = &app->playback;
    const ossa_clip *clip = current_clip(app);
    FILE *out = stdout;
    fprintf(out, "{\"clip\":%u,\"clip_count\":%u,\"clip_name\":", p->clip, p->clip_count);
    json_string(out, clip ? clip->name : NULL);
    fprintf(out, ",\"time\":%.6f,\"frame\":%u,\"last_frame\":%u,\"duration\":%.6f,"
                 "\"speed\":%g,\"playing\":%s,\"mode\":\"%s\",\"fading\":%s,\"skinning\":",
            (double)p->time, view_playback_frame(p), view_playback_last_frame(p),
            (double)p->duration, (double)p->speed, p->playing ? "true" : "false",
            view_wrap_mode_name(p->mode), app->cur.fade.active ? "true" : "false");
    json_string(out, view_app_skinning_name(app));
    const view_scene *sc = &app->cur.scene;
    fprintf(out, ",\"morph_parts\":%u,\"morph_time\":%.6f,\"spring_parts\":%u",
            sc->morph_part_count, (double)sc->morph_time, sc->spring_part_count);
    fputs(",\"model\":", out);
    json_string(out, app->cur.name);
    fputs(",\"message\":", out);
    json_string(out, app->clock < app->message_until ? app->message : "");
    /* Where the HUD puts the free view and the clip panel's rows (window pixels). */
    view_app_hud_prepare(app, app->view_w, app->view_h, app->show_info);
    const view_layout *l = &app->layout;
    fprintf(out, ",\"view\":[%g,%g,%g,%g],\"clip_rows\":[%u,%u,%g,%g,%g,%g],\"font\":",
            (double)l->view.x0, (double)l->view.y0, (double)l->view.x1, (double)l->view.y1,
            app->clip_first, l->clip_rows, (double)l->clips.x0, (double)l->clips.x1,
            (double)l->rows_y0, (double)l->line_height);
    json_string(out, app->font.path);
    fprintf(out, ",\"selected_bone\":%d", (int)app->selected_bone);
    fputs("}\n", out);
    fflush(out);
}

/* One step of simulated time: playback, fade, pose (morphs included) and springs. Springs
 * step by the playback time that passed (dt times |speed|, none while paused), so slow motion
 * slows the cloth too; a jump in time puts it back at rest first. */
static void tick(view_app *app, float dt)
{
    view_playback *p = &app->playback;
    app->clock += dt;
    view_playback_advance(p, dt);
    float played = p->playing && isfinite(dt) && dt > 0.0f ? dt * fabsf(p->speed) : 0.0f;
    if (!p->clip_count && p->playing && isfinite(dt))
        app->morph_clock += dt * p->speed;
    update_pose(app, dt);
    if (app->time_jumped)
        view_scene_springs_reset(&app->cur.scene);
    app->time_jumped = false;
    view_scene_springs_step(&app->cur.scene, played);
}

/* ---- benchmark ---------------------------------------------------------------------------- */

static int run_bench(view_app *app)
{
    long n = app->opt.bench_frames;
    int w = app->opt.width, h = app->opt.height;
    double *ms = malloc((size_t)n * sizeof *ms);
    if (!ms) {
        fputs("ossa-view: out of memory\n", stderr);
        return EXIT_INPUT;
    }
    if (!bind_offscreen(app, w, h)) {
        free(ms);
        return EXIT_DISPLAY;
    }
    app->view_w = w;
    app->view_h = h;
    float dt = 1.0f / app->playback.frame_rate;
    Uint64 freq = SDL_GetPerformanceFrequency();
    for (long i = 0; i < n; i++) {
        Uint64 t0 = SDL_GetPerformanceCounter();
        tick(app, dt);
        draw(app, w, h, true);
        glFinish(); /* the frame's GPU work is part of its time */
        Uint64 t1 = SDL_GetPerformanceCounter();
        ms[i] = 1000.0 * (double)(t1 - t0) / (double)freq;
        app->fps = ms[i] > 0.0 ? (float)(1000.0 / ms[i]) : 0.0f;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    view_frame_stats st;
    view_frame_stats_compute(ms, (size_t)n, &st);
    free(ms);
    printf("{\"frames\":%ld,\"width\":%d,\"height\":%d,\"model\":", n, w, h);
    json_string(stdout, app->cur.name);
    printf(",\"vertices\":%zu,\"skinning\":", app->cur.scene.vertex_count);
    json_string(stdout, view_app_skinning_name(app));
    printf(",\"renderer\":");
    json_string(stdout, (const char *)glGetString(GL_RENDERER));
    printf(",\"min_ms\":%.4f,\"median_ms\":%.4f,\"mean_ms\":%.4f,\"p95_ms\":%.4f,"
           "\"max_ms\":%.4f}\n",
           st.min, st.median, st.mean, st.p95, st.max);
    return 0;
}

/* ---- interactive --------------------------------------------------------------------------- */

static int sdl_key(SDL_Keycode k)
{
    if (k >= 'a' && k <= 'z')
        return k - 'a' + 'A';
    if ((k >= '0' && k <= '9') || k == '[' || k == ']' || k == '-' || k == '=' || k == ' ')
        return (int)k;
    switch (k) {
    case SDLK_LEFT: return VIEW_KEY_LEFT;
    case SDLK_RIGHT: return VIEW_KEY_RIGHT;
    case SDLK_UP: return VIEW_KEY_UP;
    case SDLK_DOWN: return VIEW_KEY_DOWN;
    case SDLK_TAB: return VIEW_KEY_TAB;
    case SDLK_ESCAPE: return VIEW_KEY_ESCAPE;
    case SDLK_BACKSPACE: return VIEW_KEY_BACKSPACE;
    case SDLK_HOME: return VIEW_KEY_HOME;
    case SDLK_END: return VIEW_KEY_END;
    case SDLK_F1: return VIEW_KEY_F1;
    case SDLK_KP_PLUS: return VIEW_KEY_KP_PLUS;
    case SDLK_KP_MINUS: return VIEW_KEY_KP_MINUS;
    case SDLK_PLUS: return '=';
    default: return VIEW_KEY_NONE;
    }
}

static unsigned sdl_mods(Uint16 m)
{
    return ((m & KMOD_SHIFT) ? VIEW_MOD_SHIFT : 0u) | ((m & KMOD_CTRL) ? VIEW_MOD_CTRL : 0u) |
           ((m & KMOD_ALT) ? VIEW_MOD_ALT : 0u);
}

static int sdl_button(Uint8 b)
{
    return b == SDL_BUTTON_LEFT     ? VIEW_BUTTON_LEFT
           : b == SDL_BUTTON_RIGHT  ? VIEW_BUTTON_RIGHT
           : b == SDL_BUTTON_MIDDLE ? VIEW_BUTTON_MIDDLE
                                    : 0;
}

static void handle_event(view_app *app, const SDL_Event *e, float sx, float sy)
{
    switch (e->type) {
    case SDL_QUIT: app->quit = true; break;
    case SDL_KEYDOWN: app_key(app, sdl_key(e->key.keysym.sym), sdl_mods(e->key.keysym.mod)); break;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP: {
        int b = sdl_button(e->button.button);
        if (b)
            app_button(app, b, e->type == SDL_MOUSEBUTTONDOWN, (float)e->button.x * sx,
                       (float)e->button.y * sy);
        break;
    }
    case SDL_MOUSEMOTION:
        app_motion(app, (float)e->motion.x * sx, (float)e->motion.xrel * sx,
                   (float)e->motion.yrel * sy);
        break;
    case SDL_MOUSEWHEEL: {
#if SDL_VERSION_ATLEAST(2, 0, 18)
        float notches = e->wheel.preciseY;
#else
        float notches = (float)e->wheel.y;
#endif
        if (e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED)
            notches = -notches;
#if SDL_VERSION_ATLEAST(2, 26, 0)
        int mx = e->wheel.mouseX, my = e->wheel.mouseY;
#else
        int mx, my;
        SDL_GetMouseState(&mx, &my);
#endif
        if (!view_app_clip_wheel(app, (float)mx * sx, (float)my * sy, notches))
            view_camera_zoom(&app->camera, notches);
        break;
    }
    case SDL_DROPBEGIN:
        drop_clear(app);
        app->drop_open = true;
        break;
    case SDL_DROPFILE:
        if (app->drop_count < MAX_DROP_FILES)
            app->drop_paths[app->drop_count++] = e->drop.file;
        else
            SDL_free(e->drop.file);
        if (!app->drop_open) { /* a system that sends no begin/complete: one path a drop */
            open_paths(app, app->drop_paths, app->drop_count);
            drop_clear(app);
        }
        break;
    case SDL_DROPCOMPLETE:
        if (app->drop_count)
            open_paths(app, app->drop_paths, app->drop_count);
        drop_clear(app);
        app->drop_open = false;
        break;
    default: break;
    }
}

/* ---- scripts, replayed as SDL events ------------------------------------------------------ */

/* The SDL key a script's key name stands for (the inverse of sdl_key). */
static SDL_Keycode sdl_keycode_of(int key)
{
    if (key >= 'A' && key <= 'Z')
        return (SDL_Keycode)(key - 'A' + 'a');
    switch (key) {
    case VIEW_KEY_LEFT: return SDLK_LEFT;
    case VIEW_KEY_RIGHT: return SDLK_RIGHT;
    case VIEW_KEY_UP: return SDLK_UP;
    case VIEW_KEY_DOWN: return SDLK_DOWN;
    case VIEW_KEY_TAB: return SDLK_TAB;
    case VIEW_KEY_ESCAPE: return SDLK_ESCAPE;
    case VIEW_KEY_BACKSPACE: return SDLK_BACKSPACE;
    case VIEW_KEY_HOME: return SDLK_HOME;
    case VIEW_KEY_END: return SDLK_END;
    case VIEW_KEY_F1: return SDLK_F1;
    case VIEW_KEY_KP_PLUS: return SDLK_KP_PLUS;
    case VIEW_KEY_KP_MINUS: return SDLK_KP_MINUS;
    default: return (SDL_Keycode)key; /* digits, [ ] - = and space are ASCII in both */
    }
}

static Uint16 sdl_mod_of(unsigned mods)
{
    return (Uint16)(((mods & VIEW_MOD_SHIFT) ? KMOD_LSHIFT : 0) |
                    ((mods & VIEW_MOD_CTRL) ? KMOD_LCTRL : 0) |
                    ((mods & VIEW_MOD_ALT) ? KMOD_LALT : 0));
}

static Uint8 sdl_button_of(int button)
{
    return button == VIEW_BUTTON_RIGHT    ? SDL_BUTTON_RIGHT
           : button == VIEW_BUTTON_MIDDLE ? SDL_BUTTON_MIDDLE
                                          : SDL_BUTTON_LEFT;
}

static void script_button(view_app *app, Uint32 type, int button, int x, int y)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = type;
    e.button.button = sdl_button_of(button);
    e.button.state = type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED;
    e.button.clicks = 1;
    e.button.x = x;
    e.button.y = y;
    handle_event(app, &e, 1.0f, 1.0f);
}

/* Runs one script command through the same event handling as the window's own events. */
static int script_command(view_app *app, const view_script_cmd *c)
{
    float w = (float)app->view_w, h = (float)app->view_h;
    SDL_Event e;
    memset(&e, 0, sizeof e);
    switch (c->op) {
    case VIEW_SCRIPT_KEY:
        e.type = SDL_KEYDOWN;
        e.key.state = SDL_PRESSED;
        e.key.keysym.sym = sdl_keycode_of(c->key);
        e.key.keysym.mod = sdl_mod_of(c->mods);
        handle_event(app, &e, 1.0f, 1.0f);
        e.type = SDL_KEYUP;
        e.key.state = SDL_RELEASED;
        handle_event(app, &e, 1.0f, 1.0f);
        break;
    case VIEW_SCRIPT_CLICK:
    case VIEW_SCRIPT_DRAG: {
        int px = (int)lroundf(c->x0 * w), py = (int)lroundf(c->y0 * h);
        script_button(app, SDL_MOUSEBUTTONDOWN, c->button, px, py);
        for (int k = 1; c->op == VIEW_SCRIPT_DRAG && k <= c->steps; k++) {
            float f = (float)k / (float)c->steps;
            int x = (int)lroundf((c->x0 + (c->x1 - c->x0) * f) * w);
            int y = (int)lroundf((c->y0 + (c->y1 - c->y0) * f) * h);
            memset(&e, 0, sizeof e);
            e.type = SDL_MOUSEMOTION;
            e.motion.state = SDL_BUTTON(sdl_button_of(c->button));
            e.motion.x = x;
            e.motion.y = y;
            e.motion.xrel = x - px;
            e.motion.yrel = y - py;
            handle_event(app, &e, 1.0f, 1.0f);
            px = x;
            py = y;
        }
        script_button(app, SDL_MOUSEBUTTONUP, c->button, px, py);
        break;
    }
    case VIEW_SCRIPT_WHEEL:
        e.type = SDL_MOUSEWHEEL;
        e.wheel.direction = SDL_MOUSEWHEEL_NORMAL;
        e.wheel.y = (Sint32)c->amount;
#if SDL_VERSION_ATLEAST(2, 26, 0)
        e.wheel.mouseX = app->view_w / 2; /* over the model */
        e.wheel.mouseY = app->view_h / 2;
#endif
#if SDL_VERSION_ATLEAST(2, 0, 18)
        e.wheel.preciseY = c->amount;
#endif
        handle_event(app, &e, 1.0f, 1.0f);
        break;
    case VIEW_SCRIPT_DROP: {
        /* As SDL delivers a drop: begin, one event per path (SDL-allocated), complete. */
        e.type = SDL_DROPBEGIN;
        handle_event(app, &e, 1.0f, 1.0f);
        for (const char *p = c->text; p && *p;) {
            const char *end = strchr(p, '\n');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            char *file = SDL_malloc(len + 1);
            if (!file) {
                fputs("ossa-view: out of memory\n", stderr);
                return EXIT_INPUT;
            }
            memcpy(file, p, len);
            file[len] = '\0';
            memset(&e, 0, sizeof e);
            e.type = SDL_DROPFILE;
            e.drop.file = file;
            handle_event(app, &e, 1.0f, 1.0f);
            p = end ? end + 1 : NULL;
        }
        memset(&e, 0, sizeof e);
        e.type = SDL_DROPCOMPLETE;
        handle_event(app, &e, 1.0f, 1.0f);
        break;
    }
    case VIEW_SCRIPT_SCREENSHOT:
        update_pose(app, 0.0f);
        return write_screenshot(app, c->text, true);
    case VIEW_SCRIPT_STATE: print_state(app); break;
    case VIEW_SCRIPT_QUIT: app->quit = true; break;
    }
    return 0;
}

static int run_script(view_app *app, const view_script *s)
{
    app->view_w = app->opt.width;
    app->view_h = app->opt.height;
    double now = 0.0;
    for (size_t i = 0; i < s->count && !app->quit; i++) {
        const view_script_cmd *c = &s->cmds[i];
        /* Script time moves in steps no longer than a 60 Hz frame, so fades and playback
         * advance as they would on screen, and the same script always gives the same result. */
        while (now < c->at - 1e-9) {
            double step = c->at - now < SCRIPT_STEP ? c->at - now : SCRIPT_STEP;
            tick(app, (float)step);
            now += step;
        }
        int status = script_command(app, c);
        if (status)
            return status;
    }
    return 0;
}

static int interactive(view_app *app)
{
    SDL_GL_SetSwapInterval(1);
    SDL_EventState(SDL_DROPFILE, SDL_ENABLE);
    Uint64 freq = SDL_GetPerformanceFrequency(), last = SDL_GetPerformanceCounter();
    while (!app->quit) {
        int w, h, ww, wh;
        SDL_GL_GetDrawableSize(app->window, &w, &h);
        SDL_GetWindowSize(app->window, &ww, &wh);
        app->view_w = w;
        app->view_h = h;
        /* Mouse positions come in window units; the HUD is laid out in drawable pixels. */
        float sx = ww > 0 ? (float)w / (float)ww : 1.0f, sy = wh > 0 ? (float)h / (float)wh : 1.0f;
        SDL_Event e;
        while (SDL_PollEvent(&e))
            handle_event(app, &e, sx, sy);
        Uint64 now = SDL_GetPerformanceCounter();
        float dt = (float)((double)(now - last) / (double)freq);
        last = now;
        app->fps_time += dt;
        app->fps_frames++;
        if (app->fps_time >= 0.5) {
            app->fps = (float)(app->fps_frames / app->fps_time);
            app->fps_time = 0.0;
            app->fps_frames = 0;
        }
        bool was_playing = app->playback.playing;
        tick(app, dt > 0.25f ? 0.25f : dt);
        if (was_playing != app->playback.playing)
            update_title(app);
        draw(app, w, h, true);
        SDL_GL_SwapWindow(app->window);
    }
    return 0;
}

static int run(view_app *app)
{
    view_script script = {0};
    char err[1200];
    if (app->opt.script && !view_script_load(app->opt.script, &script, err, sizeof err)) {
        fprintf(stderr, "ossa-view: %s\n", err);
        return EXIT_INPUT;
    }
    int status = 0;
    if (!load_model(app->opt.files, app->opt.file_count, app->opt.fade, false, &app->cur, err,
                    sizeof err)) {
        fprintf(stderr, "ossa-view: %s\n", err);
        status = EXIT_INPUT;
    }
    uint32_t clip = 0;
    if (!status)
        status = resolve_clip(app->cur.model, app->opt.clip, &clip);
    if (!status) {
        app->display.bones = app->opt.bones;
        app->display.skinning = app->opt.skinning;
        app->show_info = true;
        app->offscreen = app->opt.screenshot || app->opt.script || app->opt.bench_frames;
        start_model(app, clip, app->opt.time);
        status = open_gl(app);
    }
    if (!status) {
        update_pose(app, 0.0f);
        if (app->opt.screenshot) {
            app->view_w = app->opt.width;
            app->view_h = app->opt.height;
            status = write_screenshot(app, app->opt.screenshot, app->opt.hud);
        } else if (app->opt.script) {
            status = run_script(app, &script);
        } else if (app->opt.bench_frames) {
            status = run_bench(app);
        } else {
            status = interactive(app);
        }
    }
    view_script_free(&script);
    return status;
}

int main(int argc, char **argv)
{
    view_app app;
    memset(&app, 0, sizeof app);
    int status = parse_args(argc, argv, &app.opt);
    if (status == 0)
        status = run(&app);
    else if (status < 0)
        status = 0;
    free_gl(&app);
    view_app_font_close(&app);
    free_model(&app.cur);
    view_hud_free(&app.hud);
    drop_clear(&app);
    if (app.context)
        SDL_GL_DeleteContext(app.context);
    if (app.window)
        SDL_DestroyWindow(app.window);
    SDL_Quit();
    free(app.opt.files);
    return status;
}
