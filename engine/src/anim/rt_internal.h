/* Layouts behind the opaque runtime types of ossa/runtime.h, shared by the files of this folder. */
#ifndef OSSA_ANIM_RT_INTERNAL_H
#define OSSA_ANIM_RT_INTERNAL_H

#include "ossa/runtime.h"

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
    uint32_t first;       /* index of the track's first key in times / keys */
    uint32_t scale_first; /* index into scales, UINT32_MAX when the track has none */
} ossa_rt_track;

/* Per track: key_count keys and then the Cal3D loop key (the first key again at t = duration),
 * stored contiguously so a key pair is one or two cache lines. */
struct ossa_rt_clip {
    float duration;
    uint32_t track_count;
    uint32_t bone_limit;   /* highest animated bone + 1 */
    int loop_key;          /* OSSA_TIME_LOOP appends the loop key (first track ends early) */
    ossa_rt_track *tracks;
    float *times;          /* key_count + 1 per track */
    float *keys;           /* 7 floats per key: tx ty tz qx qy qz qw */
    float *scales;         /* 3 floats per key for tracks with scales */
};

struct ossa_sample_cache {
    const ossa_rt_clip *clip; /* clip the cursors belong to */
    uint32_t capacity;
    uint32_t *cursor;         /* capacity entries: pair index of the last sample */
};

#endif
