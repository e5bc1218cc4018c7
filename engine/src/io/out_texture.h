/* The textures a written model names, copied beside the written file through its output set
 * (out_texture.c), so that the file's folder holds what it names. Each source texture is read
 * once (ossa_texture_read: a regular file of a checked image type, the usual extensions tried)
 * and named by its last path part. A different file already beside the output under that name
 * is never replaced: the output's stem and then a number go in front ("hero_skin.tga",
 * "hero_2_skin.tga"); a file holding the same bytes is named and not written again. */
#ifndef OSSA_OUT_TEXTURE_H
#define OSSA_OUT_TEXTURE_H

#include <stddef.h>
#include "io/out_file.h"

typedef struct ossa_out_textures {
    ossa_out_set *set;
    char *dir;      /* the output's folder */
    char *stem;     /* the output's name without its extension */
    char **sources; /* the file each copied texture was read from */
    char **names;   /* the name it has beside the output */
    size_t count;
} ossa_out_textures;

/* out_path: the written file the textures go beside. Fails only for lack of memory. */
ossa_status ossa_out_textures_init(ossa_out_textures *t, ossa_out_set *set, const char *out_path);

/* The name beside the output of the texture a map's path names, its bytes added to the set
 * (once per source file). When the texture cannot be read, OSSA_OK with *name NULL and the
 * reason in why; other failures (memory, the guard, writing) are the set's error. *name lives
 * as long as t. */
ossa_status ossa_out_texture(ossa_out_textures *t, const char *map_path, const char **name,
                             char *why, size_t why_size);

void ossa_out_textures_free(ossa_out_textures *t);

#endif
