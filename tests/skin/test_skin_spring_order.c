/* The spring relaxation runs its steps sorted by wave (skin_spring.c), not in the file order
 * Cal3D uses. The reordering is exact only if every pair of steps that shares a vertex keeps its
 * order: this test steps random cloths, dense with springs that share vertices (duplicates,
 * self-springs, rigid ends, both passes), alone and as 3 to 16 SIMD lanes, and compares every
 * output bit with Cal3D's relaxation written here in file order on the same skinned input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skin_test_util.h"
#include "test_common.h"
#include "ossa/cloth.h"
#include "skin/skin_direct.h" /* ossa_spring_update_lanes */

#define NV 24
#define NS 90
#define LANES 16

typedef struct ref_cloth {
    float pos[3 * NV], old[3 * NV]; /* particles, output order (free vertices only) */
} ref_cloth;

/* Cal3D's step of the free vertices and its two relaxation passes in file order (CalSpringSystem
 * in 0.11; docs/FORMATS.md, Physique and springs), on out (output order). */
static void ref_step(ref_cloth *c, const ossa_submesh *sm, const uint32_t *remap, float dt,
                     float *out)
{
    for (uint32_t v = 0; v < NV; v++) {
        float w = sm->physique_weights[v];
        if (!(w > 0.0f))
            continue;
        uint32_t o = remap[v];
        float force[3] = {0.0f, 0.5f, -98.1f * w};
        for (int k = 0; k < 3; k++) {
            float cur = c->pos[3 * o + k];
            float next = cur + ((cur - c->old[3 * o + k]) * 0.99f + force[k] / w * dt * dt);
            c->pos[3 * o + k] = isfinite(next) ? next : cur;
            c->old[3 * o + k] = cur;
            out[3 * o + k] = c->pos[3 * o + k];
        }
    }
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < sm->spring_count; i++) {
            uint32_t v0 = sm->springs[i].vertex[0], v1 = sm->springs[i].vertex[1];
            float *a = out + 3 * (size_t)remap[v0], *b = out + 3 * (size_t)remap[v1];
            float d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
            float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (!(len > 0.0f))
                continue;
            float f0 = (len - sm->springs[i].idle_length) / len, f1 = f0;
            if (!isfinite(len) || !isfinite(f0))
                continue;
            if (sm->physique_weights[v0] > 0.0f) {
                f0 /= 2.0f;
                f1 /= 2.0f;
            } else {
                f0 = 0.0f;
            }
            if (!(sm->physique_weights[v1] > 0.0f)) {
                f0 *= 2.0f;
                f1 = 0.0f;
            }
            for (int k = 0; k < 3; k++) {
                a[k] += d[k] * f0;
                b[k] -= d[k] * f1;
            }
        }
    for (uint32_t v = 0; v < NV; v++)
        if (sm->physique_weights[v] > 0.0f)
            memcpy(c->pos + 3 * remap[v], out + 3 * remap[v], 3 * sizeof(float));
}

/* One random cloth stepped 40 frames by 1 to 16 lanes; the count of differing floats. */
static long run_cloth(uint64_t seed)
{
    test_rng g = {seed};
    float pos[3 * NV], nrm[3 * NV], phys[NV];
    uint32_t start[NV + 1];
    ossa_influence inf[NV];
    ossa_spring springs[NS];
    for (uint32_t v = 0; v < NV; v++) {
        for (int k = 0; k < 3; k++) {
            pos[3 * v + k] = rng_f(&g, -2.0f, 2.0f);
            nrm[3 * v + k] = k == 1 ? 1.0f : 0.0f;
        }
        start[v] = v;
        inf[v] = (ossa_influence){rng_u32(&g) % 2, 1.0f};
        phys[v] = rng_u32(&g) % 4 ? rng_f(&g, 0.2f, 3.0f) : 0.0f; /* a quarter rigid */
    }
    start[NV] = NV;
    /* most springs among 8 vertices, so long chains of steps share them; some duplicates and
     * self-springs, whose zero length Cal3D skips */
    for (uint32_t i = 0; i < NS; i++) {
        uint32_t span = rng_u32(&g) % 3 ? 8 : NV;
        uint32_t v0 = rng_u32(&g) % span, v1 = rng_u32(&g) % span;
        if (i % 17 == 5)
            springs[i] = springs[i - 3];
        else
            springs[i] = (ossa_spring){{v0, v1}, 1000.0f, rng_f(&g, 0.0f, 1.5f)};
    }
    ossa_submesh sm = cloth_submesh(NV, pos, nrm, start, inf, phys, NS, springs);

    ossa_skin_mesh *mesh = NULL;
    CHECK(ossa_skin_mesh_create(&sm, 2, &mesh, NULL) == OSSA_OK);
    if (!mesh)
        return 1;
    uint32_t out_n = ossa_skin_mesh_output_count(mesh);
    const uint32_t *remap = ossa_skin_mesh_remap(mesh);
    ossa_spring_state *st[LANES] = {0};
    float *op[LANES], *want[LANES], *on = alloc_out(out_n);
    ref_cloth ref[LANES];
    for (uint32_t l = 0; l < LANES; l++) {
        CHECK(ossa_spring_state_create(mesh, &st[l], NULL) == OSSA_OK);
        op[l] = alloc_out(out_n);
        want[l] = alloc_out(out_n);
        memset(&ref[l], 0, sizeof ref[l]);
        for (uint32_t v = 0; v < NV; v++)
            for (int k = 0; k < 3; k++)
                ref[l].pos[3 * remap[v] + k] = ref[l].old[3 * remap[v] + k] = pos[3 * v + k];
    }
    long diff = 0;
    /* scalar, 4-wide, 8-wide and two chains of 8 (with AVX2) relaxations */
    const uint32_t groups[] = {1, 3, 5, 8, 9, 12, 16, 2};
    for (int frame = 0; frame < 40; frame++) {
        float dt = frame % 7 == 3 ? 0.05f : 1.0f / 60.0f, dts[LANES];
        uint32_t lanes = groups[frame % 8];
        for (uint32_t l = 0; l < lanes; l++) {
            dts[l] = dt * (0.8f + 0.025f * (float)l); /* a crowd: each lane at its own speed */
            /* each lane's rigid bone on its own path */
            float a = 0.3f * sinf(0.2f * (float)frame + (float)l), c = cosf(a), s = sinf(a);
            float pal[24] = {c, -s, 0, 0.1f * (float)l, s, c, 0, 0.02f * (float)frame, 0, 0, 1, 0,
                             1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
            ossa_skin_job job = {.mesh = mesh, .palette = pal, .palette_size = 2,
                                 .out_positions = op[l], .out_normals = on, .out_capacity = out_n,
                                 .end = ossa_skin_mesh_output_count(mesh)};
            CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
            memcpy(want[l], op[l], 3 * sizeof(float) * out_n);
            ref_step(&ref[l], &sm, remap, dts[l], want[l]);
        }
        ossa_spring_update_lanes(st, op, lanes, dts);
        for (uint32_t l = 0; l < lanes; l++)
            for (uint32_t i = 0; i < 3 * out_n; i++)
                diff += memcmp(&op[l][i], &want[l][i], sizeof(float)) != 0;
    }
    for (uint32_t l = 0; l < LANES; l++) {
        ossa_spring_state_destroy(st[l]);
        free(op[l]);
        free(want[l]);
    }
    free(on);
    ossa_skin_mesh_destroy(mesh);
    return diff;
}

int main(void)
{
    long diff = 0;
    for (uint64_t seed = 1; seed <= 12; seed++)
        diff += run_cloth(seed);
    printf("spring order: 12 cloths x 40 frames, %ld floats differ from file order\n", diff);
    CHECK(diff == 0);
    return test_finish("skin-spring-order");
}
