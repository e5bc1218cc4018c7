/* Nothing is allocated per frame: malloc/calloc/realloc/free are wrapped at link time
 * (-Wl,--wrap=...; libossa is static, so its calls go through the wrappers too) and counted
 * during frames of skinning (every kernel, morphs, streaming, split ranges), threaded dispatch,
 * springs and vertex-frame lerp, after set-up. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skin_test_util.h"
#include "test_common.h"
#include "ossa/skin_pool.h"
#include "ossa/cloth.h"
#include "ossa/vertex_anim.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
void __wrap_free(void *p);

static atomic_int counting;
static atomic_long calls;

void *__wrap_malloc(size_t size)
{
    if (atomic_load(&counting))
        atomic_fetch_add(&calls, 1);
    return __real_malloc(size);
}
void *__wrap_calloc(size_t n, size_t size)
{
    if (atomic_load(&counting))
        atomic_fetch_add(&calls, 1);
    return __real_calloc(n, size);
}
void *__wrap_realloc(void *p, size_t size)
{
    if (atomic_load(&counting))
        atomic_fetch_add(&calls, 1);
    return __real_realloc(p, size);
}
void __wrap_free(void *p)
{
    if (atomic_load(&counting) && p)
        atomic_fetch_add(&calls, 1);
    __real_free(p);
}

int main(void)
{
    const uint32_t bones = 40, n = 5003;
    rand_submesh r;
    rand_submesh_make(&r, n, bones, 10, 2, 99);
    /* springs on the first vertices */
    float *phys = calloc(n, sizeof(float));
    ossa_spring sp[20];
    for (uint32_t i = 0; i < 20; i++) {
        phys[i + 1] = 1.0f;
        sp[i] = (ossa_spring){{i, i + 1}, 1.0f, 0.5f};
    }
    r.sm.physique_weights = phys;
    r.sm.spring_count = 20;
    r.sm.springs = sp;
    float *pal = malloc(12 * bones * sizeof(float));
    rand_palette(pal, bones, 5);
    float mw[2] = {0.25f, 0.5f};

    ossa_skin_mesh *mesh = NULL;
    ossa_skin_pool *pool = NULL;
    ossa_spring_state *springs = NULL;
    CHECK(ossa_skin_mesh_create(&r.sm, bones, &mesh, NULL) == OSSA_OK);
    CHECK(ossa_skin_pool_create(2, &pool, NULL) == OSSA_OK);
    CHECK(mesh && ossa_spring_state_create(mesh, &springs, NULL) == OSSA_OK);
    if (!mesh || !pool || !springs)
        return test_finish("skin-alloc");
    uint32_t out_n = ossa_skin_mesh_output_count(mesh);
    float *op = alloc_out(out_n), *on = alloc_out(out_n), *lp = alloc_out(n), *ln = alloc_out(n);

    atomic_store(&calls, 0);
    atomic_store(&counting, 1);
    int frames = 0;
    for (int frame = 0; frame < 5; frame++) {
        for (int k = OSSA_SKIN_KERNEL_AUTO; k < OSSA_SKIN_KERNEL_COUNT; k++) {
            if (!ossa_skin_kernel_available((ossa_skin_kernel)k))
                continue;
            ossa_skin_job job = {.mesh = mesh, .palette = pal, .palette_size = bones,
                                 .out_positions = op, .out_normals = on,
                                 .out_capacity = ossa_skin_mesh_output_count(mesh),
                                 .end = ossa_skin_mesh_output_count(mesh)};
            job.kernel = (ossa_skin_kernel)k;
            job.morph_weights = mw;
            job.store = frame & 1 ? OSSA_SKIN_STORE_STREAM : OSSA_SKIN_STORE_AUTO;
            CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
            job.begin = 3;
            job.end = out_n - 5;
            job.pool = pool;
            CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
            job.pool = NULL;
            ossa_frame_lerp_job lj = {r.pos, op, r.nrm, on, n, 0.3f, lp, ln, n, 1,
                                      (ossa_skin_kernel)k};
            CHECK(ossa_frame_lerp_job_run(&lj, NULL) == OSSA_OK);
            frames++;
        }
        CHECK(ossa_spring_update(springs, 1.0f / 30.0f, op, out_n, NULL) == OSSA_OK);
    }
    atomic_store(&counting, 0);
    long during = atomic_load(&calls);
    printf("skin-alloc: %d kernel frames, %ld allocator calls during frames\n", frames, during);
    CHECK(frames >= 10);
    CHECK(during == 0);

    /* the wrappers do count: set-up allocates */
    atomic_store(&counting, 1);
    ossa_skin_pool *p2 = NULL;
    CHECK(ossa_skin_pool_create(2, &p2, NULL) == OSSA_OK);
    ossa_skin_pool_destroy(p2);
    atomic_store(&counting, 0);
    CHECK(atomic_load(&calls) > 0);

    free(op); free(on); free(lp); free(ln);
    ossa_spring_state_destroy(springs);
    ossa_skin_pool_destroy(pool);
    ossa_skin_mesh_destroy(mesh);
    free(pal);
    free(phys);
    rand_submesh_free(&r);
    return test_finish("skin-alloc");
}
