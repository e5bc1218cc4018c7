/* Model configuration files (cfg.c): the scan that tells a Qfusion .cfg from a Cal3D one, and
 * the lines of a Cal3D model set. Loading the files they name is load.c's. */
#ifndef OSSA_IO_CFG_H
#define OSSA_IO_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include "core/build_context.h"

/* What a .cfg's text holds: Cal3D key=value lines and/or Qfusion's first `import` token
 * (docs/FORMATS.md, SKM/SKP: tokens are scanned until the first "import", any letter case; the next
 * token on its line is the pose file). */
typedef struct ossa_cfg_scan {
    bool import;          /* an import token was found */
    const char *path;     /* the token after it on the same line (path_len 0: none) */
    size_t path_len;
    int import_line;      /* 1-based */
    bool key_value;       /* some line starts with word= (a Cal3D model set) */
} ossa_cfg_scan;

void ossa_cfg_scan_text(const void *data, size_t size, ossa_cfg_scan *out);

/* A Qfusion .cfg: an import and no key=value line. Anything else stays a Cal3D model set. */
static inline bool ossa_cfg_is_qfusion(const ossa_cfg_scan *sc)
{
    return sc->import && !sc->key_value;
}

/* The first bytes of a .cfg checked for binary bytes before its size is looked at. */
#define OSSA_CFG_HEAD_BYTES 4096

/* A .cfg's whole text (NUL-terminated; the caller frees *text), read only when it is text: its
 * first OSSA_CFG_HEAD_BYTES bytes hold no NUL or control byte other than white space, its size
 * is at most OSSA_MAX_CFG_SIZE; then the whole text is checked the same way. Failures name the
 * offset and line (b->file is the cfg). */
ossa_status ossa_cfg_read_text(ossa_build *b, const char *path, uint8_t **text, size_t *size);

/* The kinds a Cal3D .cfg names, in the order a model set is read. */
enum {
    OSSA_CFG_SKELETON, OSSA_CFG_MESH, OSSA_CFG_ANIMATION, OSSA_CFG_MORPH_ANIMATION,
    OSSA_CFG_MATERIAL, OSSA_CFG_KIND_COUNT
};

typedef struct ossa_cfg_entry {
    int kind;     /* OSSA_CFG_* */
    int line;     /* in the .cfg, for messages */
    char key[16]; /* as written */
    char *path;   /* malloc'ed; relative names joined to the folder and path= */
} ossa_cfg_entry;

typedef struct ossa_cfg_set {
    ossa_cfg_entry *entries; /* malloc'ed, in file order */
    size_t count, cap;
    float scale; /* scale=, 1 when absent */
    char **folders; /* malloc'ed: the folder of each path= line (joined as files are), where
                     * the set's textures may also lie (io/texture_path.c) */
    size_t folder_count, folder_cap;
} ossa_cfg_set;

/* The lines of a Cal3D model set. text is the cfg's whole content (NUL-terminated; changed in
 * place); files it names are relative to base_dir (ending in '/' or empty), then to path=.
 * Warnings and failures name b->file's lines. The caller frees set with ossa_cfg_set_free,
 * also on failure. */
ossa_status ossa_cfg_parse(ossa_build *b, const char *base_dir, char *text, ossa_cfg_set *set);
void ossa_cfg_set_free(ossa_cfg_set *set);

/* path as given when it exists, else a name in the same folder that differs only in letter
 * case (Windows-made sets name MESH.CMF for mesh.cmf), with a warning. */
ossa_status ossa_cfg_resolve_case(ossa_build *b, const char *path, char *out, size_t out_size);

#endif
