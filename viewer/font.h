/* The HUD's bitmap font: ASCII 32..126 as 5x7 glyphs in 6x8 cells (a column and a row of
 * spacing), drawn for ossa-view, plus one solid cell that the HUD samples for filled boxes. */
#ifndef OSSA_VIEW_FONT_H
#define OSSA_VIEW_FONT_H

#include <stdint.h>

enum {
    VIEW_FONT_CELL_W = 6,
    VIEW_FONT_CELL_H = 8,
    VIEW_FONT_FIRST = 32,           /* ' ' */
    VIEW_FONT_GLYPHS = 96,          /* 32..126, then the solid cell (127) */
    VIEW_FONT_SOLID = 127,
    VIEW_FONT_ATLAS_COLS = 16,
    VIEW_FONT_ATLAS_W = VIEW_FONT_ATLAS_COLS * VIEW_FONT_CELL_W,                     /* 96 */
    VIEW_FONT_ATLAS_H = (VIEW_FONT_GLYPHS / VIEW_FONT_ATLAS_COLS) * VIEW_FONT_CELL_H /* 48 */
};

/* Whether pixel (x, y) of character c's cell is lit (x < 6, y < 8, y down). Characters outside
 * 32..127 draw as '?'. */
int view_font_pixel(int c, int x, int y);
/* The atlas as one byte per pixel (255 lit, 0 not), rows top to bottom: glyph c sits in cell
 * (c - 32) % 16, (c - 32) / 16. pixels holds VIEW_FONT_ATLAS_W * VIEW_FONT_ATLAS_H bytes. */
void view_font_atlas(uint8_t *pixels);

#endif
