/* Texture images (ossa/files.h; docs/FORMATS.md, "Texture files"): the type and the size an
 * image's header declares, checked against OSSA_MAX_TEXTURE_PIXELS before anything decodes it
 * (a 10 MB RLE TGA can declare 16384 x 16384 pixels: gigabytes once decoded), and the texture
 * file found as the exporter and the viewer look for it. Only the types whose header is read
 * here are accepted, so nothing decodes an image whose size was not checked. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "ossa/files.h"
#include "ossa/limits.h"
#include "io/texture_path.h"
#include "io/write_buf.h"

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t le16(const uint8_t *p) { return (uint32_t)p[1] << 8 | p[0]; }
static uint32_t be32(const uint8_t *p) { return be16(p) << 16 | be16(p + 2); }
static uint32_t le32(const uint8_t *p) { return le16(p + 2) << 16 | le16(p); }

/* PNG: IHDR is the first chunk (13 bytes: width, height, ...). */
static bool png_size(const uint8_t *d, size_t n, uint32_t *w, uint32_t *h)
{
    if (n < 24 || be32(d + 8) != 13 || memcmp(d + 12, "IHDR", 4) != 0)
        return false;
    *w = be32(d + 16);
    *h = be32(d + 20);
    return true;
}

/* JPEG: the segments up to the first SOF marker (C0..CF but DHT C4, JPG C8, DAC CC), whose
 * frame header holds the height and width that libjpeg decodes to; none before the scan
 * (SOS) or the end is refused. */
static bool jpeg_size(const uint8_t *d, size_t n, uint32_t *w, uint32_t *h)
{
    size_t pos = 2;
    for (;;) {
        if (pos >= n || d[pos] != 0xFF)
            return false;
        while (pos < n && d[pos] == 0xFF) /* fill bytes */
            pos++;
        if (pos >= n)
            return false;
        uint8_t m = d[pos++];
        if (m == 0x01 || (m >= 0xD0 && m <= 0xD8))
            continue; /* no length: TEM, RSTn, SOI */
        if (m == 0xD9 || m == 0xDA || pos + 2 > n)
            return false;
        size_t len = be16(d + pos);
        if (len < 2)
            return false;
        if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
            if (len < 8 || pos + 7 > n)
                return false;
            *h = be16(d + pos + 3);
            *w = be16(d + pos + 5);
            return true;
        }
        pos += len;
    }
}

/* BMP: the core header (12 bytes, 16-bit sizes) or a longer info header (32-bit, a negative
 * height meaning top-down rows). */
static bool bmp_size(const uint8_t *d, size_t n, uint32_t *w, uint32_t *h)
{
    if (n < 26)
        return false;
    uint32_t header = le32(d + 14);
    if (header == 12) {
        *w = le16(d + 18);
        *h = le16(d + 20);
        return true;
    }
    if (header < 16)
        return false;
    int32_t sw = (int32_t)le32(d + 18), sh = (int32_t)le32(d + 22);
    if (sw < 0 || sh == INT32_MIN)
        return false;
    *w = (uint32_t)sw;
    *h = (uint32_t)(sh < 0 ? -sh : sh);
    return true;
}

/* TGA (no magic): an 18-byte header with a known colour-map and image type and pixel depth. */
static bool tga_size(const uint8_t *d, size_t n, uint32_t *w, uint32_t *h)
{
    if (n < 18 || d[1] > 1)
        return false;
    uint8_t type = d[2], depth = d[16];
    bool known_type = type == 1 || type == 2 || type == 3 || type == 9 || type == 10 || type == 11;
    bool known_depth = depth == 8 || depth == 15 || depth == 16 || depth == 24 || depth == 32;
    if (!known_type || !known_depth)
        return false;
    *w = le16(d + 12);
    *h = le16(d + 14);
    return true;
}

static bool named_tga(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    return n >= 4 && strcasecmp(name + n - 4, ".tga") == 0;
}

ossa_status ossa_image_check(const void *data, size_t size, const char *name,
                             ossa_image_info *info, ossa_error *err)
{
    ossa_error_clear(err);
    const char *file = name ? name : "";
    if (!info || (!data && size))
        return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, file, "no data or no info");
    memset(info, 0, sizeof *info);
    static const uint8_t png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    const uint8_t *d = data;
    uint32_t w = 0, h = 0;
    bool read;
    if (size >= 8 && !memcmp(d, png_magic, 8)) {
        *info = (ossa_image_info){OSSA_IMAGE_PNG, 0, 0, "PNG"};
        read = png_size(d, size, &w, &h);
    } else if (size >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF) {
        *info = (ossa_image_info){OSSA_IMAGE_JPEG, 0, 0, "JPG"};
        read = jpeg_size(d, size, &w, &h);
    } else if (size >= 2 && d[0] == 'B' && d[1] == 'M') {
        *info = (ossa_image_info){OSSA_IMAGE_BMP, 0, 0, "BMP"};
        read = bmp_size(d, size, &w, &h);
    } else if (named_tga(name)) {
        *info = (ossa_image_info){OSSA_IMAGE_TGA, 0, 0, "TGA"};
        read = tga_size(d, size, &w, &h);
    } else {
        return ossa_write_fail(err, OSSA_ERR_FORMAT, file,
                               "not an image type Ossa reads (PNG, JPEG, BMP, or TGA named .tga)");
    }
    if (!read)
        return ossa_write_fail(err, OSSA_ERR_FORMAT, file, "%s header cut short or malformed",
                               info->type_name);
    info->width = w;
    info->height = h;
    uint64_t pixels = (uint64_t)w * h;
    if (pixels == 0)
        return ossa_write_fail(err, OSSA_ERR_RANGE, file, "%s declares %u x %u pixels: none",
                               info->type_name, w, h);
    if (pixels > OSSA_MAX_TEXTURE_PIXELS)
        return ossa_write_fail(err, OSSA_ERR_RANGE, file,
                               "%s declares %u x %u pixels (%llu), more than the cap of %u "
                               "(8192 x 8192, OSSA_MAX_TEXTURE_PIXELS)",
                               info->type_name, w, h, (unsigned long long)pixels,
                               OSSA_MAX_TEXTURE_PIXELS);
    return OSSA_OK;
}

/* The file a texture path stands for: itself, else (missing, no extension) the first of the
 * names with an extension appended that exists, as io/texture_path.c checked it at load. */
static void find_texture(const char *path, char *out, size_t out_size)
{
    snprintf(out, out_size, "%s", path);
    struct stat st;
    if (stat(path, &st) == 0 || errno != ENOENT || ossa_texture_has_extension(path))
        return;
    for (unsigned i = 0; i < OSSA_TEXTURE_EXTENSION_COUNT; i++) {
        char candidate[sizeof ((ossa_texture_file *)0)->path];
        int n = snprintf(candidate, sizeof candidate, "%s%s", path, ossa_texture_extension(i));
        if (n > 0 && (size_t)n < sizeof candidate && stat(candidate, &st) == 0) {
            snprintf(out, out_size, "%s", candidate);
            return;
        }
    }
}

ossa_status ossa_texture_read(const char *path, ossa_texture_file *out, ossa_error *err)
{
    ossa_error_clear(err);
    if (!out)
        return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, path, "no output");
    memset(out, 0, sizeof *out);
    if (!path || strlen(path) + 5 > sizeof out->path)
        return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, "", "no texture path, or one "
                               "too long");
    find_texture(path, out->path, sizeof out->path);
    uint8_t *data;
    size_t size;
    ossa_status st = ossa_file_read(out->path, 0, &data, &size, err);
    if (st != OSSA_OK)
        return st;
    st = ossa_image_check(data, size, out->path, &out->info, err);
    if (st != OSSA_OK) {
        ossa_file_free(data);
        return st;
    }
    out->data = data;
    out->size = size;
    return OSSA_OK;
}

void ossa_texture_file_free(ossa_texture_file *tex)
{
    if (!tex)
        return;
    ossa_file_free(tex->data);
    tex->data = NULL;
    tex->size = 0;
}
