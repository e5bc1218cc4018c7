/* What ossa-view draws, without GL: a layer over the model's character instance (ossa/instance.h,
 * which owns the pose, the mixers, the skin meshes, springs and vertex frames and does the
 * work), the bone lines of the overlay, the vertex layout every skinning path shares, and each
 * frame's CPU output, made before drawing (view_scene_prepare) so that the renderer only reads.
 *
 * Vertex layout. Every drawable submesh is a "part", the instance's (ossa_instance_part), with a
 * range of layout vertices from first_vertex[part]: its output_count vertices in the instance's
 * output order, padding included (padding vertices have zero position and normal and no
 * triangle uses them), its triangles the part's indices. The CPU path's frame and the GPU path's
 * bind data (view_scene_bind_data) share this layout, so both use one index buffer.
 *
 * A frame. view_scene_prepare writes what the renderer uploads: the positions and normals of the
 * parts the CPU writes this frame (every drawn part in CPU mode; in GPU mode the ones the shader
 * cannot take and those playing vertex frames), the UVs of parts with uv tracks, which parts play
 * vertex frames now, and the mount tripods. Vertex frames, morph clips and cloth are the
 * instance's (its clock way: ossa-view ticks it, view_scene_sync mirrors it). */
#ifndef OSSA_VIEW_SCENE_H
#define OSSA_VIEW_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ossa/instance.h"
#include "ossa/model.h"
#include "ossa/sample.h"
#include "ossa/pose.h"
#include "ossa/mixer.h"
#include "ossa/skin.h"
#include "ossa/skin_pool.h"
#include "ossa/cloth.h"

/* One frame's output for the renderer (view_scene_prepare), in the layout. */
typedef struct view_scene_frame {
    float *positions, *normals;     /* 3 floats per layout vertex; the parts with cpu[part] */
    float *uvs;                     /* 2 floats per layout vertex; the parts with uv_tracked */
    bool *cpu;                      /* per part: positions and normals written this frame */
    bool *vertex_frames;            /* per part: plays a vertex track now */
    bool cpu_any;                   /* some part's cpu[part] */
    float *mount_lines;             /* 18 floats per mount, view_scene_mount_lines' layout */
    uint32_t mounts_placed;         /* 0: none drawn */
} view_scene_frame;

/* What the renderer needs of a frame (view_scene_prepare). */
typedef struct view_scene_wants {
    bool bind;                      /* the bind pose is drawn: nothing skinned, bind UVs */
    const bool *cpu_parts;          /* per part: the CPU writes it (NULL: every part) */
    float mount_length;             /* > 0: mount tripods with axes this long */
} view_scene_wants;

/* The bind data of the whole layout the GPU path and the renderer's static buffers take (made by
 * view_scene_bind_data, freed by view_scene_bind_free): see view_scene_bind_vertices. */
typedef struct view_scene_bind {
    float *positions, *normals, *uvs, *weights, *gaps;
    uint16_t *bones;
    uint32_t *max_influences;       /* per part */
    float min[3], max[3];           /* view_scene_bind_bounds */
} view_scene_bind;

/* The runtime objects (pose, mixers, skin meshes, springs, frames) belong to a character
 * instance (ossa/instance.h); the scene adds the layout, the bone overlay and the bounds. */
typedef struct view_scene {
    const ossa_model *model;        /* not owned */
    ossa_instance *instance;        /* owned */
    size_t vertex_count;            /* layout vertices of every part */
    uint32_t part_count;
    ossa_instance_part *parts;      /* the instance's parts (ossa_instance_part_info) */
    uint32_t *first_vertex;         /* per part: where its range starts in the layout */
    bool *hidden;                   /* per part: its mesh is loaded but not drawn
                                       (OSSA_MESH_HIDDEN) */
    view_scene_frame frame;         /* the last view_scene_prepare's output */
    ossa_skin_kernel kernel;        /* the concrete CPU kernel the skin jobs run */
    char kernel_name[24];           /* "cpu avx2" and the like: the CPU skinning path's name */
    const float *palette;           /* the instance's: 12 floats, 3x4 row-major, per bone */
    ossa_skin_pool *pool;           /* NULL: big parts are skinned on the calling thread too */

    float *joints;                  /* 3 floats per bone: model-space joint positions, current pose */
    float *bind_joints;             /* 3 floats per bone: the same in the bind pose */
    float *bone_lines;              /* 6 floats (two points) per bone with a parent */
    float *bind_bone_lines;         /* the same in the bind pose */
    uint32_t bone_line_count;

    /* Vertex frames: the clip whose vertex and uv tracks play (NULL: none) and its time, wrapped
     * into the clip. */
    const ossa_clip *vertex_clip;
    float vertex_time;
    uint32_t hidden_mesh_count;     /* meshes flagged OSSA_MESH_HIDDEN, for the HUD */

    /* Morph clips and springs, the instance's. */
    const ossa_mixer *morph_mixer;  /* NULL: no morph clip plays on a part with morph targets */
    float morph_time;               /* the morph mixer's time, wrapped into its length */
    uint32_t morph_part_count;      /* parts with morph_weights */
    uint32_t spring_part_count;     /* parts with a spring state */
} view_scene;

/* Builds the parts and the pose objects for a model and poses it at rest; false when out of memory
 * (a part whose skinning streams cannot be built falls back to its bind vertices instead). */
bool view_scene_init(view_scene *s, const ossa_model *m);
void view_scene_free(view_scene *s);
/* Poses the model at time (wrapped into the clip, Cal3D loop) of clip (an index), or at rest for
 * OSSA_INSTANCE_NO_CLIP or an index out of range: the palette, the joints and the bone lines. */
void view_scene_pose(view_scene *s, uint32_t clip, float time);
/* What the scene mirrors of its instance (vertex clip, morph time, joints and bone lines), after
 * the instance moved on by itself (ossa_instance_tick or _show). */
void view_scene_sync(view_scene *s);
/* Writes the frame (s->frame) the renderer draws from the instance as it is now: the CPU's
 * skinned parts, the UVs of uv-tracked parts, the vertex-frame flags and the mount tripods, as
 * wants asks. Allocates nothing. */
void view_scene_prepare(view_scene *s, const view_scene_wants *wants);
/* The vertex track the part plays now (from the vertex clip), NULL when it is skinned or shows
 * its bind vertices. */
const ossa_vertex_track *view_scene_part_vertex_track(const view_scene *s, uint32_t part);
/* UV set 0 of a part in its layout order (2 floats per layout vertex, from uvs[0]): from the
 * vertex clip's uv track for it when bind is false and there is one, else the submesh's own
 * (zero without UVs; padding zero). Allocates nothing. */
void view_scene_uvs(const view_scene *s, uint32_t part, bool bind, float *uvs);
/* Axis tripods of the model's mounts (ossa_mount_transform on the current shape of each mount's
 * submesh, or its bind shape when bind is true), each axis `length` long: lines[6 * (axis *
 * mount_count + i)] holds the line of axis (0 X, 1 Y, 2 Z) of the i-th mount placed (two
 * points). Returns how many were placed (a mount on a degenerate triangle is left out). Uses
 * the scene's scratch; allocates nothing. */
uint32_t view_scene_mount_lines(const view_scene *s, bool bind, float length, float *lines);
/* Skins parts [first_part, end_part) with the current palette (and morph weights) into positions
 * and normals (3 floats per layout vertex, indexed from layout vertex 0); spring-owned vertices
 * come from the last spring step; parts with a vertex track now get its shape, other parts
 * without streams their bind vertices. Allocates nothing. */
void view_scene_skin(const view_scene *s, uint32_t first_part, uint32_t end_part, float *positions,
                     float *normals);
/* Bind vertex data of the whole layout (each array may be NULL): positions and normals (3 floats),
 * UV set 0 (2 floats, zero without UVs), up to 8 influences as bone indices and weights (8 per
 * vertex; a vertex without influences, and padding, has bones[0] = VIEW_NO_BONE and zero weights).
 * Returns the largest influence count of each part in max_influences (part_count entries, may be
 * NULL): parts above 8 cannot be skinned by 8 slots. */
#define VIEW_NO_BONE 0xffffu
void view_scene_bind_vertices(const view_scene *s, float *positions, float *normals, float *uvs,
                              uint16_t *bones, float *weights, uint32_t *max_influences);
/* For the GPU path of submeshes with per-influence points (C3S, SKM): 24 floats per layout
 * vertex, the gap u_k - w_k p of each of its first 8 influences from the bind vertex p (zero
 * elsewhere), so that sum_k P_k [u_k; w_k] = sum_k w_k P_k [p; 1] + sum_k R_k gap_k. */
void view_scene_bind_gaps(const view_scene *s, float *gaps);
/* Every array of b made and filled (bind vertices, gaps, influence counts, bounds); false when
 * out of memory (nothing is left allocated). */
bool view_scene_bind_data(const view_scene *s, view_scene_bind *b);
void view_scene_bind_free(view_scene_bind *b);
/* Box around the current pose's skinned vertices (the joints when there are none, a unit box
 * around the origin when there is nothing at all). Skins every part into the frame's arrays (the
 * current pose: what a frame drawn now shows). */
void view_scene_bounds(view_scene *s, float min[3], float max[3]);
/* The same for the bind pose. */
void view_scene_bind_bounds(const view_scene *s, float min[3], float max[3]);
/* "cpu avx2" and the like: the CPU skinning path's name. */
const char *view_scene_kernel_name(const view_scene *s);

#endif
