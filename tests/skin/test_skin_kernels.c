/* One skin kernel (named on the command line) against ossa_skin_submesh_scalar on random meshes:
 * odd vertex counts, 0..12 influences (general group included), weights not summing to 1, zero
 * normals, morph targets, split ranges with unaligned heads and tails, streaming stores, padding
 * outputs, remapped triangles, the thread pool, padding moved between groups, runs of lanes on
 * the same bones, and the vertex-frame lerp kernel. Exits 77 when the CPU lacks the kernel. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skin_kernel_checks.h"
#include "skin_test_util.h"
#include "test_common.h"
#include "ossa/reference.h"
#include "ossa/skin_pool.h"
#include "ossa/vertex_anim.h"

static void count_lines(void *user, const char *message)
{
    (*(int *)user)++;
    CHECK(message && message[0] && !strchr(message, '\n'));
}

static const uint32_t sizes[] = {1, 7, 13, 16, 17, 100, 1001, 4099};

/* skin_kernel_checks.h says what these two helpers do. */
void skin_job_run_mode(ossa_skin_job job, int mode, float *op, float *on)
{
    uint32_t out_n = ossa_skin_mesh_output_count(job.mesh);
    job.out_positions = op;
    job.out_normals = on;
    job.out_capacity = out_n;
    job.begin = 0;
    job.end = out_n;
    job.store = mode == 1 ? OSSA_SKIN_STORE_STREAM : OSSA_SKIN_STORE_CACHED;
    memset(op, 0xff, 3 * (size_t)out_n * sizeof(float));
    memset(on, 0xff, 3 * (size_t)out_n * sizeof(float));
    if (mode < 2) {
        CHECK(ossa_skin_job_validate(&job, NULL) == OSSA_OK);
        CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
        CHECK(ossa_skin_job_kernel(&job) == job.kernel);
        return;
    }
    uint32_t cuts[5] = {0, out_n / 3 + 1, out_n / 2 + 3, out_n - out_n / 5, out_n};
    for (int i = 0; i < 4; i++) {
        job.begin = cuts[i] < cuts[i + 1] ? cuts[i] : cuts[i + 1];
        job.end = cuts[i + 1];
        CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
    }
}

void check_pool_bits(ossa_skin_job job, float *op, float *on, float *op2, float *on2,
                     const char *what)
{
    uint32_t out_n = ossa_skin_mesh_output_count(job.mesh);
    skin_job_run_mode(job, 0, op, on);
    for (uint32_t t = 2; t <= POOL_THREADS_MAX; t++) {
        ossa_skin_pool *pool = NULL;
        CHECK(ossa_skin_pool_create(t, &pool, NULL) == OSSA_OK);
        job.pool = pool;
        skin_job_run_mode(job, 0, op2, on2);
        CHECKF(memcmp(op, op2, 3 * (size_t)out_n * sizeof(float)) == 0, "%s: pool %u positions",
               what, t);
        CHECKF(memcmp(on, on2, 3 * (size_t)out_n * sizeof(float)) == 0, "%s: pool %u normals",
               what, t);
        ossa_skin_pool_destroy(pool);
    }
}

/* bones: palette size (the AVX2 kernel copies palettes of at most 256 bones to a padded stride
 * when the range has at least as many vertices, and reads the caller's layout otherwise).
 * tiny: scale some normals down to 1e-18..3e-20 so that squared lengths are near or below
 * FLT_MIN (the fast rsqrt normalisation must hand those to the exact path). */
static void check_mesh_with(ossa_skin_kernel k, uint32_t n, uint32_t max_inf, uint32_t morphs,
                            uint64_t seed, uint32_t bones, int tiny)
{
    rand_submesh r;
    rand_submesh_make(&r, n, bones, max_inf, morphs, seed);
    if (tiny)
        for (uint32_t v = 0; v < n; v++) {
            float scale = v % 13 == 6 ? 1e-18f : v % 13 == 7 ? 1e-19f : v % 13 == 8 ? 3e-20f : 1.0f;
            for (int c = 0; c < 3; c++)
                r.nrm[3 * v + c] *= scale;
        }
    float *pal = malloc(12 * bones * sizeof(float));
    rand_palette(pal, bones, seed * 3 + 1);
    float mw[4] = {0.3f, -0.2f, 0.7f, 0.0f};

    /* reference: morph in file order (target order), then the scalar reference skinning */
    float *mp = malloc(3 * (size_t)n * sizeof(float)), *mn = malloc(3 * (size_t)n * sizeof(float));
    memcpy(mp, r.pos, 3 * (size_t)n * sizeof(float));
    memcpy(mn, r.nrm, 3 * (size_t)n * sizeof(float));
    for (uint32_t t = 0; t < morphs; t++)
        for (uint32_t i = 0; i < r.morphs[t].count; i++)
            for (int c = 0; c < 3; c++) {
                if (mw[t] == 0.0f)
                    continue;
                mp[3 * r.morphs[t].vertex[i] + c] += mw[t] * r.morphs[t].d_position[3 * i + c];
                mn[3 * r.morphs[t].vertex[i] + c] += mw[t] * r.morphs[t].d_normal[3 * i + c];
            }
    ossa_submesh msm = r.sm;
    msm.positions = mp;
    msm.normals = mn;
    float *ref_p = malloc(3 * (size_t)n * sizeof(float)), *ref_n = malloc(3 * (size_t)n * sizeof(float));
    ossa_skin_submesh_scalar(&msm, pal, ref_p, ref_n, msm.vertex_count, NULL);

    ossa_skin_mesh *mesh = NULL;
    ossa_error err;
    CHECK(ossa_skin_mesh_create(&r.sm, bones, &mesh, &err) == OSSA_OK);
    if (!mesh) {
        fprintf(stderr, "create: %s\n", err.message);
        return;
    }
    uint32_t out_n = ossa_skin_mesh_output_count(mesh);
    CHECK(out_n % OSSA_SKIN_BLOCK == 0 && out_n >= n);
    float *op = alloc_out(out_n), *on = alloc_out(out_n);
    float *op2 = alloc_out(out_n), *on2 = alloc_out(out_n);
    char what[128];

    ossa_skin_job job = {.mesh = mesh, .palette = pal, .palette_size = bones, .kernel = k,
                         .morph_weights = morphs ? mw : NULL};
    for (int mode = 0; mode < 3; mode++) {
        skin_job_run_mode(job, mode, op, on);
        snprintf(what, sizeof what, "%s n=%u inf<=%u morphs=%u mode=%d", ossa_skin_kernel_name(k),
                 n, max_inf, morphs, mode);
        uint32_t bad = compare_to_reference(&r.sm, pal, mp, mn, ref_p, ref_n, mesh, op, on, what);
        CHECKF(bad == 0, "%s: %u vertices differ", what, bad);
        /* padding vertices are written as zeros */
        const uint32_t *src = ossa_skin_mesh_source(mesh);
        uint32_t pads = 0, nonzero = 0;
        for (uint32_t o = 0; o < out_n; o++)
            if (src[o] == OSSA_SKIN_PAD_VERTEX) {
                pads++;
                for (int c = 0; c < 3; c++)
                    nonzero += op[3 * o + c] != 0.0f || on[3 * o + c] != 0.0f;
            }
        CHECK(pads == out_n - n);
        CHECK(nonzero == 0);
    }

    check_pool_bits(job, op, on, op2, on2, "blend");

    /* remapped triangles are the same triangles */
    const uint32_t *idx = ossa_skin_mesh_indices(mesh), *src = ossa_skin_mesh_source(mesh);
    const uint32_t *remap = ossa_skin_mesh_remap(mesh);
    CHECK(ossa_skin_mesh_face_count(mesh) == r.sm.face_count);
    uint32_t tri_bad = 0;
    for (uint32_t i = 0; i < 3 * r.sm.face_count; i++)
        tri_bad += idx[i] >= out_n || src[idx[i]] != r.sm.indices[i];
    for (uint32_t v = 0; v < n; v++)
        tri_bad += src[remap[v]] != v;
    CHECK(tri_bad == 0);

    /* groups cover the output in order, each padded to the block size; a vertex sits in the group
     * of its influence count, or of more when the padding plan moved it up */
    ossa_skin_group groups[OSSA_SKIN_GROUP_COUNT];
    ossa_skin_mesh_groups(mesh, groups);
    uint32_t at = 0, grp_bad = 0;
    for (uint32_t g = 0; g < OSSA_SKIN_GROUP_COUNT; g++) {
        grp_bad += groups[g].begin != at || groups[g].padded_end % OSSA_SKIN_BLOCK != 0;
        for (uint32_t o = groups[g].begin; o < groups[g].end; o++) {
            uint32_t v = src[o], kk = r.sm.influence_start[v + 1] - r.sm.influence_start[v];
            grp_bad += g < OSSA_SKIN_MAX_GROUPED + 1 ? kk > g || (kk == 0 && g != 0)
                                                     : kk <= OSSA_SKIN_MAX_GROUPED;
        }
        at = groups[g].padded_end;
    }
    CHECK(grp_bad == 0 && at == out_n);

    free(op); free(on); free(op2); free(on2);
    ossa_skin_mesh_destroy(mesh);
    free(ref_p); free(ref_n); free(mp); free(mn); free(pal);
    rand_submesh_free(&r);
}

/* The AVX-512 kernel blends a palette of at most 64 bones from a lookup table for a range of 128
 * vertices or more, and vertex by vertex below: the whole mesh as one job and as jobs of 64
 * vertices give the same bits (for every kernel), palettes of 5, 32, 33 and 64 bones. */
static void check_lookup_bits(ossa_skin_kernel k)
{
    static const uint32_t palettes[] = {5, 32, 33, 64};
    for (size_t i = 0; i < sizeof palettes / sizeof palettes[0]; i++) {
        uint32_t bones = palettes[i], n = 3001;
        rand_submesh r;
        rand_submesh_make(&r, n, bones, bones < 8 ? bones : 8, 0, 600 + i);
        float *pal = malloc(12 * bones * sizeof(float));
        rand_palette(pal, bones, 17 + i);
        ossa_skin_mesh *mesh = NULL;
        CHECK(ossa_skin_mesh_create(&r.sm, bones, &mesh, NULL) == OSSA_OK);
        uint32_t out_n = mesh ? ossa_skin_mesh_output_count(mesh) : 0;
        float *op = alloc_out(out_n), *on = alloc_out(out_n);
        float *op2 = alloc_out(out_n), *on2 = alloc_out(out_n);
        ossa_skin_job job = {.mesh = mesh, .palette = pal, .palette_size = bones,
                             .out_positions = op, .out_normals = on, .out_capacity = out_n,
                             .end = out_n, .kernel = k, .store = OSSA_SKIN_STORE_CACHED};
        CHECK(mesh && ossa_skin_job_run(&job, NULL) == OSSA_OK);
        job.out_positions = op2;
        job.out_normals = on2;
        for (uint32_t at = 0; mesh && at < out_n; at += 64) {
            job.begin = at;
            job.end = out_n - at > 64 ? at + 64 : out_n;
            CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
        }
        size_t bytes = 3 * (size_t)out_n * sizeof(float);
        CHECKF(memcmp(op, op2, bytes) == 0 && memcmp(on, on2, bytes) == 0,
               "%s, %u bones: one job and jobs of 64 vertices differ", ossa_skin_kernel_name(k),
               bones);
        ossa_skin_buffer_free(op), ossa_skin_buffer_free(on);
        ossa_skin_buffer_free(op2), ossa_skin_buffer_free(on2);
        ossa_skin_mesh_destroy(mesh);
        free(pal);
        rand_submesh_free(&r);
    }
}

static void check_mesh(ossa_skin_kernel k, uint32_t n, uint32_t max_inf, uint32_t morphs, uint64_t seed)
{
    check_mesh_with(k, n, max_inf, morphs, seed, 67, 0);
}

/* A submesh of n vertices with the given arrays and nothing else. */
static ossa_submesh small_submesh(uint32_t n, const float *pos, const float *nrm,
                                  const uint32_t *start, const ossa_influence *inf)
{
    ossa_submesh sm = {0};
    sm.material = -1;
    sm.vertex_count = n;
    sm.positions = pos;
    sm.normals = nrm;
    sm.influence_start = start;
    sm.influences = inf;
    return sm;
}

/* The padding plan: 17 one-influence vertices and 15 two-influence ones take 32 outputs, not 64
 * (the last one-influence vertex moves up, its second slot weight 0), and the moved vertex skins
 * to the same bits as in a mesh where it keeps its own group. */
static void check_spill(ossa_skin_kernel k)
{
    enum { N = 32, BONES = 5 };
    float pos[3 * N], nrm[3 * N], pal[12 * BONES];
    uint32_t start[N + 1];
    ossa_influence inf[2 * N];
    uint32_t at = 0;
    for (uint32_t v = 0; v < N; v++) {
        start[v] = at;
        for (int c = 0; c < 3; c++) {
            pos[3 * v + c] = 0.37f * (float)v - 1.1f * (float)c;
            nrm[3 * v + c] = c == 1 ? 1.0f : 0.01f * (float)v;
        }
        inf[at++] = (ossa_influence){v % BONES, v < 17 ? 1.0f : 0.625f};
        if (v >= 17)
            inf[at++] = (ossa_influence){(v + 2) % BONES, 0.375f};
    }
    start[N] = at;
    rand_palette(pal, BONES, 5);
    ossa_submesh sm = small_submesh(N, pos, nrm, start, inf);
    ossa_skin_mesh *mesh = NULL, *alone = NULL;
    CHECK(ossa_skin_mesh_create(&sm, BONES, &mesh, NULL) == OSSA_OK);
    if (!mesh)
        return;
    CHECK(ossa_skin_mesh_output_count(mesh) == N);
    ossa_skin_group g[OSSA_SKIN_GROUP_COUNT];
    ossa_skin_mesh_groups(mesh, g);
    CHECK(g[1].begin == 0 && g[1].end == 16 && g[2].begin == 16 && g[2].end == 32);
    CHECK(ossa_skin_mesh_remap(mesh)[16] >= 16); /* the last one-influence vertex moved up */
    /* vertex 16 alone: one vertex, one influence, its own group */
    ossa_submesh one = sm;
    one.vertex_count = 1;
    one.positions = pos + 3 * 16;
    one.normals = nrm + 3 * 16;
    uint32_t one_start[2] = {0, 1};
    one.influence_start = one_start;
    one.influences = inf + 16;
    CHECK(ossa_skin_mesh_create(&one, BONES, &alone, NULL) == OSSA_OK);
    float *op = alloc_out(N), *on = alloc_out(N), *ap = alloc_out(16), *an = alloc_out(16);
    ossa_skin_job job = {.mesh = mesh, .palette = pal, .palette_size = BONES, .out_positions = op,
                         .out_normals = on, .out_capacity = N,
                         .end = ossa_skin_mesh_output_count(mesh)};
    job.kernel = k;
    CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
    if (alone) {
        job = (ossa_skin_job){.mesh = alone, .palette = pal, .palette_size = BONES,
                              .out_positions = ap, .out_normals = an, .out_capacity = 16,
                              .end = ossa_skin_mesh_output_count(alone)};
        job.kernel = k;
        CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
        uint32_t o = ossa_skin_mesh_remap(mesh)[16];
        CHECK(memcmp(op + 3 * o, ap, 3 * sizeof(float)) == 0);
        CHECK(memcmp(on + 3 * o, an, 3 * sizeof(float)) == 0);
    }
    free(op); free(on); free(ap); free(an);
    ossa_skin_mesh_destroy(alone);
    ossa_skin_mesh_destroy(mesh);
}

/* Runs of lanes on the same bones are blended by the SIMD kernels from broadcast palette rows:
 * 16 two-influence vertices on bones (3, 1) fill one block as one run; after `extra` vertices on
 * other bones (which sort first) they share the first block with those, as 2 runs (extra = 1)
 * or 5 (extra = 4, lane by lane). Each of the 16 must skin to the same bits every way. */
enum { RUN_BASE = 16, RUN_EXTRA_MAX = 4, RUN_BONES = 4 };

static void skin_runs(ossa_skin_kernel k, uint32_t extra, const float *pal,
                      float out[2][3 * RUN_BASE])
{
    enum { N = RUN_BASE + RUN_EXTRA_MAX };
    static const uint32_t other[RUN_EXTRA_MAX][2] = {{0, 2}, {0, 3}, {2, 0}, {2, 3}};
    float pos[3 * N], nrm[3 * N];
    uint32_t start[N + 1];
    ossa_influence inf[2 * N];
    uint32_t n = RUN_BASE + extra;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = i < extra ? RUN_BASE + i : i - extra; /* base vertices keep their data */
        start[i] = 2 * i;
        for (int c = 0; c < 3; c++) {
            pos[3 * i + c] = 0.61f * (float)v - 0.9f * (float)c + 0.25f;
            nrm[3 * i + c] = c == 2 ? 1.0f : 0.03f * (float)v - 0.2f;
        }
        float w = 0.55f + 0.02f * (float)v;
        inf[2 * i] = (ossa_influence){i < extra ? other[i][0] : 3u, w};
        inf[2 * i + 1] = (ossa_influence){i < extra ? other[i][1] : 1u, 1.0f - w};
    }
    start[n] = 2 * n;
    ossa_submesh sm = small_submesh(n, pos, nrm, start, inf);
    ossa_skin_mesh *mesh = NULL;
    CHECK(ossa_skin_mesh_create(&sm, RUN_BONES, &mesh, NULL) == OSSA_OK);
    if (!mesh)
        return;
    uint32_t outs = ossa_skin_mesh_output_count(mesh);
    float *op = alloc_out(outs), *on = alloc_out(outs);
    ossa_skin_job job = {.mesh = mesh, .palette = pal, .palette_size = RUN_BONES,
                         .out_positions = op, .out_normals = on, .out_capacity = outs,
                         .end = ossa_skin_mesh_output_count(mesh)};
    job.kernel = k;
    CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
    for (uint32_t i = 0; i < extra; i++)
        CHECK(ossa_skin_mesh_remap(mesh)[i] == i); /* the other bones sort first */
    for (uint32_t v = 0; v < RUN_BASE; v++) {
        uint32_t o = ossa_skin_mesh_remap(mesh)[extra + v];
        memcpy(out[0] + 3 * v, op + 3 * o, 3 * sizeof(float));
        memcpy(out[1] + 3 * v, on + 3 * o, 3 * sizeof(float));
    }
    free(op);
    free(on);
    ossa_skin_mesh_destroy(mesh);
}

static void check_runs(ossa_skin_kernel k)
{
    float pal[12 * RUN_BONES], one[2][3 * RUN_BASE], two[2][3 * RUN_BASE], five[2][3 * RUN_BASE];
    rand_palette(pal, RUN_BONES, 9);
    skin_runs(k, 0, pal, one);
    skin_runs(k, 1, pal, two);
    skin_runs(k, 4, pal, five);
    CHECKF(memcmp(one, two, sizeof one) == 0, "%s: one run and two differ",
           ossa_skin_kernel_name(k));
    CHECKF(memcmp(one, five, sizeof one) == 0, "%s: one run and lane by lane differ",
           ossa_skin_kernel_name(k));
}

static void check_errors(void)
{
    rand_submesh r;
    rand_submesh_make(&r, 50, 10, 4, 0, 5);
    ossa_skin_mesh *mesh = NULL;
    ossa_error err;
    CHECK(ossa_skin_mesh_create(&r.sm, 9, &mesh, &err) == OSSA_ERR_RANGE && mesh == NULL);
    /* a palette size no mesh can take is a bad argument; a bone the palette lacks, bad data */
    CHECK(ossa_skin_mesh_create(&r.sm, 0, &mesh, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_skin_mesh_create(&r.sm, OSSA_SKIN_MAX_PALETTE + 1, &mesh, &err) ==
          OSSA_ERR_INVALID_ARGUMENT && mesh == NULL);
    CHECK(ossa_skin_mesh_create(NULL, 10, &mesh, &err) == OSSA_ERR_INVALID_ARGUMENT);
    r.idx[4] = 50;
    CHECK(ossa_skin_mesh_create(&r.sm, 10, &mesh, &err) == OSSA_ERR_RANGE);
    r.idx[4] = 3;
    CHECK(ossa_skin_mesh_create(&r.sm, 10, &mesh, &err) == OSSA_OK && mesh);
    float pal[120] = {0}, *op = alloc_out(ossa_skin_mesh_output_count(mesh)),
          *on = alloc_out(ossa_skin_mesh_output_count(mesh));
    ossa_skin_job job = {.mesh = mesh, .palette = pal, .palette_size = 10, .out_positions = op,
                         .out_normals = on, .out_capacity = ossa_skin_mesh_output_count(mesh),
                         .end = ossa_skin_mesh_output_count(mesh)};
    CHECK(ossa_skin_job_validate(&job, NULL) == OSSA_OK);
    job.palette_size = 9;
    CHECK(ossa_skin_job_validate(&job, NULL) == OSSA_ERR_INVALID_ARGUMENT);
    job.palette_size = 10;
    job.end = ossa_skin_mesh_output_count(mesh) + 1;
    CHECK(ossa_skin_job_run(&job, NULL) == OSSA_ERR_INVALID_ARGUMENT);
    job.end = 3;
    job.begin = 4;
    CHECK(ossa_skin_job_validate(&job, NULL) == OSSA_ERR_INVALID_ARGUMENT);
    job.begin = 0;
    job.kernel = OSSA_SKIN_KERNEL_COUNT;
    CHECK(ossa_skin_job_validate(&job, NULL) == OSSA_ERR_INVALID_ARGUMENT);
    for (int k = OSSA_SKIN_KERNEL_SCALAR; k < OSSA_SKIN_KERNEL_COUNT; k++) {
        job.kernel = (ossa_skin_kernel)k;
        CHECK(ossa_skin_job_validate(&job, NULL) ==
              (ossa_skin_kernel_available(job.kernel) ? OSSA_OK : OSSA_ERR_UNSUPPORTED));
    }
    free(op);
    free(on);
    ossa_skin_mesh_destroy(mesh);
    rand_submesh_free(&r);
    ossa_skin_kernel parsed = OSSA_SKIN_KERNEL_AUTO;
    CHECK(ossa_skin_kernel_parse("AVX2", &parsed, NULL) == OSSA_OK &&
          parsed == OSSA_SKIN_KERNEL_AVX2);
    ossa_error perr = {0};
    CHECK(ossa_skin_kernel_parse("nope", &parsed, &perr) == OSSA_ERR_INVALID_ARGUMENT &&
          parsed == OSSA_SKIN_KERNEL_AVX2);
    CHECKF(strstr(perr.message, "'nope'") != NULL, "%s", perr.message);
    CHECK(ossa_skin_kernel_parse(NULL, &parsed, NULL) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_skin_kernel_resolve(OSSA_SKIN_KERNEL_SCALAR, NULL) == OSSA_SKIN_KERNEL_SCALAR);
    /* AUTO is the best kernel whatever the environment says; a fallback goes to the log only. */
    setenv("OSSA_SKIN_KERNEL", "scalar", 1);
    CHECK(ossa_skin_kernel_resolve(OSSA_SKIN_KERNEL_AUTO, NULL) == ossa_skin_kernel_best());
    unsetenv("OSSA_SKIN_KERNEL");
    int logged = 0;
    const ossa_log_options log = {count_lines, &logged};
    CHECK(ossa_skin_kernel_resolve(OSSA_SKIN_KERNEL_COUNT, &log) == ossa_skin_kernel_best());
    CHECK(logged == 1);
    CHECK(ossa_skin_kernel_resolve(OSSA_SKIN_KERNEL_SCALAR, &log) == OSSA_SKIN_KERNEL_SCALAR);
    CHECK(logged == 1);
    ossa_skin_traffic t;
    CHECK(ossa_skin_kernel_traffic(OSSA_SKIN_KERNEL_AVX2, 4, OSSA_SKIN_STORE_STREAM, 0, &t,
                                   NULL) == OSSA_OK);
    CHECK(t.read_bytes == 48 && t.write_bytes == 24 && t.streaming == 1);
    CHECK(ossa_skin_kernel_traffic(OSSA_SKIN_KERNEL_SCALAR, 4, OSSA_SKIN_STORE_STREAM, 0, &t,
                                   NULL) == OSSA_OK);
    CHECK(t.streaming == 0);
    CHECK(ossa_skin_kernel_traffic(OSSA_SKIN_KERNEL_AVX2, 1, OSSA_SKIN_STORE_AUTO, 100, &t,
                                   NULL) == OSSA_OK);
    CHECK(t.read_bytes == 32 && t.streaming == 0);
    /* AUTO streams by the job's size: from 262144 vertices on, cached below, never CACHED */
    CHECK(ossa_skin_kernel_traffic(OSSA_SKIN_KERNEL_AVX2, 4, OSSA_SKIN_STORE_AUTO, 262143, &t,
                                   NULL) == OSSA_OK && t.streaming == 0);
    CHECK(ossa_skin_kernel_traffic(OSSA_SKIN_KERNEL_AVX2, 4, OSSA_SKIN_STORE_AUTO, 262144, &t,
                                   NULL) == OSSA_OK && t.streaming == 1);
    CHECK(ossa_skin_kernel_traffic(OSSA_SKIN_KERNEL_AVX2, 4, OSSA_SKIN_STORE_CACHED, 1u << 30,
                                   &t, NULL) == OSSA_OK && t.streaming == 0);
}

/* Where the build has no threads, a pool of one is made and a larger one is refused as
 * unsupported, naming the threads asked for. */
static void check_pool_without_threads(void)
{
    if (POOL_THREADS_MAX > 1)
        return;
    ossa_skin_pool *pool = NULL;
    CHECK(ossa_skin_pool_create(1, &pool, NULL) == OSSA_OK && pool);
    ossa_skin_pool_destroy(pool);
    ossa_error err;
    pool = (ossa_skin_pool *)&err;
    CHECK(ossa_skin_pool_create(2, &pool, &err) == OSSA_ERR_UNSUPPORTED);
    CHECK(pool == NULL && err.status == OSSA_ERR_UNSUPPORTED);
    CHECK(strstr(err.message, "2 threads") != NULL);
}

static void check_lerp(ossa_skin_kernel k)
{
    static const uint32_t counts[] = {1, 3, 7, 13, 100, 1001};
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        uint32_t n = counts[ci];
        test_rng g = {n * 77u + 5};
        size_t f = 3 * (size_t)n;
        float *a = malloc(f * 4), *b = malloc(f * 4), *na = malloc(f * 4), *nb = malloc(f * 4);
        float *p1 = malloc(f * 4), *n1 = malloc(f * 4), *p2 = malloc(f * 4 + 4), *n2 = malloc(f * 4 + 4);
        for (size_t i = 0; i < f; i++) {
            a[i] = rng_f(&g, -100, 100);
            b[i] = rng_f(&g, -100, 100);
            na[i] = rng_f(&g, -1, 1);
            nb[i] = i / 3 == 2 ? -na[i] : rng_f(&g, -1, 1); /* vertex 2 lerps to zero at 0.5 */
        }
        for (int norm = 0; norm < 2; norm++) {
            ossa_frame_lerp_job j = {a, b, na, nb, n, 0.5f, p1, n1, n, norm,
                                     OSSA_SKIN_KERNEL_SCALAR};
            CHECK(ossa_frame_lerp_job_run(&j, NULL) == OSSA_OK);
            /* unaligned outputs for the SIMD kernel */
            j.out_positions = p2 + 1;
            j.out_normals = n2 + 1;
            j.kernel = k;
            CHECK(ossa_frame_lerp_job_run(&j, NULL) == OSSA_OK);
            uint32_t bad = 0;
            for (size_t i = 0; i < f; i++) {
                bad += !(fabs(p1[i] - p2[1 + i]) <= 1e-6 * fmax(1.0, fabs(a[i]) + fabs(b[i])));
                bad += !(fabs(n1[i] - n2[1 + i]) <= 2e-6);
            }
            CHECKF(bad == 0, "lerp %s n=%u normalize=%d: %u values differ", ossa_skin_kernel_name(k), n,
                   norm, bad);
            if (norm) {
                double l = sqrt((double)n1[0] * n1[0] + (double)n1[1] * n1[1] + (double)n1[2] * n1[2]);
                CHECK_NEAR(l, 1.0, 1e-6);
                if (n > 2)
                    CHECK(n1[6] == 0.0f && n1[7] == 0.0f && n1[8] == 0.0f);
            }
            CHECK_NEAR(p1[0], 0.5 * ((double)a[0] + b[0]), 1e-4);
        }
        /* outputs one vertex short are refused, naming out_capacity */
        ossa_error err = {0};
        ossa_frame_lerp_job s = {a, b, NULL, NULL, n, 0.5f, p1, NULL, n - 1, false, k};
        CHECK(ossa_frame_lerp_job_validate(&s, &err) == OSSA_ERR_INVALID_ARGUMENT);
        CHECKF(strstr(err.message, "out_capacity") != NULL, "%s", err.message);
        CHECK(ossa_frame_lerp_job_run(&s, NULL) == OSSA_ERR_INVALID_ARGUMENT);
        free(a); free(b); free(na); free(nb); free(p1); free(n1); free(p2); free(n2);
    }
}

int main(int argc, char **argv)
{
    ossa_skin_kernel k = OSSA_SKIN_KERNEL_SCALAR;
    if ((argc > 1 && ossa_skin_kernel_parse(argv[1], &k, NULL) != OSSA_OK) ||
        k == OSSA_SKIN_KERNEL_AUTO) {
        fprintf(stderr, "usage: test-skin-kernels scalar|sse2|avx2|avx512\n");
        return 1;
    }
    if (!ossa_skin_kernel_available(k)) {
        printf("SKIP: this CPU cannot run the %s kernel\n", ossa_skin_kernel_name(k));
        return TEST_SKIP;
    }
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        check_mesh(k, sizes[i], 4, 0, 11 + i);
        check_mesh(k, sizes[i], 12, 0, 101 + i);
        check_mesh(k, sizes[i], 8, 3, 1001 + i);
    }
    check_mesh(k, 20000, 4, 0, 7);
    /* large palettes (no stack copy), a range shorter than the palette, tiny normals */
    check_mesh_with(k, 4099, 8, 2, 71, 300, 0);
    check_mesh_with(k, 100, 4, 0, 72, 250, 0);
    check_mesh_with(k, 2001, 8, 0, 73, 67, 1);
    check_mesh_with(k, 2001, 4, 2, 74, 1000, 1);
    /* palettes the AVX-512 kernel looks up (at most 32 bones, at most 64) */
    check_mesh_with(k, 4099, 4, 0, 75, 64, 0);
    check_mesh_with(k, 2001, 8, 2, 76, 33, 1);
    check_mesh_with(k, 1001, 4, 0, 77, 32, 0);
    check_mesh_with(k, 300, 3, 0, 78, 5, 0);
    check_lookup_bits(k);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        check_exact_with(k, sizes[i], 4, 0, 211 + i, 67, 1.0f);
        check_exact_with(k, sizes[i], 12, 0, 311 + i, 67, 0.5f);
        check_exact_with(k, sizes[i], 8, 3, 411 + i, 67, 2.0f);
        check_exact_with(k, sizes[i], 8, 0, 511 + i, 67, 0.0f);
    }
    check_exact_with(k, 4099, 8, 2, 81, 300, 1.0f); /* no palette copy */
    check_exact_with(k, 20000, 4, 0, 82, 67, 1.0f);
    check_spill(k);
    check_runs(k);
    check_errors();
    check_pool_without_threads();
    check_lerp(k);
    return test_finish("skin-kernels");
}
