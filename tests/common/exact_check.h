/* Checks a posed submesh against positions a test computed itself (in double, from a format's
 * own formula): the scalar reference (ossa_skin_submesh_scalar), the runtime skin job with every
 * kernel this CPU has, the job split over a thread pool, and `ossa sample` output. Header-only,
 * for the C3S and SKM tests of exactly skinned weighted-offset vertices. */
#ifndef OSSA_TEST_EXACT_CHECK_H
#define OSSA_TEST_EXACT_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/skin.h"
#include "ossa/skin_pool.h"
#include "test_common.h"

/* The palette of m at time t of clip (NULL: the rest pose), sampled as a cycle. Caller frees. */
static inline float *ex_palette(const ossa_model *m, const ossa_clip *clip, float t)
{
    size_t nb = m->bone_count;
    float *lt = malloc(nb * 3 * sizeof(float)), *lr = malloc(nb * 4 * sizeof(float));
    float *ls = malloc(nb * 3 * sizeof(float)), *mt = malloc(nb * 3 * sizeof(float));
    float *mr = malloc(nb * 4 * sizeof(float)), *ms = malloc(nb * 3 * sizeof(float));
    float *pal = malloc(nb * 12 * sizeof(float));
    ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
    if (clip)
        ossa_sample_clip(m, clip, ossa_clip_wrap_time(clip, t), OSSA_WRAP_LOOP, lt, lr, ls,
                         m->bone_count, NULL);
    ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
    ossa_skin_palette(m, mt, mr, ms, pal, m->bone_count, NULL);
    free(lt); free(lr); free(ls); free(mt); free(mr); free(ms);
    return pal;
}

/* Vertices of positions (3 floats each, `stride`-th vertex at remap[v] or v) farther than tol
 * from expected; the first few are printed. */
static inline uint32_t ex_compare(const float *pos, const uint32_t *remap, const double *expected,
                                  uint32_t n, double tol, const char *what)
{
    uint32_t bad = 0;
    for (uint32_t v = 0; v < n; v++) {
        const float *p = pos + 3 * (size_t)(remap ? remap[v] : v);
        const double *e = expected + 3 * (size_t)v;
        double d = fmax(fabs(p[0] - e[0]), fmax(fabs(p[1] - e[1]), fabs(p[2] - e[2])));
        if (!(d <= tol)) {
            if (bad < 4)
                fprintf(stderr, "%s: vertex %u at (%.9g %.9g %.9g), expected (%.9g %.9g %.9g)\n",
                        what, v, (double)p[0], (double)p[1], (double)p[2], e[0], e[1], e[2]);
            bad++;
        }
    }
    return bad;
}

/* The submesh posed by the palette through the reference and every runtime path, each against
 * `expected` (3 doubles per vertex) within tol; normals of the runtime paths against the
 * reference's. want_exact: the path ossa_skin_mesh_create must choose (1 exact, 0 blend). */
static inline void ex_check_submesh(const ossa_submesh *sm, uint32_t bones, const float *pal,
                                    const double *expected, double tol, int want_exact,
                                    const char *what)
{
    uint32_t n = sm->vertex_count;
    float *ref_p = malloc(3 * (size_t)n * sizeof(float)), *ref_n = malloc(3 * (size_t)n * sizeof(float));
    ossa_skin_submesh_scalar(sm, pal, ref_p, ref_n, sm->vertex_count, NULL);
    char label[400];
    snprintf(label, sizeof label, "%.300s: scalar reference", what);
    CHECKF(ex_compare(ref_p, NULL, expected, n, tol, label) == 0, "%s", label);
    CHECK(ossa_skin_submesh_exact(sm) == want_exact);

    ossa_skin_mesh *mesh = NULL;
    ossa_error err;
    CHECKF(ossa_skin_mesh_create(sm, bones, &mesh, &err) == OSSA_OK, "%s: %s", what, err.message);
    if (!mesh) {
        free(ref_p);
        free(ref_n);
        return;
    }
    CHECKF(ossa_skin_mesh_exact(mesh) == want_exact, "%s: exact %d, want %d", what,
           ossa_skin_mesh_exact(mesh), want_exact);
    uint32_t out_n = ossa_skin_mesh_output_count(mesh);
    const uint32_t *remap = ossa_skin_mesh_remap(mesh);
    float *op = ossa_skin_buffer_alloc(3 * (size_t)out_n * sizeof(float));
    float *on = ossa_skin_buffer_alloc(3 * (size_t)out_n * sizeof(float));
    float *pp = ossa_skin_buffer_alloc(3 * (size_t)out_n * sizeof(float));
    float *pn = ossa_skin_buffer_alloc(3 * (size_t)out_n * sizeof(float));
    for (int k = OSSA_SKIN_KERNEL_SCALAR; k < OSSA_SKIN_KERNEL_COUNT; k++) {
        if (!ossa_skin_kernel_available((ossa_skin_kernel)k))
            continue;
        for (int store = 0; store < 2; store++) {
            ossa_skin_job job = {.mesh = mesh, .palette = pal, .palette_size = bones,
                                 .out_positions = op, .out_normals = on,
                                 .out_capacity = ossa_skin_mesh_output_count(mesh),
                                 .end = ossa_skin_mesh_output_count(mesh)};
            job.kernel = (ossa_skin_kernel)k;
            job.store = store ? OSSA_SKIN_STORE_STREAM : OSSA_SKIN_STORE_CACHED;
            CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
            snprintf(label, sizeof label, "%.300s: kernel %s%s", what,
                     ossa_skin_kernel_name((ossa_skin_kernel)k), store ? " streaming" : "");
            CHECKF(ex_compare(op, remap, expected, n, tol, label) == 0, "%s", label);
            uint32_t bad_n = 0;
            for (uint32_t v = 0; v < n; v++)
                for (int c = 0; c < 3; c++)
                    bad_n += !(fabs(on[3 * (size_t)remap[v] + c] - ref_n[3 * (size_t)v + c]) <= 1e-5);
            CHECKF(bad_n == 0, "%s: %u normal components differ from the reference", label, bad_n);
            /* two and three participants: the same bits as one thread */
            for (uint32_t t = 2; t <= 3 && store == 0; t++) {
                ossa_skin_pool *pool = NULL;
                CHECK(ossa_skin_pool_create(t, &pool, NULL) == OSSA_OK);
                job.out_positions = pp;
                job.out_normals = pn;
                job.pool = pool;
                CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
                job.pool = NULL;
                CHECKF(memcmp(op, pp, 3 * (size_t)out_n * sizeof(float)) == 0 &&
                       memcmp(on, pn, 3 * (size_t)out_n * sizeof(float)) == 0,
                       "%s: pool of %u differs", label, t);
                ossa_skin_pool_destroy(pool);
            }
        }
    }
    ossa_skin_buffer_free(op);
    ossa_skin_buffer_free(on);
    ossa_skin_buffer_free(pp);
    ossa_skin_buffer_free(pn);
    ossa_skin_mesh_destroy(mesh);
    free(ref_p);
    free(ref_n);
}

/* Runs `cli sample FILE [--clip CLIP --time T]` and reads the positions of submesh (mesh, sub)
 * into out (3 per vertex, n vertices); the number of vertices read. */
static inline uint32_t ex_cli_sample(const char *cli, const char *file, const char *clip, float t,
                                     uint32_t mesh, uint32_t sub, uint32_t n, float *out)
{
    char cmd[4096];
    if (clip)
        snprintf(cmd, sizeof cmd, "'%s' sample '%s' --clip '%s' --time %.9g", cli, file, clip,
                 (double)t);
    else
        snprintf(cmd, sizeof cmd, "'%s' sample '%s'", cli, file);
    FILE *f = popen(cmd, "r");
    if (!f)
        return 0;
    char line[512];
    uint32_t got = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned mi, si, v;
        float p[3];
        if (sscanf(line, "%u,%u,%u,%f,%f,%f", &mi, &si, &v, &p[0], &p[1], &p[2]) != 6)
            continue;
        if (mi != mesh || si != sub || v >= n)
            continue;
        memcpy(out + 3 * (size_t)v, p, sizeof p);
        got++;
    }
    pclose(f);
    return got;
}

#endif
