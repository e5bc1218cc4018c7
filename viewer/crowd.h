/* ossa-view --crowd N, without GL: N character instances (ossa/instance.h) of the current model
 * on a grid on the ground, each with its own phase and speed, on one shared clock.
 *
 * Layout. ceil(sqrt(N)) columns, as many rows as needed, centred on the origin on the plane
 * across the up axis; the spacing is 1.5 times the bind pose's larger extent across up, so
 * neighbours do not overlap (row-major from instance 0; one instance stands at the origin).
 *
 * Phases and speeds. From a seeded generator (splitmix64), the same for the same seed: instance
 * i starts phase[i] of the clip's length into it and plays at speed[i] (0.8 .. 1.2) times the
 * shared clock; instance 0 has phase 0 and speed 1, so it shows what one model would.
 *
 * Clock. Every instance plays by its own clip clock (the instance's clock way), driven by the
 * viewer's playback time, the shared clock s: instance i is at phase[i] * duration + speed[i] *
 * s, wrapped into the clip (it loops whatever the wrap mode; the shared clock follows that). A
 * jump (seek, scrub, frame step) puts each there; a tick moves each by speed[i] times the shared
 * clock's change (negative plays back, zero while paused) over the tick's wall time, so that its
 * cross-fade runs in wall time, as the single model's does, and its cloth steps by the clip time
 * it played (none while paused: one clock). A clip change cross-fades every instance from where
 * it is into the new clip at its own place on the shared clock (ossa_instance_switch_clip):
 * instance 0 stays on the shared clock, as the single model. Ticks go through
 * ossa_instance_tick_many, so the cloth of neighbours steps in SIMD lanes.
 *
 * Skinning. view_crowd_skin skins every instance into its own range of one vertex array (the
 * scene's layout, vertex_count per instance), instances split over a skin pool in chunks
 * (ossa_skin_pool_for over instance indices; the instances' own pools are NULL). Updates are
 * split the same way. Both time themselves (CPU seconds of the call, wall clock). */
#ifndef OSSA_VIEW_CROWD_H
#define OSSA_VIEW_CROWD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ossa/instance.h"
#include "ossa/model.h"

#define VIEW_CROWD_MAX 65536
#define VIEW_CROWD_SEED 0x05a5c0deu

typedef struct view_crowd {
    const ossa_model *model;       /* not owned */
    uint32_t count;
    uint32_t columns, rows;
    float spacing;
    ossa_instance **instances;     /* count, owned */
    const float **palettes;        /* per instance: its palette (ossa_instance_palette: 12
                                      floats a bone), current after every update */
    float *offsets;                /* 3 floats per instance: its place on the ground */
    float *phase;                  /* fraction of the clip's length, [0, 1) */
    float *speed;                  /* times the shared clock */
    uint32_t clip;                 /* the clip all play (OSSA_INSTANCE_NO_CLIP: rest pose) */
    size_t vertex_count;           /* layout vertices of one instance */
    float *positions, *normals;    /* 3 floats per vertex, vertex_count per instance */
    ossa_skin_pool *pool;          /* NULL: one thread */
    float bounds_min[3], bounds_max[3]; /* the bind pose at every place */
    bool jumped;                   /* time jumped since the last view_crowd_advance */
    double update_seconds;         /* the last view_crowd_seek or _advance */
    double skin_seconds;           /* the last view_crowd_prepare's skinning */
    double pack_seconds;           /* the last view_crowd_prepare's palette packing */
    size_t skinned_vertices;       /* by the last view_crowd_skin */
} view_crowd;

/* The grid for count instances (columns, rows, spacing) and instance i's offset, from the bind
 * bounds and the up axis (1: Y, 2: Z). GL-free helpers, used by init and by tests. */
void view_crowd_layout(uint32_t count, const float bind_min[3], const float bind_max[3], int up,
                       uint32_t *columns, uint32_t *rows, float *spacing);
void view_crowd_offset(uint32_t i, uint32_t columns, uint32_t rows, float spacing, int up,
                       float out[3]);
/* Phase and speed of count instances from seed (instance 0: 0 and 1). */
void view_crowd_phases(uint32_t count, uint32_t seed, float *phase, float *speed);

/* Builds count (1 .. VIEW_CROWD_MAX) instances of m, vertex_count layout vertices each, laid
 * out from the bind bounds across up (1: Y, 2: Z); false with err filled on failure (nothing
 * is left allocated). threads > 1 makes a skin pool of that many participants. */
bool view_crowd_init(view_crowd *c, const ossa_model *m, uint32_t count, uint32_t seed,
                     size_t vertex_count, const float bind_min[3], const float bind_max[3],
                     int up, uint32_t threads, char *err, size_t err_size);
void view_crowd_free(view_crowd *c);
/* Every instance plays clip (out of range: nothing changes) from its own place on the shared
 * clock at shared, cross-fading over fade seconds from where each is (0, or the first clip:
 * at once). */
void view_crowd_play(view_crowd *c, uint32_t clip, float fade, float shared);
/* Each instance to phase * duration + speed * shared (the clock's jump). */
void view_crowd_seek(view_crowd *c, float shared);
/* Each instance's clock moves by speed * shared_dt over wall_dt of wall time, in which its
 * cross-fade moves on (wall_dt <= 0: over |shared_dt|). With shared_dt 0 only the instances
 * still fading are ticked, unless time jumped (a paused crowd costs nothing). */
void view_crowd_advance(view_crowd *c, float shared_dt, float wall_dt);
/* The clip time instance i is at (its clock's). */
float view_crowd_time(const view_crowd *c, uint32_t i);
/* Skins every instance (part_mask NULL) or only the parts whose mask entry is true, into its
 * range of positions and normals. */
void view_crowd_skin(view_crowd *c, const bool *part_mask);
/* What a frame's drawing needs of the crowd (view_crowd_prepare; the crowd renderer says which:
 * view_crowd_renderer_wants). */
typedef struct view_crowd_wants {
    bool skin;                     /* skin into positions and normals */
    const bool *part_mask;         /* with skin: only these parts (NULL: every part) */
    float *packed;                 /* non-NULL: view_crowd_pack into it */
} view_crowd_wants;
/* Prepares a frame before it is drawn: skins and packs as wants says, timing each. */
void view_crowd_prepare(view_crowd *c, const view_crowd_wants *wants);
/* A checksum of instance i's palette (FNV-1a over its bytes): poses that differ differ. */
uint32_t view_crowd_palette_checksum(const view_crowd *c, uint32_t i);
/* Per instance: its offset (x, y, z, 0), then its palette rows (12 floats a bone): what the
 * GPU path uploads. out holds count * 4 * (1 + 3 * bones) floats. Split over the pool. */
void view_crowd_pack(view_crowd *c, float *out);

#endif
