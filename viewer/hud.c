#include "hud.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t white[4] = {235, 238, 242, 255};
static const uint8_t dim[4] = {160, 168, 180, 255};
static const uint8_t panel[4] = {12, 14, 18, 170};
static const uint8_t accent[4] = {240, 160, 40, 255};
static const uint8_t highlight[4] = {60, 90, 140, 220};
static const uint8_t track[4] = {70, 74, 84, 220};
static const uint8_t tick[4] = {200, 205, 215, 200};
static const uint8_t warn[4] = {255, 110, 90, 255};
static const uint8_t label[4] = {255, 235, 120, 255};

/* At most this many joint names are drawn in a frame. */
#define MAX_LABELS 256

bool view_hud_init(view_hud *h, size_t max_quads, view_glyphs *glyphs)
{
    memset(h, 0, sizeof *h);
    h->vertices = calloc(max_quads, 6 * sizeof *h->vertices);
    if (!h->vertices)
        return false;
    h->capacity = 6 * max_quads;
    h->glyphs = glyphs;
    return true;
}

void view_hud_free(view_hud *h)
{
    free(h->vertices);
    free(h->label_boxes);
    free(h->label_keep);
    memset(h, 0, sizeof *h);
}

void view_hud_begin(view_hud *h)
{
    h->count = 0;
    h->overflow = false;
    h->labels_drawn = 0;
    view_glyphs_frame(h->glyphs);
}

static void quad(view_hud *h, float x0, float y0, float x1, float y1, float u0, float v0, float u1,
                 float v1, const uint8_t rgba[4])
{
    if (h->count + 6 > h->capacity) {
        h->overflow = true;
        return;
    }
    const float corner[6][4] = {{x0, y0, u0, v0}, {x1, y0, u1, v0}, {x1, y1, u1, v1},
                                {x0, y0, u0, v0}, {x1, y1, u1, v1}, {x0, y1, u0, v1}};
    for (int i = 0; i < 6; i++) {
        view_hud_vertex *v = &h->vertices[h->count++];
        v->x = corner[i][0];
        v->y = corner[i][1];
        v->u = corner[i][2];
        v->v = corner[i][3];
        memcpy(v->rgba, rgba, 4);
    }
}

void view_hud_box(view_hud *h, float x0, float y0, float x1, float y1, const uint8_t rgba[4])
{
    float u, v;
    view_glyphs_solid_uv(&u, &v);
    quad(h, x0, y0, x1, y1, u, v, u, v, rgba);
}

float view_hud_line_height(const view_hud *h)
{
    return view_glyphs_has_font(h->glyphs) ? (float)h->glyphs->line_height : 16.0f;
}

/* Baseline of a line whose top is at y: the spare leading split above and below. */
static float baseline_of(const view_hud *h, float y)
{
    const view_glyphs *g = h->glyphs;
    int spare = g->line_height - g->ascent - g->descent;
    return floorf(y) + (float)(g->ascent + (spare > 0 ? spare / 2 : 0));
}

/* Draws one glyph with its pen at (pen, baseline); returns its advance. */
static float glyph(view_hud *h, uint32_t cp, float pen, float baseline, const uint8_t rgba[4])
{
    const view_glyph *gl = view_glyphs_get(h->glyphs, cp);
    if (!gl)
        return 0.0f;
    if (gl->w && gl->h) {
        const float s = 1.0f / (float)VIEW_GLYPHS_SIDE;
        float x0 = pen + (float)gl->x_off, y0 = baseline + (float)gl->y_off;
        quad(h, x0, y0, x0 + (float)gl->w, y0 + (float)gl->h, (float)gl->x * s,
             (float)gl->y * s, (float)(gl->x + gl->w) * s, (float)(gl->y + gl->h) * s, rgba);
    }
    return (float)gl->advance;
}

float view_hud_text(view_hud *h, float x, float y, const char *text, const uint8_t rgba[4])
{
    if (!view_glyphs_has_font(h->glyphs))
        return x;
    /* Whole pixels keep the glyphs sharp (the atlas is sampled 1:1). */
    float left = floorf(x), pen = left, base = baseline_of(h, y);
    for (const char *p = text;;) {
        uint32_t cp = view_utf8_next(&p);
        if (!cp)
            break;
        if (cp == '\n') {
            pen = left;
            base += view_hud_line_height(h);
            continue;
        }
        pen += glyph(h, cp, pen, base, rgba);
    }
    return pen;
}

float view_hud_text_fit(view_hud *h, float x, float y, const char *text, float max_width,
                        const uint8_t rgba[4])
{
    if (!view_glyphs_has_font(h->glyphs))
        return x;
    float left = floorf(x), pen = left, base = baseline_of(h, y);
    if (view_glyphs_width(h->glyphs, text) <= max_width)
        return view_hud_text(h, x, y, text, rgba);
    float dots = view_glyphs_width(h->glyphs, "...");
    for (const char *p = text;;) {
        const char *at = p;
        uint32_t cp = view_utf8_next(&p);
        if (!cp || cp == '\n')
            break;
        const view_glyph *gl = view_glyphs_get(h->glyphs, cp);
        if (gl && pen + (float)gl->advance + dots > left + max_width) {
            p = at;
            break;
        }
        pen += glyph(h, cp, pen, base, rgba);
    }
    for (int i = 0; i < 3; i++)
        pen += glyph(h, '.', pen, base, rgba);
    return pen;
}

float view_hud_text_width(view_hud *h, const char *text)
{
    return view_glyphs_has_font(h->glyphs) ? view_glyphs_width(h->glyphs, text) : 0.0f;
}

void view_ticks_add(view_ticks *t, const float *times, uint32_t key_count, float duration)
{
    if (!(duration > 0.0f))
        return;
    for (uint32_t k = 0; k < key_count; k++) {
        float f = times[k] / duration;
        if (!(f >= 0.0f && f <= 1.0f))
            continue; /* keys past the end (or NaN) are not on the bar */
        uint32_t b = (uint32_t)(f * (VIEW_TICK_BINS - 1) + 0.5f);
        t->bin[b < VIEW_TICK_BINS ? b : VIEW_TICK_BINS - 1] = 1;
        t->key_count++;
    }
}

uint32_t view_hud_info_lines(const view_hud_info *in, char lines[VIEW_HUD_INFO_LINES][256])
{
    uint32_t n = 0;
    const size_t size = sizeof lines[0];
    snprintf(lines[n++], size, "%s", in->model_name ? in->model_name : "");
    if (in->skeleton_only)
        snprintf(lines[n++], size, "no mesh: the skeleton is shown");
    if (in->clip_name)
        snprintf(lines[n++], size, "clip %u/%u  %s%s", in->clip + 1, in->clip_count,
                 in->clip_name, in->fading ? "  (fading in)" : "");
    else
        snprintf(lines[n++], size, "no clips: rest pose");
    snprintf(lines[n++], size, "time %.3f / %.3f s  frame %u / %u", (double)in->time,
             (double)in->duration, in->frame, in->last_frame);
    snprintf(lines[n++], size, "speed %gx  %s  %s", (double)in->speed, in->mode ? in->mode : "",
             in->playing ? "playing" : "paused");
    /* A rate is shown only once one was measured: a single frame has none. */
    if (in->frames_per_second > 0.0f && isfinite(in->frames_per_second))
        snprintf(lines[n++], size, "%.1f fps  skinning %s", (double)in->frames_per_second,
                 in->skinning ? in->skinning : "");
    else
        snprintf(lines[n++], size, "skinning %s", in->skinning ? in->skinning : "");
    if (in->crowd)
        snprintf(lines[n++], size, "%s", in->crowd);
    if (in->display && in->display[0])
        snprintf(lines[n++], size, "showing %s", in->display);
    snprintf(lines[n++], size, "F1: help");
    return n;
}

/* "name" and "1.25 s" of a clip row. */
static void clip_row_text(const view_hud_info *in, uint32_t i, const char **name, char *dur,
                          size_t size)
{
    const ossa_clip *c = &in->clips[i];
    *name = c->name && c->name[0] ? c->name : "(unnamed)";
    snprintf(dur, size, "%.2f s", (double)c->duration);
}

static float pad_of(const view_hud *h)
{
    return floorf(0.35f * view_hud_line_height(h));
}

void view_hud_layout(view_hud *h, const view_hud_info *in, view_layout *out)
{
    char lines[VIEW_HUD_INFO_LINES][256];
    uint32_t n = view_hud_info_lines(in, lines);
    view_layout_in li = {.width = in->width, .height = in->height, .show_info = in->show_info,
                         .line_height = view_hud_line_height(h), .pad = pad_of(h),
                         .info_lines = n};
    for (uint32_t i = 0; i < n; i++)
        li.info_width = fmaxf(li.info_width, view_hud_text_width(h, lines[i]));
    if (in->clips) {
        li.clip_count = in->clip_count;
        float gap = 2.0f * li.pad;
        li.clips_width = view_hud_text_width(h, "clips (0000)");
        for (uint32_t i = 0; i < in->clip_count; i++) {
            const char *name;
            char dur[32];
            clip_row_text(in, i, &name, dur, sizeof dur);
            li.clips_width = fmaxf(li.clips_width, view_hud_text_width(h, name) + gap +
                                                       view_hud_text_width(h, dur));
        }
    }
    view_layout_compute(out, &li);
}

static void build_info(view_hud *h, const view_hud_info *in, const view_layout *l)
{
    char lines[VIEW_HUD_INFO_LINES][256];
    uint32_t n = view_hud_info_lines(in, lines);
    const view_rect *r = &l->info;
    view_hud_box(h, r->x0, r->y0, r->x1, r->y1, panel);
    float room = r->x1 - r->x0 - 2.0f * l->pad;
    for (uint32_t i = 0; i < n; i++) {
        float y = r->y0 + l->pad + (float)i * l->line_height;
        if (y + l->line_height > r->y1)
            break;
        bool note = in->skeleton_only && i == 1;
        view_hud_text_fit(h, r->x0 + l->pad, y, lines[i], room,
                          i == 0 || i == n - 1 ? dim : note ? accent : white);
    }
}

static void build_clips(view_hud *h, const view_hud_info *in, const view_layout *l)
{
    if (!l->clip_rows || !in->clips)
        return;
    const view_rect *r = &l->clips;
    view_hud_box(h, r->x0, r->y0, r->x1, r->y1, panel);
    char head[48];
    snprintf(head, sizeof head, "clips (%u)", in->clip_count);
    view_hud_text(h, r->x0 + l->pad, r->y0 + l->pad, head, dim);
    uint32_t first = view_clip_first(in->clip_first, in->clip_count, in->clip_count, l->clip_rows);
    for (uint32_t k = 0; k < l->clip_rows && first + k < in->clip_count; k++) {
        uint32_t i = first + k;
        view_rect row = view_clip_row(l, k);
        if (i == in->clip)
            view_hud_box(h, row.x0, row.y0, row.x1, row.y1, highlight);
        const char *name;
        char dur[32];
        clip_row_text(in, i, &name, dur, sizeof dur);
        float dw = view_hud_text_width(h, dur);
        float right = row.x1 - l->pad;
        view_hud_text_fit(h, row.x0 + l->pad, row.y0, name, right - dw - l->pad - row.x0 - l->pad,
                          i == in->clip ? white : dim);
        view_hud_text(h, right - dw, row.y0, dur, i == in->clip ? white : dim);
    }
}

static void build_timeline(view_hud *h, const view_hud_info *in, const view_layout *l)
{
    const view_timeline *tl = &l->timeline;
    const view_rect *b = &l->timeline_box;
    view_hud_box(h, b->x0, b->y0, b->x1, b->y1, panel);
    view_hud_box(h, tl->x0, tl->y0, tl->x1, tl->y1, track);
    if (!(in->duration > 0.0f))
        return;
    float cursor = view_timeline_x_of(tl, in->time, in->duration);
    view_hud_box(h, tl->x0, tl->y0, cursor, tl->y1, accent);
    if (in->ticks)
        for (uint32_t k = 0; k < VIEW_TICK_BINS; k++)
            if (in->ticks->bin[k]) {
                float x = floorf(tl->x0 + (tl->x1 - tl->x0) * (float)k / (VIEW_TICK_BINS - 1));
                view_hud_box(h, x, tl->hit_y0 + 1.0f, x + 1.0f, tl->y0 - 1.0f, tick);
            }
    view_hud_box(h, cursor - 1.5f, tl->hit_y0, cursor + 1.5f, (float)in->height - 1.0f, white);
}

static void build_help(view_hud *h, const view_hud_info *in)
{
    size_t count;
    const view_help_row *rows = view_help_rows(&count);
    float lh = view_hud_line_height(h), pad = 2.0f * pad_of(h), gap = lh;
    float first = 0.0f, second = 0.0f;
    for (size_t i = 0; i < count; i++) {
        first = fmaxf(first, view_hud_text_width(h, rows[i].input));
        second = fmaxf(second, view_hud_text_width(h, rows[i].effect));
    }
    /* Rows that do not fit the window's height go into further columns side by side. */
    size_t groups = 1;
    while (groups < 4 && (float)((count + groups - 1) / groups + 2) * lh + 2.0f * pad >
                              (float)in->height)
        groups++;
    size_t per = (count + groups - 1) / groups;
    float column = first + gap + second;
    float w = (float)groups * column + (float)(groups - 1) * gap + 2.0f * pad;
    float ht = (float)(per + 2) * lh + 2.0f * pad;
    float x = fmaxf(0.0f, floorf(0.5f * ((float)in->width - w)));
    float y = fmaxf(0.0f, floorf(0.5f * ((float)in->height - ht)));
    const uint8_t back[4] = {8, 10, 14, 225};
    view_hud_box(h, x, y, x + w, y + ht, back);
    view_hud_text(h, x + pad, y + pad, "ossa-view keys and mouse (F1 or H closes)", accent);
    for (size_t i = 0; i < count; i++) {
        float cx = x + pad + (float)(i / per) * (column + gap);
        float row = y + pad + (float)(i % per + 2) * lh;
        view_hud_text(h, cx, row, rows[i].input, label);
        view_hud_text(h, cx + first + gap, row, rows[i].effect, white);
    }
}

/* Joint names beside their joints, skipping those that would overlap a name already placed or
 * a panel; the selected joint's name always shows. */
static void build_labels(view_hud *h, const view_hud_info *in, const view_layout *l)
{
    size_t n = in->label_count;
    if (!n || !view_glyphs_has_font(h->glyphs))
        return;
    if (n > h->label_capacity) {
        view_rect *boxes = realloc(h->label_boxes, n * sizeof *boxes);
        if (boxes)
            h->label_boxes = boxes;
        bool *keep = boxes ? realloc(h->label_keep, n * sizeof *keep) : NULL;
        if (!boxes || !keep)
            return; /* out of memory: no names this frame */
        h->label_keep = keep;
        h->label_capacity = n;
    }
    float lh = view_hud_line_height(h), pad = 0.25f * lh;
    for (size_t i = 0; i < n; i++) {
        const view_joint_label *j = &in->labels[i];
        view_rect *b = &h->label_boxes[i];
        if (!j->name || !isfinite(j->x) || !isfinite(j->y)) {
            *b = (view_rect){NAN, NAN, NAN, NAN};
            continue;
        }
        b->x0 = floorf(j->x + pad);
        b->y0 = floorf(j->y - 0.5f * lh);
        b->x1 = b->x0 + view_hud_text_width(h, j->name);
        b->y1 = b->y0 + lh;
    }
    view_rect blocked[3];
    size_t nb = 0;
    if (in->show_info) {
        blocked[nb++] = l->info;
        blocked[nb++] = l->clips;
        blocked[nb++] = l->timeline_box;
    }
    view_rect window = {0.0f, 0.0f, (float)in->width, (float)in->height};
    h->labels_drawn = view_labels_place(h->label_boxes, n, in->selected_label, blocked, nb,
                                        &window, MAX_LABELS, h->label_keep);
    for (size_t i = 0; i < n; i++)
        if (h->label_keep[i])
            view_hud_text(h, h->label_boxes[i].x0, h->label_boxes[i].y0, in->labels[i].name,
                          i == in->selected_label ? accent : label);
}

size_t view_joint_pick(const view_joint_label *labels, size_t count, float x, float y,
                       float radius)
{
    size_t best = SIZE_MAX;
    float best_d2 = radius * radius;
    for (size_t i = 0; i < count; i++) {
        float dx = labels[i].x - x, dy = labels[i].y - y, d2 = dx * dx + dy * dy;
        if (d2 <= best_d2) { /* NaN positions never pass */
            best = i;
            best_d2 = d2;
        }
    }
    return best;
}

/* Long messages (paths) are wrapped into lines that fit the window. */
static void build_message(view_hud *h, const view_hud_info *in)
{
    float lh = view_hud_line_height(h), margin = 2.0f * lh;
    float room = fmaxf((float)in->width - 2.0f * margin, 8.0f * lh);
    char wrapped[1200];
    size_t o = 0, lines = 1;
    float pen = 0.0f, widest = 0.0f;
    for (const char *p = in->message; *p && o + 8 < sizeof wrapped;) {
        const char *at = p;
        uint32_t cp = view_utf8_next(&p);
        if (cp == '\n')
            cp = ' ';
        const view_glyph *gl = view_glyphs_get(h->glyphs, cp);
        float adv = gl ? (float)gl->advance : 0.0f;
        if (pen + adv > room && pen > 0.0f) {
            wrapped[o++] = '\n';
            lines++;
            pen = 0.0f;
        }
        size_t len = (size_t)(p - at);
        if (o + len + 2 >= sizeof wrapped)
            break;
        if (cp == ' ' && at[0] == '\n')
            wrapped[o++] = ' ';
        else {
            memcpy(wrapped + o, at, len);
            o += len;
        }
        pen += adv;
        widest = fmaxf(widest, pen);
    }
    wrapped[o] = '\0';
    float x = floorf(0.5f * ((float)in->width - widest)), y = floorf(0.4f * (float)in->height);
    float m = 0.5f * lh;
    view_hud_box(h, x - m, y - m, x + widest + m, y + (float)lines * lh + m, panel);
    view_hud_text(h, x, y, wrapped, warn);
}

void view_hud_build(view_hud *h, const view_hud_info *in, const view_layout *l)
{
    build_labels(h, in, l);
    if (in->show_info) {
        build_info(h, in, l);
        build_clips(h, in, l);
        build_timeline(h, in, l);
    }
    if (in->message && in->message[0])
        build_message(h, in);
    if (in->show_help)
        build_help(h, in);
}
