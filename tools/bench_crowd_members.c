/* The crowd's characters and their frames (bench_crowd_members.h). */
#include "bench_crowd_members.h"
#include "bench_crowd_report.h"
#include <stdio.h>
#include <stdlib.h>
#include "ossa/skin.h"

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static float unit(uint64_t *s)
{
    return (float)(splitmix(s) >> 40) / (float)(1u << 24);
}

/* The clip member i switches to at frame f, or UINT32_MAX when it does not switch then. */
static uint32_t switch_at(const crowd *c, uint32_t clip, bool switches, uint32_t i, uint32_t f)
{
    if (!switches || f == 0 || (f + i) % CROWD_SWITCH_FRAMES != 0)
        return UINT32_MAX;
    return (clip + 1) % c->clip_count;
}

/* Characters updated together: a few cloth lanes' worth, few enough that their poses are
 * still in cache when they are skinned. */
#define CROWD_BATCH 16u

/* A frame of members [begin, end), CROWD_BATCH at a time: clip switches, one
 * ossa_instance_update_many (the cloth of neighbours steps in SIMD lanes), then each skin. */
void crowd_frame_range(void *ctx, uint32_t begin, uint32_t end)
{
    crowd *c = ctx;
    for (uint32_t lo = begin; lo < end; lo += CROWD_BATCH) {
        uint32_t hi = end - lo > CROWD_BATCH ? lo + CROWD_BATCH : end;
        ossa_instance *batch[CROWD_BATCH];
        for (uint32_t i = lo; i < hi; i++) {
            crowd_member *mb = &c->members[i];
            uint32_t next = switch_at(c, mb->clip, mb->switches, i, c->frame);
            if (next != UINT32_MAX) {
                mb->failed |= ossa_instance_play(mb->inst, next, CROWD_FADE, NULL) != OSSA_OK;
                mb->clip = next;
            }
            batch[i - lo] = mb->inst;
        }
        ossa_instance_update_many(batch, hi - lo, CROWD_DT);
        /* failed is written only on a failure: the members at the ends of two threads' pieces
         * share a cache line, and a store every frame would move it between their cores */
        for (uint32_t i = lo; i < hi; i++) {
            crowd_member *mb = &c->members[i];
            if (ossa_instance_skin(mb->inst, 0, c->parts, mb->spans, NULL) != OSSA_OK)
                mb->failed = true;
        }
    }
}

/* True when the crowd's characters run in turn, each splitting its large parts over a pool of
 * `threads` (fewer than 2 characters a thread, and a part big enough for the instance to split
 * it); else the characters are split (crowd_frame_ossa: one character a piece at the least). */
static bool split_within(const crowd *c, uint32_t threads)
{
    if (c->n >= 2 * threads)
        return false;
    for (uint32_t p = 0; c->n && p < c->parts; p++) {
        ossa_instance_part info;
        if (ossa_instance_part_info(c->members[0].inst, p, &info, NULL) == OSSA_OK &&
            info.output_count >= OSSA_INSTANCE_PARALLEL_MIN_VERTICES)
            return true;
    }
    return false;
}

/* One frame of the whole crowd on c->pool's threads (or the caller's alone), in pieces of one
 * or two update groups (cloth lanes), small so that a preempted thread holds little, of the size
 * that shares the crowd out most evenly, or one even piece a thread for a small crowd
 * (ossa_skin_pool_align). */
void crowd_frame_ossa(void *ctx)
{
    crowd *c = ctx;
    uint32_t threads = ossa_skin_pool_threads(c->pool);
    if (c->pool && c->n >= 2 && !split_within(c, threads))
        ossa_skin_pool_for(c->pool, 0, c->n,
                           ossa_skin_pool_align(c->pool, c->n, OSSA_INSTANCE_UPDATE_GROUP),
                           crowd_frame_range, c);
    else
        crowd_frame_range(c, 0, c->n);
    c->frame++;
}

/* Threads a frame on `pool` keeps busy, for the contention check: all of them when the
 * instances split their large parts, one a piece when the characters are split (up to all),
 * else the caller's alone; an idle worker is not a busy machine. */
uint32_t crowd_busy_threads(const crowd *c, const ossa_skin_pool *pool)
{
    uint32_t threads = ossa_skin_pool_threads(pool);
    if (split_within(c, threads))
        return threads;
    if (c->n < 2)
        return 1;
    uint32_t piece = ossa_skin_pool_align(pool, c->n, OSSA_INSTANCE_UPDATE_GROUP);
    uint32_t pieces = (c->n + piece - 1) / piece;
    return pieces < threads ? pieces : threads;
}

/* Across characters, or within their parts: one or the other, never both (a pool dispatch
 * cannot nest). */
void crowd_use_pool(crowd *c, ossa_skin_pool *pool)
{
    c->pool = pool;
    bool within = pool && split_within(c, ossa_skin_pool_threads(pool));
    for (uint32_t i = 0; i < c->n; i++)
        ossa_instance_set_pool(c->members[i].inst, within ? pool : NULL);
}

#ifdef OSSA_BENCH_CAL3D
void crowd_frame_cal(void *ctx)
{
    crowd *c = ctx;
    for (uint32_t i = 0; i < c->n; i++) {
        crowd_member *mb = &c->members[i];
        uint32_t next = switch_at(c, mb->cal_clip, mb->switches, i, c->cal_frame);
        if (next != UINT32_MAX) {
            mb->failed |= !bench_cal3d_actor_play(mb->actor, (int)next, CROWD_FADE);
            mb->cal_clip = next;
        }
        bench_cal3d_actor_frame(mb->actor, CROWD_DT, mb->cal_out);
    }
    c->cal_frame++;
}
#endif

static uint64_t output_floats(const ossa_instance *inst, uint32_t parts)
{
    uint64_t total = 0;
    for (uint32_t p = 0; p < parts; p++) {
        ossa_instance_part info;
        if (ossa_instance_part_info(inst, p, &info, NULL) == OSSA_OK)
            total += 3ull * info.output_count;
    }
    return total;
}

double crowd_output_bytes(const crowd *c)
{
    return c->n ? 2.0 * sizeof(float) * (double)output_floats(c->members[0].inst, c->parts) * c->n
                : 0.0;
}

void crowd_use_store(crowd *c, ossa_skin_store store)
{
    for (uint32_t i = 0; i < c->n; i++)
        ossa_instance_set_store(c->members[i].inst, store);
}

/* Room for `floats` floats of one of `capacity` characters: a place in the slab (made at the
 * first call), or an allocation of its own (*own) when there is no slab or no room left. */
static float *slab_take(crowd_slab *s, size_t floats, uint32_t capacity, bool *own)
{
    if (!s->block && capacity > 1 && floats) {
        size_t stride = (floats + 15) / 16 * 16;
        if (stride <= SIZE_MAX / sizeof(float) / capacity) {
            s->block = ossa_skin_buffer_alloc(stride * capacity * sizeof(float));
            s->stride = stride;
            s->capacity = s->block ? capacity : 0;
        }
    }
    if (s->block && s->used < s->capacity && floats <= s->stride) {
        *own = false;
        return s->block + s->stride * s->used++;
    }
    *own = true;
    return ossa_skin_buffer_alloc((floats ? floats : 1) * sizeof(float));
}

size_t crowd_slab_bytes(const crowd_slab *s)
{
    return s->block ? s->stride * s->capacity * sizeof(float) : 0;
}

void crowd_member_release(crowd_member *mb)
{
    ossa_instance_destroy(mb->inst);
    free(mb->spans);
    if (mb->own_out)
        ossa_skin_buffer_free(mb->out);
#ifdef OSSA_BENCH_CAL3D
    bench_cal3d_actor_free(mb->actor);
    if (mb->own_cal_out)
        ossa_skin_buffer_free(mb->cal_out);
#endif
}

void crowd_release(crowd *c)
{
    for (uint32_t i = 0; c->members && i < c->n; i++)
        crowd_member_release(&c->members[i]);
    free(c->members);
    c->members = NULL;
    ossa_skin_buffer_free(c->out.block);
    c->out = (crowd_slab){0};
#ifdef OSSA_BENCH_CAL3D
    ossa_skin_buffer_free(c->cal_out.block);
    c->cal_out = (crowd_slab){0};
#endif
}

/* Character i: its instance (sharing character 0's runtime data), buffers and script. */
bool crowd_member_init_ossa(crowd *c, uint32_t i, char *msg, size_t size)
{
    crowd_member *mb = &c->members[i];
    ossa_error err;
    ossa_instance_desc desc = {.choice = c->choice};
    ossa_status st = i ? ossa_instance_create_shared(c->members[0].inst, &desc, &mb->inst, &err)
                       : ossa_instance_create(c->m, &desc, &mb->inst, &err);
    if (st != OSSA_OK) {
        snprintf(msg, size, "instance %u: %.200s", i, err.message);
        return false;
    }
    c->parts = ossa_instance_part_count(mb->inst);
    uint64_t floats = output_floats(mb->inst, c->parts);
    mb->spans = calloc(c->parts ? c->parts : 1, sizeof *mb->spans);
    if (i < c->own_first) {
        mb->out = ossa_skin_buffer_alloc(2 * floats * sizeof(float) + 64);
        mb->own_out = true;
    } else {
        mb->out = slab_take(&c->out, 2 * floats, c->capacity - c->own_first, &mb->own_out);
    }
    if (!mb->spans || !mb->out) {
        snprintf(msg, size, "instance %u: out of memory", i);
        return false;
    }
    float *pos = mb->out, *nrm = mb->out + floats;
    for (uint32_t p = 0; p < c->parts; p++) {
        ossa_instance_part info;
        ossa_instance_part_info(mb->inst, p, &info, NULL);
        mb->spans[p] = (ossa_instance_span){pos, nrm, info.output_count};
        pos += 3 * (size_t)info.output_count;
        nrm += 3 * (size_t)info.output_count;
    }
    uint64_t rng = CROWD_SEED + i;
    const ossa_clip *clip = &c->m->clips[i % c->clip_count];
    mb->clip = i % c->clip_count;
    mb->switches = c->clip_count > 1 && i % 4 == 1;
    mb->phase = unit(&rng) * clip->duration;
    mb->speed = 0.75f + 0.5f * unit(&rng);
    if (ossa_instance_play(mb->inst, mb->clip, 0.0f, &err) != OSSA_OK) {
        snprintf(msg, size, "instance %u: %.200s", i, err.message);
        return false;
    }
    ossa_mixer_set_time_factor(ossa_instance_mixer(mb->inst), mb->speed);
    ossa_instance_seek(mb->inst, mb->phase);
    return true;
}

/* Character i's CalModel, same script, when libcal3d is there. */
bool crowd_member_init_cal(crowd *c, uint32_t i, uint64_t vertices, char *msg, size_t size)
{
#ifdef OSSA_BENCH_CAL3D
    crowd_member *mb = &c->members[i];
    if (c->cal) {
        mb->actor = bench_cal3d_actor_new(c->cal);
        size_t floats = 6 * (size_t)(vertices ? vertices : 1);
        if (i < c->own_first) {
            mb->cal_out = ossa_skin_buffer_alloc(floats * sizeof(float));
            mb->own_cal_out = true;
        } else {
            mb->cal_out = slab_take(&c->cal_out, floats, c->capacity - c->own_first,
                                    &mb->own_cal_out);
        }
        mb->cal_clip = mb->clip;
        if (!mb->actor || !mb->cal_out ||
            !bench_cal3d_actor_play(mb->actor, (int)mb->clip, 0.0f)) {
            snprintf(msg, size, "libcal3d character %u could not be made", i);
            return false;
        }
        bench_cal3d_actor_set_speed(mb->actor, mb->speed);
        bench_cal3d_actor_set_time(mb->actor, mb->phase);
        bench_cal3d_actor_reset_springs(mb->actor); /* as the instance's seek does */
    }
#else
    (void)c, (void)i, (void)vertices, (void)msg, (void)size;
#endif
    return true;
}

bool crowd_member_init(crowd *c, uint32_t i, uint64_t vertices, char *msg, size_t size)
{
    return crowd_member_init_ossa(c, i, msg, size) && crowd_member_init_cal(c, i, vertices, msg, size);
}
