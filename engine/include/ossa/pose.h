/* Poses at run time: the structure-of-arrays (SoA) pose, the runtime skeleton built once from a
 * model, and the per-frame local-to-model and palette jobs over caller-owned SoA buffers, with no
 * allocation per frame.
 *
 *   ossa_soa_pose     a pose (local or model space) as separate tx[], ty[], ... arrays
 *   ossa_rt_skeleton  parents, rest pose and inverse bind of a model, in SoA
 *   jobs              local-to-model, palette: fill a struct, run it (run validates first and
 *                     returns OSSA_ERR_INVALID_ARGUMENT, with err saying which field is wrong,
 *                     without touching anything when the job is invalid)
 *
 * Results agree with the scalar reference path (ossa/reference.h) within 1e-6. Quaternions are
 * Hamilton (x, y, z, w) as in model.h. Nothing here is thread-safe on one object; distinct
 * objects are independent (an ossa_rt_skeleton is read-only after creation and may be shared). */
#ifndef OSSA_POSE_H
#define OSSA_POSE_H

#include <stddef.h>
#include <stdint.h>
#include "ossa/model.h"
#include "ossa/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SoA arrays are padded to a multiple of this many entries (and 32-byte aligned); the padding
 * holds an identity transform. */
enum { OSSA_SOA_WIDTH = 8 };

/* ---------------------------------------------------------------------------------------------
 * SoA pose */

typedef struct ossa_soa_pose {
    uint32_t bone_count;
    uint32_t capacity;      /* bone_count rounded up to OSSA_SOA_WIDTH (at least one block) */
    float *tx, *ty, *tz;    /* translation */
    float *qx, *qy, *qz, *qw; /* rotation, Hamilton */
    float *sx, *sy, *sz;    /* scale */
    void *block;            /* the one allocation behind every array */
} ossa_soa_pose;

/* Allocates the arrays of *out (a caller-owned struct; one block) and sets every entry, padding
 * included, to identity. OSSA_ERR_INVALID_ARGUMENT above 65536 bones, OSSA_ERR_NOMEM; on
 * failure *out is zeroed. */
OSSA_API ossa_status ossa_soa_pose_create(uint32_t bone_count, ossa_soa_pose *out, ossa_error *err);
/* Frees the block and zeroes the struct; safe on a zeroed struct and on NULL. */
OSSA_API void ossa_soa_pose_destroy(ossa_soa_pose *pose);
/* Conversions to and from the AoS arrays of ossa/reference.h (t: 3 floats a bone, r: 4, s: 3,
 * bone_capacity bones each); pose->bone_count entries are read (from_aos) or written (to_aos).
 * Both change nothing and return OSSA_ERR_INVALID_ARGUMENT for a NULL pointer or when t, r, s
 * hold fewer than pose->bone_count bones. */
OSSA_API ossa_status ossa_soa_pose_from_aos(ossa_soa_pose *pose, const float *t, const float *r,
                                            const float *s, uint32_t bone_capacity,
                                            ossa_error *err);
OSSA_API ossa_status ossa_soa_pose_to_aos(const ossa_soa_pose *pose, float *t, float *r, float *s,
                                          uint32_t bone_capacity, ossa_error *err);

/* ---------------------------------------------------------------------------------------------
 * Runtime skeleton */

typedef struct ossa_rt_skeleton ossa_rt_skeleton;

/* Built once from the model's bones (parents before children, as model.h guarantees).
 * A model with 0 bones gives a valid skeleton of 0 bones. */
OSSA_API ossa_status ossa_rt_skeleton_create(const ossa_model *model, ossa_rt_skeleton **out,
                                             ossa_error *err);
OSSA_API void ossa_rt_skeleton_destroy(ossa_rt_skeleton *skel);
OSSA_API uint32_t ossa_rt_skeleton_bone_count(const ossa_rt_skeleton *skel);
/* Writes the rest pose into every entry of pose. OSSA_ERR_INVALID_ARGUMENT (nothing written)
 * for a NULL pointer or a pose whose bone_count is not the skeleton's. */
OSSA_API ossa_status ossa_rt_skeleton_rest(const ossa_rt_skeleton *skel, ossa_soa_pose *pose,
                                           ossa_error *err);

/* ---------------------------------------------------------------------------------------------
 * Local to model, palette */

typedef struct ossa_ltm_job {
    const ossa_rt_skeleton *skeleton;
    const ossa_soa_pose *local;  /* bone_count == the skeleton's */
    ossa_soa_pose *model;        /* written: model-space TRS (same composition as
                                    ossa_local_to_model); may not alias local */
} ossa_ltm_job;

/* OSSA_OK, or OSSA_ERR_INVALID_ARGUMENT (nothing written by run; err names the field) for an
 * invalid job. */
OSSA_API ossa_status ossa_ltm_job_validate(const ossa_ltm_job *job, ossa_error *err);
OSSA_API ossa_status ossa_ltm_job_run(const ossa_ltm_job *job, ossa_error *err);

typedef struct ossa_palette_job {
    const ossa_rt_skeleton *skeleton;
    const ossa_soa_pose *model;  /* model-space pose, from ossa_ltm_job */
    float *palette;              /* 12 floats a bone, 3x4 row-major, as ossa_skin_palette */
    size_t palette_floats;       /* capacity of palette in floats (>= 12 x bone count) */
} ossa_palette_job;

/* OSSA_OK, or OSSA_ERR_INVALID_ARGUMENT (nothing written by run; err names the field, or the
 * palette's capacity and the floats needed) for an invalid job. */
OSSA_API ossa_status ossa_palette_job_validate(const ossa_palette_job *job, ossa_error *err);
OSSA_API ossa_status ossa_palette_job_run(const ossa_palette_job *job, ossa_error *err);

#ifdef __cplusplus
}
#endif
#endif
