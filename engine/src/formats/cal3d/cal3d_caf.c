/* Cal3D binary animation (CAF), every layout (docs/FORMATS.md: CAF layout, D1-D3):
 *   classic 699..910, 920..1199 and IMVU 911..912: duration, track count, plain tracks;
 *   IMVU 913..918: bit-packed tracks; 919: compression flag word after the version;
 *   1200..1299: flags word after the track count, bit 0 = quantised tracks;
 *   upstream >= 1300: compression flag after the version and flags after the track count.
 * One clip per file; quaternions are converted to Hamilton once, after decoding. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "ossa/limits.h"
#include "core/reader.h"
#include "formats/cal3d/cal3d_caf_codec.h"
#include "formats/formats.h"

typedef enum caf_tracks {
    CAF_TRACKS_PLAIN,     /* 32-byte keys of floats */
    CAF_TRACKS_QUANTISED, /* v1200 flags bit 0: per-track min/scale, 12-byte keys */
    CAF_TRACKS_PACKED     /* IMVU bit-packed keys (also upstream 1300+ when compressed) */
} caf_tracks;

/* Smallest possible track of each kind, for checking the track count before allocating. */
static const size_t caf_min_track_bytes[] = {
    [CAF_TRACKS_PLAIN] = 8 + 32,
    [CAF_TRACKS_QUANTISED] = 8 + 24 + OSSA_CAF_QUANTISED_KEY_BYTES,
    [CAF_TRACKS_PACKED] = OSSA_CAF_TRACK_HEADER_BYTES + OSSA_CAF_QUAT_TIME_BYTES,
};

typedef struct caf_reader {
    ossa_build *b;
    ossa_reader r;
    uint32_t version;
    float duration;
    caf_tracks layout;
    bool raw_rotations;    /* IMVU 916..917: 4 raw rotation floats follow each packed key */
    bool raw_translations; /* IMVU 917: 3 raw translation floats when a block was written */
    bool warned_sentinel;
    bool warned_no_rest;
} caf_reader;

static const float caf_sentinel = 1e10f;

/* The rest (local) translation of a model bone, when a skeleton was loaded before this file. */
static bool rest_translation(const caf_reader *c, uint32_t bone, float out[3])
{
    const ossa_model *m = c->b->model;
    if (!c->b->bone_from_file || bone >= m->bone_count)
        return false;
    memcpy(out, m->bones[bone].rest_t, 3 * sizeof(float));
    return true;
}

/* Allocates the key arrays of a track of n keys. */
static ossa_status alloc_keys(caf_reader *c, ossa_track *t, uint32_t n)
{
    float *times, *tr, *rot;
    OSSA_TRY(ossa_build_array(c->b, &times, n, sizeof(float)));
    OSSA_TRY(ossa_build_array(c->b, &tr, (size_t)n * 3, sizeof(float)));
    OSSA_TRY(ossa_build_array(c->b, &rot, (size_t)n * 4, sizeof(float)));
    t->key_count = n;
    t->times = times;
    t->translations = tr;
    t->rotations = rot;
    t->scales = NULL;
    return OSSA_OK;
}

/* Key count of a plain or quantised track: > 0, capped, and its keys must fit in the bytes
 * left after `extra` more header bytes. */
static ossa_status read_key_count(caf_reader *c, uint32_t track, size_t key_bytes, size_t extra,
                                  uint32_t *out)
{
    size_t at = c->r.pos;
    OSSA_TRY(ossa_rd_count(&c->r, out, OSSA_MAX_KEYS, 0, "keyframe count"));
    if (*out == 0)
        return ossa_fail(c->b, OSSA_ERR_RANGE, (int64_t)at, "track %u has a keyframe count of 0",
                         track);
    size_t left = ossa_rd_left(&c->r);
    if (left < extra || *out > (left - extra) / key_bytes)
        return ossa_fail(c->b, OSSA_ERR_TRUNCATED, (int64_t)at,
                         "track %u: %u keyframes need %zu bytes, only %zu left", track, *out,
                         (size_t)*out * key_bytes + extra, left);
    return OSSA_OK;
}

static ossa_status read_bone(caf_reader *c, uint32_t *bone)
{
    size_t at = c->r.pos;
    int32_t id;
    OSSA_TRY(ossa_rd_i32(&c->r, &id, "track bone id"));
    return ossa_build_map_bone(c->b, id, (int64_t)at, 0, bone);
}

static ossa_status read_plain_track(caf_reader *c, uint32_t index, ossa_track *t)
{
    OSSA_TRY(read_bone(c, &t->bone));
    uint32_t n;
    OSSA_TRY(read_key_count(c, index, 32, 0, &n));
    OSSA_TRY(alloc_keys(c, t, n));
    float *times = (float *)t->times, *tr = (float *)t->translations, *rot = (float *)t->rotations;
    for (uint32_t k = 0; k < n; k++) {
        float *kt = tr + 3 * k, *kr = rot + 4 * k;
        OSSA_TRY(ossa_rd_f32(&c->r, &times[k], "keyframe time"));
        OSSA_TRY(ossa_rd_f32v(&c->r, kt, 3, "keyframe translation"));
        OSSA_TRY(ossa_rd_f32v(&c->r, kr, 4, "keyframe rotation"));
        /* Cal3D exporters write (1e10, 1e10, 1e10) for "the bone's own rest translation". */
        if (kt[0] == caf_sentinel && kt[1] == caf_sentinel && kt[2] == caf_sentinel &&
            !rest_translation(c, t->bone, kt)) {
            kt[0] = kt[1] = kt[2] = 0.0f;
            if (!c->warned_sentinel)
                ossa_warn(c->b, "keyframes use the 'rest translation' marker 1e10 but no skeleton "
                                "was loaded first: those translations are 0");
            c->warned_sentinel = true;
        }
        ossa_cal3d_quat_to_hamilton(kr);
    }
    return OSSA_OK;
}

static ossa_status read_quantised_track(caf_reader *c, uint32_t index, ossa_track *t)
{
    OSSA_TRY(read_bone(c, &t->bone));
    uint32_t n;
    OSSA_TRY(read_key_count(c, index, OSSA_CAF_QUANTISED_KEY_BYTES, 24, &n));
    float min[3], scale[3];
    OSSA_TRY(ossa_rd_f32v(&c->r, min, 3, "quantised track minimum"));
    OSSA_TRY(ossa_rd_f32v(&c->r, scale, 3, "quantised track scale"));
    OSSA_TRY(alloc_keys(c, t, n));
    float *times = (float *)t->times, *tr = (float *)t->translations, *rot = (float *)t->rotations;
    for (uint32_t k = 0; k < n; k++) {
        size_t at = c->r.pos;
        const uint8_t *p = c->r.data + at;
        OSSA_TRY(ossa_rd_skip(&c->r, OSSA_CAF_QUANTISED_KEY_BYTES, "quantised keyframe"));
        ossa_caf_decode_quantised_key(p, c->duration, min, scale, &times[k], tr + 3 * k,
                                      rot + 4 * k);
        for (int i = 0; i < 3; i++)
            if (!isfinite(tr[3 * k + i]))
                return ossa_fail(c->b, OSSA_ERR_VALUE, (int64_t)at,
                                 "track %u key %u: minimum + raw x scale overflows to %g", index,
                                 k, (double)tr[3 * k + i]);
        ossa_cal3d_quat_to_hamilton(rot + 4 * k);
    }
    return OSSA_OK;
}

static ossa_status read_packed_track(caf_reader *c, uint32_t index, ossa_track *t)
{
    size_t at = c->r.pos;
    uint8_t head[OSSA_CAF_TRACK_HEADER_BYTES];
    OSSA_TRY(ossa_rd_bytes(&c->r, head, sizeof head, "compressed track header"));
    ossa_caf_packed_header h;
    ossa_caf_decode_packed_header(head, &h);
    OSSA_TRY(ossa_build_map_bone(c->b, h.bone_id, (int64_t)at, 0, &t->bone));
    t->flags = (h.translation_required ? OSSA_TRACK_TRANSLATION_REQUIRED : 0u) |
               (h.translation_dynamic ? OSSA_TRACK_TRANSLATION_DYNAMIC : 0u) |
               (h.high_range ? OSSA_TRACK_HIGH_RANGE : 0u);
    if (h.key_count == 0)
        return ossa_fail(c->b, OSSA_ERR_RANGE, (int64_t)at + 2,
                         "compressed track %u has a keyframe count of 0", index);

    /* The layout is fixed by the flags, so the exact size is known before allocating. */
    const size_t pos_bytes = h.high_range ? OSSA_CAF_POS_BYTES_HIGH : OSSA_CAF_POS_BYTES_LOW;
    const size_t blocks = !h.translation_required ? 0 : h.translation_dynamic ? h.key_count : 1;
    const size_t key_bytes = OSSA_CAF_QUAT_TIME_BYTES + (c->raw_rotations ? 16u : 0u);
    const size_t block_bytes = pos_bytes + (c->raw_translations ? 12u : 0u);
    size_t need = (size_t)h.key_count * key_bytes + blocks * block_bytes; /* < 2^16 x 38 */
    if (need > ossa_rd_left(&c->r))
        return ossa_fail(c->b, OSSA_ERR_TRUNCATED, (int64_t)at + 2,
                         "compressed track %u: %u keyframes need %zu bytes, only %zu left", index,
                         h.key_count, need, ossa_rd_left(&c->r));
    OSSA_TRY(alloc_keys(c, t, h.key_count));

    float *times = (float *)t->times, *tr = (float *)t->translations, *rot = (float *)t->rotations;
    float rest[3] = {0, 0, 0};
    if (!h.translation_required && !rest_translation(c, t->bone, rest) && !c->warned_no_rest) {
        ossa_warn(c->b, "compressed tracks leave translations to the skeleton but none was "
                        "loaded first: those translations are 0");
        c->warned_no_rest = true;
    }
    for (uint32_t k = 0; k < h.key_count; k++) {
        float *kt = tr + 3 * k, *kr = rot + 4 * k;
        const bool written = h.translation_required && (k == 0 || h.translation_dynamic);
        if (written) {
            ossa_caf_decode_packed_translation(c->r.data + c->r.pos, h.high_range, kt);
            c->r.pos += pos_bytes;
        } else if (h.translation_required) {
            memcpy(kt, kt - 3, 3 * sizeof(float)); /* static: the previous key's (k > 0) */
        } else {
            memcpy(kt, rest, sizeof rest);
        }
        ossa_caf_decode_packed_rotation_time(c->r.data + c->r.pos, kr, &times[k]);
        c->r.pos += OSSA_CAF_QUAT_TIME_BYTES;
        /* IMVU 916/917 follow each key with exact copies that replace the decoded values. */
        if (c->raw_translations && written)
            OSSA_TRY(ossa_rd_f32v(&c->r, kt, 3, "raw keyframe translation"));
        if (c->raw_rotations)
            OSSA_TRY(ossa_rd_f32v(&c->r, kr, 4, "raw keyframe rotation"));
        ossa_cal3d_quat_to_hamilton(kr);
    }
    return OSSA_OK;
}

/* Everything up to the first track: magic, version, flag words, duration and track count. */
static ossa_status read_header(caf_reader *c, uint32_t *track_count, int *compressed)
{
    ossa_build *b = c->b;
    uint8_t magic[4];
    OSSA_TRY(ossa_rd_bytes(&c->r, magic, 4, "CAF magic"));
    if (memcmp(magic, "CAF\0", 4) != 0)
        return ossa_fail(b, OSSA_ERR_FORMAT, 0, "not a Cal3D binary animation (magic is not CAF)");
    int32_t version;
    OSSA_TRY(ossa_rd_i32(&c->r, &version, "CAF version"));
    ossa_cal3d_lineage lineage;
    OSSA_TRY(ossa_cal3d_check_version(b, version, 4, 0, &lineage));
    c->version = (uint32_t)version;
    b->last_version = c->version;

    int32_t compression = 0;
    bool has_compression_word = (lineage == OSSA_CAL3D_IMVU && version >= 919) ||
                                lineage == OSSA_CAL3D_UPSTREAM;
    if (has_compression_word)
        OSSA_TRY(ossa_rd_i32(&c->r, &compression, "CAF compression flag"));
    else if (lineage == OSSA_CAL3D_IMVU)
        compression = version >= 913; /* 913..918 are always compressed */

    size_t at = c->r.pos;
    OSSA_TRY(ossa_rd_f32(&c->r, &c->duration, "animation duration"));
    if (!(c->duration > 0.0f))
        return ossa_fail(b, OSSA_ERR_VALUE, (int64_t)at, "animation duration %g is not positive",
                         (double)c->duration);
    size_t count_at = c->r.pos;
    int32_t count;
    OSSA_TRY(ossa_rd_i32(&c->r, &count, "track count"));
    uint32_t flags = 0;
    if (lineage == OSSA_CAL3D_V1200 || lineage == OSSA_CAL3D_UPSTREAM)
        OSSA_TRY(ossa_rd_u32(&c->r, &flags, "CAF flags"));

    c->layout = CAF_TRACKS_PLAIN;
    if (lineage == OSSA_CAL3D_IMVU) {
        if (compression) {
            c->layout = CAF_TRACKS_PACKED;
            c->raw_rotations = version >= 916 && version < 918;
            c->raw_translations = version == 917;
        }
    } else if (lineage == OSSA_CAL3D_V1200) {
        if (flags & 1u)
            c->layout = CAF_TRACKS_QUANTISED;
    } else if (lineage == OSSA_CAL3D_UPSTREAM) {
        if (compression) {
            c->layout = CAF_TRACKS_PACKED;
        } else if (flags & 1u) {
            c->layout = CAF_TRACKS_PACKED;
            ossa_warn(b, "compression flag is 0 but flags bit 0 (compressed keyframes) is set: "
                         "the upstream Cal3D saver writes bit-packed tracks this way, so they are "
                         "decoded as bit-packed");
        }
    }
    *compressed = c->layout != CAF_TRACKS_PLAIN;

    if (count <= 0)
        return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)count_at, "track count %d is not positive",
                         count);
    if ((uint32_t)count > OSSA_MAX_TRACKS)
        return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)count_at,
                         "track count %d exceeds the limit of %u", count, OSSA_MAX_TRACKS);
    size_t min_each = caf_min_track_bytes[c->layout];
    if ((size_t)count > ossa_rd_left(&c->r) / min_each)
        return ossa_fail(b, OSSA_ERR_TRUNCATED, (int64_t)count_at,
                         "track count %d needs at least %zu bytes, only %zu left", count,
                         (size_t)count * min_each, ossa_rd_left(&c->r));
    *track_count = (uint32_t)count;
    return OSSA_OK;
}

ossa_status ossa_read_caf(ossa_build *b, const uint8_t *data, size_t size)
{
    caf_reader c;
    memset(&c, 0, sizeof c);
    c.b = b;
    ossa_reader_init(&c.r, b, data, size);
    uint32_t track_count = 0;
    int compressed = 0;
    OSSA_TRY(read_header(&c, &track_count, &compressed));

    ossa_track *tracks;
    OSSA_TRY(ossa_build_array(b, &tracks, track_count, sizeof *tracks));
    for (uint32_t i = 0; i < track_count; i++) {
        switch (c.layout) {
        case CAF_TRACKS_PLAIN: OSSA_TRY(read_plain_track(&c, i, &tracks[i])); break;
        case CAF_TRACKS_QUANTISED: OSSA_TRY(read_quantised_track(&c, i, &tracks[i])); break;
        case CAF_TRACKS_PACKED: OSSA_TRY(read_packed_track(&c, i, &tracks[i])); break;
        }
        OSSA_TRY(ossa_build_sort_track(b, &tracks[i], b->stem));
    }
    if (ossa_rd_left(&c.r))
        ossa_warn(b, "%zu bytes after the last track were ignored", ossa_rd_left(&c.r));

    ossa_clip *clip = ossa_build_push_clip(b);
    if (!clip)
        return OSSA_ERR_NOMEM;
    clip->name = b->stem;
    clip->duration = c.duration;
    clip->track_count = track_count;
    clip->tracks = tracks;
    clip->format = OSSA_FORMAT_CAF;
    clip->version = c.version;
    clip->compressed = compressed;
    return OSSA_OK;
}
