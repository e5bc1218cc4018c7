/* Cal3D springs against a straightforward file-order implementation of docs/FORMATS.md
 * (Physique and springs) written here: a cloth grid hanging from a moving rigid row. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skin_test_util.h"
#include "test_common.h"
#include "ossa/reference.h"
#include "ossa/cloth.h"

#define GW 7
#define GH 5
#define NV (GW * GH)

int main(void)
{
    float pos[3 * NV], nrm[3 * NV], phys[NV];
    uint32_t start[NV + 1];
    ossa_influence inf[NV];
    ossa_spring springs[2 * NV];
    uint32_t ns = 0;
    for (uint32_t y = 0; y < GH; y++)
        for (uint32_t x = 0; x < GW; x++) {
            uint32_t v = y * GW + x;
            pos[3 * v] = (float)x;
            pos[3 * v + 1] = 0.1f * (float)x;
            pos[3 * v + 2] = -(float)y;
            nrm[3 * v] = 0; nrm[3 * v + 1] = 1; nrm[3 * v + 2] = 0;
            start[v] = v;
            inf[v].bone = y == 0 ? 0 : 1;
            inf[v].weight = 1.0f;
            phys[v] = y == 0 ? 0.0f : 0.5f + 0.25f * (float)((x + y) % 4); /* top row rigid */
            if (x + 1 < GW)
                springs[ns++] = (ossa_spring){{v, v + 1}, 1000.0f, 1.0f};
            if (y + 1 < GH)
                springs[ns++] = (ossa_spring){{v + GW, v}, 1000.0f, 1.0f}; /* free first: v0 movable */
        }
    start[NV] = NV;
    ossa_submesh sm = cloth_submesh(NV, pos, nrm, start, inf, phys, ns, springs);

    ossa_skin_mesh *mesh = NULL;
    CHECK(ossa_skin_mesh_create(&sm, 2, &mesh, NULL) == OSSA_OK);
    ossa_spring_state *st = NULL;
    CHECK(ossa_spring_state_create(mesh, &st, NULL) == OSSA_OK);
    if (!mesh || !st)
        return test_finish("skin-springs");
    uint32_t out_n = ossa_skin_mesh_output_count(mesh);
    const uint32_t *remap = ossa_skin_mesh_remap(mesh);
    float *op = alloc_out(out_n), *on = alloc_out(out_n);

    /* reference state, file order */
    float rp[3 * NV], ro[3 * NV], vtx[3 * NV], vn[3 * NV];
    memcpy(rp, pos, sizeof rp);
    memcpy(ro, pos, sizeof ro);

    float pal[24];
    const float dt = 1.0f / 60.0f;
    double max_err = 0, max_move = 0;
    for (int frame = 0; frame < 90; frame++) {
        /* bone 0 (the rigid row) swings about z and translates; bone 1 is identity */
        float a = 0.4f * sinf(0.1f * (float)frame), c = cosf(a), s = sinf(a);
        float p0[12] = {c, -s, 0, 0.2f * (float)frame * dt, s, c, 0, 0, 0, 0, 1, 0.05f * sinf(0.2f * (float)frame)};
        float p1[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
        memcpy(pal, p0, sizeof p0);
        memcpy(pal + 12, p1, sizeof p1);

        /* runtime */
        ossa_skin_job job = {.mesh = mesh, .palette = pal, .palette_size = 2, .out_positions = op,
                             .out_normals = on, .out_capacity = ossa_skin_mesh_output_count(mesh),
                             .end = ossa_skin_mesh_output_count(mesh)};
        CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
        CHECK(ossa_spring_update(st, dt, op, out_n, NULL) == OSSA_OK);

        /* reference: skin, Verlet, 2 relaxation passes */
        ossa_skin_submesh_scalar(&sm, pal, vtx, vn, sm.vertex_count, NULL);
        for (uint32_t v = 0; v < NV; v++) {
            if (phys[v] > 0.0f) {
                float F[3] = {0.0f, 0.5f, -98.1f * phys[v]};
                for (int k = 0; k < 3; k++) {
                    float cur = rp[3 * v + k];
                    rp[3 * v + k] = cur + (cur - ro[3 * v + k]) * 0.99f + F[k] / phys[v] * dt * dt;
                    ro[3 * v + k] = cur;
                    vtx[3 * v + k] = rp[3 * v + k];
                }
            } else {
                for (int k = 0; k < 3; k++)
                    rp[3 * v + k] = vtx[3 * v + k];
            }
        }
        for (int it = 0; it < 2; it++)
            for (uint32_t i = 0; i < ns; i++) {
                uint32_t v0 = springs[i].vertex[0], v1 = springs[i].vertex[1];
                float d[3], len2 = 0;
                for (int k = 0; k < 3; k++) {
                    d[k] = vtx[3 * v1 + k] - vtx[3 * v0 + k];
                    len2 += d[k] * d[k];
                }
                float len = sqrtf(len2);
                if (len <= 0.0f)
                    continue;
                float f = (len - springs[i].idle_length) / len;
                int m0 = phys[v0] > 0.0f, m1 = phys[v1] > 0.0f;
                float f0 = m0 && m1 ? f / 2 : (m0 ? f : 0.0f);
                float f1 = m0 && m1 ? f / 2 : (m1 ? f : 0.0f);
                for (int k = 0; k < 3; k++) {
                    vtx[3 * v0 + k] += d[k] * f0;
                    vtx[3 * v1 + k] -= d[k] * f1;
                }
                for (int k = 0; k < 3; k++) {
                    rp[3 * v0 + k] = m0 ? vtx[3 * v0 + k] : rp[3 * v0 + k];
                    rp[3 * v1 + k] = m1 ? vtx[3 * v1 + k] : rp[3 * v1 + k];
                }
            }
        for (uint32_t v = 0; v < NV; v++)
            for (int k = 0; k < 3; k++) {
                double e = fabs((double)op[3 * remap[v] + k] - vtx[3 * v + k]);
                if (e > max_err)
                    max_err = e;
                double mv = fabs((double)vtx[3 * v + k] - pos[3 * v + k]);
                if (mv > max_move)
                    max_move = mv;
            }
    }
    printf("springs: 90 frames, max |runtime - reference| = %g, max displacement %g\n", max_err, max_move);
    CHECK(max_err <= 1e-4);
    CHECK(max_move > 0.5); /* the cloth really moved */
    /* spring vertices are not where skinning alone puts them (bone 1 is the identity) */
    CHECK(fabs(op[3 * remap[NV - 1]] - pos[3 * (NV - 1)]) + fabs(op[3 * remap[NV - 1] + 1] - pos[3 * (NV - 1) + 1]) > 1e-3);

    /* reset returns to bind */
    ossa_spring_state_reset(st);
    ossa_skin_job job;
    float ident[24] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    job = (ossa_skin_job){.mesh = mesh, .palette = ident, .palette_size = 2, .out_positions = op,
                          .out_normals = on, .out_capacity = ossa_skin_mesh_output_count(mesh),
                          .end = ossa_skin_mesh_output_count(mesh)};
    CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
    CHECK(ossa_spring_update(st, 0.0f, op, out_n, NULL) == OSSA_OK);
    for (uint32_t v = 0; v < NV; v++)
        CHECK_NEAR(op[3 * remap[v] + 2], pos[3 * v + 2], 1e-5);

    /* reset_to: at rest where the skin put the vertices. Both bones moved 2 along Z: a zero step
     * from there gives the bind reset's zero step (just above) moved 2 along Z. */
    float *at_bind = malloc(3 * sizeof(float) * ossa_skin_mesh_output_count(mesh));
    memcpy(at_bind, op, 3 * sizeof(float) * ossa_skin_mesh_output_count(mesh));
    float lifted[24];
    memcpy(lifted, ident, sizeof lifted);
    lifted[11] = lifted[23] = 2.0f;
    job = (ossa_skin_job){.mesh = mesh, .palette = lifted, .palette_size = 2, .out_positions = op,
                          .out_normals = on, .out_capacity = ossa_skin_mesh_output_count(mesh),
                          .end = ossa_skin_mesh_output_count(mesh)};
    CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
    CHECK(ossa_spring_state_reset_to(st, op, out_n, NULL) == OSSA_OK);
    CHECK(ossa_spring_update(st, 0.0f, op, out_n, NULL) == OSSA_OK);
    for (uint32_t v = 0; v < NV; v++)
        for (int k = 0; k < 3; k++)
            CHECK_NEAR(op[3 * remap[v] + k], at_bind[3 * remap[v] + k] + (k == 2 ? 2.0f : 0.0f),
                       1e-5);
    free(at_bind);
    /* a non-finite position starts that vertex at its bind place; the cloth stays finite */
    CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
    op[3 * remap[NV - 1] + 1] = NAN;
    CHECK(ossa_spring_state_reset_to(st, op, out_n, NULL) == OSSA_OK);
    CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
    CHECK(ossa_spring_update(st, 1.0f / 30.0f, op, out_n, NULL) == OSSA_OK);
    for (uint32_t i = 0; i < 3 * NV; i++)
        CHECK(isfinite(op[i]));
    /* outputs one vertex short are refused, named with both sizes, and left untouched */
    float *short_p = alloc_out(out_n), *short_n = alloc_out(out_n);
    for (uint32_t i = 0; i < 3 * out_n; i++)
        short_p[i] = short_n[i] = -5.0f;
    ossa_error err = {0};
    job = (ossa_skin_job){.mesh = mesh, .palette = lifted, .palette_size = 2,
                          .out_positions = short_p, .out_normals = short_n,
                          .out_capacity = out_n - 1, .end = ossa_skin_mesh_output_count(mesh)};
    CHECK(ossa_skin_job_run(&job, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err.message, "out_capacity") && strstr(err.message, "needs"), "%s",
           err.message);
    ossa_error_clear(&err);
    CHECK(ossa_spring_update(st, 1.0f / 30.0f, short_p, out_n - 1, &err) ==
          OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err.message, "out_positions holds") && strstr(err.message, "outputs"), "%s",
           err.message);
    bool untouched = true;
    for (uint32_t i = 0; i < 3 * out_n; i++)
        untouched &= short_p[i] == -5.0f && short_n[i] == -5.0f;
    CHECK(untouched);
    free(short_p);
    free(short_n);
    /* positions one vertex short are refused, naming both sizes */
    ossa_error_clear(&err);
    CHECK(ossa_spring_state_reset_to(st, op, out_n - 1, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err.message, "vertex_capacity") && strstr(err.message, "outputs"), "%s",
           err.message);
    CHECK(ossa_spring_state_reset_to(st, NULL, 0, NULL) == OSSA_OK); /* NULL: the bind reset */
    CHECK(ossa_spring_state_reset_to(NULL, op, out_n, NULL) == OSSA_ERR_INVALID_ARGUMENT);

    /* a mesh without springs has no spring state */
    sm.spring_count = 0;
    ossa_skin_mesh *plain = NULL;
    ossa_spring_state *none = NULL;
    CHECK(ossa_skin_mesh_create(&sm, 2, &plain, NULL) == OSSA_OK);
    CHECK(ossa_spring_state_create(plain, &none, NULL) == OSSA_ERR_INVALID_ARGUMENT && !none);
    ossa_skin_mesh_destroy(plain);

    free(op);
    free(on);
    ossa_spring_state_destroy(st);
    ossa_skin_mesh_destroy(mesh);
    return test_finish("skin-springs");
}
