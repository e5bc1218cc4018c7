/* The crowd of `ossa bench --crowd` (bench_crowd.h): its characters, each an instance with
 * output buffers and a script (clip, phase, speed, cross-fades), libcal3d's twin of each when
 * libcal3d is there, and one frame of either side. bench_crowd_members.c makes and runs them;
 * bench_crowd.c times them. */
#ifndef OSSA_TOOLS_BENCH_CROWD_MEMBERS_H
#define OSSA_TOOLS_BENCH_CROWD_MEMBERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ossa/instance.h"
#include "ossa/skin_pool.h"
#ifdef OSSA_BENCH_CAL3D
#include "bench_cal3d.h"
#endif

#define CROWD_FADE 0.25f
#define CROWD_SWITCH_FRAMES 120u
#define CROWD_SEED 0xC20ADull

typedef struct crowd_member {
    ossa_instance *inst;
    ossa_instance_span *spans;
    float *out; /* positions then normals of every part */
    bool own_out; /* out is its own allocation, not a place in the crowd's slab */
    uint32_t clip;
    bool switches;
    bool failed;
    float phase, speed; /* where and how fast its clip plays (libcal3d's twin too) */
#ifdef OSSA_BENCH_CAL3D
    bench_cal3d_actor *actor;
    float *cal_out;    /* 6 floats a file vertex */
    bool own_cal_out;
    uint32_t cal_clip; /* the clip the CalModel plays (its frames are counted apart) */
#endif
} crowd_member;

/* Outputs of many characters in one allocation, one stride apart, as a renderer keeps a crowd's
 * vertices in one buffer (large: on huge pages, ossa_skin_buffer_alloc): characters on 4 KB
 * pages of their own each cost their own TLB entries (docs/BENCHMARKS.md, 2026-11-26 16:30). */
typedef struct crowd_slab {
    float *block;
    size_t stride;           /* floats a character, a multiple of 16 */
    uint32_t capacity, used; /* characters */
} crowd_slab;

typedef struct crowd {
    const ossa_model *m;
    uint32_t n, parts, clip_count;
    uint32_t capacity;        /* characters the crowd will have */
    uint32_t own_first;       /* the first characters, whose outputs are their own (the memory
                                 probe's, before the crowd is known to fit) */
    crowd_slab out;           /* the other Ossa characters' outputs */
    crowd_member *members;
    const ossa_skin_choice *choice; /* the characters' kernel, may be NULL */
    ossa_skin_pool *pool; /* NULL: 1 thread */
    uint32_t frame;       /* of the subject being timed */
#ifdef OSSA_BENCH_CAL3D
    bench_cal3d *cal;
    uint32_t cal_frame;
    crowd_slab cal_out;       /* the other CalModels' outputs */
#endif
} crowd;

/* Character i: its instance (sharing character 0's runtime data), buffers and script; its
 * CalModel with the same script; both. Then one released, and all of them (members freed). */
bool crowd_member_init_ossa(crowd *c, uint32_t i, char *msg, size_t size);
bool crowd_member_init_cal(crowd *c, uint32_t i, uint64_t vertices, char *msg, size_t size);
bool crowd_member_init(crowd *c, uint32_t i, uint64_t vertices, char *msg, size_t size);
void crowd_member_release(crowd_member *mb);
void crowd_release(crowd *c);
/* Bytes a slab holds (0: none made). */
size_t crowd_slab_bytes(const crowd_slab *s);
/* Whose threads a frame uses: the pool's across characters or within their parts (never both). */
uint32_t crowd_busy_threads(const crowd *c, const ossa_skin_pool *pool);
void crowd_use_pool(crowd *c, ossa_skin_pool *pool);
/* Bytes of positions and normals a frame writes (every character), and the store policy of every
 * character's instance. */
double crowd_output_bytes(const crowd *c);
void crowd_use_store(crowd *c, ossa_skin_store store);
/* One frame of members [begin, end) on the calling thread (ctx: the crowd), and of the whole
 * crowd on c->pool's threads (or the caller's alone). */
void crowd_frame_range(void *ctx, uint32_t begin, uint32_t end);
void crowd_frame_ossa(void *ctx);
#ifdef OSSA_BENCH_CAL3D
/* One frame of every CalModel. */
void crowd_frame_cal(void *ctx);
#endif

#endif
