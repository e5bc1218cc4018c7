#include "scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ossa/anim.h"

bool view_scene_init(view_scene *s, const ossa_model *m)
{
    memset(s, 0, sizeof *s);
    s->model = m;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++)
            s->vertex_count += m->meshes[i].submeshes[j].vertex_count;
    size_t nb = m->bone_count ? m->bone_count : 1;
    size_t nv = s->vertex_count ? s->vertex_count : 1;
    /* calloc checks the count x size products for overflow. */
    s->positions = calloc(3 * nv, sizeof(float));
    s->normals = calloc(3 * nv, sizeof(float));
    s->bone_lines = calloc(6 * nb, sizeof(float));
    s->lt = calloc(3 * nb, sizeof(float));
    s->lr = calloc(4 * nb, sizeof(float));
    s->ls = calloc(3 * nb, sizeof(float));
    s->mt = calloc(3 * nb, sizeof(float));
    s->mr = calloc(4 * nb, sizeof(float));
    s->ms = calloc(3 * nb, sizeof(float));
    s->palette = calloc(12 * nb, sizeof(float));
    if (!s->positions || !s->normals || !s->bone_lines || !s->lt || !s->lr || !s->ls || !s->mt ||
        !s->mr || !s->ms || !s->palette) {
        view_scene_free(s);
        return false;
    }
    view_scene_pose(s, NULL, 0.0f);
    return true;
}

void view_scene_free(view_scene *s)
{
    free(s->positions);
    free(s->normals);
    free(s->bone_lines);
    free(s->lt);
    free(s->lr);
    free(s->ls);
    free(s->mt);
    free(s->mr);
    free(s->ms);
    free(s->palette);
    memset(s, 0, sizeof *s);
}

void view_scene_pose(view_scene *s, const ossa_clip *clip, float time)
{
    const ossa_model *m = s->model;
    size_t off = 0;
    if (m->bone_count) {
        ossa_pose_rest(m, s->lt, s->lr, s->ls);
        if (clip)
            ossa_sample_clip(m, clip, ossa_clip_wrap_time(clip, time), OSSA_TIME_LOOP,
                             s->lt, s->lr, s->ls);
        ossa_local_to_model(m, s->lt, s->lr, s->ls, s->mt, s->mr, s->ms);
        ossa_skin_palette(m, s->mt, s->mr, s->ms, s->palette);
    }
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            size_t n = 3 * (size_t)sm->vertex_count;
            /* Without a skeleton the influences name bones that do not exist: show the bind
             * pose rather than index a palette that is not there. */
            if (m->bone_count && sm->influence_start) {
                ossa_skin_submesh_scalar(sm, s->palette, s->positions + off, s->normals + off);
            } else if (n) {
                memcpy(s->positions + off, sm->positions, n * sizeof(float));
                memcpy(s->normals + off, sm->normals, n * sizeof(float));
            }
            off += n;
        }
    s->bone_line_count = 0;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        int32_t p = m->bones[i].parent;
        if (p < 0)
            continue;
        float *line = s->bone_lines + 6 * (size_t)s->bone_line_count++;
        memcpy(line, s->mt + 3 * (size_t)p, 3 * sizeof(float));
        memcpy(line + 3, s->mt + 3 * (size_t)i, 3 * sizeof(float));
    }
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

void view_scene_bounds(const view_scene *s, float min[3], float max[3])
{
    for (int k = 0; k < 3; k++) {
        min[k] = 1e30f;
        max[k] = -1e30f;
    }
    for (size_t v = 0; v < s->vertex_count; v++)
        grow(min, max, s->positions + 3 * v);
    if (!s->vertex_count)
        for (uint32_t i = 0; i < s->model->bone_count; i++)
            grow(min, max, s->mt + 3 * (size_t)i);
    if (min[0] > max[0]) {
        for (int k = 0; k < 3; k++) {
            min[k] = -0.5f;
            max[k] = 0.5f;
        }
    }
}
