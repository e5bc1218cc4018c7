/* Character instance: building it from a model, destroying it, and what it holds. Its clocks and
 * pose are instance_pose.c, its output (skinning, springs, frames, mounts) instance_output.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim/mixer_internal.h"
#include "instance/instance_state.h"
#include "ossa/vertex_anim.h"
#include "skin/skin_direct.h"

enum { MORPH_CYCLES_MAX = 4096 };

static uint32_t model_part_count(const ossa_model *m)
{
    uint32_t count = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        count += m->meshes[i].submesh_count;
    return count;
}

static void shared_release(inst_shared *sh)
{
    if (!sh || atomic_fetch_sub_explicit(&sh->refs, 1, memory_order_acq_rel) != 1)
        return;
    for (uint32_t i = 0; sh->skins && i < sh->part_count; i++)
        ossa_skin_mesh_destroy(sh->skins[i]);
    ossa_skin_list_destroy(sh->list);
    free(sh->skins);
    free(sh->skin_status);
    if (sh->clips)
        for (uint32_t c = 0; c < sh->model->clip_count; c++)
            ossa_rt_clip_destroy(sh->clips[c]);
    free(sh->clips);
    ossa_rt_skeleton_destroy(sh->skeleton);
    free(sh);
}

/* The runtime skeleton, one runtime clip per model clip and one skin mesh per part when the
 * model has bones (a part whose streams cannot be built keeps the reason). */
static ossa_status shared_create(const ossa_model *m, inst_shared **out, ossa_error *err)
{
    *out = NULL;
    inst_shared *sh = calloc(1, sizeof *sh);
    if (!sh)
        return inst_fail(err, OSSA_ERR_NOMEM, "out of memory");
    atomic_init(&sh->refs, 1);
    sh->model = m;
    sh->part_count = model_part_count(m);
    sh->skins = calloc(sh->part_count ? sh->part_count : 1, sizeof *sh->skins);
    sh->skin_status = calloc(sh->part_count ? sh->part_count : 1, sizeof *sh->skin_status);
    sh->clips = calloc(m->clip_count ? m->clip_count : 1, sizeof *sh->clips);
    ossa_status st = sh->skins && sh->skin_status && sh->clips ? OSSA_OK : OSSA_ERR_NOMEM;
    if (st != OSSA_OK)
        inst_fail(err, st, "out of memory");
    if (st == OSSA_OK)
        st = ossa_rt_skeleton_create(m, &sh->skeleton, err);
    sh->max_tracks = 1;
    for (uint32_t c = 0; st == OSSA_OK && c < m->clip_count; c++) {
        st = ossa_rt_clip_create(m, &m->clips[c], &sh->clips[c], err);
        if (st == OSSA_OK && ossa_rt_clip_track_count(sh->clips[c]) > sh->max_tracks)
            sh->max_tracks = ossa_rt_clip_track_count(sh->clips[c]);
    }
    uint32_t part = 0;
    for (uint32_t i = 0; st == OSSA_OK && i < m->mesh_count; i++)
        for (uint32_t j = 0; st == OSSA_OK && j < m->meshes[i].submesh_count; j++, part++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            if (!m->bone_count || !sm->vertex_count)
                continue;
            ossa_status skin = m->bone_count > OSSA_SKIN_MAX_PALETTE
                                   ? OSSA_ERR_RANGE
                                   : ossa_skin_mesh_create(sm, m->bone_count, &sh->skins[part],
                                                           NULL);
            if (skin == OSSA_ERR_NOMEM)
                st = inst_fail(err, skin, "out of memory for the skin meshes");
            if (skin != OSSA_OK)
                sh->skins[part] = NULL;
            sh->skin_status[part] = skin;
        }
    if (st == OSSA_OK) /* NULL (no part listed, or no memory for it) skins part by part */
        sh->list = ossa_skin_list_create((const ossa_skin_mesh *const *)sh->skins, sh->part_count);
    if (st != OSSA_OK) {
        shared_release(sh);
        return st;
    }
    *out = sh;
    return OSSA_OK;
}

/* One part per submesh, with the shared skin mesh when there is one (else file order). */
static ossa_status build_parts(ossa_instance *inst)
{
    const ossa_model *m = inst->model;
    inst->parts = calloc(inst->shared->part_count ? inst->shared->part_count : 1,
                         sizeof *inst->parts);
    if (!inst->parts)
        return OSSA_ERR_NOMEM;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            uint32_t index = inst->part_count++;
            inst_part *p = &inst->parts[index];
            ossa_instance_part *info = &p->info;
            info->mesh = i;
            info->submesh = j;
            info->source = sm;
            info->vertex_count = sm->vertex_count;
            for (uint32_t c = 0; c < m->clip_count; c++) {
                info->frame_tracked |= ossa_clip_vertex_track(&m->clips[c], i, j) != NULL;
                info->uv_tracked |= ossa_clip_uv_track(&m->clips[c], i, j) != NULL;
            }
            p->skin = inst->shared->skins[index];
            info->skin_status = inst->shared->skin_status[index];
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

/* Cache, poses, palette (and its wide copy) and the skeletal mixer over the shared clips. */
static ossa_status build_pose(ossa_instance *inst, ossa_error *err)
{
    const ossa_model *m = inst->model;
    size_t bones = m->bone_count ? m->bone_count : 1;
    inst->skeleton = inst->shared->skeleton;
    inst->clips = (const ossa_rt_clip *const *)inst->shared->clips;
    inst->palette = calloc(12 * bones, sizeof(float));
    if (!inst->palette)
        return inst_fail(err, OSSA_ERR_NOMEM, "out of memory");
    size_t wide = ossa_skin_wide_floats(inst->kernel, m->bone_count);
    if (wide && !(inst->wide_palette = ossa_skin_buffer_alloc(wide * sizeof(float))))
        return inst_fail(err, OSSA_ERR_NOMEM, "out of memory");
    if (ossa_soa_pose_create(m->bone_count, &inst->local, NULL) != OSSA_OK ||
        ossa_soa_pose_create(m->bone_count, &inst->model_pose, NULL) != OSSA_OK)
        return inst_fail(err, OSSA_ERR_NOMEM, "out of memory for the poses");
    ossa_status st = ossa_sample_cache_create(inst->shared->max_tracks, &inst->cache, err);
    if (st != OSSA_OK)
        return st;
    return ossa_mixer_create_shared(m, &inst->desc.mixer, inst->skeleton, inst->clips,
                                    &inst->mixer, err);
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
        p->spring_normals = calloc(3 * n, sizeof(float));
        if (!p->spring_positions || !p->spring_normals)
            return OSSA_ERR_NOMEM;
        p->spring_generation = UINT64_MAX; /* no step yet */
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
    ossa_status st = ossa_mixer_create_shared(m, &desc, inst->skeleton, inst->clips,
                                              &inst->morph_mixer, NULL);
    if (st != OSSA_OK) {
        inst->morph_mixer = NULL;
        return st == OSSA_ERR_NOMEM ? st : OSSA_OK;
    }
    /* Past the mixer's capacity the later morph clips do not play. */
    for (uint32_t c = 0; c < m->morph_clip_count; c++)
        if (ossa_mixer_blend_cycle(inst->morph_mixer, ossa_mixer_morph_id(inst->morph_mixer, c),
                                   1.0f, 0.0f, NULL) != OSSA_OK)
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

static ossa_status build_scratch(ossa_instance *inst)
{
    /* Sized for the parts that use it, not for every part: a crowd of characters without
     * cloth, vertex frames or mounts keeps a few floats each, not a copy of its largest part.
     * File-order shapes: vertex frames of a skinned part, mount shapes; UVs: uv tracks of a
     * skinned part; output order: cloth steps and a skinned mount part's shape. */
    const ossa_model *m = inst->model;
    size_t file = 1, uvs = 1, out = 1;
    for (uint32_t i = 0; i < inst->part_count; i++) {
        const ossa_instance_part *p = &inst->parts[i].info;
        bool mounted = false;
        for (uint32_t k = 0; k < m->mount_count && !mounted; k++)
            mounted = m->mounts[k].mesh == p->mesh && m->mounts[k].submesh == p->submesh;
        if ((p->frame_tracked || mounted) && p->vertex_count > file)
            file = p->vertex_count;
        if (p->uv_tracked && p->vertex_count > uvs)
            uvs = p->vertex_count;
        if ((p->spring || mounted) && p->output_count > out)
            out = p->output_count;
    }
    inst->file_positions = calloc(3 * file, sizeof(float));
    inst->file_normals = calloc(3 * file, sizeof(float));
    inst->file_uvs = calloc(2 * uvs, sizeof(float));
    inst->out_positions = ossa_skin_buffer_alloc(3 * out * sizeof(float));
    inst->out_normals = ossa_skin_buffer_alloc(3 * out * sizeof(float));
    size_t parts = inst->part_count ? inst->part_count : 1;
    inst->list_pos = calloc(parts, sizeof *inst->list_pos);
    inst->list_nrm = calloc(parts, sizeof *inst->list_nrm);
    return inst->file_positions && inst->file_normals && inst->file_uvs && inst->out_positions &&
                   inst->out_normals && inst->list_pos && inst->list_nrm
               ? OSSA_OK
               : OSSA_ERR_NOMEM;
}

/* inst->state: the blocks of its own state an update touches, built and never moved. */
static void list_state(ossa_instance *inst)
{
    ossa_mem_range *r = inst->state;
    uint32_t *n = &inst->state_count, max = INST_STATE_RANGES;
    uint32_t bones = inst->model->bone_count;
    /* ossa_instance_skin reads every part's record and the skin list's span arrays */
    ossa_mem_range_add(r, n, max, inst->parts, inst->part_count * sizeof *inst->parts);
    if (inst->shared->list) {
        ossa_mem_range_add(r, n, max, inst->list_pos, inst->part_count * sizeof *inst->list_pos);
        ossa_mem_range_add(r, n, max, inst->list_nrm, inst->part_count * sizeof *inst->list_nrm);
    }
    ossa_mixer_state_ranges(inst->mixer, r, n, max);
    ossa_mem_range_add(r, n, max, inst->local.block, 10 * sizeof(float) * inst->local.capacity);
    ossa_mem_range_add(r, n, max, inst->model_pose.block,
                       10 * sizeof(float) * inst->model_pose.capacity);
    ossa_mem_range_add(r, n, max, inst->palette, 12 * sizeof(float) * bones);
    ossa_mem_range_add(r, n, max, inst->wide_palette,
                       ossa_skin_wide_floats(inst->kernel, bones) * sizeof(float));
    size_t scratch = 0; /* the parts are read in order when skinned: not listed */
    for (uint32_t i = 0; i < inst->part_count; i++) {
        const inst_part *p = &inst->parts[i];
        if (!p->spring)
            continue;
        size_t bytes = 3 * sizeof(float) * p->info.output_count;
        ossa_spring_state_ranges(p->spring, r, n, max);
        ossa_mem_range_add(r, n, max, p->spring_positions, bytes);
        ossa_mem_range_add(r, n, max, p->spring_normals, bytes); /* written by the step too */
        scratch = bytes > scratch ? bytes : scratch;
    }
    ossa_mem_range_add(r, n, max, inst->out_positions, scratch);
    ossa_mem_range_add(r, n, max, inst->out_normals, scratch);
}

/* An instance over shared (one reference handed over, released on failure). */
static ossa_status instance_make(inst_shared *shared, const ossa_instance_desc *desc,
                                 ossa_instance **out, ossa_error *err)
{
    ossa_instance_desc d = desc ? *desc : (ossa_instance_desc){0};
    if ((unsigned)d.kernel >= OSSA_SKIN_KERNEL_COUNT || !isfinite(d.spring_max_dt) ||
        d.spring_max_dt < 0.0f || (unsigned)d.store > OSSA_SKIN_STORE_STREAM) {
        shared_release(shared);
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, "bad kernel, spring step or store");
    }
    if (d.kernel == OSSA_SKIN_KERNEL_AUTO && d.choice) {
        /* as a skin job checks its choice's: unknown is a bad argument, absent unsupported */
        ossa_skin_kernel k = d.choice->size[OSSA_SKIN_SIZE_SMALL].kernel;
        if ((unsigned)k >= OSSA_SKIN_KERNEL_COUNT || k == OSSA_SKIN_KERNEL_AUTO) {
            shared_release(shared);
            return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, "the choice's kernel is unknown");
        }
        if (!ossa_skin_kernel_available(k)) {
            shared_release(shared);
            return inst_fail(err, OSSA_ERR_UNSUPPORTED,
                             "the choice's kernel is not available on this CPU");
        }
        d.kernel = k;
    }
    d.choice = NULL; /* not kept: the caller's */
    if (!d.parallel_min_vertices)
        d.parallel_min_vertices = OSSA_INSTANCE_PARALLEL_MIN_VERTICES;
    if (d.spring_max_dt == 0.0f)
        d.spring_max_dt = OSSA_INSTANCE_SPRING_MAX_DT;
    ossa_instance *inst = calloc(1, sizeof *inst);
    if (!inst) {
        shared_release(shared);
        return inst_fail(err, OSSA_ERR_NOMEM, "out of memory");
    }
    inst->model = shared->model;
    inst->shared = shared;
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
    if (st == OSSA_OK && !(inst->durations = calloc(inst->model->clip_count + 1u, sizeof(float))))
        st = inst_fail(err, OSSA_ERR_NOMEM, "out of memory");
    if (st != OSSA_OK) {
        ossa_instance_destroy(inst);
        return st;
    }
    /* The cloth starts at the bind vertices (ossa_spring_state_create), as Cal3D's submesh
     * vertices do, not reset to the rest pose's skin: the first steps then match libcal3d. */
    for (uint32_t c = 0; c < inst->model->clip_count; c++)
        inst->durations[c] = inst->model->clips[c].duration;
    ossa_clock_init(&inst->play, inst->model->clip_count, inst->durations);
    ossa_instance_pose_clip(inst, OSSA_INSTANCE_NO_CLIP, 0.0f);
    ossa_instance_set_morph_time(inst, 0.0f);
    list_state(inst);
    *out = inst;
    return OSSA_OK;
}

ossa_status ossa_instance_create(const ossa_model *model, const ossa_instance_desc *desc,
                                 ossa_instance **out, ossa_error *err)
{
    if (!out)
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, "no output pointer");
    *out = NULL;
    if (!model)
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, "no model");
    inst_shared *shared;
    ossa_status st = shared_create(model, &shared, err);
    return st == OSSA_OK ? instance_make(shared, desc, out, err) : st;
}

ossa_status ossa_instance_create_shared(const ossa_instance *prototype,
                                        const ossa_instance_desc *desc, ossa_instance **out,
                                        ossa_error *err)
{
    if (!out)
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, "no output pointer");
    *out = NULL;
    if (!prototype)
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, "no prototype");
    atomic_fetch_add_explicit(&prototype->shared->refs, 1, memory_order_relaxed);
    return instance_make(prototype->shared, desc, out, err);
}

void ossa_instance_destroy(ossa_instance *inst)
{
    if (!inst)
        return;
    for (uint32_t i = 0; i < inst->part_count; i++) {
        /* A spring state refers to its skin mesh: it goes first. */
        ossa_spring_state_destroy(inst->parts[i].spring);
        free(inst->parts[i].spring_positions);
        free(inst->parts[i].spring_normals);
        free(inst->parts[i].morph_weights);
    }
    free(inst->parts);
    ossa_mixer_destroy(inst->mixer);
    ossa_mixer_destroy(inst->morph_mixer);
    ossa_sample_cache_destroy(inst->cache);
    ossa_soa_pose_destroy(&inst->local);
    ossa_soa_pose_destroy(&inst->model_pose);
    free(inst->palette);
    ossa_skin_buffer_free(inst->wide_palette);
    free(inst->file_positions);
    free(inst->file_normals);
    free(inst->file_uvs);
    ossa_skin_buffer_free(inst->out_positions);
    ossa_skin_buffer_free(inst->out_normals);
    free(inst->list_pos);
    free(inst->list_nrm);
    free(inst->durations);
    /* Spring states refer to the shared skin meshes: the shared data goes last. */
    shared_release(inst->shared);
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

ossa_status ossa_instance_part_info(const ossa_instance *inst, uint32_t part,
                                    ossa_instance_part *out, ossa_error *err)
{
    if (!inst || !out)
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, "part info: NULL instance or out");
    if (part >= inst->part_count)
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, "part info: part out of range");
    *out = inst->parts[part].info;
    return OSSA_OK;
}

ossa_skin_kernel ossa_instance_kernel(const ossa_instance *inst)
{
    return inst->kernel;
}

void ossa_instance_set_pool(ossa_instance *inst, ossa_skin_pool *pool)
{
    inst->desc.pool = pool;
}

void ossa_instance_set_store(ossa_instance *inst, ossa_skin_store store)
{
    if (inst && (unsigned)store <= OSSA_SKIN_STORE_STREAM)
        inst->desc.store = store;
}

size_t ossa_instance_state_bytes(const ossa_instance *inst)
{
    if (!inst)
        return 0;
    size_t bytes = sizeof *inst; /* the parts and the skin list's spans are in the list */
    for (uint32_t r = 0; r < inst->state_count; r++)
        bytes += inst->state[r].bytes;
    return bytes;
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
