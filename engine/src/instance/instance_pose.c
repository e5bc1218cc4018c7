/* Character instance: its clocks (the mixer, the morph clock, the vertex clip) and the pose
 * (local -> model -> palette), the mixer way (play, update, seek) and the manual way. Building
 * it is instance.c, output instance_output.c. */
#include <math.h>
#include <string.h>

#include "anim/mixer_internal.h"
#include "core/prefetch.h"
#include "instance/instance_state.h"
#include "ossa/vertex_anim.h"
#include "skin/skin_direct.h"

void ossa_instance_pose_local(ossa_instance *inst, const ossa_soa_pose *local)
{
    const ossa_model *m = inst->model;
    inst->generation++;
    if (!m->bone_count)
        return;
    if (!local || local->bone_count != m->bone_count) {
        ossa_rt_skeleton_rest(inst->skeleton, &inst->local, NULL);
        local = &inst->local;
    }
    ossa_ltm_job ltm = {.skeleton = inst->skeleton, .local = local, .model = &inst->model_pose};
    ossa_ltm_job_run(&ltm, NULL);
    ossa_palette_job pal = {.skeleton = inst->skeleton, .model = &inst->model_pose,
                            .palette = inst->palette,
                            .palette_floats = 12 * (size_t)m->bone_count};
    ossa_palette_job_run(&pal, NULL);
    if (inst->wide_palette)
        ossa_skin_wide_fill(inst->palette, m->bone_count, inst->wide_palette);
}

void ossa_instance_pose_clip(ossa_instance *inst, uint32_t clip, float time)
{
    const ossa_model *m = inst->model;
    ossa_instance_set_vertex_clip(inst, clip, time);
    if (!m->bone_count)
        return;
    ossa_rt_skeleton_rest(inst->skeleton, &inst->local, NULL);
    if (clip < m->clip_count) {
        ossa_sample_job job = {
            .clip = inst->clips[clip],
            .cache = inst->cache,
            .time = ossa_clip_wrap_time(&m->clips[clip], time),
            .wrap = OSSA_WRAP_LOOP,
            .rot = OSSA_ROT_SLERP,
            .output = &inst->local,
        };
        ossa_sample_job_run(&job, NULL);
    }
    ossa_instance_pose_local(inst, &inst->local);
}

void ossa_instance_evaluate(ossa_instance *inst)
{
    if (!inst->model->bone_count || ossa_mixer_evaluate(inst->mixer, &inst->local, NULL) != OSSA_OK)
        ossa_instance_pose_local(inst, NULL);
    else
        ossa_instance_pose_local(inst, &inst->local);
}

void ossa_instance_set_vertex_clip(ossa_instance *inst, uint32_t clip, float time)
{
    const ossa_model *m = inst->model;
    bool known = clip < m->clip_count;
    inst->vertex_clip = known ? clip : OSSA_INSTANCE_NO_CLIP;
    inst->vertex_time = known && isfinite(time) ? ossa_clip_wrap_time(&m->clips[clip], time) : 0.0f;
    inst->generation++;
}

void ossa_instance_set_morph_time(ossa_instance *inst, float time)
{
    if (!inst->morph_mixer)
        return;
    float d = ossa_mixer_duration(inst->morph_mixer), t = 0.0f;
    if (d > 0.0f && isfinite(time)) {
        t = fmodf(time, d);
        if (t < 0.0f)
            t += d;
    }
    inst->morph_time = t;
    ossa_mixer_set_time(inst->morph_mixer, t);
    for (uint32_t i = 0; i < inst->part_count; i++) {
        inst_part *p = &inst->parts[i];
        if (p->morph_weights)
            ossa_mixer_morph_weights(inst->morph_mixer, p->info.mesh, p->info.submesh,
                                     p->morph_weights, p->info.source->morph_count, NULL);
    }
    inst->generation++;
}

/* ---- the mixer way ---------------------------------------------------------------------- */

/* The clip of largest weight in the skeletal mixer plays its shapes, at its cycle time: the
 * mixer's clock scaled from the synchronised length to the clip's (Cal3D's cycles share one
 * normalised time); no clip plays when nothing runs. */
static void follow_mixer(ossa_instance *inst)
{
    const ossa_model *m = inst->model;
    uint32_t best = OSSA_INSTANCE_NO_CLIP;
    float best_weight = 0.0f;
    for (uint32_t c = 0; c < m->clip_count; c++) {
        float w = ossa_mixer_weight(inst->mixer, c);
        if (w > best_weight) {
            best_weight = w;
            best = c;
        }
    }
    float time = ossa_mixer_time(inst->mixer), length = ossa_mixer_duration(inst->mixer);
    if (best != OSSA_INSTANCE_NO_CLIP && length > 0.0f)
        time = time / length * m->clips[best].duration;
    ossa_instance_set_vertex_clip(inst, best, time);
    ossa_instance_set_morph_time(inst, inst->clock);
}

ossa_status ossa_instance_play(ossa_instance *inst, uint32_t clip, float fade_seconds,
                               ossa_error *err)
{
    const ossa_model *m = inst->model;
    if (clip >= m->clip_count)
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, "clip out of range");
    if (!isfinite(fade_seconds) || fade_seconds < 0.0f)
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                         "fade time negative or not finite");
    /* Start the new cycle first, so a full mixer refuses before anything fades out. */
    if (ossa_mixer_blend_cycle(inst->mixer, clip, 1.0f, fade_seconds, NULL) != OSSA_OK)
        return inst_fail(err, OSSA_ERR_UNSUPPORTED, "the mixer's cycle capacity is full");
    for (uint32_t c = 0; c < m->clip_count; c++)
        if (c != clip && ossa_mixer_is_active(inst->mixer, c))
            ossa_mixer_clear_cycle(inst->mixer, c, fade_seconds, NULL);
    return OSSA_OK;
}

/* Everything ossa_instance_update does but the spring step. */
static void advance(ossa_instance *inst, float dt)
{
    ossa_mixer_update(inst->mixer, dt);
    inst->clock += dt;
    ossa_instance_evaluate(inst);
    follow_mixer(inst);
}

void ossa_instance_update(ossa_instance *inst, float dt)
{
    if (!isfinite(dt))
        dt = 0.0f;
    advance(inst, dt);
    ossa_instance_springs_step(inst, dt);
}

/* Whether inst's state is asked for ahead of its update: only in a crowd that streams its
 * outputs (desc.store STREAM: one that outgrew the caches). A character's state is a few dozen
 * small allocations, which the hardware prefetchers do not find from one character to the next;
 * in cache the prefetches would cost 1 to 3 % (the Zen 5 VM of 2026-11-26, docs/BENCHMARKS.md). */
static bool asks_ahead(const ossa_instance *inst)
{
    return inst && inst->desc.store == OSSA_SKIN_STORE_STREAM;
}

void ossa_instance_each_ahead(ossa_instance *const *insts, uint32_t count,
                              void (*step)(ossa_instance *inst, void *ctx), void *ctx)
{
    /* Asked for in three steps so that none waits on a miss: three characters ahead the
     * instance itself (it lists its state), two ahead that list, one ahead the sample caches of
     * the cycles playing (the mixer's slots, in the list, lead to them). */
    for (uint64_t j = 0; j < (uint64_t)count + 3; j++) {
        if (j < count && insts[j]) /* whether it streams is in there too: always asked */
            ossa_prefetch_range(insts[j], sizeof *insts[j]);
        if (j >= 1 && j - 1 < count && asks_ahead(insts[j - 1]))
            for (uint32_t r = 0; r < insts[j - 1]->state_count; r++)
                ossa_prefetch_range(insts[j - 1]->state[r].p, insts[j - 1]->state[r].bytes);
        if (j >= 2 && j - 2 < count && asks_ahead(insts[j - 2]))
            ossa_mixer_prefetch_cycles(insts[j - 2]->mixer);
        if (j >= 3 && insts[j - 3])
            step(insts[j - 3], ctx);
    }
}

static void advance_step(ossa_instance *inst, void *ctx)
{
    advance(inst, *(const float *)ctx);
}

void ossa_instance_update_many(ossa_instance *const *insts, uint32_t count, float dt)
{
    if (!insts)
        return;
    if (!isfinite(dt))
        dt = 0.0f;
    ossa_instance_each_ahead(insts, count, advance_step, &dt);
    if (dt > 0.0f)
        ossa_instance_springs_step_many(insts, count, NULL, dt);
}

void ossa_instance_seek(ossa_instance *inst, float time)
{
    if (!isfinite(time))
        time = 0.0f;
    ossa_mixer_set_time(inst->mixer, time);
    inst->clock = time;
    ossa_instance_evaluate(inst);
    follow_mixer(inst);
    ossa_instance_springs_reset(inst);
}

void ossa_instance_springs_step(ossa_instance *inst, float dt)
{
    if (!isfinite(dt) || !(dt > 0.0f))
        return;
    ossa_instance_springs_run(inst, dt > inst->desc.spring_max_dt ? inst->desc.spring_max_dt : dt,
                              false);
}

/* At rest where the current pose skins the cloth (Cal3D's resetPositions), not at the bind
 * pose: a seek shows the cloth hanging from the posed mesh. */
void ossa_instance_springs_reset(ossa_instance *inst)
{
    ossa_instance_springs_run(inst, 0.0f, true);
}
