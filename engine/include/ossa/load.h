/* Loading models from files or memory. Every function returns a status and, on failure, fills
 * the caller's ossa_error with a message naming the file and the byte offset or XML line. On
 * failure *out is NULL: there is never a partial model, nor an empty one (a model with no
 * bones, meshes, clips, morph clips or materials is an OSSA_ERR_FORMAT naming the file). */
#ifndef OSSA_LOAD_H
#define OSSA_LOAD_H

#include <stddef.h>
#include <stdbool.h>
#include "ossa/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_load_options {
    ossa_format format;      /* OSSA_FORMAT_UNKNOWN: sniff from content and name */
    float scale;             /* extra uniform scale on top of a .cfg's; 0 means 1 */
    bool flip_winding;       /* Cal3D LOADER_FLIP_WINDING: inverts the CMF auto-flip decision */
    bool invert_v;           /* Cal3D LOADER_INVERT_V_COORD: v = 1 - v */
    bool skip_missing_files; /* .cfg: warn about a missing file instead of failing */
    bool skip_bad_files;     /* a file of the model that does not read (missing, damaged, for
                              * another skeleton) is left out with a warning "left out FILE:
                              * why" and the rest loads; the load still fails when files were
                              * left out and no skeleton or no mesh remains, with the first
                              * left-out file's error (docs/FORMATS.md, "Partial loads") */
    float frame_rate;        /* frames per second of frame-list formats (SKP, CFF); 0: each
                              * format's default (SKP 10, CFF 25) */
    bool allow_outside;      /* keep texture paths that resolve outside the model's folders
                              * (docs/FORMATS.md, "Texture files"), and links to files outside
                              * a folder given as the model; false: such a map or file is left
                              * out with a warning */
    ossa_log_options log;    /* each warning the load keeps ("FILE: text", as in
                              * ossa_model.warnings), in order, when the load ends: also when
                              * it fails, before it returns; zero: not reported */
} ossa_load_options;

/* Guesses a format from the first bytes and the file name (extension). A .cfg is decided by
 * its text: OSSA_FORMAT_SKM for a Qfusion model config (an import, no key=value line), which
 * stands for the .skm of the same name, else OSSA_FORMAT_CAL3D_CFG. A .cff name is CFF whatever
 * its first bytes: CFF has no magic, and its first floats may spell another format's. */
OSSA_API ossa_format ossa_sniff(const void *data, size_t size, const char *name);

/* One file: a Cal3D file of any kind, a .cfg model set (Cal3D, or Qfusion: its .skm), or any
 * other supported format. */
OSSA_API ossa_status ossa_load_file(const char *path, const ossa_load_options *opt,
                                    ossa_model **out, ossa_error *err);

/* Several files forming one model (skeleton first whatever the order given). */
OSSA_API ossa_status ossa_load_files(const char *const *paths, size_t count,
                                     const ossa_load_options *opt, ossa_model **out,
                                     ossa_error *err);

/* One file already in memory; name is used for messages and, with no magic, the format. */
OSSA_API ossa_status ossa_load_memory(const void *data, size_t size, const char *name,
                                      const ossa_load_options *opt, ossa_model **out,
                                      ossa_error *err);

/* Diagnostics: the CFF position encoding (docs/FORMATS.md, D8; `ossa info --cff-half`). */
/* Mesh-local vertex positions of a whole file under one reading. */
typedef struct ossa_cff_position_reading {
    uint64_t vertices;
    uint64_t non_finite; /* of those, vertices with a NaN or Inf coordinate (half exponent 31) */
    float min[3], max[3];  /* over the other vertices; 0 when there are none */
} ossa_cff_position_reading;

/* Reads a CFF file held in memory (name for messages) and summarises its vertex positions as
 * the project reads them (16-bit integers scaled by the header's origin and scale) and as the
 * format's first description reads them (IEEE half floats, no origin or scale). Fails, with err
 * filled, exactly when the file does not load. */
OSSA_API ossa_status ossa_cff_position_readings(const void *data, size_t size, const char *name,
                                                ossa_cff_position_reading *as_integer,
                                                ossa_cff_position_reading *as_half, ossa_error *err);

#ifdef __cplusplus
}
#endif
#endif
