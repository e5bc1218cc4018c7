/* Where each vertex of a skin mesh goes: its influence group, its place in the group's blocks,
 * and which blocks the SIMD kernels may blend as one matrix per influence.
 *
 * Padding: a group of K influences pads its last block to 16 vertices, and every padding vertex
 * costs a whole vertex's work. A vertex may instead sit in a group of more influences, its extra
 * slots weight 0 on its own last bone: each extra influence adds 0 x (a finite palette row) last,
 * so its blended matrix keeps its bits (an element that sums to exactly zero may change the
 * zero's sign), and a non-finite row reaches no vertex that did not read it already.
 * ossa_skin_plan_spill chooses, for groups 1..7, whether the last (count mod 16) vertices move up one
 * group, where the estimated work (SPILL_VERTEX_COST + K per vertex, padding included, in
 * influence units: the AVX-512 kernel spent about 1.35 cycles an influence and 4 on the rest of
 * a vertex on Zen 4) is least; moved vertices can move on. A small part of a character (cally's
 * 17 parts: 36 to 327 vertices in 2 to 4 groups) loses most of its padding: 2,192 outputs for
 * 1,844 vertices before, 2,000 after.
 *
 * Order: inside a group, vertices are sorted by their bones (slot by slot), then file order, so
 * a block's lanes fall into a few runs that name the same bone in every slot (padding lanes copy
 * the last vertex's bones at weight 0). ossa_skin_plan_runs marks where each run starts. A block of
 * few runs is blended by the AVX2 and AVX-512 kernels from broadcast palette rows, run by run,
 * each run's lanes by mask, in the SoA form the transform wants: no per-vertex loads and no
 * transpose, and the same operations on every element as the per-vertex blend, so the same
 * bits. Most of a character's rigid vertices (one influence: 1,082 of cally's 1,844) land in
 * blocks of one run. */
#include <stdlib.h>
#include <string.h>
#include "skin_mesh_plan.h"

#define SPILL_VERTEX_COST 3u

static uint32_t round_block(uint32_t n)
{
    return (n + SKIN_B - 1) / SKIN_B * SKIN_B;
}

void ossa_skin_plan_spill(uint32_t counts[OSSA_SKIN_GROUP_COUNT], uint32_t moved[OSSA_SKIN_GROUP_COUNT])
{
    uint64_t best = UINT64_MAX;
    uint32_t best_mask = 0;
    for (uint32_t mask = 0; mask < (1u << (OSSA_SKIN_MAX_GROUPED - 1)); mask++) {
        uint64_t cost = 0;
        uint32_t carry = 0;
        int same = 0;
        for (uint32_t k = 1; k <= OSSA_SKIN_MAX_GROUPED; k++) {
            uint32_t n = counts[k] + carry;
            carry = 0;
            if (k < OSSA_SKIN_MAX_GROUPED && (mask >> (k - 1) & 1u)) {
                if (n % SKIN_B == 0) {
                    same = 1; /* the plan without this bit: counted there */
                    break;
                }
                carry = n % SKIN_B;
                n -= carry;
            }
            cost += (uint64_t)round_block(n) * (SPILL_VERTEX_COST + k);
        }
        if (!same && cost < best) {
            best = cost;
            best_mask = mask;
        }
    }
    uint32_t carry = 0;
    for (uint32_t k = 0; k < OSSA_SKIN_GROUP_COUNT; k++)
        moved[k] = 0;
    for (uint32_t k = 1; k <= OSSA_SKIN_MAX_GROUPED; k++) {
        counts[k] += carry;
        carry = 0;
        if (k < OSSA_SKIN_MAX_GROUPED && (best_mask >> (k - 1) & 1u))
            carry = counts[k] % SKIN_B;
        counts[k] -= carry;
        moved[k] = carry;
    }
}

typedef struct order_key {
    uint16_t bone[OSSA_SKIN_MAX_GROUPED];
    uint32_t vertex;
    uint8_t group;
} order_key;

static int order_cmp(const void *pa, const void *pb)
{
    const order_key *a = pa, *b = pb;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    for (uint32_t k = 0; k < OSSA_SKIN_MAX_GROUPED; k++)
        if (a->bone[k] != b->bone[k])
            return a->bone[k] < b->bone[k] ? -1 : 1;
    return a->vertex < b->vertex ? -1 : a->vertex > b->vertex;
}

bool ossa_skin_plan_order(const ossa_submesh *sm, const uint32_t moved[OSSA_SKIN_GROUP_COUNT],
                     uint32_t *order, uint8_t *group)
{
    uint32_t n = sm->vertex_count;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t k = sm->influence_start[v + 1] - sm->influence_start[v];
        group[v] = (uint8_t)(k <= OSSA_SKIN_MAX_GROUPED ? k : SKIN_GENERAL);
    }
    /* the last vertices (file order) of a group move up, as many as ossa_skin_plan_spill says */
    for (uint32_t k = 1; k < OSSA_SKIN_MAX_GROUPED; k++)
        for (uint32_t v = n, left = moved[k]; left && v-- > 0;)
            if (group[v] == k) {
                group[v] = (uint8_t)(k + 1);
                left--;
            }
    order_key *keys = malloc((n ? n : 1) * sizeof *keys);
    if (!keys)
        return false;
    for (uint32_t v = 0; v < n; v++) {
        order_key *key = &keys[v];
        memset(key, 0, sizeof *key);
        key->vertex = v;
        key->group = group[v];
        uint32_t a = sm->influence_start[v], e = sm->influence_start[v + 1];
        if (group[v] == SKIN_GENERAL || a == e)
            continue; /* file order */
        for (uint32_t k = 0; k < group[v]; k++)
            key->bone[k] = (uint16_t)sm->influences[a + k < e ? a + k : e - 1].bone;
    }
    qsort(keys, n, sizeof *keys, order_cmp);
    for (uint32_t i = 0; i < n; i++)
        order[i] = keys[i].vertex;
    free(keys);
    return true;
}

void ossa_skin_plan_runs(struct ossa_skin_mesh *m, const uint32_t counts[OSSA_SKIN_GROUP_COUNT])
{
    for (uint32_t g = 1; g <= OSSA_SKIN_MAX_GROUPED; g++) {
        skin_group_data *gd = &m->groups[g];
        uint32_t blocks = (gd->padded_end - gd->begin) / SKIN_B;
        for (uint32_t blk = 0; blk < blocks; blk++) {
            uint16_t *b = (uint16_t *)(void *)(gd->blocks + (size_t)blk * gd->stride +
                                               SKIN_ROWS * sizeof(float) + g * SKIN_B * 4u);
            uint32_t real = counts[g] - blk * SKIN_B < SKIN_B ? counts[g] - blk * SKIN_B : SKIN_B;
            uint16_t starts = 1;
            for (uint32_t lane = 1; lane < SKIN_B; lane++) {
                bool same = true;
                for (uint32_t k = 0; k < g; k++) {
                    if (lane >= real)
                        b[k * SKIN_B + lane] = b[k * SKIN_B + lane - 1]; /* padding: weight 0 */
                    same = same && b[k * SKIN_B + lane] == b[k * SKIN_B + lane - 1];
                }
                if (!same)
                    starts |= (uint16_t)(1u << lane);
            }
            m->runs[gd->begin / SKIN_B + blk] = starts;
        }
    }
}
