/* Cal3D cloth on numbers no exporter writes, found by a hostile-input probe: a spring idle
 * length of 3e38 turned the first step NaN, a physique weight of 3e38 gave -Inf. Validation now
 * bounds both (a model holding them does not load), and the step itself keeps every particle
 * finite where Cal3D's arithmetic would overflow (weights a denormal from 0, say), so a model
 * built by hand cannot blow up the cloth either. Stepped in SIMD lanes, several characters get
 * the bits each gets alone, these cases included. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skin_test_util.h"
#include "test_common.h"
#include "ossa/cloth.h"
#include "skin/skin_direct.h" /* ossa_spring_update_lanes */

#define NV 4

typedef struct cloth {
    float pos[3 * NV], nrm[3 * NV], phys[NV];
    uint32_t start[NV + 1];
    ossa_influence inf[NV];
    ossa_spring springs[3];
    ossa_submesh sm;
    ossa_mesh mesh;
    ossa_model model;
} cloth;

/* A rigid vertex with a chain of three free ones below it. */
static void make_cloth(cloth *c, float idle, float weight)
{
    memset(c, 0, sizeof *c);
    for (uint32_t v = 0; v < NV; v++) {
        c->pos[3 * v + 2] = -(float)v;
        c->nrm[3 * v + 1] = 1.0f;
        c->start[v] = v;
        c->inf[v] = (ossa_influence){0, 1.0f};
        c->phys[v] = v == 0 ? 0.0f : weight;
        if (v)
            c->springs[v - 1] = (ossa_spring){{v, v - 1}, 1000.0f, idle};
    }
    c->start[NV] = NV;
    c->sm.vertex_count = NV;
    c->sm.positions = c->pos;
    c->sm.normals = c->nrm;
    c->sm.influence_start = c->start;
    c->sm.influences = c->inf;
    c->sm.max_influences = 1;
    c->sm.physique_weights = c->phys;
    c->sm.spring_count = NV - 1;
    c->sm.springs = c->springs;
    c->sm.material = -1;
    c->mesh.name = "cloth";
    c->mesh.submesh_count = 1;
    c->mesh.submeshes = &c->sm;
    c->model.mesh_count = 1;
    c->model.meshes = &c->mesh;
    c->model.scale = 1.0f;
}

/* Steps the cloth for two seconds of 60 Hz frames (and a few absurd time steps); true when
 * every output stays finite. */
static bool stays_finite(const cloth *c, const char *what)
{
    ossa_skin_mesh *mesh = NULL;
    ossa_spring_state *st = NULL;
    CHECK(ossa_skin_mesh_create(&c->sm, 1, &mesh, NULL) == OSSA_OK);
    CHECK(mesh && ossa_spring_state_create(mesh, &st, NULL) == OSSA_OK);
    if (!mesh || !st) {
        ossa_skin_mesh_destroy(mesh);
        return false;
    }
    uint32_t n = ossa_skin_mesh_output_count(mesh);
    float *op = alloc_out(n), *on = alloc_out(n);
    const float pal[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    bool finite = true;
    for (int frame = 0; frame < 130 && finite; frame++) {
        float dt = frame < 120 ? 1.0f / 60.0f : frame < 125 ? 1e19f : 1e-30f;
        ossa_skin_job job = {.mesh = mesh, .palette = pal, .palette_size = 1, .out_positions = op,
                             .out_normals = on, .out_capacity = ossa_skin_mesh_output_count(mesh),
                             .end = ossa_skin_mesh_output_count(mesh)};
        CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
        CHECK(ossa_spring_update(st, dt, op, n, NULL) == OSSA_OK);
        for (uint32_t i = 0; i < 3 * n; i++)
            finite &= isfinite(op[i]) != 0;
        CHECKF(finite, "%s: frame %d dt %g: not finite", what, frame, (double)dt);
    }
    free(op);
    free(on);
    ossa_spring_state_destroy(st);
    ossa_skin_mesh_destroy(mesh);
    return finite;
}

/* The same cloth stepped in SIMD lanes (ossa_spring_update_lanes, 1 to 8 characters: 4 wide,
 * and 8 wide where the CPU has AVX2) and one character at a time: the same bits in every lane,
 * each lane posed at its own scale (one at 0, where every spring has length 0) so that some lanes
 * skip a spring (its factor overflows) where others move it. */
static void lanes_equal(const cloth *c, const char *what)
{
    enum { L = SPRING_LANES };
    static const float scale[L] = {1.0f, 0.5f, 2.0f, 1e-3f, 1.5f, 0.75f, 3.0f, 0.0f};
    ossa_skin_mesh *mesh = NULL;
    CHECK(ossa_skin_mesh_create(&c->sm, 1, &mesh, NULL) == OSSA_OK);
    if (!mesh)
        return;
    uint32_t n = ossa_skin_mesh_output_count(mesh), differ = 0;
    for (uint32_t lanes = 1; lanes <= L; lanes++) { /* 4 wide up to 4, 8 wide with AVX2 */
        ossa_spring_state *st[L] = {0}, *ref[L] = {0};
        float *op[L], *on[L], *rp[L];
        for (uint32_t l = 0; l < L; l++) {
            CHECK(ossa_spring_state_create(mesh, &st[l], NULL) == OSSA_OK);
            CHECK(ossa_spring_state_create(mesh, &ref[l], NULL) == OSSA_OK);
            op[l] = alloc_out(n), on[l] = alloc_out(n), rp[l] = alloc_out(n);
        }
        for (int frame = 0; frame < 130; frame++) {
            float dt = frame < 120 ? 1.0f / 60.0f : frame < 125 ? 1e19f : 1e-30f, dts[L];
            for (uint32_t l = 0; l < lanes; l++) {
                dts[l] = dt;
                const float k = scale[l], pal[12] = {k, 0, 0, 0.1f * (float)l, 0, k, 0, 0,
                                                     0, 0, k, -0.2f * (float)l};
                ossa_skin_job job = {.mesh = mesh, .palette = pal, .palette_size = 1,
                                     .out_positions = op[l], .out_normals = on[l],
                                     .out_capacity = n, .end = ossa_skin_mesh_output_count(mesh)};
                CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
                memcpy(rp[l], op[l], 3 * (size_t)n * sizeof(float));
                CHECK(ossa_spring_update(ref[l], dt, rp[l], n, NULL) == OSSA_OK);
            }
            ossa_spring_update_lanes(st, op, lanes, dts);
            for (uint32_t l = 0; l < lanes; l++)
                differ += memcmp(op[l], rp[l], 3 * (size_t)n * sizeof(float)) != 0;
        }
        for (uint32_t l = 0; l < L; l++) {
            free(op[l]);
            free(on[l]);
            free(rp[l]);
            ossa_spring_state_destroy(st[l]);
            ossa_spring_state_destroy(ref[l]);
        }
    }
    CHECKF(differ == 0, "%s: %u lane frames differ from single steps", what, differ);
    ossa_skin_mesh_destroy(mesh);
}

int main(void)
{
    static cloth c;
    ossa_error err;

    make_cloth(&c, 1.0f, 0.5f);
    CHECKF(ossa_model_validate(&c.model, &err) == OSSA_OK, "%s", err.message);
    CHECK(stays_finite(&c, "ordinary cloth"));
    lanes_equal(&c, "ordinary cloth");

    make_cloth(&c, 3e38f, 0.5f);
    ossa_error_clear(&err);
    CHECKF(ossa_model_validate(&c.model, &err) == OSSA_ERR_VALUE &&
               strstr(err.message, "idle length") != NULL, "%s", err.message);
    CHECK(stays_finite(&c, "idle length 3e38"));
    lanes_equal(&c, "idle length 3e38");

    make_cloth(&c, 1.0f, 3e38f);
    ossa_error_clear(&err);
    CHECKF(ossa_model_validate(&c.model, &err) == OSSA_ERR_VALUE &&
               strstr(err.message, "physique weight") != NULL, "%s", err.message);
    CHECK(stays_finite(&c, "physique weight 3e38"));

    make_cloth(&c, 1.0f, 1e-44f); /* a denormal: force / weight overflows */
    CHECK(stays_finite(&c, "physique weight 1e-44"));
    lanes_equal(&c, "physique weight 1e-44");

    c.phys[2] = NAN;
    ossa_error_clear(&err);
    CHECK(ossa_model_validate(&c.model, &err) == OSSA_ERR_VALUE);
    return test_finish("skin-springs-hostile");
}
