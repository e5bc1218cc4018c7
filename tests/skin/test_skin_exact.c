/* The skin kernels on exact meshes (ossa_submesh.influence_points), part of test-skin-kernels
 * (test_skin_kernels.c runs it for the kernel named on its command line). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skin_kernel_checks.h"
#include "skin_test_util.h"
#include "test_common.h"
#include "ossa/reference.h"
#include "ossa/skin_pool.h"

void check_exact_with(ossa_skin_kernel k, uint32_t n, uint32_t max_inf, uint32_t morphs,
                      uint64_t seed, uint32_t bones, float spread)
{
    rand_submesh r;
    rand_submesh_make(&r, n, bones, max_inf, morphs, seed);
    uint32_t total = r.start[n];
    float *points = malloc(3 * (size_t)(total + 1) * sizeof(float));
    float *mpoints = malloc(3 * (size_t)(total + 1) * sizeof(float));
    test_rng g = {seed * 7 + 3};
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t i = r.start[v]; i < r.start[v + 1]; i++) {
            int agree = rng_u32(&g) % 3 == 0;
            for (int c = 0; c < 3; c++) {
                float delta = agree ? 0.0f : rng_f(&g, -spread, spread);
                points[3 * i + c] = r.inf[i].weight * (r.pos[3 * v + c] + delta);
            }
        }
    r.sm.influence_points = points;
    float *pal = malloc(12 * bones * sizeof(float));
    rand_palette(pal, bones, seed * 3 + 1);
    float mw[4] = {0.3f, -0.2f, 0.7f, 0.0f};

    float *mp = malloc(3 * (size_t)n * sizeof(float)), *mn = malloc(3 * (size_t)n * sizeof(float));
    memcpy(mp, r.pos, 3 * (size_t)n * sizeof(float));
    memcpy(mn, r.nrm, 3 * (size_t)n * sizeof(float));
    memcpy(mpoints, points, 3 * (size_t)total * sizeof(float));
    for (uint32_t t = 0; t < morphs; t++)
        for (uint32_t i = 0; i < r.morphs[t].count; i++) {
            uint32_t v = r.morphs[t].vertex[i];
            for (int c = 0; c < 3; c++) {
                float dp = mw[t] * r.morphs[t].d_position[3 * i + c];
                mp[3 * v + c] += dp;
                mn[3 * v + c] += mw[t] * r.morphs[t].d_normal[3 * i + c];
                for (uint32_t j = r.start[v]; j < r.start[v + 1]; j++)
                    mpoints[3 * j + c] += r.inf[j].weight * dp;
            }
        }
    ossa_submesh msm = r.sm;
    msm.positions = mp;
    msm.normals = mn;
    msm.influence_points = mpoints;
    float *ref_p = malloc(3 * (size_t)n * sizeof(float)), *ref_n = malloc(3 * (size_t)n * sizeof(float));
    ossa_skin_submesh_scalar(&msm, pal, ref_p, ref_n, msm.vertex_count, NULL);

    ossa_skin_mesh *mesh = NULL;
    ossa_error err;
    CHECK(ossa_skin_mesh_create(&r.sm, bones, &mesh, &err) == OSSA_OK);
    if (!mesh) {
        fprintf(stderr, "create: %s\n", err.message);
        return;
    }
    int want_exact = spread > 0.0f && total > 0;
    CHECKF(ossa_skin_mesh_exact(mesh) == want_exact, "exact %d, want %d",
           ossa_skin_mesh_exact(mesh), want_exact);
    uint32_t out_n = ossa_skin_mesh_output_count(mesh);
    float *op = alloc_out(out_n), *on = alloc_out(out_n);
    float *op2 = alloc_out(out_n), *on2 = alloc_out(out_n);
    const uint32_t *remap = ossa_skin_mesh_remap(mesh);
    char what[128];
    ossa_skin_job job = {.mesh = mesh, .palette = pal, .palette_size = bones, .kernel = k,
                         .morph_weights = morphs ? mw : NULL};
    for (int mode = 0; mode < 3; mode++) {
        skin_job_run_mode(job, mode, op, on);
        snprintf(what, sizeof what, "exact %s n=%u inf<=%u morphs=%u spread=%g mode=%d",
                 ossa_skin_kernel_name(k), n, max_inf, morphs, (double)spread, mode);
        uint32_t bad = 0;
        for (uint32_t v = 0; v < n; v++) {
            /* tolerance: 1e-5 of the magnitude of the summed terms, as the blend check */
            double mag = fmax(fabs(mp[3 * v]), fmax(fabs(mp[3 * v + 1]), fabs(mp[3 * v + 2])));
            double sum = 0;
            for (uint32_t i = r.start[v]; i < r.start[v + 1]; i++) {
                double msum = 0, gap = 0, w = r.inf[i].weight;
                for (int j = 0; j < 12; j++)
                    msum += fabs(pal[12 * r.inf[i].bone + j]);
                for (int c = 0; c < 3; c++)
                    gap = fmax(gap, fabs(mpoints[3 * i + c] - w * mp[3 * v + c]));
                sum += msum * (fabs(w) * fmax(1.0, mag) + gap);
            }
            double tol = 1e-5 * fmax(1.0, fmax(sum, mag));
            uint32_t o = remap[v];
            int ok = 1;
            for (int c = 0; c < 3; c++) {
                ok &= fabs((double)op[3 * o + c] - ref_p[3 * v + c]) <= tol;
                ok &= fabs((double)on[3 * o + c] - ref_n[3 * v + c]) <= 2e-4;
            }
            if (!ok && bad++ < 4)
                fprintf(stderr, "%s: vertex %u: p (%g %g %g) vs (%g %g %g)\n", what, v, op[3 * o],
                        op[3 * o + 1], op[3 * o + 2], ref_p[3 * v], ref_p[3 * v + 1], ref_p[3 * v + 2]);
        }
        CHECKF(bad == 0, "%s: %u vertices differ", what, bad);
        const uint32_t *src = ossa_skin_mesh_source(mesh);
        uint32_t nonzero = 0;
        for (uint32_t o = 0; o < out_n; o++)
            for (int c = 0; src[o] == OSSA_SKIN_PAD_VERTEX && c < 3; c++)
                nonzero += op[3 * o + c] != 0.0f || on[3 * o + c] != 0.0f;
        CHECKF(nonzero == 0, "%s: padding written", what);
    }
    check_pool_bits(job, op, on, op2, on2, "exact");
    free(op); free(on); free(op2); free(on2);
    ossa_skin_mesh_destroy(mesh);
    free(ref_p); free(ref_n); free(mp); free(mn); free(pal); free(points); free(mpoints);
    rand_submesh_free(&r);
}
