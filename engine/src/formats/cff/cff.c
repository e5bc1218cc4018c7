/* Corsairs / Sea Dogs (2000) model (CFF), FORMAT-NOTES section G and Decisions 8 and 11.
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
 *    (Decision 8; ossa_cff_position_readings reports the half-float reading too). Those are
 *    mesh-local coordinates; a frame maps them to T + Rz(Rx(Ry(p))) (Decision 11) with the
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
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/checked.h"
#include "ossa/limits.h"
#include "core/quat.h"
#include "core/reader.h"
#include "formats/cff/cff.h"
#include "formats/formats.h"

enum {
    CFF_HEADER_BYTES = 44, /* G says 40 but lists 11 four-byte fields, as the readers read */
    CFF_MATERIAL_BYTES = 36,
    CFF_MATERIAL_ENTRY_BYTES = 20,
    CFF_LOD_HEADER_BYTES = 8,
    CFF_MESH_HEADER_BYTES = 44,
    CFF_VERTEX_BYTES = 13,
    CFF_FRAME_BYTES = 28,
    CFF_MAX_BYTE_INDEXED = 256 /* "<= 256 vertices: u8 indices" (010 template, MAXScript) */
};

/* Positions, translations and texture coordinates are kept this far from Inf: the pose and
 * skinning stages multiply and add them, and validation rejects anything beyond 1e15. */
#define CFF_MAX_COORD 1e12
/* The smallest UV divisor magnitude: 32768 / 1e-6 still leaves the uv far below CFF_MAX_COORD. */
#define CFF_MIN_UV_DIVISOR 1e-6

typedef struct cff_file {
    ossa_build *b;
    ossa_reader r;
    double origin[3], scale[3];
    uint32_t texture_count, material_count, lod_count, bsp_offset;
    uint32_t mesh_total;     /* over all LODs */
    uint32_t max_frames;
    ossa_cff_position_reading *as_integer, *as_half; /* NULL unless asked for */
} cff_file;

typedef struct cff_mesh_head {
    size_t at;               /* offset of the mesh header */
    float uv_divisor;
    uint32_t texture, vertex_count, face_count, frame_count;
    char name[5];
} cff_mesh_head;

/* One mesh as the model will hold it; the bones are made once every mesh is read. */
typedef struct cff_part {
    const char *name;        /* as in the file (cleaned up) */
    uint32_t lod;
    uint32_t frame_count;
    float rest_t[3], rest_r[4];
    const float *times, *translations, *rotations, *extra;
} cff_part;

/* Frames play at the load option's rate (validated by the loader), else Decision 11's 25. */
static float cff_frame_rate(const ossa_build *b)
{
    return b->opt.frame_rate > 0.0f ? b->opt.frame_rate : OSSA_CFF_FRAME_RATE;
}

/* An unsigned count with a hard cap; each element needs at least min_bytes_each of what is left. */
static ossa_status read_count(ossa_reader *r, uint32_t *out, uint32_t cap, size_t min_bytes_each,
                              const char *what)
{
    size_t at = r->pos;
    OSSA_TRY(ossa_rd_u32(r, out, what));
    if (*out > cap)
        return ossa_fail(r->b, OSSA_ERR_RANGE, (int64_t)at, "%s %u exceeds the limit of %u", what,
                         *out, cap);
    if (min_bytes_each && *out > ossa_rd_left(r) / min_bytes_each)
        return ossa_fail(r->b, OSSA_ERR_TRUNCATED, (int64_t)at,
                         "%s %u needs at least %zu bytes, only %zu left", what, *out,
                         (size_t)*out * min_bytes_each, ossa_rd_left(r));
    return OSSA_OK;
}

/* ---- small Hamilton quaternion helpers (x, y, z, w) ---- */

/* Rotation of a frame: Y first, then X, then Z (Decision 11), i.e. q = qz qx qy. */
static void frame_rotation(const float angles[3], float q[4])
{
    double hx = 0.5 * angles[0], hy = 0.5 * angles[1], hz = 0.5 * angles[2];
    double qx[4] = {sin(hx), 0, 0, cos(hx)}, qy[4] = {0, sin(hy), 0, cos(hy)};
    double qz[4] = {0, 0, sin(hz), cos(hz)}, t[4], out[4];
    ossa_quat_mul_d(qz, qx, t);
    ossa_quat_mul_d(t, qy, out);
    for (int k = 0; k < 4; k++)
        q[k] = (float)out[k];
}

/* v' = q v q* for a unit q: float in and out, computed in double. */
static void quat_rotate(const float q[4], const float v[3], float out[3])
{
    double vd[3] = {v[0], v[1], v[2]}, r[3];
    ossa_quat_rotate_d(q, vd, r);
    for (int k = 0; k < 3; k++)
        out[k] = (float)r[k];
}

/* ---- half floats (the reading of Decision 8 that Ossa does not use) ---- */

static float half_to_float(uint16_t h)
{
    int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    double v;
    if (exponent == 0)
        v = ldexp(mantissa, -24);
    else if (exponent == 31)
        v = mantissa ? NAN : INFINITY;
    else
        v = ldexp(mantissa + 1024, exponent - 25);
    return (float)((h & 0x8000) ? -v : v);
}

static void reading_add(ossa_cff_position_reading *s, const float p[3])
{
    s->vertices++;
    if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) {
        s->non_finite++;
        return;
    }
    bool first = s->vertices - s->non_finite == 1;
    for (int k = 0; k < 3; k++) {
        if (first || p[k] < s->min[k])
            s->min[k] = p[k];
        if (first || p[k] > s->max[k])
            s->max[k] = p[k];
    }
}

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
    OSSA_TRY(read_count(r, &f->texture_count, OSSA_MAX_FILES, 1, "texture count"));
    OSSA_TRY(read_count(r, &f->material_count, OSSA_MAX_SUBMESHES,
                        CFF_MATERIAL_BYTES + 4, "material count"));
    OSSA_TRY(read_count(r, &f->lod_count, OSSA_MAX_SUBMESHES, CFF_LOD_HEADER_BYTES, "LOD count"));
    OSSA_TRY(ossa_rd_u32(r, &f->bsp_offset, "BSP section offset"));
    float lod_distance;
    return ossa_rd_f32_raw(r, &lod_distance, "LOD switch distance"); /* not used */
}

/* Texture file named by the model, found next to it (absolute names are kept). */
static ossa_status texture_path(ossa_build *b, const char *file, const char **out)
{
    if (file[0] == '/' || !b->dir[0]) {
        *out = file;
        return OSSA_OK;
    }
    size_t dl = strlen(b->dir), fl = strlen(file);
    char *path;
    OSSA_TRY(ossa_build_array(b, &path, dl + fl + 1, 1));
    memcpy(path, b->dir, dl);
    memcpy(path + dl, file, fl + 1);
    *out = path;
    return OSSA_OK;
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
        OSSA_TRY(texture_path(f->b, map->file, &map->path));
        map->type = "";
        ossa_material *mat = ossa_build_push_material(f->b);
        if (!mat)
            return OSSA_ERR_NOMEM;
        mat->name = map->file;
        for (int k = 0; k < 4; k++)
            mat->ambient[k] = mat->diffuse[k] = mat->specular[k] = 1.0f;
        mat->map_count = 1;
        mat->maps = map;
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
            st = read_count(&f->r, &entries, OSSA_MAX_MAPS, CFF_MATERIAL_ENTRY_BYTES,
                            "material entry count");
        if (st == OSSA_OK)
            st = ossa_rd_skip(&f->r, (size_t)entries * CFF_MATERIAL_ENTRY_BYTES,
                              "material entries");
        OSSA_TRY(ossa_fail_context(f->b, st, "material %u", i));
    }
    return OSSA_OK;
}

/* ---- meshes ---- */

static size_t index_bytes(uint32_t vertex_count)
{
    return vertex_count <= CFF_MAX_BYTE_INDEXED ? 1 : 2;
}

/* Reads a mesh header and checks that the data it announces fits in the bytes left. */
static ossa_status read_mesh_head(ossa_reader *r, cff_mesh_head *h)
{
    h->at = r->pos;
    float unused;
    uint32_t unknown;
    if (ossa_rd_left(r) < CFF_MESH_HEADER_BYTES)
        return ossa_fail(r->b, OSSA_ERR_TRUNCATED, (int64_t)r->pos,
                         "a mesh header needs %d bytes, only %zu left", CFF_MESH_HEADER_BYTES,
                         ossa_rd_left(r));
    OSSA_TRY(ossa_rd_skip(r, 12, "mesh origin")); /* not used by any reader */
    OSSA_TRY(ossa_rd_f32_raw(r, &h->uv_divisor, "UV divisor"));
    OSSA_TRY(ossa_rd_f32_raw(r, &unused, "mesh radius"));
    OSSA_TRY(ossa_rd_u32(r, &h->texture, "texture index"));
    size_t counts_at = r->pos;
    OSSA_TRY(read_count(r, &h->vertex_count, OSSA_MAX_VERTICES, 0, "vertex count"));
    OSSA_TRY(read_count(r, &h->face_count, OSSA_MAX_FACES, 0, "face count"));
    OSSA_TRY(ossa_rd_u32(r, &unknown, "mesh flags")); /* always 1 in the game's files */
    OSSA_TRY(read_count(r, &h->frame_count, OSSA_MAX_KEYS, 0, "frame count"));
    OSSA_TRY(ossa_rd_bytes(r, h->name, 4, "mesh name"));
    h->name[4] = '\0';
    size_t vb = (size_t)h->vertex_count * CFF_VERTEX_BYTES;
    size_t fb = (size_t)h->face_count * 3 * index_bytes(h->vertex_count);
    size_t kb = (size_t)h->frame_count * CFF_FRAME_BYTES;
    if (vb + fb + kb > ossa_rd_left(r)) /* each term < 2^31: no overflow */
        return ossa_fail(r->b, OSSA_ERR_TRUNCATED, (int64_t)counts_at,
                         "%u vertices, %u faces and %u frames need %zu bytes, only %zu left",
                         h->vertex_count, h->face_count, h->frame_count, vb + fb + kb,
                         ossa_rd_left(r));
    return OSSA_OK;
}

/* First pass: the structure of every LOD, so that the bones can be counted before any mesh
 * data is decoded. Truncation anywhere is found here. */
static ossa_status scan_lods(cff_file *f, ossa_reader scan)
{
    f->mesh_total = 0;
    for (uint32_t l = 0; l < f->lod_count; l++) {
        uint32_t meshes;
        ossa_status st = read_count(&scan, &meshes, OSSA_MAX_BONES - f->mesh_total, 0,
                                    "mesh count");
        if (st == OSSA_OK)
            st = ossa_rd_skip(&scan, 4, "LOD reserved word");
        if (st == OSSA_OK && meshes > ossa_rd_left(&scan) / CFF_MESH_HEADER_BYTES)
            st = ossa_fail(f->b, OSSA_ERR_TRUNCATED, (int64_t)scan.pos - 8,
                           "mesh count %u needs at least %zu bytes, only %zu left", meshes,
                           (size_t)meshes * CFF_MESH_HEADER_BYTES, ossa_rd_left(&scan));
        for (uint32_t i = 0; i < meshes && st == OSSA_OK; i++) {
            cff_mesh_head h;
            st = read_mesh_head(&scan, &h);
            if (st == OSSA_OK)
                st = ossa_rd_skip(&scan,
                                  (size_t)h.vertex_count * CFF_VERTEX_BYTES +
                                      (size_t)h.face_count * 3 * index_bytes(h.vertex_count) +
                                      (size_t)h.frame_count * CFF_FRAME_BYTES,
                                  "mesh data");
            st = ossa_fail_context(f->b, st, "mesh %u", i);
            if (st == OSSA_OK && h.frame_count > f->max_frames)
                f->max_frames = h.frame_count;
        }
        OSSA_TRY(ossa_fail_context(f->b, st, "LOD %u", l));
        f->mesh_total += meshes;
    }
    return OSSA_OK;
}

/* Printable name: up to the first NUL, control bytes replaced, trailing spaces dropped. */
static void clean_name(const char raw[5], char out[5])
{
    size_t n = 0;
    while (n < 4 && raw[n]) {
        unsigned char c = (unsigned char)raw[n];
        out[n] = c < 0x20 || c == 0x7f ? '_' : (char)c;
        n++;
    }
    while (n > 0 && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
}

static ossa_status alloc_submesh(ossa_build *b, ossa_submesh *sm, uint32_t nv, uint32_t nf)
{
    size_t n = nv ? nv : 1;
    float *pos, *nrm, *col, *uv;
    uint32_t *start, *idx = NULL;
    ossa_influence *inf;
    OSSA_TRY(ossa_build_array(b, &pos, 3 * n, sizeof *pos));
    OSSA_TRY(ossa_build_array(b, &nrm, 3 * n, sizeof *nrm));
    OSSA_TRY(ossa_build_array(b, &col, 3 * n, sizeof *col));
    OSSA_TRY(ossa_build_array(b, &uv, 2 * n, sizeof *uv));
    OSSA_TRY(ossa_build_array(b, &start, n + 1, sizeof *start));
    OSSA_TRY(ossa_build_array(b, &inf, n, sizeof *inf));
    if (nf)
        OSSA_TRY(ossa_build_array(b, &idx, 3 * (size_t)nf, sizeof *idx));
    sm->positions = pos;
    sm->normals = nrm;
    sm->colors = col;
    sm->uvs = uv;
    sm->influence_start = start;
    sm->influences = inf;
    sm->indices = idx;
    return OSSA_OK;
}

static ossa_status read_vertices(cff_file *f, const cff_mesh_head *h, ossa_submesh *sm,
                                 uint32_t bone)
{
    ossa_reader *r = &f->r;
    float *pos = (float *)sm->positions, *col = (float *)sm->colors, *uv = (float *)sm->uvs;
    uint32_t *start = (uint32_t *)sm->influence_start;
    ossa_influence *inf = (ossa_influence *)sm->influences;
    double divisor = h->uv_divisor;
    if (h->vertex_count && !(fabs(divisor) >= CFF_MIN_UV_DIVISOR && isfinite(divisor)))
        return ossa_fail(f->b, OSSA_ERR_VALUE, (int64_t)h->at + 12,
                         "UV divisor %g: must be finite and at least %g in magnitude", divisor,
                         CFF_MIN_UV_DIVISOR);
    for (uint32_t v = 0; v < h->vertex_count; v++) {
        uint8_t raw[CFF_VERTEX_BYTES];
        OSSA_TRY(ossa_rd_bytes(r, raw, sizeof raw, "vertex"));
        float half[3];
        for (int k = 0; k < 3; k++) {
            uint16_t u = (uint16_t)(raw[2 * k] | raw[2 * k + 1] << 8);
            int16_t s = (int16_t)(u >= 0x8000 ? (int)u - 0x10000 : (int)u);
            pos[3 * v + k] = (float)(f->origin[k] + s * f->scale[k] / 32767.0);
            half[k] = half_to_float(u);
        }
        for (int k = 0; k < 2; k++) {
            uint16_t u = (uint16_t)(raw[6 + 2 * k] | raw[7 + 2 * k] << 8);
            int16_t s = (int16_t)(u >= 0x8000 ? (int)u - 0x10000 : (int)u);
            uv[2 * v + k] = (float)(s / divisor);
        }
        if (f->b->opt.invert_v)
            uv[2 * v + 1] = 1.0f - uv[2 * v + 1];
        for (int k = 0; k < 3; k++)
            col[3 * v + k] = raw[10 + k] / 127.0f;
        if (f->as_integer) {
            reading_add(f->as_integer, pos + 3 * v);
            reading_add(f->as_half, half);
        }
        inf[v].bone = bone;
        inf[v].weight = 1.0f;
        start[v + 1] = v + 1;
    }
    sm->max_influences = h->vertex_count ? 1 : 0;
    return OSSA_OK;
}

static ossa_status read_faces(cff_file *f, const cff_mesh_head *h, ossa_submesh *sm)
{
    ossa_reader *r = &f->r;
    uint32_t *idx = (uint32_t *)sm->indices;
    bool wide = index_bytes(h->vertex_count) == 2;
    for (size_t i = 0; i < 3 * (size_t)h->face_count; i++) {
        size_t at = r->pos;
        uint32_t index;
        if (wide) {
            uint16_t v16;
            OSSA_TRY(ossa_rd_u16(r, &v16, "face index"));
            index = v16;
        } else {
            uint8_t v8;
            OSSA_TRY(ossa_rd_u8(r, &v8, "face index"));
            index = v8;
        }
        if (index >= h->vertex_count)
            return ossa_fail_context(f->b,
                                     ossa_fail(f->b, OSSA_ERR_RANGE, (int64_t)at,
                                               "index %u not in the mesh's %u vertices", index,
                                               h->vertex_count),
                                     "face %zu", i / 3);
        idx[i] = index;
    }
    return OSSA_OK;
}

/* Frames: translation, Euler angles (radians), the seventh value. Frame 0 is the rest state. */
static ossa_status read_frames(cff_file *f, const cff_mesh_head *h, cff_part *part)
{
    ossa_reader *r = &f->r;
    uint32_t n = h->frame_count;
    part->frame_count = n;
    part->rest_r[3] = 1.0f;
    if (!n)
        return OSSA_OK;
    float *times, *tr, *rot, *extra;
    OSSA_TRY(ossa_build_array(f->b, &times, n, sizeof *times));
    OSSA_TRY(ossa_build_array(f->b, &tr, 3 * (size_t)n, sizeof *tr));
    OSSA_TRY(ossa_build_array(f->b, &rot, 4 * (size_t)n, sizeof *rot));
    OSSA_TRY(ossa_build_array(f->b, &extra, n, sizeof *extra));
    for (uint32_t k = 0; k < n; k++) {
        size_t at = r->pos;
        float angles[3];
        ossa_status st = ossa_rd_f32v(r, tr + 3 * k, 3, "frame translation");
        if (st == OSSA_OK)
            st = ossa_rd_f32v(r, angles, 3, "frame rotation");
        if (st == OSSA_OK)
            st = ossa_rd_f32(r, &extra[k], "frame value");
        for (int c = 0; c < 3 && st == OSSA_OK; c++)
            if (fabs(tr[3 * k + c]) > CFF_MAX_COORD)
                st = ossa_fail(f->b, OSSA_ERR_VALUE, (int64_t)at + 4 * c,
                               "translation %g is beyond %g", (double)tr[3 * k + c],
                               CFF_MAX_COORD);
        OSSA_TRY(ossa_fail_context(f->b, st, "frame %u", k));
        frame_rotation(angles, rot + 4 * k);
        times[k] = (float)k / cff_frame_rate(f->b);
    }
    memcpy(part->rest_t, tr, sizeof part->rest_t);
    memcpy(part->rest_r, rot, sizeof part->rest_r);
    part->times = times;
    part->translations = tr;
    part->rotations = rot;
    part->extra = extra;
    return OSSA_OK;
}

/* Face normals summed (area weighted) at each vertex, in the mesh's own space. */
static void compute_normals(const float *pos, const uint32_t *idx, uint32_t nf, uint32_t nv,
                            float *nrm)
{
    for (uint32_t f = 0; f < nf; f++) {
        const float *a = pos + 3 * (size_t)idx[3 * f], *b = pos + 3 * (size_t)idx[3 * f + 1],
                    *c = pos + 3 * (size_t)idx[3 * f + 2];
        double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                       e1[0] * e2[1] - e1[1] * e2[0]};
        for (int k = 0; k < 3; k++)
            for (int c3 = 0; c3 < 3; c3++)
                nrm[3 * (size_t)idx[3 * f + k] + c3] += (float)n[c3];
    }
    for (uint32_t v = 0; v < nv; v++) {
        float *n = nrm + 3 * (size_t)v;
        double len = sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
        if (len > 0.0 && isfinite(len)) {
            for (int k = 0; k < 3; k++)
                n[k] = (float)(n[k] / len);
        } else {
            n[0] = 0.0f; /* unused or degenerate: any unit vector */
            n[1] = 1.0f;
            n[2] = 0.0f;
        }
    }
}

static ossa_status read_mesh(cff_file *f, uint32_t lod, uint32_t bone, cff_part *part)
{
    ossa_build *b = f->b;
    cff_mesh_head h;
    OSSA_TRY(read_mesh_head(&f->r, &h));
    ossa_submesh *sm;
    OSSA_TRY(ossa_build_array(b, &sm, 1, sizeof *sm));
    if (f->texture_count) {
        if (h.texture >= f->texture_count)
            return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)h.at + 20,
                             "texture index %u not in the file's %u textures", h.texture,
                             f->texture_count);
        sm->material = (int32_t)h.texture;
    } else {
        sm->material = -1; /* nothing to index: the field means nothing here */
    }
    sm->vertex_count = h.vertex_count;
    sm->face_count = h.face_count;
    sm->uv_set_count = 1;
    sm->lod_count = 0;
    OSSA_TRY(alloc_submesh(b, sm, h.vertex_count, h.face_count));
    OSSA_TRY(read_vertices(f, &h, sm, bone));
    OSSA_TRY(read_faces(f, &h, sm));
    OSSA_TRY(read_frames(f, &h, part));

    /* Normals from the local shape, then everything placed at the rest state. */
    float *pos = (float *)sm->positions, *nrm = (float *)sm->normals;
    compute_normals(pos, sm->indices, h.face_count, h.vertex_count, nrm);
    for (uint32_t v = 0; v < h.vertex_count; v++) {
        float p[3], n[3];
        quat_rotate(part->rest_r, pos + 3 * (size_t)v, p);
        quat_rotate(part->rest_r, nrm + 3 * (size_t)v, n);
        for (int k = 0; k < 3; k++) {
            pos[3 * (size_t)v + k] = p[k] + part->rest_t[k];
            nrm[3 * (size_t)v + k] = n[k];
        }
    }

    char name[5];
    clean_name(h.name, name);
    ossa_mesh *mesh = ossa_build_push_mesh(b);
    if (!mesh)
        return OSSA_ERR_NOMEM;
    OSSA_TRY(ossa_build_strndup(b, &mesh->name, name, strlen(name)));
    mesh->submesh_count = 1;
    mesh->submeshes = sm;
    mesh->format = OSSA_FORMAT_CFF;
    mesh->lod = lod;
    part->name = mesh->name;
    part->lod = lod;
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
        quat_rotate(inv_r, bn->rest_t, t);
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
    OSSA_TRY(scan_lods(f, f->r));
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
                    b, ossa_fail_context(b, read_mesh(f, l, next, &parts[next]), "mesh %u", i),
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
