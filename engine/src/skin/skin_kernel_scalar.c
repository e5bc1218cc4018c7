/* The scalar stream kernels (blend and exact), their per-vertex forms and block rows with
 * morphs applied, and the scalar frame lerp: the reference the SIMD kernels (skin_sse2.c,
 * skin_avx2.c, skin_avx512.c) fall back on for tails, so they sit below both the kernels and
 * the dispatch (skin_job.c, frame_lerp.c). */
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include "skin_internal.h"

const float *ossa_skin_block_rows_morphed(const skin_range *r, const float *block,
                                          uint32_t out_block, float *scratch)
{
    const struct ossa_skin_mesh *m = r->mesh;
    uint32_t a = m->morph_start[out_block], e = m->morph_start[out_block + 1];
    if (a == e)
        return block;
    memcpy(scratch, block, SKIN_ROWS * sizeof(float));
    for (uint32_t i = a; i < e; i++) {
        const skin_morph_entry *me = &m->morph_entries[i];
        float w = r->morph_weights[me->target];
        if (w == 0.0f)
            continue;
        for (uint32_t c = 0; c < 3; c++) {
            scratch[c * SKIN_B + me->lane] += w * me->dp[c];
            scratch[(3 + c) * SKIN_B + me->lane] += w * me->dn[c];
        }
    }
    return scratch;
}

void ossa_skin_vertex_scalar(const float *rows, const float *weights, const uint16_t *bones,
                             uint32_t k, uint32_t lane, const float *palette, float *out_p,
                             float *out_n)
{
    float x = rows[lane], y = rows[SKIN_B + lane], z = rows[2 * SKIN_B + lane];
    float nx = rows[3 * SKIN_B + lane], ny = rows[4 * SKIN_B + lane], nz = rows[5 * SKIN_B + lane];
    if (k == 0) {
        out_p[0] = x; out_p[1] = y; out_p[2] = z;
        ossa_skin_normalize_store(nx, ny, nz, out_n);
        return;
    }
    float m[12] = {0};
    for (uint32_t i = 0; i < k; i++) {
        const float *mt = palette + 12u * bones[i * SKIN_B + lane];
        float w = weights[i * SKIN_B + lane];
        for (int j = 0; j < 12; j++)
            m[j] += w * mt[j];
    }
    out_p[0] = m[0] * x + m[1] * y + m[2] * z + m[3];
    out_p[1] = m[4] * x + m[5] * y + m[6] * z + m[7];
    out_p[2] = m[8] * x + m[9] * y + m[10] * z + m[11];
    ossa_skin_normalize_store(m[0] * nx + m[1] * ny + m[2] * nz, m[4] * nx + m[5] * ny + m[6] * nz,
                    m[8] * nx + m[9] * ny + m[10] * nz, out_n);
}

/* Exact form: the blended matrix applied to q, plus each influence's rotation of its gap. */
void ossa_skin_vertex_exact_scalar(const float *rows, const float *weights, const uint16_t *bones,
                                   const float *d, uint32_t k, uint32_t lane, const float *palette,
                                   float *out_p, float *out_n)
{
    if (k == 0) {
        ossa_skin_vertex_scalar(rows, weights, bones, 0, lane, palette, out_p, out_n);
        return;
    }
    float x = rows[lane], y = rows[SKIN_B + lane], z = rows[2 * SKIN_B + lane];
    float nx = rows[3 * SKIN_B + lane], ny = rows[4 * SKIN_B + lane], nz = rows[5 * SKIN_B + lane];
    float m[12] = {0}, gx = 0, gy = 0, gz = 0;
    for (uint32_t i = 0; i < k; i++) {
        const float *mt = palette + 12u * bones[i * SKIN_B + lane];
        const float *g = d + 4 * (i * SKIN_B + lane);
        float w = weights[i * SKIN_B + lane];
        for (int j = 0; j < 12; j++)
            m[j] += w * mt[j];
        gx += mt[0] * g[0] + mt[1] * g[1] + mt[2] * g[2];
        gy += mt[4] * g[0] + mt[5] * g[1] + mt[6] * g[2];
        gz += mt[8] * g[0] + mt[9] * g[1] + mt[10] * g[2];
    }
    out_p[0] = m[0] * x + m[1] * y + m[2] * z + m[3] + gx;
    out_p[1] = m[4] * x + m[5] * y + m[6] * z + m[7] + gy;
    out_p[2] = m[8] * x + m[9] * y + m[10] * z + m[11] + gz;
    ossa_skin_normalize_store(m[0] * nx + m[1] * ny + m[2] * nz, m[4] * nx + m[5] * ny + m[6] * nz,
                    m[8] * nx + m[9] * ny + m[10] * nz, out_n);
}

/* The scalar kernels walk the blocks of a range alike; exact meshes' blocks also carry each
 * influence's gap (g->points bytes into the block). */
static void scalar_blocks(const skin_range *r, bool exact)
{
    const skin_group_data *g = &r->mesh->groups[r->group];
    uint32_t k = g->influences;
    float scratch[SKIN_ROWS] __attribute__((aligned(64)));
    for (uint32_t o = r->lo; o < r->hi;) {
        skin_step s = skin_step_at(r, o, k, scratch);
        for (; o < s.stop; o++) {
            float *p = r->out_pos + 3 * (size_t)o, *n = r->out_nrm + 3 * (size_t)o;
            if (exact)
                ossa_skin_vertex_exact_scalar(s.rows, s.w, s.b, s.d, k, o % SKIN_B, r->palette,
                                              p, n);
            else
                ossa_skin_vertex_scalar(s.rows, s.w, s.b, k, o % SKIN_B, r->palette, p, n);
        }
    }
}

void ossa_skin_kernel_scalar(const skin_range *r)
{
    scalar_blocks(r, false);
}

void ossa_skin_kernel_exact_scalar(const skin_range *r)
{
    scalar_blocks(r, true);
}

void ossa_lerp_floats_scalar(const float *a, const float *b, float t, size_t n, float *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = a[i] + t * (b[i] - a[i]);
}

void ossa_normalize3_scalar(float *v, size_t count)
{
    for (size_t i = 0; i < count; i++, v += 3) {
        float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (len > 0.0f) {
            float inv = 1.0f / len;
            v[0] *= inv; v[1] *= inv; v[2] *= inv;
        }
    }
}
