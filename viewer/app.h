/* The state ossa-view keeps while it runs and what every action does to it (app.c, no GL and no
 * SDL: unit-tested headless). The event loop (event_loop.c: SDL events, scripts, GL frames),
 * files.c (opening models, drops) and app_hud.c (the HUD from this state: font, panels, joint
 * names) share it. This header names GL and SDL types only as opaque pointers and plain structs. */
#ifndef OSSA_VIEW_APP_H
#define OSSA_VIEW_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "camera.h"
#include "crowd.h"
#include "font_ttf.h"
#include "glyphs.h"
#include "hud.h"
#include "hud_gl.h"
#include "layout.h"
#include "options.h"
#include "playback.h"
#include "render.h"
#include "render_crowd.h"
#include "scene.h"

#define MAX_DROP_FILES 256

/* Everything that belongs to one loaded model; a drop builds a new one beside the current one
 * and swaps only when it is complete. */
typedef struct view_model {
    ossa_model *model;
    view_scene scene;
    bool scene_ready;
    view_renderer renderer;
    bool renderer_ready;
    float fade_seconds;          /* a clip change's cross-fade (the instance runs it) */
    float *durations;            /* clip_count entries (at least one) */
    view_joint_label *labels;    /* bone_count entries (at least one) */
    float bind_min[3], bind_max[3];
    char name[256];              /* shown in the HUD */
    bool skeleton_only;          /* nothing to draw but bones: they are shown */
    bool gpu_notes_shown;        /* the parts the GPU path leaves to the CPU were named */
    /* --crowd: the characters (crowd.h) and their GL side (made at the first frame). */
    view_crowd crowd;
    bool crowd_ready;
    view_crowd_renderer crowd_gl;
    bool crowd_gl_ready;
} view_model;

typedef struct view_app view_app;

/* What app.c leaves to the side with a window, GL and the HUD's font: filled by the event loop.
 * A NULL table, or a NULL entry, does nothing (a headless app: no title, no HUD panels). */
typedef struct view_app_ops {
    /* The window's title should now read view_app_title. */
    void (*title_changed)(view_app *app);
    /* The skinning path changed: name what the GPU path leaves to the CPU (once a model). */
    void (*skinning_changed)(view_app *app);
    /* The clip panel's row under (x, y), -1 when none. */
    int64_t (*clip_at)(view_app *app, float x, float y);
    /* The wheel over the clip panel scrolls it: true when (x, y) is over it. */
    bool (*clip_wheel)(view_app *app, float x, float y, float notches);
    /* Selects the joint drawn nearest (x, y), or none. */
    void (*pick_joint)(view_app *app, float x, float y);
} view_app_ops;

struct view_app {
    view_options opt;
    const view_app_ops *ops;        /* NULL: headless */
    view_model cur;
    view_camera camera;
    ossa_clock *playback;           /* the current model's instance's clock (ossa_instance_clock) */
    view_display display;
    view_ticks ticks;
    bool show_info, show_help;
    bool offscreen;                 /* hidden window: script, bench, screenshot */
    struct SDL_Window *window;      /* SDL's, opaque here */
    void *context;                  /* SDL_GLContext */
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
    /* Whether time jumped (seek, frame step, clip change) since the last tick: the instance then
     * puts the cloth back at rest (ossa_instance_jumped) and the crowd seeks. */
    bool time_jumped;
    bool clip_switched;             /* the jump was a clip change: the crowd fades, not seeks */
    char hud_crowd[160];            /* the HUD's crowd line */
};

/* ---- app.c: what every action does (no GL, no SDL) ---------------------------------------- */

/* Builds the viewer's side of a loaded model into vm (scene, clip lengths, cross-fade time, bind
 * bounds, the name the HUD shows), taking model over: on failure it is freed, vm holds nothing
 * and err says why. */
bool view_model_init(view_model *vm, ossa_model *model, float fade, char *err, size_t err_size);
/* Frees what view_model_init built, the model included (free the renderers first). */
void view_model_release(view_model *vm);

/* Resets playback (clip, time and the options' rate, mode, speed, pause) and the camera for the
 * model just made current; with --crowd, builds its crowd first (a crowd that cannot be built
 * is a warning: the single model is shown). */
void view_app_start_model(view_app *app, uint32_t clip, float time);
/* The current clip; NULL with none (the rest pose). */
const ossa_clip *view_app_current_clip(const view_app *app);
/* The timeline's key ticks: every key time of every track of the current clip. */
void view_app_rebuild_ticks(view_app *app);
/* Changes clip (out of range or the same: nothing), cross-fading from where the old one is. */
void view_app_switch_clip(view_app *app, uint32_t to);
/* Does what an action (input.h) says, then has the title follow. */
void view_app_apply(view_app *app, view_action a);
/* Input as abstract events: a key (input.h's keys and VIEW_MOD_*), a button (VIEW_BUTTON_*)
 * pressed or released at (x, y), the mouse moved to x by (dx, dy), the wheel by notches at
 * (x, y); coordinates in pixels of view_w x view_h. */
void view_app_key(view_app *app, int key, unsigned mods);
void view_app_button(view_app *app, int button, bool down, float x, float y);
void view_app_motion(view_app *app, float x, float dx, float dy);
void view_app_wheel(view_app *app, float x, float y, float notches);
/* Seeks to the time under x on the timeline. */
void view_app_scrub_to(view_app *app, float x);
/* Shows the current time now (ossa_instance_show: a running fade's blend, else the current
 * clip), moving nothing. */
void view_app_update_pose(view_app *app);
/* One step of dt seconds of simulated time: the instance's tick (clock, fade, pose, morphs,
 * vertex frames, springs), and the crowd's clock (a seek after a jump, else the shared clock's
 * change). */
void view_app_tick(view_app *app, float dt);
/* The window title: "ossa-view - MODEL - CLIP[ (paused)]". */
void view_app_title(const view_app *app, char *out, size_t size);
/* Shows text in the HUD for a few seconds (cut to what the HUD holds). */
void view_app_message(view_app *app, const char *text);
/* The message shown now, "" when none. */
const char *view_app_message_now(const view_app *app);

/* ---- app_hud.c ----------------------------------------------------------------------------- */

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
