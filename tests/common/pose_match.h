/* Comparing two models' poses when their files order, split or weld vertices differently
 * (pose_match.c): every drawn vertex skinned as `ossa sample` plays a clip, the vertices of one
 * model matched to those of the other that stand at the same place at a clip's start, and the
 * largest distance between each vertex and its best-agreeing match at later times. */
#ifndef OSSA_POSE_MATCH_H
#define OSSA_POSE_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include "ossa/ossa.h"

typedef struct pm_posed {
    size_t count;   /* drawn vertices: every submesh of every mesh not hidden, in order */
    float *pos;     /* 3 per vertex */
    bool *blended;  /* more than one influence */
} pm_posed;

/* false when out of memory. */
bool pm_posed_init(pm_posed *p, const ossa_model *m);
void pm_posed_free(pm_posed *p);

/* Skins every drawn submesh at time t of clip, played as a loop (clip NULL: the rest pose); a
 * submesh with a vertex track in the clip plays its frames instead. */
void pm_pose(const ossa_model *m, const ossa_clip *clip, float t, pm_posed *p);

/* Turns posed positions from Z up to Y up, (x, y, z) -> (x, z, -y), as CFF and glTF writers do. */
void pm_turn_to_y_up(pm_posed *p);

/* For each vertex of got: the vertices of want within tol of it (want's blended vertices left
 * out when rigid). */
typedef struct pm_match {
    size_t *first; /* got->count + 1 offsets into candidates */
    size_t *candidates;
} pm_match;

bool pm_match_build(const pm_posed *want, const pm_posed *got, bool rigid, float tol,
                    pm_match *mt);
void pm_match_free(pm_match *mt);

typedef struct pm_result {
    double worst;           /* largest distance of a matched vertex from its best candidate */
    size_t compared, unmatched;
} pm_result;

pm_result pm_compare(const pm_posed *want, const pm_posed *got, const pm_match *mt);

/* The diagonal of the bind pose's bounds (1 for a model without vertices). */
float pm_model_size(const ossa_model *m);

#endif
