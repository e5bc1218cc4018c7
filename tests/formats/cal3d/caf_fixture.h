/* Hand-built CAF files for the CAF layout and error tests: a byte and bit writer, encoders of
 * the plain, IMVU bit-packed and v1200 quantised (D2) tracks, and a
 * loader over a synthetic skeleton with checks against what was encoded. */
#ifndef OSSA_TEST_CAF_FIXTURE_H
#define OSSA_TEST_CAF_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "core/build_context.h"
#include "ossa/model.h"

typedef struct bytes {
    uint8_t d[16384];
    size_t n;
} bytes;

/* LSB-first bit writer: fields fill the low bits of an accumulator, whole bytes leave it. */
typedef struct bits {
    bytes *out;
    uint64_t acc;
    unsigned count;
} bits;

/* A key as the file means it: Cal3D (conjugated) quaternion, unit length. */
typedef struct key {
    float t;
    float tr[3];
    float q[4];
} key;

typedef struct packed_track {
    uint32_t bone;
    int req, high, dyn;
    int n;
    key keys[4];
    key raw[4]; /* 916/917 raw extras (exact values) */
} packed_track;

typedef struct quant_track {
    int32_t bone;
    float min[3], scale[3];
    int n;
    key keys[4];
} quant_track;

enum { SKEL_BONES = 6 };

/* Quantisation steps of the bit-packed keys. */
#define CAF_HIGH_STEP (8388608.0 / 33554431.0) /* ~0.25 */
#define CAF_LOW_STEP (128.0 / 511.0)           /* ~0.25 */
#define CAF_PACKED_Q_TOL 3e-3                  /* 1/2047 per component + root */

/* Little-endian writers (bytes past 16 KB are dropped) and the LSB-first bit writer. */
void put_u8(bytes *b, uint32_t v);
void put_u16(bytes *b, uint32_t v);
void put_u32(bytes *b, uint32_t v);
void put_i32(bytes *b, int32_t v);
void put_f32(bytes *b, float f);
void put_bits(bits *w, uint32_t v, unsigned n);
/* Restarts b with a CAF magic and version. */
void caf_header(bytes *b, int32_t version);
void normalise(float q[4]);
/* Track encoders (docs/FORMATS.md, CAF layout): plain, IMVU bit-packed, v1200 quantised. */
void put_plain_track(bytes *b, int32_t bone, const key *keys, int n);
void put_packed_header(bytes *b, uint32_t bone, int req, int high, int dyn, uint32_t n);
void put_packed_translation(bytes *b, const float tr[3], int high);
void put_packed_rotation_time(bytes *b, const float q_in[4], float t);
void put_packed_track(bytes *b, const packed_track *p, int version_extras);
uint32_t quant(float v, float min, float scale, uint32_t max);
uint16_t word(float c);
void put_quant_track(bytes *b, const quant_track *p, float duration);
/* The synthetic skeleton (SKEL_BONES, its root last in the file: file bone i is model bone
 * model_bone(i)), loading b over it, and checks of what was loaded. */
ossa_status add_skeleton(ossa_build *b, uint32_t count);
uint32_t model_bone(uint32_t file_bone);
ossa_status load(const bytes *b, uint32_t skeleton_bones, ossa_model **out, ossa_error *err);
void check_quat(const float *got, const float cal3d[4], double tol, const char *what);
void check_vec(const float *got, const float want[3], double tol, const char *what);
int has_warning(const ossa_model *m, const char *text);
key mk(float t, float x, float y, float z, float qx, float qy, float qz, float qw);
/* Three IMVU tracks: high range dynamic, low range static, no translation. */
void make_imvu_tracks(packed_track tracks[3]);

#endif
