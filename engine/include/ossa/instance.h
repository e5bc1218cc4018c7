/* A character instance: everything one animated copy of a model needs at run time, built once
 * from the model and wired together (a crowd is many instances of one model).
 *
 *   pose      runtime skeleton, runtime clips, a sample cache, the local and model SoA poses and
 *             the skinning palette (pose.h and sample.h jobs: sample or mix -> local -> model -> palette)
 *   mixer     Cal3D's CalMixer (cycles, actions, fades) driving the pose (ossa_instance_play,
 *             _update, _seek; ossa_instance_mixer for the full mixer API)
 *   morphs    a second mixer in which every morph clip plays as a looping morph cycle of weight
 *             1, giving the morph weights of each skinned part
 *   parts     one per submesh of the model: a skin mesh (skin.h) when the model has bones and the
 *             streams could be built, else the submesh's own file order
 *   springs   Cal3D cloth (ossa_spring_state) on the skinned parts whose submesh has springs
 *   frames    vertex-frame and UV tracks (C3S VFRM/TFRM) of one "vertex clip", and mounts
 *
 * Three ways to drive it. The clock way, as a viewer plays a model: the instance's clip clock
 * (ossa/clock.h: speed and reverse, loop / ping-pong / once, seeks, frame steps, pause) is
 * moved by _tick(dt), which shows it (pose, morphs, vertex frames, cloth); _switch_clip
 * cross-fades to another clip. The mixer way: ossa_instance_play cross-fades to a clip,
 * _update(dt) advances the mixer, the morph clock, the vertex clip and the springs and
 * evaluates the pose, _seek jumps. The manual way, for callers that keep their own clocks (a
 * blend evaluated elsewhere): _pose_clip, _pose_local, _set_vertex_clip, _set_morph_time,
 * _springs_step and _springs_reset each set one thing. All leave the palette current.
 *
 * Output. Each part writes `output_count` vertices (ossa_instance_part): positions and normals,
 * 3 floats each, in the part's output order (the skin mesh's order, padding included, whose
 * vertices are written as zeros; file order for a part without a skin mesh). Its `indices` are
 * triangles in that order, so the buffers can be drawn or uploaded as they are.
 *
 * Nothing allocates after ossa_instance_create. One instance is used by one thread at a time;
 * distinct instances of one model are independent (the model is only read, and must outlive
 * them). Instances made with ossa_instance_create_shared share the runtime data that never
 * changes (skeleton, clips, skin meshes), built once: a crowd pays for it once. */
#ifndef OSSA_INSTANCE_H
#define OSSA_INSTANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ossa/model.h"
#include "ossa/cloth.h"
#include "ossa/clock.h"
#include "ossa/mixer.h"
#include "ossa/pose.h"
#include "ossa/skin.h"
#include "ossa/skin_pool.h"
#include "ossa/vertex_anim.h"
#include "ossa/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_instance ossa_instance;

/* "No clip": the rest pose (ossa_instance_pose_clip) or no vertex clip. */
#define OSSA_INSTANCE_NO_CLIP OSSA_NOT_FOUND
/* Default longest spring step: Verlet steps assume small, even steps, so a stalled frame must
 * not fling the cloth. */
#define OSSA_INSTANCE_SPRING_MAX_DT 0.1f

/* Parts of at least this many vertices are split over the instance's pool by default. */
#define OSSA_INSTANCE_PARALLEL_MIN_VERTICES 16384u

typedef struct ossa_instance_desc {
    ossa_mixer_desc mixer;           /* the skeletal mixer (zero: its defaults) */
    ossa_skin_kernel kernel;         /* AUTO: the choice's, or without one
                                        ossa_skin_kernel_resolve(AUTO, NULL) */
    const ossa_skin_choice *choice;  /* may be NULL; read at creation only. With kernel AUTO
                                        every part runs the choice's small-class kernel: a
                                        character's parts are small, and the wide palette is laid
                                        out for one kernel. Its store is not taken (see store) */
    ossa_skin_pool *pool;            /* not owned, may be NULL: parts of at least
                                        parallel_min_vertices are split over it */
    uint32_t parallel_min_vertices;  /* 0: OSSA_INSTANCE_PARALLEL_MIN_VERTICES */
    float spring_max_dt;             /* longest spring step; 0: OSSA_INSTANCE_SPRING_MAX_DT */
    ossa_skin_store store;           /* stores into the spans of ossa_instance_skin. AUTO:
                                        non-temporal for a part of at least 262144 outputs, as
                                        a job's; STREAM: for every skinned part without cloth
                                        whose spans are 64-byte aligned (a crowd whose outputs
                                        outgrow the last-level cache; _update_many then asks
                                        for each next character's state ahead); CACHED: never.
                                        A choice's store is measured on skinning alone, but an
                                        instance's outputs are read at once (the upload, the
                                        cloth); whether they should stream depends on the whole
                                        crowd's footprint, which the caller knows */
} ossa_instance_desc;

/* What a caller needs to lay out the buffers of one part. */
typedef struct ossa_instance_part {
    uint32_t mesh, submesh;          /* where it lives in the model */
    const ossa_submesh *source;      /* the model's submesh */
    uint32_t vertex_count;           /* the submesh's vertices (file order) */
    uint32_t output_count;           /* vertices ossa_instance_skin writes, padding included */
    uint32_t index_count;            /* 3 x faces */
    const uint32_t *indices;         /* index_count, in output order */
    const uint32_t *output_source;   /* output -> file vertex (OSSA_SKIN_PAD_VERTEX for
                                        padding); NULL: output order is file order */
    const ossa_skin_mesh *skin;      /* NULL: not skinned (no bones, or skin_status says why) */
    ossa_status skin_status;         /* why skin is NULL though the model has bones and the part
                                        vertices (OSSA_OK otherwise) */
    const float *morph_weights;      /* source->morph_count current weights; NULL: no morphing */
    const ossa_spring_state *spring; /* NULL: no cloth runs on the part */
    const float *spring_positions;   /* with spring: 3 floats per output vertex, the last spring
                                        step's positions (the spring-owned ones are used) */
    bool frame_tracked, uv_tracked;  /* some clip has a vertex / uv track for the submesh */
} ossa_instance_part;

/* One part's output buffers (ossa_instance_skin). */
typedef struct ossa_instance_span {
    float *positions;                /* 3 floats per output vertex; NULL: the part is skipped */
    float *normals;                  /* 3 floats per output vertex (required with positions) */
    uint32_t capacity;               /* vertices both hold: >= the part's output_count */
} ossa_instance_span;

/* Builds an instance of model (which must outlive it) at rest, its cloth at the bind vertices
 * as Cal3D starts it (ossa_instance_springs_reset puts it where the rest pose skins it). desc
 * may be NULL (defaults).
 * OSSA_ERR_INVALID_ARGUMENT (NULL model or out, a bad desc), OSSA_ERR_NOMEM, or what the mixer
 * or runtime clips report. A part whose skin mesh cannot be built keeps its file order and bind
 * vertices (skin_status); springs or morph clips that cannot run are left out. *out stays NULL
 * on failure. */
OSSA_API ossa_status ossa_instance_create(const ossa_model *model, const ossa_instance_desc *desc,
                                 ossa_instance **out, ossa_error *err);
/* A crowd: another instance of prototype's model that shares with it (and with every instance
 * made from either) what never changes: the runtime skeleton, the runtime clips (the mixers
 * read them too) and the parts' skin meshes; it owns only its state (poses, palette, mixers,
 * cloth, morph weights, scratch). The shared data is reference counted: it goes with the last
 * instance holding it, so the prototype may be destroyed first (not during this call), and
 * instances sharing it may be created, used and destroyed on different threads (this call only
 * reads the prototype's reference to the shared data). desc as ossa_instance_create's (it may
 * differ from the prototype's). OSSA_ERR_INVALID_ARGUMENT (NULL prototype or out, a bad desc),
 * OSSA_ERR_NOMEM. *out stays NULL on failure. */
OSSA_API ossa_status ossa_instance_create_shared(const ossa_instance *prototype,
                                                 const ossa_instance_desc *desc,
                                                 ossa_instance **out, ossa_error *err);
OSSA_API void ossa_instance_destroy(ossa_instance *inst);

OSSA_API const ossa_model *ossa_instance_model(const ossa_instance *inst);
OSSA_API uint32_t ossa_instance_part_count(const ossa_instance *inst);
/* Fills *out for part (parts are the model's submeshes, mesh by mesh). OSSA_ERR_INVALID_ARGUMENT
 * for a NULL instance or out, or a part out of range (*out untouched). */
OSSA_API ossa_status ossa_instance_part_info(const ossa_instance *inst, uint32_t part,
                                             ossa_instance_part *out, ossa_error *err);
/* The part that draws a submesh; OSSA_NOT_FOUND when none. */
OSSA_API uint32_t ossa_instance_part_of(const ossa_instance *inst, uint32_t mesh, uint32_t submesh);
/* The concrete kernel the skin jobs run. */
OSSA_API ossa_skin_kernel ossa_instance_kernel(const ossa_instance *inst);
/* Parts of at least the desc's parallel_min_vertices are split over pool from now on (NULL:
 * every part on the calling thread). The pool is not owned. */
OSSA_API void ossa_instance_set_pool(ossa_instance *inst, ossa_skin_pool *pool);
/* The desc's store policy from now on (a value out of range is ignored). */
OSSA_API void ossa_instance_set_store(ossa_instance *inst, ossa_skin_store store);
/* Bytes of the instance's own memory a frame of a character playing one clip touches (its
 * mixer, poses, palettes, parts and cloth), its outputs not included: with them, what each
 * character of a crowd asks of the caches (ossa_skin_crowd_store). */
OSSA_API size_t ossa_instance_state_bytes(const ossa_instance *inst);

/* ---- the mixer way --------------------------------------------------------------------- */

/* The skeletal mixer, for cycles and actions beyond ossa_instance_play (ids: mixer.h). */
OSSA_API ossa_mixer *ossa_instance_mixer(ossa_instance *inst);
/* Cross-fades to clip as a looping cycle of weight 1 over fade_seconds (0: at once): every
 * other active cycle is cleared over the same time (Cal3D blendCycle / clearCycle), and clip
 * becomes the vertex clip once its weight is the largest. OSSA_ERR_INVALID_ARGUMENT for a clip
 * out of range or a negative or non-finite fade, OSSA_ERR_UNSUPPORTED when the mixer's cycle
 * capacity is full. */
OSSA_API ossa_status ossa_instance_play(ossa_instance *inst, uint32_t clip, float fade_seconds,
                               ossa_error *err);
/* Advances by dt seconds (not finite: 0; negative runs the clocks back, as Cal3D's
 * updateAnimation does): the mixer, the instance clock (which the morph clips follow), then the
 * pose, the morph weights, the vertex clip (the clip of largest weight at its cycle time) and,
 * for dt > 0, one spring step of dt (clamped to spring_max_dt). */
OSSA_API void ossa_instance_update(ossa_instance *inst, float dt);
/* ossa_instance_update(insts[i], dt) for each of count instances (NULL entries are skipped),
 * with the same results. The cloth of neighbours in the list that share their runtime data
 * (ossa_instance_create_shared) and the same spring_max_dt is stepped a few at a time, in SIMD
 * lanes: a crowd's cloth, a chain of dependent divisions per character, runs several times as
 * fast that way. */
OSSA_API void ossa_instance_update_many(ossa_instance *const *insts, uint32_t count, float dt);
/* How many instances ossa_instance_update_many steps together (two such groups at once where a
 * call holds them): a caller splitting a crowd over threads keeps the pieces multiples of it. */
#define OSSA_INSTANCE_UPDATE_GROUP 8u
/* Jumps to a time (not finite: 0): the mixer's clock (Cal3D setAnimationTime) and the instance
 * clock, then the pose, morphs and vertex clip as _update does, and the cloth put at rest where
 * the new pose skins it. */
OSSA_API void ossa_instance_seek(ossa_instance *inst, float time);
/* The instance clock (seconds of update since creation or the last seek). */
OSSA_API float ossa_instance_time(const ossa_instance *inst);
/* The mixer's blended pose into the local pose, then model pose and palette (what _update and
 * _seek do after moving the clocks). */
OSSA_API void ossa_instance_evaluate(ossa_instance *inst);

/* ---- the clock way --------------------------------------------------------------------- */

/* The instance's clip clock (ossa/clock.h; it starts at clip 0, time 0, speed 1, looping,
 * playing), which ossa_instance_tick plays by, as ossa-view plays a model. Move it with the
 * ossa_clock calls (pause, speed, reverse, wrap mode, seek, frame steps); after changing its time
 * or clip other than by ticks, call ossa_instance_jumped, so that the cloth goes to rest where
 * the new pose skins it at the next tick. Use the clock way or the mixer way, not both: a
 * cross-fade runs in the skeletal mixer. */
OSSA_API ossa_clock *ossa_instance_clock(ossa_instance *inst);
OSSA_API void ossa_instance_jumped(ossa_instance *inst);
/* The clock set to clip (out of range: kept) and time (ossa_clock_seek), a model without
 * skeletal clips' morph clock to time too, any cross-fade dropped; a jump. */
OSSA_API void ossa_instance_seek_clock(ossa_instance *inst, uint32_t clip, float time);
/* Cross-fades over fade_seconds from the clock's clip, which runs on at its own pace from its
 * time while it fades out, to clip `to` from time 0, which the clock then plays (Cal3D
 * clearCycle / blendCycle; a switch during a fade goes on from the blend). 0 seconds, or a model
 * without bones: at once. A jump. OSSA_ERR_INVALID_ARGUMENT for a clip out of range or a
 * negative or non-finite fade; the clock's own clip: nothing. */
OSSA_API ossa_status ossa_instance_switch_clip(ossa_instance *inst, uint32_t to,
                                               float fade_seconds, ossa_error *err);
/* Whether a cross-fade runs; *from (may be NULL) the clip fading out, or
 * OSSA_INSTANCE_NO_CLIP. */
OSSA_API bool ossa_instance_fading(const ossa_instance *inst, uint32_t *from);
/* Advances the clock by dt seconds of wall time (ossa_clock_advance: times its speed, as its
 * wrap mode says, nothing while paused) and shows it: the cross-fade moved on by dt, the pose,
 * the morph clips at the clock's time (without skeletal clips: a morph clock moved by dt x speed
 * while playing), the vertex frames of the clip of larger weight; then the cloth at rest if
 * time jumped, and one spring step of dt x |speed| (none while paused). */
OSSA_API void ossa_instance_tick(ossa_instance *inst, float dt);
/* ossa_instance_tick(insts[i], dt) for each of count instances (NULL entries are skipped),
 * each by its own clock, with the same results; the cloth of neighbours that share their
 * runtime data steps in SIMD lanes, each by its own playback time, as _update_many's does. A
 * crowd plays this way: each character's clock its own speed, phase and clip. */
OSSA_API void ossa_instance_tick_many(ossa_instance *const *insts, uint32_t count, float dt);
/* Shows the clock as it is (pose, morphs, vertex frames), moving nothing: after a seek, to
 * draw it before the next tick. The cloth is left as it is. */
OSSA_API void ossa_instance_show(ossa_instance *inst);

/* ---- the manual way -------------------------------------------------------------------- */

/* The pose of one clip at a time (wrapped into the clip, Cal3D loop), or the rest pose for
 * OSSA_INSTANCE_NO_CLIP or a clip out of range; the mixer is not touched. The vertex clip is
 * set to the same clip and time. */
OSSA_API void ossa_instance_pose_clip(ossa_instance *inst, uint32_t clip, float time);
/* Model pose and palette from a local pose the caller evaluated; NULL or a bone count other
 * than the model's: the rest pose. local may be ossa_instance_local_pose(inst). */
OSSA_API void ossa_instance_pose_local(ossa_instance *inst, const ossa_soa_pose *local);
/* The clip whose vertex and uv tracks play, at time (wrapped into the clip, Cal3D loop);
 * OSSA_INSTANCE_NO_CLIP or out of range: none (bind or skinned shapes). */
OSSA_API void ossa_instance_set_vertex_clip(ossa_instance *inst, uint32_t clip, float time);
OSSA_API uint32_t ossa_instance_vertex_clip(const ossa_instance *inst);
OSSA_API float ossa_instance_vertex_time(const ossa_instance *inst);
/* The morph mixer (every morph clip a cycle; NULL when no morph clip plays on a part) and its
 * clock as last set, wrapped into its length. */
OSSA_API ossa_mixer *ossa_instance_morph_mixer(ossa_instance *inst);
OSSA_API float ossa_instance_morph_time(const ossa_instance *inst);
/* The morph clips' clock: every morph cycle shown at time (wrapped into the morph mixer's
 * length; not finite: 0), and every morphing part's weights refreshed. */
OSSA_API void ossa_instance_set_morph_time(ossa_instance *inst, float time);
/* One spring step of dt seconds (clamped to spring_max_dt; dt <= 0 or not finite: nothing) on
 * every part with springs, from the current palette and morph weights. */
OSSA_API void ossa_instance_springs_step(ossa_instance *inst, float dt);
/* Every cloth at rest where the current pose skins it (Cal3D resetPositions): for jumps. */
OSSA_API void ossa_instance_springs_reset(ossa_instance *inst);

/* ---- pose ------------------------------------------------------------------------------ */

/* The local pose (writable: a caller may evaluate into it, then call _pose_local), the model
 * pose and the palette (12 floats, 3x4 row-major, per bone) of the current pose. With no bones
 * the poses have bone_count 0 and the palette holds no bone. */
OSSA_API ossa_soa_pose *ossa_instance_local_pose(ossa_instance *inst);
OSSA_API const ossa_soa_pose *ossa_instance_model_pose(const ossa_instance *inst);
OSSA_API const float *ossa_instance_palette(const ossa_instance *inst);

/* ---- output ---------------------------------------------------------------------------- */

/* Writes parts [first_part, first_part + count) into spans[0 .. count - 1]: skinned with the
 * current palette and morph weights (spring-owned vertices from the last spring step), or the
 * vertex clip's shape where its vertex track covers the part, or the bind vertices. Every span
 * is checked before anything is written: OSSA_ERR_INVALID_ARGUMENT for a range past the parts,
 * NULL spans, a span with positions but no normals, or a capacity below the part's
 * output_count. */
OSSA_API ossa_status ossa_instance_skin(ossa_instance *inst, uint32_t first_part, uint32_t count,
                               const ossa_instance_span *spans, ossa_error *err);
/* The vertex track the part plays now (from the vertex clip); NULL when it is skinned or shows
 * its bind vertices. */
OSSA_API const ossa_vertex_track *ossa_instance_part_vertex_track(const ossa_instance *inst, uint32_t part);
/* UV set 0 of a part in its output order (2 floats per output vertex; padding 0): the vertex
 * clip's uv track for it when bind is false and there is one, else the submesh's own (zeros
 * without UVs). capacity: vertices uvs holds. OSSA_ERR_INVALID_ARGUMENT (nothing written) for
 * a bad part, NULL uvs or a capacity below the part's output_count. */
OSSA_API ossa_status ossa_instance_uvs(ossa_instance *inst, uint32_t part, bool bind, float *uvs,
                                       uint32_t capacity, ossa_error *err);
/* A mount's model-space transform (ossa_mount_transform) on its submesh as it is drawn now, or
 * in the bind pose when bind is true. OSSA_ERR_INVALID_ARGUMENT for a mount out of range,
 * OSSA_ERR_RANGE for one on a submesh no part draws, OSSA_ERR_VALUE for a degenerate
 * triangle. */
OSSA_API ossa_status ossa_instance_mount(ossa_instance *inst, uint32_t mount, bool bind, float t[3],
                                float r[4], float s[3], ossa_error *err);

#ifdef __cplusplus
}
#endif
#endif
