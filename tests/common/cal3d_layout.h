/* An independent walk over a Cal3D binary file (docs/FORMATS.md: Cal3D binary layouts, D2) that
 * records where its count, index and float fields are, so tests can overwrite them with lies.
 * Classic (699..1199), v1200 and IMVU (911..919) layouts; IMVU-compressed CAF and upstream
 * (>= 1300) files are not decoded (ok = false). */
#ifndef OSSA_CAL3D_LAYOUT_H
#define OSSA_CAL3D_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ossa/model.h"

typedef enum mf_kind {
    /* counts */
    MF_CNT_BONES, MF_CNT_CHILDREN, MF_CNT_TRACKS, MF_CNT_KEYS, MF_CNT_SUBMESHES,
    MF_CNT_VERTICES, MF_CNT_FACES, MF_CNT_SPRINGS, MF_CNT_UV_SETS, MF_CNT_INFLUENCES,
    MF_CNT_MORPHS, MF_CNT_MAPS, MF_STR_LEN,
    /* indices (limit = number of valid values when the file alone says it, else 0) */
    MF_IDX_PARENT, MF_IDX_CHILD, MF_IDX_INFLUENCE_BONE, MF_IDX_FACE_VERTEX,
    MF_IDX_SPRING_VERTEX, MF_IDX_TRACK_BONE,
    /* floats (offset of the first of the group) */
    MF_F_BONE_TRANSLATION, MF_F_BONE_ROTATION, MF_F_POSITION, MF_F_NORMAL, MF_F_WEIGHT,
    MF_F_KEY_TIME, MF_F_KEY_TRANSLATION, MF_F_KEY_ROTATION, MF_F_DURATION, MF_F_UV,
    MF_F_MORPH_WEIGHT,
    MF_KIND_COUNT
} mf_kind;

#define MF_FIRST_COUNT MF_CNT_BONES
#define MF_LAST_COUNT MF_STR_LEN
#define MF_FIRST_INDEX MF_IDX_PARENT
#define MF_LAST_INDEX MF_IDX_TRACK_BONE
#define MF_FIRST_FLOAT MF_F_BONE_TRANSLATION
#define MF_LAST_FLOAT MF_F_MORPH_WEIGHT

typedef struct mf_field {
    uint32_t offset;
    uint32_t kind;   /* mf_kind */
    int32_t value;   /* as stored (ints) */
    uint32_t limit;  /* indices: count of valid values (0 = unknown) */
} mf_field;

typedef struct mf_layout {
    bool ok;           /* the whole file was decoded */
    char why[160];     /* when not */
    uint32_t version;
    size_t end;        /* offset just past the last structure byte */
    mf_field *fields;
    size_t count, cap;
} mf_layout;

/* Decodes data of format f; always fills *out (free with mf_layout_free). */
void mf_decode(const uint8_t *data, size_t size, ossa_format f, mf_layout *out);
void mf_layout_free(mf_layout *l);
const char *mf_kind_name(mf_kind k);
/* Up to three fields of kind k: the first, the middle and the last one (distinct). */
size_t mf_pick(const mf_layout *l, mf_kind k, const mf_field *out[3]);

#endif
