/* The GL side of ossa-view --crowd (crowd.h): N characters drawn with the single model's buffers
 * (render.h: index buffer, bind vertices, bones and weights, textures, draws).
 *  - CPU: view_crowd_prepare (before drawing) skins every character into one array (split over
 *    a skin pool); it is uploaded into one position and one normal buffer, and each submesh is one multi-draw with a
 *    base vertex per character; the vertex shader finds the character from gl_VertexID and its
 *    place in a texture buffer (mesh.vert OSSA_CROWD_PLACES).
 *  - GPU: every character's place and palette go into one texture buffer (RGBA32F: the place,
 *    then 3 rows a bone); each submesh is one instanced draw whose vertex shader picks its
 *    character by gl_InstanceID (OSSA_CROWD_INSTANCED). When the buffer would pass
 *    GL_MAX_TEXTURE_BUFFER_SIZE, or that program does not build, or OSSA_VIEW_NO_INSTANCING=1
 *    is in the environment, a loop of draws does the same,
 *    a character at a time through the single model's palette block. Parts the GPU path leaves
 *    to the CPU (render.h) and parts with vertex tracks are CPU-skinned per character in GPU
 *    mode too; only those parts are uploaded then, gathered character after character (a
 *    character with a cloth ponytail does not send its whole body every frame).
 * P draws every character's bind pose; W the wireframe over it. The bone overlay, the grid,
 * normals, mounts and uv tracks are single-model features and are not drawn for a crowd. The
 * header names no GL type. */
#ifndef OSSA_VIEW_RENDER_CROWD_H
#define OSSA_VIEW_RENDER_CROWD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "crowd.h"
#include "render.h"

typedef struct view_crowd_renderer {
    view_mesh_program cpu;          /* OSSA_CROWD_PLACES, CPU-skinned or bind vertices */
    view_mesh_program instanced;    /* OSSA_GPU_SKINNING + OSSA_CROWD_INSTANCED; id 0: none */
    view_mesh_program instanced_lite; /* the same + OSSA_SKIN_LITE; id 0: none */
    view_mesh_program loop;         /* OSSA_GPU_SKINNING + OSSA_CROWD; id 0: none */
    int places, character_vertices, loop_offset;
    unsigned vao, position_buffer, normal_buffer, palette_buffer, palette_texture;
    unsigned places_buffer, places_texture; /* a texel per character: its place */
    unsigned uv_texture;            /* over the single model's UV buffer */
    unsigned cpu_part_uv_buffer, cpu_part_uv_texture; /* the CPU parts' UVs, gathered */
    float *packed;                  /* view_crowd_pack's output */
    size_t packed_floats;
    bool *cpu_parts;                /* per scene part: CPU-skinned in GPU mode too */
    uint32_t cpu_part_count;
    uint32_t *cpu_part_first;       /* per scene part: its first vertex among the CPU parts */
    uint32_t cpu_part_vertices;     /* a character's vertices in the CPU parts */
    float *cpu_part_stage;          /* GPU mode: the CPU parts gathered, positions then normals */
    int *draw_counts, *draw_bases;  /* a multi-draw's arguments, one per character */
    const void **draw_offsets;
    bool gathered;                  /* this frame's buffers hold the CPU parts alone */
    bool use_instancing;            /* else the loop of draws in GPU mode */
    size_t vertices_per_frame;      /* of the last frame: skinned (CPU) or drawn (GPU) */
    double gather_seconds;          /* the last frame's gathering of the CPU parts (GPU) */
    char name[64];
} view_crowd_renderer;

/* Programs and buffers for crowd c drawn with r's buffers (bind: the scene's bind data, for the
 * UVs); false with err filled on failure (what was made is released). */
bool view_crowd_renderer_init(view_crowd_renderer *cr, const view_renderer *r,
                              const view_scene *s, const view_scene_bind *bind,
                              const view_crowd *c, char *err, size_t err_size);
void view_crowd_renderer_free(view_crowd_renderer *cr);
/* What a frame with this display needs the crowd to prepare (view_crowd_prepare) before
 * view_crowd_renderer_draw: skinning (every part, or in GPU mode the CPU parts) and the packed
 * palettes of the instanced path. */
void view_crowd_renderer_wants(view_crowd_renderer *cr, const view_renderer *r,
                               const view_crowd *c, const view_display *d, view_crowd_wants *out);
/* Uploads what the crowd prepared (CPU: its skinned characters; GPU: the packed palettes and the
 * CPU parts gathered) and draws it into the bound framebuffer, cleared first. */
void view_crowd_renderer_draw(view_crowd_renderer *cr, const view_renderer *r,
                              const view_scene *s, view_crowd *c, const view_frame *f);
/* The CPU time of the crowd's last update and last frame's skinning, palette packing and
 * gathering (cr may be NULL: none drawn yet): what the HUD and --bench-frames report. */
double view_crowd_cpu_seconds(const view_crowd *c, const view_crowd_renderer *cr);
/* "cpu avx2", "gpu instanced", "gpu, a draw per character" (+ "cpu" for CPU parts). */
const char *view_crowd_skinning_name(const view_crowd_renderer *cr, const view_renderer *r,
                                     const view_display *d);

#endif
