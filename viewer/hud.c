#include "hud.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "font.h"

static const uint8_t white[4] = {235, 238, 242, 255};
static const uint8_t dim[4] = {160, 168, 180, 255};
static const uint8_t panel[4] = {12, 14, 18, 170};
static const uint8_t accent[4] = {240, 160, 40, 255};
static const uint8_t track[4] = {70, 74, 84, 220};
static const uint8_t tick[4] = {200, 205, 215, 200};
static const uint8_t warn[4] = {255, 110, 90, 255};
static const uint8_t label[4] = {255, 235, 120, 255};

bool view_hud_init(view_hud *h, size_t max_quads)
{
    memset(h, 0, sizeof *h);
    h->vertices = calloc(max_quads, 6 * sizeof *h->vertices);
    if (!h->vertices)
        return false;
    h->capacity = 6 * max_quads;
    h->scale = 1;
    return true;
}

void view_hud_free(view_hud *h)
{
    free(h->vertices);
    memset(h, 0, sizeof *h);
}

void view_hud_begin(view_hud *h, int scale)
{
    h->count = 0;
    h->overflow = false;
    h->scale = scale >= 1 ? scale : 1;
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

/* Atlas cell of a character, in texture coordinates. */
static void cell_uv(int c, float *u0, float *v0, float *u1, float *v1)
{
    if (c < VIEW_FONT_FIRST || c > VIEW_FONT_SOLID)
        c = '?';
    int g = c - VIEW_FONT_FIRST;
    float cx = (float)((g % VIEW_FONT_ATLAS_COLS) * VIEW_FONT_CELL_W);
    float cy = (float)((g / VIEW_FONT_ATLAS_COLS) * VIEW_FONT_CELL_H);
    *u0 = cx / (float)VIEW_FONT_ATLAS_W;
    *u1 = (cx + VIEW_FONT_CELL_W) / (float)VIEW_FONT_ATLAS_W;
    *v0 = cy / (float)VIEW_FONT_ATLAS_H;
    *v1 = (cy + VIEW_FONT_CELL_H) / (float)VIEW_FONT_ATLAS_H;
}

void view_hud_box(view_hud *h, float x0, float y0, float x1, float y1, const uint8_t rgba[4])
{
    float u0, v0, u1, v1;
    cell_uv(VIEW_FONT_SOLID, &u0, &v0, &u1, &v1);
    /* Every texel of the solid cell is lit: sample its middle. */
    float u = 0.5f * (u0 + u1), v = 0.5f * (v0 + v1);
    quad(h, x0, y0, x1, y1, u, v, u, v, rgba);
}

float view_hud_line_height(const view_hud *h)
{
    return (float)(VIEW_FONT_CELL_H * h->scale + h->scale * 2);
}

float view_hud_text(view_hud *h, float x, float y, const char *text, const uint8_t rgba[4])
{
    float cw = (float)(VIEW_FONT_CELL_W * h->scale), ch = (float)(VIEW_FONT_CELL_H * h->scale);
    /* Whole pixels keep the glyphs sharp. */
    float left = floorf(x), pen = left, top = floorf(y);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '\n') {
            pen = left;
            top += view_hud_line_height(h);
            continue;
        }
        if (*p != ' ') {
            float u0, v0, u1, v1;
            cell_uv(*p, &u0, &v0, &u1, &v1);
            quad(h, pen, top, pen + cw, top + ch, u0, v0, u1, v1, rgba);
        }
        pen += cw;
    }
    return pen;
}

float view_hud_text_width(const view_hud *h, const char *text)
{
    size_t longest = 0, run = 0;
    for (const char *p = text; *p; p++) {
        run = *p == '\n' ? 0 : run + 1;
        if (run > longest)
            longest = run;
    }
    return (float)(longest * (size_t)VIEW_FONT_CELL_W * (size_t)h->scale);
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

static void build_timeline(view_hud *h, const view_hud_info *in)
{
    view_timeline tl;
    view_timeline_layout(&tl, in->width, in->height);
    float s = (float)h->scale;
    view_hud_box(h, tl.x0 - 4.0f, tl.hit_y0 - 2.0f, tl.x1 + 4.0f, (float)in->height, panel);
    view_hud_box(h, tl.x0, tl.y0, tl.x1, tl.y1, track);
    if (!(in->duration > 0.0f))
        return;
    float cursor = view_timeline_x_of(&tl, in->time, in->duration);
    view_hud_box(h, tl.x0, tl.y0, cursor, tl.y1, accent);
    if (in->ticks)
        for (uint32_t b = 0; b < VIEW_TICK_BINS; b++)
            if (in->ticks->bin[b]) {
                float x = floorf(tl.x0 + (tl.x1 - tl.x0) * (float)b / (VIEW_TICK_BINS - 1));
                view_hud_box(h, x, tl.hit_y0 + 1.0f, x + 1.0f, tl.y0 - 1.0f, tick);
            }
    view_hud_box(h, cursor - s, tl.hit_y0, cursor + s, (float)in->height - 1.0f, white);
}

static void build_info(view_hud *h, const view_hud_info *in)
{
    char lines[6][256];
    int n = 0;
    snprintf(lines[n++], sizeof lines[0], "%s", in->model_name ? in->model_name : "");
    if (in->clip_name)
        snprintf(lines[n++], sizeof lines[0], "clip %u/%u  %s%s", in->clip + 1, in->clip_count,
                 in->clip_name, in->fading ? "  (fading in)" : "");
    else
        snprintf(lines[n++], sizeof lines[0], "no clips: rest pose");
    snprintf(lines[n++], sizeof lines[0], "time %.3f / %.3f s  frame %u / %u", (double)in->time,
             (double)in->duration, in->frame, in->last_frame);
    snprintf(lines[n++], sizeof lines[0], "speed %gx  %s  %s", (double)in->speed,
             in->mode ? in->mode : "", in->playing ? "playing" : "paused");
    snprintf(lines[n++], sizeof lines[0], "%.1f fps  skinning %s", (double)in->frames_per_second,
             in->skinning ? in->skinning : "");
    if (in->display && in->display[0])
        snprintf(lines[n++], sizeof lines[0], "showing %s", in->display);
    float lh = view_hud_line_height(h), pad = 4.0f * (float)h->scale, w = 0.0f;
    for (int i = 0; i < n; i++)
        w = fmaxf(w, view_hud_text_width(h, lines[i]));
    view_hud_box(h, 0.0f, 0.0f, w + 2.0f * pad, (float)n * lh + 2.0f * pad, panel);
    for (int i = 0; i < n; i++)
        view_hud_text(h, pad, pad + (float)i * lh, lines[i], i == 0 ? dim : white);
    const char *hint = "F1: help";
    view_hud_text(h, (float)in->width - view_hud_text_width(h, hint) - pad, pad, hint, dim);
}

static void build_help(view_hud *h, const view_hud_info *in)
{
    size_t count;
    const view_help_row *rows = view_help_rows(&count);
    int scale = h->scale;
    float cw, first, second, lh, pad, w, ht;
    /* A smaller font when the help does not fit the window at the HUD's scale. */
    for (;;) {
        cw = (float)(VIEW_FONT_CELL_W * h->scale);
        first = second = 0.0f;
        for (size_t i = 0; i < count; i++) {
            first = fmaxf(first, view_hud_text_width(h, rows[i].input));
            second = fmaxf(second, view_hud_text_width(h, rows[i].effect));
        }
        lh = view_hud_line_height(h);
        pad = 2.0f * cw;
        w = first + 2.0f * cw + second + 2.0f * pad;
        ht = (float)(count + 2) * lh + 2.0f * pad;
        if (h->scale == 1 || (w <= (float)in->width && ht <= (float)in->height))
            break;
        h->scale--;
    }
    float x = floorf(0.5f * ((float)in->width - w)), y = floorf(0.5f * ((float)in->height - ht));
    if (x < 0.0f)
        x = 0.0f;
    if (y < 0.0f)
        y = 0.0f;
    const uint8_t back[4] = {8, 10, 14, 225};
    view_hud_box(h, x, y, x + w, y + ht, back);
    view_hud_text(h, x + pad, y + pad, "ossa-view keys and mouse (F1 or H closes)", accent);
    for (size_t i = 0; i < count; i++) {
        float row = y + pad + (float)(i + 2) * lh;
        view_hud_text(h, x + pad, row, rows[i].input, label);
        view_hud_text(h, x + pad + first + 2.0f * cw, row, rows[i].effect, white);
    }
    h->scale = scale;
}

void view_hud_build(view_hud *h, const view_hud_info *in)
{
    float pad = 3.0f * (float)h->scale;
    for (size_t i = 0; i < in->label_count; i++) {
        const view_joint_label *l = &in->labels[i];
        if (l->name && isfinite(l->x) && isfinite(l->y))
            view_hud_text(h, l->x + pad, l->y - 0.5f * (float)(VIEW_FONT_CELL_H * h->scale),
                          l->name, label);
    }
    if (in->show_info) {
        build_info(h, in);
        build_timeline(h, in);
    }
    if (in->message && in->message[0]) {
        /* Long messages (paths) are wrapped into lines that fit the window. */
        float cw = (float)(VIEW_FONT_CELL_W * h->scale);
        size_t per_line = (size_t)fmaxf(10.0f, ((float)in->width - 4.0f * cw) / cw);
        char wrapped[1024];
        size_t o = 0, col = 0;
        for (const char *p = in->message; *p && o + 2 < sizeof wrapped; p++) {
            if (col == per_line) {
                wrapped[o++] = '\n';
                col = 0;
            }
            wrapped[o++] = *p == '\n' ? ' ' : *p;
            col++;
        }
        wrapped[o] = '\0';
        size_t lines = 1 + o / (per_line + 1);
        float w = view_hud_text_width(h, wrapped), lh = view_hud_line_height(h);
        float x = floorf(0.5f * ((float)in->width - w)), y = floorf(0.4f * (float)in->height);
        view_hud_box(h, x - cw, y - cw, x + w + cw, y + (float)lines * lh + cw, panel);
        view_hud_text(h, x, y, wrapped, warn);
    }
    if (in->show_help)
        build_help(h, in);
}
