/* What export and convert may write (an ossa_write_guard, write.h): never over one of the run's
 * inputs, never twice to one path in a run, unless --overwrite says so. Inputs are known by
 * device and inode, so another name for the same file (a hard link, "./x", "a/../x") is caught
 * too; outputs claimed by their folder's real path and their name. */
#ifndef OSSA_CLI_OUT_GUARD_H
#define OSSA_CLI_OUT_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "ossa/ossa.h"

typedef struct ossa_cli_input {
    dev_t dev;
    ino_t ino;
    char *path; /* as the user or the loader named it, for the refusal */
} ossa_cli_input;

typedef struct ossa_cli_guard {
    bool overwrite;          /* --overwrite: inputs and repeated outputs may be replaced */
    ossa_cli_input *inputs;
    size_t input_count, input_cap;
    char **claimed;          /* outputs of this run, folder resolved */
    size_t claimed_count, claimed_cap;
    /* The .cfg of the Cal3D set being written (its file name), or NULL: that set may replace
     * the files its own earlier .cfg lists, never those another .cfg in the folder lists. */
    const char *own_cfg;
} ossa_cli_guard;

/* A file named on the command line, or one a model was read from. Files that do not exist yet
 * are skipped. 0, or -1 when out of memory. */
int ossa_cli_guard_add_input(ossa_cli_guard *g, const char *path);
/* Every regular file under a folder given as input (links are not followed; at most
 * OSSA_CLI_GUARD_MAX_FILES files): in a batch, any of them may be read by a later model. */
int ossa_cli_guard_add_tree(ossa_cli_guard *g, const char *dir);
#define OSSA_CLI_GUARD_MAX_FILES 200000
/* The files a loaded model was read from (model->files). */
int ossa_cli_guard_add_model(ossa_cli_guard *g, const ossa_model *m);
/* Every input of a command line: files as themselves, folders with every file beneath. */
int ossa_cli_guard_add_args(ossa_cli_guard *g, const char *const *paths, size_t count);

/* The ossa_write_check_fn: refuses an input, a path this run already claimed, or an existing
 * file that another Cal3D .cfg beside it lists (a second set written into one folder would
 * otherwise break the first); claims path. */
bool ossa_cli_guard_check(void *user, const char *path, char *why, size_t why_size);

static inline ossa_write_guard ossa_cli_write_guard(ossa_cli_guard *g)
{
    ossa_write_guard w = {ossa_cli_guard_check, g};
    return w;
}

void ossa_cli_guard_free(ossa_cli_guard *g);

#endif
