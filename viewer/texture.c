#include "texture.h"

#include <SDL.h>
#include <SDL_image.h>
#include <ctype.h>
#include <errno.h>
#include <glad/gl.h>
#include <stdio.h>
#include <string.h>

/* Whether the file name (after the last slash) has an extension: a dot that is not its first
 * character. */
static bool has_extension(const char *path)
{
    const char *base = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    const char *dot = strrchr(base, '.');
    return dot && dot != base;
}

const char *view_texture_resolve(const char *path, char *buf, size_t buf_size, int *err_no)
{
    FILE *probe = fopen(path, "rb");
    if (probe) {
        fclose(probe);
        return path;
    }
    *err_no = errno;
    if (*err_no != ENOENT || has_extension(path))
        return NULL;
    /* Legacy formats (CFF, C3S) often name a texture without its extension. */
    static const char *const extensions[] = {".tga", ".png", ".bmp", ".jpg"};
    for (size_t i = 0; i < sizeof extensions / sizeof extensions[0]; i++) {
        int n = snprintf(buf, buf_size, "%s%s", path, extensions[i]);
        if (n < 0 || (size_t)n >= buf_size)
            return NULL;
        probe = fopen(buf, "rb");
        if (probe) {
            fclose(probe);
            return buf;
        }
    }
    return NULL;
}

unsigned view_texture_load(const char *path, char *err, size_t err_size)
{
    /* SDL's message for a missing file repeats the path; say why in our own words. */
    char found[4096];
    int err_no = 0;
    const char *file = view_texture_resolve(path, found, sizeof found, &err_no);
    if (!file) {
        snprintf(err, err_size, "%s", strerror(err_no));
        return 0;
    }
    SDL_Surface *image = IMG_Load(file);
    if (!image) {
        snprintf(err, err_size, "%s", IMG_GetError());
        return 0;
    }
    /* One layout for every source format: 4 bytes a pixel, R G B A in memory order. */
    SDL_Surface *rgba = SDL_ConvertSurfaceFormat(image, SDL_PIXELFORMAT_RGBA32, 0);
    SDL_FreeSurface(image);
    if (!rgba) {
        snprintf(err, err_size, "cannot convert to RGBA: %s", SDL_GetError());
        return 0;
    }
    GLint max_side = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_side);
    if (rgba->w < 1 || rgba->h < 1 || rgba->w > max_side || rgba->h > max_side ||
        rgba->pitch % 4) {
        snprintf(err, err_size, "%dx%d pixels, outside 1..%d a side", rgba->w, rgba->h, max_side);
        SDL_FreeSurface(rgba);
        return 0;
    }
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, rgba->pitch / 4); /* rows may be padded */
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, rgba->w, rgba->h, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 rgba->pixels);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    glBindTexture(GL_TEXTURE_2D, 0);
    SDL_FreeSurface(rgba);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(err, err_size, "GL error 0x%x while uploading", e);
        glDeleteTextures(1, &tex);
        return 0;
    }
    return tex;
}

static bool mentions_diffuse(const char *type)
{
    static const char word[] = "diffuse";
    size_t n = sizeof word - 1;
    for (const char *p = type; *p; p++) {
        size_t k = 0;
        while (k < n && p[k] && tolower((unsigned char)p[k]) == word[k])
            k++;
        if (k == n)
            return true;
    }
    return false;
}

const ossa_texture_map *view_texture_diffuse_map(const ossa_material *mat)
{
    for (uint32_t i = 0; i < mat->map_count; i++) {
        const ossa_texture_map *map = &mat->maps[i];
        if (!map->path && !map->file)
            continue;
        if (!map->type || !map->type[0] || mentions_diffuse(map->type))
            return map;
    }
    return NULL;
}

bool view_texture_origin_bottom(ossa_format mesh_format)
{
    switch (mesh_format) {
    case OSSA_FORMAT_SKM: /* Quake lineage: t = 0 is the image's top row */
    case OSSA_FORMAT_C3S: /* Direct3D-era games; not yet checked against textured real files */
    case OSSA_FORMAT_CFF:
        return false;
    default:
        return true; /* Cal3D (exported from Max/Maya for OpenGL) and the demo */
    }
}
