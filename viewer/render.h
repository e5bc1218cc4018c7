/* The GL 3.3 core side of ossa-view: shader programs, the mesh buffers (skinned positions and
 * normals re-uploaded every frame) and the bone overlay. Needs a current context with the glad
 * loader initialised. */
#ifndef OSSA_VIEW_RENDER_H
#define OSSA_VIEW_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "scene.h"

typedef struct view_draw {
    size_t first_index;   /* into the shared index buffer */
    int32_t index_count;
    int32_t base_vertex;
    float diffuse[3];
} view_draw;

typedef struct view_renderer {
    unsigned mesh_program, line_program;
    int mesh_view_proj, mesh_diffuse, mesh_light_dir, mesh_ambient;
    int line_view_proj, line_color;
    unsigned mesh_vao, position_buffer, normal_buffer, index_buffer;
    unsigned line_vao, line_buffer;
    size_t vertex_count;
    uint32_t draw_count;
    view_draw *draws;
} view_renderer;

/* Compiles the shaders and creates the buffers for the scene's model; on failure writes a
 * message into err and returns false (what was created is released). */
bool view_renderer_init(view_renderer *r, const view_scene *s, char *err, size_t err_size);
void view_renderer_free(view_renderer *r);

typedef struct view_frame {
    int width, height;          /* of the target, pixels */
    float view_proj[16];
    float light_dir[3];         /* towards the light, normalised */
    bool show_bones;
} view_frame;

/* Uploads the scene's current pose and draws it into the bound framebuffer. */
void view_renderer_draw(view_renderer *r, const view_scene *s, const view_frame *f);

/* The colour frames are cleared to (r, g, b); tests look for pixels of another colour. */
#define VIEW_BACKGROUND_RGB 0.16f, 0.17f, 0.20f

#endif
