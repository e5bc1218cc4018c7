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
 * Order: inside a group, vertices are sorted by their bones (slot by slot), then file order (for
 * a palette of 33 to 64 bones, by the lookup table's half of each slot's bone first), so
 * a block's lanes fall into a few runs that name the same bone in every slot (padding lanes copy
 * the last vertex's bones at weight 0). ossa_skin_plan_runs marks where each run starts. A block of
 * few runs is blended by the AVX2 and AVX-512 kernels from broadcast palette rows, run by run,
 * each run's lanes by mask, in the SoA form the transform wants: no per-vertex loads and no
 * transpose, and the same operations on every element as the per-vertex blend, so the same
 * bits. Most of a character's rigid vertices (one influence: 1,082 of cally's 1,844) land in
 * blocks of one run. */
#include <stdlib.h>
#include <string.h>
#include "core/checked.h"
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

/* Vertex v's bone in slot k as the order sorts it: a group past the vertex's own count repeats
 * its last bone (as its padding slots do), and the general group and vertices without influences
 * sort by file order alone (0). */
static uint16_t slot_bone(const ossa_submesh *sm, const uint8_t *group, uint32_t v, uint32_t k)
{
    uint32_t a = sm->influence_start[v], e = sm->influence_start[v + 1];
    if (group[v] == SKIN_GENERAL || a == e || k >= group[v])
        return 0;
    return (uint16_t)sm->influences[a + k < e ? a + k : e - 1].bone;
}

/* One stable counting sort of from[0, n) into to by key[from[i] x stride] < buckets, with
 * count[buckets + 1]. */
static void sort_pass(const uint16_t *key, uint32_t stride, uint32_t n, uint32_t buckets,
                      const uint32_t *from, uint32_t *to, uint32_t *count)
{
    memset(count, 0, (buckets + 1) * sizeof *count);
    for (uint32_t i = 0; i < n; i++)
        count[1 + key[(size_t)from[i] * stride]]++;
    for (uint32_t b = 0; b < buckets; b++)
        count[b + 1] += count[b];
    for (uint32_t i = 0; i < n; i++)
        to[count[key[(size_t)from[i] * stride]]++] = from[i];
}

bool ossa_skin_plan_order(const ossa_submesh *sm, uint32_t palette_size,
                          const uint32_t moved[OSSA_SKIN_GROUP_COUNT], uint32_t *order,
                          uint8_t *group)
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
    /* Sorted by (group, halves, bone in slot 0, slot 1, ..., file order): stable counting sorts
     * over file order from the last slot to the first, then by halves, then by group, on keys of
     * the group, the halves and a bone per slot. (qsort with a comparator of the same key took
     * 40 % of a 32,768-vertex mesh's creation.) halves: which half of the AVX-512 lookup table
     * (SKIN_LOOKUP_HALF) each slot's bone is in, slot by slot (slot 0 the most significant bit);
     * with the palette in both halves, vertices of one pattern fill whole blocks, and a block
     * whose every slot is in one half takes one permute of the table per element and slot, not
     * two and a blend (the bench's 10,000 vertices of 4 random bones of 64: 11 to 15 % more
     * vertices a second on the Zen 5 VM). Vertices on the same bones have the same halves, so
     * runs stay whole. */
    enum { STRIDE = OSSA_SKIN_MAX_GROUPED + 2, HALVES = OSSA_SKIN_MAX_GROUPED + 1 };
    bool by_halves = palette_size > SKIN_LOOKUP_HALF && palette_size <= SKIN_LOOKUP_BONES;
    size_t key_bytes;
    if (!ossa_mul_size(n ? n : 1, STRIDE * sizeof(uint16_t), &key_bytes))
        return false;
    uint16_t *key = malloc(key_bytes);
    uint32_t *tmp = malloc((n ? n : 1) * sizeof *tmp), *count = NULL;
    if (!key || !tmp) {
        free(key);
        free(tmp);
        return false;
    }
    uint32_t slots = 0, buckets = OSSA_SKIN_GROUP_COUNT;
    for (uint32_t v = 0; v < n; v++) {
        uint16_t *kv = key + (size_t)v * STRIDE;
        kv[HALVES] = 0; /* slot 0's half the most significant bit: slot by slot, as the bones */
        for (uint32_t k = 0; k < OSSA_SKIN_MAX_GROUPED; k++) {
            kv[k] = slot_bone(sm, group, v, k);
            buckets = kv[k] + 1u > buckets ? kv[k] + 1u : buckets;
            if (by_halves && kv[k] >= SKIN_LOOKUP_HALF)
                kv[HALVES] |= (uint16_t)(1u << (OSSA_SKIN_MAX_GROUPED - 1 - k));
        }
        kv[OSSA_SKIN_MAX_GROUPED] = group[v];
        buckets = kv[HALVES] + 1u > buckets ? kv[HALVES] + 1u : buckets;
        if (group[v] != SKIN_GENERAL && group[v] > slots)
            slots = group[v];
    }
    count = malloc(((size_t)buckets + 1) * sizeof *count);
    if (!count) {
        free(key);
        free(tmp);
        return false;
    }
    uint32_t *from = order, *to = tmp;
    for (uint32_t v = 0; v < n; v++)
        from[v] = v;
    uint32_t passes = slots + 1u + by_halves;
    for (uint32_t p = 0; p < passes; p++) {
        /* slots from the last to the first, then the halves, then the group */
        uint32_t slot = p < slots ? slots - 1 - p
                      : p + 1 < passes ? (uint32_t)HALVES : (uint32_t)OSSA_SKIN_MAX_GROUPED;
        sort_pass(key + slot, STRIDE, n, buckets, from, to, count);
        uint32_t *t = from;
        from = to;
        to = t;
    }
    if (from != order)
        memcpy(order, from, n * sizeof *order);
    free(key);
    free(tmp);
    free(count);
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
