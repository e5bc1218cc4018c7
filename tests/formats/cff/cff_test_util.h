/* Shared pieces of the CFF tests: temporary files, the demo written as CFF, and small CFF files
 * built by hand (with the offsets of their fields, for the malformed-input tests). */
#ifndef OSSA_CFF_TEST_UTIL_H
#define OSSA_CFF_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include "ossa/ossa.h"

/* A fresh folder under /tmp (caller frees the string; cff_remove_dir deletes it and its files). */
char *cff_temp_dir(void);
void cff_remove_dir(char *dir);

/* Writes the demo mannequin as dir/name at frame_rate; returns the file's bytes (malloc'ed,
 * size in *size) or NULL after printing why. */
uint8_t *cff_write_demo(const char *dir, const char *name, float frame_rate, char *path_out,
                        size_t path_size, size_t *size);

/* A hand-built file with every feature of the format, and where its fields are. */
typedef struct cff_fixture {
    uint8_t *data;
    size_t size;
    size_t structure_end;          /* where the BSP section starts (Ossa does not read it) */
    size_t texture_count_at, material_count_at, lod_count_at;
    size_t material_entry_count_at;
    size_t mesh_count_at[2];       /* per LOD */
    size_t vertex_count_at[3], face_count_at[3], frame_count_at[3]; /* per mesh, file order */
    size_t texture_index_at[3];
    size_t first_face_at[3];       /* first index of each mesh's first face */
    size_t uv_divisor_at[3];
    size_t first_frame_at[3];      /* first frame of each mesh (0 when it has none) */
    uint32_t vertex_count[3], face_count[3], frame_count[3];
    float origin[3], scale[3];
} cff_fixture;

/* Builds the fixture: 2 textures, a material block, LOD 0 with a 3-vertex mesh (3 frames) and a
 * 300-vertex mesh (16-bit indices, no frames), LOD 1 with a 4-vertex mesh (2 frames), and a BSP
 * section. False when out of memory. */
int cff_fixture_make(cff_fixture *f);
void cff_fixture_free(cff_fixture *f);

/* Little-endian stores into a buffer. */
void cff_store_u32(uint8_t *p, uint32_t v);
void cff_store_f32(uint8_t *p, float v);

#endif
