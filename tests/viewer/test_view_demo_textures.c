/* Textures of the legacy demo assets and the viewer's extension fallback.
 *
 * The committed CFF, C3S and SKM mannequins (assets/, found through OSSA_SOURCE_ROOT) name one TGA
 * per material (SKM: per shader name): ossa-view draws them with no "cannot be loaded" warning, and the screenshot has
 * pixels of the shirt's and the trousers' hues (untextured they are grey: C3S, CFF and SKM keep
 * no material colours).
 *
 * Then the demo written as C3S into a scratch folder with every material naming one texture:
 *  - "halves" (no extension), with halves.tga (left red, right green) and halves.png (blue)
 *    next to it: the .tga is found first, so red and green show and blue does not;
 *  - "nothing" with no file at all: exactly one warning naming it;
 *  - "halves.bmp" (an extension, the file absent): no fallback, one warning. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "ossa/write.h"
#include "test_common.h"
#include "tga_write.h"
#include "view_harness.h"

static size_t occurrences(const char *text, const char *word)
{
    size_t n = 0;
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
        n++;
    return n;
}

/* Lit pixels whose hue is that of rgb: the angle between the two colours as vectors is small
 * (lighting scales a textured pixel, it keeps its direction; grey is far from both materials). */
static size_t count_hue(const harness_image *img, const float rgb[3], double min_cos)
{
    double rl = sqrt((double)rgb[0] * rgb[0] + (double)rgb[1] * rgb[1] + (double)rgb[2] * rgb[2]);
    size_t n = (size_t)img->width * (size_t)img->height, count = 0;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = img->rgb + 3 * i;
        double dot = 0.0, pl = 0.0;
        for (int k = 0; k < 3; k++) {
            dot += (double)p[k] * rgb[k];
            pl += (double)p[k] * p[k];
        }
        pl = sqrt(pl);
        count += pl > 40.0 && dot / (pl * rl) >= min_cos;
    }
    return count;
}

static bool shoot(harness *h, const char *model, const char *png_name, harness_image *img,
                  char *out, size_t out_size)
{
    char png[600];
    harness_file(h, png_name, png, sizeof png);
    const char *args[] = {"--screenshot", png, "--size", "240x320", model, NULL};
    int rc = harness_run(h, args, out, out_size);
    CHECKF(rc == 0, "%s: exit %d: %s", model, rc, out);
    return rc == 0 && harness_read_png(png, img);
}

/* One committed demo asset: no texture warning, and the shirt and trousers show in colour. */
static void check_asset(harness *h, const char *root, const char *rel, const char *png_name)
{
    static const float shirt[3] = {0.20f, 0.42f, 0.80f}, trousers[3] = {0.25f, 0.32f, 0.22f},
                       grey[3] = {1.0f, 1.0f, 1.0f};
    char model[1200], out[8192];
    snprintf(model, sizeof model, "%s/%s", root, rel);
    harness_image img = {0};
    if (shoot(h, model, png_name, &img, out, sizeof out)) {
        size_t total = (size_t)img.width * (size_t)img.height;
        size_t s = count_hue(&img, shirt, 0.995), t = count_hue(&img, trousers, 0.998),
               g = count_hue(&img, grey, 0.999);
        fprintf(stderr, "%s: %zu shirt, %zu trousers, %zu grey pixels of %zu\n", rel, s, t, g,
                total);
        CHECKF(strstr(out, "cannot be loaded") == NULL, "%s: %s", rel, out);
        CHECKF(strstr(out, "warning") == NULL, "%s: %s", rel, out);
        CHECKF(s > total / 200, "%s: shirt %zu", rel, s);
        CHECKF(t > total / 200, "%s: trousers %zu", rel, t);
    }
    harness_image_free(&img);
}

/* 16 x 16: halves.tga left red and right green; halves.png all blue. */
static bool write_images(const harness *h)
{
    uint8_t halves[16 * 16 * 3], blue[16 * 16 * 3];
    for (int i = 0; i < 16 * 16; i++) {
        bool left = i % 16 < 8;
        halves[3 * i] = left ? 230 : 30;
        halves[3 * i + 1] = left ? 30 : 200;
        halves[3 * i + 2] = 30;
        blue[3 * i] = 30;
        blue[3 * i + 1] = 30;
        blue[3 * i + 2] = 230;
    }
    char path[600], why[1024];
    bool ok = tga_write_rgb(harness_file(h, "halves.tga", path, sizeof path), 16, 16, halves,
                            why, sizeof why);
    CHECKF(ok, "%s", why);
    bool png_ok = harness_write_png(h, "halves.png", 16, 16, blue, path, sizeof path);
    CHECK(png_ok);
    return ok && png_ok;
}

/* The demo as a bone-animated C3S scene in which every material names texture `file` and each
 * quad of four vertices (the demo is made of boxes) spans the texture once (the demo has no
 * UVs, and a submesh without them is drawn untextured). */
static bool write_scene(const harness *h, const char *name, const char *file, char *path,
                        size_t size)
{
    ossa_model *m = NULL;
    ossa_error err;
    CHECK(ossa_demo_model(&m, &err) == OSSA_OK);
    if (!m)
        return false;
    harness_file(h, name, path, size);
    uint32_t n = m->material_count, ns = m->meshes[0].submesh_count;
    ossa_material *mats = calloc(n ? n : 1, sizeof *mats);
    ossa_submesh *subs = calloc(ns ? ns : 1, sizeof *subs);
    float **uvs = calloc(ns ? ns : 1, sizeof *uvs);
    ossa_texture_map map = {.file = file, .type = ""};
    bool ok = mats && subs && uvs && m->mesh_count == 1;
    static const float corner[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (uint32_t i = 0; ok && i < ns; i++) {
        subs[i] = m->meshes[0].submeshes[i];
        size_t nv = subs[i].vertex_count;
        uvs[i] = malloc((nv ? 2 * nv : 1) * sizeof(float));
        ok = uvs[i] != NULL;
        for (size_t v = 0; ok && v < nv; v++) {
            uvs[i][2 * v] = corner[v % 4][0];
            uvs[i][2 * v + 1] = corner[v % 4][1];
        }
        subs[i].uv_set_count = 1;
        subs[i].uvs = uvs[i];
    }
    ossa_status st = OSSA_ERR_NOMEM;
    if (ok) {
        for (uint32_t i = 0; i < n; i++) {
            mats[i] = m->materials[i];
            mats[i].map_count = 1;
            mats[i].maps = &map;
        }
        ossa_mesh mesh = m->meshes[0];
        mesh.submeshes = subs;
        ossa_model scene = *m;
        scene.materials = mats;
        scene.meshes = &mesh;
        ossa_c3s_write_options opt = {.vertex_frames = false, .frame_rate = 0.0f};
        st = ossa_write_c3s(&scene, path, &opt, &err);
        char text[512];
        CHECKF(st == OSSA_OK, "write %s: %s", name, ossa_error_format(&err, text, sizeof text));
    }
    for (uint32_t i = 0; uvs && i < ns; i++)
        free(uvs[i]);
    free(uvs);
    free(subs);
    free(mats);
    ossa_model_destroy(m);
    return st == OSSA_OK;
}

static void check_fallback(harness *h)
{
    static const float red[3] = {0.9f, 0.12f, 0.12f}, green[3] = {0.12f, 0.8f, 0.12f},
                       blue[3] = {0.12f, 0.12f, 0.9f};
    char found[600], nothing[600], with_ext[600], out[8192];
    if (!write_images(h) || !write_scene(h, "found.c3s", "halves", found, sizeof found) ||
        !write_scene(h, "nothing.c3s", "nothing", nothing, sizeof nothing) ||
        !write_scene(h, "with_ext.c3s", "halves.bmp", with_ext, sizeof with_ext))
        return;
    harness_image img = {0};
    if (shoot(h, found, "found.png", &img, out, sizeof out)) {
        size_t total = (size_t)img.width * (size_t)img.height;
        size_t r = count_hue(&img, red, 0.99), g = count_hue(&img, green, 0.99),
               b = count_hue(&img, blue, 0.99);
        fprintf(stderr, "halves: %zu red, %zu green, %zu blue pixels of %zu\n", r, g, b, total);
        CHECKF(strstr(out, "warning") == NULL, "%s", out);
        CHECKF(r > total / 200 && g > total / 200, "red %zu green %zu", r, g);
        CHECKF(b == 0, "blue %zu: the .png was taken before the .tga", b);
    }
    harness_image_free(&img);
    if (shoot(h, nothing, "nothing.png", &img, out, sizeof out)) {
        CHECKF(occurrences(out, "warning: texture") == 1, "%s", out);
        CHECKF(occurrences(out, "/nothing cannot be loaded (cannot open: No such file or "
                                "directory)") == 1, "%s", out);
    }
    harness_image_free(&img);
    if (shoot(h, with_ext, "with_ext.png", &img, out, sizeof out)) {
        CHECKF(occurrences(out, "warning: texture") == 1, "%s", out);
        CHECKF(occurrences(out, "/halves.bmp cannot be loaded") == 1, "%s", out);
    }
    harness_image_free(&img);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-view-demo-textures OSSA-VIEW\n");
        return 1;
    }
    const char *root = getenv("OSSA_SOURCE_ROOT");
    if (!root || !root[0]) {
        fprintf(stderr, "OSSA_SOURCE_ROOT is not set: skipped\n");
        return TEST_SKIP;
    }
    harness h;
    int open_status = harness_open(&h, argv[1]);
    if (open_status != 0)
        return open_status;
    check_asset(&h, root, "assets/cff/mannequin.cff", "cff.png");
    check_asset(&h, root, "assets/skm/mannequin.skm", "skm.png");
    check_asset(&h, root, "assets/c3s/mannequin.c3s", "c3s.png");
    check_asset(&h, root, "assets/c3s/mannequin_frames.c3s", "c3s_frames.png");
    check_fallback(&h);
    harness_end(&h);
    return test_finish("view-demo-textures");
}
