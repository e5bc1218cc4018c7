/* Cal3D's spring system (CalSpringSystem; docs/FORMATS.md, Physique and springs) over output-order
 * buffers. Collision with bone boxes is not implemented.
 *
 * The relaxation is a chain of dependent square roots and divisions (each spring reads what the
 * one before it moved), so one character's step waits on latency, not arithmetic. Several
 * characters of one mesh step together (ossa_spring_update_lanes): each is a SIMD lane of the
 * same operations in the same order, so every lane gets the bits it would get alone.
 *
 * A step reads and writes only its spring's two vertices, so two steps that share no vertex
 * give the same bits in either order. ossa_skin_spring_steps_order sorts Cal3D's 2 x spring_count
 * steps by wave (a step's wave is one more than the latest wave of an earlier step sharing a
 * vertex with it): every pair that shares a vertex keeps its order, and the steps of one wave,
 * now side by side, overlap in the core. On cally's ponytail (128 springs over 12 free
 * vertices: 106 waves) one character's relaxation took 38 % less time (docs/BENCHMARKS.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "core/error.h"
#include "skin_direct.h"
#include "skin_internal.h"

struct ossa_spring_state {
    const struct ossa_skin_mesh *mesh;
    float *pos;   /* 3 per free vertex: current position */
    float *old;   /* 3 per free vertex: previous position */
    float *lanes; /* 3 x SPRING_LANES per output vertex: a lane step's positions, SoA by lane */
    bool avx2;    /* lane steps of more than 4 run 8 wide (ossa_spring_relax8_avx2), of more than
                     8 as two chains of 8 (ossa_spring_relax8x2_avx2) */
};

int ossa_skin_spring_steps_order(struct ossa_skin_mesh *m, const skin_spring_data *springs)
{
    size_t n = 2 * (size_t)m->spring_count;
    uint32_t *wave = malloc(n * sizeof *wave);
    uint32_t *last = calloc(m->output_count ? m->output_count : 1, sizeof *last);
    size_t *start = calloc(n + 2, sizeof *start);
    m->steps = malloc(n * sizeof *m->steps);
    if (!wave || !last || !start || !m->steps) {
        free(wave);
        free(last);
        free(start);
        return -1;
    }
    m->step_count = n;
    for (size_t i = 0; i < n; i++) { /* waves run 1 .. n */
        const skin_spring_data *sp = &springs[i % m->spring_count];
        uint32_t w = 1 + (last[sp->v0] > last[sp->v1] ? last[sp->v0] : last[sp->v1]);
        last[sp->v0] = last[sp->v1] = w;
        wave[i] = w;
        start[w + 1]++;
    }
    for (size_t w = 1; w <= n + 1; w++) /* counting sort, stable: file order within a wave */
        start[w] += start[w - 1];
    for (size_t i = 0; i < n; i++)
        m->steps[start[wave[i]]++] = springs[i % m->spring_count];
    free(wave);
    free(last);
    free(start);
    return 0;
}

static ossa_status spring_state_create(const ossa_skin_mesh *mesh, ossa_spring_state **out)
{
    if (!out)
        return OSSA_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!mesh || mesh->spring_count == 0)
        return OSSA_ERR_INVALID_ARGUMENT;
    ossa_spring_state *s = calloc(1, sizeof *s);
    if (!s)
        return OSSA_ERR_NOMEM;
    size_t n = 3 * (size_t)(mesh->free_count ? mesh->free_count : 1);
    s->mesh = mesh;
    s->pos = malloc(n * sizeof(float));
    s->old = malloc(n * sizeof(float));
    /* 96 bytes a vertex: a multiple of the 32-byte alignment aligned_alloc is asked for */
    s->lanes = aligned_alloc(32, (size_t)mesh->output_count * 3 * SPRING_LANES * sizeof(float));
    s->avx2 = ossa_skin_kernel_available(OSSA_SKIN_KERNEL_AVX2);
    if (!s->pos || !s->old || !s->lanes) {
        ossa_spring_state_destroy(s);
        return OSSA_ERR_NOMEM;
    }
    ossa_spring_state_reset(s);
    *out = s;
    return OSSA_OK;
}

ossa_status ossa_spring_state_create(const ossa_skin_mesh *mesh, ossa_spring_state **out,
                                     ossa_error *err)
{
    return ossa_error_status(err, spring_state_create(mesh, out), "spring state");
}

void ossa_spring_state_ranges(const ossa_spring_state *s, ossa_mem_range *out, uint32_t *count,
                              uint32_t max)
{
    if (!s)
        return;
    size_t n = 3 * (size_t)(s->mesh->free_count ? s->mesh->free_count : 1);
    ossa_mem_range_add(out, count, max, s, sizeof *s);
    ossa_mem_range_add(out, count, max, s->pos, n * sizeof(float));
    ossa_mem_range_add(out, count, max, s->old, n * sizeof(float));
}

void ossa_spring_state_destroy(ossa_spring_state *s)
{
    if (!s)
        return;
    free(s->pos);
    free(s->old);
    free(s->lanes);
    free(s);
}

void ossa_spring_state_reset(ossa_spring_state *s)
{
    if (!s)
        return;
    size_t n = 3 * (size_t)s->mesh->free_count;
    if (n) {
        memcpy(s->pos, s->mesh->free_bind, n * sizeof(float));
        memcpy(s->old, s->mesh->free_bind, n * sizeof(float));
    }
}

ossa_status ossa_spring_state_reset_to(ossa_spring_state *s, const float *positions,
                                       uint32_t vertex_capacity, ossa_error *err)
{
    if (!s)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "spring reset: state is NULL");
    if (!positions) {
        ossa_spring_state_reset(s);
        return OSSA_OK;
    }
    const struct ossa_skin_mesh *m = s->mesh;
    if (vertex_capacity < m->output_count)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "spring reset: positions hold %u vertices (vertex_capacity), the "
                               "mesh outputs %u", vertex_capacity, m->output_count);
    for (uint32_t f = 0; f < m->free_count; f++) {
        const float *src = positions + 3 * (size_t)m->free_vertex[f];
        if (!(isfinite(src[0]) && isfinite(src[1]) && isfinite(src[2])))
            src = m->free_bind + 3 * (size_t)f;
        memcpy(s->pos + 3 * (size_t)f, src, 3 * sizeof(float));
        memcpy(s->old + 3 * (size_t)f, src, 3 * sizeof(float));
    }
    return OSSA_OK;
}

/* Verlet step of every free vertex into out; rigid ones keep their skinned positions. */
static void spring_verlet(ossa_spring_state *s, float dt, float *out)
{
    const struct ossa_skin_mesh *m = s->mesh;
    for (uint32_t f = 0; f < m->free_count; f++) {
        const float *accel = m->free_accel + 3 * (size_t)f; /* force / weight */
        float *p = s->pos + 3 * (size_t)f, *o = s->old + 3 * (size_t)f;
        float *dst = out + 3 * (size_t)m->free_vertex[f];
        for (int c = 0; c < 3; c++) {
            float cur = p[c];
            /* Cal3D's grouping, so the step is the same bits: pos += (pos - old) * 0.99 +
             * force / weight * dt * dt. */
            float next = cur + ((cur - o[c]) * 0.99f + accel[c] * dt * dt);
            /* Where Cal3D's step overflows (a weight a denormal from 0, a huge dt), the
             * particle holds instead of turning the cloth NaN. */
            p[c] = isfinite(next) ? next : cur;
            o[c] = cur;
            dst[c] = p[c];
        }
    }
}

/* Two relaxation passes over the springs (m->steps); the spring coefficient is unused (as
 * Cal3D). */
static void spring_relax(const struct ossa_skin_mesh *m, float *out)
{
    for (size_t i = 0; i < m->step_count; i++) {
        const skin_spring_data *sp = &m->steps[i];
        float *a = out + 3 * (size_t)sp->v0, *b = out + 3 * (size_t)sp->v1;
        float d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (!(len > 0.0f))
            continue;
        float f0 = (len - sp->idle) / len, f1 = f0;
        if (!isfinite(f0)) /* (a length of Inf makes it NaN) */
            continue; /* Cal3D divides into Inf here; the spring is left as it is */
        if (m->movable[sp->v0]) {
            f0 /= 2.0f;
            f1 /= 2.0f;
        } else {
            f0 = 0.0f;
        }
        if (!m->movable[sp->v1]) {
            f0 *= 2.0f;
            f1 = 0.0f;
        }
        for (int c = 0; c < 3; c++) {
            a[c] += d[c] * f0;
            b[c] -= d[c] * f1;
        }
    }
}

/* The relaxed positions are the particles' new positions. */
static void spring_keep(ossa_spring_state *s, const float *out)
{
    const struct ossa_skin_mesh *m = s->mesh;
    for (uint32_t f = 0; f < m->free_count; f++)
        memcpy(s->pos + 3 * (size_t)f, out + 3 * (size_t)m->free_vertex[f], 3 * sizeof(float));
}

ossa_status ossa_spring_update(ossa_spring_state *s, float dt, float *out, uint32_t out_capacity,
                               ossa_error *err)
{
    if (!s || !out)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "spring update: %s is NULL",
                               !s ? "state" : "out_positions");
    if (!isfinite(dt))
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "spring update: dt is not finite");
    const struct ossa_skin_mesh *m = s->mesh;
    if (out_capacity < m->output_count)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "spring update: out_positions holds %u vertices, the mesh "
                               "outputs %u", out_capacity, m->output_count);
    spring_verlet(s, dt, out);
    spring_relax(m, out);
    spring_keep(s, out);
    return OSSA_OK;
}

#if defined(__SSE2__)
/* All bits set where x is neither Inf nor NaN. */
static inline __m128 finite4(__m128 x)
{
    __m128 abs = _mm_and_ps(x, _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)));
    return _mm_cmplt_ps(abs, _mm_set1_ps(INFINITY));
}

/* mask ? a : b, lane by lane */
static inline __m128 select4(__m128 mask, __m128 a, __m128 b)
{
    return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

/* spring_relax on 4 lanes at once (soa: x, y, z of every output vertex as 4 lanes). A lane
 * whose spring spring_relax would skip keeps its positions; the movable flags are the mesh's, so
 * the same in every lane. */
static void spring_relax4(const struct ossa_skin_mesh *m, float *soa)
{
    __m128 *p = (__m128 *)(void *)soa;
    const __m128 zero = _mm_setzero_ps(), two = _mm_set1_ps(2.0f);
    for (size_t i = 0; i < m->step_count; i++) {
        const skin_spring_data *sp = &m->steps[i];
        __m128 *a = p + 3 * (size_t)sp->v0, *b = p + 3 * (size_t)sp->v1;
        __m128 d0 = _mm_sub_ps(b[0], a[0]), d1 = _mm_sub_ps(b[1], a[1]);
        __m128 d2 = _mm_sub_ps(b[2], a[2]);
        __m128 len = _mm_sqrt_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(d0, d0), _mm_mul_ps(d1, d1)),
                                            _mm_mul_ps(d2, d2)));
        __m128 f0 = _mm_div_ps(_mm_sub_ps(len, _mm_set1_ps(sp->idle)), len), f1 = f0;
        __m128 ok = _mm_and_ps(_mm_cmpgt_ps(len, zero), finite4(f0)); /* Inf length: NaN factor */
        if (_mm_movemask_ps(ok) == 0)
            continue;
        if (m->movable[sp->v0]) {
            f0 = _mm_div_ps(f0, two);
            f1 = _mm_div_ps(f1, two);
        } else {
            f0 = zero;
        }
        if (!m->movable[sp->v1]) {
            f0 = _mm_mul_ps(f0, two);
            f1 = zero;
        }
        a[0] = select4(ok, _mm_add_ps(a[0], _mm_mul_ps(d0, f0)), a[0]);
        b[0] = select4(ok, _mm_sub_ps(b[0], _mm_mul_ps(d0, f1)), b[0]);
        a[1] = select4(ok, _mm_add_ps(a[1], _mm_mul_ps(d1, f0)), a[1]);
        b[1] = select4(ok, _mm_sub_ps(b[1], _mm_mul_ps(d1, f1)), b[1]);
        a[2] = select4(ok, _mm_add_ps(a[2], _mm_mul_ps(d2, f0)), a[2]);
        b[2] = select4(ok, _mm_sub_ps(b[2], _mm_mul_ps(d2, f1)), b[2]);
    }
}

/* The n characters of out into soa, `width` lanes (spare lanes copy the first character). */
static void lanes_in(const struct ossa_skin_mesh *m, float *const *out, uint32_t n,
                     uint32_t width, float *soa)
{
#if defined(OSSA_SKIN_X86)
    if (width == 8) {
        ossa_spring_lanes8_in_avx2((const float *const *)out, n, 3 * (size_t)m->output_count,
                                   soa);
        return;
    }
#endif
    for (uint32_t o = 0; o < m->output_count; o++)
        for (uint32_t c = 0; c < 3; c++)
            for (uint32_t l = 0; l < width; l++)
                soa[(3 * (size_t)o + c) * width + l] = out[l < n ? l : 0][3 * (size_t)o + c];
}

/* The n characters back from soa (spare lanes dropped). */
static void lanes_out(const struct ossa_skin_mesh *m, float *const *out, uint32_t n,
                      uint32_t width, const float *soa)
{
#if defined(OSSA_SKIN_X86)
    if (width == 8) {
        ossa_spring_lanes8_out_avx2(soa, 3 * (size_t)m->output_count, out, n);
        return;
    }
#endif
    for (uint32_t l = 0; l < n; l++)
        for (uint32_t o = 0; o < m->output_count; o++)
            for (uint32_t c = 0; c < 3; c++)
                out[l][3 * (size_t)o + c] = soa[(3 * (size_t)o + c) * width + l];
}

/* The n characters of out through one relaxation `width` lanes wide (8 only with AVX2). */
static void relax_lanes(const struct ossa_skin_mesh *m, float *const *out, uint32_t n,
                        uint32_t width, float *soa)
{
    lanes_in(m, out, n, width, soa);
#if defined(OSSA_SKIN_X86)
    if (width == 8)
        ossa_spring_relax8_avx2(m, soa);
    else
#endif
        spring_relax4(m, soa);
    lanes_out(m, out, n, width, soa);
}
#endif

void ossa_spring_update_lanes(ossa_spring_state *const *s, float *const *out, uint32_t lanes,
                              const float *dt)
{
    if (lanes > SPRING_LANES_MAX)
        lanes = SPRING_LANES_MAX;
    for (uint32_t l = 0; l < lanes; l++)
        if (!isfinite(dt[l]))
            return;
    if (!lanes)
        return;
    for (uint32_t l = 0; l < lanes; l++)
        spring_verlet(s[l], dt[l], out[l]);
    const struct ossa_skin_mesh *m = s[0]->mesh;
#if defined(OSSA_SKIN_X86)
    if (lanes > SPRING_LANES && s[0]->avx2) {
        /* two groups of 8 in one pass, each in its lead's lane buffer */
        float *soa = s[0]->lanes, *soa2 = s[SPRING_LANES]->lanes;
        lanes_in(m, out, SPRING_LANES, SPRING_LANES, soa);
        lanes_in(m, out + SPRING_LANES, lanes - SPRING_LANES, SPRING_LANES, soa2);
        ossa_spring_relax8x2_avx2(m, soa, soa2);
        lanes_out(m, out, SPRING_LANES, SPRING_LANES, soa);
        lanes_out(m, out + SPRING_LANES, lanes - SPRING_LANES, SPRING_LANES, soa2);
        for (uint32_t l = 0; l < lanes; l++)
            spring_keep(s[l], out[l]);
        return;
    }
#endif
#if defined(__SSE2__)
    /* 8 wide with AVX2, else 4 at a time; a lone character runs the scalar loop */
    uint32_t width = lanes > 4 && s[0]->avx2 ? 8 : 4;
    for (uint32_t first = 0; first < lanes; first += width) {
        uint32_t n = lanes - first < width ? lanes - first : width;
        if (n > 1)
            relax_lanes(m, out + first, n, width, s[first]->lanes);
        else
            spring_relax(m, out[first]);
    }
#else
    for (uint32_t l = 0; l < lanes; l++)
        spring_relax(m, out[l]);
#endif
    for (uint32_t l = 0; l < lanes; l++)
        spring_keep(s[l], out[l]);
}
