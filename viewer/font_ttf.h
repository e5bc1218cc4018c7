/* The HUD's font through SDL2_ttf: a TrueType file found at run time (OSSA_VIEW_FONT, else a
 * short list of the usual Debian and other Unix places, DejaVu Sans first), opened at a pixel
 * size, rasterising single glyphs for the glyph cache (glyphs.h). No GL here. */
#ifndef OSSA_VIEW_FONT_TTF_H
#define OSSA_VIEW_FONT_TTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "glyphs.h"

typedef struct view_font {
    void *font;              /* TTF_Font */
    char path[512];          /* the file in use, "" with none */
    int pixel_size;
    uint8_t *scratch;        /* the last glyph's coverage */
    size_t scratch_size;
} view_font;

/* The first font file that exists: override (when not NULL, the only candidate) or one of the
 * standard places. False when there is none. */
bool view_font_find(const char *override, char *path, size_t size);
/* Opens the file at pixel_size (clamped to 6..96) and points the cache at it. False, with why
 * in err, when SDL2_ttf or the file fails; the cache is then left without a font. */
bool view_font_open(view_font *f, const char *path, int pixel_size, view_glyphs *g, char *err,
                    size_t err_size);
/* Reopens at another size when it differs (DPI changes); the cache starts again. */
bool view_font_resize(view_font *f, int pixel_size, view_glyphs *g);
void view_font_close(view_font *f);
#endif
