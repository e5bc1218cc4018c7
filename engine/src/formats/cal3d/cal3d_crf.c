/* Cal3D binary material (CRF), docs/FORMATS.md, CRF layout: three RGBA byte colours, a shininess
 * and a list of texture maps whose paths are resolved relative to the material file and kept inside
 * the model's folders (io/texture_path.c). */
#include <string.h>
#include "ossa/limits.h"
#include "core/reader.h"
#include "formats/formats.h"
#include "io/texture_path.h"

static ossa_status read_color(ossa_reader *r, float out[4], const char *what)
{
    uint8_t rgba[4];
    OSSA_TRY(ossa_rd_bytes(r, rgba, 4, what));
    for (int k = 0; k < 4; k++)
        out[k] = (float)rgba[k] / 255.0f;
    return OSSA_OK;
}

ossa_status ossa_read_crf(ossa_build *b, const uint8_t *data, size_t size)
{
    ossa_reader r;
    ossa_reader_init(&r, b, data, size);
    char magic[4];
    OSSA_TRY(ossa_rd_bytes(&r, magic, 4, "CRF magic"));
    if (memcmp(magic, "CRF\0", 4) != 0)
        return ossa_fail(b, OSSA_ERR_FORMAT, 0, "not a Cal3D material: magic is not \"CRF\"");
    int32_t version;
    OSSA_TRY(ossa_rd_i32(&r, &version, "CRF version"));
    ossa_cal3d_lineage lineage;
    OSSA_TRY(ossa_cal3d_check_version(b, version, 4, 0, &lineage));
    b->last_version = (uint32_t)version;
    /* IMVU and upstream add a map type string after each file name. */
    bool typed = lineage == OSSA_CAL3D_IMVU || lineage == OSSA_CAL3D_UPSTREAM;

    float ambient[4], diffuse[4], specular[4], shininess;
    OSSA_TRY(read_color(&r, ambient, "ambient colour"));
    OSSA_TRY(read_color(&r, diffuse, "diffuse colour"));
    OSSA_TRY(read_color(&r, specular, "specular colour"));
    OSSA_TRY(ossa_rd_f32(&r, &shininess, "shininess"));
    uint32_t count;
    OSSA_TRY(ossa_rd_count(&r, &count, OSSA_MAX_MAPS, typed ? 8 : 4, "map count"));
    ossa_texture_map *maps = NULL;
    if (count)
        OSSA_TRY(ossa_build_array(b, &maps, count, sizeof *maps));
    for (uint32_t i = 0; i < count; i++) {
        OSSA_TRY(ossa_rd_cal3d_string(&r, &maps[i].file, "map file name"));
        if (typed)
            OSSA_TRY(ossa_rd_cal3d_string(&r, &maps[i].type, "map type"));
        else
            maps[i].type = "";
    }
    if (ossa_rd_left(&r))
        ossa_warn(b, "%zu bytes after the last map ignored", ossa_rd_left(&r));

    ossa_material sorted = {0}; /* settings out of the maps, before the part joins the model */
    OSSA_TRY(ossa_cal3d_material_maps(b, maps, &count, &sorted));
    ossa_material *mat = ossa_build_push_material(b);
    if (!mat)
        return OSSA_ERR_NOMEM;
    mat->property_count = sorted.property_count;
    mat->properties = sorted.properties;
    mat->name = b->stem;
    memcpy(mat->ambient, ambient, sizeof ambient);
    memcpy(mat->diffuse, diffuse, sizeof diffuse);
    memcpy(mat->specular, specular, sizeof specular);
    mat->shininess = shininess;
    mat->map_count = count;
    mat->maps = maps;
    mat->format = OSSA_FORMAT_CRF;
    mat->version = (uint32_t)version;
    return OSSA_OK;
}
