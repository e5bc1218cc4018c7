/* ossa-view's HUD from the running state: the font (found, sized for the DPI), the information
 * and clip panels laid out before the model is drawn (the camera frames the model in what they
 * leave free), joint names after it. Layout and drawing decisions are in hud.c and layout.c. */
#include <SDL.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

/* The HUD's text size in pixels at 96 DPI. */
#define FONT_BASE_PX 13

/* The DPI of the window's display and its drawable pixels per window unit; 96 and 1 for the
 * hidden windows of screenshots, scripts and benchmarks, so their pictures do not depend on
 * the machine. */
static int font_size(const view_app *app)
{
    float dpi = 96.0f, per_unit = 1.0f;
    if (app->window && !app->offscreen) {
        int display = SDL_GetWindowDisplayIndex(app->window);
        float ddpi;
        if (display >= 0 && SDL_GetDisplayDPI(display, &ddpi, NULL, NULL) == 0)
            dpi = ddpi;
        int w, h, ww, wh;
        SDL_GL_GetDrawableSize(app->window, &w, &h);
        SDL_GetWindowSize(app->window, &ww, &wh);
        if (ww > 0)
            per_unit = (float)w / (float)ww;
    }
    return view_glyphs_pixel_size(FONT_BASE_PX, dpi, per_unit);
}

void view_app_font_open(view_app *app)
{
    if (!view_glyphs_init(&app->glyphs)) {
        fputs("ossa-view: note: out of memory for the HUD's font: the HUD has no text\n", stderr);
        return;
    }
    app->glyphs_ready = true;
    /* OSSA_VIEW_FONT names the file to use instead of looking in the usual places. */
    const char *override = getenv("OSSA_VIEW_FONT");
    char path[512], err[800];
    if (!view_font_find(override && override[0] ? override : NULL, path, sizeof path)) {
        if (override && override[0])
            fprintf(stderr, "ossa-view: note: font %s (OSSA_VIEW_FONT) not found: the HUD has "
                            "no text\n", override);
        else
            fputs("ossa-view: note: no TrueType font found (install fonts-dejavu-core): the HUD "
                  "has no text\n", stderr);
        return;
    }
    if (!view_font_open(&app->font, path, font_size(app), &app->glyphs, err, sizeof err))
        fprintf(stderr, "ossa-view: note: the HUD has no text: %s\n", err);
}

void view_app_font_close(view_app *app)
{
    view_font_close(&app->font);
    if (app->glyphs_ready)
        view_glyphs_free(&app->glyphs);
    app->glyphs_ready = false;
}

const char *view_app_skinning_name(const view_app *app)
{
    if (app->cur.crowd_gl_ready)
        return view_crowd_skinning_name(&app->cur.crowd_gl, &app->cur.renderer, &app->display);
    return app->cur.renderer_ready ? view_renderer_skinning_name(&app->cur.renderer, &app->display)
                                   : view_scene_kernel_name(&app->cur.scene);
}

/* "12 characters  3.4 Mvert/s  cpu 1.25 ms": vertices a second are those skinned (CPU) or
 * drawn (GPU) in the last frame times the measured frame rate (none measured: not shown); the
 * CPU time is the last update's plus the last frame's skinning (or palette packing). */
static const char *crowd_line(view_app *app)
{
    const view_model *vm = &app->cur;
    if (!vm->crowd_ready)
        return NULL;
    const view_crowd *c = &vm->crowd;
    double cpu_ms = 1000.0 * view_crowd_cpu_seconds(c, vm->crowd_gl_ready ? &vm->crowd_gl : NULL);
    size_t per_frame = vm->crowd_gl_ready ? vm->crowd_gl.vertices_per_frame : 0;
    char rate[48] = "";
    if (app->fps > 0.0f && isfinite(app->fps))
        snprintf(rate, sizeof rate, "  %.2f Mvert/s", (double)per_frame * (double)app->fps * 1e-6);
    snprintf(app->hud_crowd, sizeof app->hud_crowd, "%u character%s%s  cpu %.2f ms", c->count,
             c->count == 1 ? "" : "s", rate, cpu_ms);
    return app->hud_crowd;
}

static void fill_info(view_app *app, int w, int h, view_hud_info *info)
{
    char *display = app->hud_display;
    const size_t display_size = sizeof app->hud_display;
    const ossa_clock *p = app->playback;
    const ossa_model *m = app->cur.model;
    const ossa_clip *clip = p->clip_count ? &m->clips[p->clip] : NULL;
    const view_display *d = &app->display;
    snprintf(display, display_size, "%s%s%s%s%s%s", d->bones ? "bones " : "",
             d->joint_names ? "names " : "", d->wireframe ? "wireframe " : "",
             d->normals ? "normals " : "", d->bind_pose ? "bind-pose " : "",
             d->grid ? "grid" : "");
    uint32_t hidden = app->cur.scene.hidden_mesh_count; /* OSSA_MESH_HIDDEN: not drawn */
    size_t used = strlen(display);
    while (hidden && used && display[used - 1] == ' ')
        display[--used] = '\0';
    if (hidden)
        snprintf(display + used, display_size - used, "%s%u hidden mesh%s not drawn",
                 used ? ", " : "", hidden, hidden == 1 ? "" : "es");
    *info = (view_hud_info){
        .width = w,
        .height = h,
        .show_info = app->show_info,
        .show_help = app->show_help,
        .model_name = app->cur.name,
        .clip_name = clip ? (clip->name && clip->name[0] ? clip->name : "(unnamed)") : NULL,
        .clip = p->clip,
        .clip_count = p->clip_count,
        .clips = p->clip_count ? m->clips : NULL,
        .clip_first = app->clip_first,
        .time = p->time,
        .duration = p->duration,
        .speed = p->speed,
        .frame = ossa_clock_frame(p),
        .last_frame = ossa_clock_last_frame(p),
        .frames_per_second = app->fps,
        .mode = view_wrap_mode_name(p->wrap),
        .playing = p->playing,
        .fading = ossa_instance_fading(app->cur.scene.instance, NULL),
        .skinning = view_app_skinning_name(app),
        .crowd = crowd_line(app),
        .display = display,
        .skeleton_only = app->cur.skeleton_only,
        .ticks = &app->ticks,
        .message = app->clock < app->message_until ? app->message : NULL,
        .selected_label = SIZE_MAX,
    };
}

void view_app_hud_prepare(view_app *app, int w, int h, bool with_hud)
{
    if (app->glyphs_ready && app->window && !app->offscreen)
        view_font_resize(&app->font, font_size(app), &app->glyphs);
    fill_info(app, w, h, &app->hud_info);
    if (app->hud_ready && app->glyphs_ready) {
        view_hud_layout(&app->hud, &app->hud_info, &app->layout);
        /* The list follows the clip when it changes; a scroll in between stays. */
        uint32_t clip = app->playback->clip, count = app->playback->clip_count;
        bool follow = clip != app->clip_followed;
        app->clip_first = view_clip_first(app->clip_first, follow ? clip : count, count,
                                          app->layout.clip_rows);
        if (follow && app->layout.clip_rows)
            app->clip_followed = clip;
        app->hud_info.clip_first = app->clip_first;
    } else {
        view_layout_in none = {.width = w, .height = h, .line_height = 16.0f};
        view_layout_compute(&app->layout, &none);
    }
    view_camera_set_viewport(&app->camera, w, h, with_hud ? &app->layout.view : NULL);
}

/* Joint name labels at the joints' window positions: every joint's, or (all false) only the
 * selected one's. */
static size_t joint_labels(view_app *app, const float vp[16], int w, int h, bool all)
{
    const ossa_model *m = app->cur.model;
    const float *joints = app->display.bind_pose ? app->cur.scene.bind_joints
                                                 : app->cur.scene.joints;
    size_t n = 0;
    if (!joints)
        return 0;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const float *p = joints + 3 * (size_t)i;
        float clip[4];
        for (int r = 0; r < 4; r++)
            clip[r] = vp[r] * p[0] + vp[4 + r] * p[1] + vp[8 + r] * p[2] + vp[12 + r];
        if (!(clip[3] > 1e-6f) || !m->bones[i].name)
            continue; /* behind the eye */
        if (!all && (int32_t)i != app->selected_bone)
            continue;
        float nx = clip[0] / clip[3], ny = clip[1] / clip[3];
        if (fabsf(nx) > 1.2f || fabsf(ny) > 1.2f)
            continue;
        view_joint_label *l = &app->cur.labels[n++];
        l->x = (nx * 0.5f + 0.5f) * (float)w;
        l->y = (0.5f - ny * 0.5f) * (float)h;
        l->name = m->bones[i].name;
        l->bone = i;
    }
    return n;
}

void view_app_pick_joint(view_app *app, float x, float y)
{
    float vp[16];
    view_app_hud_prepare(app, app->view_w, app->view_h, app->hud_ready);
    view_camera_view_proj(&app->camera, vp);
    size_t n = joint_labels(app, vp, app->view_w, app->view_h, true);
    size_t hit = view_joint_pick(app->cur.labels, n, x, y, 0.8f * app->layout.line_height);
    app->selected_bone = hit < n ? (int32_t)app->cur.labels[hit].bone : -1;
}

void view_app_hud_build(view_app *app, const float view_proj[16])
{
    view_hud_info *info = &app->hud_info;
    info->labels = app->cur.labels;
    bool all = app->display.joint_names;
    info->label_count = all || app->selected_bone >= 0
                            ? joint_labels(app, view_proj, info->width, info->height, all)
                            : 0;
    info->selected_label = SIZE_MAX;
    for (size_t i = 0; i < info->label_count; i++)
        if ((int32_t)app->cur.labels[i].bone == app->selected_bone)
            info->selected_label = i;
    view_hud_begin(&app->hud);
    view_hud_build(&app->hud, info, &app->layout);
}

int64_t view_app_clip_at(view_app *app, float x, float y)
{
    if (!app->show_info || !app->playback->clip_count)
        return -1;
    view_app_hud_prepare(app, app->view_w, app->view_h, true);
    return view_clip_at(&app->layout, app->clip_first, app->playback->clip_count, x, y);
}

bool view_app_clip_wheel(view_app *app, float x, float y, float notches)
{
    if (!app->show_info || !app->playback->clip_count)
        return false;
    view_app_hud_prepare(app, app->view_w, app->view_h, true);
    if (!view_rect_contains(&app->layout.clips, x, y))
        return false;
    app->clip_first = view_clip_scroll(app->clip_first, notches, app->playback->clip_count,
                                       app->layout.clip_rows);
    return true;
}
