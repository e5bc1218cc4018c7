/* Kernel selection, skin job validation and dispatch, the general (> 8 influences) group and
 * morph blending. The scalar stream kernels, which the SIMD ones fall back on, are in
 * skin_kernel_scalar.c. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "skin_internal.h"
#include "skin_direct.h"
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <xmmintrin.h>
#endif

static const char *const kernel_names[OSSA_SKIN_KERNEL_COUNT] = {"auto", "scalar", "sse2", "avx2",
                                                                 "avx512"};

const char *ossa_skin_kernel_name(ossa_skin_kernel k)
{
    return (unsigned)k < OSSA_SKIN_KERNEL_COUNT ? kernel_names[k] : "?";
}

ossa_status ossa_skin_kernel_parse(const char *name, ossa_skin_kernel *out, ossa_error *err)
{
    if (!name || !out)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "skin kernel parse: %s is NULL",
                               !name ? "name" : "out");
    for (int k = 0; k < OSSA_SKIN_KERNEL_COUNT; k++)
        if (strcasecmp(name, kernel_names[k]) == 0) {
            *out = (ossa_skin_kernel)k;
            return OSSA_OK;
        }
    return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                           "skin kernel parse: '%.64s' is not auto, scalar, sse2, avx2 or avx512",
                           name);
}

bool ossa_skin_kernel_available(ossa_skin_kernel k)
{
    switch (k) {
    case OSSA_SKIN_KERNEL_AUTO:
    case OSSA_SKIN_KERNEL_SCALAR:
        return 1;
#if defined(OSSA_SKIN_X86)
    case OSSA_SKIN_KERNEL_SSE2:
        return __builtin_cpu_supports("sse2") != 0;
#elif defined(OSSA_SKIN_SSE2)
    case OSSA_SKIN_KERNEL_SSE2: /* wasm has no cpuid: a runtime without SIMD rejects the module */
        return 1;
#endif
#ifdef OSSA_SKIN_X86
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

/* ---- the general group and morphs (the scalar kernels: skin_kernel_scalar.c) ---------------- */

/* The general group: rows in K = 0 blocks, influences from the CSR list, reference order. */
static void skin_general(const skin_range *r)
{
    const struct ossa_skin_mesh *m = r->mesh;
    const skin_group_data *g = &m->groups[SKIN_GENERAL];
    float scratch[SKIN_ROWS] __attribute__((aligned(64)));
    for (uint32_t o = r->lo; o < r->hi;) {
        skin_step s = skin_step_at(r, o, 0, scratch); /* r->group is SKIN_GENERAL */
        const float *rows = s.rows;
        for (; o < s.stop; o++) {
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
                ossa_skin_normalize_store(nx, ny, nz, r->out_nrm + 3 * (size_t)o);
                continue;
            }
            op[0] = px; op[1] = py; op[2] = pz;
            ossa_skin_normalize_store(qx, qy, qz, r->out_nrm + 3 * (size_t)o);
        }
    }
}

/* ---- jobs ------------------------------------------------------------------------------- */

ossa_status ossa_skin_job_validate(const ossa_skin_job *job, ossa_error *err)
{
    const ossa_status bad = OSSA_ERR_INVALID_ARGUMENT;
    if (!job || !job->mesh || !job->palette || !job->out_positions || !job->out_normals)
        return ossa_error_fail(err, bad, "skin job: %s is NULL",
                               !job ? "job" : !job->mesh ? "mesh" : !job->palette ? "palette"
                               : !job->out_positions ? "out_positions" : "out_normals");
    if (job->palette_size < job->mesh->palette_size)
        return ossa_error_fail(err, bad, "skin job: palette_size %u, the mesh needs %u bones",
                               job->palette_size, job->mesh->palette_size);
    if (job->begin > job->end || job->end > job->mesh->output_count)
        return ossa_error_fail(err, bad, "skin job: range [%u, %u) outside the mesh's %u output "
                               "vertices", job->begin, job->end, job->mesh->output_count);
    if (job->end > job->out_capacity)
        return ossa_error_fail(err, bad, "skin job: out_positions / out_normals hold %u vertices "
                               "(out_capacity), the range needs %u", job->out_capacity, job->end);
    if ((unsigned)job->kernel >= OSSA_SKIN_KERNEL_COUNT)
        return ossa_error_fail(err, bad, "skin job: kernel %u is not an ossa_skin_kernel",
                               (unsigned)job->kernel);
    if ((unsigned)job->store > OSSA_SKIN_STORE_STREAM)
        return ossa_error_fail(err, bad, "skin job: store %u is not an ossa_skin_store",
                               (unsigned)job->store);
    if (!ossa_skin_kernel_available(job->kernel))
        return ossa_error_fail(err, OSSA_ERR_UNSUPPORTED,
                               "skin job: kernel %s is not available on this CPU",
                               ossa_skin_kernel_name(job->kernel));
    /* a choice made on another CPU, or a struct filled by hand */
    for (int c = 0; job->choice && c < OSSA_SKIN_SIZE_COUNT; c++) {
        const ossa_skin_choice_size *cs = &job->choice->size[c];
        if ((unsigned)cs->kernel >= OSSA_SKIN_KERNEL_COUNT ||
            (unsigned)cs->store > OSSA_SKIN_STORE_STREAM)
            return ossa_error_fail(err, bad, "skin job: choice size %d: kernel %u, store %u", c,
                                   (unsigned)cs->kernel, (unsigned)cs->store);
        if (!ossa_skin_kernel_available(cs->kernel))
            return ossa_error_fail(err, OSSA_ERR_UNSUPPORTED,
                                   "skin job: the choice's kernel %s is not available on this CPU",
                                   ossa_skin_kernel_name(cs->kernel));
    }
    return OSSA_OK;
}

ossa_skin_choice_size ossa_skin_choice_at(const ossa_skin_choice *choice, uint32_t vertices)
{
    if (!choice) {
        ossa_skin_choice_size none;
        memset(&none, 0, sizeof none);
        return none;
    }
    return choice->size[vertices < choice->large_vertices ? OSSA_SKIN_SIZE_SMALL
                                                          : OSSA_SKIN_SIZE_LARGE];
}

/* The job's store policy once its choice is applied (AUTO stays AUTO without one). */
static ossa_skin_store job_store(const ossa_skin_job *job)
{
    if (job->store != OSSA_SKIN_STORE_AUTO || !job->choice)
        return job->store;
    return ossa_skin_choice_at(job->choice, job->end - job->begin).store;
}

int ossa_skin_job_streams(const ossa_skin_job *job)
{
    return skin_store_streams(job_store(job), job->end - job->begin);
}

ossa_skin_kernel ossa_skin_job_kernel(const ossa_skin_job *job)
{
    if (!job || !job->mesh)
        return OSSA_SKIN_KERNEL_SCALAR;
    if (job->kernel != OSSA_SKIN_KERNEL_AUTO)
        return job->kernel;
    ossa_skin_kernel k = ossa_skin_choice_at(job->choice, job->end - job->begin).kernel;
    return k != OSSA_SKIN_KERNEL_AUTO ? k : job->mesh->auto_kernel;
}

/* Exact meshes: the same four kernels in their exact form. */
static skin_kernel_fn exact_kernel_fn(ossa_skin_kernel k)
{
    switch (k) {
#ifdef OSSA_SKIN_SSE2
    case OSSA_SKIN_KERNEL_SSE2: return ossa_skin_kernel_exact_sse2;
#endif
#ifdef OSSA_SKIN_X86
    case OSSA_SKIN_KERNEL_AVX2: return ossa_skin_kernel_exact_avx2;
    case OSSA_SKIN_KERNEL_AVX512: return ossa_skin_kernel_exact_avx512;
#endif
    default: return ossa_skin_kernel_exact_scalar;
    }
}

static skin_kernel_fn kernel_fn(ossa_skin_kernel k)
{
    switch (k) {
#ifdef OSSA_SKIN_SSE2
    case OSSA_SKIN_KERNEL_SSE2: return ossa_skin_kernel_sse2;
#endif
#ifdef OSSA_SKIN_X86
    case OSSA_SKIN_KERNEL_AVX2: return ossa_skin_kernel_avx2;
    case OSSA_SKIN_KERNEL_AVX512: return ossa_skin_kernel_avx512;
#endif
    default: return ossa_skin_kernel_scalar;
    }
}

/* Output vertices [begin, end) of m, group by group (those that hold vertices: a crowd's small
 * parts use 2 or 3 of the 10, and skipping the rest by their bounds mispredicted a branch each). */
static void run_groups(const struct ossa_skin_mesh *m, ossa_skin_kernel kernel, skin_range *r,
                       uint32_t begin, uint32_t end)
{
    skin_kernel_fn fn = kernel_fn(kernel);
    skin_kernel_fn exact_fn = m->exact ? exact_kernel_fn(kernel) : fn;
    for (uint32_t u = 0; u < m->used_count; u++) {
        uint32_t g = m->used[u];
        const skin_group_data *gd = &m->groups[g];
        uint32_t lo = begin > gd->begin ? begin : gd->begin;
        uint32_t hi = end < gd->padded_end ? end : gd->padded_end;
        if (lo >= hi)
            continue;
        r->group = g;
        r->lo = lo;
        r->hi = hi;
        if (g == SKIN_GENERAL)
            skin_general(r);
        else
            (g == 0 ? fn : exact_fn)(r);
    }
}

/* morph_weights when one of them is not zero, else NULL (the kernels skip morphing). */
static const float *live_morphs(const struct ossa_skin_mesh *m, const float *weights)
{
    if (weights)
        for (uint32_t t = 0; t < m->morph_count; t++)
            if (weights[t] != 0.0f)
                return weights;
    return NULL;
}

ossa_status ossa_skin_job_run(const ossa_skin_job *job, ossa_error *err)
{
    ossa_status st = ossa_skin_job_validate(job, err);
    if (st != OSSA_OK)
        return st;
    if (job->pool && ossa_skin_pool_threads(job->pool) > 1) {
        ossa_skin_pool_run_job(job);
        return OSSA_OK;
    }
    const struct ossa_skin_mesh *m = job->mesh;
    int stream = ossa_skin_job_streams(job);
    if ((((uintptr_t)job->out_positions | (uintptr_t)job->out_normals) & 63u) != 0)
        stream = 0;
    skin_range r = {m, 0, 0, 0, job->palette, live_morphs(m, job->morph_weights),
                    job->out_positions, job->out_normals, stream, NULL, 0};
    run_groups(m, ossa_skin_job_kernel(job), &r, job->begin, job->end);
    if (stream)
        ossa_skin_store_fence();
    return OSSA_OK;
}

size_t ossa_skin_wide_floats(ossa_skin_kernel k, uint32_t bones)
{
    if ((k != OSSA_SKIN_KERNEL_AVX2 && k != OSSA_SKIN_KERNEL_AVX512) || !bones ||
        bones > SKIN_PAL_COPY_MAX)
        return 0;
    return (size_t)SKIN_PAL_WIDE * bones;
}

void ossa_skin_wide_fill(const float *palette, uint32_t bones, float *wide)
{
    skin_palette_wide(palette, bones, wide);
}

int ossa_skin_mesh_run(const ossa_skin_mesh *mesh, ossa_skin_kernel k, const float *palette,
                       const float *wide, const float *morph_weights, float *out_positions,
                       float *out_normals, int stream)
{
    if ((((uintptr_t)out_positions | (uintptr_t)out_normals) & 63u) != 0)
        stream = 0;
    skin_range r = {mesh, 0, 0, 0, palette, live_morphs(mesh, morph_weights), out_positions,
                    out_normals, stream != 0, wide, 1};
    run_groups(mesh, k, &r, 0, mesh->output_count);
    return stream != 0;
}

/* CPUID's deterministic cache parameters (leaf 4 on Intel, 0x8000001D on AMD): the size of the
 * highest level listed, one instance of it. */
static uint64_t cpuid_cache_bytes(void)
{
    uint64_t best = 0;
#ifdef OSSA_SKIN_X86
    unsigned max_basic = __get_cpuid_max(0, NULL), max_ext = __get_cpuid_max(0x80000000u, NULL);
    const unsigned leaves[2] = {4u, 0x8000001Du};
    unsigned best_level = 0;
    for (int l = 0; l < 2; l++) {
        unsigned leaf = leaves[l];
        if (leaf > (leaf & 0x80000000u ? max_ext : max_basic))
            continue;
        for (unsigned sub = 0; sub < 16; sub++) {
            unsigned a, b, c, d;
            if (!__get_cpuid_count(leaf, sub, &a, &b, &c, &d) || (a & 31u) == 0)
                break;
            unsigned level = (a >> 5) & 7u;
            uint64_t bytes = (uint64_t)(((b >> 22) & 0x3ffu) + 1) * (((b >> 12) & 0x3ffu) + 1) *
                             ((b & 0xfffu) + 1) * ((uint64_t)c + 1);
            if ((a & 31u) != 2 && level > best_level) { /* data or unified, not instructions */
                best_level = level;
                best = bytes;
            }
        }
        if (best)
            break;
    }
#endif
    return best;
}

uint64_t ossa_skin_cache_bytes(void)
{
    uint64_t bytes = cpuid_cache_bytes();
    return bytes ? bytes : (uint64_t)8 << 20;
}

ossa_skin_store ossa_skin_crowd_store(uint64_t bytes)
{
    uint64_t cache = ossa_skin_cache_bytes();
    if (cache > OSSA_SKIN_CROWD_CACHE_MAX)
        cache = OSSA_SKIN_CROWD_CACHE_MAX;
    return bytes > cache / 2 ? OSSA_SKIN_STORE_STREAM : OSSA_SKIN_STORE_CACHED;
}

int ossa_skin_store_streams(ossa_skin_store store, uint32_t vertices)
{
    return skin_store_streams(store, vertices);
}

void ossa_skin_store_fence(void)
{
#if defined(__x86_64__) || defined(__i386__)
    _mm_sfence();
#endif
}
