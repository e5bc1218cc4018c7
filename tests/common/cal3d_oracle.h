/* Plain C view of Debian's libcal3d 0.11 (a C++ library) for the reference test: what its core
 * objects hold after loading and what its model/mixer/renderer produce. Everything is reported
 * in Cal3D's own terms: file bone ids and Cal3D's (conjugated) quaternions. */
#ifndef OSSA_CAL3D_ORACLE_H
#define OSSA_CAL3D_ORACLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cal3d_ref cal3d_ref;

cal3d_ref *cal3d_ref_new(void);
void cal3d_ref_free(cal3d_ref *ref);

/* Loaders: 0 (skeleton) or the new id on success, -1 with libcal3d's error text in msg. */
int cal3d_ref_load_skeleton(cal3d_ref *ref, const char *path, char *msg, size_t msg_size);
int cal3d_ref_load_mesh(cal3d_ref *ref, const char *path, char *msg, size_t msg_size);
int cal3d_ref_load_anim(cal3d_ref *ref, const char *path, char *msg, size_t msg_size);

/* A material's ambient, diffuse and specular RGBA as CalLoader::loadCoreMaterial reads them:
 * 0, or -1 with libcal3d's error text in msg. */
int cal3d_ref_material_colours(const char *path, unsigned char rgba[12], char *msg,
                               size_t msg_size);

/* CalCoreModel::scale (skeleton, animations, meshes), then the bind pose is recomputed.
 * Note: 0.11's CalCoreSubmesh::scale throws the springs away (the cloth is then off and every
 * vertex is skinned). */
void cal3d_ref_scale(cal3d_ref *ref, float factor);

/* Skeleton after CalCoreSkeleton::calculateState. 0 bones when none was loaded. */
int cal3d_ref_bone_count(const cal3d_ref *ref);
const char *cal3d_ref_bone_name(const cal3d_ref *ref, int bone);
int cal3d_ref_bone_parent(const cal3d_ref *ref, int bone);
void cal3d_ref_bone_rest(const cal3d_ref *ref, int bone, float abs_t[3], float abs_r[4],
                         float space_t[3], float space_r[4]);

/* Core animations. Tracks are addressed by their core bone id. */
int cal3d_ref_anim_count(const cal3d_ref *ref);
float cal3d_ref_anim_duration(const cal3d_ref *ref, int anim);
int cal3d_ref_anim_track_count(const cal3d_ref *ref, int anim);
long cal3d_ref_anim_key_total(const cal3d_ref *ref, int anim);
/* Key count of the bone's track, -1 when the animation has none for it. */
int cal3d_ref_track_key_count(const cal3d_ref *ref, int anim, int bone);
void cal3d_ref_track_key(const cal3d_ref *ref, int anim, int bone, int key, float *time,
                         float t[3], float r[4]);

/* Core meshes in load order, submeshes and vertices in the core (file) order. */
int cal3d_ref_mesh_count(const cal3d_ref *ref);
int cal3d_ref_submesh_count(const cal3d_ref *ref, int mesh);
void cal3d_ref_submesh_info(const cal3d_ref *ref, int mesh, int sub, int *vertex_count,
                            int *face_count, int *spring_count);
int cal3d_ref_vertex(const cal3d_ref *ref, int mesh, int sub, int v, float pos[3], float nrm[3]);
void cal3d_ref_influence(const cal3d_ref *ref, int mesh, int sub, int v, int i, int *bone,
                         float *weight);
/* Physique (cloth) weight of a vertex; 0 for submeshes without springs. */
float cal3d_ref_physique_weight(const cal3d_ref *ref, int mesh, int sub, int v);
void cal3d_ref_spring(const cal3d_ref *ref, int mesh, int sub, int spring, int vertex[2],
                      float *coefficient, float *idle_length);
void cal3d_ref_face(const cal3d_ref *ref, int mesh, int sub, int f, int idx[3]);

/* A fresh CalModel with every core mesh attached; anim >= 0 plays as a cycle
 * (CalMixer::blendCycle(anim, 1, 0)), then CalModel::update(0) and CalModel::update(time).
 * CalRenderer's vertices and normals of every submesh, mesh by mesh, go into positions and
 * normals (3 floats per vertex, capacity vertices at most). Returns the vertex count written,
 * -1 on failure. *mixer_time receives the time the mixer ended up at. */
long cal3d_ref_skin(cal3d_ref *ref, int anim, float time, float *positions, float *normals,
                    size_t capacity, float *mixer_time);

#ifdef __cplusplus
}
#endif
#endif
