/* ossa bench's skinning figures: every kernel's throughput on 1 and T threads over a model's skin
 * meshes, STREAM-triad bandwidth and the memory-bound limit it implies, and libcal3d's physique on
 * the same data when it is built in; every kernel's output checked against the scalar API. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_report.h"
#include "bench_timing.h"
#include "ossa/instance.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/pose.h"
#include "ossa/skin.h"
#include "ossa/skin_pool.h"
#ifdef OSSA_BENCH_CAL3D
#include "bench_cal3d.h"
#endif

/* ---- STREAM triad -------------------------------------------------------------------------- */

typedef struct triad_ctx {
    float *a, *b, *c;
    size_t n;
    float scalar;
    ossa_skin_pool *pool;  /* NULL: the calling thread alone */
} triad_ctx;

static void triad_range(void *p, uint32_t begin, uint32_t end)
{
    triad_ctx *t = p;
    float *restrict a = t->a;
    const float *restrict b = t->b, *restrict c = t->c;
    float s = t->scalar;
    for (size_t i = begin; i < end; i++)
        a[i] = b[i] + s * c[i];
}

/* Several threads run on the skinning's own pool, so both pay the same dispatch cost. */
static void triad_once(void *p)
{
    triad_ctx *t = p;
    if (t->pool)
        ossa_skin_pool_for(t->pool, 0, (uint32_t)t->n, 16, triad_range, t);
    else
        triad_range(t, 0, (uint32_t)t->n);
}

/* ---- skinning ------------------------------------------------------------------------------ */

typedef struct skin_ctx {
    size_t count;                 /* skinned submeshes */
    const ossa_skin_mesh **meshes; /* the character instance's */
    const ossa_submesh **sources; /* the submesh of each */
    float **pos, **nrm;           /* 64-byte aligned outputs, output order */
    const float *palette;
    uint32_t palette_size;
    ossa_skin_kernel kernel;
    ossa_skin_store store;
    ossa_skin_pool *pool;         /* NULL: the calling thread alone */
    const ossa_skin_choice *choice; /* the calibration's, for AUTO kernel and store */
    int failed;
} skin_ctx;

static void skin_once(void *p)
{
    skin_ctx *s = p;
    for (size_t i = 0; i < s->count; i++) {
        ossa_skin_job job = {.mesh = s->meshes[i], .palette = s->palette,
                             .palette_size = s->palette_size, .out_positions = s->pos[i],
                             .out_normals = s->nrm[i],
                             .out_capacity = ossa_skin_mesh_output_count(s->meshes[i]),
                             .end = ossa_skin_mesh_output_count(s->meshes[i])};
        job.kernel = s->kernel;
        job.store = s->store;
        job.pool = s->pool;
        job.choice = s->choice;
        ossa_status st = ossa_skin_job_run(&job, NULL);
        s->failed |= st != OSSA_OK;
    }
}

/* Bytes a full skin of every submesh moves with kernel k (one job a submesh, split over the
 * threads): stream reads, writes, and the write-allocate reads of cached stores. *streaming: 1
 * when every write is non-temporal (AUTO decides by the whole job's size). */
static double skin_bytes(const skin_ctx *s, ossa_skin_kernel k, int *streaming)
{
    double bytes = 0.0;
    int all_stream = 1;
    for (size_t i = 0; i < s->count; i++) {
        ossa_skin_group g[OSSA_SKIN_GROUP_COUNT];
        ossa_skin_mesh_groups(s->meshes[i], g);
        /* exact meshes read each influence's gap too: the mesh's own count of its streams */
        int exact = ossa_skin_mesh_exact(s->meshes[i]);
        if (exact) {
            uint64_t rd = 0;
            ossa_skin_mesh_traffic(s->meshes[i], &rd, NULL);
            bytes += (double)rd;
        }
        uint32_t job = ossa_skin_mesh_output_count(s->meshes[i]);
        for (int j = 0; j < OSSA_SKIN_GROUP_COUNT; j++) {
            uint32_t n = g[j].padded_end - g[j].begin;
            ossa_skin_traffic tr;
            if (!n || ossa_skin_kernel_traffic(k, g[j].influences, s->store, job, &tr, NULL) !=
                          OSSA_OK)
                continue;
            bytes += (double)n * ((exact ? 0 : tr.read_bytes) +
                                  tr.write_bytes * (tr.streaming ? 1 : 2));
            all_stream &= tr.streaming != 0;
        }
    }
    *streaming = all_stream;
    return bytes;
}

/* Largest |a - b| over n floats; a NaN or Inf anywhere counts as a huge difference. */
static double max_diff(const float *a, const float *b, size_t n)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - (double)b[i]);
        if (!isfinite(d))
            return 1e30;
        if (d > m)
            m = d;
    }
    return m;
}

/* Largest difference of s's outputs from the scalar API's (file order). */
static double outputs_err(const skin_ctx *s, const float *palette, float *ref_pos, float *ref_nrm)
{
    double err = 0.0;
    for (size_t k = 0; k < s->count; k++) {
        const ossa_submesh *sm = s->sources[k];
        ossa_skin_submesh_scalar(sm, palette, ref_pos, ref_nrm, sm->vertex_count, NULL);
        const uint32_t *remap = ossa_skin_mesh_remap(s->meshes[k]);
        for (uint32_t v = 0; v < sm->vertex_count; v++) {
            double e1 = max_diff(s->pos[k] + 3 * (size_t)remap[v], ref_pos + 3 * v, 3);
            double e2 = max_diff(s->nrm[k] + 3 * (size_t)remap[v], ref_nrm + 3 * v, 3);
            err = e1 > err ? e1 : err;
            err = e2 > err ? e2 : err;
        }
    }
    return err;
}

#ifdef OSSA_BENCH_CAL3D
typedef struct cal_skin_ctx {
    bench_cal3d *cal;
    float *out;
} cal_skin_ctx;

static void cal_skin_once(void *v)
{
    cal_skin_ctx *c = v;
    bench_cal3d_skin(c->cal, c->out);
}
#endif

/* ---- the benchmark ------------------------------------------------------------------------- */


/* Fills ctx with the model's clip 0 (or the rest pose) at time `time`, via the scalar API. */
static int model_palette(const ossa_model *m, float time, float *palette)
{
    size_t nb = m->bone_count;
    float *buf = malloc(nb * OSSA_REFERENCE_POSE_FLOATS * sizeof(float) + sizeof(float));
    if (!buf)
        return 0;
    ossa_reference_pose pose = ossa_reference_pose_in(buf, m->bone_count);
    pose.palette = palette;
    ossa_reference_pose_at(m, m->clip_count ? &m->clips[0] : NULL, time, OSSA_WRAP_LOOP, &pose,
                           NULL);
    free(buf);
    return 1;
}

/* Triad arrays together as large as the mesh's streams (at least 4096 floats each). */
static int triad_setup(triad_ctx *t, const bench_report *r)
{
    size_t n = (size_t)(r->stream_bytes / (3 * sizeof(float)));
    if (n < 4096)
        n = 4096;
    if (n > UINT32_MAX - 64)
        n = UINT32_MAX - 64;
    /* allocated like the mesh's streams (huge pages for large arrays), so the bound is fair */
    *t = (triad_ctx){ossa_skin_buffer_alloc(n * sizeof(float)),
                     ossa_skin_buffer_alloc(n * sizeof(float)),
                     ossa_skin_buffer_alloc(n * sizeof(float)), n, 3.0f, NULL};
    if (!t->a || !t->b || !t->c)
        return 0;
    for (size_t i = 0; i < n; i++) {
        t->b[i] = (float)(i & 1023);
        t->c[i] = 0.5f;
    }
    return 1;
}

static void triad_release(triad_ctx *t)
{
    ossa_skin_buffer_free(t->a);
    ossa_skin_buffer_free(t->b);
    ossa_skin_buffer_free(t->c);
}

int bench_skin(const bench_opts *o, const ossa_model *m, bench_report *r)
{
    skin_ctx s, skins[MAX_RESULTS], picks[2 * OSSA_SKIN_KERNEL_COUNT + 1];
    memset(&s, 0, sizeof s);
    triad_ctx tri = {0}, triads[2];
    ossa_skin_pool *pools[2] = {NULL, NULL};
    bench_subject subs[2 + MAX_RESULTS + 2 * OSSA_SKIN_KERNEL_COUNT + 1 + 1];
    size_t ns = 0;
#ifdef OSSA_BENCH_CAL3D
    cal_skin_ctx cal = {NULL, NULL};
#endif
    int ok = 1;
    float *ref_pos = NULL, *ref_nrm = NULL;
    /* The character instance builds the skin meshes, as a program would; the jobs are timed
     * here kernel by kernel over its meshes. */
    ossa_instance *inst = NULL;
    ossa_error err;
    if (ossa_instance_create(m, NULL, &inst, &err) != OSSA_OK) {
        fprintf(stderr, "ossa bench: %s\n", err.message);
        return 0;
    }
    uint32_t parts = ossa_instance_part_count(inst);
    s.meshes = calloc(parts ? parts : 1, sizeof *s.meshes);
    s.sources = calloc(parts ? parts : 1, sizeof *s.sources);
    s.pos = calloc(parts ? parts : 1, sizeof *s.pos);
    s.nrm = calloc(parts ? parts : 1, sizeof *s.nrm);
    float *palette = malloc(12 * sizeof(float) * (m->bone_count ? m->bone_count : 1));
    if (!s.meshes || !s.sources || !s.pos || !s.nrm || !palette ||
        !model_palette(m, 0.37f, palette)) {
        ok = 0;
        goto done;
    }
    s.palette = palette;
    s.store = o->store;
    s.palette_size = m->bone_count;
    size_t k = 0, max_out = 0;
    for (uint32_t i = 0; i < parts; i++) {
        ossa_instance_part part;
        ossa_instance_part_info(inst, i, &part, NULL);
        if (!part.skin && !part.vertex_count)
            continue; /* an empty submesh: nothing to skin */
        if (!part.skin) {
            fprintf(stderr, "ossa bench: skin mesh of mesh %u submesh %u: %s\n", part.mesh,
                    part.submesh, ossa_status_name(part.skin_status));
            ok = 0;
            goto done;
        }
        const ossa_submesh *sm = part.source;
        s.meshes[k] = part.skin;
        s.sources[k] = sm;
        size_t out = part.output_count;
        s.pos[k] = ossa_skin_buffer_alloc(3 * sizeof(float) * out);
        s.nrm[k] = ossa_skin_buffer_alloc(3 * sizeof(float) * out);
        s.count = ++k;
        if (!s.pos[k - 1] || !s.nrm[k - 1]) {
            ok = 0;
            goto done;
        }
        if (out > max_out)
            max_out = out;
        uint64_t rd, wr;
        ossa_skin_mesh_traffic(part.skin, &rd, &wr);
        r->stream_bytes += (double)rd + (double)wr;
        r->vertices += sm->vertex_count;
        r->influences_total += sm->influence_start[sm->vertex_count];
        if (sm->max_influences > r->max_influences)
            r->max_influences = sm->max_influences;
        r->exact_submeshes += (uint32_t)ossa_skin_mesh_exact(part.skin);
    }
    r->submeshes = parts;
    if (!r->vertices) {
        fprintf(stderr, "ossa bench: the model has no vertices to skin\n");
        ok = 0;
        goto done;
    }
    /* Every subject (the triad and each kernel on 1 and T threads, libcal3d's physique) is
     * timed in interleaved rounds; pools live through all rounds, one per thread count. */
    if (!triad_setup(&tri, r)) {
        fprintf(stderr, "ossa bench: STREAM triad: out of memory\n");
        ok = 0;
        goto done;
    }
    r->triad_n = tri.n;
    for (size_t ti = 0; ti < r->thread_count_n; ti++) {
        if (r->thread_counts[ti] > 1 &&
            ossa_skin_pool_create(r->thread_counts[ti], &pools[ti], NULL) != OSSA_OK) {
            fprintf(stderr, "ossa bench: cannot start %u threads\n", r->thread_counts[ti]);
            ok = 0;
            goto done;
        }
        triads[ti] = tri;
        triads[ti].pool = pools[ti];
        subs[ns++] = (bench_subject){.fn = triad_once, .ctx = &triads[ti],
                                     .threads = r->thread_counts[ti], .pool = pools[ti]};
    }
    for (size_t ki = 0; ki < r->kernel_count; ki++) {
        for (size_t ti = 0; ti < r->thread_count_n; ti++) {
            skin_result *res = &r->skin[r->skin_count];
            res->kernel = r->kernels[ki];
            res->threads = r->thread_counts[ti];
            skins[r->skin_count] = s;
            skins[r->skin_count].kernel = res->kernel;
            skins[r->skin_count].pool = pools[ti];
            subs[ns++] = (bench_subject){.fn = skin_once, .ctx = &skins[r->skin_count],
                                         .threads = res->threads, .pool = pools[ti]};
            r->skin_count++;
        }
    }
    /* The choice on 1 thread, beside every kernel with each store forced. */
    choice_result *cr = &r->choice;
    size_t pick0 = ns, np = 0;
    cr->job_vertices = (uint32_t)max_out;
    cr->chosen = ossa_skin_choice_at(&cr->choice, cr->job_vertices);
    for (size_t ki = 0; ki < r->kernel_count; ki++)
        for (int st = OSSA_SKIN_STORE_CACHED; st <= OSSA_SKIN_STORE_STREAM; st++) {
            cr->forced[cr->forced_count].kernel = r->kernels[ki];
            cr->forced[cr->forced_count++].store = (ossa_skin_store)st;
            picks[np] = s;
            picks[np].kernel = r->kernels[ki];
            picks[np].store = (ossa_skin_store)st;
            subs[ns++] = (bench_subject){.fn = skin_once, .ctx = &picks[np++], .threads = 1};
        }
    picks[np] = s;
    picks[np].kernel = OSSA_SKIN_KERNEL_AUTO;
    picks[np].store = OSSA_SKIN_STORE_AUTO;
    picks[np].choice = &cr->choice;
    subs[ns++] = (bench_subject){.fn = skin_once, .ctx = &picks[np++], .threads = 1};
#ifdef OSSA_BENCH_CAL3D
    char msg[256];
    cal.cal = bench_cal3d_new(m, m->clip_count ? 0 : -1, msg, sizeof msg);
    cal.out = malloc(6 * sizeof(float) * (r->vertices ? r->vertices : 1));
    if (cal.cal && cal.out) {
        bench_cal3d_pose(cal.cal, 0.37f); /* one frame forward */
        subs[ns++] = (bench_subject){.fn = cal_skin_once, .ctx = &cal};
        r->has_cal3d = 1;
    } else if (!cal.cal) {
        snprintf(r->cal3d_note, sizeof r->cal3d_note, "%s", msg);
    }
#endif
    bench_measure_rounds(subs, ns, o->runs, &r->load);

    const bench_subject *cal_sub = r->has_cal3d ? &subs[ns - 1] : NULL;
    if (cal_sub) {
        r->cal3d_skin = bench_timing_of(cal_sub, o->runs);
        r->cal3d_vps = (double)r->vertices / r->cal3d_skin.median;
    }
    for (size_t ti = 0; ti < r->thread_count_n; ti++) {
        r->triad[ti] = bench_timing_of(&subs[ti], o->runs);
        /* 16 bytes an element: read b and c, write a, and the write-allocate read of a. */
        r->triad_gbps[ti] = 16.0 * (double)tri.n / r->triad[ti].median * 1e-9;
    }
    ok = tri.a[tri.n - 1] == tri.b[tri.n - 1] + 3.0f * tri.c[tri.n - 1];
    /* Reference outputs: the scalar API (file order), to check every kernel's figures come
     * from correct work. */
    size_t max_v = 0;
    for (size_t i = 0; i < s.count; i++)
        if (ossa_skin_mesh_vertex_count(s.meshes[i]) > max_v)
            max_v = ossa_skin_mesh_vertex_count(s.meshes[i]);
    ref_pos = malloc(3 * sizeof(float) * (max_v ? max_v : 1));
    ref_nrm = malloc(3 * sizeof(float) * (max_v ? max_v : 1));
    if (!ok || !ref_pos || !ref_nrm) {
        ok = 0;
        goto done;
    }
    for (size_t i = 0; i < r->skin_count; i++) {
        skin_result *res = &r->skin[i];
        const bench_subject *sub = &subs[r->thread_count_n + i];
        size_t ti = res->threads > 1 ? r->thread_count_n - 1 : 0;
        res->t = bench_timing_of(sub, o->runs);
        res->vps = (double)r->vertices / res->t.median;
        double bytes = skin_bytes(&s, res->kernel, &res->streaming);
        res->bytes_per_vertex = bytes / (double)(r->vertices ? r->vertices : 1);
        res->triad_gbps = r->triad_gbps[ti];
        res->limit_vps = res->triad_gbps * 1e9 / res->bytes_per_vertex;
        /* per round: (kernel's bytes / its time) / (triad's bytes / its time) */
        res->fraction = bytes / (16.0 * (double)tri.n) *
                        bench_median_ratio(subs[ti].samples, sub->samples, o->runs);
        if (cal_sub)
            res->ratio = bench_median_ratio(cal_sub->samples, sub->samples, o->runs);
        /* Run it once more so the outputs hold its result: compare with the scalar API. */
        skin_once(&skins[i]);
        s.failed |= skins[i].failed;
        res->max_err = outputs_err(&s, palette, ref_pos, ref_nrm);
    }
    const bench_subject *chosen_sub = &subs[pick0 + np - 1];
    cr->t = bench_timing_of(chosen_sub, o->runs);
    cr->vps = (double)r->vertices / cr->t.median;
    for (size_t i = 0; i < cr->forced_count; i++) {
        cr->forced[i].t = bench_timing_of(&subs[pick0 + i], o->runs);
        cr->forced[i].vps = (double)r->vertices / cr->forced[i].t.median;
        if (cr->forced[i].vps > cr->forced[cr->fastest].vps)
            cr->fastest = i;
    }
    cr->vs_fastest = bench_median_ratio(subs[pick0 + cr->fastest].samples, chosen_sub->samples,
                                        o->runs);
    skin_once(&picks[np - 1]);
    s.failed |= picks[np - 1].failed;
    cr->max_err = outputs_err(&picks[np - 1], palette, ref_pos, ref_nrm);
    if (s.failed) {
        fprintf(stderr, "ossa bench: a skin job failed\n");
        ok = 0;
    }
#ifdef OSSA_BENCH_CAL3D
    /* libcal3d's mesh against the scalar API at its mixer's time */
    if (ok && r->has_cal3d && model_palette(m, bench_cal3d_time(cal.cal), palette)) {
        size_t base = 0;
        for (uint32_t i = 0; i < m->mesh_count; i++) {
            for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
                const ossa_submesh *sm = &m->meshes[i].submeshes[j];
                ossa_skin_submesh_scalar(sm, palette, ref_pos, ref_nrm, sm->vertex_count, NULL);
                for (uint32_t v = 0; v < sm->vertex_count; v++) {
                    const float *cv = cal.out + 6 * (base + v);
                    double e1 = max_diff(cv, ref_pos + 3 * v, 3);
                    double e2 = max_diff(cv + 3, ref_nrm + 3 * v, 3);
                    if (e1 > r->cal3d_err)
                        r->cal3d_err = e1;
                    if (e2 > r->cal3d_err)
                        r->cal3d_err = e2;
                }
                base += sm->vertex_count;
            }
        }
    }
#endif
done:
    for (size_t i = 0; i < s.count; i++) {
        ossa_skin_buffer_free(s.pos[i]);
        ossa_skin_buffer_free(s.nrm[i]);
    }
    free(s.meshes);
    free(s.sources);
    ossa_instance_destroy(inst);
    free(s.pos);
    free(s.nrm);
    free(palette);
    free(ref_pos);
    free(ref_nrm);
    for (size_t ti = 0; ti < r->thread_count_n; ti++)
        ossa_skin_pool_destroy(pools[ti]);
    triad_release(&tri);
#ifdef OSSA_BENCH_CAL3D
    free(cal.out);
    bench_cal3d_free(cal.cal);
#endif
    return ok;
}
