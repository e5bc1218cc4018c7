/* ossa-view: opens a model (or the built-in demo), plays its clips and renders it with OpenGL
 * 3.3 core; --screenshot renders one frame offscreen into a PNG and exits. */
#include <glad/gl.h>
#include <SDL.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "ossa/demo.h"
#include "ossa/load.h"
#include "playback.h"
#include "png_write.h"
#include "render.h"
#include "scene.h"

/* Exit statuses: 1 for bad input (arguments, a file that does not load, a PNG that cannot be
 * written), 3 when no window or OpenGL 3.3 context can be had (tests tell the two apart). */
enum { EXIT_INPUT = 1, EXIT_DISPLAY = 3 };

#define MAX_SCREENSHOT_SIDE 8192

typedef struct view_options {
    const char **files;
    size_t file_count;
    const char *screenshot;
    int width, height;
    const char *clip;   /* index or name, NULL: clip 0 */
    float time;
    bool bones;
} view_options;

static void usage(FILE *out)
{
    fputs("usage: ossa-view [OPTIONS] [FILE...]\n"
          "Opens the files as one model (a Cal3D .cfg, or a skeleton with its meshes,\n"
          "animations and materials); with no file, the built-in demo mannequin.\n"
          "\n"
          "options:\n"
          "  --screenshot OUT.png  render one frame offscreen into OUT.png and exit\n"
          "  --size WxH            screenshot size (default 800x600)\n"
          "  --clip C              clip to play, by index or name (default 0)\n"
          "  --time T              screenshot time in seconds into the clip (default 0)\n"
          "  --bones               show the bone overlay from the start\n"
          "  --help                this text\n"
          "\n"
          "keys and mouse:\n"
          "  left drag    orbit            wheel      zoom\n"
          "  F            frame the model  Space      play / pause\n"
          "  N / P        next / previous clip\n"
          "  + / -        faster / slower  B          bone overlay on / off\n"
          "  Esc          quit\n"
          "\n"
          "exit status: 0 success, 1 bad arguments or a file that does not load,\n"
          "3 no display or no OpenGL 3.3 core context.\n",
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

/* Returns 0 to go on, or an exit status (-1 for a clean exit after --help). */
static int parse_args(int argc, char **argv, view_options *o)
{
    memset(o, 0, sizeof *o);
    o->width = 800;
    o->height = 600;
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
        } else if (strcmp(a, "--bones") == 0) {
            o->bones = true;
        } else if (strcmp(a, "--screenshot") == 0 && has_value) {
            o->screenshot = argv[++i];
        } else if (strcmp(a, "--size") == 0 && has_value) {
            if (!parse_size(argv[++i], &o->width, &o->height)) {
                fprintf(stderr, "ossa-view: --size '%s' is not WxH with sides 1..%d\n", argv[i],
                        MAX_SCREENSHOT_SIDE);
                return EXIT_INPUT;
            }
        } else if (strcmp(a, "--clip") == 0 && has_value) {
            o->clip = argv[++i];
        } else if (strcmp(a, "--time") == 0 && has_value) {
            char *end;
            o->time = strtof(argv[++i], &end);
            if (end == argv[i] || *end || !isfinite(o->time)) {
                fprintf(stderr, "ossa-view: --time '%s' is not a number of seconds\n", argv[i]);
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
    return 0;
}

static int load_model(const view_options *o, ossa_model **model)
{
    ossa_error err;
    ossa_status st = o->file_count
                         ? ossa_load_files(o->files, o->file_count, NULL, model, &err)
                         : ossa_demo_model(model, &err);
    if (st != OSSA_OK) {
        char text[1024];
        fprintf(stderr, "ossa-view: %s\n", ossa_error_format(&err, text, sizeof text));
        return EXIT_INPUT;
    }
    for (uint32_t i = 0; i < (*model)->warning_count; i++)
        fprintf(stderr, "ossa-view: warning: %s\n", (*model)->warnings[i]);
    return 0;
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

/* glad takes a function-pointer loader; SDL returns void *. memcpy converts without the cast
 * ISO C leaves undefined. */
static GLADapiproc load_gl_proc(const char *name)
{
    void *p = SDL_GL_GetProcAddress(name);
    GLADapiproc f;
    memcpy(&f, &p, sizeof f);
    return f;
}

typedef struct view_app {
    view_options opt;
    ossa_model *model;
    view_scene scene;
    bool scene_ready;
    view_camera camera;
    float bind_min[3], bind_max[3];
    view_playback playback;
    float *durations;
    SDL_Window *window;
    SDL_GLContext context;
    view_renderer renderer;
    bool renderer_ready;
    bool show_bones;
} view_app;

static const ossa_clip *current_clip(const view_app *app)
{
    return app->playback.clip_count ? &app->model->clips[app->playback.clip] : NULL;
}

static void frame_setup(const view_app *app, int width, int height, view_frame *f)
{
    f->width = width;
    f->height = height;
    f->show_bones = app->show_bones;
    view_camera_view_proj(&app->camera, height > 0 ? (float)width / (float)height : 1.0f,
                          f->view_proj);
    /* A light over the viewer's shoulder: towards the eye, raised along the up axis. */
    float eye[3], up[3], len = 0.0f;
    view_camera_eye(&app->camera, eye, up);
    for (int k = 0; k < 3; k++) {
        f->light_dir[k] = (eye[k] - app->camera.target[k]) / app->camera.distance + 0.8f * up[k];
        len += f->light_dir[k] * f->light_dir[k];
    }
    len = sqrtf(len);
    for (int k = 0; k < 3; k++)
        f->light_dir[k] = len > 0.0f ? f->light_dir[k] / len : up[k];
}

static int open_gl(view_app *app, bool hidden)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "ossa-view: no display: %s\n", SDL_GetError());
        return EXIT_DISPLAY;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    Uint32 flags = SDL_WINDOW_OPENGL | (hidden ? SDL_WINDOW_HIDDEN : SDL_WINDOW_RESIZABLE);
    char title[512];
    snprintf(title, sizeof title, "ossa-view - %s", app->model->source ? app->model->source : "");
    app->window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
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
    char err[1200];
    if (!view_renderer_init(&app->renderer, &app->scene, err, sizeof err)) {
        fprintf(stderr, "ossa-view: %s\n", err);
        return EXIT_DISPLAY;
    }
    app->renderer_ready = true;
    return 0;
}

/* Renders one frame into an offscreen framebuffer and writes it as a PNG. */
static int screenshot(view_app *app)
{
    int w = app->opt.width, h = app->opt.height;
    GLuint fbo = 0, rb[2] = {0, 0};
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(2, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
    int status = 0;
    uint8_t *pixels = NULL;
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "ossa-view: cannot create a %dx%d offscreen framebuffer\n", w, h);
        status = EXIT_DISPLAY;
    } else if (!(pixels = malloc((size_t)w * (size_t)h * 4))) {
        fprintf(stderr, "ossa-view: out of memory for a %dx%d image\n", w, h);
        status = EXIT_INPUT;
    } else {
        view_scene_pose(&app->scene, current_clip(app), app->playback.time);
        view_frame f;
        frame_setup(app, w, h, &f);
        view_renderer_draw(&app->renderer, &app->scene, &f);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
        char err[600];
        if (!view_write_png(app->opt.screenshot, pixels, w, h, true, err, sizeof err)) {
            fprintf(stderr, "ossa-view: %s\n", err);
            status = EXIT_INPUT;
        }
    }
    free(pixels);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteRenderbuffers(2, rb);
    glDeleteFramebuffers(1, &fbo);
    return status;
}

static void update_title(const view_app *app)
{
    const ossa_clip *clip = current_clip(app);
    char title[600];
    snprintf(title, sizeof title, "ossa-view - %s - %s%s", app->model->source,
             clip ? (clip->name ? clip->name : "(clip)") : "rest pose",
             app->playback.playing ? "" : " (paused)");
    SDL_SetWindowTitle(app->window, title);
}

static void handle_key(view_app *app, SDL_Keycode key, bool *quit)
{
    switch (key) {
    case SDLK_ESCAPE: *quit = true; break;
    case SDLK_SPACE: view_playback_toggle(&app->playback); break;
    case SDLK_f: view_camera_frame(&app->camera, app->bind_min, app->bind_max); break;
    case SDLK_b: app->show_bones = !app->show_bones; break;
    case SDLK_n: view_playback_step_clip(&app->playback, 1, app->durations); break;
    case SDLK_p: view_playback_step_clip(&app->playback, -1, app->durations); break;
    case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS:
        view_playback_scale_speed(&app->playback, 2.0f);
        break;
    case SDLK_MINUS: case SDLK_KP_MINUS: view_playback_scale_speed(&app->playback, 0.5f); break;
    default: return;
    }
    update_title(app);
}

static int interactive(view_app *app)
{
    SDL_GL_SetSwapInterval(1);
    update_title(app);
    Uint64 freq = SDL_GetPerformanceFrequency(), last = SDL_GetPerformanceCounter();
    bool quit = false;
    while (!quit) {
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            if (e.type == SDL_QUIT)
                quit = true;
            else if (e.type == SDL_KEYDOWN)
                handle_key(app, e.key.keysym.sym, &quit);
            else if (e.type == SDL_MOUSEMOTION && (e.motion.state & SDL_BUTTON_LMASK))
                view_camera_orbit(&app->camera, (float)e.motion.xrel, (float)e.motion.yrel);
            else if (e.type == SDL_MOUSEWHEEL)
                view_camera_zoom(&app->camera, (float)e.wheel.y);
        }
        Uint64 now = SDL_GetPerformanceCounter();
        float dt = (float)((double)(now - last) / (double)freq);
        last = now;
        view_playback_advance(&app->playback, dt > 0.25f ? 0.25f : dt);
        view_scene_pose(&app->scene, current_clip(app), app->playback.time);
        int w, h;
        SDL_GL_GetDrawableSize(app->window, &w, &h);
        view_frame f;
        frame_setup(app, w, h, &f);
        view_renderer_draw(&app->renderer, &app->scene, &f);
        SDL_GL_SwapWindow(app->window);
    }
    return 0;
}

static int run(view_app *app)
{
    int status = load_model(&app->opt, &app->model);
    if (status)
        return status;
    const ossa_model *m = app->model;
    uint32_t clip;
    if ((status = resolve_clip(m, app->opt.clip, &clip)) != 0)
        return status;
    app->durations = calloc(m->clip_count ? m->clip_count : 1, sizeof *app->durations);
    if (!app->durations || !view_scene_init(&app->scene, m)) {
        fputs("ossa-view: out of memory\n", stderr);
        return EXIT_INPUT;
    }
    app->scene_ready = true;
    for (uint32_t i = 0; i < m->clip_count; i++)
        app->durations[i] = m->clips[i].duration;
    view_playback_init(&app->playback, m->clip_count, app->durations);
    view_playback_set_clip(&app->playback, clip, app->durations);
    view_playback_seek(&app->playback, app->opt.time);
    app->show_bones = app->opt.bones;
    /* Framed on the bind pose (scene_init posed it at rest), which every clip moves around. */
    view_scene_bounds(&app->scene, app->bind_min, app->bind_max);
    view_camera_init(&app->camera);
    view_camera_frame(&app->camera, app->bind_min, app->bind_max);

    if ((status = open_gl(app, app->opt.screenshot != NULL)) != 0)
        return status;
    return app->opt.screenshot ? screenshot(app) : interactive(app);
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
    if (app.renderer_ready)
        view_renderer_free(&app.renderer);
    if (app.context)
        SDL_GL_DeleteContext(app.context);
    if (app.window)
        SDL_DestroyWindow(app.window);
    SDL_Quit();
    if (app.scene_ready)
        view_scene_free(&app.scene);
    free(app.durations);
    ossa_model_free(app.model);
    free(app.opt.files);
    return status;
}
