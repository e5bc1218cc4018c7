/* Ossa: skeletal animation runtime for legacy character formats.
 *
 * The contract, kept by every header below:
 * - A call that can fail returns ossa_status (OSSA_OK = 0, so test `!= OSSA_OK`) and, where it
 *   takes one, fills the caller's ossa_error (which may be NULL).
 * - An object is made by ossa_X_create(..., out, err) and freed by ossa_X_destroy (safe on
 *   NULL); on failure *out is NULL (an ossa_soa_pose is a caller-owned struct that create fills).
 * - A job is a struct of inputs and output arrays with their sizes: ossa_X_job_validate checks
 *   it, ossa_X_job_run validates and runs it and writes nothing when it is invalid.
 * - Buffers are the caller's; per-frame calls never allocate. Quaternions are Hamilton x y z w.
 * - The library never prints and never reads the environment: diagnostics go to a callback in
 *   an options struct (ossa_log_options, ossa_export_options), zero meaning the default.
 * - Only the OSSA_API functions, all prefixed ossa_, are exported.
 *
 * The calls in the order a program makes them:
 *   load       ossa_load_file / _files / _memory (load.h)            -> ossa_model
 *   runtime    ossa_rt_skeleton_create (pose.h), ossa_rt_clip_create, ossa_sample_cache_create
 *              (sample.h) or ossa_mixer_create (mixer.h); ossa_soa_pose_create x 2 (pose.h)
 *   skinning   ossa_skin_mesh_create per submesh (skin.h), ossa_skin_pool_create (skin_pool.h),
 *              ossa_spring_state_create (cloth.h)
 *   per frame  ossa_playback_time -> ossa_sample_job_run, or ossa_mixer_update ->
 *              ossa_mixer_evaluate; ossa_ltm_job_run -> ossa_palette_job_run (pose.h);
 *              ossa_skin_job_init -> ossa_skin_job_run / ossa_skin_run_parallel;
 *              ossa_spring_update; vertex frames: ossa_vertex_clip_eval (vertex_anim.h)
 *   write      ossa_write_cal3d / _skm / _c3s / _cff (write.h), ossa_export_gltf (export.h)
 *   teardown   ossa_X_destroy in reverse order, ossa_model_destroy last
 * The scalar reference path (reference.h) computes the same pose and skin straight from the
 * model, for checking. */
#ifndef OSSA_OSSA_H
#define OSSA_OSSA_H

#include "ossa/status.h"
#include "ossa/model.h"
#include "ossa/load.h"
#include "ossa/demo.h"
#include "ossa/write.h"
#include "ossa/export.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/pose.h"
#include "ossa/mixer.h"
#include "ossa/skin.h"
#include "ossa/skin_pool.h"
#include "ossa/cloth.h"
#include "ossa/vertex_anim.h"

#endif
