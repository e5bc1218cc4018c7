/* Subcommands of the ossa CLI and the helpers they share. */
#ifndef OSSA_CLI_H
#define OSSA_CLI_H

#include <stddef.h>
#include <stdio.h>
#include "ossa/ossa.h"

int ossa_cmd_info(int argc, char **argv);
int ossa_cmd_sample(int argc, char **argv);
int ossa_cmd_bench(int argc, char **argv);

/* Loads the model named by files (one or several); prints the error and returns NULL. */
ossa_model *ossa_cli_load(const char *const *files, size_t count);

/* Takes an argument that is not one of the command's options: a file name is appended to files,
 * anything else that starts with '-' is reported. Returns 0, or the exit status 2. */
/* A JSON string literal (quotes and escapes included). */
void ossa_cli_json_string(FILE *out, const char *s);

int ossa_cli_take_file(const char *cmd, const char *arg, const char **files, size_t *count);

/* Loads files as one model for a command (usage printed when none are given). Returns the model,
 * or NULL with *status set to the exit status (2 usage, 1 load error). Frees files. */
ossa_model *ossa_cli_load_args(const char *usage, const char **files, size_t count, int *status);

#endif
