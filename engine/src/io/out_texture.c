/* Textures copied beside a written model (out_texture.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/out_texture.h"
#include "io/texture_path.h"
#include "io/write_buf.h"
#include "ossa/files.h"

/* Names tried before giving up: the plain name, the stem's, then numbered ones. */
#define NAME_TRIES 64

/* n bytes of s and a NUL, through malloc (strndup's allocation escapes the tests' counting). */
static char *copy_text(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

ossa_status ossa_out_textures_init(ossa_out_textures *t, ossa_out_set *set, const char *out_path)
{
    memset(t, 0, sizeof *t);
    t->set = set;
    const char *base = ossa_path_last_part(out_path);
    size_t dir_len = (size_t)(base - out_path);
    t->dir = copy_text(out_path, dir_len);
    const char *dot = strrchr(base, '.');
    t->stem = copy_text(base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
    if (!t->dir || !t->stem)
        return ossa_write_fail(set->err, OSSA_ERR_NOMEM, out_path, "out of memory");
    return OSSA_OK;
}

/* Whether a name is free beside the output: no file there, or one with exactly these bytes
 * (*same then), and no other texture of this write took it. */
static bool name_free(const ossa_out_textures *t, const char *path, const ossa_texture_file *tex,
                      bool *same)
{
    *same = false;
    for (size_t i = 0; i < t->count; i++)
        if (!strcmp(t->names[i], ossa_path_last_part(path)))
            return false;
    struct stat st;
    if (lstat(path, &st) != 0)
        return true;
    *same = ossa_out_same_bytes(path, tex->data, tex->size);
    return *same;
}

ossa_status ossa_out_texture(ossa_out_textures *t, const char *map_path, const char **name,
                             char *why, size_t why_size)
{
    *name = NULL;
    ossa_texture_file tex;
    ossa_error err;
    if (ossa_texture_read(map_path, &tex, &err) != OSSA_OK) {
        ossa_error_format(&err, why, (unsigned)why_size);
        return OSSA_OK;
    }
    for (size_t i = 0; i < t->count; i++)
        if (!strcmp(t->sources[i], tex.path)) {
            ossa_texture_file_free(&tex);
            *name = t->names[i];
            return OSSA_OK;
        }
    const char *base = ossa_path_last_part(tex.path);
    size_t cap = strlen(t->dir) + strlen(t->stem) + strlen(base) + 32;
    char *path = malloc(cap);
    char **sources = realloc(t->sources, (t->count + 1) * sizeof *sources);
    if (sources)
        t->sources = sources;
    char **names = realloc(t->names, (t->count + 1) * sizeof *names);
    if (names)
        t->names = names;
    if (!path || !sources || !names) {
        free(path);
        ossa_texture_file_free(&tex);
        return ossa_write_fail(t->set->err, OSSA_ERR_NOMEM, map_path, "out of memory");
    }
    bool same = false, found = false;
    for (int k = 0; k < NAME_TRIES && !found; k++) {
        if (k == 0)
            snprintf(path, cap, "%s%s", t->dir, base);
        else if (k == 1)
            snprintf(path, cap, "%s%s_%s", t->dir, t->stem, base);
        else
            snprintf(path, cap, "%s%s_%d_%s", t->dir, t->stem, k, base);
        found = name_free(t, path, &tex, &same);
    }
    ossa_status st = OSSA_OK;
    if (!found)
        st = ossa_write_fail(t->set->err, OSSA_ERR_REFUSED, path, "%d names for texture %s are "
                             "taken by other files", NAME_TRIES, tex.path);
    else if (!same)
        st = ossa_out_add(t->set, path, tex.data, tex.size, NULL, 0);
    char *source = st == OSSA_OK ? copy_text(tex.path, strlen(tex.path)) : NULL;
    char *kept = st == OSSA_OK ? copy_text(ossa_path_last_part(path), strlen(ossa_path_last_part(path))) : NULL;
    ossa_texture_file_free(&tex);
    free(path);
    if (st != OSSA_OK)
        return st;
    if (!source || !kept) {
        free(source);
        free(kept);
        return ossa_write_fail(t->set->err, OSSA_ERR_NOMEM, map_path, "out of memory");
    }
    t->sources[t->count] = source;
    t->names[t->count] = kept;
    *name = t->names[t->count++];
    return OSSA_OK;
}

void ossa_out_textures_free(ossa_out_textures *t)
{
    for (size_t i = 0; i < t->count; i++) {
        free(t->sources[i]);
        free(t->names[i]);
    }
    free(t->sources);
    free(t->names);
    free(t->dir);
    free(t->stem);
    memset(t, 0, sizeof *t);
}
