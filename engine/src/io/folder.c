/* A folder given where a model is expected (ossa_load_file(s), so every command and the
 * viewer's drag and drop): the folder's whole-model file, else every model file in it and its
 * subfolders. A .cfg, a C3S scene and a CFF model each are a whole model, so the shallowest one
 * wins (the first by name when a level holds several, with a warning naming the others);
 * without one, loose files form the model, as a set laid out as Arthur.CSF beside cafc/, cmfc/
 * and tex/ folders does. Files count
 * when ossa_sniff recognises their first bytes and name; only regular files are opened (a FIFO
 * would block), symbolic links to folders are not followed (no loops), a link to a file outside
 * the given folder is left out with a warning unless allow_outside (nothing outside what the
 * user named is read: docs/RELIABILITY.md), and the walk is bounded in depth and entries. */
#define _GNU_SOURCE /* strdup, DT_* */
#include "io/folder.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "ossa/limits.h"
#include "io/file_io.h"
#include "io/sniff.h"

#define FOLDER_MAX_DEPTH 8         /* subfolder levels searched below the given folder */
#define FOLDER_MAX_ENTRIES 100000u /* directory entries looked at, in all */

typedef struct found_file {
    char *path;
    unsigned depth;
    bool whole; /* a .cfg, C3S or CFF: a model on its own */
} found_file;

typedef struct walk {
    ossa_build *b;
    const char *root; /* the real path of the folder given, or NULL when it has none */
    found_file *files;
    size_t count, cap;
    size_t entries;
    size_t links_out; /* links to files outside the folder, left out */
    bool truncated;
} walk;

bool ossa_is_folder(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_cfg_name(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot && strcasecmp(dot, ".cfg") == 0;
}

/* The format of a regular file from its first bytes and name. */
static ossa_format sniff_path(const char *path)
{
    struct stat st;
    FILE *f = ossa_file_open_regular(path, &st);
    if (!f)
        return OSSA_FORMAT_UNKNOWN;
    unsigned char head[4096];
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    return ossa_sniff(head, got, path);
}

static ossa_status add_file(walk *w, char *path, unsigned depth, bool whole)
{
    if (w->count == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 32;
        found_file *grown = realloc(w->files, cap * sizeof *grown);
        if (!grown) {
            free(path);
            return ossa_fail(w->b, OSSA_ERR_NOMEM, -1, "out of memory listing a folder");
        }
        w->files = grown;
        w->cap = cap;
    }
    w->files[w->count++] = (found_file){path, depth, whole};
    return OSSA_OK;
}

/* Whether a link's file lies inside the given folder (a buffer on the stack: realpath's own
 * allocation would escape the allocation-failure tests). */
static bool inside(const walk *w, const char *path)
{
    char real[PATH_MAX];
    if (!w->root || !realpath(path, real))
        return false;
    size_t n = strlen(w->root);
    return !strncmp(real, w->root, n) && (real[n] == '/' || n == 1);
}

static ossa_status walk_dir(walk *w, const char *dir, unsigned depth)
{
    DIR *d = opendir(dir);
    if (!d) {
        if (depth == 0)
            return ossa_fail(w->b, OSSA_ERR_IO, -1, "cannot open the folder");
        return OSSA_OK; /* an unreadable subfolder: the rest of the set may still open */
    }
    ossa_status st = OSSA_OK;
    struct dirent *e;
    while (st == OSSA_OK && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue; /* ., .. and hidden files */
        if (++w->entries > FOLDER_MAX_ENTRIES || w->count >= OSSA_MAX_FILES) {
            w->truncated = true;
            break;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(len);
        if (!path) {
            st = ossa_fail(w->b, OSSA_ERR_NOMEM, -1, "out of memory listing a folder");
            break;
        }
        snprintf(path, len, "%s/%s", dir, e->d_name);
        struct stat lst, fst;
        ossa_format format;
        if (lstat(path, &lst) != 0 || stat(path, &fst) != 0) {
            free(path);
            continue;
        }
        if (S_ISDIR(fst.st_mode)) {
            if (!S_ISLNK(lst.st_mode) && depth < FOLDER_MAX_DEPTH)
                st = walk_dir(w, path, depth + 1);
            free(path);
        } else if (S_ISLNK(lst.st_mode) && !w->b->opt.allow_outside && !inside(w, path)) {
            ossa_warn(w->b, "left out '%s': a link to a file outside the folder "
                      "(allow_outside keeps it)", path);
            w->links_out++;
            free(path);
        } else if (S_ISREG(fst.st_mode) && (format = sniff_path(path)) != OSSA_FORMAT_UNKNOWN) {
            st = add_file(w, path, depth,
                          is_cfg_name(path) || format == OSSA_FORMAT_C3S ||
                              format == OSSA_FORMAT_CFF);
        } else {
            free(path);
        }
    }
    closedir(d);
    return st;
}

/* Paths by name, a folder's own files before its subfolders' ('/' sorts first). */
static int by_path(const void *a, const void *b)
{
    const unsigned char *p = (const unsigned char *)((const found_file *)a)->path;
    const unsigned char *q = (const unsigned char *)((const found_file *)b)->path;
    for (; *p && *p == *q; p++, q++)
        ;
    int cp = *p == '/' ? 1 : *p, cq = *q == '/' ? 1 : *q;
    return cp - cq;
}

ossa_status ossa_folder_expand(ossa_build *b, const char *dir, ossa_path_list *out)
{
    char root[PATH_MAX];
    walk w = {b, realpath(dir, root), NULL, 0, 0, 0, 0, false};
    const char *was = b->file;
    b->file = dir;
    ossa_status st = walk_dir(&w, dir, 0);
    if (st == OSSA_OK && w.count == 0 && w.links_out)
        st = ossa_fail(b, OSSA_ERR_IO, -1, "no file Ossa reads in this folder or its subfolders "
                       "(%zu link%s to files outside the folder left out; allow_outside keeps "
                       "them)", w.links_out, w.links_out == 1 ? "" : "s");
    else if (st == OSSA_OK && w.count == 0)
        st = ossa_fail(b, OSSA_ERR_IO, -1,
                       "no file Ossa reads in this folder or its subfolders");
    if (st == OSSA_OK && w.truncated)
        ossa_warn(b, "the folder holds more than %u entries or %u model files; the rest were "
                  "not looked at", FOLDER_MAX_ENTRIES, OSSA_MAX_FILES);
    if (w.count)
        qsort(w.files, w.count, sizeof *w.files, by_path);
    /* The shallowest whole-model file, the first by name at that level. */
    size_t whole = w.count;
    unsigned others = 0;
    for (size_t i = 0; i < w.count; i++)
        if (w.files[i].whole && (whole == w.count || w.files[i].depth < w.files[whole].depth))
            whole = i;
    for (size_t i = 0; i < w.count && whole < w.count; i++)
        others += i != whole && w.files[i].whole && w.files[i].depth == w.files[whole].depth;
    if (st == OSSA_OK && others) {
        char names[600] = "";
        size_t used = 0;
        for (size_t i = 0; i < w.count && used + 1 < sizeof names; i++) {
            if (i == whole || !w.files[i].whole || w.files[i].depth != w.files[whole].depth)
                continue;
            int n = snprintf(names + used, sizeof names - used, "%s'%s'", used ? ", " : "",
                             w.files[i].path);
            if (n > 0)
                used += (size_t)n;
        }
        ossa_warn(b, "the folder holds %u models side by side; opened '%s', the first by name, "
                  "not %s", others + 1, w.files[whole].path, names);
    }
    for (size_t i = 0; i < w.count; i++) {
        bool keep = st == OSSA_OK && (whole < w.count ? i == whole : !w.files[i].whole);
        if (keep && out->count < OSSA_MAX_FILES) {
            char **grown = out->count == out->cap
                               ? realloc(out->paths, (out->cap ? 2 * out->cap : 16) * sizeof *grown)
                               : out->paths;
            if (!grown) {
                st = ossa_fail(b, OSSA_ERR_NOMEM, -1, "out of memory listing a folder");
            } else {
                if (out->count == out->cap)
                    out->cap = out->cap ? 2 * out->cap : 16;
                out->paths = grown;
                out->paths[out->count++] = w.files[i].path;
                continue;
            }
        }
        free(w.files[i].path);
    }
    free(w.files);
    b->file = was;
    return st;
}

void ossa_path_list_free(ossa_path_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->paths[i]);
    free(list->paths);
    list->paths = NULL;
    list->count = list->cap = 0;
}
