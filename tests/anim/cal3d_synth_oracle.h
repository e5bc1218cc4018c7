/* libcal3d 0.11 built in memory from a hand-made ossa_model (no files): a CalCoreSkeleton from
 * its bones and a CalCoreAnimation per clip, then a fresh CalModel per run, driven through
 * CalMixer and read back in Ossa's bone order and quaternion convention. For the synthetic
 * sampler reference test; meshes are not built. */
#ifndef OSSA_CAL3D_SYNTH_ORACLE_H
#define OSSA_CAL3D_SYNTH_ORACLE_H

#include <stddef.h>

#include "ossa/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cal3d_synth cal3d_synth;

/* Builds the core model (bones in m's order, which must be the file order; no scales). NULL
 * with a message on failure. The data is copied: m may be freed afterwards. */
cal3d_synth *cal3d_synth_new(const ossa_model *m, char *msg, size_t msg_size);
void cal3d_synth_free(cal3d_synth *s);
/* Replaces the CalModel (and so its mixer) with a fresh one. 1 on success. */
int cal3d_synth_reset(cal3d_synth *s);
int cal3d_synth_blend_cycle(cal3d_synth *s, int id, float weight, float delay);
void cal3d_synth_set_time(cal3d_synth *s, float time);
/* CalModel::update(dt). */
void cal3d_synth_update(cal3d_synth *s, float dt);
float cal3d_synth_time(cal3d_synth *s);
float cal3d_synth_duration(cal3d_synth *s);
/* Model-space translation and rotation of bone i, quaternion in Ossa's (Hamilton) convention. */
void cal3d_synth_bone(cal3d_synth *s, int bone, float t[3], float r[4]);
/* Key count of a clip's track as libcal3d holds it now (after any loop key blendCycle added). */
int cal3d_synth_key_count(cal3d_synth *s, int clip, int track);
/* CalCoreTrack::getState of a clip's track at time (local translation and rotation, Ossa's
 * convention): Cal3D's own key search and blend, without the mixer. Note that blendCycle adds
 * the loop key to the core track for good. 1 on success. */
int cal3d_synth_track_state(cal3d_synth *s, int clip, int track, float time, float t[3],
                            float r[4]);

#ifdef __cplusplus
}
#endif
#endif
