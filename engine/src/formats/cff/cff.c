/* Corsairs / Sea Dogs (2000) model (CFF), docs/FORMATS.md, CFF, D8 and D11.
 *
 * Layout: a 44-byte header (origin, scale, texture / material / LOD counts, BSP offset, LOD
 * distance), texture names (u8 length + chars), material blocks (36 bytes, an entry count, 20
 * bytes per entry; their meaning is unknown, they are skipped), then per LOD a mesh count, a zero
 * word and the meshes: a 44-byte header, 13-byte vertices, faces of u8 indices when the mesh has
 * at most 256 vertices (u16 otherwise) and 28-byte animation frames.
 *
 * What Ossa makes of it:
 *  - every mesh of every LOD becomes one ossa_mesh (lod = its LOD) with one submesh, and one root
 *    bone; each vertex is bound to its mesh's bone with weight 1 (rigid parts);
 *  - a vertex position is origin + raw x scale / 32767 per axis, raw a SIGNED 16-bit integer
 *    (D8; ossa_cff_position_readings reports the half-float reading too). Those are
 *    mesh-local coordinates; a frame maps them to T + Rz(Rx(Ry(p))) (D11) with the
 *    usual right-hand rotation matrices applied to the stored numbers;
 *  - the first frame is the rest state (the spec's words): bone rest = frame 0, the inverse bind
 *    its inverse and the bind positions frame 0 applied to the local ones. A mesh without frames
 *    rests at the identity;
 *  - all frames form one clip named after the file, frame k at k / 25 s, duration = the largest
 *    frame count / 25 (so it loops like an SKP clip); each key keeps the frame's seventh value in
 *    ossa_track.extra;
 *  - axes: the stored numbers are used as they are, Y up, in Ossa's right-handed frame, with the
 *    stored triangle order (as the 3ds Max importer does for animated meshes). The game drew with
 *    Direct3D's left-handed convention, so a model may look mirrored front to back compared with
 *    the game; nothing is flipped, which keeps the writer's round trip exact;
 *  - uv = raw (signed 16-bit) / the mesh's divisor; colour = byte / 127 (the 010 template's
 *    reading; 127 is full intensity); normals, which the format lacks, are computed from the
 *    faces (area weighted) in the mesh's own space;
 *  - one material per texture name, with that file as its only map. */
#include <stdio.h>
#include <string.h>

#include "ossa/limits.h"
#include "core/quat.h"
#include "formats/cff/cff_read.h"
#include "io/texture_path.h"

/* ---- header, textures, materials ---- */

static ossa_status read_header(cff_file *f)
{
    ossa_reader *r = &f->r;
    float v[6];
    if (ossa_rd_left(r) < CFF_HEADER_BYTES)
        return ossa_fail(f->b, OSSA_ERR_TRUNCATED, 0,
                         "a CFF header needs %d bytes, the file has %zu", CFF_HEADER_BYTES,
                         ossa_rd_left(r));
    OSSA_TRY(ossa_rd_f32v(r, v, 3, "header origin"));
    OSSA_TRY(ossa_rd_f32v(r, v + 3, 3, "header scale"));
    for (int k = 0; k < 3; k++) {
        f->origin[k] = v[k];
        f->scale[k] = v[3 + k];
        /* |raw| <= 32768: the farthest a vertex can lie from 0 along this axis. */
        if (fabs(f->origin[k]) + fabs(f->scale[k]) * (32768.0 / 32767.0) > CFF_MAX_COORD)
            return ossa_fail(f->b, OSSA_ERR_VALUE,
                             fabs(f->origin[k]) > 0.5 * CFF_MAX_COORD ? 4 * k : 12 + 4 * k,
                             "header origin %g and scale %g put vertices beyond %g", f->origin[k],
                             f->scale[k], CFF_MAX_COORD);
    }
    OSSA_TRY(ossa_cff_read_count(r, &f->texture_count, OSSA_MAX_FILES, 1, "texture count"));
    OSSA_TRY(ossa_cff_read_count(r, &f->material_count, OSSA_MAX_SUBMESHES,
                                 CFF_MATERIAL_BYTES + 4, "material count"));
    OSSA_TRY(ossa_cff_read_count(r, &f->lod_count, OSSA_MAX_SUBMESHES, CFF_LOD_HEADER_BYTES,
                                 "LOD count"));
    OSSA_TRY(ossa_rd_u32(r, &f->bsp_offset, "BSP section offset"));
    float lod_distance;
    return ossa_rd_f32_raw(r, &lod_distance, "LOD switch distance"); /* not used */
}

/* Every texture name becomes a material of that name whose one map is the file. */
static ossa_status read_textures(cff_file *f)
{
    for (uint32_t i = 0; i < f->texture_count; i++) {
        uint8_t len;
        OSSA_TRY(ossa_rd_u8(&f->r, &len, "texture name length"));
        const char *text = (const char *)f->r.data + f->r.pos;
        OSSA_TRY(ossa_rd_skip(&f->r, len, "texture name"));
        size_t n = 0;
        while (n < len && text[n])
            n++;
        ossa_texture_map *map;
        OSSA_TRY(ossa_build_array(f->b, &map, 1, sizeof *map));
        OSSA_TRY(ossa_build_strndup(f->b, &map->file, text, n));
        OSSA_TRY(ossa_texture_path(f->b, map->file, n, &map->path));
        map->type = "";
        ossa_material *mat = ossa_build_push_material(f->b);
        if (!mat)
            return OSSA_ERR_NOMEM;
        mat->name = map->file;
        for (int k = 0; k < 4; k++)
            mat->ambient[k] = mat->diffuse[k] = mat->specular[k] = 1.0f;
        mat->map_count = map->path ? 1 : 0;
        mat->maps = map;
        if (!map->path) /* outside the model's folders: the name's last part only, no map */
            mat->name = ossa_path_last_part(map->file);
        mat->format = OSSA_FORMAT_CFF;
    }
    return OSSA_OK;
}

/* Material blocks: their fields are unknown (texture index, flags, a float), so only their
 * structure is checked. */
static ossa_status skip_materials(cff_file *f)
{
    for (uint32_t i = 0; i < f->material_count; i++) {
        uint32_t entries;
        ossa_status st = ossa_rd_skip(&f->r, CFF_MATERIAL_BYTES, "material block");
        if (st == OSSA_OK)
            st = ossa_cff_read_count(&f->r, &entries, OSSA_MAX_MAPS, CFF_MATERIAL_ENTRY_BYTES,
                                     "material entry count");
        if (st == OSSA_OK)
            st = ossa_rd_skip(&f->r, (size_t)entries * CFF_MATERIAL_ENTRY_BYTES,
                              "material entries");
        OSSA_TRY(ossa_fail_context(f->b, st, "material %u", i));
    }
    return OSSA_OK;
}

/* ---- bones and the clip ---- */

/* A bone name per part: the mesh name ("mesh<i>" when empty), "_lod<L>" for coarser LODs, and
 * "#<i>" when that is still taken, so that look-ups by name find each part. */
static ossa_status make_bone_names(ossa_build *b, const cff_part *parts, uint32_t n,
                                   ossa_bone *bones)
{
    for (uint32_t i = 0; i < n; i++) {
        char name[64];
        int len;
        if (parts[i].name[0])
            len = snprintf(name, sizeof name, "%s", parts[i].name);
        else
            len = snprintf(name, sizeof name, "mesh%u", i);
        if (parts[i].lod)
            len += snprintf(name + len, sizeof name - (size_t)len, "_lod%u", parts[i].lod);
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(bones[j].name, name) == 0) {
                len += snprintf(name + len, sizeof name - (size_t)len, "#%u", i);
                break;
            }
        OSSA_TRY(ossa_build_strndup(b, &bones[i].name, name, (size_t)len));
    }
    return OSSA_OK;
}

static ossa_status build_skeleton(cff_file *f, const cff_part *parts)
{
    ossa_bone *bones;
    OSSA_TRY(ossa_build_array(f->b, &bones, f->mesh_total, sizeof *bones));
    OSSA_TRY(make_bone_names(f->b, parts, f->mesh_total, bones));
    for (uint32_t i = 0; i < f->mesh_total; i++) {
        ossa_bone *bn = &bones[i];
        bn->parent = -1;
        memcpy(bn->rest_t, parts[i].rest_t, sizeof bn->rest_t);
        memcpy(bn->rest_r, parts[i].rest_r, sizeof bn->rest_r);
        bn->rest_s[0] = bn->rest_s[1] = bn->rest_s[2] = 1.0f;
        /* Inverse of the rest state: R^-1 = conj(R), T^-1 = -(R^-1 T). */
        float inv_r[4] = {-bn->rest_r[0], -bn->rest_r[1], -bn->rest_r[2], bn->rest_r[3]}, t[3];
        cff_quat_rotate(inv_r, bn->rest_t, t);
        for (int k = 0; k < 3; k++)
            bn->inv_bind_t[k] = -t[k];
        memcpy(bn->inv_bind_r, inv_r, sizeof inv_r);
    }
    OSSA_TRY(ossa_build_set_skeleton(f->b, bones, f->mesh_total));
    f->b->model->skeleton_format = OSSA_FORMAT_CFF;
    f->b->model->skeleton_version = 0;
    return OSSA_OK;
}

/* One clip for the whole file: a track per mesh with frames. */
static ossa_status build_clip(cff_file *f, const cff_part *parts)
{
    uint32_t tracks = 0;
    for (uint32_t i = 0; i < f->mesh_total; i++)
        tracks += parts[i].frame_count > 0;
    if (!tracks)
        return OSSA_OK;
    ossa_track *track;
    OSSA_TRY(ossa_build_array(f->b, &track, tracks, sizeof *track));
    uint32_t t = 0;
    for (uint32_t i = 0; i < f->mesh_total; i++) {
        if (!parts[i].frame_count)
            continue;
        track[t].bone = i;
        track[t].key_count = parts[i].frame_count;
        track[t].times = parts[i].times;
        track[t].translations = parts[i].translations;
        track[t].rotations = parts[i].rotations;
        track[t].extra = parts[i].extra;
        t++;
    }
    ossa_clip *clip = ossa_build_push_clip(f->b);
    if (!clip)
        return OSSA_ERR_NOMEM;
    const char *stem = f->b->stem && f->b->stem[0] ? f->b->stem : "cff";
    OSSA_TRY(ossa_build_strndup(f->b, &clip->name, stem, strlen(stem)));
    clip->duration = (float)f->max_frames / cff_frame_rate(f->b);
    clip->frame_rate = cff_frame_rate(f->b);
    clip->track_count = tracks;
    clip->tracks = track;
    clip->format = OSSA_FORMAT_CFF;
    return OSSA_OK;
}

static ossa_status read_cff(ossa_build *b, const uint8_t *data, size_t size, cff_file *f)
{
    f->b = b;
    ossa_reader_init(&f->r, b, data, size);
    b->last_version = 0; /* the format has no version */
    OSSA_TRY(read_header(f));
    OSSA_TRY(read_textures(f));
    OSSA_TRY(skip_materials(f));
    OSSA_TRY(ossa_cff_scan_lods(f, f->r));
    if (f->mesh_total == 0) {
        ossa_warn(b, "the file has no meshes");
    } else {
        cff_part *parts;
        OSSA_TRY(ossa_build_array(b, &parts, f->mesh_total, sizeof *parts));
        uint32_t next = 0;
        for (uint32_t l = 0; l < f->lod_count; l++) {
            uint32_t meshes;
            OSSA_TRY(ossa_rd_u32(&f->r, &meshes, "mesh count"));
            OSSA_TRY(ossa_rd_skip(&f->r, 4, "LOD reserved word"));
            for (uint32_t i = 0; i < meshes; i++, next++)
                OSSA_TRY(ossa_fail_context(
                    b,
                    ossa_fail_context(b, ossa_cff_read_mesh(f, l, next, &parts[next]), "mesh %u",
                                      i),
                    "LOD %u", l));
        }
        OSSA_TRY(build_skeleton(f, parts));
        OSSA_TRY(build_clip(f, parts));
    }
    /* A BSP section (collision data for locations) may follow; Ossa does not use it. */
    size_t end = f->r.pos;
    if (f->bsp_offset && f->bsp_offset != end)
        ossa_warn(b, "the BSP section offset is %u but the LODs end at %zu", f->bsp_offset, end);
    else if (!f->bsp_offset && ossa_rd_left(&f->r))
        ossa_warn(b, "%zu bytes after the last LOD ignored", ossa_rd_left(&f->r));
    return OSSA_OK;
}

/* The header's checks on a file's first bytes before it is read whole (the format has no
 * magic; docs/FORMATS.md, "CFF"): the reader runs over the head as if it held the whole file,
 * so that every count is checked against the file's real size with the reader's own messages;
 * the 44 header bytes it reads are in the head. A header with no texture and no LOD holds
 * nothing to load (an all-zero file of any size has that header). */
ossa_status ossa_cff_check_head(ossa_build *b, const uint8_t *head, size_t n, uint64_t file_size)
{
    cff_file f;
    memset(&f, 0, sizeof f);
    f.b = b;
    size_t size = file_size > SIZE_MAX ? SIZE_MAX : (size_t)file_size;
    if (n < CFF_HEADER_BYTES && n < size)
        return ossa_fail(b, OSSA_ERR_IO, -1, "read %zu of the %d header bytes", n,
                         CFF_HEADER_BYTES);
    ossa_reader_init(&f.r, b, head, n < CFF_HEADER_BYTES ? n : size);
    OSSA_TRY(read_header(&f));
    if (f.texture_count == 0 && f.lod_count == 0)
        return ossa_fail(b, OSSA_ERR_FORMAT, 24, "the CFF header counts no textures and no LODs: "
                         "nothing to load");
    return OSSA_OK;
}

ossa_status ossa_read_cff(ossa_build *b, const uint8_t *data, size_t size)
{
    cff_file f;
    memset(&f, 0, sizeof f);
    return read_cff(b, data, size, &f);
}

ossa_status ossa_cff_position_readings(const void *data, size_t size, const char *name,
                                       ossa_cff_position_reading *as_integer,
                                       ossa_cff_position_reading *as_half, ossa_error *err)
{
    ossa_error_clear(err);
    memset(as_integer, 0, sizeof *as_integer);
    memset(as_half, 0, sizeof *as_half);
    ossa_build b;
    if (!ossa_build_init(&b, err, NULL)) {
        if (err) {
            err->status = OSSA_ERR_NOMEM;
            snprintf(err->message, sizeof err->message, "cannot allocate a model");
        }
        return OSSA_ERR_NOMEM;
    }
    cff_file f;
    memset(&f, 0, sizeof f);
    f.as_integer = as_integer;
    f.as_half = as_half;
    ossa_status st = ossa_build_set_file(&b, name ? name : "");
    if (st == OSSA_OK)
        st = read_cff(&b, data ? data : (const void *)"", data ? size : 0, &f);
    ossa_model *m = NULL;
    st = ossa_build_finish(&b, st, &m);
    ossa_model_destroy(m);
    return st;
}
