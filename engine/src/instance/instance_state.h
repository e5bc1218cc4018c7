/* The character instance's state, shared by instance.c (building, clocks, pose) and
 * instance_output.c (skinning, springs, vertex frames, UVs, mounts). */
#ifndef OSSA_INSTANCE_INTERNAL_H
#define OSSA_INSTANCE_INTERNAL_H

#include <stdatomic.h>
#include <stdio.h>
#include "core/prefetch.h"
#include "ossa/instance.h"
#include "skin/skin_direct.h"

/* What every instance of one model shares: built once by ossa_instance_create, only read
 * afterwards, and freed with the last instance that holds it (ossa_instance_create_shared). */
typedef struct inst_shared {
    atomic_uint refs;
    const ossa_model *model;
    ossa_rt_skeleton *skeleton;
    ossa_rt_clip **clips;           /* one per model clip */
    uint32_t max_tracks;            /* the most tracks of a clip (sample cache size) */
    uint32_t part_count;
    ossa_skin_mesh **skins;         /* per part; NULL: not skinned (skin_status says why) */
    ossa_status *skin_status;
    ossa_skin_list *list;           /* the parts the list kernels skin together; NULL: none */
} inst_shared;

/* Room for the blocks of an instance's own state an update touches (mixer, poses, palettes,
 * cloth). */
#define INST_STATE_RANGES 24u

typedef struct inst_part {
    ossa_instance_part info;
    const ossa_skin_mesh *skin;     /* the shared one; info.skin is the same */
    float *morph_weights;           /* owned; info.morph_weights is the same */
    ossa_spring_state *spring;      /* NULL: no springs */
    float *spring_positions;        /* 3 per output vertex: the last spring step's output */
    float *spring_normals;          /* 3 per output vertex: the part's normals at that step */
    uint64_t spring_generation;     /* the instance's generation right after that step: while
                                       it holds, the step's output is the part's output */
} inst_part;

struct ossa_instance {
    const ossa_model *model;
    inst_shared *shared;            /* one reference held */
    ossa_instance_desc desc;        /* defaults filled in */
    ossa_skin_kernel kernel;        /* concrete */
    uint32_t part_count;
    inst_part *parts;

    /* Pose: runtime skeleton, one runtime clip per model clip, the cache that samples them for
     * _pose_clip, local and model poses, the palette (12 floats per bone). */
    const ossa_rt_skeleton *skeleton;      /* shared */
    const ossa_rt_clip *const *clips;      /* shared */
    ossa_sample_cache *cache;
    ossa_soa_pose local, model_pose;
    float *palette;
    float *wide_palette;            /* the palette one bone per 64-byte line, as the SIMD kernels
                                       read it (skin_direct.h); NULL when the kernel does not */

    ossa_mixer *mixer;              /* the skeletal mixer */
    ossa_mixer *morph_mixer;        /* NULL: no morph clip plays on a part with morph targets */
    float clock;                    /* the instance clock (update / seek) */
    float morph_time;               /* the morph mixer's, wrapped into its length */

    /* The clock way (instance_clock.c): the clip clock, the clips' durations it reads, the
     * morph clock of a model without skeletal clips, the cross-fade from clip fade_from (at
     * fade_from_time, on its own pace) in the skeletal mixer, and whether time jumped since
     * the last tick (the cloth then goes to rest first). */
    ossa_clock play;
    float *durations;
    float morph_clock;
    uint32_t fade_from;
    float fade_from_time;
    bool fading, jumped;

    uint32_t vertex_clip;           /* OSSA_INSTANCE_NO_CLIP: none */
    float vertex_time;              /* wrapped into the clip */

    /* Scratch: file-order shapes (3 floats per vertex for positions and normals, 2 for UVs)
     * and output-order skin (3 floats a vertex), each for the largest part that needs it
     * (build_scratch in instance.c). */
    float *file_positions, *file_normals, *file_uvs;
    float *out_positions, *out_normals;
    /* Per part, the spans ossa_instance_skin hands to the skin list (NULL: not this time). */
    float **list_pos, **list_nrm;

    /* Mount shapes: file_positions holds part shape_part's shape (bind or not) as of pose
     * generation shape_generation; every change of pose, morphs, springs or vertex clip
     * moves generation on. */
    uint64_t generation, shape_generation;
    uint32_t shape_part;
    bool shape_bind;

    /* What an update touches of this instance's own memory, every block of which stays where it
     * is: listed once built (instance.c), for crowds that ask for it ahead of each character's
     * update (ossa_instance_update_many). */
    ossa_mem_range state[INST_STATE_RANGES];
    uint32_t state_count;
};

/* instance_output.c */
void ossa_instance_springs_run(ossa_instance *inst, float dt, bool reset);
/* ossa_instance_springs_run(insts[i], its step clamped to its spring_max_dt, false) for each
 * non-NULL instance whose step (dts[i], or dt when dts is NULL) is finite and > 0, neighbours
 * that share their runtime data stepped together in SIMD lanes. */
void ossa_instance_springs_step_many(ossa_instance *const *insts, uint32_t count,
                                     const float *dts, float dt);
/* step(insts[j], ctx) for each non-NULL instance in order, each asked for ahead of its turn
 * (the instance, and for a crowd that streams its outputs its state and its mixer's cycles). */
void ossa_instance_each_ahead(ossa_instance *const *insts, uint32_t count,
                              void (*step)(ossa_instance *inst, void *ctx), void *ctx);

/* Fills err (when given) with "instance: msg" and returns st. */
static inline ossa_status inst_fail(ossa_error *err, ossa_status st, const char *msg)
{
    if (err) {
        ossa_error_clear(err);
        err->status = st;
        snprintf(err->message, sizeof err->message, "instance: %s", msg);
    }
    return st;
}

#endif
