#include "glyphs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A pixel of empty space around each glyph, so neighbours never bleed into one another. */
#define GAP 1

static void mark_dirty(view_glyphs *g, int y0, int y1)
{
    if (g->dirty_y1 <= g->dirty_y0) {
        g->dirty_y0 = y0;
        g->dirty_y1 = y1;
        return;
    }
    g->dirty_y0 = y0 < g->dirty_y0 ? y0 : g->dirty_y0;
    g->dirty_y1 = y1 > g->dirty_y1 ? y1 : g->dirty_y1;
}

/* Empties the cache: only the solid block is left, and the whole atlas is to be uploaded. */
static void restart(view_glyphs *g)
{
    memset(g->atlas, 0, (size_t)VIEW_GLYPHS_SIDE * VIEW_GLYPHS_SIDE);
    memset(g->slots, 0, VIEW_GLYPHS_SLOTS * sizeof *g->slots);
    for (int y = 0; y < VIEW_GLYPHS_SOLID; y++)
        memset(g->atlas + (size_t)y * VIEW_GLYPHS_SIDE, 255, VIEW_GLYPHS_SOLID);
    g->count = 0;
    g->shelf_x = VIEW_GLYPHS_SOLID + GAP;
    g->shelf_y = 0;
    g->shelf_h = VIEW_GLYPHS_SOLID;
    g->restart = false;
    mark_dirty(g, 0, VIEW_GLYPHS_SIDE);
}

bool view_glyphs_init(view_glyphs *g)
{
    memset(g, 0, sizeof *g);
    g->atlas = malloc((size_t)VIEW_GLYPHS_SIDE * VIEW_GLYPHS_SIDE);
    g->slots = malloc(VIEW_GLYPHS_SLOTS * sizeof *g->slots);
    if (!g->atlas || !g->slots) {
        view_glyphs_free(g);
        return false;
    }
    restart(g);
    return true;
}

void view_glyphs_free(view_glyphs *g)
{
    free(g->atlas);
    free(g->slots);
    memset(g, 0, sizeof *g);
}

void view_glyphs_set_font(view_glyphs *g, view_glyph_raster_fn raster, void *ctx, int ascent,
                          int descent, int line_height)
{
    g->raster = raster;
    g->raster_ctx = ctx;
    g->ascent = ascent;
    g->descent = descent;
    g->line_height = line_height > ascent + descent ? line_height : ascent + descent;
    restart(g);
}

bool view_glyphs_has_font(const view_glyphs *g)
{
    return g->raster != NULL;
}

void view_glyphs_frame(view_glyphs *g)
{
    if (g->restart)
        restart(g);
}

/* Finds the slot of cp: its glyph, or the empty slot where it goes. */
static view_glyph *slot_of(view_glyphs *g, uint32_t cp)
{
    size_t i = (cp * 2654435761u) & (VIEW_GLYPHS_SLOTS - 1);
    while (g->slots[i].used && g->slots[i].cp != cp)
        i = (i + 1) & (VIEW_GLYPHS_SLOTS - 1);
    return &g->slots[i];
}

/* A place of w x h on the shelves; false when the atlas is full. */
static bool pack(view_glyphs *g, int w, int h, int *x, int *y)
{
    if (w + GAP > VIEW_GLYPHS_SIDE || h + GAP > VIEW_GLYPHS_SIDE)
        return false;
    if (g->shelf_x + w + GAP > VIEW_GLYPHS_SIDE) {
        g->shelf_y += g->shelf_h + GAP;
        g->shelf_x = 0;
        g->shelf_h = 0;
    }
    if (g->shelf_y + h + GAP > VIEW_GLYPHS_SIDE)
        return false;
    *x = g->shelf_x;
    *y = g->shelf_y;
    g->shelf_x += w + GAP;
    if (h > g->shelf_h)
        g->shelf_h = h;
    return true;
}

static const view_glyph *rasterise(view_glyphs *g, uint32_t cp)
{
    view_glyph *s = slot_of(g, cp);
    if (s->used)
        return s->w || s->advance ? s : NULL;
    if (g->restart || 2 * (g->count + 1) > VIEW_GLYPHS_SLOTS) {
        g->restart = true;
        return NULL;
    }
    view_glyph_bitmap b;
    memset(&b, 0, sizeof b);
    g->rasterised++;
    bool ok = g->raster(g->raster_ctx, cp, &b);
    /* Glyphs larger than a fifth of the atlas, or with absurd offsets, are not text. */
    if (ok && (b.width < 0 || b.height < 0 || b.width > VIEW_GLYPHS_SIDE / 5 ||
               b.height > VIEW_GLYPHS_SIDE / 5 || (b.width && !b.coverage) ||
               b.pitch < b.width || b.x_off < -1000 || b.x_off > 1000 || b.y_off < -1000 ||
               b.y_off > 1000 || b.advance < 0 || b.advance > 1000))
        ok = false;
    int x = 0, y = 0;
    if (ok && b.width && b.height && !pack(g, b.width, b.height, &x, &y)) {
        g->restart = true;
        return NULL;
    }
    memset(s, 0, sizeof *s);
    s->used = true; /* a code point the font lacks is remembered as such (w and advance 0) */
    s->cp = cp;
    g->count++;
    if (!ok)
        return NULL;
    s->x = (uint16_t)x;
    s->y = (uint16_t)y;
    s->w = (uint16_t)b.width;
    s->h = (uint16_t)b.height;
    s->x_off = (int16_t)b.x_off;
    s->y_off = (int16_t)b.y_off;
    s->advance = (int16_t)b.advance;
    for (int r = 0; r < b.height; r++)
        memcpy(g->atlas + (size_t)(y + r) * VIEW_GLYPHS_SIDE + x, b.coverage + (size_t)r * b.pitch,
               (size_t)b.width);
    if (b.height)
        mark_dirty(g, y, y + b.height);
    return s;
}

const view_glyph *view_glyphs_get(view_glyphs *g, uint32_t cp)
{
    if (!g->raster)
        return NULL;
    const view_glyph *gl = rasterise(g, cp);
    if (!gl && cp != '?' && !g->restart)
        gl = rasterise(g, '?');
    return gl;
}

void view_glyphs_solid_uv(float *u, float *v)
{
    *u = *v = 0.5f * VIEW_GLYPHS_SOLID / (float)VIEW_GLYPHS_SIDE;
}

float view_glyphs_width(view_glyphs *g, const char *text)
{
    float widest = 0.0f, pen = 0.0f;
    for (const char *p = text;;) {
        uint32_t cp = view_utf8_next(&p);
        if (cp == 0 || cp == '\n') {
            widest = pen > widest ? pen : widest;
            pen = 0.0f;
            if (cp == 0)
                break;
            continue;
        }
        const view_glyph *gl = view_glyphs_get(g, cp);
        if (gl)
            pen += (float)gl->advance;
    }
    return widest;
}

bool view_glyphs_dirty(const view_glyphs *g, int *y0, int *y1)
{
    *y0 = g->dirty_y0;
    *y1 = g->dirty_y1;
    return g->dirty_y1 > g->dirty_y0;
}

void view_glyphs_clean(view_glyphs *g)
{
    g->dirty_y0 = g->dirty_y1 = 0;
}

uint32_t view_utf8_next(const char **p)
{
    const unsigned char *s = (const unsigned char *)*p;
    if (!s[0])
        return 0;
    int extra = s[0] < 0x80 ? 0 : (s[0] & 0xE0) == 0xC0 ? 1 : (s[0] & 0xF0) == 0xE0 ? 2
              : (s[0] & 0xF8) == 0xF0 ? 3 : -1;
    uint32_t cp = extra == 0 ? s[0] : extra == 1 ? s[0] & 0x1Fu : extra == 2 ? s[0] & 0x0Fu
                                                                             : s[0] & 0x07u;
    for (int i = 1; i <= extra; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            extra = -1;
            break;
        }
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    /* Overlong forms, surrogates and values past U+10FFFF are malformed too. */
    static const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
    if (extra < 0 || cp < least[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        *p += 1;
        return 0xFFFD;
    }
    *p += 1 + extra;
    return cp;
}

int view_glyphs_pixel_size(int base_px, float dpi, float pixels_per_unit)
{
    float scale = isfinite(dpi) && dpi > 0.0f ? dpi / 96.0f : 1.0f;
    /* A DPI far from any real display is a driver's guess: it is not trusted. */
    if (scale < 0.5f || scale > 4.0f)
        scale = 1.0f;
    if (isfinite(pixels_per_unit) && pixels_per_unit >= 1.0f && pixels_per_unit <= 4.0f)
        scale *= pixels_per_unit;
    float px = roundf((float)base_px * scale);
    return px < 8.0f ? 8 : px > 64.0f ? 64 : (int)px;
}
