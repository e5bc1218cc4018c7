/* A small glTF 2.0 reader and evaluator for the export tests, written from the glTF 2.0
 * specification alone (it shares no code with the exporter): GLB and .gltf with files beside or
 * data: URIs, accessors (plain, sparse, no bufferView), node TRS hierarchy, skins (joint matrix
 * x inverse bind, linear blend), morph targets and animations (LINEAR, STEP; rotations by the
 * specification's slerp). */
#ifndef OSSA_TEST_GLTF_READ_H
#define OSSA_TEST_GLTF_READ_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gr_doc {
    json_t *json;
    uint8_t **buffers;      /* per glTF buffer */
    size_t *buffer_sizes;
    size_t buffer_count;
    char error[512];
} gr_doc;

/* 0 on success; else fills doc->error. */
int gr_open(gr_doc *doc, const char *path);
void gr_close(gr_doc *doc);

/* An accessor as floats (integers converted), count * components; NULL on error. */
float *gr_accessor(gr_doc *doc, int index, size_t *count, int *components);

/* The posed mesh of one primitive of the mesh node `node` under animation `anim` (-1: none) at
 * time t: out gets 3 * vertex floats in the scene's space. Returns the vertex count, -1 on
 * error (doc->error). */
long gr_pose_primitive(gr_doc *doc, int node, int primitive, int anim, float t, float **out);

/* Nodes that carry a mesh, in node order. Returns the count; *nodes is malloc'd. */
size_t gr_mesh_nodes(gr_doc *doc, int **nodes);

/* Index of the animation called name, -1 when absent (a morph-clip animation of the same name,
 * marked in extras, is skipped). */
int gr_find_animation(gr_doc *doc, const char *name);

#endif
