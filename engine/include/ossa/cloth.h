/* Cal3D springs (cloth): per-instance spring state of a skin mesh (ossa/skin.h) whose submesh
 * has springs, stepped after the skin job. */
#ifndef OSSA_CLOTH_H
#define OSSA_CLOTH_H

#include <stdint.h>
#include "ossa/skin.h"
#include "ossa/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Cal3D springs ---------------------------------------------------------------------- */

typedef struct ossa_spring_state ossa_spring_state;

/* Per-instance spring state of a mesh whose submesh had springs (OSSA_ERR_INVALID_ARGUMENT
 * otherwise). Vertices with physique weight > 0 belong to the spring system and start at their
 * bind positions (morphs are not applied to them). */
OSSA_API ossa_status ossa_spring_state_create(const ossa_skin_mesh *mesh, ossa_spring_state **out,
                                              ossa_error *err);
OSSA_API void ossa_spring_state_destroy(ossa_spring_state *state);
/* Back to bind positions, at rest. */
OSSA_API void ossa_spring_state_reset(ossa_spring_state *state);
/* At rest at the given positions (output order, as the mesh's skin job wrote them; 3 floats a
 * vertex, vertex_capacity vertices): what Cal3D's CalSpringSystem::resetPositions does with the
 * skinned vertices, for a jump in time (a seek or a new clip) without the cloth snapping back
 * to the bind pose. A spring vertex whose given position is not finite starts at its bind
 * position; NULL positions: ossa_spring_state_reset. OSSA_ERR_INVALID_ARGUMENT (nothing
 * changed) for a NULL state or vertex_capacity below the mesh's output count. */
OSSA_API ossa_status ossa_spring_state_reset_to(ossa_spring_state *state, const float *positions,
                                                uint32_t vertex_capacity, ossa_error *err);
/* One Cal3D spring-system step, called after the full-mesh skin job has written out_positions
 * (output order; out_capacity: the vertices it holds, >= the mesh's output count, else
 * OSSA_ERR_INVALID_ARGUMENT and nothing is written): every spring vertex does a Verlet step with force (0, 0.5, 0) + (0, 0, -98.1) *
 * weight (pos += (pos - old) * 0.99 + F / weight * dt^2), then 2 relaxation passes over the
 * springs move free vertices (rigid ones are the skinned positions already in out_positions);
 * the spring vertices' positions are written into out_positions. Normals are left as skinned.
 * No collision (Cal3D's optional bone-box collision is not implemented). */
OSSA_API ossa_status ossa_spring_update(ossa_spring_state *state, float dt, float *out_positions,
                                        uint32_t out_capacity, ossa_error *err);

#ifdef __cplusplus
}
#endif
#endif
