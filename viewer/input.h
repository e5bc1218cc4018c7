/* Input of ossa-view without SDL or GL: keys and their actions, the help text (--help and the F1
 * overlay both print it, so they cannot disagree), and the timeline's geometry (where it lies in
 * the window, hit-testing, x <-> time). event_loop.c turns SDL events into these keys; scripts name
 * them with view_key_parse. */
#ifndef OSSA_VIEW_INPUT_H
#define OSSA_VIEW_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum view_key {
    VIEW_KEY_NONE = 0,
    /* Letters (upper case), digits, '[', ']', '-', '=' and ' ' are their ASCII codes. */
    VIEW_KEY_SPACE = ' ',
    VIEW_KEY_LEFT = 256, VIEW_KEY_RIGHT, VIEW_KEY_UP, VIEW_KEY_DOWN,
    VIEW_KEY_TAB, VIEW_KEY_ESCAPE, VIEW_KEY_BACKSPACE, VIEW_KEY_HOME, VIEW_KEY_END,
    VIEW_KEY_F1, VIEW_KEY_KP_PLUS, VIEW_KEY_KP_MINUS
} view_key;

enum { VIEW_MOD_SHIFT = 1, VIEW_MOD_CTRL = 2, VIEW_MOD_ALT = 4 };

typedef enum view_action_kind {
    VIEW_ACT_NONE = 0,
    VIEW_ACT_QUIT,
    VIEW_ACT_PLAY_PAUSE,
    VIEW_ACT_STEP,          /* arg: frames, signed */
    VIEW_ACT_FIRST_FRAME,
    VIEW_ACT_LAST_FRAME,
    VIEW_ACT_SPEED,         /* arg: +1 faster, -1 slower */
    VIEW_ACT_REVERSE,
    VIEW_ACT_CYCLE_MODE,
    VIEW_ACT_CLIP,          /* arg: clip index */
    VIEW_ACT_CLIP_STEP,     /* arg: +1 next, -1 previous */
    VIEW_ACT_HELP,
    VIEW_ACT_HUD,
    VIEW_ACT_BONES,
    VIEW_ACT_JOINT_NAMES,
    VIEW_ACT_WIREFRAME,
    VIEW_ACT_NORMALS,
    VIEW_ACT_BIND_POSE,
    VIEW_ACT_GRID,
    VIEW_ACT_SKINNING,
    VIEW_ACT_FRAME_MODEL,
    VIEW_ACT_RESET_CAMERA
} view_action_kind;

typedef struct view_action {
    view_action_kind kind;
    int arg;
} view_action;

/* What a key press does (modifiers: VIEW_MOD_*); VIEW_ACT_NONE for unbound keys. */
view_action view_key_action(int key, unsigned mods);

/* Parses "Right", "Shift+Right", "Ctrl+Shift+a", "space", "F1", "[" ... (case-insensitive);
 * false when a part is unknown. */
bool view_key_parse(const char *text, int *key, unsigned *mods);

/* The help: rows of two columns (what to press, what it does), the keys and the mouse. */
typedef struct view_help_row {
    const char *input;
    const char *effect;
} view_help_row;

const view_help_row *view_help_rows(size_t *count);

/* The timeline: a bar along the bottom of the window. Pixel coordinates, y down. */
typedef struct view_timeline {
    float x0, x1;      /* the bar's ends: time 0 at x0, the clip's end at x1 */
    float y0, y1;      /* the bar */
    float hit_y0;      /* clicks from here to the window's bottom edge scrub */
} view_timeline;

void view_timeline_layout(view_timeline *t, int width, int height);
/* True when (x, y) is on the timeline (the strip along the bottom, ends included). */
bool view_timeline_hit(const view_timeline *t, float x, float y);
/* Clip time under x, clamped to [0, duration]. */
float view_timeline_time_at(const view_timeline *t, float x, float duration);
/* x of a time. */
float view_timeline_x_of(const view_timeline *t, float time, float duration);

/* Frame-time statistics in milliseconds. Sorts ms in place; false when count is 0. */
typedef struct view_frame_stats {
    double min, median, mean, p95, max;
} view_frame_stats;

bool view_frame_stats_compute(double *ms, size_t count, view_frame_stats *out);

#endif
