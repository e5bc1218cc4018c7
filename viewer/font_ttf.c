#include "font_ttf.h"

#include <SDL.h>
#include <SDL_ttf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Where Debian's fonts-dejavu-core puts its files, then other common places and families. */
static const char *const font_paths[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/local/share/fonts/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
};

static bool is_file(const char *path)
{
    struct stat st;
    return path && path[0] && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool view_font_find(const char *override, char *path, size_t size)
{
    path[0] = '\0';
    if (override) {
        if (!is_file(override))
            return false;
        snprintf(path, size, "%s", override);
        return true;
    }
    for (size_t i = 0; i < sizeof font_paths / sizeof font_paths[0]; i++)
        if (is_file(font_paths[i])) {
            snprintf(path, size, "%s", font_paths[i]);
            return true;
        }
    return false;
}

/* SDL2_ttf renders one glyph as a line of text: a surface as high as the font, the baseline at
 * its ascent, the pen at column -minx when the ink starts left of it. Only the ink is kept. */
static bool raster_glyph(void *ctx, uint32_t cp, view_glyph_bitmap *out)
{
    view_font *f = ctx;
    TTF_Font *font = f->font;
    int minx, maxx, miny, maxy, advance;
    if (!TTF_GlyphIsProvided32(font, cp) ||
        TTF_GlyphMetrics32(font, cp, &minx, &maxx, &miny, &maxy, &advance) != 0)
        return false;
    out->advance = advance;
    if (maxx <= minx || maxy <= miny)
        return true; /* blank (space) */
    SDL_Color white = {255, 255, 255, 255};
    SDL_Surface *s = TTF_RenderGlyph32_Blended(font, cp, white);
    if (!s)
        return false;
    SDL_Surface *argb = s->format->format == SDL_PIXELFORMAT_ARGB8888
                            ? s
                            : SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_ARGB8888, 0);
    bool ok = argb != NULL && SDL_LockSurface(argb) == 0;
    int x0 = argb ? argb->w : 0, x1 = -1, y0 = argb ? argb->h : 0, y1 = -1;
    if (ok) {
        for (int y = 0; y < argb->h; y++) {
            const Uint32 *row = (const Uint32 *)((const Uint8 *)argb->pixels + y * argb->pitch);
            for (int x = 0; x < argb->w; x++)
                if (row[x] >> 24) {
                    x0 = x < x0 ? x : x0;
                    x1 = x > x1 ? x : x1;
                    y0 = y < y0 ? y : y0;
                    y1 = y > y1 ? y : y1;
                }
        }
        if (x1 >= x0) {
            int w = x1 - x0 + 1, h = y1 - y0 + 1;
            size_t need = (size_t)w * (size_t)h;
            if (need > f->scratch_size) {
                uint8_t *grown = realloc(f->scratch, need);
                ok = grown != NULL;
                if (ok) {
                    f->scratch = grown;
                    f->scratch_size = need;
                }
            }
            for (int y = 0; ok && y < h; y++) {
                const Uint32 *row =
                    (const Uint32 *)((const Uint8 *)argb->pixels + (y0 + y) * argb->pitch);
                for (int x = 0; x < w; x++)
                    f->scratch[(size_t)y * (size_t)w + (size_t)x] = (uint8_t)(row[x0 + x] >> 24);
            }
            int pen = minx < 0 ? -minx : 0;
            out->coverage = f->scratch;
            out->pitch = w;
            out->width = w;
            out->height = h;
            out->x_off = x0 - pen;
            out->y_off = y0 - TTF_FontAscent(font);
        }
        SDL_UnlockSurface(argb);
    }
    if (argb && argb != s)
        SDL_FreeSurface(argb);
    SDL_FreeSurface(s);
    return ok;
}

static bool open_at(view_font *f, int pixel_size, view_glyphs *g, char *err, size_t err_size)
{
    pixel_size = pixel_size < 6 ? 6 : pixel_size > 96 ? 96 : pixel_size;
    TTF_Font *font = TTF_OpenFont(f->path, pixel_size);
    if (!font) {
        snprintf(err, err_size, "%s: %s", f->path, TTF_GetError());
        return false;
    }
    if (f->font)
        TTF_CloseFont(f->font);
    f->font = font;
    f->pixel_size = pixel_size;
    TTF_SetFontHinting(font, TTF_HINTING_LIGHT);
    view_glyphs_set_font(g, raster_glyph, f, TTF_FontAscent(font), -TTF_FontDescent(font),
                         TTF_FontLineSkip(font));
    return true;
}

bool view_font_open(view_font *f, const char *path, int pixel_size, view_glyphs *g, char *err,
                    size_t err_size)
{
    memset(f, 0, sizeof *f);
    view_glyphs_set_font(g, NULL, NULL, 0, 0, 0);
    if (!TTF_WasInit() && TTF_Init() != 0) {
        snprintf(err, err_size, "SDL2_ttf does not start: %s", TTF_GetError());
        return false;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    if (!open_at(f, pixel_size, g, err, err_size)) {
        view_font_close(f);
        return false;
    }
    return true;
}

bool view_font_resize(view_font *f, int pixel_size, view_glyphs *g)
{
    if (!f->font || pixel_size == f->pixel_size)
        return true;
    char err[600];
    return open_at(f, pixel_size, g, err, sizeof err);
}

void view_font_close(view_font *f)
{
    if (f->font)
        TTF_CloseFont(f->font);
    free(f->scratch);
    if (TTF_WasInit())
        TTF_Quit();
    memset(f, 0, sizeof *f);
}
