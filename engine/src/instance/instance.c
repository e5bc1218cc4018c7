/* Character instance: building it from a model, its clocks (mixer, morphs, vertex clip) and
 * pose evaluation (local -> model -> palette). Output (skinning, springs, frames, mounts) is in
 * instance_output.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "instance/instance_internal.h"
#include "ossa/vertex_anim.h"

enum { DEFAULT_PARALLEL_MIN_VERTICES = 16384, MORPH_CYCLES_MAX = 4096 };

static ossa_status inst_fail(ossa_error *err, ossa_status st, const char *msg)
{
    if (err) {
        ossa_error_clear(err);
        err->status = st;
        snprintf(err->message, sizeof err->message, "instance: %s", msg);
    }
    return st;
}

/* One part per submesh, each with its skin mesh when the model has bones (a part whose streams
 * cannot be built keeps file order and the reason). Returns OSSA_ERR_NOMEM or OSSA_OK. */
static ossa_status build_parts(ossa_instance *inst)
{
    const ossa_model *m = inst->model;
    uint32_t count = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        count += m->meshes[i].submesh_count;
    inst->parts = calloc(count ? count : 1, sizeof *inst->parts);
    if (!inst->parts)
        return OSSA_ERR_NOMEM;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            inst_part *p = &inst->parts[inst->part_count++];
            ossa_instance_part *info = &p->info;
            info->mesh = i;
            info->submesh = j;
            info->source = sm;
            info->vertex_count = sm->vertex_count;
            for (uint32_t c = 0; c < m->clip_count; c++) {
                info->frame_tracked |= ossa_clip_vertex_track(&m->clips[c], i, j) != NULL;
                info->uv_tracked |= ossa_clip_uv_track(&m->clips[c], i, j) != NULL;
            }
            if (m->bone_count && sm->vertex_count) {
                if (m->bone_count > OSSA_SKIN_MAX_PALETTE)
                    info->skin_status = OSSA_ERR_RANGE;
                else
                    info->skin_status = ossa_skin_mesh_create(sm, m->bone_count, &p->skin, NULL);
                if (info->skin_status == OSSA_ERR_NOMEM)
                    return OSSA_ERR_NOMEM;
                if (info->skin_status != OSSA_OK)
                    p->skin = NULL;
            }
            info->skin = p->skin;
            if (p->skin) {
                info->output_count = ossa_skin_mesh_output_count(p->skin);
                info->index_count = 3 * ossa_skin_mesh_face_count(p->skin);
                info->indices = ossa_skin_mesh_indices(p->skin);
                info->output_source = ossa_skin_mesh_source(p->skin);
            } else {
                info->output_count = sm->vertex_count;
                info->index_count = 3 * sm->face_count;
                info->indices = sm->indices;
            }
        }
    return OSSA_OK;
}

/* Runtime skeleton, clips, cache, poses, palette and the skeletal mixer. */
static ossa_status build_pose(ossa_instance *inst, ossa_error *err)
{
    const ossa_model *m = inst->model;
    size_t bones = m->bone_count ? m->bone_count : 1;
    inst->palette = calloc(12 * bones, sizeof(float));
    inst->clips = calloc(m->clip_count ? m->clip_count : 1, sizeof *inst->clips);
    if (!inst->palette || !inst->clips)
        return inst_fail(err, OSSA_ERR_NOMEM, "out of memory");
    ossa_status st = ossa_rt_skeleton_create(m, &inst->skeleton, err);
    if (st != OSSA_OK)
        return st;
    if (ossa_soa_pose_create(m->bone_count, &inst->local, NULL) != OSSA_OK ||
        ossa_soa_pose_create(m->bone_count, &inst->model_pose, NULL) != OSSA_OK)
        return inst_fail(err, OSSA_ERR_NOMEM, "out of memory for the poses");
    uint32_t max_tracks = 1;
    for (uint32_t c = 0; c < m->clip_count; c++) {
        st = ossa_rt_clip_create(m, &m->clips[c], &inst->clips[c], err);
        if (st != OSSA_OK)
            return st;
        uint32_t tracks = ossa_rt_clip_track_count(inst->clips[c]);
        if (tracks > max_tracks)
            max_tracks = tracks;
    }
    st = ossa_sample_cache_create(max_tracks, &inst->cache, err);
    if (st != OSSA_OK)
        return st;
    return ossa_mixer_create(m, &inst->desc.mixer, &inst->mixer, err);
}

/* Spring states and morph weights for the parts that need them, and the morph mixer with every
 * morph clip as a looping cycle of weight 1 (Cal3D's blendCycle: synchronised, so several morph
 * clips share their mean length). What cannot run is left out; only OSSA_ERR_NOMEM fails. */
static ossa_status build_morphs_springs(ossa_instance *inst)
{
    const ossa_model *m = inst->model;
    bool morphs = false;
    for (uint32_t i = 0; i < inst->part_count; i++) {
        inst_part *p = &inst->parts[i];
        if (!p->skin)
            continue;
        morphs |= p->info.source->morph_count > 0;
        if (!p->info.source->spring_count || !p->info.source->physique_weights)
            continue;
        ossa_status st = ossa_spring_state_create(p->skin, &p->spring, NULL);
        if (st == OSSA_ERR_NOMEM)
            return st;
        if (st != OSSA_OK) {
            p->spring = NULL;
            continue;
        }
        size_t n = p->info.output_count ? p->info.output_count : 1;
        p->spring_positions = calloc(3 * n, sizeof(float));
        if (!p->spring_positions)
            return OSSA_ERR_NOMEM;
        /* Until the first step the cloth shows where its state starts: the bind vertices. */
        const uint32_t *source = p->info.output_source;
        for (uint32_t o = 0; o < p->info.output_count; o++)
            if (source[o] != OSSA_SKIN_PAD_VERTEX)
                memcpy(p->spring_positions + 3 * (size_t)o,
                       p->info.source->positions + 3 * (size_t)source[o], 3 * sizeof(float));
        p->info.spring = p->spring;
        p->info.spring_positions = p->spring_positions;
    }
    if (!morphs || !m->morph_clip_count || !m->bone_count)
        return OSSA_OK;
    ossa_mixer_desc desc = {
        .max_cycles = m->morph_clip_count < MORPH_CYCLES_MAX ? m->morph_clip_count
                                                             : MORPH_CYCLES_MAX,
        .max_actions = 1,
    };
    ossa_status st = ossa_mixer_create(m, &desc, &inst->morph_mixer, NULL);
    if (st != OSSA_OK) {
        inst->morph_mixer = NULL;
        return st == OSSA_ERR_NOMEM ? st : OSSA_OK;
    }
    /* Past the mixer's capacity the later morph clips do not play. */
    for (uint32_t c = 0; c < m->morph_clip_count; c++)
        if (ossa_mixer_blend_cycle(inst->morph_mixer, ossa_mixer_morph_id(inst->morph_mixer, c),
                                   1.0f, 0.0f) != OSSA_OK)
            break;
    ossa_mixer_update(inst->morph_mixer, 0.0f); /* weights reach their targets (no delay) */
    for (uint32_t i = 0; i < inst->part_count; i++) {
        inst_part *p = &inst->parts[i];
        if (!p->skin || !p->info.source->morph_count)
            continue;
        p->morph_weights = calloc(p->info.source->morph_count, sizeof(float));
        if (!p->morph_weights)
            return OSSA_ERR_NOMEM;
        p->info.morph_weights = p->morph_weights;
    }
    return OSSA_OK;
}

/* File-order scratch for the largest submesh, output-order scratch for the largest part. */
static ossa_status build_scratch(ossa_instance *inst)
{
    size_t file = 1, out = 1;
    for (uint32_t i = 0; i < inst->part_count; i++) {
        const ossa_instance_part *p = &inst->parts[i].info;
        if (p->vertex_count > file)
            file = p->vertex_count;
        if (p->output_count > out)
            out = p->output_count;
    }
    inst->file_positions = calloc(3 * file, sizeof(float));
    inst->file_normals = calloc(3 * file, sizeof(float));
    inst->file_uvs = calloc(2 * file, sizeof(float));
    inst->out_positions = ossa_skin_buffer_alloc(3 * out * sizeof(float));
    inst->out_normals = ossa_skin_buffer_alloc(3 * out * sizeof(float));
    return inst->file_positions && inst->file_normals && inst->file_uvs && inst->out_positions &&
                   inst->out_normals
               ? OSSA_OK
               : OSSA_ERR_NOMEM;
}

ossa_status ossa_instance_create(const ossa_model *model, const ossa_instance_desc *desc,
                                 ossa_instance **out, ossa_error *err)
{
    if (!out)
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, "no output pointer");
    *out = NULL;
    if (!model)
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, "no model");
    ossa_instance_desc d = desc ? *desc : (ossa_instance_desc){0};
    if ((unsigned)d.kernel >= OSSA_SKIN_KERNEL_COUNT || !isfinite(d.spring_max_dt) ||
        d.spring_max_dt < 0.0f)
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, "bad kernel or spring step");
    if (!d.parallel_min_vertices)
        d.parallel_min_vertices = DEFAULT_PARALLEL_MIN_VERTICES;
    if (d.spring_max_dt == 0.0f)
        d.spring_max_dt = OSSA_INSTANCE_SPRING_MAX_DT;
    ossa_instance *inst = calloc(1, sizeof *inst);
    if (!inst)
        return inst_fail(err, OSSA_ERR_NOMEM, "out of memory");
    inst->model = model;
    inst->desc = d;
    inst->kernel = ossa_skin_kernel_resolve(d.kernel, NULL);
    inst->vertex_clip = OSSA_INSTANCE_NO_CLIP;
    inst->shape_part = UINT32_MAX;
    ossa_status st = build_parts(inst);
    if (st == OSSA_OK)
        st = build_pose(inst, err);
    else
        inst_fail(err, st, "out of memory for the parts");
    if (st == OSSA_OK && (st = build_morphs_springs(inst)) != OSSA_OK)
        inst_fail(err, st, "out of memory for morphs or springs");
    if (st == OSSA_OK && (st = build_scratch(inst)) != OSSA_OK)
        inst_fail(err, st, "out of memory for scratch");
    if (st != OSSA_OK) {
        ossa_instance_destroy(inst);
        return st;
    }
    /* The cloth starts at the bind vertices (ossa_spring_state_create), as Cal3D's submesh
     * vertices do, not reset to the rest pose's skin: the first steps then match libcal3d. */
    ossa_instance_pose_clip(inst, OSSA_INSTANCE_NO_CLIP, 0.0f);
    ossa_instance_set_morph_time(inst, 0.0f);
    *out = inst;
    return OSSA_OK;
}

void ossa_instance_destroy(ossa_instance *inst)
{
    if (!inst)
        return;
    for (uint32_t i = 0; i < inst->part_count; i++) {
        /* A spring state refers to its skin mesh: it goes first. */
        ossa_spring_state_destroy(inst->parts[i].spring);
        free(inst->parts[i].spring_positions);
        free(inst->parts[i].morph_weights);
        ossa_skin_mesh_destroy(inst->parts[i].skin);
    }
    free(inst->parts);
    ossa_mixer_destroy(inst->mixer);
    ossa_mixer_destroy(inst->morph_mixer);
    if (inst->clips)
        for (uint32_t c = 0; c < inst->model->clip_count; c++)
            ossa_rt_clip_destroy(inst->clips[c]);
    free(inst->clips);
    ossa_sample_cache_destroy(inst->cache);
    ossa_rt_skeleton_destroy(inst->skeleton);
    ossa_soa_pose_destroy(&inst->local);
    ossa_soa_pose_destroy(&inst->model_pose);
    free(inst->palette);
    free(inst->file_positions);
    free(inst->file_normals);
    free(inst->file_uvs);
    ossa_skin_buffer_free(inst->out_positions);
    ossa_skin_buffer_free(inst->out_normals);
    free(inst);
}

const ossa_model *ossa_instance_model(const ossa_instance *inst)
{
    return inst->model;
}

uint32_t ossa_instance_part_count(const ossa_instance *inst)
{
    return inst->part_count;
}

bool ossa_instance_part_info(const ossa_instance *inst, uint32_t part, ossa_instance_part *out)
{
    if (!inst || !out || part >= inst->part_count)
        return false;
    *out = inst->parts[part].info;
    return true;
}

uint32_t ossa_instance_part_of(const ossa_instance *inst, uint32_t mesh, uint32_t submesh)
{
    /* Parts are the submeshes mesh by mesh, all of them: the index is a sum. */
    const ossa_model *m = inst->model;
    if (mesh >= m->mesh_count || submesh >= m->meshes[mesh].submesh_count)
        return inst->part_count;
    uint32_t part = submesh;
    for (uint32_t i = 0; i < mesh; i++)
        part += m->meshes[i].submesh_count;
    return part;
}

ossa_skin_kernel ossa_instance_kernel(const ossa_instance *inst)
{
    return inst->kernel;
}

void ossa_instance_set_pool(ossa_instance *inst, ossa_skin_pool *pool)
{
    inst->desc.pool = pool;
}

ossa_mixer *ossa_instance_mixer(ossa_instance *inst)
{
    return inst->mixer;
}

ossa_mixer *ossa_instance_morph_mixer(ossa_instance *inst)
{
    return inst->morph_mixer;
}

float ossa_instance_morph_time(const ossa_instance *inst)
{
    return inst->morph_time;
}

ossa_soa_pose *ossa_instance_local_pose(ossa_instance *inst)
{
    return &inst->local;
}

const ossa_soa_pose *ossa_instance_model_pose(const ossa_instance *inst)
{
    return &inst->model_pose;
}

const float *ossa_instance_palette(const ossa_instance *inst)
{
    return inst->palette;
}

float ossa_instance_time(const ossa_instance *inst)
{
    return inst->clock;
}

uint32_t ossa_instance_vertex_clip(const ossa_instance *inst)
{
    return inst->vertex_clip;
}

float ossa_instance_vertex_time(const ossa_instance *inst)
{
    return inst->vertex_time;
}

/* ---- pose ------------------------------------------------------------------------------- */

void ossa_instance_pose_local(ossa_instance *inst, const ossa_soa_pose *local)
{
    const ossa_model *m = inst->model;
    inst->generation++;
    if (!m->bone_count)
        return;
    if (!local || local->bone_count != m->bone_count) {
        ossa_rt_skeleton_rest(inst->skeleton, &inst->local);
        local = &inst->local;
    }
    ossa_ltm_job ltm = {.skeleton = inst->skeleton, .local = local, .model = &inst->model_pose};
    ossa_ltm_job_run(&ltm);
    ossa_palette_job pal = {.skeleton = inst->skeleton, .model = &inst->model_pose,
                            .palette = inst->palette,
                            .palette_floats = 12 * (size_t)m->bone_count};
    ossa_palette_job_run(&pal);
}

void ossa_instance_pose_clip(ossa_instance *inst, uint32_t clip, float time)
{
    const ossa_model *m = inst->model;
    ossa_instance_set_vertex_clip(inst, clip, time);
    if (!m->bone_count)
        return;
    ossa_rt_skeleton_rest(inst->skeleton, &inst->local);
    if (clip < m->clip_count) {
        ossa_sample_job job = {
            .clip = inst->clips[clip],
            .cache = inst->cache,
            .time = ossa_clip_wrap_time(&m->clips[clip], time),
            .time_mode = OSSA_WRAP_LOOP,
            .rot = OSSA_ROT_SLERP,
            .output = &inst->local,
        };
        ossa_sample_job_run(&job);
    }
    ossa_instance_pose_local(inst, &inst->local);
}

void ossa_instance_evaluate(ossa_instance *inst)
{
    if (!inst->model->bone_count || ossa_mixer_evaluate(inst->mixer, &inst->local) != OSSA_OK)
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
                                     p->morph_weights);
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
        return inst_fail(err, OSSA_ERR_RANGE, "clip out of range");
    if (!isfinite(fade_seconds) || fade_seconds < 0.0f)
        return inst_fail(err, OSSA_ERR_VALUE, "fade time negative or not finite");
    /* Start the new cycle first, so a full mixer refuses before anything fades out. */
    if (ossa_mixer_blend_cycle(inst->mixer, clip, 1.0f, fade_seconds) != OSSA_OK)
        return inst_fail(err, OSSA_ERR_UNSUPPORTED, "the mixer's cycle capacity is full");
    for (uint32_t c = 0; c < m->clip_count; c++)
        if (c != clip && ossa_mixer_weight(inst->mixer, c) >= 0.0f)
            ossa_mixer_clear_cycle(inst->mixer, c, fade_seconds);
    return OSSA_OK;
}

void ossa_instance_update(ossa_instance *inst, float dt)
{
    if (!isfinite(dt))
        dt = 0.0f;
    ossa_mixer_update(inst->mixer, dt);
    inst->clock += dt;
    ossa_instance_evaluate(inst);
    follow_mixer(inst);
    ossa_instance_springs_step(inst, dt);
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
