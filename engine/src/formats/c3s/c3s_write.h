/* The C3S writer's state and chunk helpers, shared by c3s_write.c (the plan, geometry, mounts,
 * the file) and c3s_write_anim.c (vertex groups and frames, texture vertices, bones and
 * sequences). Internal to the writer. */
#ifndef OSSA_C3S_WRITE_H
#define OSSA_C3S_WRITE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "formats/c3s/c3s_records.h"
#include "io/write_buf.h"
#include "ossa/model.h"
#include "ossa/reference.h"

typedef struct c3s_writer {
    const ossa_model *m;
    bool frames;        /* vertex-frame form */
    float rate;
    const char *path;
    ossa_error *err;
    ossa_wbuf o;
    /* first VRTX / TVRT / TRIF (0-based) of each submesh, in mesh-major order */
    uint32_t *vertex_base, *tex_base, *face_base;
    uint32_t submesh_total, vertex_total, tex_total, face_total;
    uint32_t *texture_of_map; /* per material map, 1-based TXTR */
    uint32_t texture_count, map_total;
    uint32_t unweighted;      /* bone form: vertices without influences */
    uint32_t textured;        /* submeshes with UVs: one texture vertex group each */
    uint32_t *keys;           /* per clip: key count */
    float *pose_block;        /* pose work (the arrays of pose), at least one bone */
    ossa_reference_pose pose;
    float *positions, *normals; /* largest submesh, 3 floats per vertex each */
} c3s_writer;

/* ---- output buffer ---- */

static inline void put_cdw(ossa_wbuf *o, uint32_t v)
{
    uint8_t bytes[OSSA_C3S_COMPDWORD_MAX];
    ossa_wbuf_put(o, bytes, ossa_c3s_encode_compdword(v, bytes));
}

static inline void put_stringz(ossa_wbuf *o, const char *s)
{
    ossa_wbuf_put(o, s ? s : "", (s ? strlen(s) : 0) + 1);
}

static inline void put_ocs(ossa_wbuf *o, const float s[3], const float q[4], const float t[3])
{
    ossa_wbuf_f32v(o, s, 3);
    ossa_wbuf_f32v(o, q, 4);
    ossa_wbuf_f32v(o, t, 3);
}

/* A chunk: id and a length patched by end_chunk, which also adds the pad byte. */
static inline size_t begin_chunk(ossa_wbuf *o, const char id[4])
{
    ossa_wbuf_put(o, id, 4);
    size_t at = o->size;
    ossa_wbuf_u32(o, 0);
    return at;
}

static inline void end_chunk(ossa_wbuf *o, size_t at)
{
    if (o->failed)
        return;
    size_t len = o->size - at - 4;
    if (len > UINT32_MAX) {
        o->failed = true;
        return;
    }
    ossa_le32_store(o->data + at, (uint32_t)len);
    if (len & 1u)
        ossa_wbuf_put(o, "", 1);
}

/* A subchunk with its common start: version 1, name, flags. */
static inline size_t begin_sub(ossa_wbuf *o, const char id[4], const char *name, uint32_t flags)
{
    size_t at = begin_chunk(o, id);
    put_cdw(o, 1);
    put_stringz(o, name);
    put_cdw(o, flags);
    return at;
}

/* c3s_write_anim.c: each appends its subchunks to w->o (failures of memory are the wbuf's,
 * checked once at the end; a returned status is a failed allocation or evaluation). */
ossa_status ossa_c3s_put_static_group(c3s_writer *w);
ossa_status ossa_c3s_put_frame_groups(c3s_writer *w);
ossa_status ossa_c3s_put_texture_vertices(c3s_writer *w);
void ossa_c3s_put_bones(c3s_writer *w);
ossa_status ossa_c3s_put_sequences(c3s_writer *w);

#endif
