/* Character instance output: parts skinned (morphs, springs) or shaped by vertex frames into
 * caller buffers, UVs, and mounts on the shape as it is drawn. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "instance/instance_state.h"
#include "ossa/vertex_anim.h"
#include "skin/skin_direct.h"

uint32_t ossa_instance_part_of(const ossa_instance *inst, uint32_t mesh, uint32_t submesh)
{
    /* Parts are the submeshes mesh by mesh, all of them: the index is a sum. */
    const ossa_model *m = inst->model;
    if (mesh >= m->mesh_count || submesh >= m->meshes[mesh].submesh_count)
        return OSSA_NOT_FOUND;
    uint32_t part = submesh;
    for (uint32_t i = 0; i < mesh; i++)
        part += m->meshes[i].submesh_count;
    return part;
}

/* File-order values (`width` floats per vertex) into a part's output order; padding gets 0. */
static void scatter(const inst_part *p, const float *from, int width, float *to)
{
    const uint32_t *source = p->info.output_source;
    if (!source) {
        memcpy(to, from, (size_t)width * p->info.output_count * sizeof(float));
        return;
    }
    for (uint32_t o = 0; o < p->info.output_count; o++)
        for (int k = 0; k < width; k++)
            to[(size_t)width * o + k] = source[o] == OSSA_SKIN_PAD_VERTEX
                                            ? 0.0f
                                            : from[(size_t)width * source[o] + k];
}

const ossa_vertex_track *ossa_instance_part_vertex_track(const ossa_instance *inst, uint32_t part)
{
    if (part >= inst->part_count || !inst->parts[part].info.frame_tracked ||
        inst->vertex_clip >= inst->model->clip_count)
        return NULL;
    const ossa_instance_part *p = &inst->parts[part].info;
    return ossa_clip_vertex_track(&inst->model->clips[inst->vertex_clip], p->mesh, p->submesh);
}

/* A part's shape from its vertex track at the vertex clip's time, in output order. */
static void play_frames(ossa_instance *inst, const inst_part *p, float *pos, float *nrm)
{
    /* Without streams the output is file order: the frames go straight into the buffer. */
    float *fp = p->skin ? inst->file_positions : pos, *fn = p->skin ? inst->file_normals : nrm;
    const ossa_clip *clip = &inst->model->clips[inst->vertex_clip];
    size_t bytes = 3 * (size_t)p->info.vertex_count * sizeof(float);
    if (ossa_vertex_clip_eval(inst->model, clip, p->info.mesh, p->info.submesh, inst->vertex_time,
                              OSSA_WRAP_LOOP, fp, fn, p->info.vertex_count, NULL) != OSSA_OK &&
        bytes) {
        /* Indices were validated at load; a failure here would be a bug. Show the bind shape. */
        memcpy(fp, p->info.source->positions, bytes);
        memcpy(fn, p->info.source->normals, bytes);
    }
    if (p->skin) {
        scatter(p, fp, 3, pos);
        scatter(p, fn, 3, nrm);
    }
}

/* A part with streams skinned (morphs applied) into pos/nrm, without springs. Small parts run
 * the kernel directly: spans, palette size and kernel were checked once (ossa_instance_skin,
 * creation), and the wide palette is prepared once a pose (ossa_instance_pose_local). stream
 * asks for non-temporal stores; true when the direct path took them (the caller then fences
 * once; a job fences itself). */
static bool skin_part(const ossa_instance *inst, const inst_part *p, float *pos, float *nrm,
                      bool stream)
{
    if (!inst->desc.pool || p->info.output_count < inst->desc.parallel_min_vertices)
        return ossa_skin_mesh_run(p->skin, inst->kernel, inst->palette, inst->wide_palette,
                                  p->morph_weights, pos, nrm, stream) != 0;
    /* pos / nrm hold the part's output_count vertices (checked by the callers) */
    ossa_skin_job job = {.mesh = p->skin, .palette = inst->palette,
                         .palette_size = inst->model->bone_count,
                         .morph_weights = p->morph_weights, .out_positions = pos,
                         .out_normals = nrm, .out_capacity = p->info.output_count,
                         .end = p->info.output_count, .kernel = inst->kernel,
                         .store = stream ? OSSA_SKIN_STORE_STREAM : OSSA_SKIN_STORE_CACHED};
    job.pool = inst->desc.pool;
    ossa_skin_job_run(&job, NULL);
    return false;
}

/* The spring-owned vertices (physique weight > 0) of a part from its last spring step. */
static void apply_springs(const inst_part *p, float *pos)
{
    const uint32_t *source = p->info.output_source;
    const float *phys = p->info.source->physique_weights;
    for (uint32_t o = 0; o < p->info.output_count; o++)
        if (source[o] != OSSA_SKIN_PAD_VERTEX && phys[source[o]] > 0.0f)
            memcpy(pos + 3 * (size_t)o, p->spring_positions + 3 * (size_t)o, 3 * sizeof(float));
}

/* A cloth step's output is the part's output until the generation moves on (a new pose or
 * morph); one increment after all of the instance's cloth parts. */
static void springs_done(ossa_instance *inst)
{
    inst->generation++;
    for (uint32_t i = 0; i < inst->part_count; i++)
        inst->parts[i].spring_generation = inst->generation;
}

/* The scratch holding part p's step (positions and normals) kept for ossa_instance_skin. */
static void springs_keep(const ossa_instance *inst, inst_part *p, const float *positions)
{
    size_t bytes = 3 * (size_t)p->info.output_count * sizeof(float);
    memcpy(p->spring_positions, positions, bytes);
    memcpy(p->spring_normals, inst->out_normals, bytes);
}

/* Every part with springs skinned into the output scratch, then stepped by dt (reset: put at
 * rest there instead), and the result kept for ossa_instance_skin. */
void ossa_instance_springs_run(ossa_instance *inst, float dt, bool reset)
{
    bool any = false;
    for (uint32_t i = 0; i < inst->part_count; i++) {
        inst_part *p = &inst->parts[i];
        if (!p->spring)
            continue;
        skin_part(inst, p, inst->out_positions, inst->out_normals, false);
        if (reset)
            ossa_spring_state_reset_to(p->spring, inst->out_positions, p->info.output_count,
                                       NULL);
        else
            ossa_spring_update(p->spring, dt, inst->out_positions, p->info.output_count, NULL);
        springs_keep(inst, p, inst->out_positions);
        any = true;
    }
    if (any)
        springs_done(inst);
}

_Static_assert(OSSA_INSTANCE_UPDATE_GROUP == SPRING_LANES, "the public group is the lane count");

/* The cloth of n instances that share their runtime data, each stepped by its own dt[l]: every
 * part with springs skinned into each one's scratch, then one lane step
 * (ossa_spring_update_lanes), the same bits as ossa_instance_springs_run on each. */
static void springs_lanes(ossa_instance *const *lane, uint32_t n, const float *dt)
{
    const ossa_instance *lead = lane[0];
    for (uint32_t i = 0; i < lead->part_count; i++) {
        if (!lead->parts[i].spring)
            continue;
        ossa_spring_state *state[SPRING_LANES_MAX];
        float *out[SPRING_LANES_MAX];
        for (uint32_t l = 0; l < n; l++) {
            skin_part(lane[l], &lane[l]->parts[i], lane[l]->out_positions,
                      lane[l]->out_normals, false);
            state[l] = lane[l]->parts[i].spring;
            out[l] = lane[l]->out_positions;
        }
        ossa_spring_update_lanes(state, out, n, dt);
        for (uint32_t l = 0; l < n; l++)
            springs_keep(lane[l], &lane[l]->parts[i], out[l]);
    }
    for (uint32_t l = 0; l < n; l++)
        springs_done(lane[l]);
}

void ossa_instance_springs_step_many(ossa_instance *const *insts, uint32_t count,
                                     const float *dts, float dt)
{
    for (uint32_t i = 0; i < count;) {
        ossa_instance *lane[SPRING_LANES_MAX];
        float step[SPRING_LANES_MAX];
        uint32_t n = 0;
        /* neighbours that share the runtime data (so the same parts have springs), up to
         * SPRING_LANES_MAX of them; one that does not step is passed over */
        for (; i < count && n < SPRING_LANES_MAX; i++) {
            ossa_instance *inst = insts[i];
            float s = dts ? dts[i] : dt;
            if (!inst || !isfinite(s) || !(s > 0.0f))
                continue;
            if (n && inst->shared != lane[0]->shared)
                break;
            step[n] = s > inst->desc.spring_max_dt ? inst->desc.spring_max_dt : s;
            lane[n++] = inst;
        }
        if (n == 1)
            ossa_instance_springs_run(lane[0], step[0], false);
        else if (n > 1)
            springs_lanes(lane, n, step);
    }
}

/* One part into its buffers (output order, output_count vertices); to_caller: they are the
 * caller's spans, which may take non-temporal stores (desc.store). True when they took them. */
static bool write_part(ossa_instance *inst, uint32_t part, float *pos, float *nrm, bool to_caller)
{
    const inst_part *p = &inst->parts[part];
    if (ossa_instance_part_vertex_track(inst, part)) {
        play_frames(inst, p, pos, nrm);
        return false;
    }
    if (!p->skin) {
        size_t bytes = 3 * (size_t)p->info.output_count * sizeof(float);
        if (bytes) {
            memcpy(pos, p->info.source->positions, bytes);
            memcpy(nrm, p->info.source->normals, bytes);
        }
        return false;
    }
    if (p->spring && p->spring_generation == inst->generation) {
        /* The cloth step skinned this part at this pose and relaxed it: its output, rigid
         * vertices included, as Cal3D renders a spring submesh (the step's vertex vector). */
        size_t bytes = 3 * (size_t)p->info.output_count * sizeof(float);
        memcpy(pos, p->spring_positions, bytes);
        memcpy(nrm, p->spring_normals, bytes);
        return false;
    }
    /* cloth writes its vertices over the skinned ones right after: ordinary stores */
    bool stream = to_caller && !p->spring &&
                  ossa_skin_store_streams(inst->desc.store, p->info.output_count);
    bool streamed = skin_part(inst, p, pos, nrm, stream);
    if (p->spring)
        apply_springs(p, pos);
    return streamed;
}

/* Whether the skin list writes part into sp this time, the bits write_part would: a listed part
 * (skinned, no morphs, no cloth) with no vertex track playing, not split over the pool, and with
 * the store write_part would take (streaming only into 64-byte aligned spans). */
static bool list_takes(const ossa_instance *inst, uint32_t part, const ossa_instance_span *sp,
                       bool stream)
{
    const inst_part *p = &inst->parts[part];
    if (!ossa_skin_list_has(inst->shared->list, part) ||
        ossa_instance_part_vertex_track(inst, part))
        return false;
    if (inst->desc.pool && p->info.output_count >= inst->desc.parallel_min_vertices)
        return false;
    return !stream || (((uintptr_t)sp->positions | (uintptr_t)sp->normals) & 63u) == 0;
}

ossa_status ossa_instance_skin(ossa_instance *inst, uint32_t first_part, uint32_t count,
                               const ossa_instance_span *spans, ossa_error *err)
{
    const char *bad = NULL;
    if (!inst || (count && !spans))
        bad = "no instance or no spans";
    else if (first_part > inst->part_count || count > inst->part_count - first_part)
        bad = "part range past the parts";
    for (uint32_t i = 0; !bad && i < count; i++) {
        const ossa_instance_span *sp = &spans[i];
        if (sp->positions && !sp->normals)
            bad = "a span has positions but no normals";
        else if (sp->positions && sp->capacity < inst->parts[first_part + i].info.output_count)
            bad = "a span holds fewer vertices than its part writes";
    }
    if (bad) {
        if (err) {
            ossa_error_clear(err);
            err->status = OSSA_ERR_INVALID_ARGUMENT;
            snprintf(err->message, sizeof err->message, "instance skin: %s", bad);
        }
        return OSSA_ERR_INVALID_ARGUMENT;
    }
    /* The parts the skin list takes this time go through it together, the rest one by one. */
    const ossa_skin_list *list = inst->shared->list;
    bool listing = list && inst->wide_palette && ossa_skin_list_runs_on(inst->kernel);
    bool list_stream = inst->desc.store == OSSA_SKIN_STORE_STREAM, listed = false;
    if (listing)
        for (uint32_t i = 0; i < inst->part_count; i++)
            inst->list_pos[i] = inst->list_nrm[i] = NULL;
    bool streamed = false;
    for (uint32_t i = 0; i < count; i++) {
        const ossa_instance_span *sp = &spans[i];
        uint32_t part = first_part + i;
        if (!sp->positions)
            continue;
        if (listing && list_takes(inst, part, sp, list_stream)) {
            inst->list_pos[part] = sp->positions;
            inst->list_nrm[part] = sp->normals;
            listed = true;
            continue;
        }
        streamed |= write_part(inst, part, sp->positions, sp->normals, true);
    }
    if (listed) {
        ossa_skin_list_run(list, inst->kernel, inst->wide_palette, inst->list_pos,
                           inst->list_nrm, list_stream);
        streamed |= list_stream;
    }
    if (streamed) /* one fence for every part (skin_direct.h) */
        ossa_skin_store_fence();
    return OSSA_OK;
}

ossa_status ossa_instance_uvs(ossa_instance *inst, uint32_t part, bool bind, float *uvs,
                              uint32_t capacity, ossa_error *err)
{
    if (!inst || !uvs)
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, !inst ? "uvs: instance is NULL"
                                                               : "uvs: uvs is NULL");
    if (part >= inst->part_count) {
        char msg[96];
        snprintf(msg, sizeof msg, "uvs: part %u of %u", part, inst->part_count);
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, msg);
    }
    const inst_part *p = &inst->parts[part];
    if (capacity < p->info.output_count) {
        char msg[128];
        snprintf(msg, sizeof msg, "uvs: uvs holds %u vertices (capacity), part %u outputs %u",
                 capacity, part, p->info.output_count);
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, msg);
    }
    const ossa_submesh *sm = p->info.source;
    if (!p->info.uv_tracked || bind) {
        const uint32_t *source = p->info.output_source;
        for (uint32_t o = 0; o < p->info.output_count; o++) {
            uint32_t v = source ? source[o] : o;
            bool has = v != OSSA_SKIN_PAD_VERTEX && sm->uv_set_count && sm->uvs;
            uvs[2 * (size_t)o] = has ? sm->uvs[2 * (size_t)sm->uv_set_count * v] : 0.0f;
            uvs[2 * (size_t)o + 1] = has ? sm->uvs[2 * (size_t)sm->uv_set_count * v + 1] : 0.0f;
        }
        return OSSA_OK;
    }
    const ossa_clip *clip =
        inst->vertex_clip < inst->model->clip_count ? &inst->model->clips[inst->vertex_clip] : NULL;
    float *file_uvs = p->skin ? inst->file_uvs : uvs;
    if (ossa_uv_clip_eval(inst->model, clip, p->info.mesh, p->info.submesh, inst->vertex_time,
                          OSSA_WRAP_LOOP, file_uvs, p->info.vertex_count, NULL) != OSSA_OK)
        memset(file_uvs, 0, 2 * (size_t)p->info.vertex_count * sizeof(float));
    if (p->skin)
        scatter(p, file_uvs, 2, uvs);
    return OSSA_OK;
}

/* A part's shape as it is drawn now (or in the bind pose), in file order. */
static const float *part_shape(ossa_instance *inst, uint32_t part, bool bind)
{
    const inst_part *p = &inst->parts[part];
    bool frames = ossa_instance_part_vertex_track(inst, part) != NULL;
    if (bind || (!p->skin && !frames))
        return p->info.source->positions;
    if (inst->shape_part == part && inst->shape_generation == inst->generation &&
        !inst->shape_bind)
        return inst->file_positions;
    if (!p->skin) {
        play_frames(inst, p, inst->file_positions, inst->file_normals);
    } else {
        /* Written in output order, then gathered back to file order. */
        write_part(inst, part, inst->out_positions, inst->out_normals, false);
        const uint32_t *source = p->info.output_source;
        for (uint32_t o = 0; o < p->info.output_count; o++)
            if (source[o] != OSSA_SKIN_PAD_VERTEX)
                memcpy(inst->file_positions + 3 * (size_t)source[o],
                       inst->out_positions + 3 * (size_t)o, 3 * sizeof(float));
    }
    inst->shape_part = part;
    inst->shape_bind = false;
    inst->shape_generation = inst->generation;
    return inst->file_positions;
}

ossa_status ossa_instance_mount(ossa_instance *inst, uint32_t mount, bool bind, float t[3],
                                float r[4], float s[3], ossa_error *err)
{
    if (!inst)
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, "mount: instance is NULL");
    const ossa_model *m = inst->model;
    char msg[96];
    if (mount >= m->mount_count) {
        snprintf(msg, sizeof msg, "mount: mount %u of %u", mount, m->mount_count);
        return inst_fail(err, OSSA_ERR_INVALID_ARGUMENT, msg);
    }
    uint32_t part = ossa_instance_part_of(inst, m->mounts[mount].mesh, m->mounts[mount].submesh);
    if (part >= inst->part_count) {
        snprintf(msg, sizeof msg, "mount: mount %u is on mesh %u submesh %u, which no part draws",
                 mount, m->mounts[mount].mesh, m->mounts[mount].submesh);
        return inst_fail(err, OSSA_ERR_RANGE, msg);
    }
    return ossa_mount_transform(m, mount, part_shape(inst, part, bind),
                                inst->parts[part].info.vertex_count, t, r, s, err);
}
