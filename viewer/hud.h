/* ossa-view's 2D overlay without GL: text in the embedded bitmap font (font.h) and filled boxes,
 * laid out as textured triangles in window pixels (y down) into a vertex array allocated once.
 * hud_gl.c uploads and draws the array. view_hud_build lays out the whole overlay: the
 * information lines, the timeline with its key ticks, joint names, the help, a message. */
#ifndef OSSA_VIEW_HUD_H
#define OSSA_VIEW_HUD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "input.h"

typedef struct view_hud_vertex {
    float x, y;        /* window pixels, y down */
    float u, v;        /* into the font atlas */
    uint8_t rgba[4];
} view_hud_vertex;

typedef struct view_hud {
    view_hud_vertex *vertices;
    size_t count, capacity;   /* vertices; 6 a quad */
    int scale;                /* font pixels per atlas pixel */
    bool overflow;            /* quads were dropped because the array was full */
} view_hud;

/* Room for max_quads quads (characters or boxes); false when out of memory. */
bool view_hud_init(view_hud *h, size_t max_quads);
void view_hud_free(view_hud *h);
/* Empties the array for a new frame; scale >= 1 multiplies the 6x8 font cell. */
void view_hud_begin(view_hud *h, int scale);
void view_hud_box(view_hud *h, float x0, float y0, float x1, float y1, const uint8_t rgba[4]);
/* Draws text with its top-left corner at (x, y); '\n' starts a new line. Returns the x after
 * the last character. */
float view_hud_text(view_hud *h, float x, float y, const char *text, const uint8_t rgba[4]);
float view_hud_text_width(const view_hud *h, const char *text);
float view_hud_line_height(const view_hud *h);

/* A clip's key times as tick marks: which of VIEW_TICK_BINS equal slices of [0, duration]
 * hold at least one key of any track. */
#define VIEW_TICK_BINS 512
typedef struct view_ticks {
    uint8_t bin[VIEW_TICK_BINS];
    uint32_t key_count;   /* keys looked at */
} view_ticks;

/* times: key_count key times of one track; call once per track after clearing ticks. */
void view_ticks_add(view_ticks *t, const float *times, uint32_t key_count, float duration);

typedef struct view_joint_label {
    float x, y;           /* window pixels */
    const char *name;
} view_joint_label;

typedef struct view_hud_info {
    int width, height;            /* window pixels */
    bool show_info;               /* the text lines and the timeline */
    bool show_help;
    const char *model_name;
    const char *clip_name;        /* NULL: the model has no clips */
    uint32_t clip, clip_count;
    float time, duration, speed;
    uint32_t frame, last_frame;
    float frames_per_second;      /* measured drawing rate */
    const char *mode;             /* "loop" ... */
    bool playing, fading;
    const char *skinning;         /* "cpu avx2", "gpu" */
    const char *display;          /* the overlays on, e.g. "bones wireframe" */
    const view_ticks *ticks;      /* may be NULL */
    const char *message;          /* NULL or a line shown in the middle (load errors) */
    const view_joint_label *labels;
    size_t label_count;
} view_hud_info;

/* Lays out the overlay for one frame into h (after view_hud_begin). */
void view_hud_build(view_hud *h, const view_hud_info *info);

#endif
