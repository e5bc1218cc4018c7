/* Character instance, the clock way (instance.h): the instance plays by its own clip clock
 * (ossa/clock.h) as ossa-view plays a model. A tick advances the clock and shows it: the clip's
 * pose at the clock's time, or during a cross-fade the skeletal mixer's blend of the clip
 * fading out (running on at its own pace, an asynchronous cycle) and the clock's clip (the
 * synchronised cycle, its time the clock's); the morph clips follow the clock's time (or, in a
 * model without skeletal clips, a morph clock moved by dt x speed while playing); the clip of
 * larger weight plays its vertex frames; the cloth steps by the playback time that passed (dt x
 * |speed|, none while paused), after going to rest where the pose skins it when time jumped. */
#include <math.h>
#include <string.h>

#include "instance/instance_state.h"

ossa_clock *ossa_instance_clock(ossa_instance *inst)
{
    return &inst->play;
}

void ossa_instance_jumped(ossa_instance *inst)
{
    inst->jumped = true;
}

static bool can_fade(const ossa_instance *inst)
{
    return inst->mixer && inst->model->clip_count && inst->model->bone_count;
}

/* Drops every cycle at once, so a new fade starts from a mixer holding nothing. */
static void clear_all(ossa_instance *inst)
{
    for (uint32_t id = 0; id < inst->model->clip_count; id++)
        if (ossa_mixer_is_active(inst->mixer, id))
            ossa_mixer_clear_cycle(inst->mixer, id, 0.0f, NULL);
    ossa_mixer_update(inst->mixer, 0.0f);
}

void ossa_instance_seek_clock(ossa_instance *inst, uint32_t clip, float time)
{
    ossa_clock_set_clip(&inst->play, clip);
    ossa_clock_seek(&inst->play, time);
    inst->morph_clock = isfinite(time) ? time : 0.0f;
    inst->fading = false;
    inst->jumped = true;
}

/* The fade from `from` at from_time to `to`: from alone first (unless a fade runs already, which
 * then goes on from its blend), then from cleared and to blended in over seconds. */
static bool fade_start(ossa_instance *inst, uint32_t from, float from_time, uint32_t to,
                       float seconds)
{
    ossa_mixer *mx = inst->mixer;
    if (!inst->fading) {
        /* The only synchronised cycle: the mixer's time is that clip's time. */
        clear_all(inst);
        if (ossa_mixer_blend_cycle(mx, from, 1.0f, 0.0f, NULL) != OSSA_OK)
            return false;
        ossa_mixer_update(mx, 0.0f);
        ossa_mixer_set_time(mx, from_time);
    }
    if (ossa_mixer_clear_cycle(mx, from, seconds, NULL) != OSSA_OK ||
        ossa_mixer_blend_cycle(mx, to, 1.0f, seconds, NULL) != OSSA_OK)
        return false;
    ossa_mixer_set_time(mx, 0.0f);
    return true;
}

ossa_status ossa_instance_switch_clip(ossa_instance *inst, uint32_t to, float fade_seconds,
                                      ossa_error *err)
{
    ossa_clock *c = &inst->play;
    if (to >= c->clip_count)
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, "clip out of range");
    if (!isfinite(fade_seconds) || fade_seconds < 0.0f)
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                         "fade time negative or not finite");
    if (to == c->clip)
        return OSSA_OK;
    inst->fade_from = c->clip;
    inst->fade_from_time = c->time;
    inst->jumped = true;
    inst->fading = fade_seconds > 0.0f && can_fade(inst) &&
                   fade_start(inst, c->clip, c->time, to, fade_seconds);
    ossa_clock_set_clip(c, to);
    return OSSA_OK;
}

bool ossa_instance_fading(const ossa_instance *inst, uint32_t *from)
{
    if (from)
        *from = inst->fading ? inst->fade_from : OSSA_INSTANCE_NO_CLIP;
    return inst->fading;
}

/* The fade moved on by dt and evaluated; false once it is over (the clock's clip alone). */
static bool fade_show(ossa_instance *inst, float dt)
{
    ossa_mixer *mx = inst->mixer;
    const ossa_clock *c = &inst->play;
    ossa_mixer_update(mx, dt);
    ossa_mixer_set_time(mx, c->time);
    if (ossa_mixer_active_count(mx) <= 1 && ossa_mixer_weight(mx, c->clip) >= 1.0f)
        return false;
    if (ossa_mixer_evaluate(mx, &inst->local, NULL) != OSSA_OK)
        return false;
    ossa_instance_pose_local(inst, &inst->local);
    /* Vertex frames do not blend: the clip of larger weight shows its shapes, the one fading
     * out at its own pace. */
    inst->fade_from_time += dt;
    bool old_wins = inst->fade_from < inst->model->clip_count &&
                    ossa_mixer_weight(mx, inst->fade_from) > ossa_mixer_weight(mx, c->clip);
    ossa_instance_set_vertex_clip(inst, old_wins ? inst->fade_from : c->clip,
                                  old_wins ? inst->fade_from_time : c->time);
    return true;
}

/* The pose, morphs and vertex frames of the clock now, a fade moved on by dt. */
static void show(ossa_instance *inst, float dt)
{
    const ossa_clock *c = &inst->play;
    ossa_instance_set_morph_time(inst, c->clip_count ? c->time : inst->morph_clock);
    if (inst->fading && (inst->fading = fade_show(inst, dt)))
        return;
    /* The pose wraps times into [0, duration): the end of a clip played once is shown just
     * before it rather than as its start. */
    float t = c->duration > 0.0f && c->time >= c->duration ? nextafterf(c->duration, 0.0f)
                                                           : c->time;
    ossa_instance_pose_clip(inst, c->clip_count ? c->clip : OSSA_INSTANCE_NO_CLIP, t);
}

void ossa_instance_show(ossa_instance *inst)
{
    show(inst, 0.0f);
}

/* ossa_instance_tick but its spring step, which it returns: the playback time that passed. */
static float tick_clock(ossa_instance *inst, float dt)
{
    ossa_clock *c = &inst->play;
    bool moves = isfinite(dt) && dt > 0.0f;
    ossa_clock_advance(c, dt);
    float played = c->playing && moves ? dt * fabsf(c->speed) : 0.0f;
    if (!c->clip_count && c->playing && isfinite(dt))
        inst->morph_clock += dt * c->speed;
    show(inst, moves ? dt : 0.0f);
    if (inst->jumped)
        ossa_instance_springs_reset(inst);
    inst->jumped = false;
    return played;
}

void ossa_instance_tick(ossa_instance *inst, float dt)
{
    ossa_instance_springs_step(inst, tick_clock(inst, dt));
}

/* Instances ticked at a time: a few spring lane groups, their steps on the stack. */
#define TICK_BATCH 64u

typedef struct tick_batch {
    ossa_instance *const *insts;
    uint32_t at;                /* where the next instance ticked is in insts */
    float dt;
    float played[TICK_BATCH];
} tick_batch;

static void tick_step(ossa_instance *inst, void *ctx)
{
    tick_batch *b = ctx;
    while (b->insts[b->at] != inst) /* past NULL entries, which are not ticked */
        b->at++;
    b->played[b->at++] = tick_clock(inst, b->dt);
}

void ossa_instance_tick_many(ossa_instance *const *insts, uint32_t count, float dt)
{
    if (!insts)
        return;
    for (uint32_t first = 0; first < count; first += TICK_BATCH) {
        uint32_t n = count - first < TICK_BATCH ? count - first : TICK_BATCH;
        tick_batch b = {.insts = insts + first, .dt = dt};
        memset(b.played, 0, sizeof b.played);
        ossa_instance_each_ahead(insts + first, n, tick_step, &b);
        ossa_instance_springs_step_many(insts + first, n, b.played, 0.0f);
    }
}
