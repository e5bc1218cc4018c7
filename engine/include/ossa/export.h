/* Exporting a model to glTF 2.0 (.glb, or .gltf with its files beside or embedded).
 *
 * The model is written as glTF can hold it: bones as a node hierarchy with a skin and inverse
 * bind matrices, one mesh per ossa mesh with one primitive per submesh, every clip as an
 * animation, morph targets (and C3S vertex frames) as targets with weight animations, materials
 * as a PBR reading of the source colours, textures embedded or beside. Where glTF cannot say
 * what the source says (Cal3D's extrapolation before a track's first key, springs, non-normalised
 * weights, ...) the closest form is written and a warning says what changed and by how much.
 * docs/FORMATS.md ("glTF export") lists every mapping. The library never prints: warnings go to
 * the caller's callback. */
#ifndef OSSA_EXPORT_H
#define OSSA_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include "ossa/model.h"
#include "ossa/write.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Zero is the default for every field. */
typedef struct ossa_export_options {
    float fps;                       /* rate of resampled stretches; 0: 30 */
    ossa_export_up up;               /* the source's up axis */
    bool embed;                      /* .gltf: buffer and images as data: URIs, not files beside */
    uint32_t max_influences;         /* per vertex in JOINTS_n/WEIGHTS_n; 0: 4, what three.js
                                        and most engines read (the smallest dropped, the rest
                                        renormalised, with a warning); up to OSSA_MAX_INFLUENCES */
    ossa_log_options log;            /* each warning, one line of text (status.h); zero: not
                                        reported */
    ossa_write_guard guard;          /* asked about every file written (.glb; .gltf, .bin and
                                        textures beside it) before any is */
} ossa_export_options;

/* Writes the model to path: .glb (one binary file) or .gltf (JSON, with path's base name +
 * ".bin" and the textures beside it unless opt->embed; a texture already there with the same
 * bytes is left as it is). opt may be NULL. Returns OSSA_OK, or a status with err naming the
 * file. Outputs are atomic as the writers' are (write.h): on failure every existing file is as
 * it was and nothing is left behind. */
OSSA_API ossa_status ossa_export_gltf(const ossa_model *m, const char *path,
                                      const ossa_export_options *opt, ossa_error *err);

/* Receives a streamed export's bytes in order; returns false to stop it. */
typedef bool (*ossa_export_write_fn)(void *user, const void *data, size_t size);

/* The same export as one .glb byte stream handed to write(user, ...) in order, with nothing
 * written to the file system (textures are still read from beside the model's files). Returns
 * OSSA_OK, or a status with err filled (OSSA_ERR_IO when write returned false); on failure the
 * bytes already handed over are to be discarded. */
OSSA_API ossa_status ossa_export_glb_stream(const ossa_model *m, const ossa_export_options *opt,
                                            ossa_export_write_fn write, void *user,
                                            ossa_error *err);

/* The up axis an export with these options treats as the source's (never AUTO): opt->up when
 * set, else ossa_export_up_of_bounds over the box of every bind vertex. */
OSSA_API ossa_export_up ossa_export_source_up(const ossa_model *m, const ossa_export_options *opt);

/* The one up-axis guess (never AUTO), for the export, the writers and ossa-view, from the format
 * and a box around the model: the demo and CFF are Y up; Cal3D, SKM/SKP and C3S Z up (3ds Max,
 * Quake and Unreal conventions) unless the box is over 1.5 times taller along Y than along Z,
 * which marks a file exported Y up; an unknown format the taller of Y and Z. A box with a
 * non-finite height (no vertices) takes the format's default. */
OSSA_API ossa_export_up ossa_export_up_of_bounds(ossa_format format, const float min[3],
                                                 const float max[3]);

#ifdef __cplusplus
}
#endif
#endif
