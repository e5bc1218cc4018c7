/* The state ossa-view keeps while it runs, shared by main.c (options, SDL events, GL, scripts)
 * and app_hud.c (the HUD from that state: font, panels, joint names). */
#ifndef OSSA_VIEW_APP_H
#define OSSA_VIEW_APP_H

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "camera.h"
#include "crossfade.h"
#include "font_ttf.h"
#include "glyphs.h"
#include "hud.h"
#include "hud_gl.h"
#include "layout.h"
#include "playback.h"
#include "render.h"
#include "scene.h"

#define MAX_DROP_FILES 256

typedef struct view_options {
    const char **files;
    size_t file_count;
    const char *screenshot;
    const char *script;
    long bench_frames;
    int width, height;
    const char *clip;   /* index or name, NULL: clip 0 */
    float time;
    float frame_rate;
    float speed;
    float fade;
    ossa_wrap mode;
    view_up_axis up;
    bool paused;
    bool bones;
    bool hud;           /* --screenshot draws the HUD too */
    view_skinning skinning;
} view_options;

/* Everything that belongs to one loaded model; a drop builds a new one beside the current one
 * and swaps only when it is complete. */
typedef struct view_model {
    ossa_model *model;
    view_scene scene;
    bool scene_ready;
    view_renderer renderer;
    bool renderer_ready;
    view_crossfade fade;
    float *durations;            /* clip_count entries (at least one) */
    view_joint_label *labels;    /* bone_count entries (at least one) */
    float bind_min[3], bind_max[3];
    char name[256];              /* shown in the HUD */
    bool skeleton_only;          /* nothing to draw but bones: they are shown */
    bool gpu_notes_shown;        /* the parts the GPU path leaves to the CPU were named */
} view_model;

typedef struct view_app {
    view_options opt;
    view_model cur;
    view_camera camera;
    view_playback playback;
    view_display display;
    view_ticks ticks;
    bool show_info, show_help;
    bool offscreen;                 /* hidden window: script, bench, screenshot */
    SDL_Window *window;
    SDL_GLContext context;
    bool gl_ready;
    view_hud hud;
    view_hud_gl hud_gl;
    bool hud_ready;
    view_glyphs glyphs;             /* the HUD font's glyph cache */
    view_font font;
    bool glyphs_ready;
    view_hud_info hud_info;         /* of the frame prepared last */
    view_layout layout;
    uint32_t clip_first;            /* the clip panel's scroll */
    uint32_t clip_followed;         /* the clip it was last scrolled to show */
    char hud_display[160];          /* the HUD's "showing ..." text */
    unsigned fbo, fbo_color, fbo_depth;
    int fbo_w, fbo_h;
    /* Input state. */
    int drag_button;
    bool drag_moved;                /* the left drag orbited: its release picks no joint */
    int32_t selected_bone;          /* its name always shows; -1: none */
    bool scrubbing, play_after_scrub;
    int view_w, view_h;             /* what mouse coordinates and the HUD refer to */
    char *drop_paths[MAX_DROP_FILES];
    size_t drop_count;
    bool drop_open;
    /* Time, messages, frame rate. */
    double clock;                   /* seconds of wall or script time since start */
    char message[512];
    double message_until;
    float fps;
    double fps_time;
    int fps_frames;
    bool quit;
    /* The clip a fade leaves and its time, for its vertex tracks (the mixer blends bones only). */
    uint32_t fade_from;
    float fade_from_time;
    /* Morph clips and springs (scene.h): the morph clock of a model without skeletal clips
     * (else the current clip's time is used), and whether time jumped (seek, frame step, clip
     * change) since the last tick, which puts the cloth back at rest. */
    float morph_clock;
    bool time_jumped;
} view_app;

/* The HUD's font: found and opened at the size for the window's DPI; with none, a one-line note
 * on stderr and a HUD without text. */
void view_app_font_open(view_app *app);
void view_app_font_close(view_app *app);
/* Before drawing a w x h frame: the HUD's information and layout for this frame (the font's
 * size following the DPI first, in a window), and the camera's viewport: what the HUD leaves
 * free when it is drawn, else the whole frame. */
void view_app_hud_prepare(view_app *app, int w, int h, bool with_hud);
/* The HUD's triangles for the frame prepared last, joint names placed with view_proj. */
void view_app_hud_build(view_app *app, const float view_proj[16]);
/* The clip of the clip panel under (x, y) in the current window size; -1 when none. */
int64_t view_app_clip_at(view_app *app, float x, float y);
/* The wheel over the clip panel scrolls it: true when (x, y) is over it. */
bool view_app_clip_wheel(view_app *app, float x, float y, float notches);
const char *view_app_skinning_name(const view_app *app);
/* Selects the joint drawn nearest (x, y), within a line's height of it; none there: no joint. */
void view_app_pick_joint(view_app *app, float x, float y);

#endif
