/* Cannibal scene (C3S) model building, shared by its parts: c3s_build.c (skeleton, materials,
 * mounts, the entry ossa_c3s_build_model), c3s_build_mesh.c (base vertices, faces, meshes) and
 * c3s_build_anim.c (vertex and texture-vertex frames, sequences). Each part only calls parts
 * listed after it. */
#ifndef OSSA_C3S_BUILD_H
#define OSSA_C3S_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include "formats/c3s/c3s_records.h"

/* Largest frame data (floats) one model may expand into, and most bone-track keys (keyed
 * bones x key frames, over all sequences): sparse keys in a small file could otherwise ask for
 * gigabytes. */
#define C3S_MAX_FRAME_FLOATS (1u << 24)
#define C3S_MAX_TRACK_KEYS (1u << 22)

/* ---- per-model working state ---- */

typedef struct kept_face {
    uint32_t v[3];   /* 0-based VRTX, in the model's counter-clockwise winding */
    uint32_t tex[3]; /* 1-based TVRT, 0 none */
    uint32_t flags, material;
    uint32_t mesh, submesh, index; /* where it landed in the model */
} kept_face;

typedef struct face_group {
    bool hidden, two_sided;
    uint32_t material; /* 1-based MATR, 0 none */
    uint32_t mesh, submesh, face_count;
} face_group;

typedef struct built_submesh {
    ossa_submesh *sm;
    uint32_t *vrtx; /* vertex_count: 0-based VRTX of each render vertex */
    uint32_t *tex;  /* vertex_count: 1-based TVRT, 0 none */
} built_submesh;

typedef struct model_state {
    c3s_scene *sc;
    c3s_smdl *md;
    ossa_build *b;
    const float *world_t, *world_r, *world_s; /* base pose, model bone order */
    float *base_pos;    /* 3 per VRTX */
    float *weight_points; /* 3 per VRTX weight: weightFactor x rigid base bind(offsetPos) */
    bool *has_pos;
    uint32_t *vgroup_of, *vgroup_slot; /* per VRTX: 1-based group, index in it */
    uint32_t *tgroup_of, *tgroup_slot; /* per TVRT */
    float *base_uv;     /* 2 per TVRT */
    kept_face *faces;
    uint32_t face_count;
    uint32_t *face_slot; /* per TRIF: index into faces, UINT32_MAX when dropped */
    face_group *groups;
    uint32_t group_count;
    built_submesh *subs; /* per group */
    /* frame tuples: one frame (1-based, 0 = base) per group, per distinct key shape */
    uint32_t vtuple_count, ttuple_count;
    uint32_t *vtuples, *ttuples;
    uint32_t **seq_vframe, **seq_tframe; /* per sequence, per key: tuple index or UINT32_MAX */
} model_state;

static inline uint32_t c3s_model_bone(const model_state *st, uint32_t file_bone_1based)
{
    return st->b->bone_from_file[st->md->bone_base + file_bone_1based - 1];
}

/* c3s_build_mesh.c */
ossa_status ossa_c3s_base_positions(model_state *st);
ossa_status ossa_c3s_base_uvs(model_state *st);
ossa_status ossa_c3s_collect_faces(model_state *st);
ossa_status ossa_c3s_build_meshes(model_state *st);
/* Vertex normals of positions pos (3 per VRTX) over the kept faces, into out. */
void ossa_c3s_vertex_normals(const model_state *st, const float *pos, float *out);

/* c3s_build_anim.c */
ossa_status ossa_c3s_collect_tuples(model_state *st, bool uv);
ossa_status ossa_c3s_build_vertex_frames(model_state *st);
ossa_status ossa_c3s_build_uv_frames(model_state *st);
ossa_status ossa_c3s_build_clips(model_state *st);

#endif
