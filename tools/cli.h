/* Subcommands of the ossa CLI and the helpers they share. */
#ifndef OSSA_CLI_H
#define OSSA_CLI_H

#include <stddef.h>
#include "ossa/ossa.h"

int ossa_cmd_info(int argc, char **argv);
int ossa_cmd_sample(int argc, char **argv);

/* Loads the model named by files (one or several); prints the error and returns NULL. */
ossa_model *ossa_cli_load(const char *const *files, size_t count);

#endif
