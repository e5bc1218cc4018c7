/* Animation runtime: data built once from a model, then per-frame jobs over caller-owned,
 * structure-of-arrays (SoA) buffers with no allocation per frame.
 *
 *   ossa_rt_skeleton  parents, rest pose and inverse bind of a model, in SoA
 *   ossa_rt_clip      one ossa_clip laid out for fast sampling (per track: times, keys)
 *   ossa_sample_cache one cursor per track, per playing instance: forward playback is O(1) per
 *                     track and frame, a seek or a backwards jump falls back to a binary search
 *   ossa_soa_pose     a pose (local or model space) as separate tx[], ty[], ... arrays
 *   jobs              sampling, local-to-model, palette: fill a struct, run it (run validates
 *                     first and returns 0 without touching anything when the job is invalid)
 *   ossa_mixer        Cal3D's CalMixer (cycles, actions, fades, layering) over the above
 *
 * Results agree with the scalar API of ossa/anim.h: sampling is the same code, local-to-model
 * and the palette are equal within 1e-6. Quaternions are Hamilton (x, y, z, w) as in model.h.
 * None of the per-frame functions allocate; objects are created once (create/init) and freed
 * by their owner. Nothing here is thread-safe on one object; distinct objects are independent
 * (an ossa_rt_clip or ossa_rt_skeleton is read-only after creation and may be shared). */
#ifndef OSSA_RUNTIME_H
#define OSSA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#include "ossa/anim.h"
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

/* Allocates the arrays (one block) and sets every entry, padding included, to identity.
 * OSSA_ERR_RANGE above 65536 bones, OSSA_ERR_NOMEM. */
ossa_status ossa_soa_pose_init(ossa_soa_pose *pose, uint32_t bone_count);
/* Frees the block and zeroes the struct; safe on a zeroed struct. */
void ossa_soa_pose_release(ossa_soa_pose *pose);
/* Conversions to and from the AoS arrays of ossa/anim.h (t: 3 floats a bone, r: 4, s: 3);
 * pose->bone_count entries. */
void ossa_soa_pose_from_aos(ossa_soa_pose *pose, const float *t, const float *r, const float *s);
void ossa_soa_pose_to_aos(const ossa_soa_pose *pose, float *t, float *r, float *s);

/* ---------------------------------------------------------------------------------------------
 * Runtime skeleton */

typedef struct ossa_rt_skeleton ossa_rt_skeleton;

/* Built once from the model's bones (parents before children, as model.h guarantees).
 * A model with 0 bones gives a valid skeleton of 0 bones. */
ossa_status ossa_rt_skeleton_create(const ossa_model *model, ossa_rt_skeleton **out,
                                    ossa_error *err);
void ossa_rt_skeleton_free(ossa_rt_skeleton *skel);
uint32_t ossa_rt_skeleton_bone_count(const ossa_rt_skeleton *skel);
/* Writes the rest pose into every entry of pose (pose->bone_count must equal the skeleton's). */
void ossa_rt_skeleton_rest(const ossa_rt_skeleton *skel, ossa_soa_pose *pose);

/* ---------------------------------------------------------------------------------------------
 * Runtime clip and sampling */

typedef struct ossa_rt_clip ossa_rt_clip;

/* Built once from clip (which must belong to model, or at least use its bone indices). Tracks
 * whose bone is outside the skeleton are dropped, as ossa_sample_clip skips them. The Cal3D
 * loop key (OSSA_TIME_LOOP) is stored alongside, so the clip is never mutated. */
ossa_status ossa_rt_clip_create(const ossa_model *model, const ossa_clip *clip,
                                ossa_rt_clip **out, ossa_error *err);
void ossa_rt_clip_free(ossa_rt_clip *clip);
float ossa_rt_clip_duration(const ossa_rt_clip *clip);
uint32_t ossa_rt_clip_track_count(const ossa_rt_clip *clip);
/* Bone a track animates (tracks are in the clip's order). */
uint32_t ossa_rt_clip_track_bone(const ossa_rt_clip *clip, uint32_t track);

typedef struct ossa_sample_cache ossa_sample_cache;

/* A cache for clips of up to max_tracks tracks. It remembers which clip it last served: used
 * with another clip it resets itself. */
ossa_status ossa_sample_cache_create(uint32_t max_tracks, ossa_sample_cache **out,
                                     ossa_error *err);
void ossa_sample_cache_free(ossa_sample_cache *cache);
/* Forgets every cursor (the next sample binary-searches). Never needed for correctness. */
void ossa_sample_cache_reset(ossa_sample_cache *cache);

typedef enum ossa_rot_interp {
    OSSA_ROT_SLERP = 0,  /* Cal3D's CalQuaternion::blend: shortest-path slerp, not renormalised */
    OSSA_ROT_NLERP       /* shortest-path lerp, renormalised: cheaper, differs mid-segment */
} ossa_rot_interp;

typedef struct ossa_sample_job {
    const ossa_rt_clip *clip;
    ossa_sample_cache *cache;  /* may be NULL: every track binary-searches */
    float time;                /* clip time in seconds (see ossa_playback_time) */
    ossa_time_mode time_mode;  /* OSSA_TIME_EXTRAPOLATE (Cal3D, default), _CLAMP, _LOOP */
    ossa_rot_interp rot;
    ossa_soa_pose *output;     /* animated bones are written, others keep their values */
} ossa_sample_job;

/* Nonzero when every pointer is set, the cache holds enough tracks, the output has at least
 * every animated bone, and the enums are in range. */
int ossa_sample_job_validate(const ossa_sample_job *job);
/* Samples every track. With OSSA_ROT_SLERP the result equals ossa_sample_clip's, bit for bit,
 * for the same time and mode. Returns 0 (nothing written) when the job is invalid. */
int ossa_sample_job_run(const ossa_sample_job *job);

/* Playback wrap modes: how a time since the start of playback maps to clip time. */
typedef enum ossa_wrap_mode {
    OSSA_WRAP_LOOP = 0,    /* fmod into [0, duration), negatives wrapped up (Cal3D's mixer) */
    OSSA_WRAP_PINGPONG,    /* forward over [0, duration], then backwards, period 2 x duration */
    OSSA_WRAP_ONCE         /* clamped to [0, duration] */
} ossa_wrap_mode;

/* Clip time for a playback time; 0 for a non-finite time or a duration <= 0. */
float ossa_playback_time(float duration, float time, ossa_wrap_mode wrap);

/* ---------------------------------------------------------------------------------------------
 * Local to model, palette */

typedef struct ossa_ltm_job {
    const ossa_rt_skeleton *skeleton;
    const ossa_soa_pose *local;  /* bone_count == the skeleton's */
    ossa_soa_pose *model;        /* written: model-space TRS (same composition as
                                    ossa_local_to_model); may not alias local */
} ossa_ltm_job;

int ossa_ltm_job_validate(const ossa_ltm_job *job);
int ossa_ltm_job_run(const ossa_ltm_job *job);

typedef struct ossa_palette_job {
    const ossa_rt_skeleton *skeleton;
    const ossa_soa_pose *model;  /* model-space pose, from ossa_ltm_job */
    float *palette;              /* 12 floats a bone, 3x4 row-major, as ossa_skin_palette */
    size_t palette_floats;       /* capacity of palette in floats (>= 12 x bone count) */
} ossa_palette_job;

int ossa_palette_job_validate(const ossa_palette_job *job);
int ossa_palette_job_run(const ossa_palette_job *job);

/* ---------------------------------------------------------------------------------------------
 * Mixer: Cal3D's CalMixer (0.11) semantics.
 *
 * Animation ids: 0 .. clip_count - 1 are the model's clips; clip_count .. clip_count +
 * morph_clip_count - 1 are its morph clips (ossa_mixer_morph_id), mixed by the same rules into
 * per-morph-target weights.
 *
 * - blend_cycle(id, weight, delay): starts the clip as a looping, synchronised cycle (or
 *   retargets it), fading its weight towards weight over delay seconds. The first blend of a
 *   clip plays it with the Cal3D loop key (OSSA_TIME_LOOP), as 0.11 appends it.
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
    ossa_time_mode time_mode;  /* for actions; cycles always use OSSA_TIME_LOOP. Default
                                  OSSA_TIME_EXTRAPOLATE, as Cal3D */
} ossa_mixer_desc;

/* desc may be NULL (defaults). Builds a runtime clip for every clip of the model. */
ossa_status ossa_mixer_create(const ossa_model *model, const ossa_mixer_desc *desc,
                              ossa_mixer **out, ossa_error *err);
void ossa_mixer_free(ossa_mixer *mixer);
const ossa_rt_skeleton *ossa_mixer_skeleton(const ossa_mixer *mixer);
uint32_t ossa_mixer_morph_id(const ossa_mixer *mixer, uint32_t morph_clip);

/* Each returns 1 on success, 0 when the id is out of range, a value is not finite, or the fixed
 * capacity is full (where Cal3D would allocate). A clip may run as a cycle and as actions at
 * once, as in Cal3D. clear_cycle of an inactive id and blend_cycle(id, 0, ...) of an inactive
 * id succeed and do nothing. */
int ossa_mixer_blend_cycle(ossa_mixer *mixer, uint32_t id, float weight, float delay);
int ossa_mixer_clear_cycle(ossa_mixer *mixer, uint32_t id, float delay);
int ossa_mixer_execute_action(ossa_mixer *mixer, uint32_t id, float delay_in, float delay_out,
                              float weight_target, int auto_lock);
/* Removes the newest running action of id at once (no fade), as CalMixer::removeAction; 0 when
 * none runs. */
int ossa_mixer_remove_action(ossa_mixer *mixer, uint32_t id);

void ossa_mixer_update(ossa_mixer *mixer, float dt);

float ossa_mixer_time(const ossa_mixer *mixer);      /* Cal3D getAnimationTime */
float ossa_mixer_duration(const ossa_mixer *mixer);  /* weighted duration of sync cycles */
void ossa_mixer_set_time(ossa_mixer *mixer, float time);
void ossa_mixer_set_time_factor(ossa_mixer *mixer, float factor);

/* Current weight of an active cycle or action (the newest action of id); -1 when inactive. */
float ossa_mixer_weight(const ossa_mixer *mixer, uint32_t id);
uint32_t ossa_mixer_active_count(const ossa_mixer *mixer);

/* The blended local pose into pose (bone_count == the model's). Returns 0 when pose does not
 * fit. */
int ossa_mixer_evaluate(ossa_mixer *mixer, ossa_soa_pose *pose);

/* Morph weights of one submesh: out[k] for submesh morph target k (submesh->morph_count
 * entries), matched by name with the morph clips' tracks; 0 where nothing plays. Returns 0 for
 * an out-of-range mesh/submesh. */
int ossa_mixer_morph_weights(ossa_mixer *mixer, uint32_t mesh, uint32_t submesh, float *out);

#ifdef __cplusplus
}
#endif
#endif
