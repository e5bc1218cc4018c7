/* Vertex-frame playback (C3S VFRM / TFRM tracks), its lerp kernel, and surface mounts (C3S
 * SMNT), evaluated into caller-owned buffers. See ossa_vertex_track and ossa_mount in model.h. */
#ifndef OSSA_VERTEX_ANIM_H
#define OSSA_VERTEX_ANIM_H

#include <stdbool.h>
#include <stdint.h>
#include "ossa/model.h"
#include "ossa/sample.h"
#include "ossa/skin.h"
#include "ossa/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The clip's vertex (or uv) track for one submesh; NULL when the clip has none. */
OSSA_API const ossa_vertex_track *ossa_clip_vertex_track(const ossa_clip *clip, uint32_t mesh,
                                                         uint32_t submesh);
OSSA_API const ossa_vertex_track *ossa_clip_uv_track(const ossa_clip *clip, uint32_t mesh,
                                                     uint32_t submesh);

/* Where a track is at a time: the two frames to lerp and the fraction (0: all frame_a).
 * OSSA_WRAP_LOOP wraps the time into [0, duration) and lerps from the last key back to the
 * first at t = duration; OSSA_WRAP_CLAMP and OSSA_WRAP_EXTRAPOLATE hold the first / last key
 * outside the keys (shapes are never extrapolated). */
OSSA_API void ossa_vertex_track_locate(const ossa_vertex_track *track, float duration, float time,
                                       ossa_wrap wrap, uint32_t *frame_a, uint32_t *frame_b,
                                       float *fraction);

/* Positions and normals (3 * vertex_count floats each, file vertex order) of a submesh at a
 * time of a clip, lerped between the frames of the clip's vertex track for it; normals are
 * renormalised (out_normals may be NULL). Without a vertex track in the clip (or with clip
 * NULL) the bind positions and normals are copied. out_capacity: vertices each output holds.
 * OSSA_ERR_INVALID_ARGUMENT (nothing written) for a bad mesh / submesh index, a missing output
 * buffer or out_capacity below the submesh's vertex_count. */
OSSA_API ossa_status ossa_vertex_clip_eval(const ossa_model *m, const ossa_clip *clip,
                                           uint32_t mesh, uint32_t submesh, float time,
                                           ossa_wrap wrap, float *out_positions,
                                           float *out_normals, uint32_t out_capacity,
                                           ossa_error *err);

/* Texture coordinates of UV set 0 (2 * vertex_count floats) at a time of a clip, from its uv
 * track for the submesh, else the submesh's own set 0 (zeros when it has no UVs). out_capacity:
 * vertices out_uvs holds (2 floats each); errors as ossa_vertex_clip_eval. */
OSSA_API ossa_status ossa_uv_clip_eval(const ossa_model *m, const ossa_clip *clip, uint32_t mesh,
                                       uint32_t submesh, float time, ossa_wrap wrap,
                                       float *out_uvs, uint32_t out_capacity, ossa_error *err);

/* A mount's model-space transform on the mesh as it is now: positions holds the mount's
 * submesh's current vertex positions (3 floats a vertex, file order: bind, skinned or frame
 * output; vertex_capacity vertices, at least the submesh's vertex_count). Output is
 * p -> t + R(r)(s * p), the composition of the triangle's frame with the mount's offset.
 * OSSA_ERR_INVALID_ARGUMENT for a NULL pointer, a mount out of range or a vertex_capacity below
 * the submesh's vertex_count; OSSA_ERR_VALUE when the triangle is degenerate (no normal). */
OSSA_API ossa_status ossa_mount_transform(const ossa_model *m, uint32_t mount,
                                          const float *positions, uint32_t vertex_capacity,
                                          float t[3], float r[4], float s[3], ossa_error *err);

/* ---- vertex-frame playback (C3S-style) --------------------------------------------------- */

typedef struct ossa_frame_lerp_job {
    const float *positions_a, *positions_b; /* 3 * count floats each (packed float3) */
    const float *normals_a, *normals_b;     /* 3 * count each, or both NULL */
    uint32_t count;                         /* vertices lerped: the size of every input */
    float t;                                /* out = a + t * (b - a) */
    float *out_positions;                   /* 3 floats a vertex, count vertices written */
    float *out_normals;                     /* the same; required when normals are given */
    uint32_t out_capacity;                  /* vertices each output holds: >= count */
    bool normalize;                         /* true: lerped normals are renormalised (a zero
                                               normal stays zero); false: left as lerped */
    ossa_skin_kernel kernel;                /* AUTO: ossa_skin_kernel_best() */
} ossa_frame_lerp_job;

/* OSSA_OK, or OSSA_ERR_INVALID_ARGUMENT (a NULL array, t not finite, out_capacity below count,
 * an unknown kernel) or OSSA_ERR_UNSUPPORTED (the kernel is not available on this CPU); err
 * says which. */
OSSA_API ossa_status ossa_frame_lerp_job_validate(const ossa_frame_lerp_job *job,
                                                  ossa_error *err);
/* Validates, then runs (nothing written when the job is invalid). Any alignment; output may
 * alias neither input. All kernels agree with the scalar one within 1e-6 relative (FMA
 * rounding). */
OSSA_API ossa_status ossa_frame_lerp_job_run(const ossa_frame_lerp_job *job, ossa_error *err);

#ifdef __cplusplus
}
#endif
#endif
