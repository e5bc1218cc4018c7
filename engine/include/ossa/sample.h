/* Sampling clips at run time: a clip laid out once for fast sampling, a per-instance cursor cache
 * and the sample job over a caller-owned SoA pose (ossa/pose.h), plus the time modes shared by
 * every stage.
 *
 *   ossa_rt_clip      one ossa_clip laid out for fast sampling (per track: times, keys)
 *   ossa_sample_cache one cursor per track, per playing instance: forward playback is O(1) per
 *                     track and frame, a seek or a backwards jump falls back to a binary search
 *
 * Sampling is the same code as the scalar reference path (ossa/reference.h). An ossa_rt_clip is
 * read-only after creation and may be shared. */
#ifndef OSSA_SAMPLE_H
#define OSSA_SAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include "ossa/model.h"
#include "ossa/pose.h"
#include "ossa/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a time outside a clip's keys or its duration is treated: one enum for sampling (the sample
 * job, ossa_sample_clip, the mixer's actions, vertex tracks) and for playback clocks
 * (ossa_playback_time). Zero is Cal3D's default. */
typedef enum ossa_wrap {
    /* Sampling: Cal3D; outside the keys, continue along the first/last pair (vertex tracks hold
     * the first/last key: shapes are never extrapolated). Playback: the time as it is. */
    OSSA_WRAP_EXTRAPOLATE = 0,
    /* Sampling: hold the first/last key. Playback: clamped to [0, duration] (plays once). */
    OSSA_WRAP_CLAMP,
    /* Sampling: as a Cal3D cycle (CalMixer::blendCycle): when the clip's first track ends before
     * the duration, every track continues from its last key to a copy of its first key at
     * t = duration; before the first key it extrapolates as OSSA_WRAP_EXTRAPOLATE. Playback:
     * fmod into [0, duration), negatives wrapped up (Cal3D's mixer). */
    OSSA_WRAP_LOOP,
    /* Playback: forward over [0, duration], then backwards, period 2 x duration. Sampling: as
     * OSSA_WRAP_CLAMP (the time already lies in [0, duration]); the mixer does not take it. */
    OSSA_WRAP_PINGPONG
} ossa_wrap;

/* Time in [0, duration) as a looping cycle plays it (Cal3D's mixer wraps with fmod). */
OSSA_API float ossa_clip_wrap_time(const ossa_clip *clip, float time);

/* ---------------------------------------------------------------------------------------------
 * Runtime clip and sampling */

typedef struct ossa_rt_clip ossa_rt_clip;

/* Built once from clip (which must belong to model, or at least use its bone indices). Tracks
 * whose bone is outside the skeleton are dropped, as ossa_sample_clip skips them. The Cal3D
 * loop key (OSSA_WRAP_LOOP) is stored alongside, so the clip is never mutated. */
OSSA_API ossa_status ossa_rt_clip_create(const ossa_model *model, const ossa_clip *clip,
                                         ossa_rt_clip **out, ossa_error *err);
OSSA_API void ossa_rt_clip_destroy(ossa_rt_clip *clip);
OSSA_API float ossa_rt_clip_duration(const ossa_rt_clip *clip);
OSSA_API uint32_t ossa_rt_clip_track_count(const ossa_rt_clip *clip);
/* Bone a track animates (tracks are in the clip's order). */
OSSA_API uint32_t ossa_rt_clip_track_bone(const ossa_rt_clip *clip, uint32_t track);

typedef struct ossa_sample_cache ossa_sample_cache;

#define OSSA_SAMPLE_CACHE_MAX_TRACKS (1u << 24)

/* A cache for clips of up to max_tracks tracks (at most OSSA_SAMPLE_CACHE_MAX_TRACKS, else
 * OSSA_ERR_INVALID_ARGUMENT). It remembers which clip it last served: used with another clip it
 * resets itself. */
OSSA_API ossa_status ossa_sample_cache_create(uint32_t max_tracks, ossa_sample_cache **out,
                                              ossa_error *err);
OSSA_API void ossa_sample_cache_destroy(ossa_sample_cache *cache);
/* Forgets every cursor (the next sample binary-searches). Never needed for correctness. */
OSSA_API void ossa_sample_cache_reset(ossa_sample_cache *cache);

typedef enum ossa_rot_interp {
    OSSA_ROT_SLERP = 0,  /* Cal3D's CalQuaternion::blend: shortest-path slerp, not renormalised */
    OSSA_ROT_NLERP       /* shortest-path lerp, renormalised: cheaper, differs mid-segment */
} ossa_rot_interp;

typedef struct ossa_sample_job {
    const ossa_rt_clip *clip;
    ossa_sample_cache *cache;  /* may be NULL: every track binary-searches */
    float time;                /* clip time in seconds (see ossa_playback_time) */
    ossa_wrap wrap;            /* OSSA_WRAP_EXTRAPOLATE (Cal3D, default), _CLAMP, _LOOP */
    ossa_rot_interp rot;
    ossa_soa_pose *output;     /* animated bones are written, others keep their values */
} ossa_sample_job;

/* OSSA_OK when every pointer is set, the cache holds enough tracks, the output has at least
 * every animated bone, and the enums are in range; else OSSA_ERR_INVALID_ARGUMENT, err saying
 * which. */
OSSA_API ossa_status ossa_sample_job_validate(const ossa_sample_job *job, ossa_error *err);
/* Samples every track. With OSSA_ROT_SLERP the result equals ossa_sample_clip's, bit for bit,
 * for the same time and mode. OSSA_ERR_INVALID_ARGUMENT (nothing written) when the job is
 * invalid. */
OSSA_API ossa_status ossa_sample_job_run(const ossa_sample_job *job, ossa_error *err);


/* Clip time for a playback time under wrap (see ossa_wrap); 0 for a non-finite time or a
 * duration <= 0. */
OSSA_API float ossa_playback_time(float duration, float time, ossa_wrap wrap);

#ifdef __cplusplus
}
#endif
#endif
