/* The scalar reference path: pose evaluation (sampling clips, local-to-model, the skinning
 * palette) and skinning one submesh, straight from the model, in the plainest code. The runtime
 * jobs (sample.h, pose.h, skin.h) are checked against it. All output goes into caller-owned
 * arrays of at least bone_count entries (t: 3 floats, r: 4, s: 3, palette: 12); every call takes
 * their capacity in bones (bone_capacity, one count for all its pose arrays) or vertices
 * (vertex_capacity) and, below the model's count, writes nothing and returns
 * OSSA_ERR_INVALID_ARGUMENT with err naming the arrays and both sizes. */
#ifndef OSSA_REFERENCE_H
#define OSSA_REFERENCE_H

#include "ossa/model.h"
#include "ossa/sample.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The rest pose of every bone. */
OSSA_API ossa_status ossa_pose_rest(const ossa_model *m, float *t, float *r, float *s,
                                    uint32_t bone_capacity, ossa_error *err);

/* Writes the sampled local transform of every bone the clip animates; other bones keep what the
 * arrays hold (call ossa_pose_rest first for Cal3D's "untouched bones use the rest pose").
 * Translation lerps, rotation uses Cal3D's shortest-path slerp. */
OSSA_API ossa_status ossa_sample_clip(const ossa_model *m, const ossa_clip *clip, float time,
                                      ossa_wrap wrap, float *t, float *r, float *s,
                                      uint32_t bone_capacity, ossa_error *err);

/* Model-space transforms from local ones (parents come before children); bone_capacity covers
 * the six arrays. */
OSSA_API ossa_status ossa_local_to_model(const ossa_model *m, const float *lt, const float *lr,
                                         const float *ls, float *mt, float *mr, float *ms,
                                         uint32_t bone_capacity, ossa_error *err);

/* Skinning matrices, 3x4 row-major (12 floats per bone): model pose x inverse bind;
 * bone_capacity covers mt, mr, ms and palette. */
OSSA_API ossa_status ossa_skin_palette(const ossa_model *m, const float *mt, const float *mr,
                                       const float *ms, float *palette, uint32_t bone_capacity,
                                       ossa_error *err);

/* One pose through the reference path, in caller-owned arrays of bone_capacity bones each:
 * local (lt, lr, ls: 3, 4, 3 floats a bone), model (mt, mr, ms) and the palette (12). A stage
 * whose arrays are all NULL is not computed, so a caller stops at the local or the model pose. */
typedef struct ossa_reference_pose {
    float *lt, *lr, *ls;
    float *mt, *mr, *ms;
    float *palette;
    uint32_t bone_capacity;
} ossa_reference_pose;

/* Floats a bone of the seven arrays together: 3 + 4 + 3 local, as many model, 12 palette. */
#define OSSA_REFERENCE_POSE_FLOATS 32u

/* The seven arrays laid out in one caller-owned block of OSSA_REFERENCE_POSE_FLOATS x
 * bone_capacity floats (a NULL block: every array NULL), so a caller allocates and frees once. */
OSSA_API ossa_reference_pose ossa_reference_pose_in(float *block, uint32_t bone_capacity);

/* The rest pose, the clip sampled over it (NULL clip: the rest pose alone), then model space and
 * the palette where p holds their arrays: the pipeline written once for every caller. With
 * OSSA_WRAP_LOOP the time is wrapped into the clip first (ossa_clip_wrap_time): a cycle;
 * the other modes sample the time as given. Allocates nothing. */
OSSA_API ossa_status ossa_reference_pose_at(const ossa_model *m, const ossa_clip *clip, float time,
                                            ossa_wrap wrap, const ossa_reference_pose *p,
                                            ossa_error *err);

/* Skinning of one submesh in file order: positions and normals (3 per vertex, normals
 * renormalised; either may be NULL; vertex_capacity: vertices each output holds, >=
 * sm->vertex_count). Positions:
 * linear blend skinning of the bind position, sum_i w_i P_i p, or, when the submesh has
 * influence_points (C3S, SKM), the format's exact per-influence sum sum_i P_i [u_i; w_i].
 * Normals: the blended rotation of the bind normal in both cases (not a per-influence sum). A
 * vertex without influences keeps its bind values. Weights are used as stored, not
 * renormalised (as Cal3D). */
OSSA_API ossa_status ossa_skin_submesh_scalar(const ossa_submesh *sm, const float *palette,
                                              float *out_positions, float *out_normals,
                                              uint32_t vertex_capacity, ossa_error *err);

#ifdef __cplusplus
}
#endif
#endif
