/* Kernel selection, skin job validation and dispatch, the scalar stream kernels (blend and
 * exact), the general (> 8 influences) group and morph blending. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "skin_internal.h"

static const char *const kernel_names[OSSA_SKIN_KERNEL_COUNT] = {"auto", "scalar", "sse2", "avx2",
                                                                 "avx512"};

const char *ossa_skin_kernel_name(ossa_skin_kernel k)
{
    return (unsigned)k < OSSA_SKIN_KERNEL_COUNT ? kernel_names[k] : "?";
}

ossa_skin_kernel ossa_skin_kernel_parse(const char *name)
{
    if (!name)
        return OSSA_SKIN_KERNEL_COUNT;
    for (int k = 0; k < OSSA_SKIN_KERNEL_COUNT; k++)
        if (strcasecmp(name, kernel_names[k]) == 0)
            return (ossa_skin_kernel)k;
    return OSSA_SKIN_KERNEL_COUNT;
}

bool ossa_skin_kernel_available(ossa_skin_kernel k)
{
    switch (k) {
    case OSSA_SKIN_KERNEL_AUTO:
    case OSSA_SKIN_KERNEL_SCALAR:
        return 1;
#ifdef OSSA_SKIN_X86
    case OSSA_SKIN_KERNEL_SSE2:
        return __builtin_cpu_supports("sse2") != 0;
    case OSSA_SKIN_KERNEL_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case OSSA_SKIN_KERNEL_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
#endif
    default:
        return 0;
    }
}

ossa_skin_kernel ossa_skin_kernel_best(void)
{
    for (int k = OSSA_SKIN_KERNEL_COUNT - 1; k > OSSA_SKIN_KERNEL_SCALAR; k--)
        if (ossa_skin_kernel_available((ossa_skin_kernel)k))
            return (ossa_skin_kernel)k;
    return OSSA_SKIN_KERNEL_SCALAR;
}

ossa_skin_kernel ossa_skin_kernel_resolve(ossa_skin_kernel requested, const ossa_log_options *log)
{
    if (requested == OSSA_SKIN_KERNEL_AUTO)
        return ossa_skin_kernel_best();
    if ((unsigned)requested < OSSA_SKIN_KERNEL_COUNT && ossa_skin_kernel_available(requested))
        return requested;
    ossa_skin_kernel best = ossa_skin_kernel_best();
    if (log && log->fn) {
        char line[160];
        if ((unsigned)requested < OSSA_SKIN_KERNEL_COUNT)
            snprintf(line, sizeof line,
                     "ossa: skin kernel %s is not available on this CPU, using %s",
                     ossa_skin_kernel_name(requested), ossa_skin_kernel_name(best));
        else
            snprintf(line, sizeof line,
                     "ossa: unknown skin kernel (scalar|sse2|avx2|avx512), using %s",
                     ossa_skin_kernel_name(best));
        log->fn(log->user, line);
    }
    return best;
}

/* ---- morphs and the scalar path ----------------------------------------------------------- */

const float *ossa_skin_block_rows(const skin_range *r, const float *block, uint32_t out_block,
                                  float *scratch)
{
    const struct ossa_skin_mesh *m = r->mesh;
    if (!r->morph_weights)
        return block;
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

static void normalize_store(float nx, float ny, float nz, float *out_n)
{
    float len = sqrtf(nx * nx + ny * ny + nz * nz);
    if (len > 0.0f) {
        float inv = 1.0f / len;
        nx *= inv; ny *= inv; nz *= inv;
    }
    out_n[0] = nx; out_n[1] = ny; out_n[2] = nz;
}

void ossa_skin_vertex_scalar(const float *rows, const float *weights, const uint16_t *bones,
                             uint32_t k, uint32_t lane, const float *palette, float *out_p,
                             float *out_n)
{
    float x = rows[lane], y = rows[SKIN_B + lane], z = rows[2 * SKIN_B + lane];
    float nx = rows[3 * SKIN_B + lane], ny = rows[4 * SKIN_B + lane], nz = rows[5 * SKIN_B + lane];
    if (k == 0) {
        out_p[0] = x; out_p[1] = y; out_p[2] = z;
        normalize_store(nx, ny, nz, out_n);
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
    normalize_store(m[0] * nx + m[1] * ny + m[2] * nz, m[4] * nx + m[5] * ny + m[6] * nz,
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
    normalize_store(m[0] * nx + m[1] * ny + m[2] * nz, m[4] * nx + m[5] * ny + m[6] * nz,
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
        uint32_t local = o - g->begin, blk = local / SKIN_B;
        uint32_t stop = g->begin + (blk + 1) * SKIN_B;
        if (stop > r->hi)
            stop = r->hi;
        const float *block = skin_block_ptr(g, blk);
        const float *rows = ossa_skin_block_rows(r, block, o / SKIN_B, scratch);
        const float *w = block + SKIN_ROWS;
        const uint16_t *b = (const uint16_t *)(const void *)(w + k * SKIN_B);
        const float *d = exact ? (const float *)(const void *)((const char *)block + g->points)
                               : NULL;
        for (; o < stop; o++) {
            float *p = r->out_pos + 3 * (size_t)o, *n = r->out_nrm + 3 * (size_t)o;
            if (d)
                ossa_skin_vertex_exact_scalar(rows, w, b, d, k, o % SKIN_B, r->palette, p, n);
            else
                ossa_skin_vertex_scalar(rows, w, b, k, o % SKIN_B, r->palette, p, n);
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

/* The general group: rows in K = 0 blocks, influences from the CSR list, reference order. */
static void skin_general(const skin_range *r)
{
    const struct ossa_skin_mesh *m = r->mesh;
    const skin_group_data *g = &m->groups[SKIN_GENERAL];
    float scratch[SKIN_ROWS] __attribute__((aligned(64)));
    for (uint32_t o = r->lo; o < r->hi;) {
        uint32_t local = o - g->begin, blk = local / SKIN_B;
        uint32_t stop = g->begin + (blk + 1) * SKIN_B;
        if (stop > r->hi)
            stop = r->hi;
        const float *rows = ossa_skin_block_rows(r, skin_block_ptr(g, blk), o / SKIN_B, scratch);
        for (; o < stop; o++) {
            uint32_t lane = o % SKIN_B, v = o - g->begin;
            float x = rows[lane], y = rows[SKIN_B + lane], z = rows[2 * SKIN_B + lane];
            float nx = rows[3 * SKIN_B + lane], ny = rows[4 * SKIN_B + lane], nz = rows[5 * SKIN_B + lane];
            float px = 0, py = 0, pz = 0, qx = 0, qy = 0, qz = 0;
            for (uint32_t i = m->gen_start[v]; i < m->gen_start[v + 1]; i++) {
                const float *mt = r->palette + 12u * m->gen_bone[i];
                float w = m->gen_weight[i];
                px += w * (mt[0] * x + mt[1] * y + mt[2] * z + mt[3]);
                py += w * (mt[4] * x + mt[5] * y + mt[6] * z + mt[7]);
                pz += w * (mt[8] * x + mt[9] * y + mt[10] * z + mt[11]);
                if (m->gen_point) { /* exact: the rotated gap */
                    const float *gp = m->gen_point + 4 * (size_t)i;
                    px += mt[0] * gp[0] + mt[1] * gp[1] + mt[2] * gp[2];
                    py += mt[4] * gp[0] + mt[5] * gp[1] + mt[6] * gp[2];
                    pz += mt[8] * gp[0] + mt[9] * gp[1] + mt[10] * gp[2];
                }
                qx += w * (mt[0] * nx + mt[1] * ny + mt[2] * nz);
                qy += w * (mt[4] * nx + mt[5] * ny + mt[6] * nz);
                qz += w * (mt[8] * nx + mt[9] * ny + mt[10] * nz);
            }
            float *op = r->out_pos + 3 * (size_t)o;
            if (m->gen_start[v] == m->gen_start[v + 1]) { /* padding */
                op[0] = x; op[1] = y; op[2] = z;
                normalize_store(nx, ny, nz, r->out_nrm + 3 * (size_t)o);
                continue;
            }
            op[0] = px; op[1] = py; op[2] = pz;
            normalize_store(qx, qy, qz, r->out_nrm + 3 * (size_t)o);
        }
    }
}

/* ---- jobs ------------------------------------------------------------------------------- */

void ossa_skin_job_init(ossa_skin_job *job, const ossa_skin_mesh *mesh, const float *palette,
                        uint32_t palette_size, float *out_positions, float *out_normals)
{
    memset(job, 0, sizeof *job);
    job->mesh = mesh;
    job->palette = palette;
    job->palette_size = palette_size;
    job->out_positions = out_positions;
    job->out_normals = out_normals;
    job->begin = 0;
    job->end = mesh ? mesh->output_count : 0;
}

ossa_status ossa_skin_job_validate(const ossa_skin_job *job)
{
    if (!job || !job->mesh || !job->palette || !job->out_positions || !job->out_normals)
        return OSSA_ERR_INVALID_ARGUMENT;
    if (job->palette_size < job->mesh->palette_size)
        return OSSA_ERR_INVALID_ARGUMENT;
    if (job->begin > job->end || job->end > job->mesh->output_count)
        return OSSA_ERR_INVALID_ARGUMENT;
    if ((unsigned)job->kernel >= OSSA_SKIN_KERNEL_COUNT || (unsigned)job->store > OSSA_SKIN_STORE_STREAM)
        return OSSA_ERR_INVALID_ARGUMENT;
    if (!ossa_skin_kernel_available(job->kernel))
        return OSSA_ERR_UNSUPPORTED;
    return OSSA_OK;
}

ossa_skin_kernel ossa_skin_job_kernel(const ossa_skin_job *job)
{
    if (!job || !job->mesh)
        return OSSA_SKIN_KERNEL_SCALAR;
    return job->kernel == OSSA_SKIN_KERNEL_AUTO ? job->mesh->auto_kernel : job->kernel;
}

/* Exact meshes: the same four kernels in their exact form. */
static skin_kernel_fn exact_kernel_fn(ossa_skin_kernel k)
{
    switch (k) {
#ifdef OSSA_SKIN_X86
    case OSSA_SKIN_KERNEL_SSE2: return ossa_skin_kernel_exact_sse2;
    case OSSA_SKIN_KERNEL_AVX2: return ossa_skin_kernel_exact_avx2;
    case OSSA_SKIN_KERNEL_AVX512: return ossa_skin_kernel_exact_avx512;
#endif
    default: return ossa_skin_kernel_exact_scalar;
    }
}

static skin_kernel_fn kernel_fn(ossa_skin_kernel k)
{
    switch (k) {
#ifdef OSSA_SKIN_X86
    case OSSA_SKIN_KERNEL_SSE2: return ossa_skin_kernel_sse2;
    case OSSA_SKIN_KERNEL_AVX2: return ossa_skin_kernel_avx2;
    case OSSA_SKIN_KERNEL_AVX512: return ossa_skin_kernel_avx512;
#endif
    default: return ossa_skin_kernel_scalar;
    }
}

ossa_status ossa_skin_job_run(const ossa_skin_job *job)
{
    ossa_status st = ossa_skin_job_validate(job);
    if (st != OSSA_OK)
        return st;
    const struct ossa_skin_mesh *m = job->mesh;
    ossa_skin_kernel kernel = ossa_skin_job_kernel(job);
    skin_kernel_fn fn = kernel_fn(kernel);
    skin_kernel_fn exact_fn = m->exact ? exact_kernel_fn(kernel) : fn;
    const float *morph = NULL;
    if (job->morph_weights)
        for (uint32_t t = 0; t < m->morph_count; t++)
            if (job->morph_weights[t] != 0.0f) {
                morph = job->morph_weights;
                break;
            }
    int stream = job->store == OSSA_SKIN_STORE_STREAM;
    if ((((uintptr_t)job->out_positions | (uintptr_t)job->out_normals) & 63u) != 0)
        stream = 0;
    skin_range r = {m, 0, 0, 0, job->palette, morph, job->out_positions, job->out_normals, stream};
    for (uint32_t g = 0; g < OSSA_SKIN_GROUP_COUNT; g++) {
        const skin_group_data *gd = &m->groups[g];
        uint32_t lo = job->begin > gd->begin ? job->begin : gd->begin;
        uint32_t hi = job->end < gd->padded_end ? job->end : gd->padded_end;
        if (lo >= hi)
            continue;
        r.group = g;
        r.lo = lo;
        r.hi = hi;
        if (g == SKIN_GENERAL)
            skin_general(&r);
        else
            (g == 0 ? fn : exact_fn)(&r);
    }
    return OSSA_OK;
}
