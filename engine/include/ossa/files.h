/* Reading the files a user names, the one way for the loaders, the exporter, the tools and the
 * viewer (and writing one file the way the writers do): regular files only (a FIFO, device or socket is refused before anything is read, so
 * nothing blocks), capped in size; and texture images, whose header must declare no more than
 * OSSA_MAX_TEXTURE_PIXELS pixels before anything decodes them (docs/FORMATS.md, "Texture
 * files"). */
#ifndef OSSA_FILES_H
#define OSSA_FILES_H

#include <stddef.h>
#include <stdint.h>
#include "ossa/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The whole regular file at path, at most cap bytes (0: OSSA_MAX_FILE_SIZE), with a NUL after
 * its data. The caller frees *out with ossa_file_free. */
OSSA_API ossa_status ossa_file_read(const char *path, size_t cap, uint8_t **out, size_t *size,
                                    ossa_error *err);
OSSA_API void ossa_file_free(void *data);

/* Writes size bytes to path as the writers write every file (write.h): guard (may be NULL) asked
 * first, then a temporary beside path created exclusively (never through a link), synced and
 * renamed over path only when complete; on failure path is as it was and nothing is left. */
OSSA_API ossa_status ossa_file_write(const char *path, const void *data, size_t size,
                                     const ossa_write_guard *guard, ossa_error *err);

typedef enum ossa_image_type {
    OSSA_IMAGE_UNKNOWN,
    OSSA_IMAGE_PNG,
    OSSA_IMAGE_JPEG,
    OSSA_IMAGE_BMP,
    OSSA_IMAGE_TGA
} ossa_image_type;

/* What an image's header declares. */
typedef struct ossa_image_info {
    ossa_image_type type;
    uint32_t width, height;
    const char *type_name; /* "PNG", "JPG", "BMP", "TGA": SDL2_image's name of the type */
} ossa_image_info;

/* The type of an image held in memory (PNG, JPEG and BMP by their magic; TGA, which has none,
 * by a name ending in .tga and a header that fits) and the size its header declares (PNG IHDR,
 * JPEG's first SOF, BMP's info header, TGA's header). Fails, err naming name, with
 * OSSA_ERR_FORMAT for anything else (or a header cut short) and OSSA_ERR_RANGE for an image of
 * no pixels or of more than OSSA_MAX_TEXTURE_PIXELS (the message gives the size and the cap). */
OSSA_API ossa_status ossa_image_check(const void *data, size_t size, const char *name,
                                      ossa_image_info *info, ossa_error *err);

/* A texture file as the exporter and ossa-view read one. */
typedef struct ossa_texture_file {
    uint8_t *data;       /* the file's bytes (free with ossa_texture_file_free) */
    size_t size;
    ossa_image_info info;
    char path[4096];     /* the file read */
} ossa_texture_file;

/* Reads the texture a material's map names (its path): the file as named, else, when that does
 * not exist and its name has no extension, the first of path + .tga, .png, .bmp, .jpg that
 * exists. It must be a regular file of at most OSSA_MAX_FILE_SIZE bytes that passes
 * ossa_image_check. On failure nothing is held and out->path says which file failed. */
OSSA_API ossa_status ossa_texture_read(const char *path, ossa_texture_file *out,
                                       ossa_error *err);
OSSA_API void ossa_texture_file_free(ossa_texture_file *tex);

#ifdef __cplusplus
}
#endif
#endif
