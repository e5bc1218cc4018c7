/* The CFF reader's state and conventions, shared by cff.c (header, textures, materials, bones,
 * the clip, the entry points) and cff_mesh.c (the LOD scan and the meshes). Internal. */
#ifndef OSSA_CFF_READ_H
#define OSSA_CFF_READ_H

#include <stddef.h>
#include <stdint.h>

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

/* Frames play at the load option's rate (validated by the loader), else D11's 25. */
static inline float cff_frame_rate(const ossa_build *b)
{
    return b->opt.frame_rate > 0.0f ? b->opt.frame_rate : OSSA_CFF_FRAME_RATE;
}

/* v rotated by q (x y z w), in double as the frames are applied. */
static inline void cff_quat_rotate(const float q[4], const float v[3], float out[3])
{
    double vd[3] = {v[0], v[1], v[2]}, r[3];
    ossa_quat_rotate_d(q, vd, r);
    for (int k = 0; k < 3; k++)
        out[k] = (float)r[k];
}

/* An unsigned count with a hard cap; each element needs at least min_bytes_each of what is left.
 * Inline here, as cff.c and cff_mesh.c both read counts and neither calls the other for them. */
static inline ossa_status ossa_cff_read_count(ossa_reader *r, uint32_t *out, uint32_t cap,
                                              size_t min_bytes_each, const char *what)
{
    size_t at = r->pos;
    OSSA_TRY(ossa_rd_u32(r, out, what));
    return ossa_rd_check_count(r, at, *out, cap, min_bytes_each, what, "");
}

/* Counts the meshes of every LOD from scan (a copy of the reader at the first LOD) into
 * f->mesh_total and their largest frame count into f->max_frames, checking each mesh's size. */
ossa_status ossa_cff_scan_lods(cff_file *f, ossa_reader scan);
/* Reads the next mesh at f->r into the model (LOD lod, bound to bone) and part. */
ossa_status ossa_cff_read_mesh(cff_file *f, uint32_t lod, uint32_t bone, cff_part *part);

#endif
