#include "layout.h"

#include <math.h>
#include <string.h>

/* The sidebar takes at most this share of the window's width; longer text is cut. */
#define SIDEBAR_SHARE 0.4f
#define GAP 4.0f

void view_layout_compute(view_layout *l, const view_layout_in *in)
{
    memset(l, 0, sizeof *l);
    float w = in->width > 0 ? (float)in->width : 1.0f, h = in->height > 0 ? (float)in->height : 1.0f;
    float lh = in->line_height > 0.0f ? in->line_height : 1.0f, pad = in->pad;
    l->line_height = lh;
    l->pad = pad;
    view_timeline_layout(&l->timeline, in->width, in->height);
    l->view = (view_rect){0.0f, 0.0f, w, h};
    if (!in->show_info)
        return;
    l->timeline_box = (view_rect){0.0f, l->timeline.hit_y0 - 2.0f, w, h};
    float bottom = l->timeline_box.y0;
    float side = fmaxf(in->info_width, in->clips_width) + 2.0f * pad;
    side = fminf(ceilf(side), floorf(SIDEBAR_SHARE * w));
    l->info = (view_rect){0.0f, 0.0f, side, fminf((float)in->info_lines * lh + 2.0f * pad, bottom)};
    /* The clip panel: a header line and as many rows as fit above the timeline. */
    float top = l->info.y1 + GAP;
    float room = bottom - GAP - top - 2.0f * pad - lh;
    uint32_t rows = room > 0.0f ? (uint32_t)floorf(room / lh) : 0;
    if (rows > in->clip_count)
        rows = in->clip_count;
    if (rows) {
        l->clip_rows = rows;
        l->rows_y0 = top + pad + lh;
        l->clips = (view_rect){0.0f, top, side, l->rows_y0 + (float)rows * lh + pad};
    }
    l->view = (view_rect){side, 0.0f, w, bottom};
    if (!(l->view.x1 - l->view.x0 >= 1.0f) || !(l->view.y1 - l->view.y0 >= 1.0f))
        l->view = (view_rect){0.0f, 0.0f, w, h}; /* a window too small for a sidebar */
}

uint32_t view_clip_first(uint32_t first, uint32_t current, uint32_t count, uint32_t rows)
{
    if (!rows || rows >= count)
        return 0;
    if (current < count) {
        if (current < first)
            first = current;
        else if (current >= first + rows)
            first = current - rows + 1;
    }
    return first > count - rows ? count - rows : first;
}

uint32_t view_clip_scroll(uint32_t first, float notches, uint32_t count, uint32_t rows)
{
    if (!rows || rows >= count || !isfinite(notches))
        return 0;
    float to = (float)first - roundf(notches);
    float last = (float)(count - rows);
    return (uint32_t)(to < 0.0f ? 0.0f : to > last ? last : to);
}

int64_t view_clip_at(const view_layout *l, uint32_t first, uint32_t count, float x, float y)
{
    if (!l->clip_rows || !isfinite(x) || !isfinite(y) || x < l->clips.x0 || x >= l->clips.x1 ||
        y < l->rows_y0)
        return -1;
    float row = floorf((y - l->rows_y0) / l->line_height);
    if (row < 0.0f || row >= (float)l->clip_rows)
        return -1;
    uint64_t clip = (uint64_t)first + (uint64_t)row;
    return clip < count ? (int64_t)clip : -1;
}

view_rect view_clip_row(const view_layout *l, uint32_t r)
{
    float y0 = l->rows_y0 + (float)r * l->line_height;
    return (view_rect){l->clips.x0, y0, l->clips.x1, y0 + l->line_height};
}

bool view_rect_overlap(const view_rect *a, const view_rect *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

bool view_rect_contains(const view_rect *r, float x, float y)
{
    return x >= r->x0 && x < r->x1 && y >= r->y0 && y < r->y1;
}

static bool fits(const view_rect *box, size_t i, const bool *keep, size_t count,
                 const view_rect *blocked, size_t blocked_count, const view_rect *bounds)
{
    const view_rect *b = &box[i];
    if (!(b->x0 >= bounds->x0 && b->x1 <= bounds->x1 && b->y0 >= bounds->y0 &&
          b->y1 <= bounds->y1))
        return false; /* also false for NaN */
    for (size_t k = 0; k < blocked_count; k++)
        if (view_rect_overlap(b, &blocked[k]))
            return false;
    for (size_t k = 0; k < count; k++)
        if (keep[k] && view_rect_overlap(b, &box[k]))
            return false;
    return true;
}

size_t view_labels_place(const view_rect *box, size_t count, size_t selected,
                         const view_rect *blocked, size_t blocked_count, const view_rect *bounds,
                         size_t max_kept, bool *keep)
{
    memset(keep, 0, count * sizeof *keep);
    size_t kept = 0;
    /* The selected joint's label is always shown (inside the window), whatever it covers. */
    if (selected < count && max_kept && fits(box, selected, keep, 0, NULL, 0, bounds)) {
        keep[selected] = true;
        kept++;
    }
    for (size_t i = 0; i < count && kept < max_kept; i++)
        if (i != selected && fits(box, i, keep, count, blocked, blocked_count, bounds)) {
            keep[i] = true;
            kept++;
        }
    return kept;
}
