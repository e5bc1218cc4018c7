/* The mixer: Cal3D's CalMixer (cycles, actions, fades, layering) over the runtime clips and
 * poses of ossa/sample.h and ossa/pose.h. Capacities are fixed at creation; nothing allocates
 * afterwards. */
#ifndef OSSA_MIXER_H
#define OSSA_MIXER_H

#include <stdbool.h>
#include <stdint.h>
#include "ossa/model.h"
#include "ossa/pose.h"
#include "ossa/sample.h"
#include "ossa/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Mixer: Cal3D's CalMixer (0.11) semantics.
 *
 * Animation ids: 0 .. clip_count - 1 are the model's clips; clip_count .. clip_count +
 * morph_clip_count - 1 are its morph clips (ossa_mixer_morph_id), mixed by the same rules into
 * per-morph-target weights.
 *
 * - blend_cycle(id, weight, delay): starts the clip as a looping, synchronised cycle (or
 *   retargets it), fading its weight towards weight over delay seconds. The first blend of a
 *   clip plays it with the Cal3D loop key (OSSA_WRAP_LOOP), as 0.11 appends it.
 * - clear_cycle(id, delay): the cycle leaves the synchronised group and fades to 0; removed at 0.
 * - execute_action(id, in, out, weight, auto_lock): plays the clip once from time 0, fading in
 *   over in seconds and out over the last out seconds; auto_lock holds the last frame instead.
 * - update(dt): advances every clock and fade (Cal3D's updateAnimation).
 * - evaluate: the blended local pose (Cal3D's updateSkeleton): actions first (newest first,
 *   weighted average within the layer), then cycles fill 1 - the actions' weight; a lone
 *   animation shows at 100% whatever its weight; bones nothing animates keep the rest pose.
 * Capacities are fixed at creation; nothing allocates afterwards. */

typedef struct ossa_mixer ossa_mixer;

typedef struct ossa_mixer_desc {
    uint32_t max_cycles;       /* active cycles at once; 0 = 16 */
    uint32_t max_actions;      /* active actions at once; 0 = 16 */
    ossa_rot_interp rot;       /* OSSA_ROT_SLERP (Cal3D) by default */
    ossa_wrap wrap;            /* for actions; cycles always use OSSA_WRAP_LOOP. Default
                                  OSSA_WRAP_EXTRAPOLATE, as Cal3D */
} ossa_mixer_desc;

/* desc may be NULL (defaults). Builds a runtime clip for every clip of the model. */
OSSA_API ossa_status ossa_mixer_create(const ossa_model *model, const ossa_mixer_desc *desc,
                                       ossa_mixer **out, ossa_error *err);
/* The same over runtime data built elsewhere (a crowd's instances share one copy): skeleton from
 * ossa_rt_skeleton_create(model) and clips[i] from ossa_rt_clip_create(model, &model->clips[i])
 * for every clip of the model. They are borrowed, only read (so several mixers on several
 * threads may share them), and must outlive the mixer. OSSA_ERR_INVALID_ARGUMENT for a NULL
 * skeleton, or NULL clips when the model has clips. */
OSSA_API ossa_status ossa_mixer_create_shared(const ossa_model *model, const ossa_mixer_desc *desc,
                                              const ossa_rt_skeleton *skeleton,
                                              const ossa_rt_clip *const *clips, ossa_mixer **out,
                                              ossa_error *err);
OSSA_API void ossa_mixer_destroy(ossa_mixer *mixer);
OSSA_API const ossa_rt_skeleton *ossa_mixer_skeleton(const ossa_mixer *mixer);
OSSA_API uint32_t ossa_mixer_morph_id(const ossa_mixer *mixer, uint32_t morph_clip);

/* Each returns OSSA_OK on success (Cal3D's true), OSSA_ERR_INVALID_ARGUMENT when the id is out
 * of range, a value is not finite, or the fixed capacity is full (where Cal3D would allocate),
 * err saying which.
 * A clip may run as a cycle and as actions at once, as in Cal3D. clear_cycle of an inactive id
 * and blend_cycle(id, 0, ...) of an inactive id succeed and do nothing. */
OSSA_API ossa_status ossa_mixer_blend_cycle(ossa_mixer *mixer, uint32_t id, float weight,
                                            float delay, ossa_error *err);
OSSA_API ossa_status ossa_mixer_clear_cycle(ossa_mixer *mixer, uint32_t id, float delay,
                                            ossa_error *err);
OSSA_API ossa_status ossa_mixer_execute_action(ossa_mixer *mixer, uint32_t id, float delay_in,
                                               float delay_out, float weight_target,
                                               bool auto_lock, ossa_error *err);
/* Removes the newest running action of id at once (no fade), as CalMixer::removeAction;
 * OSSA_ERR_INVALID_ARGUMENT when none runs. */
OSSA_API ossa_status ossa_mixer_remove_action(ossa_mixer *mixer, uint32_t id, ossa_error *err);

OSSA_API void ossa_mixer_update(ossa_mixer *mixer, float dt);

OSSA_API float ossa_mixer_time(const ossa_mixer *mixer);      /* Cal3D getAnimationTime */
OSSA_API float ossa_mixer_duration(const ossa_mixer *mixer);  /* weighted duration of sync cycles */
OSSA_API void ossa_mixer_set_time(ossa_mixer *mixer, float time);
OSSA_API void ossa_mixer_set_time_factor(ossa_mixer *mixer, float factor);

/* Current weight of a cycle or action that plays (the newest action of id); an animation that
 * does not play weighs 0. */
OSSA_API float ossa_mixer_weight(const ossa_mixer *mixer, uint32_t id);
/* Whether a cycle or action of id plays (one just blended in may still weigh 0). */
OSSA_API bool ossa_mixer_is_active(const ossa_mixer *mixer, uint32_t id);
OSSA_API uint32_t ossa_mixer_active_count(const ossa_mixer *mixer);

/* The blended local pose into pose (bone_count == the model's). OSSA_ERR_INVALID_ARGUMENT when
 * pose does not fit. */
OSSA_API ossa_status ossa_mixer_evaluate(ossa_mixer *mixer, ossa_soa_pose *pose,
                                         ossa_error *err);

/* Morph weights of one submesh: out[k] for submesh morph target k (submesh->morph_count
 * entries), matched by name with the morph clips' tracks; 0 where nothing plays. out_capacity:
 * weights out holds. OSSA_ERR_INVALID_ARGUMENT (nothing written) for an out-of-range
 * mesh/submesh or out_capacity below the submesh's morph_count. */
OSSA_API ossa_status ossa_mixer_morph_weights(ossa_mixer *mixer, uint32_t mesh, uint32_t submesh,
                                              float *out, uint32_t out_capacity,
                                              ossa_error *err);

#ifdef __cplusplus
}
#endif
#endif
