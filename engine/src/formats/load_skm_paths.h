/* The SKM/SKP pairing's file lookups (load_skm_paths.c), used by load.c. Each function's
 * comment is at its definition. */
#ifndef OSSA_FORMATS_LOAD_SKM_PATHS_H
#define OSSA_FORMATS_LOAD_SKM_PATHS_H

#include <stdbool.h>
#include <stddef.h>
#include "core/build_context.h"
#include "io/cfg.h"

/* Whether path is a regular file (links followed). */
bool ossa_is_regular_file(const char *path);
/* OSSA_FORMAT_SKM or OSSA_FORMAT_SKP, else OSSA_FORMAT_UNKNOWN. */
ossa_format ossa_skm_kind(const char *path);
/* The pose file of the .skm at skm_path, into out. */
ossa_status ossa_find_skm_pose(ossa_build *b, const char *skm_path, char *out, size_t out_size);
/* The .skm a Qfusion .cfg (scanned into sc) stands for, into *skm (arena memory). */
ossa_status ossa_qfusion_cfg_model(ossa_build *b, const char *cfg_path, const ossa_cfg_scan *sc,
                                   const char **skm);

#endif
