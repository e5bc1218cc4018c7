/* Cal3D material maps as osgCal reads them (docs/FORMATS.md, "osgCal material maps"). osgCal
 * stores a material's settings in its maps as "Key:value" strings: its Material.cpp takes the
 * key as everything up to the first colon, the value as everything after the last, compares
 * the key case-sensitively, and reads a map without a colon as the diffuse texture. Three keys
 * name textures (DiffuseMap, NormalsMap, BumpMap); the others it knows are settings. A map
 * whose "key" is none of them (a Windows path such as C:\t\skin.tga) stays a texture file, as
 * Cal3D itself reads every map. */
#include <string.h>

#include "formats/formats.h"
#include "io/texture_path.h"

typedef enum osgcal_kind { OSGCAL_NONE, OSGCAL_TEXTURE, OSGCAL_SETTING } osgcal_kind;

static osgcal_kind osgcal_key(const char *file, size_t *key_len, const char **value)
{
    static const char *const textures[] = {"DiffuseMap", "NormalsMap", "BumpMap"};
    static const char *const settings[] = {"BumpMapAmount", "Opacity", "Glossiness", "Sides",
                                           "SelfIllumination", "Shading"};
    const char *first = strchr(file, ':');
    if (!first)
        return OSGCAL_NONE;
    size_t n = (size_t)(first - file);
    *key_len = n;
    *value = strrchr(file, ':') + 1;
    for (size_t i = 0; i < sizeof textures / sizeof textures[0]; i++)
        if (strlen(textures[i]) == n && memcmp(file, textures[i], n) == 0)
            return OSGCAL_TEXTURE;
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++)
        if (strlen(settings[i]) == n && memcmp(file, settings[i], n) == 0)
            return OSGCAL_SETTING;
    return OSGCAL_NONE;
}

ossa_status ossa_cal3d_material_maps(ossa_build *b, ossa_texture_map *maps, uint32_t *count,
                                     ossa_material *mat)
{
    ossa_material_property *props = NULL;
    uint32_t n = 0;
    for (uint32_t i = 0; i < *count; i++) {
        ossa_texture_map *map = &maps[i];
        size_t key_len = 0;
        const char *value = NULL;
        osgcal_kind kind = osgcal_key(map->file, &key_len, &value);
        if (kind == OSGCAL_SETTING) {
            if (!props)
                OSSA_TRY(ossa_build_array(b, &props, *count, sizeof *props));
            OSSA_TRY(ossa_build_strndup(b, &props[n].key, map->file, key_len));
            OSSA_TRY(ossa_build_strndup(b, &props[n].value, value, strlen(value)));
            n++;
            map->path = NULL; /* not a texture: compacted away below */
            continue;
        }
        if (kind == OSGCAL_TEXTURE) {
            if (!map->type || !map->type[0])
                OSSA_TRY(ossa_build_strndup(b, &map->type, map->file, key_len));
            OSSA_TRY(ossa_texture_path(b, value, strlen(value), &map->path));
        } else {
            OSSA_TRY(ossa_texture_path(b, map->file, strlen(map->file), &map->path));
        }
    }
    *count = ossa_texture_maps_compact(maps, *count); /* settings, and those outside */
    mat->property_count = n;
    mat->properties = props;
    return OSSA_OK;
}
