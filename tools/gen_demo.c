/* ossa-gen-demo: writes the built-in demo mannequin (ossa_demo_model) in every format Ossa reads,
 * one folder per format under OUTDIR, the way assets/ holds them:
 *   cal3d/      mannequin.cfg + CSF, CMF, CAF, CRF (binary, version 1100)
 *   cal3d-xml/  mannequin.cfg + XSF, XMF, XAF, XRF (version 1000)
 *   skm/        mannequin.skm + mannequin.skp (clips as 10 frames per second, the bind pose last)
 *               and a TGA texture per shader name
 *   c3s/        mannequin.c3s (bone-animated) and mannequin_frames.c3s (vertex frames)
 *   cff/        mannequin.cff (rigid parts, 25 frames per second)
 * These two legacy formats hold no material colours, only texture file names, so c3s/ and cff/
 * also get one small TGA per material (skin.tga, shirt.tga, trousers.tga) in its diffuse colour.
 * The scenes' TXTRs name them in full ("skin.tga", the spec's image file name) and their faces
 * get UVs (see textured_model); CFF names its textures by material name without an extension
 * ("skin"), as legacy files do and ossa-view resolves to skin.tga, and its UVs stay 0, the
 * texture's corner, which is in the material's colour.
 * Output depends only on the model, so every run gives the same bytes. A format whose writer is
 * not available yet (OSSA_ERR_UNSUPPORTED) is reported and skipped; any other failure makes the
 * exit status 1. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ossa/ossa.h"
#include "demo.h"
#include "tga_write.h"

#define GEN_BASE "mannequin"
#define GEN_TEXTURE_SIDE 8

typedef enum gen_result { GEN_WROTE, GEN_SKIPPED, GEN_FAILED } gen_result;

typedef struct gen_format {
    const char *folder;
    const char *what;
} gen_format;

static const gen_format gen_formats[] = {
    {"cal3d", "Cal3D binary set"},
    {"cal3d-xml", "Cal3D XML set"},
    {"skm", "SKM/SKP"},
    {"c3s", "C3S scenes"},
    {"cff", "CFF"},
};
enum { GEN_FORMAT_COUNT = sizeof gen_formats / sizeof gen_formats[0] };

static int usage(FILE *to)
{
    fprintf(to, "usage: ossa-gen-demo OUTDIR [FORMAT...]\n"
                "Writes the demo mannequin under OUTDIR/<format>/ for each FORMAT (default: all):\n");
    for (int i = 0; i < GEN_FORMAT_COUNT; i++)
        fprintf(to, "  %-10s %s\n", gen_formats[i].folder, gen_formats[i].what);
    return to == stdout ? 0 : 2;
}

static bool make_dir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return true;
    fprintf(stderr, "ossa-gen-demo: cannot create %s: %s\n", path, strerror(errno));
    return false;
}

/* The model the C3S scenes are written from: a shallow copy of the demo whose every material has
 * one map, "<material name>.tga" (the texture write_textures puts next to the scene), and whose
 * submeshes without UVs get one UV set, each quad of four vertices (the demo is made of boxes,
 * two triangles a face) spanning the texture once. The SKM files are written from it too (their
 * shader names find the textures); the demo itself has neither, so the Cal3D and CFF files stay
 * as they were. */
typedef struct textured_model {
    ossa_model model;
    ossa_material *materials;
    ossa_texture_map *maps;
    char **files;
    ossa_mesh *meshes;
    ossa_submesh **submeshes; /* per mesh */
    float **uvs;              /* per submesh of every mesh, in order; NULL where kept */
    size_t uv_count;
} textured_model;

static void textured_free(textured_model *t)
{
    for (uint32_t i = 0; t->files && i < t->model.material_count; i++)
        free(t->files[i]);
    for (size_t i = 0; t->uvs && i < t->uv_count; i++)
        free(t->uvs[i]);
    for (uint32_t i = 0; t->submeshes && i < t->model.mesh_count; i++)
        free(t->submeshes[i]);
    free(t->files);
    free(t->uvs);
    free(t->submeshes);
    free(t->materials);
    free(t->maps);
    free(t->meshes);
    memset(t, 0, sizeof *t);
}

/* False when out of memory (t is then freed). */
static bool textured_copy(const ossa_model *m, textured_model *t)
{
    memset(t, 0, sizeof *t);
    t->model = *m;
    uint32_t nm = m->material_count, nmesh = m->mesh_count;
    for (uint32_t i = 0; i < nmesh; i++)
        t->uv_count += m->meshes[i].submesh_count;
    t->materials = calloc(nm ? nm : 1, sizeof *t->materials);
    t->maps = calloc(nm ? nm : 1, sizeof *t->maps);
    t->files = calloc(nm ? nm : 1, sizeof *t->files);
    t->meshes = calloc(nmesh ? nmesh : 1, sizeof *t->meshes);
    t->submeshes = calloc(nmesh ? nmesh : 1, sizeof *t->submeshes);
    t->uvs = calloc(t->uv_count ? t->uv_count : 1, sizeof *t->uvs);
    bool ok = t->materials && t->maps && t->files && t->meshes && t->submeshes && t->uvs;
    for (uint32_t i = 0; i < nm && ok; i++) {
        const char *name = m->materials[i].name ? m->materials[i].name : "";
        size_t len = strlen(name) + sizeof ".tga";
        t->files[i] = malloc(len);
        ok = t->files[i] != NULL;
        if (!ok)
            break;
        snprintf(t->files[i], len, "%s.tga", name);
        t->maps[i].file = t->files[i];
        t->maps[i].type = "";
        t->materials[i] = m->materials[i];
        t->materials[i].map_count = 1;
        t->materials[i].maps = &t->maps[i];
    }
    static const float corner[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    size_t at = 0;
    for (uint32_t i = 0; i < nmesh && ok; i++) {
        const ossa_mesh *mesh = &m->meshes[i];
        uint32_t ns = mesh->submesh_count;
        t->meshes[i] = *mesh;
        t->submeshes[i] = calloc(ns ? ns : 1, sizeof **t->submeshes);
        ok = t->submeshes[i] != NULL;
        for (uint32_t k = 0; k < ns && ok; k++, at++) {
            ossa_submesh *sm = &t->submeshes[i][k];
            *sm = mesh->submeshes[k];
            if (sm->uv_set_count)
                continue;
            size_t nv = sm->vertex_count;
            t->uvs[at] = malloc((nv ? 2 * nv : 1) * sizeof(float));
            ok = t->uvs[at] != NULL;
            for (size_t v = 0; v < nv && ok; v++) {
                t->uvs[at][2 * v] = corner[v % 4][0];
                t->uvs[at][2 * v + 1] = corner[v % 4][1];
            }
            sm->uv_set_count = 1;
            sm->uvs = t->uvs[at];
        }
        t->meshes[i].submeshes = t->submeshes[i];
    }
    if (!ok) {
        t->model.material_count = nm;
        t->model.mesh_count = nmesh;
        textured_free(t);
        return false;
    }
    t->model.materials = t->materials;
    t->model.meshes = t->meshes;
    return true;
}

static uint8_t to_byte(float c)
{
    float v = c < 0.0f ? 0.0f : c > 1.0f ? 1.0f : c;
    return (uint8_t)(v * 255.0f + 0.5f);
}

/* dir/<material name>.tga for every material: its diffuse colour in a checker of 4-pixel cells
 * with a 15% darker shade, so a textured surface is told from a flat one yet keeps its hue. */
static bool write_textures(const ossa_model *m, const char *dir)
{
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ossa_material *mat = &m->materials[i];
        uint8_t rgb[GEN_TEXTURE_SIDE * GEN_TEXTURE_SIDE * 3];
        for (int y = 0; y < GEN_TEXTURE_SIDE; y++)
            for (int x = 0; x < GEN_TEXTURE_SIDE; x++) {
                float shade = ((x / 4 + y / 4) % 2) ? 0.85f : 1.0f;
                for (int k = 0; k < 3; k++)
                    rgb[3 * (GEN_TEXTURE_SIDE * y + x) + k] = to_byte(shade * mat->diffuse[k]);
            }
        char path[4096 + 64], why[4096 + 128];
        snprintf(path, sizeof path, "%s/%s.tga", dir, mat->name ? mat->name : "");
        if (!tga_write_rgb(path, GEN_TEXTURE_SIDE, GEN_TEXTURE_SIDE, rgb, why, sizeof why)) {
            fprintf(stderr, "ossa-gen-demo: %s\n", why);
            return false;
        }
    }
    return true;
}

/* One writer call; a writer that is not there yet leaves no trace. */
static ossa_status write_one(const ossa_model *m, int format, const char *dir, ossa_error *err)
{
    char path[4096 + 64]; /* dir is shorter than 4096 - 64 (see generate) */
    switch (format) {
    case 0: return ossa_write_cal3d(m, dir, GEN_BASE, NULL, err);
    case 1: {
        ossa_cal3d_write_options xml = {.xml = true};
        return ossa_write_cal3d(m, dir, GEN_BASE, &xml, err);
    }
    case 2: {
        /* Shader names are the materials' names; the textures beside them give the colours. */
        textured_model textured;
        if (!textured_copy(m, &textured)) {
            err->status = OSSA_ERR_NOMEM;
            snprintf(err->message, sizeof err->message, "out of memory for the textured copy");
            return OSSA_ERR_NOMEM;
        }
        ossa_status st = ossa_write_skm(&textured.model, dir, GEN_BASE, NULL, err);
        textured_free(&textured);
        return st;
    }
    case 3: {
        ossa_c3s_write_options opt = {.vertex_frames = false, .frame_rate = 0.0f};
        textured_model textured;
        if (!textured_copy(m, &textured)) {
            err->status = OSSA_ERR_NOMEM;
            snprintf(err->message, sizeof err->message, "out of memory for the textured copy");
            return OSSA_ERR_NOMEM;
        }
        m = &textured.model;
        snprintf(path, sizeof path, "%s/%s.c3s", dir, GEN_BASE);
        ossa_status st = ossa_write_c3s(m, path, &opt, err);
        if (st == OSSA_OK) {
            opt.vertex_frames = true;
            snprintf(path, sizeof path, "%s/%s_frames.c3s", dir, GEN_BASE);
            st = ossa_write_c3s(m, path, &opt, err);
            if (st != OSSA_OK) {
                snprintf(path, sizeof path, "%s/%s.c3s", dir, GEN_BASE);
                unlink(path); /* both scenes or neither */
            }
        }
        textured_free(&textured);
        return st;
    }
    default:
        snprintf(path, sizeof path, "%s/%s.cff", dir, GEN_BASE);
        return ossa_write_cff(m, path, NULL, err);
    }
}

static gen_result generate(const ossa_model *m, const char *out, int format)
{
    char dir[4096];
    int n = snprintf(dir, sizeof dir, "%s/%s", out, gen_formats[format].folder);
    if (n < 0 || (size_t)n >= sizeof dir - 64) {
        fprintf(stderr, "ossa-gen-demo: output path too long\n");
        return GEN_FAILED;
    }
    bool existed = access(dir, F_OK) == 0;
    if (!make_dir(dir))
        return GEN_FAILED;
    ossa_error err;
    ossa_error_clear(&err);
    ossa_status st = write_one(m, format, dir, &err);
    if (st == OSSA_OK && format >= 2 && !write_textures(m, dir)) {
        printf("%-10s FAILED: textures\n", gen_formats[format].folder);
        return GEN_FAILED;
    }
    if (st == OSSA_OK) {
        printf("%-10s wrote %s\n", gen_formats[format].folder, dir);
        return GEN_WROTE;
    }
    if (!existed)
        rmdir(dir); /* only removes it when empty */
    char text[1024];
    if (st == OSSA_ERR_UNSUPPORTED && !err.message[0]) {
        printf("%-10s skipped: no writer yet\n", gen_formats[format].folder);
        return GEN_SKIPPED;
    }
    printf("%-10s %s: %s\n", gen_formats[format].folder,
           st == OSSA_ERR_UNSUPPORTED ? "skipped" : "FAILED",
           ossa_error_format(&err, text, sizeof text));
    return st == OSSA_ERR_UNSUPPORTED ? GEN_SKIPPED : GEN_FAILED;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0))
        return usage(stdout);
    if (argc < 2)
        return usage(stderr);
    bool wanted[GEN_FORMAT_COUNT];
    for (int i = 0; i < GEN_FORMAT_COUNT; i++)
        wanted[i] = argc == 2;
    for (int a = 2; a < argc; a++) {
        int found = -1;
        for (int i = 0; i < GEN_FORMAT_COUNT; i++)
            if (strcmp(argv[a], gen_formats[i].folder) == 0)
                found = i;
        if (found < 0) {
            fprintf(stderr, "ossa-gen-demo: unknown format '%s'\n", argv[a]);
            return usage(stderr);
        }
        wanted[found] = true;
    }
    if (!make_dir(argv[1]))
        return 1;

    ossa_model *m = NULL;
    ossa_error err;
    if (ossa_demo_model(&m, &err) != OSSA_OK) {
        char text[1024];
        fprintf(stderr, "ossa-gen-demo: demo model: %s\n", ossa_error_format(&err, text, sizeof text));
        return 1;
    }
    int failed = 0;
    for (int i = 0; i < GEN_FORMAT_COUNT; i++)
        if (wanted[i] && generate(m, argv[1], i) == GEN_FAILED)
            failed++;
    ossa_model_destroy(m);
    return failed ? 1 : 0;
}
