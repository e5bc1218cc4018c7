/* The mixer's state, shared by mixer.c (cycles, actions), mixer_eval.c (bone blending) and
 * mixer_morph.c (morph channels and their weights). */
#ifndef OSSA_ANIM_MIXER_INTERNAL_H
#define OSSA_ANIM_MIXER_INTERNAL_H

#include <stdint.h>
#include "ossa/mixer.h"
#include "ossa/pose.h"
#include "ossa/sample.h"
#include "core/prefetch.h"

enum { ACTION_IN, ACTION_STEADY, ACTION_OUT, ACTION_STOPPED };

typedef struct mix_slot {
    uint32_t id;
    int registered;        /* cycle: the id's active cycle (Cal3D's m_vectorAnimation[id]) */
    int async;             /* cycle: keeps its own clock (after clearCycle) */
    int state;             /* action: ACTION_* */
    int auto_lock;
    float time, time_factor, weight;
    float target_weight, target_delay;          /* cycle fade */
    float delay_in, delay_out, weight_target;   /* action envelope */
    ossa_sample_cache *cache;
} mix_slot;

typedef struct morph_map {
    uint32_t first;        /* into ossa_mixer.sub_channel */
    uint32_t count;
} morph_map;

struct ossa_mixer {
    const ossa_model *model;
    const ossa_rt_skeleton *skel;
    ossa_rt_skeleton *own_skel;  /* NULL: skel and clips are borrowed (ossa_mixer_create_shared) */
    ossa_mixer_desc desc;
    uint32_t clip_count, morph_clip_count;
    const ossa_rt_clip **clips;
    uint8_t *looped;       /* skeletal clip blended as a cycle once: 0.11 appended its loop key */
    mix_slot *cycles, *actions;
    uint32_t cycle_count, action_count;
    uint32_t max_tracks;   /* of the clips: the size of every slot's sample cache */
    float time, duration, time_factor;
    /* Bone blending state. */
    ossa_soa_pose sample, layer;
    float *acc_layer, *acc;
    /* Morph channels: unique morph target names of the model's submeshes. */
    uint32_t channel_count;
    const char **channel_name;
    float *ch_layer, *ch_acc_layer, *ch_value, *ch_acc;
    int32_t *track_channel;  /* per morph clip track: channel, -1 when no submesh has it */
    uint32_t *track_first;   /* per morph clip: first entry in track_channel */
    uint32_t submesh_total;
    uint32_t *mesh_first;    /* per mesh: first submesh entry */
    morph_map *sub_map;
    int32_t *sub_channel;
    int morph_dirty;
};

/* For crowds that ask for a character's state ahead of its update (ossa_instance_update_many):
 * the mixer's own memory an update and evaluation of one playing cycle touch that stays where it
 * is (the mixer, its clip table, its first cycle slots, the sample pose's scales), appended to
 * out; and asking for the sample caches of the cycles playing now (they move between slots). */
void ossa_mixer_state_ranges(const ossa_mixer *mx, ossa_mem_range *out, uint32_t *count,
                             uint32_t max);
void ossa_mixer_prefetch_cycles(const ossa_mixer *mx);
/* Duration of a skeletal (id < clip_count) or morph clip id. Inline here, with the cycle time
 * below, so that mixer_eval.c and mixer_morph.c need nothing of mixer.c, which calls them. */
static inline float ossa_mixer_anim_duration(const ossa_mixer *mx, uint32_t id)
{
    return id < mx->clip_count ? mx->model->clips[id].duration
                               : mx->model->morph_clips[id - mx->clip_count].duration;
}

/* Clip time a cycle samples at (CalMixer::updateSkeleton). */
static inline float ossa_mixer_cycle_time(const ossa_mixer *mx, const mix_slot *c)
{
    if (c->async)
        return c->time;
    return mx->duration == 0.0f ? 0.0f
                                : mx->time * ossa_mixer_anim_duration(mx, c->id) / mx->duration;
}
/* mixer_eval.c: the blended pose of every active cycle and action into pose (ossa_mixer_evaluate's
 * work); 0, changing nothing, when mx or pose is missing or the bone counts differ. */
int ossa_mixer_evaluate_pose(ossa_mixer *mx, ossa_soa_pose *pose);
/* The morph channels of the model's submeshes and the map from morph clip tracks to them. */
ossa_status ossa_mixer_build_morphs(ossa_mixer *mx, const ossa_model *m);

#endif
