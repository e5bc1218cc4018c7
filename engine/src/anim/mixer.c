/* Cal3D's CalMixer (0.11) over the runtime clips: cycles and actions are fixed-capacity arrays
 * kept newest first (Cal3D's push_front lists), the bone blending is CalBone's
 * blendState / lockState / calculateState per bone over SoA arrays. docs/FORMATS.md, Mixer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/error.h"
#include "ossa/limits.h"
#include "mixer_internal.h"
#include "rt_internal.h"

static ossa_status mix_fail(ossa_error *err, ossa_status st, const char *msg)
{
    if (err) {
        err->status = st;
        err->offset = -1;
        err->line = 0;
        snprintf(err->message, sizeof err->message, "mixer: %s", msg);
    }
    return st;
}

static ossa_status alloc_slots(mix_slot **slots, uint32_t n, uint32_t max_tracks)
{
    *slots = calloc(n, sizeof **slots);
    if (!*slots)
        return OSSA_ERR_NOMEM;
    for (uint32_t i = 0; i < n; i++)
        if (ossa_sample_cache_create(max_tracks, &(*slots)[i].cache, NULL) != OSSA_OK)
            return OSSA_ERR_NOMEM;
    return OSSA_OK;
}

/* Both constructors: skeleton and clips built here (shared_skel NULL) or borrowed. */
static ossa_status mixer_create(const ossa_model *model, const ossa_mixer_desc *desc,
                                const ossa_rt_skeleton *shared_skel,
                                const ossa_rt_clip *const *shared_clips, ossa_mixer **out,
                                ossa_error *err)
{
    if (!out)
        return mix_fail(err, OSSA_ERR_INVALID_ARGUMENT, "no output pointer");
    *out = NULL;
    if (!model)
        return mix_fail(err, OSSA_ERR_INVALID_ARGUMENT, "no model");
    ossa_mixer_desc d = desc ? *desc : (ossa_mixer_desc){0};
    if (!d.max_cycles)
        d.max_cycles = 16;
    if (!d.max_actions)
        d.max_actions = 16;
    if (d.max_cycles > 4096 || d.max_actions > 4096 || (unsigned)d.rot > OSSA_ROT_NLERP ||
        (unsigned)d.wrap > OSSA_WRAP_LOOP)
        return mix_fail(err, OSSA_ERR_INVALID_ARGUMENT, "capacity above 4096 or bad mode");
    ossa_mixer *mx = calloc(1, sizeof *mx);
    if (!mx)
        return mix_fail(err, OSSA_ERR_NOMEM, "out of memory");
    mx->model = model;
    mx->desc = d;
    mx->time_factor = 1.0f;
    mx->clip_count = model->clip_count;
    mx->morph_clip_count = model->morph_clip_count;
    ossa_status st = OSSA_OK;
    if (shared_skel)
        mx->skel = shared_skel;
    else if ((st = ossa_rt_skeleton_create(model, &mx->own_skel, err)) == OSSA_OK)
        mx->skel = mx->own_skel;
    int reported = st != OSSA_OK; /* the runtime constructors fill err themselves */
    if (st == OSSA_OK) {
        mx->clips = calloc((size_t)model->clip_count + 1, sizeof *mx->clips);
        mx->looped = calloc((size_t)model->clip_count + 1, 1);
        st = mx->clips && mx->looped ? OSSA_OK : OSSA_ERR_NOMEM;
    }
    uint32_t max_tracks = 1;
    for (uint32_t i = 0; st == OSSA_OK && i < model->clip_count; i++) {
        if (shared_clips) {
            mx->clips[i] = shared_clips[i];
        } else {
            ossa_rt_clip *clip = NULL;
            st = ossa_rt_clip_create(model, &model->clips[i], &clip, err);
            reported = st != OSSA_OK;
            mx->clips[i] = clip;
        }
        if (st == OSSA_OK && mx->clips[i]->track_count > max_tracks)
            max_tracks = mx->clips[i]->track_count;
    }
    mx->max_tracks = max_tracks;
    if (st == OSSA_OK)
        st = alloc_slots(&mx->cycles, d.max_cycles, max_tracks);
    if (st == OSSA_OK)
        st = alloc_slots(&mx->actions, d.max_actions, max_tracks);
    if (st == OSSA_OK)
        st = ossa_soa_pose_create(model->bone_count, &mx->sample, NULL);
    if (st == OSSA_OK)
        st = ossa_soa_pose_create(model->bone_count, &mx->layer, NULL);
    if (st == OSSA_OK) {
        mx->acc_layer = calloc(mx->layer.capacity, sizeof(float));
        mx->acc = calloc(mx->layer.capacity, sizeof(float));
        st = mx->acc_layer && mx->acc ? OSSA_OK : OSSA_ERR_NOMEM;
    }
    if (st == OSSA_OK)
        st = ossa_mixer_build_morphs(mx, model);
    if (st != OSSA_OK) {
        ossa_mixer_destroy(mx);
        if (!reported)
            mix_fail(err, st, st == OSSA_ERR_NOMEM ? "out of memory" : "too many morph targets");
        return st;
    }
    mx->morph_dirty = 1;
    *out = mx;
    return OSSA_OK;
}

ossa_status ossa_mixer_create(const ossa_model *model, const ossa_mixer_desc *desc,
                              ossa_mixer **out, ossa_error *err)
{
    return mixer_create(model, desc, NULL, NULL, out, err);
}

ossa_status ossa_mixer_create_shared(const ossa_model *model, const ossa_mixer_desc *desc,
                                     const ossa_rt_skeleton *skeleton,
                                     const ossa_rt_clip *const *clips, ossa_mixer **out,
                                     ossa_error *err)
{
    if (!skeleton || (!clips && model && model->clip_count)) {
        if (out)
            *out = NULL;
        return mix_fail(err, OSSA_ERR_INVALID_ARGUMENT, "no skeleton or clips to share");
    }
    return mixer_create(model, desc, skeleton, clips, out, err);
}

void ossa_mixer_destroy(ossa_mixer *mx)
{
    if (!mx)
        return;
    for (uint32_t i = 0; mx->cycles && i < mx->desc.max_cycles; i++)
        ossa_sample_cache_destroy(mx->cycles[i].cache);
    for (uint32_t i = 0; mx->actions && i < mx->desc.max_actions; i++)
        ossa_sample_cache_destroy(mx->actions[i].cache);
    free(mx->cycles);
    free(mx->actions);
    /* Clips are owned exactly when the skeleton is (ossa_mixer_create). */
    for (uint32_t i = 0; mx->own_skel && mx->clips && i < mx->clip_count; i++)
        ossa_rt_clip_destroy((ossa_rt_clip *)mx->clips[i]);
    free((void *)mx->clips);
    free(mx->looped);
    ossa_rt_skeleton_destroy(mx->own_skel);
    ossa_soa_pose_destroy(&mx->sample);
    ossa_soa_pose_destroy(&mx->layer);
    free(mx->acc_layer);
    free(mx->acc);
    free(mx->channel_name);
    free(mx->sub_channel);
    free(mx->sub_map);
    free(mx->mesh_first);
    free(mx->track_channel);
    free(mx->track_first);
    free(mx->ch_layer);
    free(mx->ch_acc_layer);
    free(mx->ch_value);
    free(mx->ch_acc);
    free(mx);
}

const ossa_rt_skeleton *ossa_mixer_skeleton(const ossa_mixer *mx)
{
    return mx ? mx->skel : NULL;
}

/* Inserts at the front (newest first), moving the slots' caches with them. */
static mix_slot *push_front(mix_slot *slots, uint32_t *count)
{
    ossa_sample_cache *spare = slots[*count].cache;
    memmove(slots + 1, slots, (size_t)*count * sizeof *slots);
    (*count)++;
    memset(&slots[0], 0, sizeof slots[0]);
    slots[0].cache = spare;
    ossa_sample_cache_reset(spare);
    return &slots[0];
}

static void remove_at(mix_slot *slots, uint32_t *count, uint32_t i)
{
    ossa_sample_cache *c = slots[i].cache;
    memmove(slots + i, slots + i + 1, (size_t)(*count - i - 1) * sizeof *slots);
    (*count)--;
    slots[*count].cache = c;
}

static mix_slot *registered_cycle(ossa_mixer *mx, uint32_t id)
{
    for (uint32_t i = 0; i < mx->cycle_count; i++)
        if (mx->cycles[i].id == id && mx->cycles[i].registered)
            return &mx->cycles[i];
    return NULL;
}

static int mixer_blend_cycle_impl(ossa_mixer *mx, uint32_t id, float weight, float delay)
{
    if (!mx || id >= mx->clip_count + mx->morph_clip_count || !isfinite(weight) ||
        !isfinite(delay))
        return 0;
    mx->morph_dirty = 1;
    mix_slot *c = registered_cycle(mx, id);
    if (!c) {
        if (weight == 0.0f)
            return 1; /* clearing an inactive cycle */
        if (mx->cycle_count == mx->desc.max_cycles)
            return 0;
        if (id < mx->clip_count)
            mx->looped[id] = 1;
        c = push_front(mx->cycles, &mx->cycle_count);
        c->id = id;
        c->registered = 1;
        c->time_factor = 1.0f;
    } else if (weight == 0.0f) {
        c->registered = 0; /* fades out in sync; a later blend starts a new instance */
    }
    c->target_weight = weight;
    c->target_delay = delay;
    return 1;
}

static int mixer_clear_cycle_impl(ossa_mixer *mx, uint32_t id, float delay)
{
    if (!mx || id >= mx->clip_count + mx->morph_clip_count || !isfinite(delay))
        return 0;
    mx->morph_dirty = 1;
    mix_slot *c = registered_cycle(mx, id);
    if (!c)
        return 1;
    c->registered = 0;
    if (!c->async) {
        if (mx->duration == 0.0f) {
            c->time_factor = 1.0f;
            c->time = 0.0f;
        } else {
            c->time_factor = ossa_mixer_anim_duration(mx, id) / mx->duration;
            c->time = mx->time * c->time_factor;
        }
        c->async = 1;
    }
    c->target_weight = 0.0f;
    c->target_delay = delay;
    return 1;
}

static int mixer_execute_action_impl(ossa_mixer *mx, uint32_t id, float delay_in, float delay_out,
                                     float weight_target, int auto_lock)
{
    if (!mx || id >= mx->clip_count + mx->morph_clip_count || !isfinite(delay_in) ||
        !isfinite(delay_out) || !isfinite(weight_target) ||
        mx->action_count == mx->desc.max_actions)
        return 0;
    mx->morph_dirty = 1;
    mix_slot *a = push_front(mx->actions, &mx->action_count);
    a->id = id;
    a->state = ACTION_IN;
    a->time_factor = 1.0f;
    a->delay_in = delay_in;
    a->delay_out = delay_out;
    a->weight_target = weight_target;
    a->auto_lock = auto_lock != 0;
    return 1;
}

static int mixer_remove_action_impl(ossa_mixer *mx, uint32_t id)
{
    if (!mx)
        return 0;
    for (uint32_t i = 0; i < mx->action_count; i++)
        if (mx->actions[i].id == id) {
            remove_at(mx->actions, &mx->action_count, i);
            mx->morph_dirty = 1;
            return 1;
        }
    return 0;
}

/* CalAnimationAction::update; 0 when the action has ended. */
static int update_action(mix_slot *a, float duration, float dt)
{
    if (a->state != ACTION_STOPPED)
        a->time += dt * a->time_factor;
    if (a->state == ACTION_IN) {
        if (a->time < a->delay_in) {
            a->weight = a->time / a->delay_in * a->weight_target;
        } else {
            a->state = ACTION_STEADY;
            a->weight = a->weight_target;
        }
    }
    if (a->state == ACTION_STEADY) {
        if (!a->auto_lock && a->time >= duration - a->delay_out) {
            a->state = ACTION_OUT;
        } else if (a->auto_lock && a->time > duration) {
            a->state = ACTION_STOPPED;
            a->time = duration;
        }
    }
    if (a->state == ACTION_OUT) {
        if (a->time < duration) {
            a->weight = (duration - a->time) / a->delay_out * a->weight_target;
        } else {
            a->weight = 0.0f;
            return 0;
        }
    }
    return 1;
}

/* CalAnimationCycle::update; 0 when the cycle has faded out. */
static int update_cycle(mix_slot *c, float duration, float dt)
{
    if (c->target_delay <= fabsf(dt)) {
        c->weight = c->target_weight;
        c->target_delay = 0.0f;
        if (c->weight == 0.0f)
            return 0;
    } else {
        float f = dt / c->target_delay;
        c->weight = (1.0f - f) * c->weight + f * c->target_weight;
        c->target_delay -= dt;
    }
    if (c->async) {
        c->time += dt * c->time_factor;
        if (c->time >= duration)
            c->time = fmodf(c->time, duration);
    }
    return 1;
}

void ossa_mixer_update(ossa_mixer *mx, float dt)
{
    if (!mx || !isfinite(dt))
        return;
    mx->morph_dirty = 1;
    if (mx->duration == 0.0f) {
        mx->time = 0.0f;
    } else {
        mx->time += dt * mx->time_factor;
        if (mx->time >= mx->duration || mx->time < 0.0f)
            mx->time = fmodf(mx->time, mx->duration);
        if (mx->time < 0.0f)
            mx->time += mx->duration;
    }
    for (uint32_t i = 0; i < mx->action_count;) {
        if (update_action(&mx->actions[i], ossa_mixer_anim_duration(mx, mx->actions[i].id), dt))
            i++;
        else
            remove_at(mx->actions, &mx->action_count, i);
    }
    float acc_w = 0.0f, acc_d = 0.0f;
    for (uint32_t i = 0; i < mx->cycle_count;) {
        mix_slot *c = &mx->cycles[i];
        float d = ossa_mixer_anim_duration(mx, c->id);
        if (!update_cycle(c, d, dt)) {
            remove_at(mx->cycles, &mx->cycle_count, i);
            continue;
        }
        if (!c->async) {
            acc_w += c->weight;
            acc_d += c->weight * d;
        }
        i++;
    }
    mx->duration = acc_w > 0.0f ? acc_d / acc_w : 0.0f;
}

float ossa_mixer_time(const ossa_mixer *mx)
{
    return mx ? mx->time : 0.0f;
}

float ossa_mixer_duration(const ossa_mixer *mx)
{
    return mx ? mx->duration : 0.0f;
}

void ossa_mixer_set_time(ossa_mixer *mx, float time)
{
    if (mx && isfinite(time)) {
        mx->time = time;
        mx->morph_dirty = 1;
    }
}

void ossa_mixer_set_time_factor(ossa_mixer *mx, float factor)
{
    if (mx && isfinite(factor))
        mx->time_factor = factor;
}

/* The newest action of id, else its cycle; NULL when none plays. */
static const float *weight_of(const ossa_mixer *mx, uint32_t id)
{
    if (!mx)
        return NULL;
    for (uint32_t i = 0; i < mx->action_count; i++)
        if (mx->actions[i].id == id)
            return &mx->actions[i].weight;
    for (uint32_t i = 0; i < mx->cycle_count; i++)
        if (mx->cycles[i].id == id)
            return &mx->cycles[i].weight;
    return NULL;
}

float ossa_mixer_weight(const ossa_mixer *mx, uint32_t id)
{
    const float *w = weight_of(mx, id);
    return w ? *w : 0.0f;
}

bool ossa_mixer_is_active(const ossa_mixer *mx, uint32_t id)
{
    return weight_of(mx, id) != NULL;
}

uint32_t ossa_mixer_active_count(const ossa_mixer *mx)
{
    return mx ? mx->cycle_count + mx->action_count : 0;
}

/* Why a mixer call was refused, into err: called only after the implementation returned 0
 * (which it does before changing anything), so the checks mirror its own. */
static ossa_status mix_refuse(const ossa_mixer *mx, ossa_error *err, const char *call,
                              uint32_t id, const float *values, const char *const *names,
                              int value_count, int full, const char *capacity)
{
    const ossa_status bad = OSSA_ERR_INVALID_ARGUMENT;
    if (!mx)
        return ossa_error_fail(err, bad, "mixer %s: mixer is NULL", call);
    uint32_t ids = mx->clip_count + mx->morph_clip_count;
    if (id >= ids)
        return ossa_error_fail(err, bad, "mixer %s: id %u of %u animations", call, id, ids);
    for (int i = 0; i < value_count; i++)
        if (!isfinite(values[i]))
            return ossa_error_fail(err, bad, "mixer %s: %s is not finite", call, names[i]);
    if (full)
        return ossa_error_fail(err, bad, "mixer %s: all %s slots are in use", call, capacity);
    return ossa_error_fail(err, bad, "mixer %s: id %u is refused", call, id);
}

/* The public calls return a status; the implementations above keep their 1 / 0, and the error
 * record is only written on failure. */
ossa_status ossa_mixer_blend_cycle(ossa_mixer *mx, uint32_t id, float weight, float delay,
                                   ossa_error *err)
{
    if (mixer_blend_cycle_impl(mx, id, weight, delay))
        return OSSA_OK;
    const float v[2] = {weight, delay};
    static const char *const names[2] = {"weight", "delay"};
    char cap[48];
    snprintf(cap, sizeof cap, "%u cycle", mx ? mx->desc.max_cycles : 0u);
    return mix_refuse(mx, err, "blend_cycle", id, v, names, 2, 1, cap);
}

ossa_status ossa_mixer_clear_cycle(ossa_mixer *mx, uint32_t id, float delay, ossa_error *err)
{
    if (mixer_clear_cycle_impl(mx, id, delay))
        return OSSA_OK;
    static const char *const names[1] = {"delay"};
    return mix_refuse(mx, err, "clear_cycle", id, &delay, names, 1, 0, NULL);
}

ossa_status ossa_mixer_execute_action(ossa_mixer *mx, uint32_t id, float delay_in, float delay_out,
                                      float weight_target, bool auto_lock, ossa_error *err)
{
    if (mixer_execute_action_impl(mx, id, delay_in, delay_out, weight_target, auto_lock))
        return OSSA_OK;
    const float v[3] = {delay_in, delay_out, weight_target};
    static const char *const names[3] = {"delay_in", "delay_out", "weight_target"};
    char cap[48];
    snprintf(cap, sizeof cap, "%u action", mx ? mx->desc.max_actions : 0u);
    return mix_refuse(mx, err, "execute_action", id, v, names, 3, 1, cap);
}

ossa_status ossa_mixer_remove_action(ossa_mixer *mx, uint32_t id, ossa_error *err)
{
    if (mixer_remove_action_impl(mx, id))
        return OSSA_OK;
    if (!mx)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "mixer remove_action: mixer is NULL");
    return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                           "mixer remove_action: no action of id %u runs", id);
}

ossa_status ossa_mixer_evaluate(ossa_mixer *mx, ossa_soa_pose *pose, ossa_error *err)
{
    if (ossa_mixer_evaluate_pose(mx, pose))
        return OSSA_OK;
    if (!mx || !pose || !pose->block)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "mixer evaluate: %s",
                               !mx ? "mixer is NULL" : !pose ? "pose is NULL"
                               : "pose has no arrays (not created)");
    return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                           "mixer evaluate: pose has %u bones, the skeleton %u", pose->bone_count,
                           mx->skel->bone_count);
}

void ossa_mixer_state_ranges(const ossa_mixer *mx, ossa_mem_range *out, uint32_t *count,
                             uint32_t max)
{
    if (!mx)
        return;
    ossa_mem_range_add(out, count, max, mx, sizeof *mx);
    ossa_mem_range_add(out, count, max, mx->clips, (mx->clip_count + 1) * sizeof *mx->clips);
    ossa_mem_range_add(out, count, max, mx->looped, mx->clip_count + 1);
    /* a cross-fade plays two cycles; the slots stay, the cycles move through them */
    ossa_mem_range_add(out, count, max, mx->cycles, 2 * sizeof *mx->cycles);
    /* One cycle (most characters, most of the time) samples straight into the caller's pose and
     * reads only the sample pose's scales (evaluate_single_cycle); a cross-fade's blend poses are
     * not asked for. */
    ossa_mem_range_add(out, count, max, mx->sample.sx, 3 * sizeof(float) * mx->sample.capacity);
}

void ossa_mixer_prefetch_cycles(const ossa_mixer *mx)
{
    uint32_t cycles = mx ? (mx->cycle_count < 2 ? mx->cycle_count : 2) : 0;
    for (uint32_t i = 0; i < cycles; i++) /* not read: its size is known */
        ossa_prefetch_range(mx->cycles[i].cache, ossa_sample_cache_bytes(mx->max_tracks));
}
