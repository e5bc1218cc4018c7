/* The glTF exporter's shared state: the JSON document (jansson), the binary buffer, and the
 * model-to-glTF mapping (axes, nodes, meshes, morph targets). One export is one gltf_ctx. */
#ifndef OSSA_GLTF_INTERNAL_H
#define OSSA_GLTF_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ossa/export.h"
#include "io/write_buf.h"

enum { GLTF_ARRAY_BUFFER = 34962, GLTF_ELEMENT_ARRAY_BUFFER = 34963 };
enum { GLTF_FLOAT = 5126, GLTF_UNSIGNED_BYTE = 5121, GLTF_UNSIGNED_SHORT = 5123,
       GLTF_UNSIGNED_INT = 5125 };

/* A file to write beside a .gltf (its buffer, its images). */
typedef struct gltf_side_file {
    char *name;              /* relative to the .gltf's folder */
    uint8_t *data;
    size_t size;
} gltf_side_file;

/* Morph targets of one glTF mesh: the union over its submeshes (glTF wants the same targets on
 * every primitive). Named targets come first, then each submesh's vertex frames. */
typedef struct gltf_mesh_targets {
    uint32_t named_count;    /* distinct morph target names */
    const char **names;
    uint32_t frame_first_total; /* == named_count; frames of submesh s start at frame_first[s] */
    uint32_t *frame_first;   /* per submesh */
    uint32_t total;          /* all targets */
} gltf_mesh_targets;

typedef struct gltf_ctx {
    const ossa_model *m;
    ossa_export_options opt;
    ossa_error *err;
    const char *path;        /* the output file, for messages */
    ossa_export_write_fn sink; /* non-NULL: the .glb goes to sink(sink_user, ...), no file */
    void *sink_user;
    bool glb;
    bool failed;             /* an allocation failed somewhere: the export fails with NOMEM */

    json_t *root, *nodes, *meshes, *accessors, *views, *animations, *materials, *textures,
        *images, *samplers, *skins, *scene_nodes;
    json_t *texture_cache;   /* texture path -> texture index (-1: could not be had) */
    ossa_wbuf bin;
    gltf_side_file *side;
    size_t side_count, side_cap;

    float axis[9];           /* source -> glTF rotation, row-major */
    float axis_q[4];         /* the same as a quaternion */
    ossa_export_up up;

    /* node index of bone b is b; meshes follow. */
    int32_t *mesh_node;      /* per ossa mesh: its node, -1 when not exported */
    int32_t *mesh_rigid_bone;/* per ossa mesh: the bone a rigid part hangs under, -1 skinned */
    gltf_mesh_targets *targets; /* per ossa mesh */
    int32_t skin;            /* the skin, -1 none */
    int32_t extra_joint;     /* joint index of the stand-in joint for unweighted vertices */
    uint32_t joint_count;
    int32_t *material_index; /* 2 per material (one-sided, two-sided): glTF index, -1 not yet */
    int32_t default_material[2];
    float model_size;        /* bind-pose bounding box diagonal (for relative figures) */
    size_t resampled;        /* resampled keys so far, of OSSA_EXPORT_MAX_SAMPLES */
} gltf_ctx;

void ossa_gltf_warn(gltf_ctx *c, const char *fmt, ...) OSSA_PRINTF(2, 3);

/* ---- document (gltf_doc.c) ---- */
json_t *ossa_gltf_text(const char *s);  /* a JSON string, valid UTF-8 (other bytes read as Latin-1) */
int ossa_gltf_push(gltf_ctx *c, json_t *array, json_t *item); /* index of item, -1 on failure */
void ossa_gltf_set(gltf_ctx *c, json_t *obj, const char *key, json_t *value);
json_t *ossa_gltf_floats(gltf_ctx *c, const float *v, size_t n);
/* A bufferView of size bytes (aligned to 4 in the buffer); target 0 for none. */
int ossa_gltf_view(gltf_ctx *c, const void *data, size_t size, int target);
/* count elements of comps floats each ("SCALAR", "VEC2", "VEC3", "VEC4", "MAT4" by comps). */
int ossa_gltf_accessor_f32(gltf_ctx *c, const float *v, size_t count, int comps, int target,
                      bool minmax);
/* All zeros without a bufferView (glTF: an accessor without one reads as zeros). */
int ossa_gltf_accessor_zeros(gltf_ctx *c, size_t count, int comps, bool minmax);
/* Zeros except the listed elements (a sparse accessor, ascending indices). */
int ossa_gltf_accessor_sparse_f32(gltf_ctx *c, size_t count, int comps, const uint32_t *indices,
                             const float *values, size_t n, bool minmax);
int ossa_gltf_accessor_indices(gltf_ctx *c, const uint32_t *idx, size_t count, uint32_t vertex_count);
/* Integer vertex attribute (JOINTS_n): unsigned byte or short by the largest value. */
int ossa_gltf_accessor_joints(gltf_ctx *c, const uint16_t *v, size_t count, uint16_t max_value);
int ossa_gltf_add_side_file(gltf_ctx *c, const char *name, const void *data, size_t size);
char *ossa_gltf_base64_uri(const char *mime, const void *data, size_t size);
ossa_status ossa_gltf_write_files(gltf_ctx *c);

/* ---- parts ---- */
void ossa_gltf_axis_vec(const gltf_ctx *c, const float *in, float *out);
void ossa_gltf_axis_quat(const gltf_ctx *c, const float *in, float *out);
void ossa_gltf_nodes(gltf_ctx *c);        /* gltf_scene.c: axes, bones */
int ossa_gltf_skin(gltf_ctx *c, bool need_extra_joint); /* gltf_scene.c: created once */
void ossa_gltf_meshes(gltf_ctx *c);       /* gltf_mesh.c */
void ossa_gltf_animations(gltf_ctx *c);   /* gltf_anim.c: clips */
void ossa_gltf_morph_animations(gltf_ctx *c); /* gltf_anim_morph.c: morph clips, vertex frames */
int ossa_gltf_vertex_frame_channel(gltf_ctx *c, json_t *channels, json_t *samplers,
                              const ossa_clip *clip);
int ossa_gltf_material(gltf_ctx *c, int32_t material, bool two_sided); /* gltf_material.c */
/* gltf_springs.c: the largest distance Cal3D's cloth takes a vertex from its skinned position
 * (rest, and every clip once at opt.fps); -1 when it cannot be run. */
double ossa_gltf_spring_gap(gltf_ctx *c);

/* Vertices whose influences the export caps (gltf_influences.c). */
typedef struct ossa_gltf_cut {
    const ossa_submesh *sm;
    uint32_t keep;           /* influences kept per vertex */
    uint32_t *vertices;      /* those that had more */
    uint32_t count, cap;
} ossa_gltf_cut;
/* A vertex's influences as exported: weights merged per bone (zero and negative weights and
 * bones outside the skeleton dropped), largest first; jb and jw hold OSSA_MAX_INFLUENCES.
 * Returns how many (0: none). */
uint32_t ossa_gltf_merge_influences(const gltf_ctx *c, const ossa_submesh *sm, uint32_t v,
                                    uint32_t *jb, float *jw);
/* The largest distance capping moves one of cut's vertices, at the bind pose and over every
 * clip played as a cycle. */
void ossa_gltf_cut_measure(gltf_ctx *c, const ossa_gltf_cut *cut, double *at_bind,
                           double *over_clips);

#endif
