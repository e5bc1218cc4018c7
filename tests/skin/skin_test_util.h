/* Random submeshes and palettes for the skinning tests (seeded, deterministic). */
#ifndef OSSA_SKIN_TEST_UTIL_H
#define OSSA_SKIN_TEST_UTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ossa/skin.h"

typedef struct test_rng { uint64_t s; } test_rng;

static inline uint32_t rng_u32(test_rng *r)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(r->s >> 33);
}
static inline float rng_f(test_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)(rng_u32(r) & 0xffffff) / (float)0x1000000;
}

/* A submesh whose arrays are all malloc'ed (free with rand_submesh_free). */
typedef struct rand_submesh {
    ossa_submesh sm;
    float *pos, *nrm;
    uint32_t *start, *idx;
    ossa_influence *inf;
    ossa_morph_target *morphs;
} rand_submesh;

/* Influence counts cycle through 0..max_inf (more than 8 goes to the general group); one vertex
 * in 9 has a zero normal. */
static inline void rand_submesh_make(rand_submesh *r, uint32_t n, uint32_t bones, uint32_t max_inf,
                                     uint32_t morph_count, uint64_t seed)
{
    test_rng g = {seed};
    memset(r, 0, sizeof *r);
    r->pos = malloc(3 * (size_t)(n + 1) * sizeof(float));
    r->nrm = malloc(3 * (size_t)(n + 1) * sizeof(float));
    r->start = malloc((size_t)(n + 1) * sizeof(uint32_t));
    uint32_t total = 0;
    for (uint32_t v = 0; v < n; v++)
        total += rng_u32(&g) % (max_inf + 1);
    r->inf = malloc((size_t)(total + 1) * sizeof(ossa_influence));
    g.s = seed ^ 0x9e3779b97f4a7c15ull;
    uint32_t at = 0;
    test_rng cnt = {seed};
    for (uint32_t v = 0; v < n; v++) {
        uint32_t k = rng_u32(&cnt) % (max_inf + 1);
        r->start[v] = at;
        for (uint32_t i = 0; i < k; i++) {
            r->inf[at].bone = rng_u32(&g) % bones;
            r->inf[at].weight = rng_f(&g, 0.0f, 1.0f);
            at++;
        }
        for (int c = 0; c < 3; c++) {
            r->pos[3 * v + c] = rng_f(&g, -10.0f, 10.0f);
            r->nrm[3 * v + c] = v % 9 == 4 ? 0.0f : rng_f(&g, -1.0f, 1.0f);
        }
    }
    r->start[n] = at;
    uint32_t faces = n / 2 + 1;
    r->idx = malloc(3 * (size_t)faces * sizeof(uint32_t));
    for (uint32_t i = 0; i < 3 * faces; i++)
        r->idx[i] = n ? rng_u32(&g) % n : 0;
    if (morph_count) {
        r->morphs = calloc(morph_count, sizeof *r->morphs);
        for (uint32_t t = 0; t < morph_count; t++) {
            uint32_t *vx = malloc((size_t)(n + 1) * sizeof(uint32_t));
            float *dp = malloc(3 * (size_t)(n + 1) * sizeof(float));
            float *dn = malloc(3 * (size_t)(n + 1) * sizeof(float));
            uint32_t c = 0;
            for (uint32_t v = 0; v < n; v++) {
                if (rng_u32(&g) % 3)
                    continue;
                vx[c] = v;
                for (int k = 0; k < 3; k++) {
                    dp[3 * c + k] = rng_f(&g, -1.0f, 1.0f);
                    dn[3 * c + k] = rng_f(&g, -0.3f, 0.3f);
                }
                c++;
            }
            r->morphs[t].name = "m";
            r->morphs[t].count = c;
            r->morphs[t].vertex = vx;
            r->morphs[t].d_position = dp;
            r->morphs[t].d_normal = dn;
        }
    }
    ossa_submesh *sm = &r->sm;
    sm->material = -1;
    sm->vertex_count = n;
    sm->face_count = faces;
    sm->positions = r->pos;
    sm->normals = r->nrm;
    sm->influence_start = r->start;
    sm->influences = r->inf;
    sm->indices = r->idx;
    sm->morph_count = morph_count;
    sm->morphs = r->morphs;
    sm->max_influences = max_inf;
}

static inline void rand_submesh_free(rand_submesh *r)
{
    for (uint32_t t = 0; t < r->sm.morph_count; t++) {
        free((void *)r->morphs[t].vertex);
        free((void *)r->morphs[t].d_position);
        free((void *)r->morphs[t].d_normal);
    }
    free(r->morphs);
    free(r->pos);
    free(r->nrm);
    free(r->start);
    free(r->idx);
    free(r->inf);
}

static inline void rand_palette(float *pal, uint32_t bones, uint64_t seed)
{
    test_rng g = {seed};
    for (uint32_t i = 0; i < 12 * bones; i++)
        pal[i] = (i % 4 == 3) ? rng_f(&g, -5.0f, 5.0f) : rng_f(&g, -1.0f, 1.0f);
}

/* Output of a job vs the reference in file order: positions within 1e-5 of the magnitude of the
 * summed terms (max(1, sum |w| * (|M| |p| + |T|))), normals within 1e-5 of their conditioning
 * (magnitude of the summed terms over the length before normalisation). Returns the number of
 * failing vertices and prints the first few. */
static inline uint32_t compare_to_reference(const ossa_submesh *sm, const float *pal,
                                            const float *pos_in, const float *nrm_in,
                                            const float *ref_p, const float *ref_n,
                                            const ossa_skin_mesh *mesh, const float *out_p,
                                            const float *out_n, const char *what)
{
    const uint32_t *remap = ossa_skin_mesh_remap(mesh);
    uint32_t bad = 0;
    for (uint32_t v = 0; v < sm->vertex_count; v++) {
        const float *p = pos_in + 3 * v, *n = nrm_in + 3 * v;
        double mag_p = 0, mag_n = 0, un[3] = {0, 0, 0};
        uint32_t a = sm->influence_start[v], e = sm->influence_start[v + 1];
        double pmax = fmax(fabs(p[0]), fmax(fabs(p[1]), fabs(p[2])));
        double nmax = fmax(fabs(n[0]), fmax(fabs(n[1]), fabs(n[2])));
        for (uint32_t k = a; k < e; k++) {
            const float *m = pal + 12 * sm->influences[k].bone;
            double w = sm->influences[k].weight, s = 0;
            for (int j = 0; j < 12; j++)
                s += fabs(m[j]);
            mag_p += fabs(w) * s * fmax(1.0, pmax);
            mag_n += fabs(w) * s * nmax;
            for (int r = 0; r < 3; r++)
                un[r] += w * (m[4 * r] * (double)n[0] + m[4 * r + 1] * (double)n[1] + m[4 * r + 2] * (double)n[2]);
        }
        if (a == e) {
            mag_p = fmax(1.0, pmax);
            mag_n = nmax;
            un[0] = n[0]; un[1] = n[1]; un[2] = n[2];
        }
        double len = sqrt(un[0] * un[0] + un[1] * un[1] + un[2] * un[2]);
        double tol_p = 1e-5 * fmax(1.0, mag_p);
        double tol_n = len > 0 ? 1e-5 * fmax(1.0, mag_n / len) : 1e-5;
        uint32_t o = remap[v];
        int ok = 1;
        for (int c = 0; c < 3; c++) {
            if (!(fabs((double)out_p[3 * o + c] - ref_p[3 * v + c]) <= tol_p))
                ok = 0;
            if (!(fabs((double)out_n[3 * o + c] - ref_n[3 * v + c]) <= tol_n))
                ok = 0;
        }
        if (!ok) {
            if (bad < 5)
                fprintf(stderr, "%s: vertex %u (out %u, %u influences): p (%g %g %g) vs (%g %g %g), "
                        "n (%g %g %g) vs (%g %g %g)\n", what, v, o, e - a, out_p[3 * o], out_p[3 * o + 1],
                        out_p[3 * o + 2], ref_p[3 * v], ref_p[3 * v + 1], ref_p[3 * v + 2], out_n[3 * o],
                        out_n[3 * o + 1], out_n[3 * o + 2], ref_n[3 * v], ref_n[3 * v + 1], ref_n[3 * v + 2]);
            bad++;
        }
    }
    return bad;
}

static inline float *alloc_out(uint32_t count)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, 3 * (size_t)(count + 16) * sizeof(float)) != 0)
        return NULL;
    return p;
}

/* A cloth submesh over caller arrays: n vertices of one influence each (start[v] = v), their
 * physique weights and springs; no faces, no material. */
static inline ossa_submesh cloth_submesh(uint32_t n, float *pos, float *nrm, uint32_t *start,
                                         ossa_influence *inf, float *phys, uint32_t springs,
                                         ossa_spring *spring)
{
    ossa_submesh sm;
    memset(&sm, 0, sizeof sm);
    sm.vertex_count = n;
    sm.positions = pos;
    sm.normals = nrm;
    sm.influence_start = start;
    sm.influences = inf;
    sm.max_influences = 1;
    sm.physique_weights = phys;
    sm.spring_count = springs;
    sm.springs = spring;
    sm.material = -1;
    return sm;
}

#endif
