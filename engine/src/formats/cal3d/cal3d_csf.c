/* Cal3D binary skeleton (CSF), docs/FORMATS.md, CSF layout. Bones are read in file order and handed
 * to ossa_build_set_skeleton, which reorders them parents-first and records the file-id mapping
 * that meshes and animations read later use. A 1300/1301 file is read in the layout that fits it,
 * with or without node lights (cal3d_version.c). */
#include <stdio.h>
#include <string.h>
#include "ossa/limits.h"
#include "core/reader.h"
#include "formats/formats.h"

/* Smallest possible bone: empty-name length, 14 floats, parent id, child count. */
#define CSF_MIN_BONE_BYTES (4u + 14u * 4u + 4u + 4u)
/* Node lights (IMVU >= 911, upstream >= 1300) add a light type and a colour. */
#define CSF_LIGHT_BYTES (4u + 3u * 4u)

/* Prefixes the error just raised with the bone being read, so messages say where it was. */
static ossa_status bone_context(ossa_build *b, ossa_status st, uint32_t bone)
{
    if (st == OSSA_OK || !b->err || b->err->status != st)
        return st;
    char where[32];
    int wl = snprintf(where, sizeof where, "bone %u: ", bone);
    char *msg = b->err->message;
    size_t cap = sizeof b->err->message - 1, ml = strlen(msg);
    if (ml > cap - (size_t)wl)
        ml = cap - (size_t)wl;
    memmove(msg + wl, msg, ml);
    msg[(size_t)wl + ml] = '\0';
    memcpy(msg, where, (size_t)wl);
    return st;
}

static ossa_status read_bone(ossa_reader *r, ossa_bone *bone, uint32_t index, uint32_t count,
                             bool lights)
{
    ossa_build *b = r->b;
    OSSA_TRY(ossa_rd_cal3d_string(r, &bone->name, "bone name"));
    OSSA_TRY(ossa_rd_f32v(r, bone->rest_t, 3, "bone translation"));
    OSSA_TRY(ossa_rd_f32v(r, bone->rest_r, 4, "bone rotation"));
    OSSA_TRY(ossa_rd_f32v(r, bone->inv_bind_t, 3, "bone local translation"));
    OSSA_TRY(ossa_rd_f32v(r, bone->inv_bind_r, 4, "bone local rotation"));
    ossa_cal3d_quat_to_hamilton(bone->rest_r);
    ossa_cal3d_quat_to_hamilton(bone->inv_bind_r);
    bone->rest_s[0] = bone->rest_s[1] = bone->rest_s[2] = 1.0f;
    bone->source_index = index;

    size_t at = r->pos;
    int32_t parent;
    OSSA_TRY(ossa_rd_i32(r, &parent, "parent id"));
    if (parent < -1 || parent >= (int32_t)count || parent == (int32_t)index)
        return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)at,
                         "'%s' has parent id %d, not -1 or another bone of 0..%u", bone->name,
                         parent, count - 1);
    bone->parent = parent;

    if (lights) {
        OSSA_TRY(ossa_rd_i32(r, &bone->light_type, "light type"));
        OSSA_TRY(ossa_rd_f32v(r, bone->light_color, 3, "light colour"));
        if (bone->light_type < 0 || bone->light_type > 4)
            ossa_warn(b, "bone %u ('%s'): unknown light type %d", index, bone->name,
                      bone->light_type);
    }

    uint32_t child_count;
    OSSA_TRY(ossa_rd_count(r, &child_count, OSSA_MAX_CHILDREN, 4, "child count"));
    bone->child_count = child_count;
    if (child_count == 0)
        return OSSA_OK;
    uint32_t *children;
    OSSA_TRY(ossa_build_array(b, &children, child_count, sizeof *children));
    for (uint32_t c = 0; c < child_count; c++) {
        at = r->pos;
        int32_t child;
        OSSA_TRY(ossa_rd_i32(r, &child, "child id"));
        if (child < 0 || child >= (int32_t)count || child == (int32_t)index)
            return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)at,
                             "'%s' child %u has id %d, not another bone of 0..%u", bone->name, c,
                             child, count - 1);
        children[c] = (uint32_t)child;
    }
    bone->children = children;
    return OSSA_OK;
}

/* The whole file in one layout (how: upstream or mp3butcher for 1300/1301). Nothing reaches
 * the model until every bone is read and, in exact mode, the file has ended. */
static ossa_status read_csf_layout(ossa_build *b, const uint8_t *data, size_t size,
                                   ossa_cal3d_attempt *how)
{
    ossa_reader r;
    ossa_reader_init(&r, b, data, size);
    char magic[4];
    OSSA_TRY(ossa_rd_bytes(&r, magic, 4, "CSF magic"));
    if (memcmp(magic, "CSF\0", 4) != 0)
        return ossa_fail(b, OSSA_ERR_FORMAT, 0, "not a Cal3D skeleton: magic is not \"CSF\"");
    int32_t version;
    OSSA_TRY(ossa_rd_i32(&r, &version, "CSF version"));
    ossa_cal3d_lineage lineage;
    OSSA_TRY(ossa_cal3d_check_version(b, version, 4, 0, &lineage));
    lineage = ossa_cal3d_attempt_lineage(lineage, how);
    b->last_version = (uint32_t)version;
    /* IMVU and upstream write a scene ambient colour and per-bone node lights; the mp3butcher fork
     * disabled both (docs/FORMATS.md, Cal3D version thresholds). */
    bool lights = lineage == OSSA_CAL3D_IMVU || lineage == OSSA_CAL3D_UPSTREAM;

    size_t count_at = r.pos;
    uint32_t count;
    OSSA_TRY(ossa_rd_count(&r, &count, OSSA_MAX_BONES,
                           CSF_MIN_BONE_BYTES + (lights ? CSF_LIGHT_BYTES : 0), "bone count"));
    if (count == 0)
        return ossa_fail(b, OSSA_ERR_FORMAT, (int64_t)count_at, "skeleton has no bones");

    float ambient[3] = {0.0f, 0.0f, 0.0f};
    if (lights)
        OSSA_TRY(ossa_rd_f32v(&r, ambient, 3, "scene ambient colour"));

    /* File-order bones live in the arena only until set_skeleton copies them. */
    ossa_bone *file_bones;
    OSSA_TRY(ossa_build_array(b, &file_bones, count, sizeof *file_bones));
    for (uint32_t i = 0; i < count; i++)
        OSSA_TRY(bone_context(b, read_bone(&r, &file_bones[i], i, count, lights), i));
    if (ossa_rd_left(&r)) {
        if (how->exact) {
            how->trailing = ossa_rd_left(&r);
            return ossa_fail(b, OSSA_ERR_FORMAT, (int64_t)r.pos,
                             "%zu bytes after the last bone", ossa_rd_left(&r));
        }
        ossa_warn(b, "%zu bytes after the last bone ignored", ossa_rd_left(&r));
    }

    OSSA_TRY(ossa_build_set_skeleton(b, file_bones, count));
    ossa_model *m = b->model;
    if (lights) {
        memcpy(m->scene_ambient, ambient, sizeof ambient);
        m->has_scene_ambient = 1;
    }
    m->skeleton_format = OSSA_FORMAT_CSF;
    m->skeleton_version = (uint32_t)version;
    m->skeleton_lineage = lineage;
    return OSSA_OK;
}

ossa_status ossa_read_csf(ossa_build *b, const uint8_t *data, size_t size)
{
    return ossa_cal3d_read_lineage(b, data, size, "CSF", read_csf_layout);
}
