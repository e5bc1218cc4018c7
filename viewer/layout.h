/* Where the HUD's parts lie in the window, without GL: a sidebar on the left (the information
 * panel over the clip panel), the timeline along the bottom, and the rest, the view, where the
 * camera frames the model (camera.h) so the HUD never covers it. Also the clip panel's rows
 * (scrolling, hit tests) and joint labels placed so none overlaps another. Pixels, y down. */
#ifndef OSSA_VIEW_LAYOUT_H
#define OSSA_VIEW_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "camera.h"
#include "input.h"

typedef struct view_layout_in {
    int width, height;      /* window pixels */
    bool show_info;         /* false: no sidebar, no timeline, the view is the whole window */
    float line_height;      /* of the HUD's text (> 0) */
    float pad;              /* inside panels */
    float info_width;       /* the widest information line */
    uint32_t info_lines;
    float clips_width;      /* the widest clip row (name, gap, duration) */
    uint32_t clip_count;
} view_layout_in;

typedef struct view_layout {
    view_rect info;         /* information panel (empty when hidden) */
    view_rect clips;        /* clip panel: a header line, then rows (empty: no panel) */
    view_rect timeline_box; /* the strip behind the timeline (empty when hidden) */
    view_timeline timeline;
    view_rect view;         /* what the HUD leaves free */
    float line_height, pad;
    float rows_y0;          /* top of the first row */
    uint32_t clip_rows;     /* rows the panel shows (<= clip_count) */
} view_layout;

void view_layout_compute(view_layout *l, const view_layout_in *in);

/* The clip panel's first row shown: the previous one (a scroll), moved so that current is in
 * view, and kept within the list. */
uint32_t view_clip_first(uint32_t first, uint32_t current, uint32_t count, uint32_t rows);
/* Scrolls by wheel notches (positive: up, towards the first clip). */
uint32_t view_clip_scroll(uint32_t first, float notches, uint32_t count, uint32_t rows);
/* The clip under (x, y) with the list scrolled to first; -1 when none (the header, past the
 * last row, outside the panel). */
int64_t view_clip_at(const view_layout *l, uint32_t first, uint32_t count, float x, float y);
/* The rectangle of row r (0: the first shown) of the clip panel. */
view_rect view_clip_row(const view_layout *l, uint32_t r);

bool view_rect_overlap(const view_rect *a, const view_rect *b);
bool view_rect_contains(const view_rect *r, float x, float y);

/* Joint labels: box[i] is label i's rectangle. Keeps, in order (selected first, when not
 * SIZE_MAX), the labels that overlap neither a label kept before nor a blocked rectangle (the
 * HUD's panels) and lie inside bounds; at most max_kept. keep[i] says which; returns how many. */
size_t view_labels_place(const view_rect *box, size_t count, size_t selected,
                         const view_rect *blocked, size_t blocked_count, const view_rect *bounds,
                         size_t max_kept, bool *keep);

#endif
