/* ossa-view's glyph cache, without GL or SDL: glyphs are rasterised once each (by a callback:
 * font_ttf.c's SDL2_ttf one in the viewer, a fake one in tests), packed into one coverage atlas
 * (one byte a pixel, rows of shelves) and looked up by code point afterwards, so unchanged text
 * costs no rasterising from frame to frame. hud_gl.c uploads the rows that changed.
 *
 * The atlas keeps a small solid block in its top-left corner: filled boxes sample it. With no
 * font (no rasteriser), lookups return NULL and text draws nothing; boxes still draw. */
#ifndef OSSA_VIEW_GLYPHS_H
#define OSSA_VIEW_GLYPHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One rasterised glyph as the callback hands it over: coverage rows (0 none .. 255 full) of
 * its ink, where that ink sits from the pen (on the baseline, y down) and how far the pen moves. */
typedef struct view_glyph_bitmap {
    const uint8_t *coverage;  /* valid until the next call of the callback */
    int pitch;                /* bytes from one row to the next */
    int width, height;        /* 0 x 0 for a blank glyph (space) */
    int x_off, y_off;         /* ink's top-left from the pen */
    int advance;
} view_glyph_bitmap;

/* Rasterises code point cp; false when the font has nothing for it. */
typedef bool (*view_glyph_raster_fn)(void *ctx, uint32_t cp, view_glyph_bitmap *out);

typedef struct view_glyph {
    uint32_t cp;
    uint16_t x, y, w, h;      /* in the atlas */
    int16_t x_off, y_off, advance;
    bool used;
} view_glyph;

enum {
    VIEW_GLYPHS_SIDE = 512,   /* atlas width and height in pixels */
    VIEW_GLYPHS_SLOTS = 1024, /* hash slots: at most half are filled before the cache restarts */
    VIEW_GLYPHS_SOLID = 4     /* the solid block's side */
};

typedef struct view_glyphs {
    uint8_t *atlas;           /* VIEW_GLYPHS_SIDE squared bytes, rows top to bottom */
    view_glyph *slots;
    size_t count;
    int shelf_x, shelf_y, shelf_h;
    int dirty_y0, dirty_y1;   /* atlas rows changed since view_glyphs_clean ([y0, y1)) */
    view_glyph_raster_fn raster;
    void *raster_ctx;
    int ascent, descent;      /* pixels above and below the baseline */
    int line_height;          /* baseline to baseline */
    unsigned long rasterised; /* glyphs rasterised so far (tests check the cache with it) */
    bool restart;             /* full: the next view_glyphs_frame empties it */
} view_glyphs;

/* An empty cache with no font; false when out of memory. */
bool view_glyphs_init(view_glyphs *g);
void view_glyphs_free(view_glyphs *g);
/* Uses a rasteriser (NULL: no font) with these metrics, emptying the cache. */
void view_glyphs_set_font(view_glyphs *g, view_glyph_raster_fn raster, void *ctx, int ascent,
                          int descent, int line_height);
bool view_glyphs_has_font(const view_glyphs *g);
/* Called once a frame before any text: a cache that filled up during the last frame starts
 * again (its glyphs were drawn; nothing refers to their places now). */
void view_glyphs_frame(view_glyphs *g);
/* The glyph of cp, rasterised and packed on first use; NULL with no font, a code point the font
 * lacks (then '?' is tried) or a full atlas. */
const view_glyph *view_glyphs_get(view_glyphs *g, uint32_t cp);
/* Texture coordinates of the middle of the solid block. */
void view_glyphs_solid_uv(float *u, float *v);
/* The widest line of text in pixels ('\n' separates lines). */
float view_glyphs_width(view_glyphs *g, const char *text);
/* Whether rows changed since the last view_glyphs_clean, and which. */
bool view_glyphs_dirty(const view_glyphs *g, int *y0, int *y1);
void view_glyphs_clean(view_glyphs *g);

/* The font's pixel size for a size of base_px at 96 DPI: scaled by the display's DPI (<= 0 or
 * not finite: 96) and by the drawable's pixels per window unit (HiDPI), kept in 8..64. */
int view_glyphs_pixel_size(int base_px, float dpi, float pixels_per_unit);

/* Decodes the UTF-8 character at *p and moves *p past it; malformed bytes read as U+FFFD, one
 * byte each. Returns 0 at the end of the string. */
uint32_t view_utf8_next(const char **p);

#endif
