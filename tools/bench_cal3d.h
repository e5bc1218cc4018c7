/* C interface to libcal3d 0.11 for `ossa bench` (compiled only when pkg-config finds cal3d):
 * the same skeleton, meshes and clip as an ossa_model, rebuilt in memory as a CalCoreModel. */
#ifndef OSSA_BENCH_CAL3D_H
#define OSSA_BENCH_CAL3D_H

#include <stddef.h>
#include "ossa/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_cal3d bench_cal3d;

/* Copies m's bones (model order), every submesh (positions, normals, influences, faces, and the
 * springs and physique weights of a submesh that has both, as the instance runs its cloth; no
 * morphs) and clip `clip` (as a cycle of weight 1 on a CalModel with every mesh
 * attached; clip < 0: none; BENCH_CAL3D_ALL_CLIPS: every clip of m, and no CalModel: a crowd's
 * shared core, for bench_cal3d_actor_new). NULL on failure with a message in msg. */
#define BENCH_CAL3D_ALL_CLIPS (-2)
bench_cal3d *bench_cal3d_new(const ossa_model *m, int clip, char *msg, size_t msg_size);
void bench_cal3d_free(bench_cal3d *c);

/* CalMixer::updateAnimation(dt) then CalMixer::updateSkeleton(). */
void bench_cal3d_pose(bench_cal3d *c, float dt);
/* The mixer's clock (the cycle's time, seconds). */
float bench_cal3d_time(const bench_cal3d *c);

/* CalPhysique::calculateVerticesAndNormals for every submesh, in model order: 6 floats per
 * vertex (position, normal) into out. Returns the vertices written. */
size_t bench_cal3d_skin(bench_cal3d *c, float *out);

/* A crowd member: a CalModel of its own on a shared core made with BENCH_CAL3D_ALL_CLIPS, every
 * mesh attached, nothing playing. NULL on failure. */
typedef struct bench_cal3d_actor bench_cal3d_actor;
bench_cal3d_actor *bench_cal3d_actor_new(bench_cal3d *core);
void bench_cal3d_actor_free(bench_cal3d_actor *a);
/* CalMixer::clearCycle of what plays, then blendCycle(clip, 1, fade): a cross-fade. 0 on
 * failure. */
int bench_cal3d_actor_play(bench_cal3d_actor *a, int clip, float fade);
/* CalMixer::setAnimationTime and setTimeFactor. */
void bench_cal3d_actor_set_time(bench_cal3d_actor *a, float time);
void bench_cal3d_actor_set_speed(bench_cal3d_actor *a, float factor);
/* One frame: CalModel::update(dt) (updateAnimation, updateSkeleton, the springs' submeshes
 * skinned and CalSpringSystem::update), then every submesh into out (6 floats a vertex, model
 * order): calculateVerticesAndNormals, or a spring submesh's own vertices and normals. Returns
 * the vertices written. */
size_t bench_cal3d_actor_frame(bench_cal3d_actor *a, float dt, float *out);
/* The cloth put at rest where the current pose skins it (ossa_instance_springs_reset's twin;
 * 0.11 has no CalSpringSystem::resetPositions). */
void bench_cal3d_actor_reset_springs(bench_cal3d_actor *a);

#ifdef __cplusplus
}
#endif
#endif
