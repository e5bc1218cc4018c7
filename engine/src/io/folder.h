/* Folders where a model is expected (folder.c): which files of a folder form the model. */
#ifndef OSSA_FOLDER_H
#define OSSA_FOLDER_H

#include <stdbool.h>
#include <stddef.h>
#include "core/build_context.h"

typedef struct ossa_path_list {
    char **paths; /* malloc'ed, each malloc'ed */
    size_t count, cap;
} ossa_path_list;

/* Whether path names a folder (following links). */
bool ossa_is_folder(const char *path);

/* Appends the model files of folder dir to out: its shallowest whole-model file (.cfg, C3S,
 * CFF) alone (the first by name; a warning names the others at that level), else every model
 * file in it and its subfolders, sorted by path. Fails, naming the folder, when it holds none. */
ossa_status ossa_folder_expand(ossa_build *b, const char *dir, ossa_path_list *out);

void ossa_path_list_free(ossa_path_list *list);

#endif
