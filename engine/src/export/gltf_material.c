/* Materials as a PBR reading of the source colours, and their diffuse textures: PNG and JPEG
 * files as they are, other images (TGA, BMP, ...) read with SDL2_image and written as PNG with
 * libpng. A texture that cannot be found or read leaves the material's colour alone, with a
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
#include "io/file_io.h"
#include "gltf_internal.h"

/* The map a viewer draws as the diffuse texture: the first with no type or a type naming
 * "diffuse" (as ossa-view picks it). */
static const ossa_texture_map *diffuse_map(const ossa_material *mat)
{
    for (uint32_t i = 0; i < mat->map_count; i++) {
        const ossa_texture_map *map = &mat->maps[i];
        if (!map->path && !map->file)
            continue;
        if (!map->type || !map->type[0])
            return map;
        for (const char *p = map->type; *p; p++)
            if (!strncasecmp(p, "diffuse", 7))
                return map;
    }
    return NULL;
}

static uint8_t *read_all(const char *path, size_t *size)
{
    struct stat st;
    FILE *f = ossa_file_open_regular(path, &st); /* a FIFO named as a texture would block */
    if (!f)
        return NULL;
    uint8_t *data = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (data = malloc((size_t)n + 1)) != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

/* The file as named, else (legacy names without an extension) NAME.tga, .png, .bmp, .jpg. */
static uint8_t *read_texture(const char *path, size_t *size, char *found, size_t found_size)
{
    snprintf(found, found_size, "%s", path);
    uint8_t *d = read_all(path, size);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *dot = strrchr(base, '.');
    if (d || (dot && dot != base))
        return d;
    static const char *const ext[] = {".tga", ".png", ".bmp", ".jpg"};
    for (size_t i = 0; i < 4 && !d; i++) {
        snprintf(found, found_size, "%s%s", path, ext[i]);
        d = read_all(found, size);
    }
    return d;
}

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

/* Any image SDL2_image reads, as PNG bytes in memory (RGBA, 8 bits). NULL with a reason. */
static uint8_t *to_png(const uint8_t *data, size_t size, const char *name, size_t *out_size,
                       const char **why)
{
    /* TGA has no magic number: SDL2_image needs the type, which the extension gives. */
    char type[8] = "";
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i + 1 < sizeof type && dot[i + 1]; i++)
        type[i] = (char)toupper((unsigned char)dot[i + 1]);
    SDL_RWops *rw = size <= INT32_MAX ? SDL_RWFromConstMem(data, (int)size) : NULL;
    SDL_Surface *img = rw ? IMG_LoadTyped_RW(rw, 1, type) : NULL;
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
static uint8_t *to_png(const uint8_t *data, size_t size, const char *name, size_t *out_size,
                       const char **why)
{
    (void)data;
    (void)size;
    (void)name;
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
    char found[4096];
    size_t size = 0;
    uint8_t *data = read_texture(path, &size, found, sizeof found);
    int tex = -1;
    if (!data) {
        char why[160];
        ossa_gltf_warn(c, "material %s: texture %s %s: the material keeps its colour only",
                  material, path, ossa_file_why_unread(path, errno, why, sizeof why));
    } else {
        static const uint8_t png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        bool is_png = size >= 8 && !memcmp(data, png_magic, 8);
        bool is_jpeg = size >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF;
        int image = -1;
        if (is_png || is_jpeg) {
            image = add_image(c, found, data, size, is_jpeg);
        } else {
            size_t png_size = 0;
            const char *why = "";
            uint8_t *png = to_png(data, size, found, &png_size, &why);
            if (png) {
                image = add_image(c, found, png, png_size, false);
                free(png);
            } else {
                ossa_gltf_warn(c, "material %s: texture %s cannot be read (%s): the material keeps "
                          "its colour only", material, found, why);
            }
        }
        free(data);
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
    const ossa_texture_map *map = diffuse_map(om);
    if (map) {
        int tex = texture_for(c, map, name);
        if (tex >= 0)
            ossa_gltf_set(c, pbr, "baseColorTexture", json_pack("{s:i}", "index", tex));
    }
    *slot = ossa_gltf_push(c, c->materials, mat);
    return *slot;
}
