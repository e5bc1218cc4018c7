/* The skin mesh's vertex plan (skin_mesh_plan.c): padding moves between influence groups, the
 * order of vertices inside a group, and the runs of lanes on the same bones. */
#ifndef OSSA_SKIN_MESH_PLAN_H
#define OSSA_SKIN_MESH_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include "skin_internal.h"

/* counts: vertices per group by influence count; on return the groups' sizes after the moves,
 * and moved[k] how many group k (1..7) handed to group k + 1. */
void ossa_skin_plan_spill(uint32_t counts[OSSA_SKIN_GROUP_COUNT], uint32_t moved[OSSA_SKIN_GROUP_COUNT]);
/* group[v]: vertex v's group after the moves; order: the n vertices by group, then (for a
 * palette of SKIN_LOOKUP_HALF + 1 to SKIN_LOOKUP_BONES bones) the lookup table's half of each
 * slot's bone, slot by slot, then bones slot by slot (a moved vertex repeats its last bone),
 * then file index.
 * The submesh was checked (check_submesh). false: out of memory. */
bool ossa_skin_plan_order(const ossa_submesh *sm, uint32_t palette_size,
                          const uint32_t moved[OSSA_SKIN_GROUP_COUNT], uint32_t *order,
                          uint8_t *group);
/* Once the blocks are filled: padding lanes of groups 1..8 take the last vertex's bones (weight
 * 0), and bit i of m->runs[block] is set where lane i's bones differ from lane i - 1's (bit 0
 * always). counts: the real vertices of each group (as ossa_skin_plan_spill left them). */
void ossa_skin_plan_runs(struct ossa_skin_mesh *m, const uint32_t counts[OSSA_SKIN_GROUP_COUNT]);

#endif
