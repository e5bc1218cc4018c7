/* Walking inputs into models for export and convert batches. */
#include "batch.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

bool ossa_batch_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *ossa_batch_file_ext(const char *out)
{
    size_t n = strlen(out);
    if (!n || out[n - 1] == '/' || ossa_batch_is_dir(out))
        return NULL;
    const char *base = strrchr(out, '/');
    base = base ? base + 1 : out;
    const char *dot = strrchr(base, '.');
    return dot && dot > base && dot[1] ? dot + 1 : NULL;
}

typedef enum entry_kind { ENTRY_SKIP, ENTRY_DIR, ENTRY_FILE } entry_kind;

/* What an entry met while walking is. Links to folders are not followed (no loops); a link to a
 * file is taken only when the file lies inside the folder the walk was given (b->root), so a
 * batch never reads outside what the user named. An entry that cannot be examined (a path
 * too long for the system, say) is reported and counted as a failure of the run. */
static entry_kind entry_of(ossa_batch *b, const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        fprintf(stderr, "ossa: %s: cannot examine: %s\n", path, strerror(errno));
        b->unreadable++;
        return ENTRY_SKIP;
    }
    if (S_ISDIR(st.st_mode))
        return ENTRY_DIR;
    if (!S_ISLNK(st.st_mode))
        return ENTRY_FILE;
    char *target = realpath(path, NULL);
    size_t n = b->root ? strlen(b->root) : 0;
    bool inside = target && b->root && !strncmp(target, b->root, n) && target[n] == '/';
    struct stat to;
    bool dir = target && stat(target, &to) == 0 && S_ISDIR(to.st_mode);
    if (!inside && !dir)
        fprintf(stderr, "ossa: %s: skipped: a link to %s, outside %s\n", path,
                target ? target : "nothing", b->root ? b->root : "the folder given");
    free(target);
    return inside && !dir ? ENTRY_FILE : ENTRY_SKIP;
}

int ossa_batch_mkdirs(const char *path)
{
    char *p = strdup(path);
    if (!p)
        return -1;
    for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            free(p);
            return -1;
        }
        *s = '/';
    }
    free(p);
    return 0;
}

bool ossa_cli_nothing_to_export(const ossa_model *m, char *why, size_t why_size)
{
    if (m->bone_count || m->mesh_count)
        return false;
    snprintf(why, why_size, "nothing to export (%s)",
             m->clip_count || m->morph_clip_count ? "an animation without a skeleton"
                                                  : "no skeleton and no mesh");
    return true;
}

void ossa_cli_warning_add(void *user, const char *message)
{
    ossa_cli_warnings *w = user;
    if (w->count == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 8;
        char **grown = realloc(w->lines, cap * sizeof *grown);
        if (!grown)
            return;
        w->lines = grown;
        w->cap = cap;
    }
    char *copy = strdup(message);
    if (copy)
        w->lines[w->count++] = copy;
}

void ossa_cli_warnings_clear(ossa_cli_warnings *w)
{
    for (size_t i = 0; i < w->count; i++)
        free(w->lines[i]);
    free(w->lines);
    memset(w, 0, sizeof *w);
}

static const char *extension(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && dot != name ? dot + 1 : "";
}

static bool is_cal3d(const char *name)
{
    static const char *const ext[] = {"csf", "cmf", "caf", "crf", "cpf", "xsf", "xmf", "xaf",
                                      "xrf", "xpf"};
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
        if (!strcasecmp(extension(name), ext[i]))
            return true;
    return false;
}

static bool is_skeleton(const char *name)
{
    return !strcasecmp(extension(name), "csf") || !strcasecmp(extension(name), "xsf");
}

/* Models that stand alone (an .skp is read with its .skm). */
static bool is_loose_model(const char *name)
{
    static const char *const ext[] = {"skm", "c3s", "cff"};
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
        if (!strcasecmp(extension(name), ext[i]))
            return true;
    return false;
}

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", a, *a && a[strlen(a) - 1] != '/' && *b ? "/" : "", b);
    return s;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted entry names of a folder (no . or ..); NULL on error. */
static char **list_dir(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    size_t cap = 16;
    char **names = malloc(cap * sizeof *names);
    *n = 0;
    struct dirent *e;
    while (names && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (*n == cap) {
            char **grown = realloc(names, 2 * cap * sizeof *grown);
            if (!grown)
                break;
            names = grown;
            cap *= 2;
        }
        names[(*n)++] = strdup(e->d_name);
    }
    closedir(d);
    if (names)
        qsort(names, *n, sizeof *names, by_name);
    return names;
}

static void free_list(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* The output path for an attempt: rel/<stem>.<ext>, then rel/<stem>_<source ext>.<ext>, then
 * rel/<stem>_<n>.<ext> (malloc'ed, never cut short: a path too long for the system is refused
 * when it is written, naming it). */
static char *output_name(const char *outdir, const char *rel, const char *stem,
                         const char *src_ext, const char *ext, size_t attempt)
{
    size_t n = strlen(rel) + strlen(stem) + strlen(src_ext) + strlen(ext) + 32;
    char *leaf = malloc(n);
    if (!leaf)
        return NULL;
    const char *sep = *rel ? "/" : "";
    if (attempt == 0)
        snprintf(leaf, n, "%s%s%s.%s", rel, sep, stem, ext);
    else if (attempt == 1)
        snprintf(leaf, n, "%s%s%s_%s.%s", rel, sep, stem, src_ext, ext);
    else
        snprintf(leaf, n, "%s%s%s_%zu.%s", rel, sep, stem, attempt, ext);
    char *out = join(outdir, leaf);
    free(leaf);
    return out;
}

static bool name_taken(const ossa_batch *b, const char *out)
{
    for (size_t i = 0; i < b->count; i++)
        if (!strcasecmp(b->models[i].out, out)) /* as file systems that ignore case would */
            return true;
    return false;
}

/* Adds a model; its output name is rel/<name>.<ext>, or rel/<name>_<source ext>.<ext> when an
 * earlier model of the batch took that name, or rel/<name>_<n>.<ext> with the first n free:
 * every output of a batch has a name of its own, whatever the count. */
static int add_model(ossa_batch *b, char **files, size_t count, const char *label,
                     const char *outdir, const char *rel, const char *name, const char *src_ext,
                     const char *ext)
{
    if (b->count == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 16;
        ossa_batch_model *grown = realloc(b->models, cap * sizeof *grown);
        if (!grown)
            return 1;
        b->models = grown;
        b->cap = cap;
    }
    char *stem = strdup(name);
    if (!stem)
        return 1;
    char *dot = strrchr(stem, '.');
    if (dot && dot != stem)
        *dot = '\0';
    char *out = NULL;
    /* at most b->count names are taken, so a free one is found within b->count + 3 tries */
    for (size_t attempt = 0; attempt < b->count + 3; attempt++) {
        free(out);
        out = output_name(outdir, rel, stem, src_ext, ext, attempt);
        if (!out || !name_taken(b, out))
            break;
    }
    free(stem);
    ossa_batch_model *m = &b->models[b->count];
    m->files = files;
    m->file_count = count;
    m->label = strdup(label);
    m->out = out;
    if (!m->label || !m->out) {
        free(m->label);
        free(m->out);
        return 1;
    }
    b->count++;
    return 0;
}

static int add_single(ossa_batch *b, const char *path, const char *outdir, const char *rel,
                      const char *name, const char *ext)
{
    char **files = malloc(sizeof *files);
    char *copy = strdup(path);
    if (!files || !copy) {
        free(files);
        free(copy);
        return 1;
    }
    files[0] = copy;
    if (add_model(b, files, 1, path, outdir, rel, name, extension(name), ext)) {
        free(copy);
        free(files);
        return 1;
    }
    return 0;
}

/* Every Cal3D file under dir, appended to *files. */
static int gather_cal3d(ossa_batch *b, const char *dir, char ***files, size_t *n, size_t *cap)
{
    size_t count;
    char **names = list_dir(dir, &count);
    if (!names)
        return 1;
    int rc = 0;
    for (size_t i = 0; i < count && !rc; i++) {
        char *path = join(dir, names[i]);
        entry_kind kind = path ? entry_of(b, path) : ENTRY_SKIP;
        if (!path) {
            rc = 1;
        } else if (kind == ENTRY_DIR) {
            rc = gather_cal3d(b, path, files, n, cap);
        } else if (kind == ENTRY_FILE && is_cal3d(names[i])) {
            if (*n == *cap) {
                char **grown = realloc(*files, 2 * *cap * sizeof *grown);
                if (!grown) {
                    free(path);
                    rc = 1;
                    break;
                }
                *files = grown;
                *cap *= 2;
            }
            (*files)[(*n)++] = path;
            path = NULL;
        }
        free(path);
    }
    free_list(names, count);
    return rc;
}

static int walk(ossa_batch *b, const char *dir, const char *rel, const char *outdir,
                const char *ext)
{
    size_t count;
    char **names = list_dir(dir, &count);
    if (!names) {
        fprintf(stderr, "ossa: %s: cannot read the folder: %s\n", dir, strerror(errno));
        return 1;
    }
    size_t cfgs = 0, skeletons = 0;
    for (size_t i = 0; i < count; i++) {
        cfgs += !strcasecmp(extension(names[i]), "cfg");
        skeletons += is_skeleton(names[i]);
    }
    bool one_set = !cfgs && skeletons == 1;
    int rc = 0;
    if (one_set) { /* a folder holding one Cal3D character: one model of every Cal3D file */
        size_t n = 0, cap = 16;
        char **files = malloc(cap * sizeof *files);
        rc = !files || gather_cal3d(b, dir, &files, &n, &cap);
        const char *leaf = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
        if (!rc && !*leaf) /* dir ends in '/' */
            leaf = "model";
        if (!rc && add_model(b, files, n, dir, outdir, rel, leaf, "", ext))
            rc = 1;
        if (rc && files) {
            for (size_t i = 0; i < n; i++)
                free(files[i]);
            free(files);
        }
    }
    for (size_t i = 0; i < count && !rc; i++) {
        char *path = join(dir, names[i]);
        if (!path) {
            rc = 1;
            break;
        }
        entry_kind kind = entry_of(b, path);
        if (kind == ENTRY_DIR) {
            if (!one_set) {
                char *sub = join(rel, names[i]);
                rc = !sub || walk(b, path, sub, outdir, ext);
                free(sub);
            }
        } else if (kind == ENTRY_FILE &&
                   (!strcasecmp(extension(names[i]), "cfg") || is_loose_model(names[i]) ||
                    (!cfgs && !one_set && is_cal3d(names[i])))) {
            rc = add_single(b, path, outdir, rel, names[i], ext);
        }
        free(path);
    }
    free_list(names, count);
    return rc;
}

int ossa_batch_collect(ossa_batch *b, const char *const *inputs, size_t count, const char *outdir,
                       const char *ext)
{
    for (size_t i = 0; i < count; i++) {
        const char *leaf = strrchr(inputs[i], '/') ? strrchr(inputs[i], '/') + 1 : inputs[i];
        int rc;
        if (ossa_batch_is_dir(inputs[i])) {
            b->root = realpath(inputs[i], NULL);
            rc = !b->root || walk(b, inputs[i], "", outdir, ext);
            free(b->root);
            b->root = NULL;
        } else {
            rc = add_single(b, inputs[i], outdir, "", leaf, ext);
        }
        if (rc) {
            fprintf(stderr, "ossa: %s: cannot collect its models\n", inputs[i]);
            return 1;
        }
    }
    return 0;
}

void ossa_batch_free(ossa_batch *b)
{
    for (size_t i = 0; i < b->count; i++) {
        for (size_t k = 0; k < b->models[i].file_count; k++)
            free(b->models[i].files[k]);
        free(b->models[i].files);
        free(b->models[i].label);
        free(b->models[i].out);
    }
    free(b->models);
    memset(b, 0, sizeof *b);
}
