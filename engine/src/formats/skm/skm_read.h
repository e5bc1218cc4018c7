/* What the SKM and SKP readers (skm.c, skp.c) share: the file header, tables, counts and names
 * as both formats lay them out, and frame 0's model-space poses. */
#ifndef OSSA_SKM_READ_H
#define OSSA_SKM_READ_H

#include <stdint.h>
#include "core/reader.h"
#include "formats/skm/skm_format.h"
#include "ossa/model.h"

/* "SKM1", type 2 and the file size field; r is then limited to the size the header gives. */
ossa_status ossa_skm_read_file_header(ossa_reader *r, const char *kind, size_t header_bytes);
/* Moves r to a table of count entries of `each` bytes at offset ofs (read from the field at
 * field_at) once the whole table is known to lie inside the file. */
ossa_status ossa_skm_seek_table(ossa_reader *r, uint32_t ofs, size_t count, size_t each,
                           const char *what, size_t field_at);
/* A u32 field that must lie in lo..hi. */
ossa_status ossa_skm_read_count(ossa_reader *r, uint32_t *out, uint32_t lo, uint32_t hi,
                           const char *what);
/* A fixed 64-byte name; text up to the first NUL (all 64 bytes when there is none). */
ossa_status ossa_skm_read_name(ossa_reader *r, char out[SKM_NAME_BYTES + 1], const char *what);
/* Rest (local) poses concatenated parents-first: each bone's model-space pose in frame 0. */
void ossa_skm_bind_poses(const ossa_bone *bones, uint32_t n, float (*t)[3], float (*r)[4]);

#endif
