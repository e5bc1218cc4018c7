/* Materials as a PBR reading of the source colours, and their diffuse textures: PNG and JPEG
 * files as they are, BMP and TGA read with SDL2_image and written as PNG with libpng; every
 * texture read through ossa_texture_read (regular files, declared size capped). A texture that cannot be found or read leaves the material's colour alone, with a
 * warning. docs/FORMATS.md, "glTF export", explains the mapping. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#if OSSA_HAVE_IMAGE_CONVERT
#include <SDL.h>
#include <SDL_image.h>
#include <png.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "ossa/files.h"
#include "gltf_internal.h"

#if OSSA_HAVE_IMAGE_CONVERT
typedef struct png_mem {
    uint8_t *data;
    size_t size, cap;
    bool failed;
} png_mem;

static void png_mem_write(png_structp png, png_bytep bytes, png_size_t n)
{
    png_mem *m = png_get_io_ptr(png);
    if (m->failed)
        return;
    if (m->size + n > m->cap) {
        size_t cap = m->cap ? m->cap : 4096;
        while (cap < m->size + n)
            cap *= 2;
        uint8_t *grown = realloc(m->data, cap);
        if (!grown) {
            m->failed = true;
            return;
        }
        m->data = grown;
        m->cap = cap;
    }
    memcpy(m->data + m->size, bytes, n);
    m->size += n;
}

static void png_mem_flush(png_structp png)
{
    (void)png;
}

/* A BMP or TGA image (its header checked: ossa_image_check) as PNG bytes in memory (RGBA,
 * 8 bits). Decoded by that type's own loader, never by content sniffing, so the decoder is the
 * one whose header was checked. NULL with a reason. */
static uint8_t *to_png(const ossa_texture_file *tex, size_t *out_size, const char **why)
{
    SDL_RWops *rw = tex->size <= INT32_MAX ? SDL_RWFromConstMem(tex->data, (int)tex->size) : NULL;
    SDL_Surface *img = NULL;
    if (rw)
        img = tex->info.type == OSSA_IMAGE_BMP ? IMG_LoadBMP_RW(rw) : IMG_LoadTGA_RW(rw);
    SDL_FreeRW(rw);
    SDL_Surface *rgba = img ? SDL_ConvertSurfaceFormat(img, SDL_PIXELFORMAT_RGBA32, 0) : NULL;
    SDL_FreeSurface(img);
    if (!rgba) {
        *why = IMG_GetError();
        return NULL;
    }
    png_mem mem = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_bytep *rows = malloc((size_t)(rgba->h > 0 ? rgba->h : 1) * sizeof *rows);
    if (!png || !info || !rows || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(rows);
        free(mem.data);
        SDL_FreeSurface(rgba);
        *why = "PNG encoding failed";
        return NULL;
    }
    png_set_write_fn(png, &mem, png_mem_write, png_mem_flush);
    png_set_IHDR(png, info, (png_uint_32)rgba->w, (png_uint_32)rgba->h, 8, PNG_COLOR_TYPE_RGBA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    for (int y = 0; y < rgba->h; y++)
        rows[y] = (png_bytep)rgba->pixels + (size_t)y * (size_t)rgba->pitch;
    png_set_rows(png, info, rows);
    png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    SDL_FreeSurface(rgba);
    if (mem.failed) {
        free(mem.data);
        *why = "out of memory";
        return NULL;
    }
    *out_size = mem.size;
    return mem.data;
}
#else
static uint8_t *to_png(const ossa_texture_file *tex, size_t *out_size, const char **why)
{
    (void)tex;
    (void)out_size;
    *why = "Ossa was built without SDL2_image and libpng, which convert it to PNG";
    return NULL;
}
#endif

/* The output's base name (no folder, no extension): prefix of the files written beside. */
static void out_stem(const gltf_ctx *c, char *buf, size_t size)
{
    const char *base = strrchr(c->path, '/') ? strrchr(c->path, '/') + 1 : c->path;
    snprintf(buf, size, "%s", base);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf)
        *dot = '\0';
}

/* A glTF image from the bytes: in the GLB buffer, a data: URI, or a file beside. */
static int add_image(gltf_ctx *c, const char *texture_path, const uint8_t *data, size_t size,
                     bool jpeg)
{
    const char *mime = jpeg ? "image/jpeg" : "image/png";
    json_t *img = json_pack("{s:s}", "mimeType", mime);
    if (!img) {
        c->failed = true;
        return -1;
    }
    if (c->glb) {
        ossa_gltf_set(c, img, "bufferView", json_integer(ossa_gltf_view(c, data, size, 0)));
    } else if (c->opt.embed) {
        char *uri = ossa_gltf_base64_uri(mime, data, size);
        ossa_gltf_set(c, img, "uri", uri ? json_string(uri) : NULL);
        free(uri);
    } else {
        /* OUT_texture.png: the output's name first, so that models exported into one folder
         * do not overwrite each other's textures; only URI-safe characters. */
        char stem[200], tex[200], name[440];
        out_stem(c, stem, sizeof stem);
        const char *base = strrchr(texture_path, '/') ? strrchr(texture_path, '/') + 1
                                                      : texture_path;
        snprintf(tex, sizeof tex, "%s", base);
        char *dot = strrchr(tex, '.');
        if (dot && dot != tex)
            *dot = '\0';
        snprintf(name, sizeof name, "%s_%u_%s.%s", stem, (unsigned)json_array_size(c->images),
                 tex, jpeg ? "jpg" : "png");
        for (char *p = name; *p; p++)
            if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' && *p != '-')
                *p = '_';
        ossa_gltf_add_side_file(c, name, data, size);
        ossa_gltf_set(c, img, "uri", json_string(name));
    }
    return ossa_gltf_push(c, c->images, img);
}

/* The texture index for a map (one image per file), -1 when it cannot be had. */
static int texture_for(gltf_ctx *c, const ossa_texture_map *map, const char *material)
{
    const char *path = map->path ? map->path : map->file;
    /* seen: texture index by path (made UTF-8, as jansson keys must be) */
    json_t *key = ossa_gltf_text(path);
    const char *k = key ? json_string_value(key) : NULL;
    json_t *hit = k ? json_object_get(c->texture_cache, k) : NULL;
    if (hit) {
        json_decref(key);
        return (int)json_integer_value(hit);
    }
    ossa_texture_file file;
    ossa_error why;
    int tex = -1;
    int image = -1;
    /* One reading for the exporter and ossa-view: a regular file whose header declares a
     * size within OSSA_MAX_TEXTURE_PIXELS (docs/FORMATS.md, "Texture files"). */
    if (ossa_texture_read(path, &file, &why) != OSSA_OK) {
        ossa_gltf_warn(c, "material %s: texture %s cannot be read (%s): the material keeps its "
                       "colour only", material, why.file[0] ? why.file : path, why.message);
    } else {
        ossa_image_type type = file.info.type;
        if (type == OSSA_IMAGE_PNG || type == OSSA_IMAGE_JPEG) {
            image = add_image(c, file.path, file.data, file.size, type == OSSA_IMAGE_JPEG);
        } else {
            size_t png_size = 0;
            const char *reason = "";
            uint8_t *png = to_png(&file, &png_size, &reason);
            if (png) {
                image = add_image(c, file.path, png, png_size, false);
                free(png);
            } else {
                ossa_gltf_warn(c, "material %s: texture %s cannot be read (%s): the material keeps "
                          "its colour only", material, file.path, reason);
            }
        }
        ossa_texture_file_free(&file);
        if (image >= 0) {
            if (json_array_size(c->samplers) == 0) /* repeat, trilinear: as ossa-view draws */
                ossa_gltf_push(c, c->samplers, json_pack("{s:i, s:i, s:i, s:i}", "magFilter", 9729,
                                                    "minFilter", 9987, "wrapS", 10497,
                                                    "wrapT", 10497));
            tex = ossa_gltf_push(c, c->textures, json_pack("{s:i, s:i}", "source", image,
                                                      "sampler", 0));
        }
    }
    if (k)
        ossa_gltf_set(c, c->texture_cache, k, json_integer(tex));
    json_decref(key);
    return tex;
}

int ossa_gltf_material(gltf_ctx *c, int32_t material, bool two_sided)
{
    const ossa_model *m = c->m;
    int32_t *slot = material >= 0 && (uint32_t)material < m->material_count
                        ? &c->material_index[2 * material + two_sided]
                        : &c->default_material[two_sided];
    if (*slot >= 0)
        return *slot;
    json_t *mat = json_object();
    if (!mat) {
        c->failed = true;
        return -1;
    }
    ossa_gltf_set(c, mat, "pbrMetallicRoughness", json_object());
    json_t *pbr = json_object_get(mat, "pbrMetallicRoughness"); /* owned by mat */
    if (!pbr) {
        json_decref(mat);
        return -1;
    }
    if (two_sided)
        ossa_gltf_set(c, mat, "doubleSided", json_true());
    if (slot == &c->default_material[two_sided]) {
        /* no material: ossa-view's grey */
        float grey[4] = {0.7f, 0.7f, 0.7f, 1.0f};
        ossa_gltf_set(c, mat, "name", json_string("ossa_default"));
        ossa_gltf_set(c, pbr, "baseColorFactor", ossa_gltf_floats(c, grey, 4));
        ossa_gltf_set(c, pbr, "metallicFactor", json_real(0.0));
        *slot = ossa_gltf_push(c, c->materials, mat);
        return *slot;
    }
    const ossa_material *om = &m->materials[material];
    const char *name = om->name && *om->name ? om->name : "material";
    ossa_gltf_set(c, mat, "name", ossa_gltf_text(name));
    /* Diffuse is the base colour (times the texture, as ossa-view draws it). Alpha 0 is what
     * many exporters write for "not set"; only 0 < alpha < 1 makes the material blend. */
    float base[4];
    for (int k = 0; k < 4; k++)
        base[k] = om->diffuse[k] < 0.0f ? 0.0f : om->diffuse[k] > 1.0f ? 1.0f : om->diffuse[k];
    bool blend = base[3] > 0.0f && base[3] < 1.0f;
    if (!blend)
        base[3] = 1.0f;
    ossa_gltf_set(c, pbr, "baseColorFactor", ossa_gltf_floats(c, base, 4));
    if (blend)
        ossa_gltf_set(c, mat, "alphaMode", json_string("BLEND"));
    /* Phong shininess n to roughness: Beckmann slope sqrt(2 / (n + 2)) = glTF's alpha =
     * roughness^2. Non-metallic: legacy materials are dielectric colours. */
    float n = om->shininess > 0.0f ? om->shininess : 0.0f;
    double rough = pow(2.0 / ((double)n + 2.0), 0.25);
    ossa_gltf_set(c, pbr, "metallicFactor", json_real(0.0));
    ossa_gltf_set(c, pbr, "roughnessFactor", json_real(rough > 1.0 ? 1.0 : rough));
    const ossa_texture_map *map = ossa_material_diffuse_map(om);
    if (map) {
        int tex = texture_for(c, map, name);
        if (tex >= 0)
            ossa_gltf_set(c, pbr, "baseColorTexture", json_pack("{s:i}", "index", tex));
    }
    /* osgCal's settings (Sides, Opacity, ...) as they were written, for tools that know them. */
    if (om->property_count) {
        json_t *props = json_object();
        for (uint32_t k = 0; props && k < om->property_count; k++)
            ossa_gltf_set(c, props, om->properties[k].key,
                          ossa_gltf_text(om->properties[k].value));
        ossa_gltf_set(c, mat, "extras", json_pack("{s:o}", "cal3d_material_properties", props));
    }
    *slot = ossa_gltf_push(c, c->materials, mat);
    return *slot;
}
