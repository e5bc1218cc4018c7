#include "scene.h"

#include <cglm/cglm.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ossa/vertex_anim.h"

/* Threads of the pool that splits big parts (the instance's parallel_min_vertices decides
 * which: OSSA_INSTANCE_PARALLEL_MIN_VERTICES). */
enum { MAX_POOL_THREADS = 4 };

/* The parts' layout from the instance's parts, and a warning for each runtime feature a part
 * goes without; false when the layout overflows 32 bits or memory runs out. */
static bool build_parts(view_scene *s)
{
    const ossa_model *m = s->model;
    uint32_t count = ossa_instance_part_count(s->instance);
    size_t n = count ? count : 1;
    s->parts = calloc(n, sizeof *s->parts);
    s->first_vertex = calloc(n, sizeof *s->first_vertex);
    s->hidden = calloc(n, sizeof *s->hidden);
    if (!s->parts || !s->first_vertex || !s->hidden)
        return false;
    size_t at = 0;
    bool morph_parts = false;
    for (uint32_t i = 0; i < count; i++) {
        ossa_instance_part *p = &s->parts[s->part_count++];
        ossa_instance_part_info(s->instance, i, p, NULL);
        const ossa_submesh *sm = p->source;
        s->hidden[i] = (m->meshes[p->mesh].flags & OSSA_MESH_HIDDEN) != 0;
        if (p->skin_status != OSSA_OK)
            fprintf(stderr, "ossa-view: warning: mesh %u submesh %u is shown unskinned: %s\n",
                    p->mesh, p->submesh, ossa_status_name(p->skin_status));
        if (p->skin && sm->spring_count && sm->physique_weights && !p->spring)
            fprintf(stderr, "ossa-view: warning: mesh %u submesh %u: its springs do not run\n",
                    p->mesh, p->submesh);
        morph_parts |= p->skin && sm->morph_count;
        s->morph_part_count += p->morph_weights != NULL;
        s->spring_part_count += p->spring != NULL;
        s->first_vertex[i] = (uint32_t)at;
        at += p->output_count;
        /* GL draws take signed 32-bit vertex and index numbers. */
        if (at > INT32_MAX / 4 || p->index_count > INT32_MAX / 4)
            return false;
    }
    if (morph_parts && m->morph_clip_count && m->bone_count && !s->morph_mixer)
        fprintf(stderr, "ossa-view: warning: morph clips do not play\n");
    s->vertex_count = at;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        s->hidden_mesh_count += (m->meshes[i].flags & OSSA_MESH_HIDDEN) != 0;
    return true;
}

/* The frame's arrays (view_scene_prepare), sized once. */
static bool build_frame(view_scene *s)
{
    view_scene_frame *f = &s->frame;
    size_t nv = s->vertex_count ? s->vertex_count : 1, np = s->part_count ? s->part_count : 1;
    size_t mounts = s->model->mount_count ? s->model->mount_count : 1;
    f->positions = calloc(3 * nv, sizeof(float));
    f->normals = calloc(3 * nv, sizeof(float));
    f->uvs = calloc(2 * nv, sizeof(float));
    f->cpu = calloc(np, sizeof *f->cpu);
    f->vertex_frames = calloc(np, sizeof *f->vertex_frames);
    f->mount_lines = calloc(18 * mounts, sizeof(float));
    return f->positions && f->normals && f->uvs && f->cpu && f->vertex_frames && f->mount_lines;
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

static bool build_overlay(view_scene *s)
{
    const ossa_model *m = s->model;
    size_t nb = m->bone_count ? m->bone_count : 1;
    s->joints = calloc(3 * nb, sizeof(float));
    s->bind_joints = calloc(3 * nb, sizeof(float));
    s->bone_lines = calloc(6 * nb, sizeof(float));
    s->bind_bone_lines = calloc(6 * nb, sizeof(float));
    if (!s->joints || !s->bind_joints || !s->bone_lines || !s->bind_bone_lines)
        return false;
    bind_joint_positions(m, s->bind_joints);
    s->bone_line_count = lines_from_joints(m, s->bind_joints, s->bind_bone_lines);
    return true;
}

/* Joints and bone lines of the instance's current pose. */
static void update_overlay(view_scene *s)
{
    const ossa_model *m = s->model;
    if (!m->bone_count)
        return;
    const ossa_soa_pose *pose = ossa_instance_model_pose(s->instance);
    for (uint32_t i = 0; i < m->bone_count; i++) {
        s->joints[3 * (size_t)i] = pose->tx[i];
        s->joints[3 * (size_t)i + 1] = pose->ty[i];
        s->joints[3 * (size_t)i + 2] = pose->tz[i];
    }
    s->bone_line_count = lines_from_joints(m, s->joints, s->bone_lines);
}

/* The vertex clip as the instance holds it. */
static void sync_vertex_clip(view_scene *s)
{
    uint32_t clip = ossa_instance_vertex_clip(s->instance);
    s->vertex_clip = clip < s->model->clip_count ? &s->model->clips[clip] : NULL;
    s->vertex_time = ossa_instance_vertex_time(s->instance);
}

static void log_to_stderr(void *user, const char *message)
{
    (void)user;
    fprintf(stderr, "%s\n", message);
}

/* OSSA_SKIN_KERNEL=scalar|sse2|avx2|avx512 forces the CPU skinning kernel (the library never
 * reads the environment; the viewer does, and reports a fallback on stderr). Unset, empty or
 * auto: the kernel the calibration measures fastest here (ossa_skin_calibrate, a few ms), into
 * *choice; *measured says which. */
static ossa_skin_kernel kernel_from_environment(ossa_skin_choice *choice, bool *measured)
{
    const char *name = getenv("OSSA_SKIN_KERNEL");
    *measured = false;
    if (!name || !*name || strcmp(name, "auto") == 0) {
        if (ossa_skin_calibrate(NULL, choice, NULL) == OSSA_OK) {
            *measured = true;
            return choice->size[OSSA_SKIN_SIZE_SMALL].kernel;
        }
        return ossa_skin_kernel_best();
    }
    /* An unknown name stays an unknown request, which resolve reports and replaces. */
    ossa_skin_kernel k = OSSA_SKIN_KERNEL_COUNT;
    if (ossa_skin_kernel_parse(name, &k, NULL) != OSSA_OK)
        fprintf(stderr, "ossa-view: OSSA_SKIN_KERNEL=\"%s\" is not a kernel\n", name);
    const ossa_log_options log = {log_to_stderr, NULL};
    return ossa_skin_kernel_resolve(k, &log);
}

bool view_scene_init(view_scene *s, const ossa_model *m)
{
    memset(s, 0, sizeof *s);
    s->model = m;
    ossa_skin_choice choice;
    bool measured;
    s->kernel = kernel_from_environment(&choice, &measured);
    switch (s->kernel) {
    case OSSA_SKIN_KERNEL_SCALAR:
    case OSSA_SKIN_KERNEL_SSE2:
    case OSSA_SKIN_KERNEL_AVX2:
    case OSSA_SKIN_KERNEL_AVX512:
        snprintf(s->kernel_name, sizeof s->kernel_name, "cpu %s%s",
                 ossa_skin_kernel_name(s->kernel), measured ? " (measured)" : "");
        break;
    default: snprintf(s->kernel_name, sizeof s->kernel_name, "cpu"); break;
    }
    ossa_instance_desc desc = {.kernel = measured ? OSSA_SKIN_KERNEL_AUTO : s->kernel,
                               .choice = measured ? &choice : NULL};
    ossa_error err;
    if (ossa_instance_create(m, &desc, &s->instance, &err) != OSSA_OK) {
        char text[512];
        fprintf(stderr, "ossa-view: %s\n", ossa_error_format(&err, text, sizeof text));
        return false;
    }
    s->palette = ossa_instance_palette(s->instance);
    s->morph_mixer = ossa_instance_morph_mixer(s->instance);
    if (!build_parts(s) || !build_overlay(s) || !build_frame(s)) {
        view_scene_free(s);
        return false;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t threads = cpus > MAX_POOL_THREADS ? MAX_POOL_THREADS : cpus > 1 ? (uint32_t)cpus : 1;
    if (threads > 1 && s->vertex_count >= OSSA_INSTANCE_PARALLEL_MIN_VERTICES &&
        ossa_skin_pool_create(threads, &s->pool, NULL) != OSSA_OK)
        s->pool = NULL; /* skinning on one thread is still right */
    ossa_instance_set_pool(s->instance, s->pool);
    view_scene_pose(s, OSSA_INSTANCE_NO_CLIP, 0.0f);
    ossa_instance_set_morph_time(s->instance, 0.0f);
    ossa_instance_springs_reset(s->instance);
    view_scene_sync(s);
    return true;
}

void view_scene_free(view_scene *s)
{
    free(s->parts);
    free(s->first_vertex);
    free(s->hidden);
    /* The instance uses the pool: it goes first. */
    ossa_instance_destroy(s->instance);
    if (s->pool)
        ossa_skin_pool_destroy(s->pool);
    free(s->joints);
    free(s->bind_joints);
    free(s->bone_lines);
    free(s->bind_bone_lines);
    free(s->frame.positions);
    free(s->frame.normals);
    free(s->frame.uvs);
    free(s->frame.cpu);
    free(s->frame.vertex_frames);
    free(s->frame.mount_lines);
    memset(s, 0, sizeof *s);
}

void view_scene_pose(view_scene *s, uint32_t clip, float time)
{
    ossa_instance_pose_clip(s->instance, clip, time);
    sync_vertex_clip(s);
    update_overlay(s);
}

void view_scene_sync(view_scene *s)
{
    sync_vertex_clip(s);
    update_overlay(s);
    s->morph_time = ossa_instance_morph_time(s->instance);
}

const ossa_vertex_track *view_scene_part_vertex_track(const view_scene *s, uint32_t part)
{
    return ossa_instance_part_vertex_track(s->instance, part);
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

void view_scene_bounds(view_scene *s, float min[3], float max[3])
{
    view_scene_frame *f = &s->frame;
    view_scene_skin(s, 0, s->part_count, f->positions, f->normals);
    bounds_begin(min, max);
    for (uint32_t i = 0; i < s->part_count; i++) {
        const ossa_instance_part *p = &s->parts[i];
        if (s->hidden[i])
            continue;
        for (uint32_t o = 0; o < p->output_count; o++)
            if (!p->output_source || p->output_source[o] != OSSA_SKIN_PAD_VERTEX)
                grow(min, max, f->positions + 3 * ((size_t)s->first_vertex[i] + o));
    }
    bounds_end(s, s->joints, min, max);
}

void view_scene_bind_bounds(const view_scene *s, float min[3], float max[3])
{
    bounds_begin(min, max);
    for (uint32_t i = 0; i < s->part_count; i++) {
        const ossa_submesh *sm = s->parts[i].source;
        if (s->hidden[i])
            continue;
        for (uint32_t v = 0; v < sm->vertex_count; v++)
            grow(min, max, sm->positions + 3 * (size_t)v);
    }
    bounds_end(s, s->bind_joints, min, max);
}

const char *view_scene_kernel_name(const view_scene *s)
{
    return s->kernel_name;
}
