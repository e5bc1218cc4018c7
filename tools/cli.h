/* Subcommands of the ossa CLI and the helpers they share. */
#ifndef OSSA_CLI_H
#define OSSA_CLI_H

#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <jansson.h>
#include "ossa/ossa.h"

int ossa_cmd_info(int argc, char **argv);
int ossa_cmd_sample(int argc, char **argv);
int ossa_cmd_bench(int argc, char **argv);
int ossa_cmd_export(int argc, char **argv);
int ossa_cmd_convert(int argc, char **argv);

/* Loads the model named by files (one or several) with opt (may be NULL); prints the error and
 * returns NULL. */
ossa_model *ossa_cli_load(const char *const *files, size_t count, const ossa_load_options *opt);

/* JSON goes through jansson (reals print with 9 significant digits): a double rounded to 6
 * significant digits (what %.6g prints), and a document printed (compact, or indented; every
 * character outside ASCII escaped) and released. */
double ossa_cli_json_round6(double v);
/* A figure for the benchmarks' JSON: rounded to 6 significant digits, or null when it is not
 * finite (JSON has no NaN or Inf; the tests then fail on the null). */
json_t *ossa_cli_json_num(double v);
void ossa_cli_json_print(FILE *out, json_t *doc, bool indent);
/* A JSON string of s (NULL: ""), valid UTF-8 whatever bytes s holds: bytes that are not UTF-8
 * are read as Latin-1 (cli_text.c). */
json_t *ossa_cli_json_text(const char *s);
/* Writes text for a terminal: valid UTF-8, control characters other than newline and tab (and
 * bytes that are not UTF-8) shown as \xNN or \uNNNN escapes. */
void ossa_cli_write_text(FILE *out, const char *text, size_t size);

/* Takes an argument that is not one of the command's options: a file name is appended to files,
 * anything else that starts with '-' is reported. Returns 0, or the exit status 2. */
int ossa_cli_take_file(const char *cmd, const char *arg, const char **files, size_t *count);

/* Load options every command shares (--frame-rate FPS, --allow-outside) at argv[*i]: returns 1
 * when taken (*i moved past its value), 0 when argv[*i] is not one, 2 (the exit status) for a
 * bad value. */
int ossa_cli_load_option(const char *cmd, int argc, char **argv, int *i, ossa_load_options *opt);
#define OSSA_CLI_LOAD_USAGE "[--frame-rate FPS] [--allow-outside]"
/* --scale F and --units m|cm|mm|in|ft (the source's unit, to metres) for export and convert:
 * multiplied into opt->scale (applied at load, as a .cfg's scale=). 1 taken, 0 not this
 * option, 2 bad value (message printed). */
int ossa_cli_scale_option(const char *cmd, int argc, char **argv, int *i, ossa_load_options *opt);
#define OSSA_CLI_SCALE_USAGE "[--scale F] [--units m|cm|mm|in|ft]"
/* What --allow-outside does, for every command's help. */
#define OSSA_CLI_ALLOW_OUTSIDE_HELP                                                           \
    "--allow-outside: follow material texture paths that lead outside the model's\n"        \
    "folders (the .cfg's or model file's, path=, the material's; '..', absolute names\n"     \
    "and links out are otherwise left out with a warning), and links to files outside\n"    \
    "a folder opened as the model.\n"

/* Loads files as one model for a command (usage printed when none are given). Returns the model,
 * or NULL with *status set to the exit status (2 usage, 1 load error). Frees files. */
ossa_model *ossa_cli_load_args(const char *usage, const char **files, size_t count,
                               const ossa_load_options *opt, int *status);

#endif
