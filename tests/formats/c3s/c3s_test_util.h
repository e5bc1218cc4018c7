/* Helpers shared by the C3S tests: a small byte builder for hand-made scenes (RIFF chunks,
 * compdwords, subchunk headers), temporary files, and posing a model's submesh at a clip time
 * the way a player does (vertex frames when the clip has them, skinning otherwise). */
#ifndef OSSA_C3S_TEST_UTIL_H
#define OSSA_C3S_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ossa/ossa.h"
#include "ossa/vertex_anim.h"

/* Sites the malformed tests can lie at: every count and index written through ct_count /
 * ct_index and every float written through ct_float. */
typedef enum ct_site { CT_COUNT, CT_INDEX, CT_FLOAT, CT_SITE_KINDS } ct_site;

typedef struct ct_buf {
    uint8_t *data;
    size_t size, cap;
    uint32_t sites[CT_SITE_KINDS]; /* how many of each were written */
    int lie_kind;                  /* -1: none (set by ct_init) */
    uint32_t lie_site;             /* which one (0-based) is replaced */
    uint32_t lie_value;            /* for counts and indices */
    float lie_float;
} ct_buf;

/* An empty buffer that tells no lies. */
void ct_init(ct_buf *b);
/* A count, an index and a float that may be replaced by the lie. */
void ct_count(ct_buf *b, uint32_t v);
void ct_index(ct_buf *b, uint32_t v);
void ct_float(ct_buf *b, float v);
void ct_floats(ct_buf *b, const float *v, size_t n);

void ct_bytes(ct_buf *b, const void *p, size_t n);
void ct_u8(ct_buf *b, uint8_t v);
void ct_u32(ct_buf *b, uint32_t v);
void ct_f32(ct_buf *b, float v);
void ct_f32v(ct_buf *b, const float *v, size_t n);
void ct_cdw(ct_buf *b, uint32_t v);
void ct_str(ct_buf *b, const char *s);
/* identity OCS (unit scale, no rotation, no translation) */
void ct_ocs_identity(ct_buf *b);
void ct_ocs(ct_buf *b, const float s[3], const float q[4], const float t[3]);
/* Chunk with its length patched by ct_end (which pads odd lengths). */
size_t ct_begin(ct_buf *b, const char id[4]);
void ct_end(ct_buf *b, size_t at);
/* Subchunk: version 1, name, flags. */
size_t ct_sub(ct_buf *b, const char id[4], const char *name, uint32_t flags);
/* "RIFF" .. "C3SB" and an SHDR; ct_finish patches the RIFF length. */
void ct_start_scene(ct_buf *b);
void ct_finish(ct_buf *b);
/* SMDL header (version 1.0, name, pad); returns the chunk to close with ct_end. */
size_t ct_begin_model(ct_buf *b, const char *name);
void ct_free(ct_buf *b);

/* Hand-made scenes (c3s_scenes.c), described there. */
void ct_scene_features(ct_buf *b);
void ct_scene_frames(ct_buf *b);

/* Loads a buffer as C3S (format forced). */
ossa_status ct_load(const ct_buf *b, ossa_model **out, ossa_error *err);
ossa_status ct_load_bytes(const uint8_t *data, size_t size, ossa_model **out, ossa_error *err);

/* A fresh temporary file path (the file does not exist yet); false on failure. */
bool ct_temp_path(char *out, size_t size, const char *name);
void ct_remove_temp(const char *path);

/* Positions (3 per vertex) of a submesh at a time of a clip played as a cycle: frame lerp
 * when the clip has a vertex track for it, else skinned (clip NULL: the bind pose). */
bool ct_pose_submesh(const ossa_model *m, const ossa_clip *clip, float time, uint32_t mesh,
                     uint32_t submesh, float *positions, float *normals);

#endif
