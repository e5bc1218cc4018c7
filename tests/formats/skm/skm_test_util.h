/* Helpers shared by the SKM/SKP tests: temporary folders, a byte builder for hand-made files,
 * and posing a model at a clip time (model-space bones and skinned vertices). */
#ifndef OSSA_SKM_TEST_UTIL_H
#define OSSA_SKM_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ossa/model.h"
#include "test_common.h"

/* A fresh folder under the system's temporary folder (path in buf); false on failure. */
bool skt_make_dir(char *buf, size_t size);
/* Removes every plain file in dir, then dir. */
void skt_remove_dir(const char *dir);
/* Writes size bytes to dir/name; false on failure. */
bool skt_write(const char *dir, const char *name, const void *data, size_t size);

/* Little-endian byte builder (aborts the test on out of memory). */
typedef struct skt_bytes {
    uint8_t *data;
    size_t size, cap;
} skt_bytes;
void skt_u32(skt_bytes *b, uint32_t v);
void skt_f32(skt_bytes *b, float v);
void skt_floats(skt_bytes *b, const float *v, size_t n);
void skt_name(skt_bytes *b, const char *s);     /* 64 bytes, zero-padded */
void skt_patch_u32(skt_bytes *b, size_t at, uint32_t v);
void skt_free(skt_bytes *b);

/* Everything a pose gives: model-space bones and the skinned vertices of every submesh, in
 * model order (positions then normals, 3 floats per vertex each). */
typedef struct skt_pose {
    uint32_t bones;
    float *mt, *mr, *ms;       /* model-space bones */
    size_t vertices;
    float *pos, *nrm;
} skt_pose;
/* Poses m at time t of clip (NULL: the rest pose), sampled as a cycle. Only meshes of level of
 * detail 0 are skinned. */
void skt_pose_at(const ossa_model *m, const ossa_clip *clip, float t, skt_pose *out);
void skt_pose_free(skt_pose *p);

/* Largest |a - b| over n floats. */
double skt_max_diff(const float *a, const float *b, size_t n);
/* Largest rotation difference between unit quaternions (1 - |dot|, sign-blind), over n. */
double skt_max_quat_diff(const float *a, const float *b, size_t n);

#endif
