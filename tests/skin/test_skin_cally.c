/* Real asset: cally skinned with the runtime (every available kernel, and the thread pool) at a
 * few poses of each clip, compared with ossa_skin_submesh_scalar in file order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ossa/load.h"
#include "ossa/reference.h"
#include "ossa/skin_pool.h"
#include "skin_test_util.h"
#include "test_common.h"

int main(void)
{
    const char *dir = test_assets_dir();
    if (!dir)
        return TEST_SKIP;
    char path[1024];
    test_path(path, sizeof path, dir, "cal3d/cally/cally.cfg");
    ossa_model *m = NULL;
    ossa_error err;
    if (ossa_load_file(path, NULL, &m, &err) != OSSA_OK) {
        char buf[1024];
        fprintf(stderr, "load: %s\n", ossa_error_format(&err, buf, sizeof buf));
        CHECK(0);
        return test_finish("skin-cally");
    }
    uint32_t nb = m->bone_count;
    float *lt = malloc(3 * nb * 4), *lr = malloc(4 * nb * 4), *ls = malloc(3 * nb * 4);
    float *mt = malloc(3 * nb * 4), *mr = malloc(4 * nb * 4), *ms = malloc(3 * nb * 4);
    float *pal = malloc(12 * nb * 4);
    ossa_skin_pool *pool = NULL;
    CHECK(ossa_skin_pool_create(2, &pool, NULL) == OSSA_OK);
    uint32_t checked = 0, submeshes = 0;
    for (uint32_t c = 0; c < m->clip_count; c++)
        for (int step = 0; step < 3; step++) {
            float time = m->clips[c].duration * (0.1f + 0.35f * (float)step);
            ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
            ossa_sample_clip(m, &m->clips[c], time, OSSA_WRAP_LOOP, lt, lr, ls, m->bone_count,
                             NULL);
            ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
            ossa_skin_palette(m, mt, mr, ms, pal, m->bone_count, NULL);
            for (uint32_t i = 0; i < m->mesh_count; i++)
                for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
                    const ossa_submesh *sm = &m->meshes[i].submeshes[s];
                    ossa_skin_mesh *mesh = NULL;
                    CHECK(ossa_skin_mesh_create(sm, nb, &mesh, &err) == OSSA_OK);
                    if (!mesh)
                        continue;
                    submeshes++;
                    uint32_t n = sm->vertex_count, out_n = ossa_skin_mesh_output_count(mesh);
                    float *rp = malloc(3 * (size_t)n * 4 + 4), *rn = malloc(3 * (size_t)n * 4 + 4);
                    float *op = alloc_out(out_n), *on = alloc_out(out_n);
                    ossa_skin_submesh_scalar(sm, pal, rp, rn, sm->vertex_count, NULL);
                    for (int k = OSSA_SKIN_KERNEL_SCALAR; k <= OSSA_SKIN_KERNEL_COUNT; k++) {
                        int threaded = k == OSSA_SKIN_KERNEL_COUNT;
                        ossa_skin_kernel kk = threaded ? OSSA_SKIN_KERNEL_AUTO : (ossa_skin_kernel)k;
                        if (!ossa_skin_kernel_available(kk))
                            continue;
                        ossa_skin_job job = {.mesh = mesh, .palette = pal, .palette_size = nb,
                                             .out_positions = op, .out_normals = on,
                                             .out_capacity = ossa_skin_mesh_output_count(mesh),
                                             .end = ossa_skin_mesh_output_count(mesh)};
                        job.kernel = kk;
                        job.pool = threaded ? pool : NULL;
                        CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
                        char what[160];
                        snprintf(what, sizeof what, "cally %s clip %u t=%.3f mesh %u/%u %s", threaded ? "pool" : "",
                                 c, (double)time, i, s, ossa_skin_kernel_name(kk));
                        uint32_t bad = compare_to_reference(sm, pal, sm->positions, sm->normals, rp, rn, mesh,
                                                            op, on, what);
                        CHECKF(bad == 0, "%s: %u vertices differ", what, bad);
                        checked += n;
                    }
                    free(rp); free(rn); free(op); free(on);
                    ossa_skin_mesh_destroy(mesh);
                }
        }
    printf("skin-cally: %u submesh poses, %u vertices compared\n", submeshes, checked);
    CHECK(checked > 1000);
    ossa_skin_pool_destroy(pool);
    free(lt); free(lr); free(ls); free(mt); free(mr); free(ms); free(pal);
    ossa_model_destroy(m);
    return test_finish("skin-cally");
}
