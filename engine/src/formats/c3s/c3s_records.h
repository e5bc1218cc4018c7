/* Cannibal scene (C3S, RIFF "C3SB"), shared by the reader (c3s.c parses chunks and subchunks
 * into the records below, c3s_read_anim.c its BONE and ASEQ subchunks, c3s_build.c turns them
 * into the model) and the writer. Readings of the spec are docs/FORMATS.md, D9. */
#ifndef OSSA_C3S_INTERNAL_H
#define OSSA_C3S_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "core/build_context.h"
#include "core/reader.h"

/* compdword: big-endian groups of 7 bits, a set top bit meaning "more follow", at most 5
 * bytes and at most 32 bits of value. */
enum { OSSA_C3S_COMPDWORD_MAX = 5 };
typedef enum ossa_c3s_cdw_result {
    OSSA_C3S_CDW_OK = 0,
    OSSA_C3S_CDW_TRUNCATED, /* the data ends inside the number */
    OSSA_C3S_CDW_TOO_LONG,  /* the fifth byte says more follow */
    OSSA_C3S_CDW_OVERFLOW   /* the value does not fit 32 bits */
} ossa_c3s_cdw_result;

/* c3s_records.c */
ossa_c3s_cdw_result ossa_c3s_decode_compdword(const uint8_t *p, size_t n, uint32_t *value,
                                              size_t *used);
/* Writes 1..5 bytes; returns how many. */
size_t ossa_c3s_encode_compdword(uint32_t value, uint8_t out[OSSA_C3S_COMPDWORD_MAX]);

/* Flags of the spec. */
enum {
    C3S_TEXF_MASKING = 1u,
    C3S_MATF_UNLIT = 1u,
    C3S_VF_DISABLED = 1u,
    C3S_VFF_COMPRESSED = 1u,
    C3S_EF_DISABLED = 1u,
    C3S_EF_LODONLY = 2u,
    C3S_TFF_DISABLED = 1u,
    C3S_TFF_TWOSIDED = 2u,
    C3S_TFF_NINVERT = 4u,
    C3S_TFF_VNIGNORE = 8u,
    C3S_TFF_HIDDEN = 16u,
    C3S_TVF_DISABLED = 1u,
    C3S_BF_IMPLICIT = 1u
};

#define C3S_TRIG_COMMAND 0x47495254u /* "TRIG" read as a little-endian dword */

typedef enum c3s_kind {
    C3S_TXTR, C3S_WAVE, C3S_MATR, C3S_VRTX, C3S_VGRP, C3S_VFRM, C3S_EDGE, C3S_TRIF, C3S_TVRT,
    C3S_TGRP, C3S_TFRM, C3S_BONE, C3S_ASEQ, C3S_SMNT, C3S_KIND_COUNT
} c3s_kind;

/* Where a subchunk's fields start (after version, name and flags) and its data ends. */
typedef struct c3s_sub {
    size_t at, end;
    uint32_t version, flags;
    const char *name;
} c3s_sub;

/* A dynamic array left in the file: decoded again when the model is built. */
typedef struct c3s_list {
    uint32_t count;
    size_t at, end; /* first element; end of the subchunk holding it */
} c3s_list;

typedef struct c3s_ocs {
    float s[3], q[4], t[3]; /* p -> t + R(q)(s * p) */
} c3s_ocs;

typedef struct c3s_texture { const char *file; } c3s_texture;
typedef struct c3s_material {
    float transparency;
    uint32_t texture_count;
    uint32_t *textures; /* 1-based, 0 none */
} c3s_material;
typedef struct c3s_weight { float factor; float offset[3]; uint32_t bone; } c3s_weight;
typedef struct c3s_vertex {
    int active;
    uint32_t weight_start, weight_count; /* into the model's weights */
} c3s_vertex;
typedef struct c3s_group { uint32_t count; uint32_t *items; } c3s_group; /* 1-based items */
typedef struct c3s_frame { uint32_t group; uint32_t count; float *data; } c3s_frame;
typedef struct c3s_edge { int active; uint32_t head, tail; } c3s_edge;
typedef struct c3s_face {
    uint32_t flags;
    int active;
    uint32_t material, edge[3], tex[3]; /* after the LOD range chosen for full detail */
} c3s_face;
typedef struct c3s_bone {
    c3s_ocs base;
    uint32_t parent; /* 1-based, 0 none */
    uint32_t child_count;
    uint32_t *children; /* 1-based */
} c3s_bone;
typedef struct c3s_key { c3s_list tex_frames, bone_keys, vertex_frames; } c3s_key;
typedef struct c3s_trigger {
    float time; /* 0..1 of the sequence */
    uint32_t command, param_size;
    const uint8_t *params;
} c3s_trigger;
typedef struct c3s_sequence {
    float rate;
    const char *group;
    uint32_t key_count;
    c3s_key *keys;
    uint32_t trigger_count;
    c3s_trigger *triggers;
    c3s_list links;
} c3s_sequence;
typedef struct c3s_mount { c3s_ocs base; uint32_t face; float bary[3]; } c3s_mount;

typedef struct c3s_smdl {
    const char *name;
    uint32_t version;
    size_t at;
    uint32_t count[C3S_KIND_COUNT];
    c3s_sub *subs[C3S_KIND_COUNT];
    c3s_texture *textures;
    c3s_material *materials;
    c3s_vertex *vertices;
    uint32_t weight_count;
    c3s_weight *weights;
    c3s_group *vgroups, *tgroups;
    c3s_frame *vframes, *tframes;
    c3s_edge *edges;
    c3s_face *faces;
    int *texvert_active;
    c3s_bone *bones;
    c3s_sequence *sequences;
    c3s_mount *mounts;
    uint32_t key_total; /* key frames of all its sequences */
    /* Where this model's elements start in the whole model. */
    uint32_t bone_base, material_base, clip_base;
} c3s_smdl;

typedef struct c3s_scene {
    ossa_build *b;
    const uint8_t *data;
    size_t size;
    uint32_t model_count;
    c3s_smdl *models;
} c3s_scene;

/* Most key frames one model's sequences may hold (each costs a record while building). */
#define C3S_MAX_MODEL_KEYS (1u << 21)

/* Reader positioned at a list's first element, bounded by its subchunk. */
static inline void c3s_list_reader(const c3s_scene *sc, const c3s_list *l, ossa_reader *r)
{
    ossa_reader_init(r, sc->b, sc->data, l->end);
    r->pos = l->at;
}

/* c3s_records.c: a compdword, an OCS (its quaternion normalised; no length is an error). */
ossa_status ossa_c3s_rd_compdword(ossa_reader *r, uint32_t *out, const char *what);
ossa_status ossa_c3s_rd_ocs(ossa_reader *r, c3s_ocs *out, const char *what);

/* c3s_build.c: the whole model from the parsed scene. */
ossa_status ossa_c3s_build_model(c3s_scene *sc);

#endif
