#include "texture.h"

#include <SDL.h>
#include <SDL_image.h>
#include <glad/gl.h>
#include <stdio.h>
#include <string.h>

#include "ossa/files.h"

/* Decodes a texture read by the library with the loader of the type its header was checked
 * as, never by sniffing the bytes again: the decoder is the one whose size was checked. */
static SDL_Surface *decode(const ossa_texture_file *tex)
{
    if (tex->size > INT32_MAX) {
        SDL_SetError("larger than 2 GiB");
        return NULL;
    }
    SDL_RWops *rw = SDL_RWFromConstMem(tex->data, (int)tex->size);
    if (!rw)
        return NULL;
    SDL_Surface *image = NULL;
    switch (tex->info.type) {
    case OSSA_IMAGE_PNG: image = IMG_LoadPNG_RW(rw); break;
    case OSSA_IMAGE_JPEG: image = IMG_LoadJPG_RW(rw); break;
    case OSSA_IMAGE_BMP: image = IMG_LoadBMP_RW(rw); break;
    case OSSA_IMAGE_TGA: image = IMG_LoadTGA_RW(rw); break;
    default: SDL_SetError("not an image type Ossa reads"); break;
    }
    SDL_RWclose(rw);
    return image;
}

unsigned view_texture_load(const char *path, char *err, size_t err_size)
{
    /* The library's reading, as the exporter's: a regular file (a FIFO or a device would block
     * or never end), its header's size within OSSA_MAX_TEXTURE_PIXELS (docs/FORMATS.md,
     * "Texture files"). */
    ossa_texture_file file;
    ossa_error why;
    if (ossa_texture_read(path, &file, &why) != OSSA_OK) {
        snprintf(err, err_size, "%s", why.message);
        return 0;
    }
    SDL_Surface *image = decode(&file);
    ossa_texture_file_free(&file);
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
