/* ossa-view's run and its event loop (event_loop.h). */
#include <glad/gl.h>
#include <SDL.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_loop.h"
#include "files.h"
#include "input.h"
#include "script.h"
#include "window.h"

#define SCRIPT_STEP (1.0 / 60.0)

/* What app.c leaves to the window and the HUD. */
static const view_app_ops window_ops = {
    .title_changed = view_window_title,
    .skinning_changed = view_gpu_notes,
    .clip_at = view_app_clip_at,
    .clip_wheel = view_app_clip_wheel,
    .pick_joint = view_app_pick_joint,
};

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
    const ossa_clock *p = app->playback;
    const ossa_clip *clip = view_app_current_clip(app);
    FILE *out = stdout;
    fprintf(out, "{\"clip\":%u,\"clip_count\":%u,\"clip_name\":", p->clip, p->clip_count);
    json_string(out, clip ? clip->name : NULL);
    fprintf(out, ",\"time\":%.6f,\"frame\":%u,\"last_frame\":%u,\"duration\":%.6f,"
                 "\"speed\":%g,\"playing\":%s,\"mode\":\"%s\",\"fading\":%s,\"skinning\":",
            (double)p->time, ossa_clock_frame(p), ossa_clock_last_frame(p),
            (double)p->duration, (double)p->speed, p->playing ? "true" : "false",
            view_wrap_mode_name(p->wrap), ossa_instance_fading(app->cur.scene.instance, NULL) ? "true" : "false");
    json_string(out, view_app_skinning_name(app));
    const view_scene *sc = &app->cur.scene;
    fprintf(out, ",\"morph_parts\":%u,\"morph_time\":%.6f,\"spring_parts\":%u",
            sc->morph_part_count, (double)sc->morph_time, sc->spring_part_count);
    fputs(",\"model\":", out);
    json_string(out, app->cur.name);
    fputs(",\"message\":", out);
    json_string(out, view_app_message_now(app));
    /* Where the HUD puts the free view and the clip panel's rows (window pixels). */
    view_app_hud_prepare(app, app->view_w, app->view_h, app->show_info);
    const view_layout *l = &app->layout;
    fprintf(out, ",\"view\":[%g,%g,%g,%g],\"clip_rows\":[%u,%u,%g,%g,%g,%g],\"font\":",
            (double)l->view.x0, (double)l->view.y0, (double)l->view.x1, (double)l->view.y1,
            app->clip_first, l->clip_rows, (double)l->clips.x0, (double)l->clips.x1,
            (double)l->rows_y0, (double)l->line_height);
    json_string(out, app->font.path);
    fprintf(out, ",\"selected_bone\":%d", (int)app->selected_bone);
    if (app->cur.crowd_ready) { /* each character's clock and a checksum of its palette */
        const view_crowd *c = &app->cur.crowd;
        fprintf(out, ",\"characters\":%u,\"crowd_times\":[", c->count);
        for (uint32_t i = 0; i < c->count; i++)
            fprintf(out, "%s%.6f", i ? "," : "", (double)view_crowd_time(c, i));
        fputs("],\"crowd_palettes\":[", out);
        for (uint32_t i = 0; i < c->count; i++)
            fprintf(out, "%s%u", i ? "," : "", view_crowd_palette_checksum(c, i));
        fputs("]", out);
    }
    fputs("}\n", out);
    fflush(out);
}

/* ---- benchmark ---------------------------------------------------------------------------- */

static int run_bench(view_app *app)
{
    long n = app->opt.bench_frames;
    int w = app->opt.width, h = app->opt.height;
    double *ms = malloc((size_t)n * sizeof *ms), *cpu_ms = malloc((size_t)n * sizeof *cpu_ms);
    if (!ms || !cpu_ms) {
        free(ms);
        free(cpu_ms);
        fputs("ossa-view: out of memory\n", stderr);
        return VIEW_EXIT_INPUT;
    }
    if (!view_window_bind_offscreen(app, w, h)) {
        free(ms);
        free(cpu_ms);
        return VIEW_EXIT_DISPLAY;
    }
    app->view_w = w;
    app->view_h = h;
    float dt = 1.0f / app->playback->frame_rate;
    Uint64 freq = SDL_GetPerformanceFrequency();
    for (long i = 0; i < n; i++) {
        Uint64 t0 = SDL_GetPerformanceCounter();
        view_app_tick(app, dt);
        view_window_draw(app, w, h, true);
        glFinish(); /* the frame's GPU work is part of its time */
        Uint64 t1 = SDL_GetPerformanceCounter();
        ms[i] = 1000.0 * (double)(t1 - t0) / (double)freq;
        app->fps = ms[i] > 0.0 ? (float)(1000.0 / ms[i]) : 0.0f;
        const view_model *vm = &app->cur;
        cpu_ms[i] = vm->crowd_ready ? 1000.0 * view_crowd_cpu_seconds(&vm->crowd, vm->crowd_gl_ready
                                                                               ? &vm->crowd_gl
                                                                               : NULL)
                                    : 0.0;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    view_frame_stats st, cpu;
    view_frame_stats_compute(ms, (size_t)n, &st);
    view_frame_stats_compute(cpu_ms, (size_t)n, &cpu);
    free(ms);
    free(cpu_ms);
    printf("{\"frames\":%ld,\"width\":%d,\"height\":%d,\"model\":", n, w, h);
    json_string(stdout, app->cur.name);
    const view_model *vm = &app->cur;
    if (vm->crowd_ready) {
        /* Vertices skinned (CPU) or drawn (GPU) a frame, and a second at the median frame. */
        size_t per_frame = vm->crowd_gl_ready ? vm->crowd_gl.vertices_per_frame : 0;
        printf(",\"characters\":%u,\"vertices_per_frame\":%zu,\"vertices_per_second\":%.0f,"
               "\"cpu_median_ms\":%.4f,\"cpu_mean_ms\":%.4f",
               vm->crowd.count, per_frame,
               st.median > 0.0 ? (double)per_frame * 1000.0 / st.median : 0.0, cpu.median,
               cpu.mean);
    }
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
    case SDL_KEYDOWN: view_app_key(app, sdl_key(e->key.keysym.sym), sdl_mods(e->key.keysym.mod)); break;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP: {
        int b = sdl_button(e->button.button);
        if (b)
            view_app_button(app, b, e->type == SDL_MOUSEBUTTONDOWN, (float)e->button.x * sx,
                       (float)e->button.y * sy);
        break;
    }
    case SDL_MOUSEMOTION:
        view_app_motion(app, (float)e->motion.x * sx, (float)e->motion.xrel * sx,
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
        view_app_wheel(app, (float)mx * sx, (float)my * sy, notches);
        break;
    }
    case SDL_DROPBEGIN: view_drop_begin(app); break;
    case SDL_DROPFILE: view_drop_file(app, e->drop.file); break;
    case SDL_DROPCOMPLETE: view_drop_complete(app); break;
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
                return VIEW_EXIT_INPUT;
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
        view_app_update_pose(app);
        return view_window_screenshot(app, c->text, true);
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
            view_app_tick(app, (float)step);
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
    /* At most two frames in flight: where a swap does not wait (no vsync, a hidden window,
     * SDL's offscreen driver on llvmpipe) frames queued faster than they were drawn and the
     * driver's memory grew by 100 MB a second. */
    GLsync in_flight = NULL;
    long frames = 0;
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
        bool was_playing = app->playback->playing;
        view_app_tick(app, dt > 0.25f ? 0.25f : dt);
        if (was_playing != app->playback->playing)
            view_window_title(app);
        view_window_draw(app, w, h, true);
        SDL_GL_SwapWindow(app->window);
        if (in_flight) {
            glClientWaitSync(in_flight, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000u);
            glDeleteSync(in_flight);
        }
        in_flight = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        if (app->opt.quit_after && ++frames >= app->opt.quit_after)
            app->quit = true;
    }
    if (in_flight)
        glDeleteSync(in_flight);
    return 0;
}

int view_run(view_app *app)
{
    view_script script = {0};
    char err[1200];
    if (app->opt.script && !view_script_load(app->opt.script, &script, err, sizeof err)) {
        fprintf(stderr, "ossa-view: %s\n", err);
        return VIEW_EXIT_INPUT;
    }
    int status = 0;
    app->ops = &window_ops;
    bool interactive_run = !app->opt.screenshot && !app->opt.script && !app->opt.bench_frames;
    char failed[1300] = "";
    if (!view_load_model(app->opt.files, app->opt.file_count, &app->opt, false, &app->cur, err,
                         sizeof err)) {
        fprintf(stderr, "ossa-view: %s\n", err);
        status = VIEW_EXIT_INPUT;
        /* A window opened by hand stays open on the demo, the error shown in it; a
         * screenshot, script or bench run fails as it did. */
        snprintf(failed, sizeof failed, "cannot open: %s (the demo is shown)", err);
        if (interactive_run && app->opt.file_count &&
            view_load_model(NULL, 0, &app->opt, false, &app->cur, err, sizeof err))
            status = 0;
        else
            failed[0] = '\0';
    }
    uint32_t clip = 0;
    if (!status && !failed[0]) /* --clip names a clip of the model given, not the demo's */
        status = view_resolve_clip(app->cur.model, app->opt.clip, &clip);
    if (!status) {
        app->display.bones = app->opt.bones;
        app->display.skinning = app->opt.skinning;
        app->show_info = true;
        app->offscreen = app->opt.screenshot || app->opt.script || app->opt.bench_frames;
        view_app_start_model(app, clip, app->opt.time);
        status = view_window_open(app);
        if (failed[0])
            view_app_message(app, failed);
        else
            view_left_out(app);
    }
    if (!status) {
        view_app_update_pose(app);
        if (app->opt.screenshot) {
            app->view_w = app->opt.width;
            app->view_h = app->opt.height;
            status = view_window_screenshot(app, app->opt.screenshot, app->opt.hud);
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

void view_shutdown(view_app *app)
{
    view_window_free_gl(app);
    view_app_font_close(app);
    view_free_model(&app->cur);
    view_hud_free(&app->hud);
    view_drop_clear(app);
    view_window_close(app);
}
