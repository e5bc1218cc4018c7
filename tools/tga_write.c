#include "tga_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"
#include "ossa/files.h"

enum { TGA_HEADER_BYTES = 18, TGA_TRUECOLOUR = 2, TGA_TOP_LEFT = 0x20 };

bool tga_write_rgb(const char *path, int width, int height, const uint8_t *rgb, char *err,
                   size_t err_size)
{
    if (width < 1 || height < 1 || width > 65535 || height > 65535 || !rgb) {
        snprintf(err, err_size, "%s: %dx%d pixels, outside 1..65535 a side", path, width, height);
        return false;
    }
    /* Built in memory and written as every output is: a temporary renamed into place. */
    size_t pixels = (size_t)width * (size_t)height;
    size_t size = TGA_HEADER_BYTES + 3 * pixels;
    uint8_t *buf = malloc(size);
    if (!buf) {
        snprintf(err, err_size, "%s: out of memory for %zu bytes", path, size);
        return false;
    }
    memset(buf, 0, TGA_HEADER_BYTES); /* no image id, no colour map, origin (0, 0) */
    buf[2] = TGA_TRUECOLOUR;
    buf[12] = (uint8_t)(width & 0xff);
    buf[13] = (uint8_t)(width >> 8);
    buf[14] = (uint8_t)(height & 0xff);
    buf[15] = (uint8_t)(height >> 8);
    buf[16] = 24;
    buf[17] = TGA_TOP_LEFT; /* rows stored top first, no alpha bits */
    for (size_t i = 0; i < pixels; i++) { /* TGA stores B G R */
        buf[TGA_HEADER_BYTES + 3 * i] = rgb[3 * i + 2];
        buf[TGA_HEADER_BYTES + 3 * i + 1] = rgb[3 * i + 1];
        buf[TGA_HEADER_BYTES + 3 * i + 2] = rgb[3 * i];
    }
    ossa_error werr;
    bool ok = ossa_file_write(path, buf, size, NULL, &werr) == OSSA_OK;
    free(buf);
    if (!ok)
        ossa_error_format(&werr, err, (unsigned)err_size);
    return ok;
}
