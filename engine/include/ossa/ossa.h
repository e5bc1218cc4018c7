/* Ossa: skeletal animation runtime for legacy character formats.
 *
 * The contract, kept by every header below and checked on them by the api-contract test
 * (tests/layout/check_contract.py, whose allowlist names what does not keep it yet):
 * - Failure. A call that can fail returns ossa_status (OSSA_OK = 0, so test `!= OSSA_OK`) and
 *   takes the caller's ossa_error *err as its last parameter (which may be NULL), filled on
 *   failure only with what was wrong: which field or argument, which index, which sizes.
 *   Per-frame calls (jobs, the mixer) pay nothing for it when they succeed. Only such a call
 *   takes an ossa_error. The model builder (build.h) is the one variant: it takes err once, at
 *   ossa_builder_create, and its later calls fill that.
 * - No failure. A call that returns a value or nothing cannot fail: a getter, a count, a
 *   destroy, a clock step. Each argument it cannot take has a documented meaning (ignored,
 *   clamped, the rest pose); a precondition a caller can break makes the call fallible.
 * - Which status. An argument the call cannot take (NULL, an index out of range, a count above
 *   its cap, a non-finite or negative number where neither is meant, a capacity too small) is
 *   OSSA_ERR_INVALID_ARGUMENT; the other codes describe data (a file, a model, a device).
 * - Not found. A look-up of an index answers OSSA_NOT_FOUND (status.h, UINT32_MAX) when there
 *   is none, and every "none" index (OSSA_SKIN_PAD_VERTEX, OSSA_INSTANCE_NO_CLIP) is that value;
 *   a look-up of a pointer answers NULL.
 * - Objects. An object is made by ossa_X_create(..., out, err) and freed by ossa_X_destroy
 *   (safe on NULL); on failure *out is NULL (an ossa_soa_pose is a caller-owned struct that
 *   create fills).
 * - Jobs. A job is a struct of inputs and output arrays with their capacities, filled by the
 *   caller (zero = default for its enums): ossa_X_job_validate(job, err) checks it,
 *   ossa_X_job_run(job, err) validates and runs it and writes nothing when it is invalid.
 * - Buffers are the caller's; per-frame calls never allocate. Quaternions are Hamilton x y z w.
 * - Capacities. Every caller-owned output array comes with its capacity, checked before
 *   anything is written (OSSA_ERR_INVALID_ARGUMENT naming the buffer and both sizes): an
 *   argument or job field right after the array, or after the group of parallel arrays it
 *   sizes, named `capacity` or `X_capacity` and counting entries, never bytes: vertices
 *   (out_capacity, vertex_capacity: each array holds that many vertices of its own width, e.g.
 *   3 floats a position, 2 a UV), bones (bone_capacity, for t, r, s and palettes) or weights;
 *   the one other name is a count of floats that says so (ossa_palette_job.palette_floats). An
 *   input array the call reads by a count of its own comes with that count the same way. Fixed
 *   arrays (float t[3]) and sized structs (ossa_soa_pose) carry their own size.
 * - Wrap mode. Every parameter or field of type ossa_wrap (sample.h) is named `wrap`.
 * - Loaders and writers. Each takes its options struct by pointer (NULL or all zero: the
 *   defaults) before out and err: ossa_load_options, ossa_X_write_options,
 *   ossa_export_options; a writer takes where to write (a path, or dir and base for a set of
 *   files), never loose settings.
 * - Diagnostics. The library never prints and never reads the environment: messages go to one
 *   callback type, ossa_log_fn (status.h), given as an ossa_log_options {fn, user}, zero
 *   meaning nothing is reported: a field `log` of ossa_load_options, ossa_export_options and
 *   ossa_cff_write_options, an argument of ossa_skin_kernel_resolve.
 * - ossa_skin_buffer_alloc / _free are memory, not an object: a zeroed, aligned block like
 *   malloc / free's, with one way to fail (NULL: out of memory) and nothing to create or
 *   validate, so they keep malloc's shape rather than ossa_X_create(..., out, err).
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
 *              ossa_skin_job_run (over a pool: ossa_skin_job.pool);
 *              ossa_spring_update; vertex frames: ossa_vertex_clip_eval (vertex_anim.h)
 *   or at once ossa_instance_create / _create_shared (instance.h) wires all of the above for
 *              one character; per frame the clock way, ossa_instance_tick (a crowd:
 *              ossa_instance_tick_many; ossa_instance_switch_clip cross-fades), or the mixer
 *              way, ossa_instance_play, ossa_instance_update (ossa_instance_update_many)
 *              -> ossa_instance_skin into the caller's spans
 *   write      ossa_write_cal3d / _skm / _c3s / _cff (write.h), ossa_export_gltf (export.h)
 *   teardown   ossa_X_destroy in reverse order, ossa_model_destroy last
 * The scalar reference path (reference.h) computes the same pose and skin straight from the
 * model, for checking.
 *
 * Example: load a model, play its first clip for 60 frames and skin its first submesh (the
 * unit-example test builds and runs it from this comment on the demo mannequin).
 * --- example begin ---
 * #include <stdio.h>
 * #include <stdlib.h>
 * #include "ossa/ossa.h"
 *
 * int main(int argc, char **argv)
 * {
 *     ossa_error err = {0};
 *     ossa_model *m = NULL;
 *     if (argc < 2 || ossa_load_file(argv[1], NULL, &m, &err) != OSSA_OK || !m->clip_count)
 *         return 1;
 *     uint32_t bones = m->bone_count;
 *     ossa_rt_skeleton *skel = NULL;
 *     ossa_rt_clip *clip = NULL;
 *     ossa_skin_mesh *mesh = NULL;
 *     ossa_soa_pose local = {0}, model = {0};
 *     float *palette = calloc(12 * (size_t)bones, sizeof(float)), *pos = NULL, *nrm = NULL;
 *     ossa_status st = palette ? OSSA_OK : OSSA_ERR_NOMEM;
 *     if (st == OSSA_OK && (st = ossa_rt_skeleton_create(m, &skel, &err)) == OSSA_OK &&
 *         (st = ossa_rt_clip_create(m, &m->clips[0], &clip, &err)) == OSSA_OK &&
 *         (st = ossa_soa_pose_create(bones, &local, &err)) == OSSA_OK &&
 *         (st = ossa_soa_pose_create(bones, &model, &err)) == OSSA_OK)
 *         st = ossa_skin_mesh_create(&m->meshes[0].submeshes[0], bones, &mesh, &err);
 *     uint32_t n = st == OSSA_OK ? ossa_skin_mesh_output_count(mesh) : 0;
 *     pos = calloc(3 * (size_t)n + 3, sizeof(float));
 *     nrm = calloc(3 * (size_t)n + 3, sizeof(float));
 *     for (int frame = 0; frame < 60 && st == OSSA_OK && pos && nrm; frame++) {
 *         float t = ossa_playback_time(ossa_rt_clip_duration(clip), frame / 30.0f, OSSA_WRAP_LOOP);
 *         ossa_sample_job sample = {.clip = clip, .time = t, .wrap = OSSA_WRAP_LOOP,
 *                                   .output = &local};
 *         ossa_ltm_job ltm = {.skeleton = skel, .local = &local, .model = &model};
 *         ossa_palette_job pal = {.skeleton = skel, .model = &model, .palette = palette,
 *                                 .palette_floats = 12 * (size_t)bones};
 *         ossa_skin_job skin = {.mesh = mesh, .palette = palette, .palette_size = bones,
 *                               .out_positions = pos, .out_normals = nrm, .out_capacity = n + 1,
 *                               .end = n};
 *         if ((st = ossa_rt_skeleton_rest(skel, &local, &err)) == OSSA_OK &&
 *             (st = ossa_sample_job_run(&sample, &err)) == OSSA_OK &&
 *             (st = ossa_ltm_job_run(&ltm, &err)) == OSSA_OK &&
 *             (st = ossa_palette_job_run(&pal, &err)) == OSSA_OK)
 *             st = ossa_skin_job_run(&skin, &err);
 *     }
 *     printf("%s: %u vertices skinned over 60 frames\n", ossa_status_name(st), n);
 *     free(pos);
 *     free(nrm);
 *     free(palette);
 *     ossa_skin_mesh_destroy(mesh);
 *     ossa_soa_pose_destroy(&model);
 *     ossa_soa_pose_destroy(&local);
 *     ossa_rt_clip_destroy(clip);
 *     ossa_rt_skeleton_destroy(skel);
 *     ossa_model_destroy(m);
 *     return st == OSSA_OK && pos && nrm ? 0 : 1;
 * }
 * --- example end ---
 */
#ifndef OSSA_OSSA_H
#define OSSA_OSSA_H

#include "ossa/status.h"
#include "ossa/model.h"
#include "ossa/load.h"
#include "ossa/files.h"
#include "ossa/write.h"
#include "ossa/build.h"
#include "ossa/export.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/pose.h"
#include "ossa/mixer.h"
#include "ossa/clock.h"
#include "ossa/skin.h"
#include "ossa/skin_pool.h"
#include "ossa/cloth.h"
#include "ossa/vertex_anim.h"
#include "ossa/instance.h"

#endif
