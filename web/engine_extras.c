/* The page's textures, .glb export and skinning bench (engine_api.h). */
#include <emscripten/emscripten.h>
#include <stdlib.h>
#include <string.h>
#include "bench_model.h"
#include "engine_internal.h"

EMSCRIPTEN_KEEPALIVE int ossa_web_texture(web_character *c, uint32_t material)
{
    ossa_error err = {0};
    ossa_texture_file_free(&c->texture);
    memset(&c->texture, 0, sizeof c->texture);
    const ossa_texture_map *map = material < c->model->material_count
                                      ? ossa_material_diffuse_map(&c->model->materials[material])
                                      : NULL;
    if (!map) {
        web_fail(OSSA_ERR_INVALID_ARGUMENT, "the material has no diffuse texture map");
        return -1;
    }
    if (ossa_texture_read(map->path ? map->path : map->file, &c->texture, &err) != OSSA_OK) {
        web_set_error(&err);
        return -1;
    }
    return 0;
}

EMSCRIPTEN_KEEPALIVE uintptr_t ossa_web_texture_field(const web_character *c, int what)
{
    const ossa_texture_file *t = &c->texture;
    switch (what) {
    case 0: return (uintptr_t)t->data;
    case 1: return t->size;
    case 2: return t->info.width;
    case 3: return t->info.height;
    case 4: return (uintptr_t)(t->info.type_name ? t->info.type_name : "");
    case 5: return (uintptr_t)t->path;
    default: return 0;
    }
}

/* Appends a streamed export's bytes to the character's buffer. */
static bool glb_append(void *user, const void *data, size_t size)
{
    web_character *c = user;
    if (size > c->glb_capacity - c->glb_size) {
        size_t cap = c->glb_capacity ? c->glb_capacity : 1u << 16;
        while (cap - c->glb_size < size) {
            if (cap > SIZE_MAX / 2)
                return false;
            cap *= 2;
        }
        uint8_t *grown = realloc(c->glb, cap);
        if (!grown)
            return false;
        c->glb = grown;
        c->glb_capacity = cap;
    }
    memcpy(c->glb + c->glb_size, data, size);
    c->glb_size += size;
    return true;
}

EMSCRIPTEN_KEEPALIVE int ossa_web_export_glb(web_character *c)
{
    ossa_error err = {0};
    c->glb_size = 0;
    if (ossa_export_glb_stream(c->model, NULL, glb_append, c, &err) != OSSA_OK) {
        web_set_error(&err);
        return -1;
    }
    if (c->glb_size > INT32_MAX) {
        web_fail(OSSA_ERR_RANGE, "the .glb is over 2 GB");
        return -1;
    }
    return (int)c->glb_size;
}

EMSCRIPTEN_KEEPALIVE const uint8_t *ossa_web_export_data(const web_character *c)
{
    return c->glb;
}

/* ---- the bench ----------------------------------------------------------------------------- */

#define BENCH_ROUND_MS 20.0
#define BENCH_MAX_ROUNDS 64u

typedef struct bench_mesh {
    ossa_model *model;
    ossa_skin_mesh *mesh;
    float *palette, *positions, *normals;
    uint32_t outputs;
} bench_mesh;

static void bench_mesh_free(bench_mesh *b)
{
    ossa_skin_mesh_destroy(b->mesh);
    ossa_skin_buffer_free(b->positions);
    ossa_skin_buffer_free(b->normals);
    free(b->palette);
    ossa_model_destroy(b->model);
}

/* `ossa bench --vertices N`'s mesh (the same parameters and seed), its palette at 0.37 s of its
 * clip as that bench poses it, and cached outputs. */
static ossa_status bench_mesh_make(uint32_t vertices, bench_mesh *b, ossa_error *err)
{
    bench_model_params params = {vertices, 4, 64, 31, 2.0f, BENCH_SEED, 1};
    ossa_status st = bench_synthetic_model(&params, &b->model, err);
    if (st != OSSA_OK)
        return st;
    const ossa_model *m = b->model;
    float *block = malloc((size_t)m->bone_count * OSSA_REFERENCE_POSE_FLOATS * sizeof(float));
    b->palette = malloc((size_t)m->bone_count * 12 * sizeof(float));
    if (!block || !b->palette) {
        free(block);
        return OSSA_ERR_NOMEM;
    }
    ossa_reference_pose pose = ossa_reference_pose_in(block, m->bone_count);
    pose.palette = b->palette;
    st = ossa_reference_pose_at(m, &m->clips[0], 0.37f, OSSA_WRAP_LOOP, &pose, err);
    free(block);
    if (st != OSSA_OK)
        return st;
    st = ossa_skin_mesh_create(&m->meshes[0].submeshes[0], m->bone_count, &b->mesh, err);
    if (st != OSSA_OK)
        return st;
    b->outputs = ossa_skin_mesh_output_count(b->mesh);
    b->positions = ossa_skin_buffer_alloc(3 * (size_t)b->outputs * sizeof(float));
    b->normals = ossa_skin_buffer_alloc(3 * (size_t)b->outputs * sizeof(float));
    return b->positions && b->normals ? OSSA_OK : OSSA_ERR_NOMEM;
}

/* Seconds one run of kernel takes, timed over about BENCH_ROUND_MS of runs. */
static double bench_round(const bench_mesh *b, ossa_skin_kernel kernel)
{
    ossa_skin_job job = {.mesh = b->mesh, .palette = b->palette, .palette_size = 64,
                         .out_positions = b->positions, .out_normals = b->normals,
                         .out_capacity = b->outputs, .begin = 0, .end = b->outputs,
                         .kernel = kernel, .store = OSSA_SKIN_STORE_CACHED};
    uint32_t runs = 0;
    double start = emscripten_get_now(), now;
    do {
        ossa_skin_job_run(&job, NULL);
        runs++;
        now = emscripten_get_now();
    } while (now - start < BENCH_ROUND_MS);
    return (now - start) * 1e-3 / runs;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

EMSCRIPTEN_KEEPALIVE int ossa_web_bench(uint32_t vertices, uint32_t rounds, double *out)
{
    static const ossa_skin_kernel kernels[2] = {OSSA_SKIN_KERNEL_SCALAR, OSSA_SKIN_KERNEL_SSE2};
    ossa_error err = {0};
    bench_mesh b = {0};
    out[0] = out[1] = 0;
    if (vertices < 64 || vertices > (1u << 22) || rounds < 1 || rounds > BENCH_MAX_ROUNDS) {
        web_fail(OSSA_ERR_INVALID_ARGUMENT, "bench: 64 .. 4194304 vertices, 1 .. 64 rounds");
        return -1;
    }
    ossa_status st = bench_mesh_make(vertices, &b, &err);
    if (st != OSSA_OK) {
        if (st == OSSA_ERR_NOMEM && !err.message[0])
            web_fail(st, "bench: out of memory for the mesh");
        else
            web_set_error(&err);
        bench_mesh_free(&b);
        return -1;
    }
    double seconds[2][BENCH_MAX_ROUNDS];
    for (int k = 0; k < 2; k++)
        if (ossa_skin_kernel_available(kernels[k]))
            bench_round(&b, kernels[k]); /* warm-up */
    /* Interleaved, so that a slow stretch of the machine slows every kernel alike. */
    for (uint32_t r = 0; r < rounds; r++)
        for (int k = 0; k < 2; k++)
            seconds[k][r] = ossa_skin_kernel_available(kernels[k]) ? bench_round(&b, kernels[k])
                                                                   : 0;
    for (int k = 0; k < 2; k++) {
        qsort(seconds[k], rounds, sizeof(double), by_value);
        double median = seconds[k][rounds / 2];
        out[k] = median > 0 ? vertices / median * 1e-6 : 0;
    }
    bench_mesh_free(&b);
    return 0;
}
