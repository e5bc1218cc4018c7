/* ossa-view's crowd without GL (crowd.h). */
#include "crowd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The two axes across up: X and Z for Y up, X and Y for Z up. */
static void ground_axes(int up, int *a, int *b)
{
    *a = 0;
    *b = up == 2 ? 1 : 2;
}

void view_crowd_layout(uint32_t count, const float bind_min[3], const float bind_max[3], int up,
                       uint32_t *columns, uint32_t *rows, float *spacing)
{
    uint32_t n = count ? count : 1;
    uint32_t cols = (uint32_t)ceil(sqrt((double)n));
    while (cols * cols < n) /* sqrt rounding */
        cols++;
    *columns = cols;
    *rows = (n + cols - 1) / cols;
    int a, b;
    ground_axes(up, &a, &b);
    float extent = fmaxf(bind_max[a] - bind_min[a], bind_max[b] - bind_min[b]);
    *spacing = isfinite(extent) && extent > 1e-6f ? 1.5f * extent : 1.0f;
}

void view_crowd_offset(uint32_t i, uint32_t columns, uint32_t rows, float spacing, int up,
                       float out[3])
{
    int a, b;
    ground_axes(up, &a, &b);
    uint32_t row = i / columns, col = i % columns;
    out[0] = out[1] = out[2] = 0.0f;
    out[a] = ((float)col - 0.5f * (float)(columns - 1)) * spacing;
    out[b] = ((float)row - 0.5f * (float)(rows - 1)) * spacing;
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1), 24 bits. */
static float unit(uint64_t *state)
{
    return (float)(splitmix64(state) >> 40) * (1.0f / 16777216.0f);
}

void view_crowd_phases(uint32_t count, uint32_t seed, float *phase, float *speed)
{
    uint64_t state = seed;
    for (uint32_t i = 0; i < count; i++) {
        float p = unit(&state), s = unit(&state);
        phase[i] = i ? p : 0.0f;
        speed[i] = i ? 0.8f + 0.4f * s : 1.0f;
    }
}

void view_crowd_free(view_crowd *c)
{
    if (c->instances)
        for (uint32_t i = 0; i < c->count; i++)
            ossa_instance_destroy(c->instances[i]);
    if (c->pool)
        ossa_skin_pool_destroy(c->pool);
    free(c->instances);
    free((void *)c->palettes);
    free(c->offsets);
    free(c->phase);
    free(c->speed);
    ossa_skin_buffer_free(c->positions);
    ossa_skin_buffer_free(c->normals);
    memset(c, 0, sizeof *c);
}

bool view_crowd_init(view_crowd *c, const ossa_model *m, uint32_t count, uint32_t seed,
                     size_t vertex_count, const float bind_min[3], const float bind_max[3],
                     int up, uint32_t threads, char *err, size_t err_size)
{
    memset(c, 0, sizeof *c);
    if (count < 1 || count > VIEW_CROWD_MAX) {
        snprintf(err, err_size, "a crowd of %u is not 1..%d characters", count, VIEW_CROWD_MAX);
        return false;
    }
    c->model = m;
    c->count = count;
    c->clip = OSSA_INSTANCE_NO_CLIP;
    c->vertex_count = vertex_count;
    size_t floats = 3 * (vertex_count ? vertex_count : 1) * (size_t)count;
    c->instances = calloc(count, sizeof *c->instances);
    c->palettes = calloc(count, sizeof *c->palettes);
    c->offsets = calloc(3 * (size_t)count, sizeof *c->offsets);
    c->phase = calloc(count, sizeof *c->phase);
    c->speed = calloc(count, sizeof *c->speed);
    /* zeroed and 64-byte aligned, so that a crowd out of cache can stream into them */
    c->positions = ossa_skin_buffer_alloc(floats * sizeof *c->positions);
    c->normals = ossa_skin_buffer_alloc(floats * sizeof *c->normals);
    if (!c->instances || !c->palettes || !c->offsets || !c->phase || !c->speed || !c->positions || !c->normals) {
        snprintf(err, err_size, "out of memory for a crowd of %u", count);
        view_crowd_free(c);
        return false;
    }
    for (uint32_t i = 0; i < count; i++) {
        ossa_error e;
        /* One copy of the skeleton, clips and skin meshes for the whole crowd. */
        ossa_status st = i ? ossa_instance_create_shared(c->instances[0], NULL,
                                                         &c->instances[i], &e)
                           : ossa_instance_create(m, NULL, &c->instances[i], &e);
        if (st != OSSA_OK) {
            ossa_error_format(&e, err, err_size);
            view_crowd_free(c);
            return false;
        }
        c->palettes[i] = ossa_instance_palette(c->instances[i]);
    }
    /* A crowd that outgrows the caches streams its skin. Not by ossa_skin_crowd_store, which
     * counts at most 64 MB of last-level cache for outputs nobody reads before the next frame:
     * the viewer uploads them right away, so they stay cached while half of the whole cache
     * holds the crowd. (On an NVIDIA H100 machine's Xeon with 300 MB of L3, 896 cally
     * characters streamed by that rule drew a frame in 11.0 and 11.8 ms, cached in 9.9 to 11.0
     * in five runs.) */
    uint64_t bytes = (uint64_t)count * ossa_instance_state_bytes(c->instances[0]) +
                     2 * floats * sizeof(float);
    if (bytes > ossa_skin_cache_bytes() / 2)
        for (uint32_t i = 0; i < count; i++)
            ossa_instance_set_store(c->instances[i], OSSA_SKIN_STORE_STREAM);
    if (threads > 1 && count > 1 && ossa_skin_pool_create(threads, &c->pool, NULL) != OSSA_OK)
        c->pool = NULL; /* one thread is still right */
    view_crowd_layout(count, bind_min, bind_max, up, &c->columns, &c->rows, &c->spacing);
    view_crowd_phases(count, seed, c->phase, c->speed);
    for (int k = 0; k < 3; k++) {
        c->bounds_min[k] = bind_min[k];
        c->bounds_max[k] = bind_max[k];
    }
    for (uint32_t i = 0; i < count; i++) {
        float *o = c->offsets + 3 * (size_t)i;
        view_crowd_offset(i, c->columns, c->rows, c->spacing, up, o);
        for (int k = 0; k < 3; k++) {
            c->bounds_min[k] = fminf(c->bounds_min[k], bind_min[k] + o[k]);
            c->bounds_max[k] = fmaxf(c->bounds_max[k], bind_max[k] + o[k]);
        }
    }
    return true;
}

/* ---- work split over instances ------------------------------------------------------------ */

typedef enum crowd_job { JOB_PLAY, JOB_SEEK, JOB_ADVANCE, JOB_SKIN, JOB_PACK } crowd_job;

typedef struct crowd_work {
    view_crowd *crowd;
    crowd_job job;
    float value;            /* shared time or shared dt */
    float wall_dt;
    float fade;             /* JOB_PLAY's cross-fade seconds */
    bool first;             /* JOB_PLAY: no clip played before */
    bool everyone;          /* JOB_ADVANCE: time jumped, tick even the still ones */
    const bool *part_mask;
    float *packed;          /* JOB_PACK's output */
} crowd_work;

static void pack_instance(const view_crowd *c, uint32_t i, float *out)
{
    size_t bones = c->model->bone_count;
    float *o = out + 4 * (1 + 3 * bones) * (size_t)i;
    memcpy(o, c->offsets + 3 * (size_t)i, 3 * sizeof *o);
    o[3] = 0.0f;
    memcpy(o + 4, ossa_instance_palette(c->instances[i]), 12 * bones * sizeof *o);
}

static float clip_duration(const view_crowd *c)
{
    return c->clip < c->model->clip_count ? c->model->clips[c->clip].duration : 0.0f;
}

static void skin_instance(view_crowd *c, uint32_t i, const bool *mask)
{
    ossa_instance *inst = c->instances[i];
    size_t base = (size_t)i * c->vertex_count;
    uint32_t parts = ossa_instance_part_count(inst);
    size_t at = 0;
    for (uint32_t p = 0; p < parts; p++) {
        ossa_instance_part info;
        ossa_instance_part_info(inst, p, &info, NULL);
        if (!mask || mask[p]) {
            ossa_instance_span span = {c->positions + 3 * (base + at),
                                       c->normals + 3 * (base + at), info.output_count};
            ossa_instance_skin(inst, p, 1, &span, NULL);
        }
        at += info.output_count; /* the scene's layout: parts one after the other */
    }
}

/* The clip time instance i is at when the shared clock reads shared. */
static float member_time(const view_crowd *c, uint32_t i, float shared)
{
    return c->phase[i] * clip_duration(c) + c->speed[i] * shared;
}

/* Instances [begin, end) ticked by wall_dt, each clock set to move by its speed times shared_dt
 * in that time (wall_dt <= 0: by shared_dt's size), so their fades run in wall time and their
 * cloth steps by the clip time each plays. Paused, only the ones still fading tick, unless
 * time jumped (their cloth goes to rest at the tick). */
static void advance_range(view_crowd *c, uint32_t begin, uint32_t end, float shared_dt,
                          float wall_dt, bool everyone)
{
    float tick_dt = wall_dt > 0.0f ? wall_dt : fabsf(shared_dt);
    ossa_instance *batch[4 * OSSA_INSTANCE_UPDATE_GROUP];
    uint32_t n = 0;
    for (uint32_t i = begin; i < end; i++) {
        ossa_instance *inst = c->instances[i];
        ossa_clock *clock = ossa_instance_clock(inst);
        clock->playing = true;
        clock->speed = tick_dt > 0.0f ? c->speed[i] * shared_dt / tick_dt : 0.0f;
        if (shared_dt == 0.0f && !everyone && !ossa_instance_fading(inst, NULL))
            continue; /* paused and still: nothing to show that is not shown */
        batch[n++] = inst;
        if (n == sizeof batch / sizeof batch[0]) {
            ossa_instance_tick_many(batch, n, tick_dt);
            n = 0;
        }
    }
    ossa_instance_tick_many(batch, n, tick_dt);
}

static void crowd_range(void *ctx, uint32_t begin, uint32_t end)
{
    crowd_work *w = ctx;
    view_crowd *c = w->crowd;
    if (w->job == JOB_ADVANCE) {
        advance_range(c, begin, end, w->value, w->wall_dt, w->everyone);
        return;
    }
    for (uint32_t i = begin; i < end; i++) {
        ossa_instance *inst = c->instances[i];
        if (w->job == JOB_PLAY) {
            float t = member_time(c, i, w->value);
            /* the first clip, or none to fade from: at once; else each fades from where it is
             * and plays the new clip from its own place on the shared clock */
            if (w->first || !(w->fade > 0.0f))
                ossa_instance_seek_clock(inst, c->clip, t);
            else
                ossa_instance_switch_clip(inst, c->clip, w->fade, NULL);
            ossa_clock_seek(ossa_instance_clock(inst), t);
            ossa_instance_jumped(inst);
            ossa_instance_show(inst);
        } else if (w->job == JOB_SEEK) {
            ossa_clock_seek(ossa_instance_clock(inst), member_time(c, i, w->value));
            ossa_instance_jumped(inst);
            ossa_instance_show(inst);
        } else if (w->job == JOB_PACK) {
            pack_instance(c, i, w->packed);
        } else {
            skin_instance(c, i, w->part_mask);
        }
    }
}

/* Small chunks of one or two update groups, of the size that shares the crowd out most evenly
 * among the threads, or one even share a thread for a small crowd (ossa_skin_pool_align): a
 * slow instance (springs, a big part) holds up little. */
static void run(view_crowd *c, crowd_work *w)
{
    if (c->pool)
        ossa_skin_pool_for(c->pool, 0, c->count,
                           ossa_skin_pool_align(c->pool, c->count, OSSA_INSTANCE_UPDATE_GROUP),
                           crowd_range, w);
    else
        crowd_range(w, 0, c->count);
}

void view_crowd_play(view_crowd *c, uint32_t clip, float fade, float shared)
{
    if (clip >= c->model->clip_count)
        return;
    crowd_work w = {.crowd = c, .job = JOB_PLAY, .value = isfinite(shared) ? shared : 0.0f,
                    .fade = fade, .first = c->clip == OSSA_INSTANCE_NO_CLIP};
    c->clip = clip;
    c->jumped = true;
    run(c, &w);
}

void view_crowd_seek(view_crowd *c, float shared)
{
    double t0 = now_seconds();
    crowd_work w = {.crowd = c, .job = JOB_SEEK, .value = isfinite(shared) ? shared : 0.0f};
    c->jumped = true;
    run(c, &w);
    c->update_seconds = now_seconds() - t0;
}

void view_crowd_advance(view_crowd *c, float shared_dt, float wall_dt)
{
    double t0 = now_seconds();
    crowd_work w = {.crowd = c, .job = JOB_ADVANCE,
                    .value = isfinite(shared_dt) ? shared_dt : 0.0f,
                    .wall_dt = isfinite(wall_dt) ? wall_dt : 0.0f, .everyone = c->jumped};
    c->jumped = false;
    run(c, &w);
    c->update_seconds = now_seconds() - t0;
}

float view_crowd_time(const view_crowd *c, uint32_t i)
{
    return i < c->count ? ossa_instance_clock(c->instances[i])->time : 0.0f;
}

void view_crowd_skin(view_crowd *c, const bool *part_mask)
{
    double t0 = now_seconds();
    crowd_work w = {.crowd = c, .job = JOB_SKIN, .part_mask = part_mask};
    run(c, &w);
    c->skin_seconds = now_seconds() - t0;
    size_t per = c->vertex_count;
    if (part_mask) {
        per = 0;
        ossa_instance *inst = c->instances[0];
        for (uint32_t p = 0; p < ossa_instance_part_count(inst); p++) {
            ossa_instance_part info;
            ossa_instance_part_info(inst, p, &info, NULL);
            per += part_mask[p] ? info.output_count : 0;
        }
    }
    c->skinned_vertices = per * c->count;
}

void view_crowd_prepare(view_crowd *c, const view_crowd_wants *wants)
{
    c->skin_seconds = c->pack_seconds = 0.0;
    c->skinned_vertices = 0;
    if (wants->skin)
        view_crowd_skin(c, wants->part_mask);
    if (wants->packed) {
        double t0 = now_seconds();
        view_crowd_pack(c, wants->packed);
        c->pack_seconds = now_seconds() - t0;
    }
}

uint32_t view_crowd_palette_checksum(const view_crowd *c, uint32_t i)
{
    if (i >= c->count)
        return 0;
    const unsigned char *bytes = (const unsigned char *)ossa_instance_palette(c->instances[i]);
    size_t n = 12 * sizeof(float) * (size_t)c->model->bone_count;
    uint32_t h = 2166136261u;
    for (size_t k = 0; k < n; k++)
        h = (h ^ bytes[k]) * 16777619u;
    return h;
}

void view_crowd_pack(view_crowd *c, float *out)
{
    crowd_work w = {.crowd = c, .job = JOB_PACK, .packed = out};
    run(c, &w);
}
