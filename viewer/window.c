/* ossa-view's window, GL context and frames (window.h). */
#include <glad/gl.h>
#include <SDL.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "png_write.h"
#include "window.h"

#define HUD_MAX_QUADS 16384

/* glad takes a function-pointer loader; SDL returns void *. memcpy converts without the cast
 * ISO C leaves undefined. */
static GLADapiproc load_gl_proc(const char *name)
{
    void *p = SDL_GL_GetProcAddress(name);
    GLADapiproc f;
    memcpy(&f, &p, sizeof f);
    return f;
}

void view_window_title(view_app *app)
{
    if (!app->window || app->offscreen)
        return;
    char title[600];
    view_app_title(app, title, sizeof title);
    SDL_SetWindowTitle(app->window, title);
}

int view_window_open(view_app *app)
{
    /* A hidden window with no display to show it on: go straight to SDL's offscreen driver
     * rather than let SDL probe Wayland, whose library complains about XDG_RUNTIME_DIR on
     * stderr. SDL_VIDEODRIVER in the environment still wins over this hint. */
    bool no_display = !getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY");
    if (app->offscreen && no_display)
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
    /* A window with nowhere to show it: say so in one line and stop, rather than let SDL
     * probe Wayland (whose library complains about XDG_RUNTIME_DIR) and run invisibly. A
     * driver named in SDL_VIDEODRIVER (kmsdrm on a console, offscreen) is still tried. */
    if (!app->offscreen && no_display && !getenv("SDL_VIDEODRIVER")) {
        fputs("ossa-view: no display: DISPLAY and WAYLAND_DISPLAY are unset (run it in a desktop "
              "session; --screenshot, --script and --bench-frames need no display)\n",
              stderr);
        return VIEW_EXIT_DISPLAY;
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "ossa-view: no display: %s\n", SDL_GetError());
        return VIEW_EXIT_DISPLAY;
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
        return VIEW_EXIT_DISPLAY;
    }
    app->context = SDL_GL_CreateContext(app->window);
    if (!app->context) {
        fprintf(stderr, "ossa-view: no OpenGL 3.3 core context: %s\n", SDL_GetError());
        return VIEW_EXIT_DISPLAY;
    }
    int version = gladLoadGL(load_gl_proc);
    if (!version || GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 33) {
        fprintf(stderr, "ossa-view: OpenGL 3.3 functions could not be loaded\n");
        return VIEW_EXIT_DISPLAY;
    }
    app->gl_ready = true;
    char err[1200];
    if (!view_window_renderer_init(&app->cur, err, sizeof err)) {
        fprintf(stderr, "ossa-view: %s\n", err);
        return VIEW_EXIT_DISPLAY;
    }
    app->cur.renderer_ready = true;
    view_app_font_open(app);
    if (!app->glyphs_ready || !view_hud_init(&app->hud, HUD_MAX_QUADS, &app->glyphs)) {
        fputs("ossa-view: out of memory\n", stderr);
        return VIEW_EXIT_INPUT;
    }
    if (!view_hud_gl_init(&app->hud_gl, app->hud.capacity, err, sizeof err)) {
        fprintf(stderr, "ossa-view: %s\n", err);
        return VIEW_EXIT_DISPLAY;
    }
    app->hud_ready = true;
    view_gpu_notes(app);
    view_window_title(app);
    return 0;
}

bool view_window_bind_offscreen(view_app *app, int w, int h)
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

void view_window_free_gl(view_app *app)
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

bool view_window_renderer_init(view_model *vm, char *err, size_t err_size)
{
    view_scene_bind bind;
    if (!view_scene_bind_data(&vm->scene, &bind)) {
        snprintf(err, err_size, "out of memory for %zu vertices", vm->scene.vertex_count);
        return false;
    }
    bool ok = view_renderer_init(&vm->renderer, &vm->scene, &bind, err, err_size);
    view_scene_bind_free(&bind);
    return ok;
}

static bool crowd_renderer_init(view_model *vm, char *err, size_t err_size)
{
    view_scene_bind bind;
    if (!view_scene_bind_data(&vm->scene, &bind)) {
        snprintf(err, err_size, "out of memory for %zu vertices", vm->scene.vertex_count);
        return false;
    }
    bool ok = view_crowd_renderer_init(&vm->crowd_gl, &vm->renderer, &vm->scene, &bind,
                                       &vm->crowd, err, err_size);
    view_scene_bind_free(&bind);
    return ok;
}

/* The CPU work of a frame, before anything is drawn: the renderers only upload and draw. */
static void prepare_frame(view_model *vm, const view_display *d)
{
    if (vm->crowd_gl_ready) {
        view_crowd_wants wants;
        view_crowd_renderer_wants(&vm->crowd_gl, &vm->renderer, &vm->crowd, d, &wants);
        view_crowd_prepare(&vm->crowd, &wants);
    } else {
        view_scene_wants wants;
        view_renderer_wants(&vm->renderer, d, &wants);
        view_scene_prepare(&vm->scene, &wants);
    }
}

void view_window_draw(view_app *app, int w, int h, bool with_hud)
{
    view_frame f;
    /* The crowd's GL side before the HUD, which names its skinning path. */
    view_model *vm = &app->cur;
    if (vm->crowd_ready && vm->renderer_ready && !vm->crowd_gl_ready) {
        char err[1200];
        vm->crowd_gl_ready = crowd_renderer_init(vm, err, sizeof err);
        if (!vm->crowd_gl_ready) { /* the single model is drawn instead */
            fprintf(stderr, "ossa-view: warning: the crowd cannot be drawn: %s\n", err);
            view_crowd_free(&vm->crowd);
            vm->crowd_ready = false;
        }
    }
    prepare_frame(vm, &app->display);
    view_app_hud_prepare(app, w, h, with_hud && app->hud_ready);
    frame_setup(app, w, h, &f);
    if (vm->crowd_gl_ready)
        view_crowd_renderer_draw(&vm->crowd_gl, &vm->renderer, &vm->scene, &vm->crowd, &f);
    else
        view_renderer_draw(&vm->renderer, &vm->scene, &f);
    if (with_hud && app->hud_ready) {
        view_app_hud_build(app, f.view_proj);
        view_hud_gl_draw(&app->hud_gl, &app->hud, w, h);
    }
}

int view_window_screenshot(view_app *app, const char *path, bool with_hud)
{
    int w = app->opt.width, h = app->opt.height;
    if (!view_window_bind_offscreen(app, w, h))
        return VIEW_EXIT_DISPLAY;
    uint8_t *pixels = malloc((size_t)w * (size_t)h * 4);
    if (!pixels) {
        fprintf(stderr, "ossa-view: out of memory for a %dx%d image\n", w, h);
        return VIEW_EXIT_INPUT;
    }
    view_window_draw(app, w, h, with_hud);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    int status = 0;
    char err[600];
    if (!view_write_png(path, pixels, w, h, true, err, sizeof err)) {
        fprintf(stderr, "ossa-view: %s\n", err);
        status = VIEW_EXIT_INPUT;
    }
    free(pixels);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return status;
}

void view_window_close(view_app *app)
{
    if (app->context)
        SDL_GL_DeleteContext(app->context);
    if (app->window)
        SDL_DestroyWindow(app->window);
    SDL_Quit();
}
