/* ossa-view's SDL window and OpenGL 3.3 core context, the offscreen framebuffer of screenshots,
 * scripts and benchmarks, drawing a frame (model, then HUD) and writing it as a PNG. */
#ifndef OSSA_VIEW_WINDOW_H
#define OSSA_VIEW_WINDOW_H

#include <stdbool.h>

#include "app.h"

/* Opens the window (hidden when app->offscreen), the context, the current model's renderer and
 * the HUD. 0, or an exit status with the reason on stderr. */
int view_window_open(view_app *app);
/* The title follows view_app_title (shown windows only). */
void view_window_title(view_app *app);
/* An offscreen framebuffer of w x h, bound; false (said on stderr) when it cannot be made. */
bool view_window_bind_offscreen(view_app *app, int w, int h);
/* vm's renderer for its scene, from the scene's bind data (made and freed here); false with err
 * filled on failure. */
bool view_window_renderer_init(view_model *vm, char *err, size_t err_size);
/* Prepares the frame (the scene or the crowd skins, as the renderer asks), then draws the model
 * and, when asked, the HUD into the bound framebuffer of w x h. */
void view_window_draw(view_app *app, int w, int h, bool with_hud);
/* Renders one offscreen frame of the options' size and writes it as a PNG: 0 or an exit
 * status. */
int view_window_screenshot(view_app *app, const char *path, bool with_hud);
/* Frees the framebuffer and the HUD's GL side (the context stays for the renderers). */
void view_window_free_gl(view_app *app);
/* Deletes the context and the window, and quits SDL. */
void view_window_close(view_app *app);

#endif
