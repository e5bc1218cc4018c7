/* Batch runs of export and convert: the models named by files and folders, each written into an
 * output folder with one progress line on stderr, and a summary. */
#ifndef OSSA_CLI_BATCH_H
#define OSSA_CLI_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include "ossa/ossa.h"
#include "out_guard.h"

/* One model of a batch: its files (loaded together) and where its output goes. */
typedef struct ossa_batch_model {
    char **files;
    size_t file_count;
    char *label;             /* what the progress line names (the .cfg, the file, the folder) */
    char *out;               /* output path: OUTDIR/relative/name.EXT */
} ossa_batch_model;

typedef struct ossa_batch {
    ossa_batch_model *models;
    size_t count, cap;
    size_t unreadable; /* entries the walk could not examine: the run fails */
    char *root;        /* while walking: the real path of the folder given */
} ossa_batch;

/* Collects the models of inputs (files are models of their own; folders are walked: every .cfg,
 * else a folder with one Cal3D skeleton is one model of every Cal3D file beneath it, else each
 * loose model file) with outputs OUTDIR/<path under the input folder>/<name>.<ext>. Returns 0,
 * or prints why and returns 1. */
int ossa_batch_collect(ossa_batch *b, const char *const *inputs, size_t count, const char *outdir,
                       const char *ext);
void ossa_batch_free(ossa_batch *b);

/* Creates the folders of path (not its last part). 0 or -1. */
int ossa_batch_mkdirs(const char *path);

/* Whether path names an existing folder. */
bool ossa_batch_is_dir(const char *path);

/* The extension of -o's last part when it names a file rather than a folder: a dot after its
 * first character, no trailing '/', and not an existing folder. NULL when -o is a folder. */
const char *ossa_batch_file_ext(const char *out);

/* The warnings of one model's write, kept for its progress line. */
typedef struct ossa_cli_warnings {
    char **lines;
    size_t count, cap;
} ossa_cli_warnings;

/* An ossa_log_fn: export and convert give it to the load (a texture left out, keys sorted, ...)
 * and to the writer, to say what the load changed as well as what the target drops. */
void ossa_cli_warning_add(void *user, const char *message);
void ossa_cli_warnings_clear(ossa_cli_warnings *w);

/* A model with neither a skeleton nor a mesh (a lone CAF, XAF or material) has nothing a scene
 * format can hold: writes why ("nothing to export (an animation without a skeleton)") and
 * returns true. Batch functions then return OSSA_CLI_SKIPPED. */
bool ossa_cli_nothing_to_export(const ossa_model *m, char *why, size_t why_size);
#define OSSA_CLI_SKIPPED 2

/* Writes one model of a batch: 0 written (warnings in w), 1 failed (why says why),
 * OSSA_CLI_SKIPPED nothing to write (why says why; neither written nor failed). */
typedef int (*ossa_cli_batch_fn)(const ossa_batch_model *bm, void *user, ossa_cli_warnings *w,
                                 char *why, size_t why_size);

/* Runs fn over every model with a progress line each on stderr ("[i/n] LABEL -> OUT: ok, N
 * warnings" or "FAILED: why"; verbose lists the warnings), going on past failures, then a
 * summary line counting the models written and the files they wrote (what fn's writes claimed
 * from guard). Returns 1 when any failed, else 0. */
int ossa_cli_run_batch(const char *cmd, ossa_batch *b, ossa_cli_batch_fn fn, void *user,
                       bool verbose, const ossa_cli_guard *guard);

#endif
