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
    uint32_t clip;
    bool switches;
    bool failed;
    float phase, speed; /* where and how fast its clip plays (libcal3d's twin too) */
#ifdef OSSA_BENCH_CAL3D
    bench_cal3d_actor *actor;
    float *cal_out;    /* 6 floats a file vertex */
    uint32_t cal_clip; /* the clip the CalModel plays (its frames are counted apart) */
#endif
} crowd_member;

typedef struct crowd {
    const ossa_model *m;
    uint32_t n, parts, clip_count;
    crowd_member *members;
    ossa_skin_pool *pool; /* NULL: 1 thread */
    uint32_t frame;       /* of the subject being timed */
#ifdef OSSA_BENCH_CAL3D
    bench_cal3d *cal;
    uint32_t cal_frame;
#endif
} crowd;

/* Character i: its instance (sharing character 0's runtime data), buffers and script; its
 * CalModel with the same script; both. Then one released, and all of them (members freed). */
bool crowd_member_init_ossa(crowd *c, uint32_t i, char *msg, size_t size);
bool crowd_member_init_cal(crowd *c, uint32_t i, uint64_t vertices, char *msg, size_t size);
bool crowd_member_init(crowd *c, uint32_t i, uint64_t vertices, char *msg, size_t size);
void crowd_member_release(crowd_member *mb);
void crowd_release(crowd *c);
/* Whose threads a frame uses: the pool's across characters or within their parts (never both). */
uint32_t crowd_busy_threads(const crowd *c, uint32_t threads);
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
