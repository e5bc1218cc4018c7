/* ossa-view opening models (files.h). */
#include <SDL.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "window.h"
#include "demo.h"
#include "ossa/load.h"

void view_free_model(view_model *vm)
{
    if (vm->crowd_gl_ready)
        view_crowd_renderer_free(&vm->crowd_gl);
    if (vm->renderer_ready)
        view_renderer_free(&vm->renderer);
    view_model_release(vm);
}

/* The load's warnings, on stderr as they come: also those of a load that then fails. */
static void print_warning(void *user, const char *message)
{
    (void)user;
    fprintf(stderr, "ossa-view: warning: %s\n", message);
}

bool view_load_model(const char *const *paths, size_t count, const view_options *opt, bool gl,
                     view_model *vm, char *err, size_t err_size)
{
    memset(vm, 0, sizeof *vm);
    ossa_model *model;
    ossa_error e;
    /* Show what reads: a damaged file of a set is left out and named (view_left_out). */
    ossa_load_options lopt = {.allow_outside = opt->allow_outside, .skip_bad_files = true,
                              .log = {print_warning, NULL}};
    ossa_status st = count ? ossa_load_files(paths, count, &lopt, &model, &e)
                           : ossa_demo_model(&model, &e);
    if (st != OSSA_OK) {
        ossa_error_format(&e, err, err_size);
        return false;
    }
    if (!view_model_init(vm, model, opt->fade, err, err_size))
        return false;
    if (gl) {
        if (!view_window_renderer_init(vm, err, err_size)) {
            view_free_model(vm);
            return false;
        }
        vm->renderer_ready = true;
    }
    return true;
}

void view_left_out(view_app *app)
{
    const ossa_model *m = app->cur.model;
    char text[512] = "";
    size_t n = 0, count = 0;
    for (uint32_t i = 0; m && i < m->warning_count; i++) {
        const char *w = strstr(m->warnings[i], "left out ");
        if (!w)
            continue;
        count++;
        if (n < sizeof text - 1) {
            int k = snprintf(text + n, sizeof text - n, "%s%s", n ? "; " : "", w);
            n += k > 0 ? (size_t)k : 0;
        }
    }
    if (count)
        view_app_message(app, text);
}

int view_resolve_clip(const ossa_model *m, const char *clip, uint32_t *out)
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
    uint32_t found = ossa_model_find_clip(m, clip);
    if (found == OSSA_NOT_FOUND) {
        fprintf(stderr, "ossa-view: the model has no clip '%s' (%u clips:", clip, m->clip_count);
        for (uint32_t i = 0; i < m->clip_count; i++)
            fprintf(stderr, " %u '%s'", i, m->clips[i].name ? m->clips[i].name : "");
        fputs(")\n", stderr);
        return VIEW_EXIT_INPUT;
    }
    *out = found;
    return 0;
}

void view_gpu_notes(view_app *app)
{
    if (app->display.skinning == VIEW_SKIN_GPU && app->cur.renderer_ready &&
        !app->cur.gpu_notes_shown) {
        view_renderer_print_gpu_notes(&app->cur.renderer, &app->cur.scene, stderr);
        app->cur.gpu_notes_shown = true;
    }
}

/* A folder opens by the engine's folder rule, as on the command line. */
void view_open_paths(view_app *app, char *const *paths, size_t count)
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
    else if (n && view_load_model((const char *const *)files, n, &app->opt, app->gl_ready,
                                  &next, err, sizeof err)) {
        view_free_model(&app->cur);
        app->cur = next;
        view_app_start_model(app, 0, 0.0f);
        view_gpu_notes(app);
        char text[600];
        snprintf(text, sizeof text, "opened %s", app->cur.name);
        fprintf(stderr, "ossa-view: %s\n", text);
        app->message[0] = '\0';
        view_left_out(app);
    } else if (!err[0]) {
        snprintf(err, sizeof err, "nothing to open");
    }
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    if (err[0]) {
        char text[1300];
        snprintf(text, sizeof text, "cannot open: %s", err);
        fprintf(stderr, "ossa-view: %s\n", text);
        view_app_message(app, text);
    }
}

void view_drop_clear(view_app *app)
{
    for (size_t i = 0; i < app->drop_count; i++)
        SDL_free(app->drop_paths[i]);
    app->drop_count = 0;
}

void view_drop_begin(view_app *app)
{
    view_drop_clear(app);
    app->drop_open = true;
}

void view_drop_file(view_app *app, char *file)
{
    if (app->drop_count < MAX_DROP_FILES)
        app->drop_paths[app->drop_count++] = file;
    else
        SDL_free(file);
    if (!app->drop_open) { /* a system that sends no begin/complete: one path a drop */
        view_open_paths(app, app->drop_paths, app->drop_count);
        view_drop_clear(app);
    }
}

void view_drop_complete(view_app *app)
{
    if (app->drop_count)
        view_open_paths(app, app->drop_paths, app->drop_count);
    view_drop_clear(app);
    app->drop_open = false;
}
