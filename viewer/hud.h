/* ossa-view's 2D overlay without GL: text from the glyph cache (glyphs.h: a TrueType font
 * rasterised once a glyph) and filled boxes, laid out as textured triangles in window pixels
 * (y down) into a vertex array allocated once. hud_gl.c uploads and draws the array.
 * view_hud_layout places the panels (layout.h) from the text they hold; view_hud_build lays out
 * the whole overlay: the information panel, the clip panel, the timeline with its key ticks,
 * joint names that do not overlap, the help, a message. */
#ifndef OSSA_VIEW_HUD_H
#define OSSA_VIEW_HUD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "glyphs.h"
#include "input.h"
#include "layout.h"
#include "ossa/model.h"

typedef struct view_hud_vertex {
    float x, y;        /* window pixels, y down */
    float u, v;        /* into the glyph atlas */
    uint8_t rgba[4];
} view_hud_vertex;

typedef struct view_hud {
    view_hud_vertex *vertices;
    size_t count, capacity;   /* vertices; 6 a quad */
    bool overflow;            /* quads were dropped because the array was full */
    view_glyphs *glyphs;      /* the font (not owned) */
    /* Joint labels: their boxes and which are drawn, grown to the bone count. */
    view_rect *label_boxes;
    bool *label_keep;
    size_t label_capacity;
    size_t labels_drawn;      /* by the last view_hud_build */
} view_hud;

/* Room for max_quads quads (glyphs or boxes); false when out of memory. */
bool view_hud_init(view_hud *h, size_t max_quads, view_glyphs *glyphs);
void view_hud_free(view_hud *h);
/* Empties the array for a new frame. */
void view_hud_begin(view_hud *h);
void view_hud_box(view_hud *h, float x0, float y0, float x1, float y1, const uint8_t rgba[4]);
/* Draws text (UTF-8) with its line's top-left corner at (x, y); '\n' starts a new line. Returns
 * the pen's x after the last character. */
float view_hud_text(view_hud *h, float x, float y, const char *text, const uint8_t rgba[4]);
/* One line cut to max_width pixels, ending in "..." when cut. */
float view_hud_text_fit(view_hud *h, float x, float y, const char *text, float max_width,
                        const uint8_t rgba[4]);
float view_hud_text_width(view_hud *h, const char *text);
/* The font's line height (16 with no font). */
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
    uint32_t bone;
} view_joint_label;

/* The label whose joint lies nearest (x, y) and within radius pixels of it; SIZE_MAX: none. */
size_t view_joint_pick(const view_joint_label *labels, size_t count, float x, float y,
                       float radius);

typedef struct view_hud_info {
    int width, height;            /* window pixels */
    bool show_info;               /* the panels and the timeline */
    bool show_help;
    const char *model_name;
    const char *clip_name;        /* NULL: the model has no clips */
    uint32_t clip, clip_count;
    const ossa_clip *clips;       /* clip_count clips for the clip panel (may be NULL) */
    uint32_t clip_first;          /* the clip panel's first row shown */
    float time, duration, speed;
    uint32_t frame, last_frame;
    float frames_per_second;      /* measured drawing rate; <= 0: none measured, not shown */
    const char *mode;             /* "loop" ... */
    bool playing, fading;
    const char *skinning;         /* "cpu avx2", "gpu" */
    const char *crowd;            /* --crowd: its line (characters, rates); NULL: none */
    const char *display;          /* the overlays on, e.g. "bones wireframe" */
    bool skeleton_only;           /* no mesh to draw: the bones are shown */
    const view_ticks *ticks;      /* may be NULL */
    const char *message;          /* NULL or a line shown in the middle (load errors) */
    const view_joint_label *labels;
    size_t label_count;
    size_t selected_label;        /* always drawn, highlighted; SIZE_MAX: none */
} view_hud_info;

#define VIEW_HUD_INFO_LINES 9
/* The information panel's lines; returns how many. */
uint32_t view_hud_info_lines(const view_hud_info *in, char lines[VIEW_HUD_INFO_LINES][256]);
/* Where the panels go for this information (measuring its text). */
void view_hud_layout(view_hud *h, const view_hud_info *in, view_layout *out);
/* Lays out the overlay for one frame into h (after view_hud_begin), in layout l. */
void view_hud_build(view_hud *h, const view_hud_info *in, const view_layout *l);

#endif
