/* ossa-view opening models: files and folders from the command line or dropped on the window
 * (the engine's folder rule), the renderer beside each model, the clip --clip names. */
#ifndef OSSA_VIEW_FILES_H
#define OSSA_VIEW_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app.h"

/* Loads files (or the demo when count is 0) into vm, with a renderer when gl is set; the
 * model's warnings go to stderr. opt gives the cross-fade and --allow-outside. On failure vm
 * holds nothing and err says why. */
/* Shows the files the current model's load left out ("left out FILE: why") in the window's
 * message line (they are on stderr with the other warnings already). */
void view_left_out(view_app *app);

bool view_load_model(const char *const *paths, size_t count, const view_options *opt, bool gl,
                     view_model *vm, char *err, size_t err_size);
void view_free_model(view_model *vm);
/* Clip index from --clip (a number or a name); 0 when absent. An unknown name is listed with
 * the model's clips on stderr and gives VIEW_EXIT_INPUT. */
int view_resolve_clip(const ossa_model *m, const char *clip, uint32_t *out);
/* Opens paths as the new model; on failure the current model stays and the error is shown in
 * the window and written to stderr. */
void view_open_paths(view_app *app, char *const *paths, size_t count);
/* Parts the GPU path leaves to the CPU are named once a model, when GPU skinning is in use. */
void view_gpu_notes(view_app *app);
/* A drop as SDL delivers it: begin, one SDL-allocated path each (taken over), complete. A
 * system that sends no begin or complete opens each path as a drop of its own. */
void view_drop_begin(view_app *app);
void view_drop_file(view_app *app, char *file);
void view_drop_complete(view_app *app);
/* Frees the paths of a drop not opened yet. */
void view_drop_clear(view_app *app);

#endif
