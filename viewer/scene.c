#include "scene.h"

#include <cglm/cglm.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ossa/vertex_anim.h"

/* Parts at least this big are split over the pool; smaller ones are not worth waking it. */
enum { PARALLEL_MIN_VERTICES = 16384, MAX_POOL_THREADS = 4 };

/* Counts the parts and gives each its layout range; false when the layout overflows 32 bits. */
static bool build_parts(view_scene *s)
{
    const ossa_model *m = s->model;
    uint32_t parts = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        parts += m->meshes[i].submesh_count;
    s->parts = calloc(parts ? parts : 1, sizeof *s->parts);
    if (!s->parts)
        return false;
    size_t at = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            view_scene_part *p = &s->parts[s->part_count++];
            p->submesh = sm;
            p->mesh = i;
            p->submesh_index = j;
            p->hidden = (m->meshes[i].flags & OSSA_MESH_HIDDEN) != 0;
            p->two_sided = (sm->flags & OSSA_SUBMESH_TWO_SIDED) != 0;
            for (uint32_t c = 0; c < m->clip_count; c++) {
                p->frame_tracked |= ossa_clip_vertex_track(&m->clips[c], i, j) != NULL;
                p->uv_tracked |= ossa_clip_uv_track(&m->clips[c], i, j) != NULL;
            }
            if (m->bone_count && sm->vertex_count && m->bone_count <= OSSA_SKIN_MAX_PALETTE) {
                ossa_error err;
                if (ossa_skin_mesh_create(sm, m->bone_count, &p->skin, &err) != OSSA_OK) {
                    char text[512];
                    fprintf(stderr, "ossa-view: warning: mesh %u submesh %u is shown unskinned: %s\n",
                            i, j, ossa_error_format(&err, text, sizeof text));
                    p->skin = NULL;
                }
            }
            if (p->skin) {
                p->vertex_count = ossa_skin_mesh_output_count(p->skin);
                p->index_count = 3 * ossa_skin_mesh_face_count(p->skin);
                p->indices = ossa_skin_mesh_indices(p->skin);
            } else {
                p->vertex_count = sm->vertex_count;
                p->index_count = 3 * sm->face_count;
                p->indices = sm->indices;
            }
            p->first_vertex = (uint32_t)at;
            at += p->vertex_count;
            /* GL draws take signed 32-bit vertex and index numbers. */
            if (at > INT32_MAX / 4 || p->index_count > INT32_MAX / 4)
                return false;
        }
    s->vertex_count = at;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        s->hidden_mesh_count += (m->meshes[i].flags & OSSA_MESH_HIDDEN) != 0;
    return true;
}

/* File-order scratch for the submeshes that play frames or carry a mount. */
static bool build_frame_scratch(view_scene *s)
{
    const ossa_model *m = s->model;
    size_t largest = 1;
    for (uint32_t i = 0; i < s->part_count; i++) {
        const view_scene_part *p = &s->parts[i];
        if ((p->frame_tracked || p->uv_tracked) && p->submesh->vertex_count > largest)
            largest = p->submesh->vertex_count;
    }
    for (uint32_t i = 0; i < m->mount_count; i++) {
        const ossa_mount *mt = &m->mounts[i];
        if (mt->mesh < m->mesh_count && mt->submesh < m->meshes[mt->mesh].submesh_count &&
            m->meshes[mt->mesh].submeshes[mt->submesh].vertex_count > largest)
            largest = m->meshes[mt->mesh].submeshes[mt->submesh].vertex_count;
    }
    s->frame_positions = calloc(3 * largest, sizeof(float));
    s->frame_normals = calloc(3 * largest, sizeof(float));
    s->frame_uvs = calloc(2 * largest, sizeof(float));
    return s->frame_positions && s->frame_normals && s->frame_uvs;
}

/* The index of clip in the model's clips, -1 when it is not one of them. Found by address (the
 * caller's pointer into m->clips), compared as integers since unrelated pointers may not be. */
static int64_t clip_index(const ossa_model *m, const ossa_clip *clip)
{
    uintptr_t at = (uintptr_t)clip, first = (uintptr_t)m->clips;
    if (!clip || !m->clip_count || at < first || (at - first) % sizeof *clip != 0 ||
        (at - first) / sizeof *clip >= m->clip_count)
        return -1;
    return (int64_t)((at - first) / sizeof *clip);
}

/* Model-space origin of each bone in the bind pose: the inverse of the inverse bind transform
 * (model -> bone: x_b = R x_m + t, so the origin is -R^-1 t). */
static void bind_joint_positions(const ossa_model *m, float *out)
{
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const ossa_bone *b = &m->bones[i];
        versor q = {b->inv_bind_r[0], b->inv_bind_r[1], b->inv_bind_r[2], b->inv_bind_r[3]}, qc;
        vec3 t = {-b->inv_bind_t[0], -b->inv_bind_t[1], -b->inv_bind_t[2]}, o;
        glm_quat_conjugate(q, qc);
        glm_quat_normalize(qc);
        glm_quat_rotatev(qc, t, o);
        memcpy(out + 3 * (size_t)i, o, sizeof o);
    }
}

static uint32_t lines_from_joints(const ossa_model *m, const float *joints, float *lines)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        int32_t p = m->bones[i].parent;
        if (p < 0)
            continue;
        float *line = lines + 6 * (size_t)n++;
        memcpy(line, joints + 3 * (size_t)p, 3 * sizeof(float));
        memcpy(line + 3, joints + 3 * (size_t)i, 3 * sizeof(float));
    }
    return n;
}

static bool build_pose(view_scene *s)
{
    const ossa_model *m = s->model;
    size_t nb = m->bone_count ? m->bone_count : 1;
    s->joints = calloc(3 * nb, sizeof(float));
    s->bind_joints = calloc(3 * nb, sizeof(float));
    s->bone_lines = calloc(6 * nb, sizeof(float));
    s->bind_bone_lines = calloc(6 * nb, sizeof(float));
    s->palette = calloc(12 * nb, sizeof(float));
    s->clips = calloc(m->clip_count ? m->clip_count : 1, sizeof *s->clips);
    if (!s->joints || !s->bind_joints || !s->bone_lines || !s->bind_bone_lines || !s->palette ||
        !s->clips)
        return false;
    if (!m->bone_count)
        return true;
    ossa_error err;
    if (ossa_rt_skeleton_create(m, &s->skeleton, &err) != OSSA_OK ||
        ossa_soa_pose_create(m->bone_count, &s->local, NULL) != OSSA_OK ||
        ossa_soa_pose_create(m->bone_count, &s->model_pose, NULL) != OSSA_OK)
        return false;
    uint32_t max_tracks = 1;
    for (uint32_t c = 0; c < m->clip_count; c++) {
        if (ossa_rt_clip_create(m, &m->clips[c], &s->clips[c], &err) != OSSA_OK) {
            char text[512];
            fprintf(stderr, "ossa-view: warning: clip %u plays as the rest pose: %s\n", c,
                    ossa_error_format(&err, text, sizeof text));
            s->clips[c] = NULL;
            continue;
        }
        uint32_t tracks = ossa_rt_clip_track_count(s->clips[c]);
        if (tracks > max_tracks)
            max_tracks = tracks;
    }
    if (ossa_sample_cache_create(max_tracks, &s->cache, &err) != OSSA_OK)
        return false;
    bind_joint_positions(m, s->bind_joints);
    s->bone_line_count = lines_from_joints(m, s->bind_joints, s->bind_bone_lines);
    return true;
}

/* Spring states and morph weight buffers for the parts that need them, and the morph mixer with
 * every morph clip as a looping cycle of weight 1. A mixer or spring state that cannot be made
 * only costs that feature (a warning); false when out of memory. */
static bool build_morphs_springs(view_scene *s)
{
    const ossa_model *m = s->model;
    bool morphs = false;
    for (uint32_t i = 0; i < s->part_count; i++) {
        view_scene_part *p = &s->parts[i];
        if (!p->skin)
            continue;
        morphs |= p->submesh->morph_count > 0;
        if (!p->submesh->spring_count || !p->submesh->physique_weights)
            continue;
        ossa_status st = ossa_spring_state_create(p->skin, &p->spring, NULL);
        if (st == OSSA_ERR_NOMEM)
            return false;
        if (st != OSSA_OK) {
            fprintf(stderr, "ossa-view: warning: mesh %u submesh %u: its springs do not run\n",
                    p->mesh, p->submesh_index);
            p->spring = NULL;
            continue;
        }
        p->spring_positions = calloc(3 * (size_t)(p->vertex_count ? p->vertex_count : 1),
                                     sizeof(float));
        if (!p->spring_positions)
            return false;
        s->spring_part_count++;
    }
    if (!morphs || !m->morph_clip_count || !m->bone_count)
        return true;
    ossa_mixer_desc desc = {
        .max_cycles = m->morph_clip_count < 4096 ? m->morph_clip_count : 4096,
        .max_actions = 1,
    };
    ossa_error err;
    ossa_status st = ossa_mixer_create(m, &desc, &s->morph_mixer, &err);
    if (st != OSSA_OK) {
        char text[512];
        if (st == OSSA_ERR_NOMEM)
            return false;
        fprintf(stderr, "ossa-view: warning: morph clips do not play: %s\n",
                ossa_error_format(&err, text, sizeof text));
        s->morph_mixer = NULL;
        return true;
    }
    for (uint32_t c = 0; c < m->morph_clip_count; c++)
        if (ossa_mixer_blend_cycle(s->morph_mixer, ossa_mixer_morph_id(s->morph_mixer, c), 1.0f,
                                    0.0f) != OSSA_OK) {
            /* Only past the mixer's capacity: one line, not one per clip. */
            fprintf(stderr, "ossa-view: warning: morph clips %u and later do not play\n", c);
            break;
        }
    ossa_mixer_update(s->morph_mixer, 0.0f); /* weights reach their targets (no delay) */
    for (uint32_t i = 0; i < s->part_count; i++) {
        view_scene_part *p = &s->parts[i];
        if (!p->skin || !p->submesh->morph_count)
            continue;
        p->morph_weights = calloc(p->submesh->morph_count, sizeof(float));
        if (!p->morph_weights)
            return false;
        s->morph_part_count++;
    }
    return true;
}

static void log_to_stderr(void *user, const char *message)
{
    (void)user;
    fprintf(stderr, "%s\n", message);
}

/* OSSA_SKIN_KERNEL=scalar|sse2|avx2|avx512|auto forces the CPU skinning kernel (the library
 * never reads the environment; the viewer does, and reports a fallback on stderr). */
static ossa_skin_kernel kernel_from_environment(void)
{
    const char *name = getenv("OSSA_SKIN_KERNEL");
    if (!name || !*name)
        return ossa_skin_kernel_best();
    ossa_skin_kernel k = ossa_skin_kernel_parse(name);
    if (k == OSSA_SKIN_KERNEL_COUNT)
        fprintf(stderr, "ossa-view: OSSA_SKIN_KERNEL=\"%s\" is not a kernel\n", name);
    const ossa_log_options log = {log_to_stderr, NULL};
    return ossa_skin_kernel_resolve(k, &log);
}

bool view_scene_init(view_scene *s, const ossa_model *m)
{
    memset(s, 0, sizeof *s);
    s->model = m;
    s->kernel = kernel_from_environment();
    if (!build_parts(s) || !build_pose(s) || !build_frame_scratch(s) ||
        !build_morphs_springs(s)) {
        view_scene_free(s);
        return false;
    }
    size_t nv = s->vertex_count ? s->vertex_count : 1;
    s->positions = calloc(3 * nv, sizeof(float));
    s->normals = calloc(3 * nv, sizeof(float));
    if (!s->positions || !s->normals) {
        view_scene_free(s);
        return false;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t threads = cpus > MAX_POOL_THREADS ? MAX_POOL_THREADS : cpus > 1 ? (uint32_t)cpus : 1;
    if (threads > 1 && s->vertex_count >= PARALLEL_MIN_VERTICES &&
        ossa_skin_pool_create(threads, &s->pool, NULL) != OSSA_OK)
        s->pool = NULL; /* skinning on one thread is still right */
    view_scene_pose(s, NULL, 0.0f);
    view_scene_set_morph_time(s, 0.0f);
    view_scene_springs_reset(s);
    return true;
}

void view_scene_free(view_scene *s)
{
    for (uint32_t i = 0; i < s->part_count; i++) {
        /* The spring state refers to the skin mesh: it goes first. */
        ossa_spring_state_destroy(s->parts[i].spring);
        free(s->parts[i].spring_positions);
        free(s->parts[i].morph_weights);
        ossa_skin_mesh_destroy(s->parts[i].skin);
    }
    free(s->parts);
    ossa_mixer_destroy(s->morph_mixer);
    if (s->clips)
        for (uint32_t c = 0; c < s->model->clip_count; c++)
            ossa_rt_clip_destroy(s->clips[c]);
    free(s->clips);
    ossa_sample_cache_destroy(s->cache);
    ossa_rt_skeleton_destroy(s->skeleton);
    ossa_soa_pose_destroy(&s->local);
    ossa_soa_pose_destroy(&s->model_pose);
    if (s->pool)
        ossa_skin_pool_destroy(s->pool);
    free(s->palette);
    free(s->joints);
    free(s->bind_joints);
    free(s->bone_lines);
    free(s->bind_bone_lines);
    free(s->positions);
    free(s->normals);
    free(s->frame_positions);
    free(s->frame_normals);
    free(s->frame_uvs);
    memset(s, 0, sizeof *s);
}

void view_scene_set_vertex_clip(view_scene *s, const ossa_clip *clip, float time)
{
    bool known = clip_index(s->model, clip) >= 0;
    s->vertex_clip = known ? clip : NULL;
    s->vertex_time = known && isfinite(time) ? ossa_clip_wrap_time(clip, time) : 0.0f;
}

void view_scene_pose(view_scene *s, const ossa_clip *clip, float time)
{
    const ossa_model *m = s->model;
    view_scene_set_vertex_clip(s, clip, time);
    if (!m->bone_count)
        return;
    ossa_rt_skeleton_rest(s->skeleton, &s->local);
    int64_t index = clip_index(m, clip);
    if (index >= 0) {
        const ossa_rt_clip *rt = s->clips[index];
        if (rt) {
            ossa_sample_job job = {
                .clip = rt,
                .cache = s->cache,
                .time = ossa_clip_wrap_time(clip, time),
                .time_mode = OSSA_WRAP_LOOP,
                .rot = OSSA_ROT_SLERP,
                .output = &s->local,
            };
            ossa_sample_job_run(&job);
        }
    }
    view_scene_pose_local(s, &s->local);
}

void view_scene_pose_local(view_scene *s, const ossa_soa_pose *local)
{
    const ossa_model *m = s->model;
    if (!m->bone_count)
        return;
    if (!local || local->bone_count != m->bone_count) {
        ossa_rt_skeleton_rest(s->skeleton, &s->local);
        local = &s->local;
    }
    ossa_ltm_job ltm = {.skeleton = s->skeleton, .local = local, .model = &s->model_pose};
    ossa_ltm_job_run(&ltm);
    ossa_palette_job pal = {.skeleton = s->skeleton, .model = &s->model_pose,
                            .palette = s->palette, .palette_floats = 12 * (size_t)m->bone_count};
    ossa_palette_job_run(&pal);
    for (uint32_t i = 0; i < m->bone_count; i++) {
        s->joints[3 * (size_t)i] = s->model_pose.tx[i];
        s->joints[3 * (size_t)i + 1] = s->model_pose.ty[i];
        s->joints[3 * (size_t)i + 2] = s->model_pose.tz[i];
    }
    s->bone_line_count = lines_from_joints(m, s->joints, s->bone_lines);
}

const ossa_vertex_track *view_scene_part_vertex_track(const view_scene *s, uint32_t part)
{
    if (part >= s->part_count || !s->parts[part].frame_tracked)
        return NULL;
    const view_scene_part *p = &s->parts[part];
    return ossa_clip_vertex_track(s->vertex_clip, p->mesh, p->submesh_index);
}

/* File-order values (`width` floats per vertex) into a part's layout order; padding gets zeros. */
static void scatter(const view_scene_part *p, const float *from, int width, float *to)
{
    const uint32_t *source = p->skin ? ossa_skin_mesh_source(p->skin) : NULL;
    if (!source) {
        memcpy(to, from, (size_t)width * p->vertex_count * sizeof(float));
        return;
    }
    for (uint32_t o = 0; o < p->vertex_count; o++)
        for (int k = 0; k < width; k++)
            to[(size_t)width * o + k] = source[o] == OSSA_SKIN_PAD_VERTEX
                                            ? 0.0f
                                            : from[(size_t)width * source[o] + k];
}

/* A part's shape from its vertex track, at the vertex clip's time, in layout order. */
static void play_frames(const view_scene *s, const view_scene_part *p, float *pos, float *nrm)
{
    /* Without streams the layout is file order: the frames go straight into the buffer. */
    float *fp = p->skin ? s->frame_positions : pos, *fn = p->skin ? s->frame_normals : nrm;
    if (ossa_vertex_clip_eval(s->model, s->vertex_clip, p->mesh, p->submesh_index,
                              s->vertex_time, OSSA_WRAP_LOOP, fp, fn) != OSSA_OK) {
        /* Indices were validated at load; a failure here would be a bug. Show the bind shape. */
        memcpy(fp, p->submesh->positions, 3 * (size_t)p->submesh->vertex_count * sizeof(float));
        memcpy(fn, p->submesh->normals, 3 * (size_t)p->submesh->vertex_count * sizeof(float));
    }
    if (p->skin) {
        scatter(p, fp, 3, pos);
        scatter(p, fn, 3, nrm);
    }
}

/* A part with streams skinned (morphs applied) into its layout range, without springs. */
static void skin_part(const view_scene *s, const view_scene_part *p, float *pos, float *nrm)
{
    ossa_skin_job job;
    ossa_skin_job_init(&job, p->skin, s->palette, s->model->bone_count, pos, nrm);
    job.kernel = s->kernel;
    job.morph_weights = p->morph_weights;
    if (s->pool && p->vertex_count >= PARALLEL_MIN_VERTICES)
        ossa_skin_run_parallel(s->pool, &job);
    else
        ossa_skin_job_run(&job);
}

/* The spring-owned vertices (physique weight > 0) of a part from its last spring step. */
static void apply_springs(const view_scene_part *p, float *pos)
{
    const uint32_t *source = ossa_skin_mesh_source(p->skin);
    const float *phys = p->submesh->physique_weights;
    for (uint32_t o = 0; o < p->vertex_count; o++)
        if (source[o] != OSSA_SKIN_PAD_VERTEX && phys[source[o]] > 0.0f)
            memcpy(pos + 3 * (size_t)o, p->spring_positions + 3 * (size_t)o, 3 * sizeof(float));
}

void view_scene_set_morph_time(view_scene *s, float time)
{
    if (!s->morph_mixer)
        return;
    float d = ossa_mixer_duration(s->morph_mixer), t = 0.0f;
    if (d > 0.0f && isfinite(time)) {
        t = fmodf(time, d);
        if (t < 0.0f)
            t += d;
    }
    s->morph_time = t;
    ossa_mixer_set_time(s->morph_mixer, t);
    for (uint32_t i = 0; i < s->part_count; i++) {
        view_scene_part *p = &s->parts[i];
        if (p->morph_weights)
            ossa_mixer_morph_weights(s->morph_mixer, p->mesh, p->submesh_index, p->morph_weights);
    }
}

/* Every part with springs skinned into the scene's scratch, then stepped by dt (reset: put at
 * rest there instead), and the result kept for view_scene_skin. */
static void springs_run(view_scene *s, float dt, bool reset)
{
    for (uint32_t i = 0; i < s->part_count; i++) {
        view_scene_part *p = &s->parts[i];
        if (!p->spring)
            continue;
        float *pos = s->positions + 3 * (size_t)p->first_vertex;
        float *nrm = s->normals + 3 * (size_t)p->first_vertex;
        skin_part(s, p, pos, nrm);
        if (reset)
            ossa_spring_state_reset_to(p->spring, pos);
        else
            ossa_spring_update(p->spring, dt, pos);
        memcpy(p->spring_positions, pos, 3 * (size_t)p->vertex_count * sizeof(float));
    }
}

void view_scene_springs_step(view_scene *s, float dt)
{
    if (!s->spring_part_count || !isfinite(dt) || !(dt > 0.0f))
        return;
    /* Verlet steps assume small, even steps: a stalled frame must not fling the cloth. */
    springs_run(s, dt > VIEW_SPRING_MAX_DT ? VIEW_SPRING_MAX_DT : dt, false);
}

/* At rest where the current pose skins the cloth (Cal3D's resetPositions), not at the bind
 * pose: a seek shows the cloth hanging from the posed mesh. */
void view_scene_springs_reset(view_scene *s)
{
    springs_run(s, 0.0f, true);
}

void view_scene_skin(const view_scene *s, uint32_t first_part, uint32_t end_part, float *positions,
                     float *normals)
{
    for (uint32_t i = first_part; i < end_part && i < s->part_count; i++) {
        const view_scene_part *p = &s->parts[i];
        float *pos = positions + 3 * (size_t)p->first_vertex;
        float *nrm = normals + 3 * (size_t)p->first_vertex;
        if (view_scene_part_vertex_track(s, i)) {
            play_frames(s, p, pos, nrm);
            continue;
        }
        if (!p->skin) {
            size_t bytes = 3 * (size_t)p->vertex_count * sizeof(float);
            if (bytes) {
                memcpy(pos, p->submesh->positions, bytes);
                memcpy(nrm, p->submesh->normals, bytes);
            }
            continue;
        }
        skin_part(s, p, pos, nrm);
        if (p->spring)
            apply_springs(p, pos);
    }
}

void view_scene_bind_vertices(const view_scene *s, float *positions, float *normals, float *uvs,
                              uint16_t *bones, float *weights, uint32_t *max_influences)
{
    for (uint32_t i = 0; i < s->part_count; i++) {
        const view_scene_part *p = &s->parts[i];
        const ossa_submesh *sm = p->submesh;
        const uint32_t *source = p->skin ? ossa_skin_mesh_source(p->skin) : NULL;
        uint32_t most = 0;
        for (uint32_t o = 0; o < p->vertex_count; o++) {
            size_t at = (size_t)p->first_vertex + o;
            uint32_t v = source ? source[o] : o;
            bool pad = v == OSSA_SKIN_PAD_VERTEX;
            for (int k = 0; k < 3; k++) {
                if (positions)
                    positions[3 * at + k] = pad ? 0.0f : sm->positions[3 * (size_t)v + k];
                if (normals)
                    normals[3 * at + k] = pad ? 0.0f : sm->normals[3 * (size_t)v + k];
            }
            if (uvs) {
                bool has = !pad && sm->uv_set_count && sm->uvs;
                const float *uv = has ? sm->uvs + 2 * (size_t)sm->uv_set_count * v : NULL;
                uvs[2 * at] = has ? uv[0] : 0.0f;
                uvs[2 * at + 1] = has ? uv[1] : 0.0f;
            }
            uint32_t a = 0, e = 0;
            if (!pad && p->skin) {
                a = sm->influence_start[v];
                e = sm->influence_start[v + 1];
            }
            if (e - a > most)
                most = e - a;
            for (uint32_t k = 0; k < 8; k++) {
                bool used = a + k < e;
                if (bones)
                    bones[8 * at + k] = used ? (uint16_t)sm->influences[a + k].bone
                                             : (k == 0 ? VIEW_NO_BONE : 0);
                if (weights)
                    weights[8 * at + k] = used ? sm->influences[a + k].weight : 0.0f;
            }
        }
        if (max_influences)
            max_influences[i] = most;
    }
}

void view_scene_bind_gaps(const view_scene *s, float *gaps)
{
    for (uint32_t i = 0; i < s->part_count; i++) {
        const view_scene_part *p = &s->parts[i];
        const ossa_submesh *sm = p->submesh;
        const uint32_t *source = p->skin ? ossa_skin_mesh_source(p->skin) : NULL;
        for (uint32_t o = 0; o < p->vertex_count; o++) {
            float *g = gaps + 24 * ((size_t)p->first_vertex + o);
            memset(g, 0, 24 * sizeof *g);
            uint32_t v = source ? source[o] : o;
            if (v == OSSA_SKIN_PAD_VERTEX || !p->skin || !sm->influence_points)
                continue;
            uint32_t a = sm->influence_start[v], e = sm->influence_start[v + 1];
            for (uint32_t k = 0; k < 8 && a + k < e; k++)
                for (int c = 0; c < 3; c++)
                    g[3 * k + (uint32_t)c] =
                        (float)((double)sm->influence_points[3 * (size_t)(a + k) + c] -
                                (double)sm->influences[a + k].weight *
                                    (double)sm->positions[3 * (size_t)v + c]);
        }
    }
}

void view_scene_uvs(const view_scene *s, uint32_t part, bool bind, float *uvs)
{
    if (part >= s->part_count)
        return;
    const view_scene_part *p = &s->parts[part];
    const ossa_clip *clip = bind || !p->uv_tracked ? NULL : s->vertex_clip;
    float *file_uvs = p->skin ? s->frame_uvs : uvs;
    if (!p->uv_tracked) {
        /* No scratch was sized for this submesh: set 0 straight from the model. */
        const ossa_submesh *sm = p->submesh;
        const uint32_t *source = p->skin ? ossa_skin_mesh_source(p->skin) : NULL;
        for (uint32_t o = 0; o < p->vertex_count; o++) {
            uint32_t v = source ? source[o] : o;
            bool has = v != OSSA_SKIN_PAD_VERTEX && sm->uv_set_count && sm->uvs;
            uvs[2 * (size_t)o] = has ? sm->uvs[2 * (size_t)sm->uv_set_count * v] : 0.0f;
            uvs[2 * (size_t)o + 1] = has ? sm->uvs[2 * (size_t)sm->uv_set_count * v + 1] : 0.0f;
        }
        return;
    }
    if (ossa_uv_clip_eval(s->model, clip, p->mesh, p->submesh_index, s->vertex_time,
                          OSSA_WRAP_LOOP, file_uvs) != OSSA_OK)
        memset(file_uvs, 0, 2 * (size_t)p->submesh->vertex_count * sizeof(float));
    if (p->skin)
        scatter(p, file_uvs, 2, uvs);
}

/* The part that draws a submesh; part_count when none does. */
static uint32_t part_of(const view_scene *s, uint32_t mesh, uint32_t submesh)
{
    uint32_t part = 0;
    while (part < s->part_count &&
           (s->parts[part].mesh != mesh || s->parts[part].submesh_index != submesh))
        part++;
    return part;
}

/* A part's shape as it is drawn now (or in the bind pose), in file order. */
static const float *part_shape(const view_scene *s, uint32_t part, bool bind)
{
    const view_scene_part *p = &s->parts[part];
    if (bind || (!p->skin && !view_scene_part_vertex_track(s, part)))
        return p->submesh->positions;
    if (!p->skin) {
        play_frames(s, p, s->frame_positions, s->frame_normals);
        return s->frame_positions;
    }
    /* Skinned (or frames scattered) into layout order, then gathered back to file order. */
    view_scene_skin(s, part, part + 1, s->positions, s->normals);
    const uint32_t *source = ossa_skin_mesh_source(p->skin);
    const float *layout = s->positions + 3 * (size_t)p->first_vertex;
    for (uint32_t o = 0; o < p->vertex_count; o++)
        if (source[o] != OSSA_SKIN_PAD_VERTEX)
            memcpy(s->frame_positions + 3 * (size_t)source[o], layout + 3 * (size_t)o,
                   3 * sizeof(float));
    return s->frame_positions;
}

uint32_t view_scene_mount_lines(const view_scene *s, bool bind, float length, float *lines)
{
    const ossa_model *m = s->model;
    uint32_t placed = 0, shape_part = s->part_count;
    const float *shape = NULL;
    for (uint32_t i = 0; i < m->mount_count; i++) {
        /* Mounts on one submesh usually come together: its shape is made once for them. */
        uint32_t part = part_of(s, m->mounts[i].mesh, m->mounts[i].submesh);
        if (part == s->part_count)
            continue;
        if (part != shape_part) {
            shape = part_shape(s, part, bind);
            shape_part = part;
        }
        float t[3], r[4], sc[3];
        if (ossa_mount_transform(m, i, shape, t, r, sc) != OSSA_OK)
            continue;
        versor q = {r[0], r[1], r[2], r[3]};
        for (int axis = 0; axis < 3; axis++) {
            vec3 unit = {0.0f, 0.0f, 0.0f}, along;
            unit[axis] = length * sc[axis];
            glm_quat_rotatev(q, unit, along);
            float *line = lines + 6 * ((size_t)axis * m->mount_count + placed);
            for (int k = 0; k < 3; k++) {
                line[k] = t[k];
                line[3 + k] = t[k] + along[k];
            }
        }
        placed++;
    }
    return placed;
}

static void grow(float min[3], float max[3], const float *p)
{
    if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
        return; /* a wild pose must not wreck the camera */
    for (int k = 0; k < 3; k++) {
        if (p[k] < min[k])
            min[k] = p[k];
        if (p[k] > max[k])
            max[k] = p[k];
    }
}

static void bounds_begin(float min[3], float max[3])
{
    for (int k = 0; k < 3; k++) {
        min[k] = 1e30f;
        max[k] = -1e30f;
    }
}

/* Falls back to the joints, then to a unit box, when nothing was grown. */
static void bounds_end(const view_scene *s, const float *joints, float min[3], float max[3])
{
    if (min[0] > max[0])
        for (uint32_t i = 0; i < s->model->bone_count; i++)
            grow(min, max, joints + 3 * (size_t)i);
    if (min[0] > max[0])
        for (int k = 0; k < 3; k++) {
            min[k] = -0.5f;
            max[k] = 0.5f;
        }
}

void view_scene_bounds(const view_scene *s, float min[3], float max[3])
{
    view_scene_skin(s, 0, s->part_count, s->positions, s->normals);
    bounds_begin(min, max);
    for (uint32_t i = 0; i < s->part_count; i++) {
        const view_scene_part *p = &s->parts[i];
        if (p->hidden)
            continue;
        const uint32_t *source = p->skin ? ossa_skin_mesh_source(p->skin) : NULL;
        for (uint32_t o = 0; o < p->vertex_count; o++)
            if (!source || source[o] != OSSA_SKIN_PAD_VERTEX)
                grow(min, max, s->positions + 3 * ((size_t)p->first_vertex + o));
    }
    bounds_end(s, s->joints, min, max);
}

void view_scene_bind_bounds(const view_scene *s, float min[3], float max[3])
{
    bounds_begin(min, max);
    for (uint32_t i = 0; i < s->part_count; i++) {
        const view_scene_part *p = &s->parts[i];
        if (p->hidden)
            continue;
        for (uint32_t v = 0; v < p->submesh->vertex_count; v++)
            grow(min, max, p->submesh->positions + 3 * (size_t)v);
    }
    bounds_end(s, s->bind_joints, min, max);
}

const char *view_scene_kernel_name(const view_scene *s)
{
    switch (s->kernel) {
    case OSSA_SKIN_KERNEL_SCALAR: return "cpu scalar";
    case OSSA_SKIN_KERNEL_SSE2: return "cpu sse2";
    case OSSA_SKIN_KERNEL_AVX2: return "cpu avx2";
    case OSSA_SKIN_KERNEL_AVX512: return "cpu avx512";
    default: return "cpu";
    }
}
