/* The SKM and SKP readers' shared steps (skm_read.h). */
#include <string.h>
#include "core/checked.h"
#include "core/quat.h"
#include "formats/formats.h"
#include "formats/skm/skm_read.h"

/* "SKM1", type 2 and the file size field; r is then limited to the size the header gives. */
ossa_status ossa_skm_read_file_header(ossa_reader *r, const char *kind, size_t header_bytes)
{
    ossa_build *b = r->b;
    char id[4];
    OSSA_TRY(ossa_rd_bytes(r, id, 4, "id"));
    if (memcmp(id, SKM_ID, 4) != 0)
        return ossa_fail(b, OSSA_ERR_FORMAT, 0, "not an %s file: the id is not \"SKM1\"", kind);
    uint32_t type, filesize;
    OSSA_TRY(ossa_rd_u32(r, &type, "model type"));
    if (type != SKM_MODELTYPE)
        return ossa_fail(b, OSSA_ERR_VERSION, 4,
                         "model type %u is not 2 (hierarchical skeletal pose)", type);
    b->last_version = type;
    OSSA_TRY(ossa_rd_u32(r, &filesize, "file size"));
    if (filesize > SKM_MAX_FILESIZE)
        return ossa_fail(b, OSSA_ERR_RANGE, 8, "file size %u exceeds the format's limit of %u",
                         filesize, SKM_MAX_FILESIZE);
    if (filesize < header_bytes)
        return ossa_fail(b, OSSA_ERR_FORMAT, 8, "file size %u is smaller than the %zu-byte header",
                         filesize, header_bytes);
    if (filesize > r->size)
        return ossa_fail(b, OSSA_ERR_TRUNCATED, 8,
                         "the header gives a file size of %u bytes, only %zu are present",
                         filesize, r->size);
    if (filesize < r->size) {
        ossa_warn(b, "%zu bytes after the file size the header gives (%u) ignored",
                  r->size - filesize, filesize);
        r->size = filesize;
    }
    return OSSA_OK;
}

/* Moves r to a table of count entries of `each` bytes at offset ofs (read from the field at
 * field_at) once the whole table is known to lie inside the file. */
ossa_status ossa_skm_seek_table(ossa_reader *r, uint32_t ofs, size_t count, size_t each,
                              const char *what, size_t field_at)
{
    size_t bytes;
    if (!ossa_mul_size(count, each, &bytes) || ofs > r->size || bytes > r->size - ofs)
        return ossa_fail(r->b, OSSA_ERR_TRUNCATED, (int64_t)field_at,
                         "%s at offset %u (%zu x %zu bytes) do not fit in the file's %zu bytes",
                         what, ofs, count, each, r->size);
    r->pos = ofs;
    return OSSA_OK;
}

/* A u32 field that must lie in lo..hi. */
ossa_status ossa_skm_read_count(ossa_reader *r, uint32_t *out, uint32_t lo, uint32_t hi,
                              const char *what)
{
    size_t at = r->pos;
    OSSA_TRY(ossa_rd_u32(r, out, what));
    if (*out < lo || *out > hi)
        return ossa_fail(r->b, OSSA_ERR_RANGE, (int64_t)at, "%s %u is not in %u..%u", what, *out,
                         lo, hi);
    return OSSA_OK;
}

/* A fixed 64-byte name; text up to the first NUL (all 64 bytes when there is none). */
ossa_status ossa_skm_read_name(ossa_reader *r, char out[SKM_NAME_BYTES + 1], const char *what)
{
    OSSA_TRY(ossa_rd_bytes(r, out, SKM_NAME_BYTES, what));
    out[SKM_NAME_BYTES] = '\0';
    return OSSA_OK;
}

/* Rest (local) poses concatenated parents-first: each bone's model-space pose in frame 0. */
void ossa_skm_bind_poses(const ossa_bone *bones, uint32_t n, float (*t)[3], float (*r)[4])
{
    for (uint32_t i = 0; i < n; i++) {
        const ossa_bone *bn = &bones[i];
        if (bn->parent < 0) {
            memcpy(t[i], bn->rest_t, sizeof t[i]);
            memcpy(r[i], bn->rest_r, sizeof r[i]);
            continue;
        }
        uint32_t p = (uint32_t)bn->parent;
        double local[3] = {bn->rest_t[0], bn->rest_t[1], bn->rest_t[2]}, moved[3];
        ossa_quat_rotate_d(r[p], local, moved);
        for (int k = 0; k < 3; k++)
            t[i][k] = (float)(moved[k] + t[p][k]);
        ossa_quat_mul(r[p], bn->rest_r, r[i]);
    }
}
