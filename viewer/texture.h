/* Material textures for ossa-view: image files read by the library and decoded with SDL2_image
 * into GL textures. Needs a current GL 3.3 context with the glad loader initialised. */
#ifndef OSSA_VIEW_TEXTURE_H
#define OSSA_VIEW_TEXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include "ossa/model.h"

/* Loads the texture a map's path names into a new RGBA8 texture with mipmaps and repeat
 * wrapping, rows uploaded top row first. The file is found and read by ossa_texture_read (as
 * named, else with .tga, .png, .bmp or .jpg appended when it has no extension; a regular file
 * whose header declares at most OSSA_MAX_TEXTURE_PIXELS) and decoded from memory by SDL2_image
 * with the loader of its type (PNG, JPEG, BMP, TGA). Returns the texture name, or 0 with the
 * reason in err. */
unsigned view_texture_load(const char *path, char *err, size_t err_size);


/* Whether a mesh of this format puts the UV origin at the image's bottom (OpenGL convention, as
 * Cal3D exporters do) rather than its top (Direct3D and Quake-derived formats). */
bool view_texture_origin_bottom(ossa_format mesh_format);

#endif
