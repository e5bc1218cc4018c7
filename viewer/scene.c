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
    s->parts = calloc(count ? count : 1, sizeof *s->parts);
    if (!s->parts)
        return false;
    size_t at = 0;
    bool morph_parts = false;
    for (uint32_t i = 0; i < count; i++) {
        ossa_instance_part info;
        ossa_instance_part_info(s->instance, i, &info);
        const ossa_submesh *sm = info.source;
        view_scene_part *p = &s->parts[s->part_count++];
        p->submesh = sm;
        p->mesh = info.mesh;
        p->submesh_index = info.submesh;
        p->hidden = (m->meshes[info.mesh].flags & OSSA_MESH_HIDDEN) != 0;
        p->two_sided = (sm->flags & OSSA_SUBMESH_TWO_SIDED) != 0;
        p->frame_tracked = info.frame_tracked;
        p->uv_tracked = info.uv_tracked;
        p->skin = info.skin;
        p->vertex_count = info.output_count;
        p->index_count = info.index_count;
        p->indices = info.indices;
        p->morph_weights = info.morph_weights;
        p->spring = info.spring;
        p->spring_positions = info.spring_positions;
        if (info.skin_status != OSSA_OK)
            fprintf(stderr, "ossa-view: warning: mesh %u submesh %u is shown unskinned: %s\n",
                    info.mesh, info.submesh, ossa_status_name(info.skin_status));
        if (info.skin && sm->spring_count && sm->physique_weights && !info.spring)
            fprintf(stderr, "ossa-view: warning: mesh %u submesh %u: its springs do not run\n",
                    info.mesh, info.submesh);
        morph_parts |= info.skin && sm->morph_count;
        s->morph_part_count += info.morph_weights != NULL;
        s->spring_part_count += info.spring != NULL;
        p->first_vertex = (uint32_t)at;
        at += p->vertex_count;
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

/* OSSA_SKIN_KERNEL=scalar|sse2|avx2|avx512|auto forces the CPU skinning kernel (the library
 * never reads the environment; the viewer does, and reports a fallback on stderr). */
static ossa_skin_kernel kernel_from_environment(void)
{
    const char *name = getenv("OSSA_SKIN_KERNEL");
    if (!name || !*name)
        return ossa_skin_kernel_best();
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
    s->kernel = kernel_from_environment();
    ossa_instance_desc desc = {.kernel = s->kernel};
    ossa_error err;
    if (ossa_instance_create(m, &desc, &s->instance, &err) != OSSA_OK) {
        char text[512];
        fprintf(stderr, "ossa-view: %s\n", ossa_error_format(&err, text, sizeof text));
        return false;
    }
    s->palette = ossa_instance_palette(s->instance);
    s->morph_mixer = ossa_instance_morph_mixer(s->instance);
    if (!build_parts(s) || !build_overlay(s)) {
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
    if (threads > 1 && s->vertex_count >= OSSA_INSTANCE_PARALLEL_MIN_VERTICES &&
        ossa_skin_pool_create(threads, &s->pool, NULL) != OSSA_OK)
        s->pool = NULL; /* skinning on one thread is still right */
    ossa_instance_set_pool(s->instance, s->pool);
    view_scene_pose(s, OSSA_INSTANCE_NO_CLIP, 0.0f);
    view_scene_set_morph_time(s, 0.0f);
    view_scene_springs_reset(s);
    return true;
}

void view_scene_free(view_scene *s)
{
    free(s->parts);
    /* The instance uses the pool: it goes first. */
    ossa_instance_destroy(s->instance);
    if (s->pool)
        ossa_skin_pool_destroy(s->pool);
    free(s->joints);
    free(s->bind_joints);
    free(s->bone_lines);
    free(s->bind_bone_lines);
    free(s->positions);
    free(s->normals);
    memset(s, 0, sizeof *s);
}

void view_scene_set_vertex_clip(view_scene *s, uint32_t clip, float time)
{
    ossa_instance_set_vertex_clip(s->instance, clip, time);
    sync_vertex_clip(s);
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

void view_scene_pose_local(view_scene *s, const ossa_soa_pose *local)
{
    ossa_instance_pose_local(s->instance, local);
    update_overlay(s);
}

const ossa_vertex_track *view_scene_part_vertex_track(const view_scene *s, uint32_t part)
{
    return ossa_instance_part_vertex_track(s->instance, part);
}

void view_scene_set_morph_time(view_scene *s, float time)
{
    ossa_instance_set_morph_time(s->instance, time);
    s->morph_time = ossa_instance_morph_time(s->instance);
}

void view_scene_springs_step(view_scene *s, float dt)
{
    ossa_instance_springs_step(s->instance, dt);
}

void view_scene_springs_reset(view_scene *s)
{
    ossa_instance_springs_reset(s->instance);
}

void view_scene_skin(const view_scene *s, uint32_t first_part, uint32_t end_part, float *positions,
                     float *normals)
{
    for (uint32_t i = first_part; i < end_part && i < s->part_count; i++) {
        const view_scene_part *p = &s->parts[i];
        ossa_instance_span span = {positions + 3 * (size_t)p->first_vertex,
                                   normals + 3 * (size_t)p->first_vertex, p->vertex_count};
        ossa_instance_skin(s->instance, i, 1, &span, NULL);
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
    /* uvs holds the part's vertex_count (its output count) UVs, as the callers size it */
    ossa_instance_uvs(s->instance, part, bind, uvs, s->parts[part].vertex_count, NULL);
}

uint32_t view_scene_mount_lines(const view_scene *s, bool bind, float length, float *lines)
{
    const ossa_model *m = s->model;
    uint32_t placed = 0;
    for (uint32_t i = 0; i < m->mount_count; i++) {
        float t[3], r[4], sc[3];
        if (ossa_instance_mount(s->instance, i, bind, t, r, sc, NULL) != OSSA_OK)
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
