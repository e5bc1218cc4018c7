/* The engine's WebAssembly entry (engine_api.h): loading, playing, skinning. */
#include <emscripten/emscripten.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "demo.h"
#include "engine_internal.h"

/* ossa-view's cross-fade of clip changes (viewer --fade's default). */
#define WEB_FADE_SECONDS 0.25f

static char last_error[1024];

void web_set_error(const ossa_error *err)
{
    ossa_error_format(err, last_error, sizeof last_error);
}

void web_fail(ossa_status status, const char *message)
{
    ossa_error err = {.status = status, .offset = -1};
    strncpy(err.message, message, sizeof err.message - 1);
    web_set_error(&err);
}

EMSCRIPTEN_KEEPALIVE const char *ossa_web_error(void)
{
    return last_error;
}

static void free_per_part(float **bufs, uint32_t parts)
{
    for (uint32_t p = 0; bufs && p < parts; p++)
        free(bufs[p]);
    free(bufs);
}

EMSCRIPTEN_KEEPALIVE void ossa_web_destroy(web_character *c)
{
    if (!c)
        return;
    for (uint32_t p = 0; c->spans && p < c->parts; p++) {
        free(c->spans[p].positions);
        free(c->spans[p].normals);
    }
    free(c->spans);
    free_per_part(c->bind_positions, c->parts);
    free_per_part(c->bind_normals, c->parts);
    free_per_part(c->uvs, c->parts);
    free_per_part(c->colors, c->parts);
    free(c->uv_animated);
    free(c->joints);
    free(c->bind_joints);
    free(c->info_json);
    ossa_texture_file_free(&c->texture);
    free(c->glb);
    ossa_instance_destroy(c->inst);
    ossa_model_destroy(c->model);
    free(c);
}

static web_character *out_of_memory(web_character *c)
{
    web_fail(OSSA_ERR_NOMEM, "out of memory for the skinned outputs");
    ossa_web_destroy(c);
    return NULL;
}

/* A file-order stream of `width` floats a vertex in the part's output order (padding: zeros). */
static float *in_output_order(const ossa_instance_part *info, const float *src, uint32_t width)
{
    float *out = calloc((size_t)width * (info->output_count ? info->output_count : 1),
                        sizeof(float));
    if (!out)
        return NULL;
    for (uint32_t o = 0; o < info->output_count; o++) {
        uint32_t v = info->output_source ? info->output_source[o] : o;
        if (v < info->vertex_count)
            memcpy(out + (size_t)width * o, src + (size_t)width * v, width * sizeof(float));
    }
    return out;
}

/* The joints of the bind pose: each bone's origin, from its inverse bind transform (as
 * ossa-view's bone lines in the bind pose). */
static void bind_joint_positions(const ossa_model *m, float *out)
{
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const ossa_bone *b = &m->bones[i];
        /* origin = -R^-1 t, with R^-1 the conjugate of the inverse bind rotation. */
        float x = -b->inv_bind_r[0], y = -b->inv_bind_r[1], z = -b->inv_bind_r[2];
        float w = b->inv_bind_r[3];
        float n = sqrtf(x * x + y * y + z * z + w * w);
        if (n > 0) {
            x /= n; y /= n; z /= n; w /= n;
        }
        float vx = -b->inv_bind_t[0], vy = -b->inv_bind_t[1], vz = -b->inv_bind_t[2];
        float tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
        out[3 * i] = vx + w * tx + (y * tz - z * ty);
        out[3 * i + 1] = vy + w * ty + (z * tx - x * tz);
        out[3 * i + 2] = vz + w * tz + (x * ty - y * tx);
    }
}

/* The outputs and the per-part streams the page draws. */
static web_character *prepare(web_character *c)
{
    c->parts = ossa_instance_part_count(c->inst);
    size_t n = c->parts ? c->parts : 1, nb = c->model->bone_count ? c->model->bone_count : 1;
    c->spans = calloc(n, sizeof *c->spans);
    c->bind_positions = calloc(n, sizeof(float *));
    c->bind_normals = calloc(n, sizeof(float *));
    c->uvs = calloc(n, sizeof(float *));
    c->colors = calloc(n, sizeof(float *));
    c->uv_animated = calloc(n, sizeof(bool));
    c->joints = calloc(3 * nb, sizeof(float));
    c->bind_joints = calloc(3 * nb, sizeof(float));
    if (!c->spans || !c->bind_positions || !c->bind_normals || !c->uvs || !c->colors ||
        !c->uv_animated || !c->joints || !c->bind_joints)
        return out_of_memory(c);
    bind_joint_positions(c->model, c->bind_joints);
    for (uint32_t p = 0; p < c->parts; p++) {
        ossa_instance_part info;
        ossa_instance_part_info(c->inst, p, &info, NULL);
        size_t outputs = info.output_count ? info.output_count : 1;
        c->spans[p].positions = malloc(3 * outputs * sizeof(float));
        c->spans[p].normals = malloc(3 * outputs * sizeof(float));
        c->spans[p].capacity = info.output_count;
        c->bind_positions[p] = in_output_order(&info, info.source->positions, 3);
        c->bind_normals[p] = in_output_order(&info, info.source->normals, 3);
        if (!c->spans[p].positions || !c->spans[p].normals || !c->bind_positions[p] ||
            !c->bind_normals[p])
            return out_of_memory(c);
        if (info.source->colors && !(c->colors[p] = in_output_order(&info, info.source->colors, 3)))
            return out_of_memory(c);
        c->uv_animated[p] = info.uv_tracked;
        if (info.source->uv_set_count) {
            if (!(c->uvs[p] = calloc(2 * outputs, sizeof(float))))
                return out_of_memory(c);
            ossa_instance_uvs(c->inst, p, true, c->uvs[p], info.output_count, NULL);
        }
    }
    return c;
}

static web_character *create(const char *const *paths, uint32_t count, bool as_viewer)
{
    ossa_error err = {0};
    web_character *c = calloc(1, sizeof *c);
    last_error[0] = 0;
    if (!c)
        return out_of_memory(NULL);
    c->fade_seconds = WEB_FADE_SECONDS;
    /* ossa-view's load: a damaged file of a set is left out and named. */
    ossa_load_options viewer = {.skip_bad_files = true};
    ossa_status st = count ? ossa_load_files(paths, count, as_viewer ? &viewer : NULL, &c->model,
                                             &err)
                           : ossa_demo_model(&c->model, &err);
    if (st != OSSA_OK || ossa_instance_create(c->model, NULL, &c->inst, &err) != OSSA_OK) {
        web_set_error(&err);
        ossa_web_destroy(c);
        return NULL;
    }
    return prepare(c);
}

EMSCRIPTEN_KEEPALIVE web_character *ossa_web_load(const char *const *paths, uint32_t count)
{
    return create(paths, count, false);
}

EMSCRIPTEN_KEEPALIVE web_character *ossa_web_open(const char *const *paths, uint32_t count)
{
    web_character *c = create(paths, count, true);
    if (c && ossa_web_tick(c, 0.0f) != 0) {
        ossa_web_destroy(c);
        return NULL;
    }
    return c;
}

EMSCRIPTEN_KEEPALIVE uint32_t ossa_web_clip_count(const web_character *c)
{
    return c->model->clip_count;
}

EMSCRIPTEN_KEEPALIVE const char *ossa_web_clip_name(const web_character *c, uint32_t clip)
{
    return clip < c->model->clip_count ? c->model->clips[clip].name : "";
}

EMSCRIPTEN_KEEPALIVE uint32_t ossa_web_part_count(const web_character *c)
{
    return c->parts;
}

EMSCRIPTEN_KEEPALIVE const char *ossa_web_kernel(const web_character *c)
{
    return ossa_skin_kernel_name(ossa_instance_kernel(c->inst));
}

EMSCRIPTEN_KEEPALIVE const char *ossa_web_default_kernel(void)
{
    return ossa_skin_kernel_name(ossa_skin_kernel_resolve(OSSA_SKIN_KERNEL_AUTO, NULL));
}

/* Every part into its buffers (or the bind vertices), the joints and the animated UVs. */
static int skin_all(web_character *c)
{
    ossa_error err = {0};
    last_error[0] = 0;
    uint32_t bones = c->model->bone_count;
    if (c->bind) {
        for (uint32_t p = 0; p < c->parts; p++) {
            size_t bytes = 3 * (size_t)c->spans[p].capacity * sizeof(float);
            memcpy(c->spans[p].positions, c->bind_positions[p], bytes);
            memcpy(c->spans[p].normals, c->bind_normals[p], bytes);
        }
        memcpy(c->joints, c->bind_joints, 3 * (size_t)bones * sizeof(float));
        return 0;
    }
    if (ossa_instance_skin(c->inst, 0, c->parts, c->spans, &err) != OSSA_OK) {
        web_set_error(&err);
        return -1;
    }
    const ossa_soa_pose *pose = ossa_instance_model_pose(c->inst);
    for (uint32_t i = 0; pose && i < bones; i++) {
        c->joints[3 * i] = pose->tx[i];
        c->joints[3 * i + 1] = pose->ty[i];
        c->joints[3 * i + 2] = pose->tz[i];
    }
    for (uint32_t p = 0; p < c->parts; p++)
        if (c->uv_animated[p] && c->uvs[p])
            ossa_instance_uvs(c->inst, p, false, c->uvs[p], c->spans[p].capacity, NULL);
    return 0;
}

EMSCRIPTEN_KEEPALIVE int ossa_web_pose(web_character *c, uint32_t clip, float time)
{
    ossa_instance_pose_clip(c->inst, clip, time);
    ossa_instance_springs_reset(c->inst);
    return skin_all(c);
}

EMSCRIPTEN_KEEPALIVE int ossa_web_tick(web_character *c, float dt)
{
    ossa_instance_tick(c->inst, isfinite(dt) && dt > 0 ? dt : 0.0f);
    return skin_all(c);
}

/* Time jumped (a step, a seek): the pose shown at once, the cloth at rest where it skins. */
static int jumped(web_character *c)
{
    ossa_instance_jumped(c->inst);
    ossa_instance_show(c->inst);
    ossa_instance_springs_reset(c->inst);
    return skin_all(c);
}

static int switch_clip(web_character *c, uint32_t to)
{
    const ossa_clock *k = ossa_instance_clock(c->inst);
    if (to >= k->clip_count || to == k->clip)
        return skin_all(c);
    ossa_instance_switch_clip(c->inst, to, c->fade_seconds, NULL);
    ossa_instance_show(c->inst);
    return skin_all(c);
}

EMSCRIPTEN_KEEPALIVE int ossa_web_act(web_character *c, int action, int arg)
{
    ossa_clock *k = ossa_instance_clock(c->inst);
    switch (action) {
    case OSSA_WEB_PLAY_PAUSE: ossa_clock_toggle(k); break;
    case OSSA_WEB_STEP: ossa_clock_step_frames(k, arg); return jumped(c);
    case OSSA_WEB_FIRST: ossa_clock_first_frame(k); return jumped(c);
    case OSSA_WEB_LAST: ossa_clock_last_frame_seek(k); return jumped(c);
    case OSSA_WEB_SPEED: ossa_clock_speed_step(k, arg); break;
    case OSSA_WEB_REVERSE: ossa_clock_reverse(k); break;
    case OSSA_WEB_MODE: ossa_clock_cycle_mode(k); break;
    case OSSA_WEB_CLIP: return switch_clip(c, arg < 0 ? UINT32_MAX : (uint32_t)arg);
    case OSSA_WEB_CLIP_STEP:
        if (k->clip_count > 1)
            return switch_clip(c, (uint32_t)(((int64_t)k->clip + arg % (int64_t)k->clip_count +
                                              k->clip_count) % k->clip_count));
        break;
    default: break;
    }
    return skin_all(c);
}

EMSCRIPTEN_KEEPALIVE int ossa_web_seek(web_character *c, uint32_t clip, float time)
{
    ossa_instance_seek_clock(c->inst, clip, isfinite(time) ? time : 0.0f);
    return jumped(c);
}

EMSCRIPTEN_KEEPALIVE int ossa_web_set_bind(web_character *c, int on)
{
    c->bind = on != 0;
    if (!c->bind)
        ossa_instance_show(c->inst);
    return skin_all(c);
}

EMSCRIPTEN_KEEPALIVE const float *ossa_web_joints(web_character *c)
{
    return c->joints;
}

/* Whether texture row 0 is the image's bottom for a mesh of this format, as ossa-view draws it
 * (viewer/texture.c): Cal3D and the demo yes; SKM (Quake: t = 0 is the top row), C3S and CFF
 * no. */
static bool texture_origin_bottom(ossa_format mesh_format)
{
    return mesh_format != OSSA_FORMAT_SKM && mesh_format != OSSA_FORMAT_C3S &&
           mesh_format != OSSA_FORMAT_CFF;
}

EMSCRIPTEN_KEEPALIVE uintptr_t ossa_web_part(const web_character *c, uint32_t part, int what)
{
    ossa_instance_part info;
    if (part >= c->parts || ossa_instance_part_info(c->inst, part, &info, NULL) != OSSA_OK)
        return 0;
    switch (what) {
    case 0: return info.mesh;
    case 1: return info.submesh;
    case 2: return info.output_count;
    case 3: return info.index_count;
    case 4: return (uintptr_t)c->spans[part].positions;
    case 5: return (uintptr_t)c->spans[part].normals;
    case 6: return (uintptr_t)info.indices;
    case 7: return (uintptr_t)info.output_source;
    case 8: return info.vertex_count;
    case 9: return (uintptr_t)(intptr_t)info.source->material;
    case 10: return (info.source->flags & OSSA_SUBMESH_TWO_SIDED) != 0;
    case 11: return (uintptr_t)c->uvs[part];
    case 12: return (uintptr_t)c->colors[part];
    case 13: return c->uv_animated[part];
    case 14: return texture_origin_bottom(c->model->meshes[info.mesh].format);
    case 15: return (c->model->meshes[info.mesh].flags & OSSA_MESH_HIDDEN) != 0;
    default: return 0;
    }
}
