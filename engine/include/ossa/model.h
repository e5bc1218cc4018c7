/* The format-neutral model every loader produces. Immutable after load, validated, owned by
 * one arena (ossa_model_destroy releases everything at once).
 *
 * Conventions: quaternions are Hamilton (x, y, z, w) with v' = q v q*; bones are ordered so that
 * every parent comes before its children; all indices are range-checked by ossa_model_validate. */
#ifndef OSSA_MODEL_H
#define OSSA_MODEL_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include "ossa/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ossa_format {
    OSSA_FORMAT_UNKNOWN = 0,
    OSSA_FORMAT_CSF, OSSA_FORMAT_CAF, OSSA_FORMAT_CMF, OSSA_FORMAT_CRF, OSSA_FORMAT_CPF,
    OSSA_FORMAT_XSF, OSSA_FORMAT_XAF, OSSA_FORMAT_XMF, OSSA_FORMAT_XRF, OSSA_FORMAT_XPF,
    OSSA_FORMAT_CAL3D_CFG,
    OSSA_FORMAT_SKM, OSSA_FORMAT_SKP, OSSA_FORMAT_C3S, OSSA_FORMAT_CFF,
    OSSA_FORMAT_DEMO,
    OSSA_FORMAT_COUNT
} ossa_format;

OSSA_API const char *ossa_format_name(ossa_format f);

/* Which Cal3D layout a file was read with (docs/FORMATS.md, D1). The version selects it,
 * except that 1300 and 1301 exist in two lineages, told apart from the data of a CSF or CMF:
 * the layout that reads the file exactly to its end, upstream where both do. */
typedef enum ossa_cal3d_lineage {
    OSSA_CAL3D_CLASSIC = 0, /* 699..910, 920..1199 */
    OSSA_CAL3D_IMVU,        /* 911..919 */
    OSSA_CAL3D_V1200,       /* 1200: quantised tracks (docs/FORMATS.md) */
    OSSA_CAL3D_UPSTREAM,    /* 1300, 1301: node lights in CSF, vertex colours in CMF */
    OSSA_CAL3D_MP3BUTCHER   /* 1300, 1301 of the mp3butcher/Cal3D fork: neither */
} ossa_cal3d_lineage;

/* "classic", "imvu", "1200", "upstream", "mp3butcher". */
OSSA_API const char *ossa_cal3d_lineage_name(ossa_cal3d_lineage lineage);

enum { OSSA_BONE_ATTACH = 1u };

typedef struct ossa_bone {
    const char *name;
    int32_t parent;          /* -1 for a root; always < own index */
    uint32_t source_index;   /* index in the file, before parents-first reordering */
    uint32_t flags;          /* OSSA_BONE_* */
    float rest_t[3];         /* local rest pose relative to the parent */
    float rest_r[4];
    float rest_s[3];
    float inv_bind_t[3];     /* model space -> bone space (Cal3D "local" transform) */
    float inv_bind_r[4];
    int32_t light_type;      /* Cal3D node light (IMVU/upstream), 0 = none */
    float light_color[3];
    uint32_t child_count;    /* as the file listed them, for reference */
    const uint32_t *children;/* indices after reordering */
} ossa_bone;

typedef struct ossa_influence {
    uint32_t bone;
    float weight;
} ossa_influence;

typedef struct ossa_spring {
    uint32_t vertex[2];
    float coefficient;
    float idle_length;
} ossa_spring;

/* A morph target stored as deltas from the base vertex, for the vertices it moves. */
typedef struct ossa_morph_target {
    const char *name;
    uint32_t count;
    const uint32_t *vertex;  /* ascending vertex indices */
    const float *d_position; /* 3 * count */
    const float *d_normal;   /* 3 * count */
    const float *d_uv;       /* 2 * uv_set_count * count, set-major per vertex; may be NULL */
} ossa_morph_target;

typedef struct ossa_submesh {
    int32_t material;          /* material index (Cal3D material thread), -1 for none */
    uint32_t vertex_count;
    uint32_t face_count;
    uint32_t uv_set_count;
    uint32_t lod_count;
    uint32_t max_influences;
    const float *positions;    /* 3 * vertex_count, bind pose, model space */
    const float *normals;      /* 3 * vertex_count */
    const float *colors;       /* 3 * vertex_count or NULL (white) */
    const float *uvs;          /* uv_set_count * 2 * vertex_count, per vertex then per set */
    const int32_t *collapse_id;        /* vertex_count, -1 none; may be NULL */
    const uint32_t *face_collapse_count; /* vertex_count; may be NULL */
    const uint32_t *influence_start;   /* vertex_count + 1, into influences */
    const ossa_influence *influences;
    /* 3 per influence (CSR order, beside influences), or NULL. Formats whose vertex is a sum of
     * per-influence terms (C3S: weightFactor x bone(offsetPos); SKM: R origin + influence x T)
     * keep each term's bind-space point here, pre-weighted: u_i such that the posed vertex is
     * sum_i P_i [u_i; w_i], P_i the 3x4 palette matrix (ossa_skin_palette) and w_i the weight.
     * `positions` is then sum_i u_i, what the format's own formula gives at the bind pose. NULL
     * for formats whose vertex is one bind position (Cal3D, CFF): the vertex is sum_i w_i P_i p. */
    const float *influence_points;
    const float *physique_weights;     /* vertex_count when spring_count > 0, else NULL */
    uint32_t spring_count;
    const ossa_spring *springs;
    const uint32_t *indices;           /* 3 * face_count */
    uint32_t morph_count;
    const ossa_morph_target *morphs;
    bool winding_flipped;              /* Cal3D CMF auto-flip was applied */
    uint32_t flags;                    /* OSSA_SUBMESH_* */
    /* Vertex-frame animation (C3S VFRM): whole-submesh key shapes that clips' vertex tracks
     * play by lerp (ossa_vertex_clip_eval). Frame f's data starts at 3 * vertex_count * f. */
    uint32_t frame_count;              /* 0: no vertex frames */
    const float *frame_positions;      /* 3 * vertex_count * frame_count, model space */
    const float *frame_normals;        /* 3 * vertex_count * frame_count, unit (or zero) */
    /* Texture-coordinate frames (C3S TFRM) for UV set 0, played by uv tracks. */
    uint32_t uv_frame_count;           /* 0: none */
    const float *frame_uvs;            /* 2 * vertex_count * uv_frame_count */
} ossa_submesh;

enum { OSSA_SUBMESH_TWO_SIDED = 1u }; /* faces are visible from both sides: draw unculled */

enum { OSSA_MESH_HIDDEN = 1u }; /* loaded but not drawn (C3S hidden/disabled elements) */

typedef struct ossa_mesh {
    const char *name;
    uint32_t submesh_count;
    const ossa_submesh *submeshes;
    ossa_format format;
    uint32_t version;
    ossa_cal3d_lineage lineage; /* CMF/XMF: the Cal3D layout it was read with; else 0 */
    uint32_t lod;            /* level of detail: 0 full, 1.. coarser (SKM _lodN files) */
    uint32_t flags;          /* OSSA_MESH_* */
    /* C3S: the counts of the scene model this mesh came from, as in the file (VRTX and TRIF
     * records, before render vertices are split at texture seams and disabled faces dropped);
     * set on the model's visible mesh only, 0 elsewhere and for other formats. */
    uint32_t file_vertex_count, file_face_count;
} ossa_mesh;

enum {
    OSSA_TRACK_TRANSLATION_REQUIRED = 1u,
    OSSA_TRACK_TRANSLATION_DYNAMIC = 2u,
    OSSA_TRACK_HIGH_RANGE = 4u
};

typedef struct ossa_track {
    uint32_t bone;           /* model bone index (file bone id when there is no skeleton) */
    uint32_t key_count;      /* >= 1 */
    uint32_t flags;          /* OSSA_TRACK_* compression hints, as read */
    const float *times;      /* key_count, ascending */
    const float *translations; /* 3 * key_count */
    const float *rotations;  /* 4 * key_count, Hamilton */
    const float *scales;     /* 3 * key_count or NULL */
    const float *extra;      /* CFF: each frame's seventh value (key_count), else NULL */
} ossa_track;

/* A vertex-frame track: at key k (time times[k]) the submesh has the shape of its frame
 * frames[k] (ossa_submesh.frame_positions or, for a uv track, frame_uvs); between keys the two
 * frames lerp. A looping clip lerps from the last key back to the first at t = duration. */
typedef struct ossa_vertex_track {
    uint32_t mesh, submesh;  /* which submesh it animates */
    uint32_t key_count;      /* >= 1 */
    const float *times;      /* key_count, ascending, in [0, duration] */
    const uint32_t *frames;  /* key_count, each < the submesh's frame_count (uv_frame_count) */
} ossa_vertex_track;

/* A named event on a clip's timeline (C3S sequence triggers). */
typedef struct ossa_clip_trigger {
    float time;              /* seconds, in [0, duration] */
    uint32_t command;        /* format's command code (C3S: four characters, "TRIG" = 'T' first
                                byte, little-endian); 0 when none */
    const char *name;        /* the trigger string (C3S TRIG parameter), "" when none */
    uint32_t param_size;     /* the raw parameter bytes as stored */
    const uint8_t *params;
} ossa_clip_trigger;

typedef struct ossa_clip {
    const char *name;
    float duration;          /* seconds, > 0 */
    uint32_t track_count;
    const ossa_track *tracks;
    ossa_format format;
    uint32_t version;
    bool compressed;         /* read from a compressed/quantised layout */
    /* Frame-based clips (C3S ASEQ): key frames evenly spaced at frame_rate, 0 when not. */
    float frame_rate;
    const char *group;       /* C3S sequenceGroup; NULL or "" when none */
    /* A clip may carry bone tracks and vertex tracks; a submesh with a vertex track in the
     * clip is played from its frames, not skinned. */
    uint32_t vertex_track_count;
    const ossa_vertex_track *vertex_tracks;
    uint32_t uv_track_count;             /* same struct; frames index frame_uvs */
    const ossa_vertex_track *uv_tracks;
    uint32_t trigger_count;
    const ossa_clip_trigger *triggers;   /* ascending time */
    uint32_t link_count;                 /* clips played along with this one (C3S linkedSeqs) */
    const uint32_t *links;               /* clip indices, never the clip itself */
} ossa_clip;

typedef struct ossa_morph_track {
    const char *morph_name;
    uint32_t key_count;
    const float *times;
    const float *weights;
} ossa_morph_track;

typedef struct ossa_morph_clip {
    const char *name;
    float duration;
    uint32_t track_count;
    const ossa_morph_track *tracks;
    ossa_format format;
    uint32_t version;
} ossa_morph_clip;

typedef struct ossa_texture_map {
    const char *file;        /* as written in the material */
    const char *path;        /* resolved relative to the material file */
    const char *type;        /* map type (IMVU/upstream), "" when absent */
} ossa_texture_map;

/* A named material setting that is not a texture: osgCal writes them into Cal3D material maps
 * as "Key:value" (Sides:2, Opacity:0.5, Glossiness:50, ...; docs/FORMATS.md). */
typedef struct ossa_material_property {
    const char *key;         /* without the colon */
    const char *value;       /* the text after the last colon */
} ossa_material_property;

typedef struct ossa_material {
    const char *name;
    float ambient[4], diffuse[4], specular[4]; /* 0..1 */
    float shininess;
    uint32_t map_count;
    const ossa_texture_map *maps;
    uint32_t property_count;
    const ossa_material_property *properties;
    ossa_format format;
    uint32_t version;
} ossa_material;

/* A point fixed to a triangle of the animated surface (C3S SMNT). Its frame: origin at the
 * barycentric point P = b0 V0 + b1 V1 + b2 V2 of face `face` (vertices indices[3 face + i]),
 * Y the face normal (counter-clockwise front: (V1 - V0) x (V2 - V0), normalised), Z the unit
 * vector from P towards V0 (from V0 towards V1 when P is V0), X = Y x Z, unit scale; the mount's
 * transform is that frame composed with the offset (offset acts first). See
 * ossa_mount_transform. */
typedef struct ossa_mount {
    const char *name;
    uint32_t mesh, submesh, face;
    float barycentric[3];
    float offset_t[3];       /* p -> offset_t + R(offset_r)(offset_s * p) */
    float offset_r[4];
    float offset_s[3];
} ossa_mount;

typedef struct ossa_model {
    const char *source;      /* path of the file (or .cfg) the model came from */
    ossa_format format;      /* format of that file */
    uint32_t version;        /* its version (0 when the format has none) */
    float scale;             /* scale applied at load (cfg scale=), 1 otherwise */

    uint32_t bone_count;
    const ossa_bone *bones;
    bool has_scene_ambient;
    float scene_ambient[3];
    ossa_format skeleton_format;
    uint32_t skeleton_version;
    ossa_cal3d_lineage skeleton_lineage; /* CSF/XSF: the Cal3D layout read; else 0 */

    uint32_t mesh_count;
    const ossa_mesh *meshes;
    uint32_t clip_count;
    const ossa_clip *clips;
    uint32_t morph_clip_count;
    const ossa_morph_clip *morph_clips;
    uint32_t material_count;
    const ossa_material *materials;

    /* SKM and C3S: the largest distance (model units) between the bind position one influence
     * implies on its own (SKM: R0 (origin / w) + T0; C3S: bone(offsetPos)) and the vertex's
     * single bind position (SKM: the frame-0 sum; C3S: the weighted mean): how far skinning one
     * bind vertex would be off. Such vertices are skinned exactly from influence_points; 0 when
     * the format has one form only. ossa info reports it. */
    float bind_disagreement;

    uint32_t warning_count;
    const char *const *warnings;

    struct ossa_arena *arena; /* owns every pointer in the model */

    uint32_t mount_count;    /* surface mounts (C3S SMNT) */
    const ossa_mount *mounts;

    /* Every file the model was read from, as the loader opened it (a .cfg, each file it names,
     * an .skp beside its .skm, ...): a program that writes can keep these safe. 0 for a model
     * read from memory. */
    uint32_t file_count;
    const char *const *files;
} ossa_model;

OSSA_API void ossa_model_destroy(ossa_model *model);

/* Checks every index, count and number of a model (loaders run it before returning). */
OSSA_API ossa_status ossa_model_validate(const ossa_model *model, ossa_error *err);

/* The index of the bone or clip of that name, OSSA_NOT_FOUND when absent. Exact match first,
 * then case-insensitive. */
OSSA_API uint32_t ossa_model_find_bone(const ossa_model *model, const char *name);
OSSA_API uint32_t ossa_model_find_clip(const ossa_model *model, const char *name);
/* The map a viewer draws as a material's diffuse texture, and the exporter exports as its base
 * colour: the first with a path (or file) whose type is empty or names "diffuse" in any case;
 * NULL when none. Its file is map->path, else map->file. */
OSSA_API const ossa_texture_map *ossa_material_diffuse_map(const ossa_material *mat);
/* A name from a model (bone, clip, material, file) as valid UTF-8: legacy files often hold
 * Latin-1, so a byte that does not start a valid UTF-8 sequence (overlong forms, surrogates and
 * code points past U+10FFFF included) is read as Latin-1. Writes at most capacity - 1 bytes and a
 * NUL into out (capacity 0: nothing), never cutting a sequence, and returns the length of the
 * whole conversion (at most twice strlen(name)), as snprintf does. NULL name: "". */
OSSA_API size_t ossa_name_utf8(const char *name, char *out, size_t capacity);

#ifdef __cplusplus
}
#endif
#endif
