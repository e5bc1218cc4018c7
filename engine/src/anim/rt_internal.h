/* Layouts behind the opaque runtime types of ossa/pose.h, shared by the files of this folder. */
#ifndef OSSA_ANIM_RT_INTERNAL_H
#define OSSA_ANIM_RT_INTERNAL_H

#include "ossa/sample.h"
#include "ossa/pose.h"
#include "ossa/mixer.h"

enum { OSSA_RT_MAX_SOA_BONES = 1u << 16 };

/* Skeleton: parents plus rest pose and inverse bind in SoA, padded like ossa_soa_pose. */
struct ossa_rt_skeleton {
    uint32_t bone_count;
    uint32_t capacity;
    int32_t *parent;          /* capacity entries; -1 for roots and padding */
    ossa_soa_pose rest;
    float *ib_tx, *ib_ty, *ib_tz;          /* inverse bind translation */
    float *ib_qx, *ib_qy, *ib_qz, *ib_qw;  /* inverse bind rotation */
    void *block;
};

typedef struct ossa_rt_track {
    uint32_t bone;
    uint32_t key_count;   /* keys of the clip, >= 1 */
    uint32_t first;       /* index of the track's first key time in times */
    uint32_t pair_first;  /* index of the track's first key pair in pairs */
    uint32_t scale_first; /* index into scales, UINT32_MAX when the track has none */
    uint32_t same_times;  /* nonzero: the same key times as the track before (exporters often
                             key every bone at the same frames): its key search is reused */
} ossa_rt_track;

/* One key pair (key j, key j + 1) of a track, one 64-byte line, laid out as four groups of four
 * floats so that four pairs transpose into SoA vectors:
 *   ta.x ta.y ta.z theta | qa.x qa.y qa.z qa.w | tb.x tb.y tb.z inv_sin | qb.x qb.y qb.z qb.w
 * qb is negated when the pair's dot product is negative (Cal3D's shorter arc), theta and
 * inv_sin are ossa_slerp_setup's: no acos or division per frame. Key j alone is the first half. */
enum { OSSA_RT_PAIR_FLOATS = 16, OSSA_RT_LANES = 4 };

/* Per track: key_count key times and then the Cal3D loop key's (the duration); key_count pairs,
 * the last one from the last key to the loop key (the first key again). */
struct ossa_rt_clip {
    float duration;
    uint32_t track_count;
    uint32_t bone_limit;   /* highest animated bone + 1 */
    int loop_key;          /* OSSA_WRAP_LOOP appends the loop key (first track ends early) */
    int unique_bones;      /* no two tracks animate the same bone */
    int all_bones;         /* every bone of the model is animated */
    int has_scales;        /* some track has scale keys */
    int uniform;           /* every track has the first one's key times (same_times), so one
                              key search serves all and track i's pairs start at i x keys */
    ossa_rt_track *tracks;
    float *times;          /* key_count + 1 per track */
    float *pairs;          /* OSSA_RT_PAIR_FLOATS per pair, 64-byte aligned */
    float *scales;         /* 3 floats per key for tracks with scales */
    /* Uniform clips without scales: the pair records again, lane-major, so that the eight-lane
     * sampler loads each field of eight tracks as one vector (no transposes). Pair index a
     * (of every track) holds OSSA_RT_PAIR_FLOATS rows of lane_stride floats (track_count
     * rounded up to 8); row k, column i is float k of track i's pair a. NULL otherwise. */
    float *lanes;
    uint32_t lane_stride;
    /* Per group of OSSA_RT_LANES tracks: the first track's bone when the group animates that
     * bone and the next ones in order (SoA stores as vectors), otherwise UINT32_MAX. */
    uint32_t *group_bone;
};

struct ossa_sample_cache {
    const ossa_rt_clip *clip; /* clip the cursors belong to */
    uint32_t capacity;
    uint32_t *cursor;         /* capacity entries: pair index of the last sample, right after
                                 the struct in its one allocation */
};

/* Bytes of a sample cache of max_tracks tracks, its cursors (and one spare) included. */
static inline size_t ossa_sample_cache_bytes(uint32_t max_tracks)
{
    return sizeof(struct ossa_sample_cache) + ((size_t)max_tracks + 1) * sizeof(uint32_t);
}

/* pose_jobs.c: whether pose p fits skeleton sk (arrays, bone count and capacity), and why not
 * (NULL when it does; the text may be written into buf), for the jobs' checks and messages. */
int ossa_rt_pose_fits(const ossa_soa_pose *p, const ossa_rt_skeleton *sk);
const char *ossa_rt_pose_misfit(const ossa_soa_pose *p, const ossa_rt_skeleton *sk, char *buf,
                                size_t size);

#endif
