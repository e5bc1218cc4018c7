/* The kernel chosen by measurement: ossa_skin_calibrate returns an available kernel and a store
 * for each size class, the fastest it measured (the large class's store on its larger mesh),
 * within a generous time bound; a forced kernel or store is kept; bad options are refused; a job fed the choice runs the choice's kernel and store
 * for its size and writes the same bits as that kernel and store forced, on one thread or a pool,
 * and within the kernels' 1e-5 of every other kernel. No rate is asserted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ossa/skin.h"
#include "ossa/skin_pool.h"
#include "skin_test_util.h"
#include "test_common.h"

#define BONES 40u
#define VERTICES 3000u

static void check_choice(const ossa_skin_choice *c)
{
    CHECK(c->large_vertices > 0);
    CHECK(c->rounds <= 64 && c->large_rounds <= 3);
    double best = 0.0;
    const ossa_skin_choice_size *small = &c->size[OSSA_SKIN_SIZE_SMALL];
    const ossa_skin_choice_size *large = &c->size[OSSA_SKIN_SIZE_LARGE];
    for (int k = 0; k < OSSA_SKIN_KERNEL_COUNT; k++) {
        const double rates[2] = {c->cached_rates[k], c->stream_rates[k]};
        for (int i = 0; i < 2; i++) {
            CHECK(rates[i] >= 0.0 && isfinite(rates[i]));
            if (!ossa_skin_kernel_available((ossa_skin_kernel)k) || k == OSSA_SKIN_KERNEL_AUTO)
                CHECK(rates[i] == 0.0);
            best = rates[i] > best ? rates[i] : best;
        }
    }
    CHECK(c->large_cached_rate >= 0.0 && isfinite(c->large_cached_rate));
    CHECK(c->large_stream_rate >= 0.0 && isfinite(c->large_stream_rate));
    for (int s = 0; s < OSSA_SKIN_SIZE_COUNT; s++) {
        const ossa_skin_choice_size *cs = &c->size[s];
        CHECKF(cs->kernel > OSSA_SKIN_KERNEL_AUTO && cs->kernel < OSSA_SKIN_KERNEL_COUNT &&
                   ossa_skin_kernel_available(cs->kernel),
               "size %d: kernel %d", s, (int)cs->kernel);
        CHECK(cs->store == OSSA_SKIN_STORE_CACHED || cs->store == OSSA_SKIN_STORE_STREAM);
    }
    if (c->kernel_forced)
        return;
    /* the choice is the fastest measured: any pair when small; for the large class, the same
     * kernel and the store faster on the larger mesh */
    CHECK(c->rounds >= 1);
    double small_rate = small->store == OSSA_SKIN_STORE_STREAM ? c->stream_rates[small->kernel]
                                                               : c->cached_rates[small->kernel];
    CHECKF(small_rate > 0.0 && (small_rate == best || c->store_forced), "small: %g of %g",
           small_rate, best);
    CHECK(large->kernel == small->kernel);
    if (c->large_cached_rate > 0.0 && c->large_stream_rate > 0.0 && !c->store_forced)
        CHECKF(large->store == (c->large_cached_rate > c->large_stream_rate
                                    ? OSSA_SKIN_STORE_CACHED
                                    : OSSA_SKIN_STORE_STREAM),
               "large: %s, cached %g, stream %g", large->store == OSSA_SKIN_STORE_CACHED
                                                       ? "cached" : "stream",
               c->large_cached_rate, c->large_stream_rate);
}

static void test_calibrate(void)
{
    ossa_skin_choice c;
    ossa_error err;
    CHECK(ossa_skin_calibrate(NULL, &c, &err) == OSSA_OK);
    check_choice(&c);
    CHECK(!c.kernel_forced && !c.store_forced);
    CHECK(c.large_vertices == ossa_skin_large_vertices());
    CHECK(c.vertices == 4096);
    CHECK(c.cached_rates[ossa_skin_kernel_best()] > 0.0 &&
          c.stream_rates[ossa_skin_kernel_best()] > 0.0);
    /* the large class's store is measured on 32768 vertices (out of the L2), both stores at
     * least once, unless its kernel is the scalar one (it never streams) */
    if (c.size[OSSA_SKIN_SIZE_LARGE].kernel != OSSA_SKIN_KERNEL_SCALAR)
        CHECK(c.large_mesh_vertices == 32768 && c.large_rounds >= 1 &&
              c.large_cached_rate > 0.0 && c.large_stream_rate > 0.0);
    else
        CHECK(c.large_mesh_vertices == 0 && c.large_rounds == 0);
    /* where a SIMD kernel runs, the scalar one is not timed */
    if (ossa_skin_kernel_best() != OSSA_SKIN_KERNEL_SCALAR)
        CHECK(c.cached_rates[OSSA_SKIN_KERNEL_SCALAR] == 0.0 &&
              c.stream_rates[OSSA_SKIN_KERNEL_SCALAR] == 0.0);
    /* a few milliseconds where nothing else runs; the bound only catches a runaway */
    CHECKF(c.seconds > 0.0 && c.seconds < 0.2 * test_time_factor(), "%.4f s", c.seconds);
    /* the size rule: a footprint of 72 bytes a vertex against 512 KB */
    CHECK(ossa_skin_large_vertices() == ((uint64_t)512 << 10) / 72);

    /* overrides are kept, not measured */
    for (int k = OSSA_SKIN_KERNEL_SCALAR; k < OSSA_SKIN_KERNEL_COUNT; k++) {
        ossa_skin_calibration_options o = {.kernel = (ossa_skin_kernel)k,
                                           .store = OSSA_SKIN_STORE_CACHED,
                                           .large_vertices = 1000};
        ossa_status st = ossa_skin_calibrate(&o, &c, &err);
        if (!ossa_skin_kernel_available(o.kernel)) {
            CHECK(st == OSSA_ERR_UNSUPPORTED);
            continue;
        }
        CHECK(st == OSSA_OK);
        check_choice(&c);
        CHECK(c.kernel_forced && c.store_forced && c.large_vertices == 1000);
        for (int s = 0; s < OSSA_SKIN_SIZE_COUNT; s++)
            CHECK(c.size[s].kernel == o.kernel && c.size[s].store == OSSA_SKIN_STORE_CACHED);
    }
    ossa_skin_calibration_options o = {.store = OSSA_SKIN_STORE_STREAM, .vertices = 256,
                                       .rounds = 3};
    CHECK(ossa_skin_calibrate(&o, &c, &err) == OSSA_OK);
    check_choice(&c);
    CHECK(!c.kernel_forced && c.store_forced && c.vertices == 256 && c.rounds <= 3);
    CHECK(c.size[0].store == OSSA_SKIN_STORE_STREAM && c.size[1].store == OSSA_SKIN_STORE_STREAM);
    CHECK(c.large_mesh_vertices == 0 && c.large_rounds == 0); /* a forced store: not timed */
    /* a smaller large mesh, fewer rounds; and the mesh in cache alone */
    o = (ossa_skin_calibration_options){.large_mesh_vertices = 1024, .rounds = 2};
    CHECK(ossa_skin_calibrate(&o, &c, &err) == OSSA_OK);
    check_choice(&c);
    CHECK(c.large_mesh_vertices == 1024 && c.large_rounds <= 2);
    o = (ossa_skin_calibration_options){.small_class_only = true, .rounds = 2};
    CHECK(ossa_skin_calibrate(&o, &c, &err) == OSSA_OK);
    check_choice(&c);
    CHECK(c.large_mesh_vertices == 0 && c.large_cached_rate == 0.0 &&
          c.size[OSSA_SKIN_SIZE_LARGE].store == OSSA_SKIN_STORE_STREAM);

    /* arguments it cannot take */
    CHECK(ossa_skin_calibrate(NULL, NULL, &err) == OSSA_ERR_INVALID_ARGUMENT);
    const ossa_skin_calibration_options bad[] = {
        {.kernel = OSSA_SKIN_KERNEL_COUNT}, {.store = (ossa_skin_store)3}, {.vertices = 63},
        {.vertices = 65537}, {.rounds = 65}, {.large_mesh_vertices = 1023},
        {.large_mesh_vertices = 262145}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECKF(ossa_skin_calibrate(&bad[i], &c, &err) == OSSA_ERR_INVALID_ARGUMENT, "case %zu",
               i);

    /* the class of a job size */
    CHECK(ossa_skin_choice_at(NULL, 5).kernel == OSSA_SKIN_KERNEL_AUTO);
    CHECK(ossa_skin_choice_at(NULL, 5).store == OSSA_SKIN_STORE_AUTO);
    c.size[0].kernel = OSSA_SKIN_KERNEL_SCALAR;
    c.size[1].kernel = ossa_skin_kernel_best();
    c.large_vertices = 100;
    CHECK(ossa_skin_choice_at(&c, 99).kernel == OSSA_SKIN_KERNEL_SCALAR);
    CHECK(ossa_skin_choice_at(&c, 100).kernel == ossa_skin_kernel_best());
}

/* Jobs over [begin, end) with the choice, and with its kernel and store forced: the same bits;
 * and within 1e-5 of every available kernel. */
static void test_jobs(void)
{
    rand_submesh r;
    rand_submesh_make(&r, VERTICES, BONES, 10, 2, 77);
    float pal[12 * BONES];
    rand_palette(pal, BONES, 78);
    const float morph_w[2] = {0.3f, -0.2f};
    ossa_skin_mesh *mesh = NULL;
    ossa_error err;
    CHECK(ossa_skin_mesh_create(&r.sm, BONES, &mesh, &err) == OSSA_OK);
    if (!mesh) {
        rand_submesh_free(&r);
        return;
    }
    uint32_t n = ossa_skin_mesh_output_count(mesh);
    size_t bytes = 3 * sizeof(float) * n;
    float *p[3], *q[3];
    for (int i = 0; i < 3; i++) {
        p[i] = ossa_skin_buffer_alloc(bytes);
        q[i] = ossa_skin_buffer_alloc(bytes);
    }
    ossa_skin_pool *pool = NULL;
    CHECK(ossa_skin_pool_create(2, &pool, NULL) == OSSA_OK);
    /* large from 1024 vertices: the whole mesh is large, a range of 512 small */
    ossa_skin_calibration_options o = {.large_vertices = 1024, .rounds = 3};
    ossa_skin_choice c;
    CHECK(ossa_skin_calibrate(&o, &c, &err) == OSSA_OK);
    /* a fixed choice as well, so that both classes run a kernel other than the default */
    ossa_skin_choice fixed = c;
    fixed.size[0].kernel = OSSA_SKIN_KERNEL_SCALAR;
    fixed.size[1].kernel = OSSA_SKIN_KERNEL_SSE2;
    if (!ossa_skin_kernel_available(OSSA_SKIN_KERNEL_SSE2))
        fixed.size[1].kernel = OSSA_SKIN_KERNEL_SCALAR;
    const ossa_skin_choice *choices[2] = {&c, &fixed};
    const uint32_t ranges[3][2] = {{0, n}, {0, 512}, {256, n}};
    for (int ci = 0; ci < 2 && p[0] && p[1] && p[2] && q[0] && q[1] && q[2]; ci++)
        for (int ri = 0; ri < 3; ri++)
            for (int threaded = 0; threaded < 2; threaded++) {
                uint32_t b = ranges[ri][0], e = ranges[ri][1];
                ossa_skin_choice_size want = ossa_skin_choice_at(choices[ci], e - b);
                ossa_skin_job job = {.mesh = mesh, .palette = pal, .palette_size = BONES,
                                     .out_positions = p[0], .out_normals = q[0],
                                     .out_capacity = n, .end = ossa_skin_mesh_output_count(mesh)};
                job.begin = b;
                job.end = e;
                job.morph_weights = morph_w;
                job.pool = threaded ? pool : NULL;
                job.choice = choices[ci];
                memset(p[0], 0, bytes);
                memset(q[0], 0, bytes);
                CHECK(ossa_skin_job_run(&job, &err) == OSSA_OK);
                CHECK(ossa_skin_job_kernel(&job) == want.kernel);
                ossa_skin_job forced = job;
                forced.choice = NULL;
                forced.kernel = want.kernel;
                forced.store = want.store;
                forced.out_positions = p[1];
                forced.out_normals = q[1];
                memset(p[1], 0, bytes);
                memset(q[1], 0, bytes);
                CHECK(ossa_skin_job_run(&forced, &err) == OSSA_OK);
                CHECKF(memcmp(p[0], p[1], bytes) == 0 && memcmp(q[0], q[1], bytes) == 0,
                       "choice %d range %u..%u threads %d: not %s's bits", ci, b, e,
                       threaded + 1, ossa_skin_kernel_name(want.kernel));
                /* every kernel: the choice only picks among them */
                for (int k = OSSA_SKIN_KERNEL_SCALAR; k < OSSA_SKIN_KERNEL_COUNT; k++) {
                    if (!ossa_skin_kernel_available((ossa_skin_kernel)k))
                        continue;
                    forced.kernel = (ossa_skin_kernel)k;
                    forced.out_positions = p[2];
                    forced.out_normals = q[2];
                    CHECK(ossa_skin_job_run(&forced, &err) == OSSA_OK);
                    double d = 0.0;
                    for (size_t i = 3 * (size_t)b; i < 3 * (size_t)e; i++) {
                        double scale = fabs(p[2][i]) > 1.0 ? fabs(p[2][i]) : 1.0;
                        double dp = fabs((double)p[0][i] - p[2][i]) / scale;
                        double dn = fabs((double)q[0][i] - q[2][i]);
                        d = dp > d ? dp : d;
                        d = dn > d ? dn : d;
                    }
                    CHECKF(d < 1e-4, "choice %d range %u..%u: %s differs by %g", ci, b, e,
                           ossa_skin_kernel_name((ossa_skin_kernel)k), d);
                }
            }

    /* a choice the job cannot run */
    ossa_skin_job job = {.mesh = mesh, .palette = pal, .palette_size = BONES,
                         .out_positions = p[0], .out_normals = q[0], .out_capacity = n,
                         .end = ossa_skin_mesh_output_count(mesh)};
    ossa_skin_choice broken = c;
    broken.size[1].kernel = OSSA_SKIN_KERNEL_COUNT;
    job.choice = &broken;
    CHECK(ossa_skin_job_validate(&job, &err) == OSSA_ERR_INVALID_ARGUMENT);
    broken = c;
    broken.size[0].store = (ossa_skin_store)7;
    CHECK(ossa_skin_job_validate(&job, &err) == OSSA_ERR_INVALID_ARGUMENT);
    broken = c;
    broken.size[0].kernel = OSSA_SKIN_KERNEL_AVX512;
    CHECK(ossa_skin_job_validate(&job, &err) ==
          (ossa_skin_kernel_available(OSSA_SKIN_KERNEL_AVX512) ? OSSA_OK : OSSA_ERR_UNSUPPORTED));

    ossa_skin_pool_destroy(pool);
    for (int i = 0; i < 3; i++) {
        ossa_skin_buffer_free(p[i]);
        ossa_skin_buffer_free(q[i]);
    }
    ossa_skin_mesh_destroy(mesh);
    rand_submesh_free(&r);
}

int main(void)
{
    test_calibrate();
    test_jobs();
    return test_finish("skin-calibrate");
}
