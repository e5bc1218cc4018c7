/* Builds the runtime skinning mesh once from a submesh: influence groups, padded SoA blocks,
 * vertex remap, remapped triangles, morph deltas sorted by block, spring data.
 *
 * Submeshes with influence_points (C3S, SKM: the vertex is sum_i P_i [u_i; w_i]) are read so:
 * each vertex gets the row point q = sum_i u_i / sum_i w_i (its bind position p when the weights
 * nearly cancel) and each influence the gap d_i = u_i - w_i q. When every gap is float noise
 * (within SKIN_EXACT_TOLERANCE of the submesh's size) linear blend skinning of q is the format's
 * formula and the mesh takes the ordinary path; this holds for any weight total as long as the
 * influences agree on one point. Otherwise the mesh is exact: its blocks carry the gaps and the
 * kernels add sum_i R_i d_i (skin_internal.h). A morph moves q, which is as if it moved p and
 * every u_i by w_i times its delta. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include "skin_internal.h"
#include "skin_mesh_plan.h"

#define SKIN_MAX_VERTICES (1u << 26)
#define SKIN_MAX_VERTEX_INFLUENCES 65535u
/* Gaps up to this fraction of the submesh's largest coordinate count as float noise: a file
 * written from one bind vertex reads back with gaps of a few ulps (the demo assets: below 1e-7),
 * and a gap this size moves a skinned vertex by about as much. */
#define SKIN_EXACT_TOLERANCE 2e-6

static ossa_status skin_fail(ossa_error *err, ossa_status st, const char *fmt, ...)
{
    if (err) {
        ossa_error_clear(err);
        err->status = st;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return st;
}

static uint32_t block_stride(uint32_t k, int exact)
{
    uint32_t bytes = (uint32_t)(SKIN_ROWS * sizeof(float)) + k * SKIN_B * 4u + k * SKIN_B * 2u;
    if (exact)
        bytes += k * SKIN_B * 16u;
    return (bytes + 63u) & ~63u;
}

/* The row point q of vertex v (file order), in double: sum u / sum w, or p where the weights
 * (nearly) cancel or q would be out of range. */
static void row_point(const ossa_submesh *sm, uint32_t v, double q[3])
{
    const float *p = sm->positions + 3 * (size_t)v;
    uint32_t a = sm->influence_start[v], e = sm->influence_start[v + 1];
    for (int c = 0; c < 3; c++)
        q[c] = p[c];
    if (!sm->influence_points || a == e)
        return;
    double sum_w = 0.0, sum_abs = 0.0, u[3] = {0, 0, 0};
    for (uint32_t k = a; k < e; k++) {
        sum_w += sm->influences[k].weight;
        sum_abs += fabs(sm->influences[k].weight);
        for (int c = 0; c < 3; c++)
            u[c] += sm->influence_points[3 * (size_t)k + c];
    }
    if (!(fabs(sum_w) >= 0.125 * sum_abs) || sum_w == 0.0)
        return;
    double r[3];
    for (int c = 0; c < 3; c++) {
        r[c] = u[c] / sum_w;
        if (!(fabs(r[c]) <= 1e15))
            return;
    }
    memcpy(q, r, sizeof r);
}

/* 1 when some influence point lies off w_i q by more than float noise. */
bool ossa_skin_submesh_exact(const ossa_submesh *sm)
{
    if (!sm || !sm->influence_points || !sm->positions || !sm->influence_start ||
        !sm->influences)
        return 0;
    double size = 0.0, worst = 0.0;
    for (uint32_t v = 0; v < sm->vertex_count; v++) {
        double q[3];
        row_point(sm, v, q);
        for (int c = 0; c < 3; c++) {
            size = fmax(size, fabs(q[c]));
            size = fmax(size, fabs((double)sm->positions[3 * (size_t)v + c]));
        }
        for (uint32_t k = sm->influence_start[v]; k < sm->influence_start[v + 1]; k++)
            for (int c = 0; c < 3; c++) {
                double w = sm->influences[k].weight;
                worst = fmax(worst, fabs(sm->influence_points[3 * (size_t)k + c] - w * q[c]));
            }
    }
    return worst > SKIN_EXACT_TOLERANCE * size;
}

static uint32_t group_of(uint32_t k)
{
    return k <= OSSA_SKIN_MAX_GROUPED ? k : SKIN_GENERAL;
}

void *ossa_skin_buffer_alloc(size_t bytes)
{
    const size_t huge = (size_t)2 << 20;
    size_t align = bytes >= OSSA_SKIN_HUGE_BYTES ? huge : 64;
    if (bytes > SIZE_MAX - huge)
        return NULL;
    size_t rounded = bytes ? (bytes + align - 1) & ~(align - 1) : align;
    void *p = NULL;
    if (posix_memalign(&p, align, rounded) != 0)
        return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (align == huge)
        (void)madvise(p, rounded, MADV_HUGEPAGE); /* advice only: failure keeps 4 KB pages */
#endif
    memset(p, 0, rounded);
    return p;
}

void ossa_skin_buffer_free(void *buffer)
{
    free(buffer);
}

void ossa_skin_mesh_destroy(ossa_skin_mesh *m)
{
    if (!m)
        return;
    ossa_skin_buffer_free(m->storage);
    free(m->remap);
    free(m->source);
    free(m->indices);
    free(m->gen_start);
    free(m->gen_bone);
    free(m->gen_weight);
    free(m->gen_point);
    free(m->morph_start);
    free(m->morph_entries);
    free(m->steps);
    free(m->free_vertex);
    free(m->free_accel);
    free(m->free_bind);
    free(m->movable);
    free(m->runs);
    free(m);
}

/* Checks everything the kernels will rely on, before any allocation. */
static ossa_status check_submesh(const ossa_submesh *sm, uint32_t palette_size, ossa_error *err,
                                 uint32_t counts[OSSA_SKIN_GROUP_COUNT], uint64_t *gen_influences)
{
    uint32_t n = sm->vertex_count;
    if (n > SKIN_MAX_VERTICES)
        return skin_fail(err, OSSA_ERR_RANGE, "skin mesh: %u vertices, above the cap of %u", n,
                         SKIN_MAX_VERTICES);
    if (n && (!sm->positions || !sm->normals || !sm->influence_start))
        return skin_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                         "skin mesh: positions, normals or influence_start missing");
    if (sm->face_count && !sm->indices)
        return skin_fail(err, OSSA_ERR_INVALID_ARGUMENT, "skin mesh: indices missing");
    if (sm->face_count > (UINT32_MAX / 3u))
        return skin_fail(err, OSSA_ERR_RANGE, "skin mesh: %u faces", sm->face_count);
    if (n && sm->influence_start[n] > sm->influence_start[0] && !sm->influences)
        return skin_fail(err, OSSA_ERR_INVALID_ARGUMENT, "skin mesh: influences missing");
    for (uint32_t v = 0; v < n; v++) {
        uint32_t a = sm->influence_start[v], e = sm->influence_start[v + 1];
        if (e < a || e - a > SKIN_MAX_VERTEX_INFLUENCES)
            return skin_fail(err, OSSA_ERR_RANGE, "skin mesh: vertex %u: bad influence range %u..%u",
                             v, a, e);
        for (uint32_t k = a; k < e; k++) {
            if (sm->influences[k].bone >= palette_size)
                return skin_fail(err, OSSA_ERR_RANGE,
                                 "skin mesh: vertex %u: bone %u outside the palette of %u bones", v,
                                 sm->influences[k].bone, palette_size);
            if (!isfinite(sm->influences[k].weight))
                return skin_fail(err, OSSA_ERR_VALUE, "skin mesh: vertex %u: weight not finite", v);
            for (int c = 0; sm->influence_points && c < 3; c++)
                if (!(fabsf(sm->influence_points[3 * (size_t)k + c]) <= 1e15f))
                    return skin_fail(err, OSSA_ERR_VALUE, "skin mesh: vertex %u: influence "
                                     "point not finite or beyond 1e15", v);
        }
        for (int c = 0; c < 3; c++)
            if (!isfinite(sm->positions[3 * (size_t)v + c]) || !isfinite(sm->normals[3 * (size_t)v + c]))
                return skin_fail(err, OSSA_ERR_VALUE, "skin mesh: vertex %u: position/normal not finite", v);
        uint32_t g = group_of(e - a);
        counts[g]++;
        if (g == SKIN_GENERAL)
            *gen_influences += e - a;
    }
    for (size_t i = 0; i < 3 * (size_t)sm->face_count; i++)
        if (sm->indices[i] >= n)
            return skin_fail(err, OSSA_ERR_RANGE, "skin mesh: face %zu: vertex %u of %u", i / 3,
                             sm->indices[i], n);
    if (sm->morph_count && !sm->morphs)
        return skin_fail(err, OSSA_ERR_INVALID_ARGUMENT, "skin mesh: morphs missing");
    for (uint32_t t = 0; t < sm->morph_count; t++) {
        const ossa_morph_target *mt = &sm->morphs[t];
        if (mt->count > n || (mt->count && (!mt->vertex || !mt->d_position || !mt->d_normal)))
            return skin_fail(err, OSSA_ERR_RANGE, "skin mesh: morph %u: bad vertex list", t);
        for (uint32_t i = 0; i < mt->count; i++) {
            if (mt->vertex[i] >= n)
                return skin_fail(err, OSSA_ERR_RANGE, "skin mesh: morph %u: vertex %u of %u", t,
                                 mt->vertex[i], n);
            for (int c = 0; c < 3; c++)
                if (!isfinite(mt->d_position[3 * (size_t)i + c]) || !isfinite(mt->d_normal[3 * (size_t)i + c]))
                    return skin_fail(err, OSSA_ERR_VALUE, "skin mesh: morph %u: delta not finite", t);
        }
    }
    if (sm->spring_count) {
        if (!sm->springs || !sm->physique_weights)
            return skin_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                             "skin mesh: springs without spring list or physique weights");
        for (uint32_t s = 0; s < sm->spring_count; s++)
            if (sm->springs[s].vertex[0] >= n || sm->springs[s].vertex[1] >= n ||
                !isfinite(sm->springs[s].idle_length))
                return skin_fail(err, OSSA_ERR_RANGE, "skin mesh: spring %u: bad vertex or length", s);
        for (uint32_t v = 0; v < n; v++)
            if (!isfinite(sm->physique_weights[v]))
                return skin_fail(err, OSSA_ERR_VALUE, "skin mesh: vertex %u: physique weight not finite", v);
    }
    return OSSA_OK;
}

static void *alloc_array(size_t count, size_t size, int *failed)
{
    void *p = calloc(count ? count : 1, size);
    if (!p)
        *failed = 1;
    return p;
}

ossa_status ossa_skin_mesh_create(const ossa_submesh *sm, uint32_t palette_size,
                                  ossa_skin_mesh **out, ossa_error *err)
{
    if (out)
        *out = NULL;
    if (!sm || !out)
        return skin_fail(err, OSSA_ERR_INVALID_ARGUMENT, "skin mesh: NULL submesh or output");
    if (palette_size == 0 || palette_size > OSSA_SKIN_MAX_PALETTE)
        return skin_fail(err, OSSA_ERR_INVALID_ARGUMENT, "skin mesh: palette size %u not in 1..%u",
                         palette_size, (unsigned)OSSA_SKIN_MAX_PALETTE);
    uint32_t counts[OSSA_SKIN_GROUP_COUNT] = {0};
    uint64_t gen_influences = 0;
    ossa_status st = check_submesh(sm, palette_size, err, counts, &gen_influences);
    if (st != OSSA_OK)
        return st;

    uint32_t moved[OSSA_SKIN_GROUP_COUNT] = {0};
    ossa_skin_plan_spill(counts, moved);
    ossa_skin_mesh *m = calloc(1, sizeof *m);
    if (!m)
        return skin_fail(err, OSSA_ERR_NOMEM, "skin mesh: out of memory");
    uint32_t n = sm->vertex_count;
    m->vertex_count = n;
    m->palette_size = palette_size;
    m->face_count = sm->face_count;
    m->morph_count = sm->morph_count;
    m->exact = ossa_skin_submesh_exact(sm);

    uint32_t next = 0;
    size_t storage_bytes = 0;
    for (uint32_t g = 0; g < OSSA_SKIN_GROUP_COUNT; g++) {
        skin_group_data *gd = &m->groups[g];
        gd->influences = g == SKIN_GENERAL ? 0 : g;
        gd->begin = next;
        gd->end = next + counts[g];
        gd->padded_end = next + ((counts[g] + SKIN_B - 1) / SKIN_B) * SKIN_B;
        gd->stride = block_stride(gd->influences, m->exact);
        gd->points = m->exact ? (uint32_t)(SKIN_ROWS * sizeof(float)) + gd->influences * SKIN_B * 6u
                              : 0;
        next = gd->padded_end;
        storage_bytes += (size_t)(gd->padded_end - gd->begin) / SKIN_B * gd->stride;
    }
    m->output_count = next;
    uint32_t gen_padded = m->groups[SKIN_GENERAL].padded_end - m->groups[SKIN_GENERAL].begin;

    int failed = 0;
    m->remap = alloc_array(n, sizeof *m->remap, &failed);
    m->source = alloc_array(m->output_count, sizeof *m->source, &failed);
    m->indices = alloc_array(3 * (size_t)sm->face_count, sizeof *m->indices, &failed);
    m->gen_start = alloc_array((size_t)gen_padded + 1, sizeof *m->gen_start, &failed);
    m->gen_bone = alloc_array((size_t)gen_influences, sizeof *m->gen_bone, &failed);
    m->gen_weight = alloc_array((size_t)gen_influences, sizeof *m->gen_weight, &failed);
    if (m->exact)
        m->gen_point = alloc_array(4 * (size_t)gen_influences, sizeof *m->gen_point, &failed);
    m->morph_start = alloc_array((size_t)m->output_count / SKIN_B + 1, sizeof *m->morph_start, &failed);
    m->runs = alloc_array((size_t)m->output_count / SKIN_B + 1, sizeof *m->runs, &failed);
    uint8_t *slot_group = alloc_array(n, 1, &failed);
    uint32_t *order = alloc_array(n, sizeof *order, &failed);
    if (!failed && !ossa_skin_plan_order(sm, palette_size, moved, order, slot_group))
        failed = 1;
    m->movable = alloc_array(m->output_count, 1, &failed);
    if (!failed && storage_bytes) {
        m->storage = ossa_skin_buffer_alloc(storage_bytes);
        failed = m->storage == NULL;
    }
    if (failed) {
        free(slot_group);
        free(order);
        ossa_skin_mesh_destroy(m);
        return skin_fail(err, OSSA_ERR_NOMEM, "skin mesh: out of memory");
    }
    unsigned char *cursor = m->storage;
    for (uint32_t g = 0; g < OSSA_SKIN_GROUP_COUNT; g++) {
        skin_group_data *gd = &m->groups[g];
        gd->blocks = cursor;
        cursor += (size_t)(gd->padded_end - gd->begin) / SKIN_B * gd->stride;
        if (gd->padded_end > gd->begin)
            m->used[m->used_count++] = (uint8_t)g;
    }

    /* Output order: group by group, inside a group by bones, then file order (ossa_skin_plan_order) */
    for (uint32_t o = 0; o < m->output_count; o++)
        m->source[o] = OSSA_SKIN_PAD_VERTEX;
    uint32_t fill[OSSA_SKIN_GROUP_COUNT];
    for (uint32_t g = 0; g < OSSA_SKIN_GROUP_COUNT; g++)
        fill[g] = m->groups[g].begin;
    uint32_t gen_cursor = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = order[i];
        uint32_t a = sm->influence_start[v], e = sm->influence_start[v + 1];
        uint32_t g = slot_group[v];
        skin_group_data *gd = &m->groups[g];
        uint32_t o = fill[g]++;
        m->remap[v] = o;
        m->source[o] = v;
        uint32_t local = o - gd->begin, lane = local % SKIN_B;
        unsigned char *blk_bytes = gd->blocks + (size_t)(local / SKIN_B) * gd->stride;
        float *blk = (float *)(void *)blk_bytes;
        double q[3];
        row_point(sm, v, q);
        for (int c = 0; c < 3; c++) {
            blk[c * SKIN_B + lane] = (float)q[c];
            blk[(3 + c) * SKIN_B + lane] = sm->normals[3 * (size_t)v + c];
        }
        /* the gap of influence k from w_k q, for exact meshes */
        float gap[4] = {0, 0, 0, 0};
#define SKIN_GAP(k)                                                                                \
        for (int c = 0; c < 3; c++)                                                                \
            gap[c] = (float)((double)sm->influence_points[3 * (size_t)(k) + c] -                   \
                             (double)sm->influences[k].weight * (double)(float)q[c])
        if (g == SKIN_GENERAL) {
            m->gen_start[local] = gen_cursor;
            for (uint32_t k = a; k < e; k++) {
                m->gen_bone[gen_cursor] = (uint16_t)sm->influences[k].bone;
                m->gen_weight[gen_cursor] = sm->influences[k].weight;
                if (m->exact) {
                    SKIN_GAP(k);
                    memcpy(m->gen_point + 4 * (size_t)gen_cursor, gap, sizeof gap);
                }
                gen_cursor++;
            }
            m->gen_start[local + 1] = gen_cursor;
        } else {
            uint32_t k_count = gd->influences;
            float *w = blk + SKIN_ROWS;
            uint16_t *b = (uint16_t *)(void *)(w + k_count * SKIN_B);
            float *d = (float *)(void *)(blk_bytes + gd->points);
            /* slots past the vertex's own influences (ossa_skin_plan_spill): weight 0, its last bone */
            for (uint32_t k = e - a; k < k_count; k++)
                b[k * SKIN_B + lane] = (uint16_t)sm->influences[e - 1].bone;
            for (uint32_t k = 0; k < e - a; k++) {
                w[k * SKIN_B + lane] = sm->influences[a + k].weight;
                b[k * SKIN_B + lane] = (uint16_t)sm->influences[a + k].bone;
                if (m->exact) {
                    SKIN_GAP(a + k);
                    memcpy(d + 4 * (k * SKIN_B + lane), gap, sizeof gap);
                }
            }
        }
#undef SKIN_GAP
    }
    free(slot_group);
    free(order);
    ossa_skin_plan_runs(m, counts);
    /* padding vertices of the general group have no influences */
    for (uint32_t local = counts[SKIN_GENERAL]; local < gen_padded; local++)
        m->gen_start[local + 1] = gen_cursor;

    for (size_t i = 0; i < 3 * (size_t)sm->face_count; i++)
        m->indices[i] = m->remap[sm->indices[i]];

    /* Morph deltas, bucketed by output block (counting sort). */
    size_t morph_total = 0;
    for (uint32_t t = 0; t < sm->morph_count; t++)
        morph_total += sm->morphs[t].count;
    m->morph_entries = alloc_array(morph_total, sizeof *m->morph_entries, &failed);
    if (failed) {
        ossa_skin_mesh_destroy(m);
        return skin_fail(err, OSSA_ERR_NOMEM, "skin mesh: out of memory");
    }
    uint32_t block_count = m->output_count / SKIN_B;
    for (uint32_t t = 0; t < sm->morph_count; t++)
        for (uint32_t i = 0; i < sm->morphs[t].count; i++)
            m->morph_start[m->remap[sm->morphs[t].vertex[i]] / SKIN_B + 1]++;
    for (uint32_t b = 0; b < block_count; b++)
        m->morph_start[b + 1] += m->morph_start[b];
    uint32_t *slot = calloc(block_count ? block_count : 1, sizeof *slot);
    if (!slot) {
        ossa_skin_mesh_destroy(m);
        return skin_fail(err, OSSA_ERR_NOMEM, "skin mesh: out of memory");
    }
    for (uint32_t b = 0; b < block_count; b++)
        slot[b] = m->morph_start[b];
    for (uint32_t t = 0; t < sm->morph_count; t++) {
        const ossa_morph_target *mt = &sm->morphs[t];
        for (uint32_t i = 0; i < mt->count; i++) {
            uint32_t o = m->remap[mt->vertex[i]];
            skin_morph_entry *e = &m->morph_entries[slot[o / SKIN_B]++];
            e->target = t;
            e->lane = o % SKIN_B;
            for (int c = 0; c < 3; c++) {
                e->dp[c] = mt->d_position[3 * (size_t)i + c];
                e->dn[c] = mt->d_normal[3 * (size_t)i + c];
            }
        }
    }
    free(slot);

    /* Springs: remapped to output order; vertices with physique weight > 0 are free. */
    if (sm->spring_count) {
        uint32_t free_count = 0;
        for (uint32_t v = 0; v < n; v++)
            free_count += sm->physique_weights[v] > 0.0f;
        m->spring_count = sm->spring_count;
        m->free_count = free_count;
        skin_spring_data *springs = alloc_array(sm->spring_count, sizeof *springs, &failed);
        m->free_vertex = alloc_array(free_count, sizeof *m->free_vertex, &failed);
        m->free_accel = alloc_array(3 * (size_t)free_count, sizeof *m->free_accel, &failed);
        m->free_bind = alloc_array(3 * (size_t)free_count, sizeof *m->free_bind, &failed);
        if (!failed) {
            for (uint32_t s = 0; s < sm->spring_count; s++) {
                springs[s].v0 = m->remap[sm->springs[s].vertex[0]];
                springs[s].v1 = m->remap[sm->springs[s].vertex[1]];
                springs[s].idle = sm->springs[s].idle_length;
            }
            failed = ossa_skin_spring_steps_order(m, springs) != 0;
        }
        free(springs);
        if (failed) {
            ossa_skin_mesh_destroy(m);
            return skin_fail(err, OSSA_ERR_NOMEM, "skin mesh: out of memory");
        }
        uint32_t f = 0;
        for (uint32_t v = 0; v < n; v++) {
            if (!(sm->physique_weights[v] > 0.0f))
                continue;
            m->free_vertex[f] = m->remap[v];
            /* constant force + gravity x weight, over the weight: the quotient Cal3D's step
             * computes each frame, the same bits once */
            float w = sm->physique_weights[v];
            float force[3] = {0.0f, 0.5f, -98.1f * w};
            for (int c = 0; c < 3; c++)
                m->free_accel[3 * (size_t)f + c] = force[c] / w;
            for (int c = 0; c < 3; c++)
                m->free_bind[3 * (size_t)f + c] = sm->positions[3 * (size_t)v + c];
            m->movable[m->remap[v]] = 1;
            f++;
        }
    }
    m->auto_kernel = ossa_skin_kernel_best();
    *out = m;
    return OSSA_OK;
}

uint32_t ossa_skin_mesh_vertex_count(const ossa_skin_mesh *m) { return m ? m->vertex_count : 0; }
uint32_t ossa_skin_mesh_output_count(const ossa_skin_mesh *m) { return m ? m->output_count : 0; }
uint32_t ossa_skin_mesh_palette_size(const ossa_skin_mesh *m) { return m ? m->palette_size : 0; }
uint32_t ossa_skin_mesh_morph_count(const ossa_skin_mesh *m) { return m ? m->morph_count : 0; }
uint32_t ossa_skin_mesh_face_count(const ossa_skin_mesh *m) { return m ? m->face_count : 0; }
const uint32_t *ossa_skin_mesh_remap(const ossa_skin_mesh *m) { return m ? m->remap : NULL; }
const uint32_t *ossa_skin_mesh_source(const ossa_skin_mesh *m) { return m ? m->source : NULL; }
const uint32_t *ossa_skin_mesh_indices(const ossa_skin_mesh *m) { return m ? m->indices : NULL; }
bool ossa_skin_mesh_exact(const ossa_skin_mesh *m) { return m && m->exact; }

void ossa_skin_mesh_groups(const ossa_skin_mesh *m, ossa_skin_group groups[OSSA_SKIN_GROUP_COUNT])
{
    for (uint32_t g = 0; g < OSSA_SKIN_GROUP_COUNT; g++) {
        groups[g].influences = g == SKIN_GENERAL ? OSSA_SKIN_MAX_GROUPED + 1 : g;
        groups[g].begin = m ? m->groups[g].begin : 0;
        groups[g].end = m ? m->groups[g].end : 0;
        groups[g].padded_end = m ? m->groups[g].padded_end : 0;
    }
}

/* Bytes per vertex of the block layout (general: rows + CSR entries for that count). */
static uint32_t read_bytes_per_vertex(uint32_t k, int exact)
{
    if (k <= OSSA_SKIN_MAX_GROUPED)
        return block_stride(k, exact) / SKIN_B;
    return (uint32_t)(SKIN_ROWS * sizeof(float)) / SKIN_B + 4u + k * (exact ? 22u : 6u);
}

void ossa_skin_mesh_traffic(const ossa_skin_mesh *m, uint64_t *read_bytes, uint64_t *write_bytes)
{
    uint64_t r = 0;
    if (m) {
        for (uint32_t g = 0; g < SKIN_GENERAL; g++)
            r += (uint64_t)(m->groups[g].padded_end - m->groups[g].begin) *
                 read_bytes_per_vertex(g, m->exact);
        const skin_group_data *gd = &m->groups[SKIN_GENERAL];
        uint32_t gp = gd->padded_end - gd->begin;
        r += (uint64_t)gp * (SKIN_ROWS * sizeof(float) / SKIN_B + 4u) +
             (uint64_t)m->gen_start[gp] * (m->exact ? 22u : 6u);
    }
    if (read_bytes)
        *read_bytes = r;
    if (write_bytes)
        *write_bytes = m ? (uint64_t)m->output_count * 24u : 0;
}

ossa_status ossa_skin_kernel_traffic(ossa_skin_kernel k, uint32_t influences, ossa_skin_store store,
                                     uint32_t vertex_count, ossa_skin_traffic *out,
                                     ossa_error *err)
{
    if (!out)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "skin kernel traffic: out is NULL");
    if ((unsigned)k >= OSSA_SKIN_KERNEL_COUNT)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "skin kernel traffic: kernel %u is not an ossa_skin_kernel",
                               (unsigned)k);
    if (k == OSSA_SKIN_KERNEL_AUTO)
        k = ossa_skin_kernel_best();
    out->read_bytes = read_bytes_per_vertex(influences, 0);
    out->write_bytes = 24u;
    int stream = skin_store_streams(store, vertex_count);
    /* only the SIMD kernels stream, and the general group is scalar in every kernel */
    out->streaming = stream && k != OSSA_SKIN_KERNEL_SCALAR && influences <= OSSA_SKIN_MAX_GROUPED;
    return OSSA_OK;
}
