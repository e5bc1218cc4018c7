/* Skin lists (skin_list.c): a list runs the blocks of many meshes grouped by influence count and
 * must write, for every listed mesh, the bits ossa_skin_mesh_run writes with the same kernel, with
 * cached and with streaming stores, and leave the buffers of meshes it skips (a NULL output)
 * untouched. Meshes the list kernels do not handle (a vertex with no influence or with more than
 * 8, morph targets) are left out of it; lists of nothing are NULL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skin_test_util.h"
#include "test_common.h"
#include "skin/skin_direct.h"

#define PARTS 9
#define BONES 40

/* A submesh of n vertices, each with 1 to max_inf influences (rand_submesh_make's layout). */
static void make_listable(rand_submesh *r, uint32_t n, uint32_t max_inf, uint64_t seed)
{
    test_rng g = {seed};
    memset(r, 0, sizeof *r);
    r->pos = malloc(3 * (size_t)n * sizeof(float));
    r->nrm = malloc(3 * (size_t)n * sizeof(float));
    r->start = malloc((size_t)(n + 1) * sizeof(uint32_t));
    r->inf = malloc((size_t)n * max_inf * sizeof(ossa_influence));
    uint32_t at = 0;
    for (uint32_t v = 0; v < n; v++) {
        /* runs of vertices on the same bones, as in a real mesh, and lone ones */
        uint32_t k = 1 + (v / 7) % max_inf, base = (v / 5) * 3 % BONES;
        r->start[v] = at;
        for (uint32_t i = 0; i < k; i++, at++) {
            r->inf[at].bone = v % 3 ? (base + i) % BONES : rng_u32(&g) % BONES;
            r->inf[at].weight = rng_f(&g, 0.05f, 1.0f);
        }
        for (int c = 0; c < 3; c++) {
            r->pos[3 * v + c] = rng_f(&g, -10.0f, 10.0f);
            r->nrm[3 * v + c] = rng_f(&g, -1.0f, 1.0f);
        }
    }
    r->start[n] = at;
    r->sm.material = -1;
    r->sm.vertex_count = n;
    r->sm.positions = r->pos;
    r->sm.normals = r->nrm;
    r->sm.influence_start = r->start;
    r->sm.influences = r->inf;
}

typedef struct outs {
    float *pos[PARTS], *nrm[PARTS];
} outs;

static void outs_make(outs *o, ossa_skin_mesh *const *mesh, float fill)
{
    for (int p = 0; p < PARTS; p++) {
        size_t n = 3 * (size_t)ossa_skin_mesh_output_count(mesh[p]);
        o->pos[p] = ossa_skin_buffer_alloc(n * sizeof(float));
        o->nrm[p] = ossa_skin_buffer_alloc(n * sizeof(float));
        for (size_t i = 0; o->pos[p] && o->nrm[p] && i < n; i++)
            o->pos[p][i] = o->nrm[p][i] = fill;
    }
}

static void outs_free(outs *o)
{
    for (int p = 0; p < PARTS; p++) {
        ossa_skin_buffer_free(o->pos[p]);
        ossa_skin_buffer_free(o->nrm[p]);
    }
}

/* Floats of part p in a and b that differ (bits), or that are not `fill` when b is NULL. */
static size_t differ(const outs *a, const outs *b, int p, size_t n, float fill)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (b) {
            bad += memcmp(&a->pos[p][i], &b->pos[p][i], sizeof(float)) != 0;
            bad += memcmp(&a->nrm[p][i], &b->nrm[p][i], sizeof(float)) != 0;
        } else {
            bad += a->pos[p][i] != fill || a->nrm[p][i] != fill;
        }
    }
    return bad;
}

static void check_kernel(ossa_skin_kernel k, ossa_skin_mesh *const *mesh, const ossa_skin_list *l,
                         const float *pal, const float *wide)
{
    outs ref, got;
    outs_make(&ref, mesh, 0.0f);
    for (int p = 0; p < PARTS; p++)
        ossa_skin_mesh_run(mesh[p], k, pal, wide, NULL, ref.pos[p], ref.nrm[p], 0);
    /* without the wide palette: the same bits */
    outs_make(&got, mesh, 0.0f);
    for (int p = 0; p < PARTS; p++) {
        ossa_skin_mesh_run(mesh[p], k, pal, NULL, NULL, got.pos[p], got.nrm[p], 0);
        size_t bad = differ(&got, &ref, p, 3 * (size_t)ossa_skin_mesh_output_count(mesh[p]), 0);
        CHECKF(bad == 0, "%s: part %d: %zu floats differ without the wide palette",
               ossa_skin_kernel_name(k), p, bad);
    }
    outs_free(&got);
    for (int stream = 0; stream < 2; stream++)
        for (int skip = 0; skip < 2; skip++) {
            const float fill = 123.25f;
            outs_make(&got, mesh, fill);
            float *pos[PARTS], *nrm[PARTS];
            for (int p = 0; p < PARTS; p++) {
                bool skipped = skip && p % 2;
                pos[p] = skipped ? NULL : got.pos[p];
                nrm[p] = skipped ? NULL : got.nrm[p];
            }
            ossa_skin_list_run(l, k, wide, pos, nrm, stream);
            if (stream)
                ossa_skin_store_fence();
            for (int p = 0; p < PARTS; p++) {
                size_t n = 3 * (size_t)ossa_skin_mesh_output_count(mesh[p]);
                bool written = ossa_skin_list_has(l, (uint32_t)p) && pos[p];
                size_t bad = differ(&got, written ? &ref : NULL, p, n, fill);
                CHECKF(bad == 0, "%s%s%s: part %d: %zu floats %s",
                       ossa_skin_kernel_name(k), stream ? " streaming" : "",
                       skip ? " (every other part skipped)" : "", p, bad,
                       written ? "differ from its mesh run" : "written though not its list's");
            }
            outs_free(&got);
        }
    outs_free(&ref);
}

int main(void)
{
    /* parts 2 and 7 are not listable: vertices of no influence and of 9, and morph targets */
    static const uint32_t sizes[PARTS] = {16, 93, 200, 48, 300, 64, 17, 50, 128};
    static const uint32_t max_inf[PARTS] = {1, 2, 9, 4, 8, 3, 1, 3, 5};
    rand_submesh src[PARTS];
    ossa_skin_mesh *mesh[PARTS] = {0};
    for (int p = 0; p < PARTS; p++) {
        if (p == 2 || p == 7)
            rand_submesh_make(&src[p], sizes[p], BONES, max_inf[p], p == 7 ? 2 : 0, 77 + p);
        else
            make_listable(&src[p], sizes[p], max_inf[p], 31 + p);
        CHECK(ossa_skin_mesh_create(&src[p].sm, BONES, &mesh[p], NULL) == OSSA_OK);
    }
    float pal[12 * BONES], *wide = ossa_skin_buffer_alloc(16 * BONES * sizeof(float));
    rand_palette(pal, BONES, 5);
    if (wide)
        ossa_skin_wide_fill(pal, BONES, wide);

    ossa_skin_list *l = ossa_skin_list_create((const ossa_skin_mesh *const *)mesh, PARTS);
    CHECK(l != NULL);
    for (int p = 0; p < PARTS; p++)
        CHECKF(ossa_skin_list_has(l, (uint32_t)p) == (p != 2 && p != 7),
               "part %d listed: %d", p, ossa_skin_list_has(l, (uint32_t)p));
    CHECK(!ossa_skin_list_has(l, PARTS) && !ossa_skin_list_has(NULL, 0));
    CHECK(!ossa_skin_list_runs_on(OSSA_SKIN_KERNEL_SCALAR) &&
          !ossa_skin_list_runs_on(OSSA_SKIN_KERNEL_SSE2));
    uint32_t kernels = 0;
    for (int k = OSSA_SKIN_KERNEL_SCALAR; l && wide && k < OSSA_SKIN_KERNEL_COUNT; k++)
        if (ossa_skin_list_runs_on((ossa_skin_kernel)k) &&
            ossa_skin_kernel_available((ossa_skin_kernel)k)) {
            check_kernel((ossa_skin_kernel)k, mesh, l, pal, wide);
            kernels++;
        }
    printf("skin-list: %u list kernels checked against their mesh runs\n", kernels);

    /* nothing to list: NULL, which skins part by part */
    ossa_skin_mesh *none[2] = {mesh[2], NULL};
    CHECK(ossa_skin_list_create((const ossa_skin_mesh *const *)none, 2) == NULL);
    CHECK(ossa_skin_list_create(NULL, 3) == NULL);
    CHECK(ossa_skin_list_create((const ossa_skin_mesh *const *)mesh, 0) == NULL);
    ossa_skin_list_destroy(NULL);

    ossa_skin_list_destroy(l);
    ossa_skin_buffer_free(wide);
    for (int p = 0; p < PARTS; p++) {
        ossa_skin_mesh_destroy(mesh[p]);
        if (p == 2 || p == 7)
            rand_submesh_free(&src[p]);
        else
            free(src[p].pos), free(src[p].nrm), free(src[p].start), free(src[p].inf);
    }
    return test_finish("skin-list");
}
