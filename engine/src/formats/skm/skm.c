/* Qfusion SKM/SKP type 2 ("hierarchical skeletal pose"): skm-skp-type2.txt, FORMAT-NOTES E and
 * Decision 10.
 *
 * The .skp holds the skeleton (names, parents that always precede their children, attachment
 * flags) and named frames of parent-relative poses. Its quaternions already follow the standard
 * (Hamilton) convention, so they are only normalised. Frame 0 is the base pose: it becomes every
 * bone's rest pose and, concatenated from the root, the bind pose whose inverse is the bone's
 * inverse bind. Frames become clips by name (Decision 10): one key per frame per bone at 10
 * frames per second, plus a last key at t = duration repeating the first frame, so every clip
 * loops seamlessly whatever time mode samples it.
 *
 * The .skm holds meshes whose vertices store, per influence, a bone-space origin already
 * multiplied by its influence ("pre-weighted") and a bone-space normal. Posing them with frame 0
 * gives the bind vertex, p = sum(R0 o + w T0), and n = normalise(sum(R0 normal)). Each influence
 * on its own also implies a position, R0 (o / w) + T0; the largest distance between those and p
 * is the model's bind_disagreement (about 0 for a consistently made file): it is how far
 * skinning that one bind vertex would drift from what Qfusion draws. Each influence also keeps its
 * own term R0 o + w T0 (ossa_submesh.influence_points), so skinning evaluates Qfusion's
 * sum(R o + w T) exactly.
 *
 * Coordinates and texture coordinates are kept as stored (Qfusion models are Z up; no axes are
 * changed). One .skm becomes one ossa_mesh per run of records with the same mesh name (each
 * record one submesh); a "_lodN" suffix of the file or mesh name sets ossa_mesh.lod. Shader
 * names become materials, each with one texture map: the shader's last path part beside the
 * model. An .skm read with no .skp before it (ossa_load_memory) gets a stand-in
 * skeleton of unposed roots, with a warning, so that the mesh can still be inspected; load.c
 * finds the .skp for files. */
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

/* Model coordinates beyond this are rejected here, with the vertex's offset, before the
 * validation pass would reject them without one. */
#define SKM_MAX_COORD 1e15

/* "SKM1", type 2 and the file size field; r is then limited to the size the header gives. */
static ossa_status read_file_header(ossa_reader *r, const char *kind, size_t header_bytes)
{
    ossa_build *b = r->b;
    char id[4];
    OSSA_TRY(ossa_rd_bytes(r, id, 4, "id"));
    if (memcmp(id, SKM_ID, 4) != 0)
        return ossa_fail(b, OSSA_ERR_FORMAT, 0, "not an %s file: the id is not \"SKM1\"", kind);
    uint32_t type, filesize;
    OSSA_TRY(ossa_rd_u32(r, &type, "model type"));
    if (type != SKM_MODELTYPE)
        return ossa_fail(b, OSSA_ERR_VERSION, 4,
                         "model type %u is not 2 (hierarchical skeletal pose)", type);
    b->last_version = type;
    OSSA_TRY(ossa_rd_u32(r, &filesize, "file size"));
    if (filesize > SKM_MAX_FILESIZE)
        return ossa_fail(b, OSSA_ERR_RANGE, 8, "file size %u exceeds the format's limit of %u",
                         filesize, SKM_MAX_FILESIZE);
    if (filesize < header_bytes)
        return ossa_fail(b, OSSA_ERR_FORMAT, 8, "file size %u is smaller than the %zu-byte header",
                         filesize, header_bytes);
    if (filesize > r->size)
        return ossa_fail(b, OSSA_ERR_TRUNCATED, 8,
                         "the header gives a file size of %u bytes, only %zu are present",
                         filesize, r->size);
    if (filesize < r->size) {
        ossa_warn(b, "%zu bytes after the file size the header gives (%u) ignored",
                  r->size - filesize, filesize);
        r->size = filesize;
    }
    return OSSA_OK;
}

/* Moves r to a table of count entries of `each` bytes at offset ofs (read from the field at
 * field_at) once the whole table is known to lie inside the file. */
static ossa_status seek_table(ossa_reader *r, uint32_t ofs, size_t count, size_t each,
                              const char *what, size_t field_at)
{
    size_t bytes;
    if (!ossa_mul_size(count, each, &bytes) || ofs > r->size || bytes > r->size - ofs)
        return ossa_fail(r->b, OSSA_ERR_TRUNCATED, (int64_t)field_at,
                         "%s at offset %u (%zu x %zu bytes) do not fit in the file's %zu bytes",
                         what, ofs, count, each, r->size);
    r->pos = ofs;
    return OSSA_OK;
}

/* A u32 field that must lie in lo..hi. */
static ossa_status read_count(ossa_reader *r, uint32_t *out, uint32_t lo, uint32_t hi,
                              const char *what)
{
    size_t at = r->pos;
    OSSA_TRY(ossa_rd_u32(r, out, what));
    if (*out < lo || *out > hi)
        return ossa_fail(r->b, OSSA_ERR_RANGE, (int64_t)at, "%s %u is not in %u..%u", what, *out,
                         lo, hi);
    return OSSA_OK;
}

/* A fixed 64-byte name; text up to the first NUL (all 64 bytes when there is none). */
static ossa_status read_name(ossa_reader *r, char out[SKM_NAME_BYTES + 1], const char *what)
{
    OSSA_TRY(ossa_rd_bytes(r, out, SKM_NAME_BYTES, what));
    out[SKM_NAME_BYTES] = '\0';
    return OSSA_OK;
}

/* Rest (local) poses concatenated parents-first: each bone's model-space pose in frame 0. */
static void bind_poses(const ossa_bone *bones, uint32_t n, float (*t)[3], float (*r)[4])
{
    for (uint32_t i = 0; i < n; i++) {
        const ossa_bone *bn = &bones[i];
        if (bn->parent < 0) {
            memcpy(t[i], bn->rest_t, sizeof t[i]);
            memcpy(r[i], bn->rest_r, sizeof r[i]);
            continue;
        }
        uint32_t p = (uint32_t)bn->parent;
        double local[3] = {bn->rest_t[0], bn->rest_t[1], bn->rest_t[2]}, moved[3];
        ossa_quat_rotate_d(r[p], local, moved);
        for (int k = 0; k < 3; k++)
            t[i][k] = (float)(moved[k] + t[p][k]);
        ossa_quat_mul(r[p], bn->rest_r, r[i]);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* SKP: skeleton and frames                                                                    */

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

/* Decision 10: the clip name is what precedes a trailing "_<digits>" (or trailing digits). */
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
    bind_poses(bones, l->bones, bind_t, bind_r);
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

/* Groups frames into clips (Decision 10) and makes each clip's arrays: one track per bone with
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
    OSSA_TRY(seek_table(r, ofs_frames, l->frames, SKP_FRAME_BYTES, "frames", 24));
    size_t pose_bytes = (size_t)l->bones * SKP_POSE_BYTES;
    for (uint32_t f = 0; f < l->frames; f++) {
        skp_frame *fr = &frames[f];
        OSSA_TRY(read_name(r, fr->name, "frame name"));
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
    OSSA_TRY(read_file_header(&r, "SKP", SKP_HEADER_BYTES));
    skp_layout l = {0};
    /* The load option's rate (validated by the loader), else Decision 10's default. */
    l.frame_rate = b->opt.frame_rate > 0.0f ? b->opt.frame_rate : SKP_DEFAULT_FRAME_RATE;
    uint32_t ofs_bones, ofs_frames;
    OSSA_TRY(read_count(&r, &l.bones, 1, SKM_MAX_BONES, "bone count"));
    OSSA_TRY(read_count(&r, &l.frames, 1, SKM_MAX_FRAMES, "frame count"));
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
    OSSA_TRY(seek_table(&r, ofs_bones, l.bones, SKP_BONE_BYTES, "bones", 20));
    uint32_t odd_flags = 0;
    for (uint32_t j = 0; j < l.bones; j++) {
        ossa_bone *bn = &bones[j];
        char name[SKM_NAME_BYTES + 1];
        OSSA_TRY(ossa_fail_context(b, read_name(&r, name, "bone name"), "bone %u", j));
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

/* ------------------------------------------------------------------------------------------ */
/* SKM: meshes                                                                                 */

typedef struct skm_record {
    char shader[SKM_NAME_BYTES + 1], name[SKM_NAME_BYTES + 1];
    uint32_t verts, tris, refs, ofs_verts, ofs_texcoords, ofs_indices, ofs_refs;
    size_t at;               /* offset of the record */
} skm_record;

typedef struct skm_pose0 {
    uint32_t bones;
    float t[SKM_MAX_BONES][3];
    float r[SKM_MAX_BONES][4];
    double disagreement;
} skm_pose0;

static ossa_status read_record(ossa_reader *r, skm_record *rec)
{
    rec->at = r->pos;
    OSSA_TRY(read_name(r, rec->shader, "shader name"));
    OSSA_TRY(read_name(r, rec->name, "mesh name"));
    OSSA_TRY(read_count(r, &rec->verts, 1, SKM_MAX_VERTS, "vertex count"));
    OSSA_TRY(read_count(r, &rec->tris, 1, SKM_MAX_TRIS, "triangle count"));
    OSSA_TRY(read_count(r, &rec->refs, 1, SKM_MAX_REFERENCES, "bone reference count"));
    OSSA_TRY(ossa_rd_u32(r, &rec->ofs_verts, "vertex offset"));
    OSSA_TRY(ossa_rd_u32(r, &rec->ofs_texcoords, "texture coordinate offset"));
    OSSA_TRY(ossa_rd_u32(r, &rec->ofs_indices, "triangle offset"));
    return ossa_rd_u32(r, &rec->ofs_refs, "bone reference offset");
}

/* First pass over the variable-size vertices: the number of influences, so the CSR arrays are
 * allocated exactly. */
static ossa_status count_influences(ossa_reader scan, uint32_t verts, uint32_t *total)
{
    uint32_t sum = 0;
    for (uint32_t v = 0; v < verts; v++) {
        size_t at = scan.pos;
        uint32_t n = 0;
        ossa_status st = ossa_rd_u32(&scan, &n, "influence count");
        if (st == OSSA_OK && n == 0)
            st = ossa_fail(scan.b, OSSA_ERR_FORMAT, (int64_t)at, "vertex has no influences");
        if (st == OSSA_OK && n > OSSA_MAX_INFLUENCES)
            st = ossa_fail(scan.b, OSSA_ERR_RANGE, (int64_t)at,
                           "influence count %u exceeds the limit of %u", n, OSSA_MAX_INFLUENCES);
        if (st == OSSA_OK)
            st = ossa_rd_skip(&scan, (size_t)n * SKM_BONEVERT_BYTES, "influences");
        if (st != OSSA_OK)
            return ossa_fail_context(scan.b, st, "vertex %u", v);
        sum += n; /* at most SKM_MAX_VERTS * OSSA_MAX_INFLUENCES: no overflow */
    }
    *total = sum;
    return OSSA_OK;
}

/* One vertex: its influences, the bind position and normal they give in frame 0, and how far
 * each influence's own reading of the position lies from it. */
static ossa_status read_vertex(ossa_reader *r, skm_pose0 *p0, const bool *referenced,
                               ossa_submesh *sm, uint32_t v, uint32_t *next, uint32_t *unlisted)
{
    ossa_build *b = r->b;
    size_t vertex_at = r->pos;
    uint32_t n;
    OSSA_TRY(ossa_rd_u32(r, &n, "influence count")); /* checked by count_influences */
    ossa_influence *inf = (ossa_influence *)sm->influences + *next;
    float *points = (float *)sm->influence_points + 3 * (size_t)*next;
    float origin[OSSA_MAX_INFLUENCES][3];
    double pos[3] = {0, 0, 0}, nrm[3] = {0, 0, 0};
    for (uint32_t k = 0; k < n; k++) {
        float normal[3];
        OSSA_TRY(ossa_rd_f32v(r, origin[k], 3, "bone-space origin"));
        OSSA_TRY(ossa_rd_f32(r, &inf[k].weight, "influence"));
        OSSA_TRY(ossa_rd_f32v(r, normal, 3, "bone-space normal"));
        size_t at = r->pos;
        uint32_t bone;
        OSSA_TRY(ossa_rd_u32(r, &bone, "bone number"));
        if (bone >= p0->bones)
            return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)at,
                             "influence %u uses bone %u, the model has %u", k, bone, p0->bones);
        if (!referenced[bone])
            (*unlisted)++;
        OSSA_TRY(ossa_build_map_bone(b, bone, (int64_t)at, 0, &inf[k].bone));
        uint32_t j = inf[k].bone;
        double o[3] = {origin[k][0], origin[k][1], origin[k][2]}, ro[3];
        double nn[3] = {normal[0], normal[1], normal[2]}, rn[3];
        ossa_quat_rotate_d(p0->r[j], o, ro);
        ossa_quat_rotate_d(p0->r[j], nn, rn);
        for (int c = 0; c < 3; c++) {
            double term = ro[c] + (double)inf[k].weight * p0->t[j][c];
            if (!(fabs(term) <= SKM_MAX_COORD))
                return ossa_fail(b, OSSA_ERR_VALUE, (int64_t)vertex_at,
                                 "influence %u's bind term %g is beyond %g", k, term,
                                 SKM_MAX_COORD);
            points[3 * k + (uint32_t)c] = (float)term;
            pos[c] += term;
            nrm[c] += rn[c];
        }
    }
    for (int c = 0; c < 3; c++)
        if (!(fabs(pos[c]) <= SKM_MAX_COORD))
            return ossa_fail(b, OSSA_ERR_VALUE, (int64_t)vertex_at,
                             "bind position component %g is beyond %g", pos[c], SKM_MAX_COORD);
    double len = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    float *pv = (float *)sm->positions + 3 * (size_t)v, *nv = (float *)sm->normals + 3 * (size_t)v;
    for (int c = 0; c < 3; c++) {
        pv[c] = (float)pos[c];
        nv[c] = len > 0.0 && isfinite(len) ? (float)(nrm[c] / len) : 0.0f;
    }
    /* Influences whose weight is about 0 say nothing about the position. */
    for (uint32_t k = 0; k < n; k++) {
        double w = inf[k].weight;
        if (!(fabs(w) > 1e-6))
            continue;
        uint32_t j = inf[k].bone;
        double o[3] = {origin[k][0] / w, origin[k][1] / w, origin[k][2] / w}, q[3];
        ossa_quat_rotate_d(p0->r[j], o, q);
        double d2 = 0.0;
        for (int c = 0; c < 3; c++) {
            double d = q[c] + p0->t[j][c] - pos[c];
            d2 += d * d;
        }
        if (d2 > p0->disagreement * p0->disagreement)
            p0->disagreement = sqrt(d2);
    }
    *next += n;
    ((uint32_t *)sm->influence_start)[v + 1] = *next;
    if (n > sm->max_influences)
        sm->max_influences = n;
    return OSSA_OK;
}

/* The material of a shader name: one per distinct name across the model, -1 for no name. */
static ossa_status shader_material(ossa_build *b, const char *shader, int32_t *out)
{
    *out = -1;
    if (!shader[0])
        return OSSA_OK;
    ossa_model *m = b->model;
    for (uint32_t i = 0; i < m->material_count; i++)
        if (m->materials[i].format == OSSA_FORMAT_SKM && strcmp(m->materials[i].name, shader) == 0) {
            *out = (int32_t)i;
            return OSSA_OK;
        }
    ossa_material *mat = ossa_build_push_material(b);
    if (!mat)
        return OSSA_ERR_NOMEM;
    OSSA_TRY(ossa_build_strndup(b, &mat->name, shader, strlen(shader)));
    for (int k = 0; k < 4; k++)
        mat->ambient[k] = mat->diffuse[k] = 1.0f;
    mat->specular[3] = 1.0f;
    mat->format = OSSA_FORMAT_SKM;
    mat->version = SKM_MODELTYPE;
    /* Qfusion names a shader or texture by its path in the game's folders, without an
     * extension; beside the model is where a skin of its own lies, so the map looks there for
     * the path's last part (the viewer tries the usual image extensions). */
    ossa_texture_map *map;
    OSSA_TRY(ossa_build_array(b, &map, 1, sizeof *map));
    const char *last = strrchr(shader, '/');
    last = last ? last + 1 : shader;
    char path[8192];
    snprintf(path, sizeof path, "%s%s", b->dir ? b->dir : "", last);
    OSSA_TRY(ossa_build_strndup(b, &map->file, shader, strlen(shader)));
    OSSA_TRY(ossa_build_strndup(b, &map->path, path, strlen(path)));
    map->type = "";
    mat->maps = map;
    mat->map_count = 1;
    *out = (int32_t)(m->material_count - 1);
    return OSSA_OK;
}

static ossa_status read_mesh_data(ossa_reader *r, const skm_record *rec, skm_pose0 *p0,
                                  ossa_submesh *sm, uint32_t *unlisted)
{
    ossa_build *b = r->b;
    bool referenced[SKM_MAX_BONES] = {false};
    OSSA_TRY(seek_table(r, rec->ofs_refs, rec->refs, 4, "bone references", rec->at + 152));
    for (uint32_t k = 0; k < rec->refs; k++) {
        size_t at = r->pos;
        uint32_t bone;
        OSSA_TRY(ossa_rd_u32(r, &bone, "bone reference"));
        if (bone >= p0->bones)
            return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)at,
                             "bone reference %u names bone %u, the model has %u", k, bone,
                             p0->bones);
        referenced[bone] = true;
    }
    OSSA_TRY(seek_table(r, rec->ofs_texcoords, rec->verts, 8, "texture coordinates",
                        rec->at + 144));
    OSSA_TRY(seek_table(r, rec->ofs_indices, rec->tris, 12, "triangles", rec->at + 148));
    /* The smallest vertex is a count and one influence. */
    OSSA_TRY(seek_table(r, rec->ofs_verts, rec->verts, 4 + SKM_BONEVERT_BYTES, "vertices",
                        rec->at + 140));
    uint32_t total = 0;
    OSSA_TRY(count_influences(*r, rec->verts, &total));

    size_t nv = rec->verts;
    float *pos, *nrm, *uv, *points;
    uint32_t *start, *indices;
    ossa_influence *inf;
    OSSA_TRY(ossa_build_array(b, &pos, 3 * nv, sizeof *pos));
    OSSA_TRY(ossa_build_array(b, &nrm, 3 * nv, sizeof *nrm));
    OSSA_TRY(ossa_build_array(b, &uv, 2 * nv, sizeof *uv));
    OSSA_TRY(ossa_build_array(b, &start, nv + 1, sizeof *start));
    OSSA_TRY(ossa_build_array(b, &inf, total, sizeof *inf));
    OSSA_TRY(ossa_build_array(b, &points, total, 3 * sizeof *points));
    OSSA_TRY(ossa_build_array(b, &indices, 3 * (size_t)rec->tris, sizeof *indices));
    sm->vertex_count = rec->verts;
    sm->face_count = rec->tris;
    sm->uv_set_count = 1;
    sm->positions = pos;
    sm->normals = nrm;
    sm->uvs = uv;
    sm->influence_start = start;
    sm->influences = inf;
    sm->influence_points = points;
    sm->indices = indices;

    uint32_t next = 0;
    for (uint32_t v = 0; v < rec->verts; v++)
        OSSA_TRY(ossa_fail_context(b, read_vertex(r, p0, referenced, sm, v, &next, unlisted),
                                   "vertex %u", v));
    r->pos = rec->ofs_texcoords;
    for (uint32_t v = 0; v < rec->verts; v++) {
        OSSA_TRY(ossa_rd_f32v(r, uv + 2 * (size_t)v, 2, "texture coordinate"));
        if (b->opt.invert_v)
            uv[2 * (size_t)v + 1] = 1.0f - uv[2 * (size_t)v + 1];
    }
    r->pos = rec->ofs_indices;
    for (size_t i = 0; i < 3 * (size_t)rec->tris; i++) {
        size_t at = r->pos;
        OSSA_TRY(ossa_rd_u32(r, &indices[i], "triangle index"));
        if (indices[i] >= rec->verts)
            return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)at,
                             "triangle %zu uses vertex %u, the mesh has %u", i / 3, indices[i],
                             rec->verts);
    }
    return OSSA_OK;
}

/* An .skm read without its pose file: unposed roots, so the mesh reads as stored. */
static ossa_status stand_in_skeleton(ossa_build *b, uint32_t n)
{
    ossa_bone *bones;
    OSSA_TRY(ossa_build_array(b, &bones, n, sizeof *bones));
    for (uint32_t j = 0; j < n; j++) {
        char name[32];
        int len = snprintf(name, sizeof name, "bone%u", j);
        OSSA_TRY(ossa_build_strndup(b, &bones[j].name, name, (size_t)len));
        bones[j].parent = -1;
        bones[j].source_index = j;
        bones[j].rest_r[3] = bones[j].inv_bind_r[3] = 1.0f;
        bones[j].rest_s[0] = bones[j].rest_s[1] = bones[j].rest_s[2] = 1.0f;
    }
    OSSA_TRY(ossa_build_set_skeleton(b, bones, n));
    b->model->skeleton_format = OSSA_FORMAT_SKM;
    b->model->skeleton_version = SKM_MODELTYPE;
    ossa_warn(b, "no pose file (.skp) was read: %u stand-in bones at the origin", n);
    return OSSA_OK;
}

ossa_status ossa_read_skm(ossa_build *b, const uint8_t *data, size_t size)
{
    ossa_reader r;
    ossa_reader_init(&r, b, data, size);
    OSSA_TRY(read_file_header(&r, "SKM", SKM_HEADER_BYTES));
    uint32_t num_bones, num_meshes, ofs_meshes;
    OSSA_TRY(read_count(&r, &num_bones, 1, SKM_MAX_BONES, "bone count"));
    OSSA_TRY(read_count(&r, &num_meshes, 1, SKM_MAX_MESHES, "mesh count"));
    OSSA_TRY(ossa_rd_u32(&r, &ofs_meshes, "mesh table offset"));
    OSSA_TRY(seek_table(&r, ofs_meshes, num_meshes, SKM_MESH_BYTES, "mesh records", 20));
    ossa_model *m = b->model;
    if (!m->bone_count)
        OSSA_TRY(stand_in_skeleton(b, num_bones));
    else if (m->bone_count != num_bones)
        return ossa_fail(b, OSSA_ERR_MISMATCH, 12, "the mesh has %u bones, its skeleton %u",
                         num_bones, m->bone_count);

    skm_pose0 *p0;
    OSSA_TRY(ossa_build_array(b, &p0, 1, sizeof *p0));
    p0->bones = num_bones;
    bind_poses(m->bones, num_bones, p0->t, p0->r);

    /* LOD files share the base model's skeleton and frames (checked above: same bone count). */
    uint32_t file_lod = 0;
    size_t stem_len = strlen(b->stem);
    stem_len -= ossa_skm_lod_suffix(b->stem, stem_len, &file_lod);

    skm_record *recs;
    ossa_submesh *subs;
    OSSA_TRY(ossa_build_array(b, &recs, num_meshes, sizeof *recs));
    OSSA_TRY(ossa_build_array(b, &subs, num_meshes, sizeof *subs));
    for (uint32_t i = 0; i < num_meshes; i++) {
        r.pos = ofs_meshes + (size_t)i * SKM_MESH_BYTES;
        OSSA_TRY(ossa_fail_context(b, read_record(&r, &recs[i]), "mesh %u", i));
    }
    for (uint32_t i = 0; i < num_meshes; i++) {
        uint32_t unlisted = 0;
        OSSA_TRY(ossa_fail_context(b, read_mesh_data(&r, &recs[i], p0, &subs[i], &unlisted),
                                   "mesh %u ('%s')", i, recs[i].name));
        OSSA_TRY(shader_material(b, recs[i].shader, &subs[i].material));
        if (unlisted)
            ossa_warn(b, "mesh %u ('%s'): %u influences use bones its reference list does not "
                      "name (Qfusion leaves those unposed)", i, recs[i].name, unlisted);
    }

    /* Consecutive records of one mesh name are one mesh with a submesh each. */
    for (uint32_t i = 0; i < num_meshes;) {
        uint32_t lod = 0;
        size_t len = strlen(recs[i].name);
        len -= ossa_skm_lod_suffix(recs[i].name, len, &lod);
        uint32_t run = 1;
        while (i + run < num_meshes && strcmp(recs[i + run].name, recs[i].name) == 0)
            run++;
        ossa_mesh *mesh = ossa_build_push_mesh(b);
        if (!mesh)
            return OSSA_ERR_NOMEM;
        if (len)
            OSSA_TRY(ossa_build_strndup(b, &mesh->name, recs[i].name, len));
        else
            OSSA_TRY(ossa_build_strndup(b, &mesh->name, b->stem, stem_len));
        mesh->submesh_count = run;
        mesh->submeshes = subs + i;
        mesh->format = OSSA_FORMAT_SKM;
        mesh->version = SKM_MODELTYPE;
        mesh->lod = file_lod ? file_lod : lod;
        i += run;
    }
    float d = p0->disagreement < 3.0e38 ? (float)p0->disagreement : 3.0e38f;
    if (d > m->bind_disagreement)
        m->bind_disagreement = d;
    return OSSA_OK;
}
