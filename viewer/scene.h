/* What ossa-view draws, without GL: the model posed at a clip time and skinned into one flat
 * array of positions and normals (every submesh of every mesh, in order), the bounds of that
 * pose and the bone lines of the overlay. */
#ifndef OSSA_VIEW_SCENE_H
#define OSSA_VIEW_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include "ossa/model.h"

typedef struct view_scene {
    const ossa_model *model;  /* not owned */
    size_t vertex_count;      /* all submeshes together */
    float *positions;         /* 3 * vertex_count, skinned */
    float *normals;           /* 3 * vertex_count */
    float *bone_lines;        /* 6 floats (two points) per bone with a parent */
    uint32_t bone_line_count;
    /* Pose scratch: local and model transforms and the skinning palette, per bone. */
    float *lt, *lr, *ls, *mt, *mr, *ms, *palette;
} view_scene;

/* Allocates the buffers for a model and poses it at rest; false when out of memory. */
bool view_scene_init(view_scene *s, const ossa_model *m);
void view_scene_free(view_scene *s);
/* Poses the model at time (wrapped into the clip) of clip, or at rest when clip is NULL, and
 * skins every vertex and updates the bone lines. */
void view_scene_pose(view_scene *s, const ossa_clip *clip, float time);
/* Box around the skinned vertices (the bones' positions when there are none, a unit box around
 * the origin when there is nothing at all). */
void view_scene_bounds(const view_scene *s, float min[3], float max[3]);

#endif
