/* Material textures for ossa-view: image files decoded with SDL2_image into GL textures. Needs a
 * current GL 3.3 context with the glad loader initialised. */
#ifndef OSSA_VIEW_TEXTURE_H
#define OSSA_VIEW_TEXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include "ossa/model.h"

/* The file to load for a texture named path: path itself when it can be opened; else, when it
 * does not exist and its name has no extension, the first of path + ".tga", ".png", ".bmp",
 * ".jpg" that can be opened, written into buf. NULL when none, with path's errno in *err_no. */
const char *view_texture_resolve(const char *path, char *buf, size_t buf_size, int *err_no);

/* Loads an image file (any format SDL2_image reads: PNG, TGA, BMP, JPEG, ...), found by
 * view_texture_resolve, into a new RGBA8 texture with mipmaps and repeat wrapping; rows are
 * uploaded top row first. Returns the texture name, or 0 with the reason in err. */
unsigned view_texture_load(const char *path, char *err, size_t err_size);

/* The map of a material that holds its diffuse colour: the first map whose type is empty or
 * mentions "diffuse" (IMVU and upstream Cal3D name types, e.g. "Diffuse Color", "Opacity");
 * NULL when there is none. */
const ossa_texture_map *view_texture_diffuse_map(const ossa_material *mat);

/* Whether a mesh of this format puts the UV origin at the image's bottom (OpenGL convention, as
 * Cal3D exporters do) rather than its top (Direct3D and Quake-derived formats). */
bool view_texture_origin_bottom(ossa_format mesh_format);

#endif
