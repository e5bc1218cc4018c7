/* Plain C view of libcal3d 0.11's CalMixer for the mixer reference test: one CalModel with a
 * skeleton, animations and meshes, driven by the same calls as ossa_mixer, read back in
 * Cal3D's own terms (file bone order, conjugated quaternions). */
#ifndef OSSA_CAL3D_MIXER_ORACLE_H
#define OSSA_CAL3D_MIXER_ORACLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cal3d_mix cal3d_mix;

/* Loads the skeleton, then the animations (ids 0..) and meshes in order, attaches every mesh.
 * NULL with libcal3d's error text in msg on failure. */
cal3d_mix *cal3d_mix_new(const char *skeleton, const char *const *anims, int anim_count,
                         const char *const *meshes, int mesh_count, char *msg, size_t msg_size);
void cal3d_mix_free(cal3d_mix *mix);

/* CalMixer calls; 1 for true. */
int cal3d_mix_blend_cycle(cal3d_mix *mix, int id, float weight, float delay);
int cal3d_mix_clear_cycle(cal3d_mix *mix, int id, float delay);
int cal3d_mix_execute_action(cal3d_mix *mix, int id, float in, float out, float weight,
                             int auto_lock);
int cal3d_mix_remove_action(cal3d_mix *mix, int id);
/* CalModel::update(dt): updateAnimation then updateSkeleton. */
void cal3d_mix_update(cal3d_mix *mix, float dt);
float cal3d_mix_time(cal3d_mix *mix);
float cal3d_mix_duration(cal3d_mix *mix);

int cal3d_mix_bone_count(cal3d_mix *mix);
/* Absolute (model-space) translation and rotation of a bone, Cal3D's convention. */
void cal3d_mix_bone(cal3d_mix *mix, int bone, float t[3], float r[4]);
/* CalSpringSystem's gravity and constant force (0.11 defaults (0, 0, -98.1) and (0, 0.5, 0)),
 * for the spring test's check that a wrong constant is caught. 0 when there is no system. */
int cal3d_mix_set_spring_forces(cal3d_mix *mix, const float gravity[3], const float force[3]);
/* CalRenderer's vertices of every submesh, mesh by mesh; the count, -1 on failure. */
long cal3d_mix_vertices(cal3d_mix *mix, float *positions, size_t capacity);

#ifdef __cplusplus
}
#endif
#endif
