/* The HUD's TrueType font through SDL2_ttf (no window, no GL): the file is found in the usual
 * places (skips when the machine has none), glyphs come out with ink where the font has it
 * (descenders below the baseline, capitals above it), each is rasterised once however often the
 * text is measured, a size change starts the cache again, and a missing override finds none. */
#include <stdlib.h>
#include <string.h>

#include "font_ttf.h"
#include "glyphs.h"
#include "test_common.h"

/* Lit atlas pixels of a glyph. */
static size_t ink(const view_glyphs *g, const view_glyph *gl)
{
    size_t n = 0;
    for (int y = 0; y < gl->h; y++)
        for (int x = 0; x < gl->w; x++)
            n += g->atlas[(size_t)(gl->y + y) * VIEW_GLYPHS_SIDE + gl->x + x] > 64;
    return n;
}

int main(void)
{
    char path[512];
    CHECK(!view_font_find("/no/such/font.ttf", path, sizeof path) && path[0] == '\0');
    if (!view_font_find(NULL, path, sizeof path)) {
        fprintf(stderr, "no TrueType font installed (fonts-dejavu-core): skipped\n");
        return TEST_SKIP;
    }
    fprintf(stderr, "font: %s\n", path);
    view_glyphs g;
    CHECK(view_glyphs_init(&g));
    view_font f;
    char err[600];
    CHECKF(view_font_open(&f, path, 16, &g, err, sizeof err), "%s", err);
    CHECK(view_glyphs_has_font(&g) && g.ascent > 8 && g.descent >= 2 &&
          g.line_height >= g.ascent + g.descent);
    /* Descenders reach below the baseline (y_off + h > 0); capitals and x-height letters sit
     * on it; all have ink. */
    const char *down = "gjpqy", *up = "AHTxe";
    for (const char *p = down; *p; p++) {
        const view_glyph *gl = view_glyphs_get(&g, (uint32_t)*p);
        CHECKF(gl && gl->y_off + gl->h >= 3 && ink(&g, gl) > 10, "'%c' does not descend", *p);
    }
    for (const char *p = up; *p; p++) {
        const view_glyph *gl = view_glyphs_get(&g, (uint32_t)*p);
        CHECKF(gl && gl->y_off + gl->h <= 1 && gl->y_off < -5 && ink(&g, gl) > 10,
               "'%c' is not on the baseline", *p);
    }
    const view_glyph *cap = view_glyphs_get(&g, 'H'), *x = view_glyphs_get(&g, 'x');
    CHECK(cap && x && -cap->y_off > -x->y_off); /* a capital is taller than an x */
    const view_glyph *space = view_glyphs_get(&g, ' ');
    CHECK(space && space->w == 0 && space->advance > 0);
    CHECK(view_glyphs_get(&g, 0xE9) != NULL); /* é, in DejaVu and the other fonts listed */
    /* Measured twice: rasterised once. */
    const char *text = "walk 1.25 s  frame 12 / 30  joint_Bip01 L Thigh";
    float w1 = view_glyphs_width(&g, text);
    unsigned long done = g.rasterised;
    float w2 = view_glyphs_width(&g, text);
    CHECK(w1 == w2 && w1 > 100.0f && g.rasterised == done);
    /* A larger size (a DPI change) empties the cache and draws larger glyphs. */
    int small = g.line_height, cap_h = cap ? cap->h : 0;
    CHECK(view_font_resize(&f, 32, &g));
    CHECK(g.count == 0 && g.line_height > small + 10);
    const view_glyph *big = view_glyphs_get(&g, 'H');
    CHECK(big && big->h > cap_h + 5);
    view_font_close(&f);
    view_glyphs_free(&g);
    return test_finish("font-ttf");
}
