/* A skin mesh's output order (ossa/skin.h, "Vertex order"): inside a group, vertices sort by the
 * halves of the AVX-512 lookup table their slots' bones are in (slot by slot) when the palette
 * has 33 to 64 bones, then by their bones slot by slot, then file order. With random bones (the
 * bench's synthetic mesh) nearly every block of a 64-bone mesh then has every slot in one half,
 * so the kernel looks each element up with one permute, not two and a blend; other palettes
 * keep the order by bones alone. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include "skin_test_util.h"
#include "test_common.h"

/* Vertex v's bone in slot k of group g: past its own count, its last bone (the padding plan). */
static uint32_t slot_bone(const ossa_submesh *sm, uint32_t v, uint32_t k)
{
    uint32_t a = sm->influence_start[v], e = sm->influence_start[v + 1];
    return sm->influences[a + k < e ? a + k : e - 1].bone;
}

/* The order's key of vertex v in group g: the halves slot by slot (when by_halves), the bones
 * slot by slot, the file index. */
static int key_compare(const ossa_submesh *sm, uint32_t g, int by_halves, uint32_t v, uint32_t u)
{
    for (uint32_t k = 0; by_halves && k < g; k++) {
        uint32_t hv = slot_bone(sm, v, k) >= 32, hu = slot_bone(sm, u, k) >= 32;
        if (hv != hu)
            return hv < hu ? -1 : 1;
    }
    for (uint32_t k = 0; k < g; k++) {
        uint32_t bv = slot_bone(sm, v, k), bu = slot_bone(sm, u, k);
        if (bv != bu)
            return bv < bu ? -1 : 1;
    }
    return v < u ? -1 : v > u;
}

/* Builds the mesh of n random vertices (0..4 influences) on `bones` bones; checks the order key
 * rises through every group of 1..8 influences, and returns the share of full blocks of 2 or
 * more influences whose every slot has its 16 lanes in one half of the table (the blocks the
 * AVX-512 kernel looks up with one permute per element and slot). */
static double check_order(uint32_t bones, uint32_t n, uint64_t seed)
{
    rand_submesh r;
    rand_submesh_make(&r, n, bones, 4, 0, seed);
    ossa_skin_mesh *mesh = NULL;
    CHECK(ossa_skin_mesh_create(&r.sm, bones, &mesh, NULL) == OSSA_OK);
    if (!mesh) {
        rand_submesh_free(&r);
        return 0.0;
    }
    const uint32_t *src = ossa_skin_mesh_source(mesh);
    ossa_skin_group groups[OSSA_SKIN_GROUP_COUNT];
    ossa_skin_mesh_groups(mesh, groups);
    int by_halves = bones > 32 && bones <= 64;
    uint32_t out_of_order = 0, blocks = 0, pure = 0;
    for (uint32_t g = 1; g <= OSSA_SKIN_MAX_GROUPED; g++) {
        for (uint32_t o = groups[g].begin; o + 1 < groups[g].end; o++)
            out_of_order += key_compare(&r.sm, g, by_halves, src[o], src[o + 1]) >= 0;
        for (uint32_t o = groups[g].begin; g >= 2 && o + OSSA_SKIN_BLOCK <= groups[g].end;
             o += OSSA_SKIN_BLOCK) {
            bool one_half = true;
            for (uint32_t k = 0; k < g; k++) {
                uint32_t high = 0;
                for (uint32_t lane = 0; lane < OSSA_SKIN_BLOCK; lane++)
                    high += slot_bone(&r.sm, src[o + lane], k) >= 32;
                one_half = one_half && (high == 0 || high == OSSA_SKIN_BLOCK);
            }
            blocks++;
            pure += one_half;
        }
    }
    CHECKF(out_of_order == 0, "%u bones: %u neighbours out of order", bones, out_of_order);
    ossa_skin_mesh_destroy(mesh);
    rand_submesh_free(&r);
    return blocks ? (double)pure / blocks : 0.0;
}

int main(void)
{
    double pure64 = check_order(64, 20000, 5), pure33 = check_order(33, 20000, 6);
    double pure65 = check_order(65, 20000, 7);
    check_order(32, 3000, 8);
    check_order(300, 3000, 9);
    /* 20,000 vertices in 4 groups, at most 16 patterns a group: blocks straddle a pattern only
     * at its ends */
    CHECKF(pure64 > 0.9, "64 bones: %.3f of blocks with every slot in one half", pure64);
    CHECKF(pure33 > 0.9, "33 bones: %.3f of blocks with every slot in one half", pure33);
    /* past the table, bones alone: slot 0 sorted, slot 1 only among vertices of one slot-0
     * bone, the later slots less */
    CHECKF(pure65 < 0.5, "65 bones: %.3f of blocks with every slot in one half", pure65);
    printf("blocks with every slot in one half: 64 bones %.3f, 33 bones %.3f, 65 bones %.3f\n",
           pure64, pure33, pure65);
    return test_finish("skin-order");
}
