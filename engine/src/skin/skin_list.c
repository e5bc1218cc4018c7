/* Skin lists: a character's small parts skinned as one loop per influence count.
 *
 * Skinning a character part by part calls a kernel for each influence group of each part (cally:
 * 17 parts, 45 groups of 1 to 20 blocks), and every call ends a loop and picks a kernel case the
 * branch predictors did not see coming in that order. A list holds the blocks of every listed
 * part grouped by influence count (parts in order, blocks in order inside each count), so the
 * kernel runs, say, all 67 one-influence blocks of cally in one loop. Each block goes through
 * the same block code with the same inputs as in the part's own call, so the bits are the same.
 * On the Zen 5 VM of 2026-11-26 (docs/BENCHMARKS.md) one cally character skinned in about 30 %
 * less time this way.
 *
 * A mesh is listed when the list kernels handle all of it: linear blend only (not exact), no
 * morph targets, no cloth (a cloth part is skinned, then relaxed), every vertex in groups of 1
 * to 8 influences, and fewer outputs than the size at which a store policy of AUTO streams
 * (such a mesh gains nothing from sharing a loop). */
#include <stdlib.h>
#include "skin_direct.h"
#include "skin_internal.h"

struct ossa_skin_list {
    uint32_t parts;
    unsigned char *listed;                         /* per part: 1 when its blocks are listed */
    uint32_t start[OSSA_SKIN_MAX_GROUPED + 2];     /* blocks of K influences: [start[K],
                                                      start[K + 1]), K = 1..8 */
    skin_block_ref *refs;
};

static bool listable(const struct ossa_skin_mesh *m)
{
    if (!m || m->exact || m->morph_count || m->spring_count ||
        m->output_count >= SKIN_STREAM_MIN_VERTICES)
        return false;
    return m->groups[0].padded_end == m->groups[0].begin &&
           m->groups[SKIN_GENERAL].padded_end == m->groups[SKIN_GENERAL].begin;
}

static uint32_t group_blocks(const skin_group_data *g)
{
    return (g->padded_end - g->begin) / SKIN_B;
}

ossa_skin_list *ossa_skin_list_create(const ossa_skin_mesh *const *meshes, uint32_t count)
{
    if (!meshes || !count || count > UINT16_MAX + 1u)
        return NULL;
    size_t blocks = 0;
    for (uint32_t p = 0; p < count; p++)
        for (uint32_t k = 1; listable(meshes[p]) && k <= OSSA_SKIN_MAX_GROUPED; k++)
            blocks += group_blocks(&meshes[p]->groups[k]);
    if (!blocks)
        return NULL;
    ossa_skin_list *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->parts = count;
    l->listed = calloc(count, 1);
    l->refs = malloc(blocks * sizeof *l->refs);
    if (!l->listed || !l->refs) {
        ossa_skin_list_destroy(l);
        return NULL;
    }
    size_t n = 0;
    for (uint32_t k = 1; k <= OSSA_SKIN_MAX_GROUPED; k++) {
        l->start[k] = (uint32_t)n;
        for (uint32_t p = 0; p < count; p++) {
            const struct ossa_skin_mesh *m = meshes[p];
            if (!listable(m))
                continue;
            l->listed[p] = 1;
            const skin_group_data *g = &m->groups[k];
            for (uint32_t b = 0; b < group_blocks(g); b++)
                l->refs[n++] = (skin_block_ref){
                    .block = skin_block_ptr(g, b),
                    .out = g->begin + b * SKIN_B,
                    .part = (uint16_t)p,
                    .runs = m->runs[g->begin / SKIN_B + b],
                };
        }
    }
    l->start[OSSA_SKIN_MAX_GROUPED + 1] = (uint32_t)n;
    return l;
}

void ossa_skin_list_destroy(ossa_skin_list *l)
{
    if (!l)
        return;
    free(l->refs);
    free(l->listed);
    free(l);
}

bool ossa_skin_list_has(const ossa_skin_list *l, uint32_t part)
{
    return l && part < l->parts && l->listed[part];
}

bool ossa_skin_list_runs_on(ossa_skin_kernel k)
{
#ifdef OSSA_SKIN_X86
    return k == OSSA_SKIN_KERNEL_AVX2 || k == OSSA_SKIN_KERNEL_AVX512;
#else
    (void)k;
    return false;
#endif
}

void ossa_skin_list_run(const ossa_skin_list *l, ossa_skin_kernel k, const float *wide,
                        float *const *pos, float *const *nrm, int stream)
{
    if (!l || !ossa_skin_list_runs_on(k))
        return;
#ifdef OSSA_SKIN_X86
    for (uint32_t c = 1; c <= OSSA_SKIN_MAX_GROUPED; c++) {
        skin_list_range r = {l->refs + l->start[c], l->start[c + 1] - l->start[c], c, wide,
                             pos, nrm, stream != 0};
        if (!r.count)
            continue;
        if (k == OSSA_SKIN_KERNEL_AVX512)
            ossa_skin_list_avx512(&r);
        else
            ossa_skin_list_avx2(&r);
    }
#else
    (void)wide, (void)pos, (void)nrm, (void)stream;
#endif
}
