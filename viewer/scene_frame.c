/* What the scene hands the renderer (scene.h): each frame's CPU output (view_scene_prepare) and,
 * once, the bind data of the layout (view_scene_bind_data). */
#include "scene.h"

#include <cglm/cglm.h>
#include <stdlib.h>
#include <string.h>

void view_scene_skin(const view_scene *s, uint32_t first_part, uint32_t end_part, float *positions,
                     float *normals)
{
    for (uint32_t i = first_part; i < end_part && i < s->part_count; i++) {
        size_t at = 3 * (size_t)s->first_vertex[i];
        ossa_instance_span span = {positions + at, normals + at, s->parts[i].output_count};
        ossa_instance_skin(s->instance, i, 1, &span, NULL);
    }
}

void view_scene_uvs(const view_scene *s, uint32_t part, bool bind, float *uvs)
{
    /* uvs holds the part's output_count UVs, as the callers size it */
    ossa_instance_uvs(s->instance, part, bind, uvs, s->parts[part].output_count, NULL);
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

void view_scene_prepare(view_scene *s, const view_scene_wants *wants)
{
    view_scene_frame *f = &s->frame;
    f->cpu_any = false;
    for (uint32_t i = 0; i < s->part_count; i++) {
        const ossa_instance_part *p = &s->parts[i];
        bool drawn = !s->hidden[i] && p->index_count;
        f->vertex_frames[i] = drawn && ossa_instance_part_vertex_track(s->instance, i) != NULL;
        /* A part playing vertex frames is written here in either skinning mode. */
        f->cpu[i] = drawn && !wants->bind &&
                    (!wants->cpu_parts || wants->cpu_parts[i] || f->vertex_frames[i]);
        if (f->cpu[i])
            view_scene_skin(s, i, i + 1, f->positions, f->normals);
        if (drawn && p->uv_tracked)
            view_scene_uvs(s, i, wants->bind, f->uvs + 2 * (size_t)s->first_vertex[i]);
        f->cpu_any |= f->cpu[i];
    }
    f->mounts_placed = wants->mount_length > 0.0f
                           ? view_scene_mount_lines(s, wants->bind, wants->mount_length,
                                                    f->mount_lines)
                           : 0;
}

void view_scene_bind_vertices(const view_scene *s, float *positions, float *normals, float *uvs,
                              uint16_t *bones, float *weights, uint32_t *max_influences)
{
    for (uint32_t i = 0; i < s->part_count; i++) {
        const ossa_instance_part *p = &s->parts[i];
        const ossa_submesh *sm = p->source;
        uint32_t most = 0;
        for (uint32_t o = 0; o < p->output_count; o++) {
            size_t at = (size_t)s->first_vertex[i] + o;
            uint32_t v = p->output_source ? p->output_source[o] : o;
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
        const ossa_instance_part *p = &s->parts[i];
        const ossa_submesh *sm = p->source;
        for (uint32_t o = 0; o < p->output_count; o++) {
            float *g = gaps + 24 * ((size_t)s->first_vertex[i] + o);
            memset(g, 0, 24 * sizeof *g);
            uint32_t v = p->output_source ? p->output_source[o] : o;
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

void view_scene_bind_free(view_scene_bind *b)
{
    free(b->positions);
    free(b->normals);
    free(b->uvs);
    free(b->weights);
    free(b->gaps);
    free(b->bones);
    free(b->max_influences);
    memset(b, 0, sizeof *b);
}

bool view_scene_bind_data(const view_scene *s, view_scene_bind *b)
{
    memset(b, 0, sizeof *b);
    size_t nv = s->vertex_count ? s->vertex_count : 1;
    b->positions = calloc(3 * nv, sizeof *b->positions);
    b->normals = calloc(3 * nv, sizeof *b->normals);
    b->uvs = calloc(2 * nv, sizeof *b->uvs);
    b->weights = calloc(8 * nv, sizeof *b->weights);
    b->gaps = calloc(24 * nv, sizeof *b->gaps);
    b->bones = calloc(8 * nv, sizeof *b->bones);
    b->max_influences = calloc(s->part_count ? s->part_count : 1, sizeof *b->max_influences);
    if (!b->positions || !b->normals || !b->uvs || !b->weights || !b->gaps || !b->bones ||
        !b->max_influences) {
        view_scene_bind_free(b);
        return false;
    }
    view_scene_bind_vertices(s, b->positions, b->normals, b->uvs, b->bones, b->weights,
                             b->max_influences);
    view_scene_bind_gaps(s, b->gaps);
    view_scene_bind_bounds(s, b->min, b->max);
    return true;
}
