/* Draws a view_hud's triangles with OpenGL 3.3 core: the glyph atlas (glyphs.h) as a
 * one-channel texture updated where glyphs were added,
 * one vertex buffer sized once for the HUD's capacity, alpha blending over the frame. */
#ifndef OSSA_VIEW_HUD_GL_H
#define OSSA_VIEW_HUD_GL_H

#include <stdbool.h>
#include <stddef.h>
#include "hud.h"

typedef struct view_hud_gl {
    unsigned program, vao, buffer, atlas;
    int viewport, atlas_unit;
    size_t capacity;   /* vertices the buffer holds */
} view_hud_gl;

/* Needs a current context with glad loaded; false with a message in err on failure. */
bool view_hud_gl_init(view_hud_gl *g, size_t capacity, char *err, size_t err_size);
void view_hud_gl_free(view_hud_gl *g);
/* Draws the HUD's vertices over the bound framebuffer of width x height pixels, uploading the
 * glyph atlas rows that changed first. */
void view_hud_gl_draw(view_hud_gl *g, const view_hud *h, int width, int height);

#endif
