/* Compressed CAF keyframes: the IMVU bit-packed scheme and the v1200 quantised keys
 * (docs/FORMATS.md: Bit-packed CAF keys, Quantised CAF keys, D2). Quaternions stay in Cal3D's
 * convention here. */
#include "formats/cal3d/cal3d_caf_codec.h"

#include <float.h>
#include <math.h>

/* LSB-first bit stream: bytes enter the accumulator little-endian, fields take its low bits.
 * Callers only ever read whole blocks whose size they checked, so no bounds are tracked. */
typedef struct bit_reader {
    const uint8_t *p;
    uint64_t acc;
    unsigned bits;
} bit_reader;

static uint32_t take_bits(bit_reader *br, unsigned n)
{
    while (br->bits < n) {
        br->acc |= (uint64_t)*br->p++ << br->bits;
        br->bits += 8;
    }
    uint32_t v = (uint32_t)(br->acc & ((UINT64_C(1) << n) - 1));
    br->acc >>= n;
    br->bits -= n;
    return v;
}

/* Fixed point in [0, 1] as IMVU computes it (float division by 2^bits - 1). */
static float unit_fixed(uint32_t v, unsigned bits)
{
    return (float)v / (float)((UINT32_C(1) << bits) - 1u);
}

void ossa_caf_decode_packed_header(const uint8_t p[4], ossa_caf_packed_header *out)
{
    out->bone_id = (uint32_t)p[0] | (uint32_t)(p[1] & 0x1Fu) << 8;
    out->translation_required = (p[1] & 0x80u) != 0;
    out->high_range = (p[1] & 0x40u) != 0;
    out->translation_dynamic = (p[1] & 0x20u) != 0;
    out->key_count = (uint32_t)p[2] | (uint32_t)p[3] << 8;
}

void ossa_caf_decode_packed_translation(const uint8_t *p, bool high_range, float out[3])
{
    /* High range: 25-bit magnitudes over +-2^23; low range: 9-bit magnitudes over +-128. */
    const unsigned bits = high_range ? 25u : 9u;
    const float range = high_range ? 8388608.0f : 128.0f;
    bit_reader br = {p, 0, 0};
    for (int i = 0; i < 3; i++) {
        float v = unit_fixed(take_bits(&br, bits), bits) * range;
        out[i] = take_bits(&br, 1) ? -v : v;
    }
    (void)take_bits(&br, 2); /* pad to whole bytes */
}

void ossa_caf_decode_packed_rotation_time(const uint8_t *p, float rotation[4], float *time)
{
    bit_reader br = {p, 0, 0};
    uint32_t dropped = take_bits(&br, 2);
    float sum = 0.0f;
    for (uint32_t i = 0; i < 4; i++) {
        if (i == dropped)
            continue;
        uint32_t negative = take_bits(&br, 1);
        float c = unit_fixed(take_bits(&br, 11), 11);
        rotation[i] = negative ? -c : c;
        sum += c * c;
    }
    /* The writer keeps the largest component non-negative, so the root is never negated. */
    rotation[dropped] = sqrtf(1.0f - (sum > 1.0f ? 1.0f : sum));
    *time = (float)take_bits(&br, 10) / 30.0f;
}

static float word_signed(uint16_t w)
{
    return (float)(w >= 0x8000u ? (int32_t)w - 0x10000 : (int32_t)w);
}

void ossa_caf_decode_quantised_rotation(uint16_t w0, uint16_t w1, uint16_t w2, float out[4])
{
    const unsigned which = (unsigned)((w1 & 1u) << 1 | (w2 & 1u));
    const float k = 1.0f / 32767.0f / 1.41421f;
    float a = word_signed(w0) * k;
    float b = word_signed((uint16_t)(w1 & 0xFFFEu)) * k;
    float c = word_signed((uint16_t)(w2 & 0xFFFEu)) * k;
    /* r is only square-rooted when clearly positive; otherwise the raw (tiny) value is kept,
     * exactly as the Cal3D loader does. */
    float r = 1.0f - (a * a + b * b + c * c);
    if (r > FLT_EPSILON)
        r = sqrtf(r);
    switch (which) {
    case 3: out[0] = a; out[1] = b; out[2] = c; out[3] = r; break;
    case 2: out[0] = a; out[1] = b; out[2] = r; out[3] = c; break;
    case 1: out[0] = a; out[1] = r; out[2] = b; out[3] = c; break;
    default: out[0] = r; out[1] = a; out[2] = b; out[3] = c; break;
    }
}

void ossa_caf_decode_quantised_key(const uint8_t p[12], float duration, const float min[3],
                                   const float scale[3], float *time, float translation[3],
                                   float rotation[4])
{
    uint32_t t = (uint32_t)p[0] | (uint32_t)p[1] << 8;
    uint32_t packed = (uint32_t)p[2] | (uint32_t)p[3] << 8 | (uint32_t)p[4] << 16 |
                      (uint32_t)p[5] << 24;
    *time = (float)t / 65535.0f * duration;
    const uint32_t raw[3] = {packed & 0x3FFu, (packed >> 10) & 0x7FFu, packed >> 21};
    for (int i = 0; i < 3; i++)
        translation[i] = min[i] + (float)raw[i] * scale[i];
    ossa_caf_decode_quantised_rotation((uint16_t)(p[6] | p[7] << 8), (uint16_t)(p[8] | p[9] << 8),
                                       (uint16_t)(p[10] | p[11] << 8), rotation);
}
