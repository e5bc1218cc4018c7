/* The CFF writer's state, shared by cff_write.c (the partition into rigid parts, their
 * bone-space positions and names, the frames, the file's header and textures) and
 * cff_write_mesh.c (one part written as a CFF mesh). vertex_of, which both use, is inline here,
 * so that neither file calls the other. Internal to the writer. */
#ifndef OSSA_CFF_WRITE_H
#define OSSA_CFF_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/write_buf.h"
#include "ossa/model.h"

#define NO_BONE UINT32_MAX

typedef struct tri_ref {
    uint32_t lod, bone;
    int32_t material;
    uint32_t mesh, sub, face;
} tri_ref;

typedef struct part {
    uint32_t lod, bone;
    int32_t material;
    size_t first_tri, tri_count;
    size_t first_vertex, vertex_count; /* into the writer's vertex list */
    char name[4];
} part;

typedef struct cff_writer {
    const ossa_model *m;
    const char *path;
    ossa_error *err;
    float fps;
    uint32_t frames;           /* per animated part */
    float *frame_t, *frame_a;  /* frames x bone_count x 3: translation, angles */
    tri_ref *tris;
    size_t tri_count;
    size_t *vertex_base;       /* first global vertex id of each (mesh, submesh) */
    uint32_t *stamp, *local_index; /* per global vertex: part + 1 that holds it, its index there */
    uint32_t *vertex_list;     /* global ids, part after part */
    uint32_t *face_list;       /* part-local indices, 3 per triangle in tris order */
    size_t vertex_list_count;
    part *parts;
    size_t part_count;
    float *local;              /* 3 per vertex_list entry */
    bool z_up;                 /* the source stands along Z: frames and static parts turn to Y up */
    const char **texture_names; /* per material: the name written (lives in the output set) */
} cff_writer;

/* The submesh and vertex a global vertex id stands for. */
static inline void vertex_of(const cff_writer *w, uint32_t g, const ossa_submesh **sm, uint32_t *v)
{
    size_t slot = 0;
    for (uint32_t i = 0; i < w->m->mesh_count; i++)
        for (uint32_t s = 0; s < w->m->meshes[i].submesh_count; s++, slot++)
            if (g >= w->vertex_base[slot] && g < w->vertex_base[slot + 1]) {
                *sm = &w->m->meshes[i].submeshes[s];
                *v = (uint32_t)(g - w->vertex_base[slot]);
                return;
            }
    *sm = NULL;
    *v = 0;
}

/* cff_write_mesh.c: part pt as one mesh of the LOD being written, its positions quantised
 * against the file's origin and scale; appended to o (memory failures are o's, checked once at
 * the end). */
ossa_status ossa_cff_write_part(cff_writer *w, ossa_wbuf *o, const part *pt,
                                const double origin[3], const double scale[3]);

#endif
