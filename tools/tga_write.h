/* A minimal uncompressed TGA writer (type 2, 24-bit, top-left origin) for the demo textures that
 * ossa-gen-demo writes and the viewer tests use. The bytes depend only on the pixels. */
#ifndef OSSA_TGA_WRITE_H
#define OSSA_TGA_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes width x height pixels (1..65535 a side), rgb holding 3 bytes a pixel (R G B), rows top
 * to bottom. Returns false with the reason in err (naming path) when it cannot; a failed write
 * leaves path as it was. */
bool tga_write_rgb(const char *path, int width, int height, const uint8_t *rgb, char *err,
                   size_t err_size);

#endif
