/* Where a texture named by a material lies (texture_path.c): the name joined to the material's
 * folder, and kept only inside the model's folders (docs/FORMATS.md, "Texture files"). */
#ifndef OSSA_IO_TEXTURE_PATH_H
#define OSSA_IO_TEXTURE_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include "core/build_context.h"

/* The path of the texture that a material read from b->file names (name, len bytes, not
 * NUL-terminated; '\' read as '/', as Windows-made files write it): the name as it is when
 * absolute, else joined to b->dir; allocated in the model. Unless b->opt.allow_outside, a path
 * that resolves (after '..' and symbolic links, also those of the file found with an image
 * extension appended) outside b->dir and b->roots gives *path = NULL and a warning naming it. */
ossa_status ossa_texture_path(ossa_build *b, const char *name, size_t len, const char **path);

/* Whether the last part of a path (after the last '/' or '\') has an extension: a dot that is
 * not its first character. A name without one that does not exist is looked for with each of
 * OSSA_TEXTURE_EXTENSION_COUNT extensions appended, in order (ossa_texture_extension: .tga,
 * .png, .bmp, .jpg); the first that exists is the file. */
bool ossa_texture_has_extension(const char *path);
#define OSSA_TEXTURE_EXTENSION_COUNT 4u
const char *ossa_texture_extension(unsigned i);

/* Drops the maps whose path is NULL (left out by ossa_texture_path) from a list, keeping the
 * order of the others; returns how many are kept. */
uint32_t ossa_texture_maps_compact(ossa_texture_map *maps, uint32_t count);

/* The last part of a path as a material names it ('/' or '\\' before it). */
static inline const char *ossa_path_last_part(const char *path)
{
    const char *base = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    return base;
}

#endif
