/* Texture paths named by materials (docs/FORMATS.md, "Texture files"). A material is data from
 * whoever made the model: a name with '..', an absolute name or a symbolic link would otherwise
 * make export embed, convert copy and the viewer show any image the user can read. So a path is
 * kept only when it resolves inside the folders the model was read from, compared as real paths
 * (realpath() of the part that exists, the rest taken lexically). */
#include "io/texture_path.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ossa/limits.h"

const char *ossa_texture_extension(unsigned i)
{
    static const char *const ext[OSSA_TEXTURE_EXTENSION_COUNT] = {".tga", ".png", ".bmp", ".jpg"};
    return i < OSSA_TEXTURE_EXTENSION_COUNT ? ext[i] : NULL;
}

bool ossa_texture_has_extension(const char *path)
{
    const char *base = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    const char *dot = strrchr(base, '.');
    return dot && dot != base;
}

/* Appends one component (len bytes) to the canonical path out (o bytes), '.' and '..' taken
 * lexically; false when it does not fit. */
static bool append_part(char *out, size_t *o, const char *part, size_t len)
{
    if (len == 1 && part[0] == '.')
        return true;
    if (len == 2 && part[0] == '.' && part[1] == '.') {
        char *slash = strrchr(out, '/');
        *o = slash && slash != out ? (size_t)(slash - out) : 1;
        out[*o] = '\0';
        return true;
    }
    bool root = *o == 1 && out[0] == '/';
    if (*o + len + 2 > PATH_MAX)
        return false;
    if (!root)
        out[(*o)++] = '/';
    memcpy(out + *o, part, len);
    *o += len;
    out[*o] = '\0';
    return true;
}

/* The absolute form of path with no '.', '..' or symbolic link in it: realpath() of its longest
 * prefix that exists, the missing rest appended lexically (it cannot be opened through a link
 * that does not exist yet). false when the path is too long or realpath() fails otherwise. */
static bool canonical(const char *path, char out[PATH_MAX])
{
    char buf[PATH_MAX];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, path, n + 1);
    size_t end = n;
    for (;;) {
        char keep = buf[end];
        buf[end] = '\0';
        const char *prefix = end ? buf : path[0] == '/' ? "/" : ".";
        bool found = realpath(prefix, out) != NULL;
        int why = errno;
        buf[end] = keep;
        if (found)
            break;
        if ((why != ENOENT && why != ENOTDIR) || end == 0)
            return false;
        while (end > 0 && buf[end - 1] != '/') /* back to the start of the last part */
            end--;
        while (end > 0 && buf[end - 1] == '/')
            end--;
    }
    size_t o = strlen(out);
    for (const char *p = buf + end; *p;) {
        while (*p == '/')
            p++;
        size_t len = strcspn(p, "/");
        if (len && !append_part(out, &o, p, len))
            return false;
        p += len;
    }
    return true;
}

/* Whether the canonical path lies in the folder (itself canonicalised). */
static bool inside_folder(const char *canon, const char *folder)
{
    char root[PATH_MAX];
    if (!canonical(folder[0] ? folder : ".", root))
        return false;
    size_t rl = strlen(root);
    if (rl == 1 && root[0] == '/')
        return true;
    return strncmp(canon, root, rl) == 0 && (canon[rl] == '\0' || canon[rl] == '/');
}

static bool inside_model(const ossa_build *b, const char *path)
{
    char canon[PATH_MAX];
    if (!canonical(path, canon))
        return false;
    if (inside_folder(canon, b->dir))
        return true;
    for (uint32_t i = 0; i < b->root_count; i++)
        if (inside_folder(canon, b->roots[i]))
            return true;
    return false;
}

/* For a path without an extension: the first of path + .tga, .png, .bmp, .jpg that exists, in
 * candidate. 1 found, 0 none, -1 a name too long to try. */
static int with_extension(const char *path, char candidate[PATH_MAX])
{
    size_t n = strlen(path);
    struct stat st;
    for (unsigned i = 0; i < OSSA_TEXTURE_EXTENSION_COUNT; i++) {
        const char *ext = ossa_texture_extension(i);
        if (n + strlen(ext) >= PATH_MAX)
            return -1;
        memcpy(candidate, path, n);
        memcpy(candidate + n, ext, strlen(ext) + 1);
        if (stat(candidate, &st) == 0)
            return 1;
    }
    return 0;
}

/* Inside the model's folders: the path itself, and when it does not exist and has no
 * extension, the first name with an extension appended that exists, which is the file that
 * export and the viewer will open (a link there may point anywhere). */
static bool confined(const ossa_build *b, const char *path)
{
    if (!inside_model(b, path))
        return false;
    struct stat st;
    if (stat(path, &st) == 0 || errno != ENOENT || ossa_texture_has_extension(path))
        return true;
    char candidate[PATH_MAX];
    int found = with_extension(path, candidate);
    return found < 0 ? false : found ? inside_model(b, candidate) : true;
}

/* Whether a texture is there: the path, or with an extension appended when it has none (the
 * names export and the viewer try). */
static bool texture_exists(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return true;
    char candidate[PATH_MAX];
    return !ossa_texture_has_extension(path) && with_extension(path, candidate) > 0;
}

/* Exporters name textures relative to the character's folder as often as to the material's
 * (an XRF in materials/ naming materials/skin.png): a relative name that is not beside its
 * material is looked for beside the .cfg and in its path= folders, in that order, with a
 * warning naming where it was found (docs/FORMATS.md, "Texture files"). Returns the joined
 * path in the build, or NULL when it is nowhere there. */
static ossa_status texture_elsewhere(ossa_build *b, const char *name, size_t len, char **found)
{
    *found = NULL;
    for (uint32_t i = 0; i < b->root_count; i++) {
        const char *root = b->roots[i];
        size_t rl = strlen(root);
        if (rl > OSSA_MAX_STRING || strcmp(root, b->dir) == 0)
            continue;
        char *candidate;
        OSSA_TRY(ossa_build_array(b, &candidate, rl + len + 2, 1));
        memcpy(candidate, root, rl);
        if (rl && root[rl - 1] != '/')
            candidate[rl++] = '/';
        memcpy(candidate + rl, name, len);
        candidate[rl + len] = '\0';
        for (size_t k = rl; k < rl + len; k++)
            if (candidate[k] == '\\')
                candidate[k] = '/';
        if (texture_exists(candidate)) {
            ossa_warn(b, "texture '%.*s' is not beside its material; found at %s (%s)", (int)len,
                      name, candidate, i == 0 ? "beside the .cfg" : "in a path= folder");
            *found = candidate;
            return OSSA_OK;
        }
    }
    return OSSA_OK;
}

ossa_status ossa_texture_path(ossa_build *b, const char *name, size_t len, const char **path)
{
    *path = NULL;
    size_t dir_len = name[0] == '/' || name[0] == '\\' ? 0 : strlen(b->dir);
    if (len > OSSA_MAX_STRING || dir_len > OSSA_MAX_STRING)
        return ossa_fail(b, OSSA_ERR_RANGE, -1, "texture path too long");
    char *joined;
    OSSA_TRY(ossa_build_array(b, &joined, dir_len + len + 1, 1));
    memcpy(joined, b->dir, dir_len);
    memcpy(joined + dir_len, name, len);
    for (size_t i = dir_len; i < dir_len + len; i++)
        if (joined[i] == '\\')
            joined[i] = '/';
    if (len && name[0] != '/' && name[0] != '\\' && !texture_exists(joined)) {
        char *found;
        OSSA_TRY(texture_elsewhere(b, name, len, &found));
        if (found)
            joined = found;
    }
    if (!b->opt.allow_outside && !confined(b, joined)) {
        ossa_warn(b, "texture '%.*s' (%s) resolves outside the model's folders: left out (the "
                  "load option allow_outside, --allow-outside in ossa and ossa-view, keeps it)",
                  (int)len, name, joined);
        return OSSA_OK;
    }
    *path = joined;
    return OSSA_OK;
}

uint32_t ossa_texture_maps_compact(ossa_texture_map *maps, uint32_t count)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; i++)
        if (maps[i].path)
            maps[kept++] = maps[i];
    for (uint32_t i = kept; i < count; i++)
        memset(&maps[i], 0, sizeof maps[i]);
    return kept;
}
