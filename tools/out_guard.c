/* The outputs export and convert may write (out_guard.h; docs/RELIABILITY.md). */
#include "out_guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* Repeats are kept (a tree and a model may name the same file): checking stays linear. */
static int add_stat(ossa_cli_guard *g, const struct stat *st, const char *path)
{
    if (g->input_count == g->input_cap) {
        size_t cap = g->input_cap ? 2 * g->input_cap : 32;
        ossa_cli_input *grown = realloc(g->inputs, cap * sizeof *grown);
        if (!grown)
            return -1;
        g->inputs = grown;
        g->input_cap = cap;
    }
    char *copy = strdup(path);
    if (!copy)
        return -1;
    g->inputs[g->input_count++] = (ossa_cli_input){st->st_dev, st->st_ino, copy};
    return 0;
}

int ossa_cli_guard_add_input(ossa_cli_guard *g, const char *path)
{
    struct stat st;
    /* the file the name reaches: writing over a link to an input replaces the link only, but
     * the input itself is what must stay */
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    return add_stat(g, &st, path);
}

static int add_tree(ossa_cli_guard *g, const char *dir, int depth)
{
    if (depth > 64 || g->input_count >= OSSA_CLI_GUARD_MAX_FILES)
        return 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL && g->input_count < OSSA_CLI_GUARD_MAX_FILES) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(n);
        if (!path) {
            rc = -1;
            break;
        }
        snprintf(path, n, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0) {
            if (S_ISDIR(st.st_mode))
                rc = add_tree(g, path, depth + 1);
            else if (S_ISREG(st.st_mode))
                rc = add_stat(g, &st, path);
        }
        free(path);
    }
    closedir(d);
    return rc;
}

int ossa_cli_guard_add_tree(ossa_cli_guard *g, const char *dir)
{
    return add_tree(g, dir, 0);
}

int ossa_cli_guard_add_model(ossa_cli_guard *g, const ossa_model *m)
{
    for (uint32_t i = 0; m && i < m->file_count; i++)
        if (ossa_cli_guard_add_input(g, m->files[i]) != 0)
            return -1;
    return 0;
}

int ossa_cli_guard_add_args(ossa_cli_guard *g, const char *const *paths, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        int rc = stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)
                     ? ossa_cli_guard_add_tree(g, paths[i])
                     : ossa_cli_guard_add_input(g, paths[i]);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* path with its folder resolved (links and ".." in the folder followed), so that two spellings
 * of one output compare equal; the last part is kept as written (it may not exist yet). */
static char *resolved(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    char *real = dir ? realpath(dir, NULL) : NULL;
    const char *leaf = slash ? slash + 1 : path;
    char *out = NULL;
    if (real) {
        size_t n = strlen(real) + strlen(leaf) + 2;
        out = malloc(n);
        if (out)
            snprintf(out, n, "%s/%s", real, leaf);
    } else {
        out = strdup(path); /* the folder does not exist (yet): as written */
    }
    free(real);
    free(dir);
    return out;
}

/* Whether a .cfg's text lists a file named leaf (its key=value lines; the value's last part,
 * letter case ignored as Cal3D sets come from systems that ignore it). */
static bool cfg_lists(const char *text, const char *leaf)
{
    size_t n = strlen(leaf);
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *eq = memchr(line, '=', len);
        if (eq && line[0] != '#') {
            const char *v = eq + 1, *stop = line + len;
            while (stop > v && (stop[-1] == '\r' || stop[-1] == ' ' || stop[-1] == '\t'))
                stop--;
            for (const char *q = v; q < stop; q++)
                if (*q == '/' || *q == '\\')
                    v = q + 1;
            while (v < stop && (*v == ' ' || *v == '\t'))
                v++;
            if ((size_t)(stop - v) == n && !strncasecmp(v, leaf, n))
                return true;
        }
        line += len + (end != NULL);
    }
    return false;
}

/* The .cfg beside path (not the set's own) that lists path's file, copied into cfg, or false.
 * At most 64 .cfg files of at most 64 KiB each are read: a folder of sets, not a hostile one. */
static bool listed_by_other_cfg(const ossa_cli_guard *g, const char *path, char *cfg,
                                size_t cfg_size)
{
    const char *slash = strrchr(path, '/');
    const char *leaf = slash ? slash + 1 : path;
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    DIR *d = dir ? opendir(dir) : NULL;
    bool found = false;
    int seen = 0;
    struct dirent *e;
    while (d && !found && seen < 64 && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcasecmp(e->d_name + len - 4, ".cfg") ||
            (g->own_cfg && !strcmp(e->d_name, g->own_cfg)))
            continue;
        seen++;
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", dir, e->d_name);
        int fd = open(file, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0)
            continue;
        char *text = NULL;
        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= 65536 &&
            (text = malloc((size_t)st.st_size + 1)) != NULL) {
            ssize_t got = read(fd, text, (size_t)st.st_size);
            text[got > 0 ? got : 0] = '\0';
            if (cfg_lists(text, leaf)) {
                snprintf(cfg, cfg_size, "%s", file);
                found = true;
            }
        }
        free(text);
        close(fd);
    }
    if (d)
        closedir(d);
    free(dir);
    return found;
}

bool ossa_cli_guard_check(void *user, const char *path, char *why, size_t why_size)
{
    ossa_cli_guard *g = user;
    struct stat st;
    if (!g->overwrite && lstat(path, &st) == 0 && S_ISREG(st.st_mode))
        for (size_t i = 0; i < g->input_count; i++)
            if (g->inputs[i].dev == st.st_dev && g->inputs[i].ino == st.st_ino) {
                snprintf(why, why_size, "it is the input %s (--overwrite replaces it)",
                         g->inputs[i].path);
                return false;
            }
    char cfg[4096];
    if (!g->overwrite && lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
        listed_by_other_cfg(g, path, cfg, sizeof cfg)) {
        snprintf(why, why_size, "it belongs to the set %s (--overwrite replaces it)", cfg);
        return false;
    }
    char *key = resolved(path);
    if (!key) {
        snprintf(why, why_size, "out of memory");
        return false;
    }
    for (size_t i = 0; i < g->claimed_count; i++)
        if (!strcmp(g->claimed[i], key)) {
            free(key);
            if (g->overwrite)
                return true;
            snprintf(why, why_size, "another output of this run has the same path "
                                    "(--overwrite lets the later one replace it)");
            return false;
        }
    if (g->claimed_count == g->claimed_cap) {
        size_t cap = g->claimed_cap ? 2 * g->claimed_cap : 32;
        char **grown = realloc(g->claimed, cap * sizeof *grown);
        if (!grown) {
            free(key);
            snprintf(why, why_size, "out of memory");
            return false;
        }
        g->claimed = grown;
        g->claimed_cap = cap;
    }
    g->claimed[g->claimed_count++] = key;
    return true;
}

void ossa_cli_guard_free(ossa_cli_guard *g)
{
    for (size_t i = 0; i < g->input_count; i++)
        free(g->inputs[i].path);
    for (size_t i = 0; i < g->claimed_count; i++)
        free(g->claimed[i]);
    free(g->inputs);
    free(g->claimed);
    memset(g, 0, sizeof *g);
}
