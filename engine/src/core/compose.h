/* The one composition of a skeleton's pose, parents first, as Cal3D composes it: the reference
 * path (ossa_local_to_model, reference.h) and the readers that derive inverse binds from a rest
 * pose (C3S) both use it, so both give the same bits. */
#ifndef OSSA_CORE_COMPOSE_H
#define OSSA_CORE_COMPOSE_H

#include "ossa/model.h"

/* The rest pose (3, 4 and 3 floats a bone). */
void ossa_compose_rest(const ossa_model *m, float *t, float *r, float *s);

/* Local TRS to model TRS: t = P.t + P.r (P.s * t) (rotation not renormalised, as Cal3D),
 * r = P.r r, s = P.s s. */
void ossa_compose_local_to_model(const ossa_model *m, const float *lt, const float *lr,
                                 const float *ls, float *mt, float *mr, float *ms);

/* q v q* without renormalising q, as Cal3D rotates vectors (a blended, non-unit q also scales
 * v by |q|^2); the same arithmetic as pose_jobs.c's rotate(). */
void ossa_compose_rotate(const float *q, const float *v, float *out);

#endif
