/* Decoders of the two compressed Cal3D CAF keyframe encodings (docs/FORMATS.md: Bit-packed CAF
 * keys, Quantised CAF keys, D2). Pure functions over bytes already bounds-checked by the caller;
 * quaternions come out in the Cal3D (conjugated) convention, the reader converts them once
 * afterwards. */
#ifndef OSSA_CAL3D_CAF_CODEC_H
#define OSSA_CAL3D_CAF_CODEC_H

#include <stdbool.h>
#include <stdint.h>

/* IMVU bit-packed keyframes (docs/FORMATS.md, Bit-packed CAF keys). */
enum {
    OSSA_CAF_POS_BYTES_HIGH = 10, /* 3 x (25-bit magnitude + sign) + 2 pad bits */
    OSSA_CAF_POS_BYTES_LOW = 4,   /* 3 x (9-bit magnitude + sign) + 2 pad bits */
    OSSA_CAF_QUAT_TIME_BYTES = 6, /* 2-bit dropped index, 3 x (sign + 11 bits), 10-bit time */
    OSSA_CAF_TRACK_HEADER_BYTES = 4
};

/* Track header word: 13-bit bone id, three flag bits, 16-bit key count. */
typedef struct ossa_caf_packed_header {
    uint32_t bone_id;
    uint32_t key_count;
    bool translation_required;
    bool high_range;
    bool translation_dynamic;
} ossa_caf_packed_header;

void ossa_caf_decode_packed_header(const uint8_t p[4], ossa_caf_packed_header *out);
/* Reads OSSA_CAF_POS_BYTES_HIGH or _LOW bytes. */
void ossa_caf_decode_packed_translation(const uint8_t *p, bool high_range, float out[3]);
/* Reads OSSA_CAF_QUAT_TIME_BYTES bytes: rotation (x, y, z, w, Cal3D convention) and seconds. */
void ossa_caf_decode_packed_rotation_time(const uint8_t *p, float rotation[4], float *time);

/* v1200 quantised keyframes (docs/FORMATS.md, D2): 12 bytes. */
enum { OSSA_CAF_QUANTISED_KEY_BYTES = 12 };
/* time = t / 65535 x duration; translation = min + raw x scale (x 10 bits, y and z 11 bits from
 * the least significant bit up); rotation from the 3-word encoding. Results may be non-finite
 * when min/scale are huge: the caller checks. */
void ossa_caf_decode_quantised_key(const uint8_t p[12], float duration, const float min[3],
                                   const float scale[3], float *time, float translation[3],
                                   float rotation[4]);
/* The 3-word quaternion alone (tag bits in the low bits of words 1 and 2). */
void ossa_caf_decode_quantised_rotation(uint16_t w0, uint16_t w1, uint16_t w2, float out[4]);

#endif
