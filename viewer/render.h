/* The GL 3.3 core side of ossa-view. Needs a current context with the glad loader initialised.
 *
 * Skinning paths (view_display.skinning, K):
 *  - CPU: every frame the scene's prepared output (view_scene_prepare: the engine's SIMD skin
 *    jobs, before drawing) is uploaded into the position and normal buffers, in the scene's
 *    vertex layout (scene.h).
 *  - GPU: the bind vertices, UVs, up to 8 bone indices and weights per vertex live in static
 *    buffers; each frame only the palette (3x4 per bone) goes into a uniform block and
 *    mesh.vert blends. A submesh with more than 8 influences on a vertex stays on the CPU path
 *    (one note on stderr, printed once GPU skinning is in use), and so does the whole model when its palette does not fit
 *    a uniform block (GL_MAX_UNIFORM_BLOCK_SIZE). Both paths share one index buffer.
 * Display: lit materials, times their diffuse texture when the file loads (a file that does not
 * gives one warning on stderr and the material colour); W draws the wireframe ON TOP of the
 * shaded mesh (polygon offset); N a line per vertex along its skinned normal, 2% of the bind
 * pose's diagonal long (a geometry shader over the same vertices, so it follows either path);
 * P the bind pose (bind vertices, bind bones); G a grid on the ground plane (perpendicular to
 * view_frame.up, at the bind pose's lowest point along it); B the bone overlay, and with it an
 * axis tripod per mount (X red, Y green, Z blue; 6% of the bind diagonal long).
 * Vertex frames (scene.h): a part with a vertex track in the current clip is written on the CPU
 * and uploaded in both modes and drawn with the CPU program, so K changes nothing on
 * it; parts with uv tracks get their UV range of the shared UV buffer rewritten every frame.
 * Culling: none. Every face is drawn from both sides and lit on the side the viewer sees
 * (mesh.frag), since legacy windings disagree; that is also what OSSA_SUBMESH_TWO_SIDED asks for,
 * so two-sided submeshes need no state of their own. Hidden meshes (OSSA_MESH_HIDDEN) get no
 * draw. */
#ifndef OSSA_VIEW_RENDER_H
#define OSSA_VIEW_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "display.h"
#include "scene.h"

typedef struct view_draw {
    size_t first_index;   /* into the shared index buffer */
    int32_t index_count;
    int32_t base_vertex;
    uint32_t part;        /* scene part */
    uint32_t first_vertex, vertex_count; /* its range of the layout */
    float diffuse[3];
    unsigned texture;     /* 0: the material colour alone */
    bool flip_v;          /* UV origin at the image's bottom */
    bool cpu_only;        /* more influences than mesh.vert takes, morphs or springs: CPU-skinned
                             in GPU mode too */
    uint32_t influences;  /* the most on one vertex */
    bool gaps;            /* its influences carry their own points (mesh.vert adds their gaps) */
    bool uv_tracked;      /* its UVs are rewritten every frame from uv tracks */
    bool frames;          /* this frame: plays a vertex track (CPU-written in both modes) */
} view_draw;

typedef struct view_mesh_program {
    unsigned id;
    int view_proj, diffuse, light_dir, ambient, texture, textured, flip_v, flat;
} view_mesh_program;

typedef struct view_line_program {
    unsigned id;
    int view_proj, color, length;
} view_line_program;

enum { VIEW_GRID_LINES = 2 * 21 }; /* 20 x 20 cells */

typedef struct view_renderer {
    view_mesh_program mesh_cpu, mesh_gpu;        /* mesh_gpu.id 0: no GPU skinning */
    view_mesh_program mesh_gpu_lite;             /* OSSA_SKIN_LITE: at most 4 influences, no
                                                    gaps; id 0: mesh_gpu draws those too */
    view_line_program lines, normals_cpu, normals_gpu;
    unsigned skinned_vao, gpu_vao, bind_vao, line_vao, grid_vao;
    unsigned position_buffer, normal_buffer;     /* CPU-skinned, rewritten every frame */
    unsigned bind_position_buffer, bind_normal_buffer, uv_buffer, bone_buffer, weight_buffer;
    unsigned gap_buffer;     /* GPU path: per-influence gaps of exact submeshes (24 per vertex) */
    unsigned index_buffer, palette_buffer, line_buffer, grid_buffer;
    unsigned mount_vao, mount_buffer;            /* 3 lines per mount, axis-major */
    size_t vertex_count;
    uint32_t bone_count;
    uint32_t draw_count;
    view_draw *draws;
    uint32_t texture_count;
    unsigned *textures;        /* one per material, 0 where it has none (names may repeat) */
    uint32_t cpu_only_parts;   /* parts that stay on the CPU path in GPU mode */
    bool *cpu_parts;           /* per scene part: cpu_only (what GPU mode asks the CPU for) */
    uint32_t mount_count;
    float mount_length;        /* a mount tripod's axes: 6% of the bind diagonal */
    float bind_min[3], bind_max[3];
    float normal_length;
    char cpu_name[32], gpu_name[64];
    float grid[VIEW_GRID_LINES * 6];
} view_renderer;

/* Compiles the shaders, loads the textures and creates the buffers for the scene's model from its
 * bind data (view_scene_bind_data; the caller frees it after); on failure writes a message into
 * err and returns false (what was created is released). A GPU skinning program that cannot be
 * built only disables that path (a note on stderr). The renderer reads the scene's layout and
 * each frame's output (s->frame) and calls nothing of the scene. */
bool view_renderer_init(view_renderer *r, const view_scene *s, const view_scene_bind *bind,
                        char *err, size_t err_size);
void view_renderer_free(view_renderer *r);

typedef struct view_frame {
    int width, height;          /* of the target, pixels */
    float view_proj[16];
    float light_dir[3];         /* towards the light, normalised */
    float up[3];                /* the model's up axis (the grid lies across it); zero: +Y */
    view_display display;       /* what to draw (overlays, wireframe, skinning path) */
} view_frame;

/* What the renderer needs the scene to prepare for a frame with this display (the bind pose,
 * in GPU mode the parts the CPU still writes, the mount tripods' size): the caller passes it to
 * view_scene_prepare before view_renderer_draw. */
void view_renderer_wants(const view_renderer *r, const view_display *d, view_scene_wants *out);
/* Uploads the frame the scene prepared (CPU path: its skinned parts) or the palette (GPU path),
 * the vertex-frame shapes and UVs, and draws it into the bound framebuffer. Allocates nothing. */
void view_renderer_draw(view_renderer *r, const view_scene *s, const view_frame *f);

/* The skinning path a frame with this display uses, for the HUD: "cpu avx2" (the kernel's
 * name), "gpu", "gpu + cpu avx2" (some submeshes stay on the CPU), the CPU name when GPU
 * skinning is unavailable, "vertex frames" for a model without a skeleton whose clips play
 * vertex frames, "none (no skeleton)" when there is nothing to skin. */
const char *view_renderer_skinning_name(const view_renderer *r, const view_display *d);
/* One note a part that stays on the CPU in GPU mode (too many influences, morph targets played
 * by morph clips, springs); nothing without GPU skinning. files.c prints them once a model, when
 * GPU skinning is in use after the model loaded. */
void view_renderer_print_gpu_notes(const view_renderer *r, const view_scene *s, FILE *out);

/* render_program.c. A mesh.vert + mesh.frag program built with defines in front (the CPU and
 * GPU variants, render_crowd.c's); false with the reason in err. */
bool view_mesh_program_build(view_mesh_program *p, const char *defines, const char *name,
                             char *err, size_t err_size);
/* lines.vert + lines.frag, or with normals mesh.vert + normals.geom + lines.frag. */
bool view_line_program_build(view_line_program *p, const char *defines, bool normals,
                             const char *name, char *err, size_t err_size);
/* Binds the program's Palette uniform block (if it has one) to a binding point. */
void view_program_bind_palette(unsigned program, unsigned binding);

/* render_grid.c. The VIEW_GRID_LINES lines (6 floats each) of a square grid across up, through
 * the bind box's lowest point along up, centred under it, 1.5 of its diagonal wide. */
void view_grid_build(const float bind_min[3], const float bind_max[3], const float up[3],
                     float *out);

/* The colour frames are cleared to (r, g, b); tests look for pixels of another colour. */
#define VIEW_BACKGROUND_RGB 0.16f, 0.17f, 0.20f

#endif
