/* What ossa-view draws, without GL: a layer over the model's character instance (ossa/instance.h,
 * which owns the pose, the mixers, the skin meshes, springs and vertex frames and does the
 * work), the bone lines of the overlay, and the vertex layout every skinning path shares.
 *
 * Vertex layout. Every drawable submesh is a "part" with a range of layout vertices. A part with
 * skinning streams (ossa_skin_mesh, skin.h) uses the skin mesh's output order, padding included
 * (padding vertices have zero position and normal and no triangle uses them), and its triangles are
 * ossa_skin_mesh_indices. A part without streams (the model has no skeleton, or they could not be
 * built) keeps file order and shows its bind vertices. The CPU path skins straight into the caller's
 * buffers in this layout (view_scene_skin); the GPU path uploads the bind vertices in the same
 * layout once (view_scene_bind_vertex), so both paths share one index buffer.
 *
 * Vertex frames (C3S VFRM/TFRM). The "vertex clip" (view_scene_set_vertex_clip; view_scene_pose
 * sets it to its clip) decides which submeshes play shapes: a part whose submesh has a vertex
 * track in that clip is written from ossa_vertex_clip_eval instead of skinned (scattered into the
 * part's layout order when it has skinning streams), in whichever skinning path the renderer
 * runs, so CPU and GPU modes draw the same shapes. UV tracks give the part's UV set 0 the same
 * way (view_scene_uvs). Mixer fades blend bone poses only: during one the caller names the clip
 * with the larger weight as the vertex clip (shapes are not blended between clips).
 *
 * Morph clips (Cal3D morph animations). When a skinned submesh has morph targets and the model
 * has morph clips, the scene owns a mixer of its own in which every morph clip plays as a looping
 * morph cycle of weight 1 (Cal3D's blendCycle: synchronised, so several morph clips share their
 * mean length). Its clock is the caller's (view_scene_set_morph_time; ossa-view passes the
 * current clip's time, so morphs follow play, pause, seeks and reverse). Each such part gets its
 * weights from ossa_mixer_morph_weights into a buffer made at init and hands them to its skin job
 * (applied before skinning, CPU only).
 *
 * Springs (Cal3D cloth). A skinned submesh with springs gets an ossa_spring_state at init.
 * view_scene_springs_step skins such a part and runs one spring step on it (the caller calls it
 * once a frame with the frame's playback dt); the spring-owned vertices (physique weight > 0)
 * that result are kept per part and overwrite the skinned ones in view_scene_skin, so every later
 * skin of the same frame (drawing, bounds, mounts) shows the same cloth. view_scene_springs_reset
 * puts the cloth at rest where the current pose skins it, for jumps in time. Morphs and springs
 * only run on the CPU skinning path. */
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

typedef struct view_scene_part {
    const ossa_submesh *submesh;
    uint32_t mesh, submesh_index;   /* where it lives in the model */
    const ossa_skin_mesh *skin;     /* NULL: bind vertices in file order (the instance's) */
    uint32_t first_vertex;          /* in the layout */
    uint32_t vertex_count;          /* layout vertices, padding included */
    uint32_t index_count;           /* 3 x faces */
    const uint32_t *indices;        /* index_count, relative to first_vertex */
    bool hidden;                    /* the mesh is loaded but not drawn (OSSA_MESH_HIDDEN) */
    bool two_sided;                 /* OSSA_SUBMESH_TWO_SIDED */
    bool frame_tracked;             /* some clip has a vertex track for the submesh */
    bool uv_tracked;                /* some clip has a uv track for the submesh */
    const float *morph_weights;     /* submesh->morph_count weights from the morph mixer (NULL:
                                       no morphing) */
    const ossa_spring_state *spring; /* NULL: no springs */
    const float *spring_positions;  /* 3 per layout vertex of the part: the last spring step's
                                       output (spring-owned vertices are read from it) */
} view_scene_part;

/* The runtime objects (pose, mixers, skin meshes, springs, frames) belong to a character
 * instance (ossa/instance.h); the scene adds the layout, the bone overlay and the bounds. */
typedef struct view_scene {
    const ossa_model *model;        /* not owned */
    ossa_instance *instance;        /* owned */
    size_t vertex_count;            /* layout vertices of every part */
    uint32_t part_count;
    view_scene_part *parts;
    ossa_skin_kernel kernel;        /* the concrete CPU kernel the skin jobs run */
    const float *palette;           /* the instance's: 12 floats, 3x4 row-major, per bone */
    ossa_skin_pool *pool;           /* NULL: big parts are skinned on the calling thread too */

    float *joints;                  /* 3 floats per bone: model-space joint positions, current pose */
    float *bind_joints;             /* 3 floats per bone: the same in the bind pose */
    float *bone_lines;              /* 6 floats (two points) per bone with a parent */
    float *bind_bone_lines;         /* the same in the bind pose */
    uint32_t bone_line_count;

    /* Scratch that view_scene_bounds skins into (layout order). */
    float *positions, *normals;

    /* Vertex frames: the clip whose vertex and uv tracks play (NULL: none) and its time, wrapped
     * into the clip. */
    const ossa_clip *vertex_clip;
    float vertex_time;
    uint32_t hidden_mesh_count;     /* meshes flagged OSSA_MESH_HIDDEN, for the HUD */

    /* Morph clips and springs (see above). */
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
/* The same from a local pose the caller evaluated (e.g. ossa_mixer_evaluate): local->bone_count
 * must equal the model's bone count (else the rest pose is shown). local may be the instance's
 * (ossa_instance_local_pose). The vertex clip is left as it is. */
void view_scene_pose_local(view_scene *s, const ossa_soa_pose *local);
/* The clip (an index; out of range: none) whose vertex and uv tracks play, at time (wrapped into
 * the clip, Cal3D loop); none: every submesh shows its bind or skinned shape. */
void view_scene_set_vertex_clip(view_scene *s, uint32_t clip, float time);
/* The morph clips' clock: every morph cycle is shown at time (wrapped into the morph mixer's
 * length; non-finite: 0) and each morphing part's weights are refreshed. Allocates nothing. */
void view_scene_set_morph_time(view_scene *s, float time);
/* One spring step of dt seconds (clamped to the instance's spring_max_dt; dt <= 0 or not
 * finite: nothing) for every part with springs, from the current palette and morph weights.
 * Allocates nothing. */
void view_scene_springs_step(view_scene *s, float dt);
/* Every spring system at rest where the current pose skins it (after a seek, a frame step, a
 * clip change; call it after the pose). */
void view_scene_springs_reset(view_scene *s);
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
 * and normals (3 floats per layout vertex, indexed from layout vertex 0, so a mapped GL buffer of
 * the whole layout can be passed as it is); spring-owned vertices come from the last spring step;
 * parts with a vertex track now get its shape, other parts without streams their bind vertices.
 * Allocates nothing. */
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
/* Box around the current pose's skinned vertices (the joints when there are none, a unit box
 * around the origin when there is nothing at all). */
void view_scene_bounds(const view_scene *s, float min[3], float max[3]);
/* The same for the bind pose. */
void view_scene_bind_bounds(const view_scene *s, float min[3], float max[3]);
/* "cpu avx2" and the like: the CPU skinning path's name. */
const char *view_scene_kernel_name(const view_scene *s);

#endif
