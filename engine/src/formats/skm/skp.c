/* Qfusion SKP type 2 (the skeleton and poses of "hierarchical skeletal pose" models):
 * docs/FORMATS.md, SKM/SKP and D10.
 *
 * The .skp holds the skeleton (names, parents that always precede their children, attachment
 * flags) and named frames of parent-relative poses. Its quaternions already follow the standard
 * (Hamilton) convention, so they are only normalised. Frame 0 is the base pose: it becomes every
 * bone's rest pose and, concatenated from the root, the bind pose whose inverse is the bone's
 * inverse bind. Frames become clips by name (D10): one key per frame per bone at 10
 * frames per second, plus a last key at t = duration repeating the first frame, so every clip
 * loops seamlessly whatever time mode samples it. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/checked.h"
#include "ossa/limits.h"
#include "core/quat.h"
#include "core/reader.h"
#include "formats/formats.h"
#include "formats/skm/skm_format.h"
#include "formats/skm/skm_read.h"

typedef struct skp_frame {
    char name[SKM_NAME_BYTES + 1];
    uint32_t prefix_len; /* length of the clip name at the start of name */
    uint32_t index;      /* position in the file */
    uint32_t ofs;        /* ofs_bonepositions */
    uint32_t clip, key;  /* the clip it belongs to and its key there */
} skp_frame;

typedef struct skp_group {
    uint32_t first;      /* file index of the group's first frame */
    uint32_t start;      /* first entry in the sorted frame list */
    uint32_t count;
} skp_group;

/* D10: the clip name is what precedes a trailing "_<digits>" (or trailing digits). */
static uint32_t clip_prefix(const char *name)
{
    size_t len = strlen(name), d = len;
    while (d > 0 && isdigit((unsigned char)name[d - 1]))
        d--;
    if (d < len && d > 0 && name[d - 1] == '_')
        d--;
    return (uint32_t)d;
}

static int by_clip_then_index(const void *pa, const void *pb)
{
    const skp_frame *a = *(const skp_frame *const *)pa, *b = *(const skp_frame *const *)pb;
    size_t n = a->prefix_len < b->prefix_len ? a->prefix_len : b->prefix_len;
    int c = memcmp(a->name, b->name, n);
    if (c)
        return c;
    if (a->prefix_len != b->prefix_len)
        return a->prefix_len < b->prefix_len ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static int by_first_frame(const void *pa, const void *pb)
{
    const skp_group *a = pa, *b = pb;
    return a->first < b->first ? -1 : a->first > b->first;
}

typedef struct skp_layout {
    uint32_t bones, frames;
    float frame_rate;
    uint32_t not_unit;       /* rotations normalised with a visible change */
} skp_layout;

/* One bone pose: a rotation near unit length (normalised here) and a translation. */
static ossa_status read_pose(ossa_reader *r, skp_layout *l, float q[4], float t[3])
{
    size_t at = r->pos;
    OSSA_TRY(ossa_rd_f32v(r, q, 4, "pose rotation"));
    OSSA_TRY(ossa_rd_f32v(r, t, 3, "pose origin"));
    double n2 = (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                (double)q[3] * q[3];
    if (!(n2 >= 0.25 && n2 <= 4.0))
        return ossa_fail(r->b, OSSA_ERR_VALUE, (int64_t)at,
                         "rotation (%g %g %g %g) is not a unit quaternion", (double)q[0],
                         (double)q[1], (double)q[2], (double)q[3]);
    double len = sqrt(n2);
    if (fabs(len - 1.0) > 1e-3)
        l->not_unit++;
    for (int k = 0; k < 4; k++)
        q[k] = (float)(q[k] / len);
    return OSSA_OK;
}

/* Frame 0 as the skeleton's rest pose; inverse binds from its concatenation. */
static ossa_status set_skeleton_from_frame0(ossa_reader *r, skp_layout *l, ossa_bone *bones,
                                            const skp_frame *frame0)
{
    ossa_build *b = r->b;
    r->pos = frame0->ofs;
    for (uint32_t j = 0; j < l->bones; j++)
        OSSA_TRY(ossa_fail_context(b, read_pose(r, l, bones[j].rest_r, bones[j].rest_t),
                                   "frame 0 ('%s'): bone %u", frame0->name, j));
    float bind_t[SKM_MAX_BONES][3], bind_r[SKM_MAX_BONES][4];
    ossa_skm_bind_poses(bones, l->bones, bind_t, bind_r);
    for (uint32_t j = 0; j < l->bones; j++) {
        float *ir = bones[j].inv_bind_r;
        ir[0] = -bind_r[j][0];
        ir[1] = -bind_r[j][1];
        ir[2] = -bind_r[j][2];
        ir[3] = bind_r[j][3];
        double bt[3] = {bind_t[j][0], bind_t[j][1], bind_t[j][2]}, moved[3];
        ossa_quat_rotate_d(ir, bt, moved);
        for (int k = 0; k < 3; k++)
            bones[j].inv_bind_t[k] = (float)-moved[k];
    }
    OSSA_TRY(ossa_build_set_skeleton(b, bones, l->bones));
    b->model->skeleton_format = OSSA_FORMAT_SKP;
    b->model->skeleton_version = SKM_MODELTYPE;
    return OSSA_OK;
}

/* Groups frames into clips (D10) and makes each clip's arrays: one track per bone with
 * a key per frame and the loop key. */
static ossa_status make_clips(ossa_build *b, skp_layout *l, skp_frame *frames,
                              skp_frame **sorted, skp_group *groups, ossa_clip ***clip_of_group,
                              uint32_t *group_count)
{
    for (uint32_t f = 0; f < l->frames; f++)
        sorted[f] = &frames[f];
    qsort(sorted, l->frames, sizeof *sorted, by_clip_then_index);
    uint32_t ng = 0;
    for (uint32_t i = 0; i < l->frames; i++) {
        const skp_frame *c = sorted[i];
        bool same = i > 0 && sorted[i - 1]->prefix_len == c->prefix_len &&
                    memcmp(sorted[i - 1]->name, c->name, c->prefix_len) == 0;
        if (!same) {
            groups[ng].first = c->index;
            groups[ng].start = i;
            groups[ng].count = 0;
            ng++;
        }
        groups[ng - 1].count++;
    }
    qsort(groups, ng, sizeof *groups, by_first_frame);

    ossa_clip **clips;
    OSSA_TRY(ossa_build_array(b, &clips, ng, sizeof *clips));
    const char *stem = b->stem && b->stem[0] ? b->stem : "frames";
    for (uint32_t g = 0; g < ng; g++) {
        uint32_t n = groups[g].count;
        const skp_frame *head = sorted[groups[g].start];
        for (uint32_t k = 0; k < n; k++) {
            skp_frame *fr = sorted[groups[g].start + k];
            fr->clip = g;
            fr->key = k;
        }
        ossa_clip *clip = ossa_build_push_clip(b);
        if (!clip)
            return OSSA_ERR_NOMEM;
        if (head->prefix_len)
            OSSA_TRY(ossa_build_strndup(b, &clip->name, head->name, head->prefix_len));
        else /* frames named by digits alone */
            OSSA_TRY(ossa_build_strndup(b, &clip->name, stem, strlen(stem)));
        size_t keys = (size_t)n + 1, nb = l->bones;
        float *times, *tv, *rv;
        ossa_track *tracks;
        OSSA_TRY(ossa_build_array(b, &times, keys, sizeof *times));
        OSSA_TRY(ossa_build_array(b, &tv, 3 * keys * nb, sizeof *tv));
        OSSA_TRY(ossa_build_array(b, &rv, 4 * keys * nb, sizeof *rv));
        OSSA_TRY(ossa_build_array(b, &tracks, nb, sizeof *tracks));
        for (size_t k = 0; k < keys; k++)
            times[k] = (float)k / l->frame_rate;
        for (uint32_t j = 0; j < l->bones; j++) {
            tracks[j].bone = b->bone_from_file ? b->bone_from_file[j] : j;
            tracks[j].key_count = (uint32_t)keys;
            tracks[j].times = times;
            tracks[j].translations = tv + 3 * keys * j;
            tracks[j].rotations = rv + 4 * keys * j;
        }
        clip->duration = times[n];
        clip->track_count = l->bones;
        clip->tracks = tracks;
        clip->format = OSSA_FORMAT_SKP;
        clip->version = SKM_MODELTYPE;
        clips[g] = clip;
    }
    *clip_of_group = clips;
    *group_count = ng;
    return OSSA_OK;
}

/* Every frame's poses into its clip, in file order; a clip's first frame is also its loop key. */
static ossa_status read_frame_poses(ossa_reader *r, skp_layout *l, const skp_frame *frames,
                                    ossa_clip **clips, const skp_group *groups)
{
    ossa_build *b = r->b;
    for (uint32_t f = 0; f < l->frames; f++) {
        const skp_frame *fr = &frames[f];
        ossa_clip *clip = clips[fr->clip];
        uint32_t n = groups[fr->clip].count;
        r->pos = fr->ofs;
        for (uint32_t j = 0; j < l->bones; j++) {
            const ossa_track *tr = &clip->tracks[j];
            float *q = (float *)tr->rotations + 4 * (size_t)fr->key;
            float *t = (float *)tr->translations + 3 * (size_t)fr->key;
            OSSA_TRY(ossa_fail_context(b, read_pose(r, l, q, t), "frame %u ('%s'): bone %u",
                                       f, fr->name, j));
            if (fr->key == 0) {
                memcpy((float *)tr->rotations + 4 * (size_t)n, q, 4 * sizeof *q);
                memcpy((float *)tr->translations + 3 * (size_t)n, t, 3 * sizeof *t);
            }
        }
    }
    return OSSA_OK;
}

/* Whether the last frame is a bind frame as the writer names it: one of its names, and no
 * other frame in the same clip. */
static bool is_bind_frame(const skp_frame *last, const skp_frame *frames, uint32_t count)
{
    static const char *const names[] = {"bind", "bind_pose", "bindpose", "base_pose", "skm_bind"};
    bool named = false;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        named |= strcmp(last->name, names[k]) == 0;
    if (!named)
        return false;
    for (uint32_t f = 0; f + 1 < count; f++)
        if (frames[f].prefix_len == last->prefix_len &&
            memcmp(frames[f].name, last->name, last->prefix_len) == 0)
            return false;
    return true;
}

static ossa_status read_skp_frames(ossa_reader *r, skp_layout *l, ossa_bone *bones,
                                   uint32_t ofs_frames, skp_frame *frames, skp_frame **sorted,
                                   skp_group *groups)
{
    ossa_build *b = r->b;
    OSSA_TRY(ossa_skm_seek_table(r, ofs_frames, l->frames, SKP_FRAME_BYTES, "frames", 24));
    size_t pose_bytes = (size_t)l->bones * SKP_POSE_BYTES;
    for (uint32_t f = 0; f < l->frames; f++) {
        skp_frame *fr = &frames[f];
        OSSA_TRY(ossa_skm_read_name(r, fr->name, "frame name"));
        size_t at = r->pos;
        OSSA_TRY(ossa_rd_u32(r, &fr->ofs, "frame pose offset"));
        if (fr->ofs > r->size || pose_bytes > r->size - fr->ofs)
            return ossa_fail(b, OSSA_ERR_TRUNCATED, (int64_t)at,
                             "frame %u ('%s'): %u bone poses at offset %u do not fit in the "
                             "file's %zu bytes",
                             f, fr->name, l->bones, fr->ofs, r->size);
        fr->index = f;
        fr->prefix_len = clip_prefix(fr->name);
    }
    /* Frame 0 is the base pose, unless the last frame is the bind pose Ossa's writer stores
     * last (named "bind", or an alternative when a clip has that name, and a clip of its own):
     * then that frame is the base and not a clip, so clip indices match the other formats. */
    const skp_frame *base = &frames[0];
    if (l->frames > 1 && is_bind_frame(&frames[l->frames - 1], frames, l->frames)) {
        base = &frames[l->frames - 1];
        l->frames--;
    }
    OSSA_TRY(set_skeleton_from_frame0(r, l, bones, base));
    ossa_clip **clips;
    uint32_t ng;
    OSSA_TRY(make_clips(b, l, frames, sorted, groups, &clips, &ng));
    OSSA_TRY(read_frame_poses(r, l, frames, clips, groups));
    if (l->not_unit)
        ossa_warn(b, "%u pose rotations were not of unit length and have been normalised",
                  l->not_unit);
    return OSSA_OK;
}

ossa_status ossa_read_skp(ossa_build *b, const uint8_t *data, size_t size)
{
    ossa_reader r;
    ossa_reader_init(&r, b, data, size);
    OSSA_TRY(ossa_skm_read_file_header(&r, "SKP", SKP_HEADER_BYTES));
    skp_layout l = {0};
    /* The load option's rate (validated by the loader), else D10's default. */
    l.frame_rate = b->opt.frame_rate > 0.0f ? b->opt.frame_rate : SKP_DEFAULT_FRAME_RATE;
    uint32_t ofs_bones, ofs_frames;
    OSSA_TRY(ossa_skm_read_count(&r, &l.bones, 1, SKM_MAX_BONES, "bone count"));
    OSSA_TRY(ossa_skm_read_count(&r, &l.frames, 1, SKM_MAX_FRAMES, "frame count"));
    OSSA_TRY(ossa_rd_u32(&r, &ofs_bones, "bone table offset"));
    OSSA_TRY(ossa_rd_u32(&r, &ofs_frames, "frame table offset"));
    if (b->model->bone_count)
        return ossa_fail(b, OSSA_ERR_MISMATCH, 12, "a second skeleton in one model");
    /* Every frame stores its own poses, so the file bounds what the clips take in memory (a
     * lying table of frames that share one pose block cannot make the reader allocate more). */
    size_t need = SKP_HEADER_BYTES + (size_t)l.bones * SKP_BONE_BYTES +
                  (size_t)l.frames * (SKP_FRAME_BYTES + (size_t)l.bones * SKP_POSE_BYTES);
    if (need > r.size)
        return ossa_fail(b, OSSA_ERR_TRUNCATED, 16,
                         "%u frames of %u bones need at least %zu bytes, the file has %zu",
                         l.frames, l.bones, need, r.size);

    ossa_bone *bones;
    OSSA_TRY(ossa_build_array(b, &bones, l.bones, sizeof *bones));
    OSSA_TRY(ossa_skm_seek_table(&r, ofs_bones, l.bones, SKP_BONE_BYTES, "bones", 20));
    uint32_t odd_flags = 0;
    for (uint32_t j = 0; j < l.bones; j++) {
        ossa_bone *bn = &bones[j];
        char name[SKM_NAME_BYTES + 1];
        OSSA_TRY(ossa_fail_context(b, ossa_skm_read_name(&r, name, "bone name"), "bone %u", j));
        OSSA_TRY(ossa_build_strndup(b, &bn->name, name, strlen(name)));
        size_t at = r.pos;
        uint32_t flags;
        OSSA_TRY(ossa_fail_context(b, ossa_rd_i32(&r, &bn->parent, "parent"), "bone %u", j));
        /* The format requires parents before children; Qfusion rejects other files. */
        if (bn->parent < -1 || bn->parent >= (int32_t)j)
            return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)at,
                             "bone %u ('%s') has parent %d: a parent must be -1 or an earlier "
                             "bone",
                             j, bn->name, bn->parent);
        OSSA_TRY(ossa_fail_context(b, ossa_rd_u32(&r, &flags, "flags"), "bone %u", j));
        if (flags & ~SKM_BONEFLAG_ATTACH)
            odd_flags++;
        bn->flags = flags & SKM_BONEFLAG_ATTACH ? OSSA_BONE_ATTACH : 0;
        bn->rest_s[0] = bn->rest_s[1] = bn->rest_s[2] = 1.0f;
        bn->source_index = j;
        for (uint32_t k = 0; k < j; k++)
            if (strcmp(bones[k].name, bn->name) == 0) {
                ossa_warn(b, "bones %u and %u are both named '%s'; look-ups by name find %u", k,
                          j, bn->name, k);
                break;
            }
    }
    if (odd_flags)
        ossa_warn(b, "%u bones have flag bits other than ATTACH (1); they are ignored", odd_flags);

    /* Frame names and the grouping live outside the model, freed on every path. */
    skp_frame *frames = malloc((size_t)l.frames * sizeof *frames);
    skp_frame **sorted = malloc((size_t)l.frames * sizeof *sorted);
    skp_group *groups = malloc((size_t)l.frames * sizeof *groups);
    ossa_status st;
    if (!frames || !sorted || !groups)
        st = ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot allocate the table of %u frames", l.frames);
    else
        st = read_skp_frames(&r, &l, bones, ofs_frames, frames, sorted, groups);
    free(frames);
    free(sorted);
    free(groups);
    return st;
}
