/* CFF meshes (cff_read.h): the LOD scan, each mesh's header, vertices (D8's signed
 * 16-bit reading, or both readings for ossa_cff_position_readings), faces, frames (D11)
 * and the normals the format lacks. What the reader makes of it is at the top of cff.c. */
#include <math.h>
#include <string.h>

#include "core/checked.h"
#include "core/quat.h"
#include "formats/cff/cff_read.h"
#include "ossa/limits.h"

/* ---- small Hamilton quaternion helpers (x, y, z, w) ---- */

/* Rotation of a frame: Y first, then X, then Z (D11), i.e. q = qz qx qy. */
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

/* ---- half floats (the reading of D8 that Ossa does not use) ---- */

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
    OSSA_TRY(ossa_cff_read_count(r, &h->vertex_count, OSSA_MAX_VERTICES, 0, "vertex count"));
    OSSA_TRY(ossa_cff_read_count(r, &h->face_count, OSSA_MAX_FACES, 0, "face count"));
    OSSA_TRY(ossa_rd_u32(r, &unknown, "mesh flags")); /* always 1 in the game's files */
    OSSA_TRY(ossa_cff_read_count(r, &h->frame_count, OSSA_MAX_KEYS, 0, "frame count"));
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
ossa_status ossa_cff_scan_lods(cff_file *f, ossa_reader scan)
{
    f->mesh_total = 0;
    for (uint32_t l = 0; l < f->lod_count; l++) {
        uint32_t meshes;
        ossa_status st = ossa_cff_read_count(&scan, &meshes, OSSA_MAX_BONES - f->mesh_total, 0,
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

ossa_status ossa_cff_read_mesh(cff_file *f, uint32_t lod, uint32_t bone, cff_part *part)
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
        cff_quat_rotate(part->rest_r, pos + 3 * (size_t)v, p);
        cff_quat_rotate(part->rest_r, nrm + 3 * (size_t)v, n);
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
