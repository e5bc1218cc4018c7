/* PNG output of screenshots through libpng. */
#ifndef OSSA_VIEW_PNG_WRITE_H
#define OSSA_VIEW_PNG_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes width x height RGBA pixels (rows top to bottom, or bottom to top when bottom_up, as
 * glReadPixels gives them) as an 8-bit RGB PNG. On failure writes a message into err. */
bool view_write_png(const char *path, const uint8_t *rgba, int width, int height, bool bottom_up,
                    char *err, size_t err_size);

#endif
