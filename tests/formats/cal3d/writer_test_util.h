/* Helpers shared by the writer tests: a field-by-field model comparison, temporary folders and
 * loading a written Cal3D set back. */
#ifndef OSSA_WRITER_TEST_UTIL_H
#define OSSA_WRITER_TEST_UTIL_H

#include <stdbool.h>
#include "ossa/ossa.h"

typedef struct wt_compare_options {
    bool binary;         /* read back from CMF: a classic/upstream reader may flip the winding */
    bool imvu_binary;    /* read back from an IMVU (911..919) CMF, which never flips */
    bool track_flags;    /* compare the IMVU track hints (XML keeps them, CAF does not) */
    bool lights;         /* the written form kept node lights and the scene ambient colour */
    bool map_types;      /* the written form kept material map types */
} wt_compare_options;

/* Compares every field that the Cal3D forms store; each difference is a failed check naming
 * what differs (label prefixes the messages). Returns the number of differences. */
int wt_compare_models(const char *label, const ossa_model *a, const ossa_model *b,
                      const wt_compare_options *opt);

/* Fresh folder under /tmp (the template's XXXXXX replaced); false on failure. */
bool wt_make_temp_dir(char *out, size_t size, const char *prefix);
/* Removes the plain files in dir and then dir itself. */
void wt_remove_dir(const char *dir);
/* Number of entries (files) in dir, -1 when it cannot be read. */
int wt_count_files(const char *dir);

#endif
