/* ossa-view --screenshot of the real Cal3D model Cally (skips without the shared assets, or
 * while the Cal3D readers cannot load it yet). */
#include <stdio.h>
#include <string.h>

#include "ossa/load.h"
#include "test_common.h"
#include "view_harness.h"

static bool crowd_shot(harness *h, const char *cfg, const char *skinning, harness_image *img)
{
    char png[600], out[4096], name[32];
    snprintf(name, sizeof name, "crowd-%s.png", skinning);
    harness_file(h, name, png, sizeof png);
    const char *args[] = {"--screenshot", png, "--size", "320x240", "--time", "0.5", "--crowd",
                          "6", "--skinning", skinning, cfg, NULL};
    int rc = harness_run(h, args, out, sizeof out);
    CHECKF(rc == 0, "exit %d: %s", rc, out);
    return rc == 0 && harness_read_png(png, img);
}

/* A crowd of Cally: her ponytail has springs, so GPU mode skins it on the CPU and uploads it
 * alone (gathered character after character, with its own UVs); the picture is CPU mode's
 * but for rounding at edges. */
static void check_crowd(harness *h, const char *cfg)
{
    harness_image cpu = {0}, gpu = {0};
    if (crowd_shot(h, cfg, "cpu", &cpu) && crowd_shot(h, cfg, "gpu", &gpu)) {
        size_t fc = harness_foreground(&cpu), diff = harness_differ(&cpu, &gpu, 0, cpu.height);
        fprintf(stderr, "cally crowd: %zu pixels drawn, cpu/gpu differ in %zu\n", fc, diff);
        CHECKF(fc > (size_t)cpu.width * (size_t)cpu.height / 100, "%zu pixels drawn", fc);
        CHECKF(diff < fc / 50, "cpu and gpu crowds differ in %zu of %zu pixels", diff, fc);
    }
    harness_image_free(&cpu);
    harness_image_free(&gpu);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-view-cally OSSA-VIEW\n");
        return 1;
    }
    const char *assets = test_assets_dir();
    if (!assets) {
        fprintf(stderr, "skipped: no shared assets\n");
        return TEST_SKIP;
    }
    char cfg[1024];
    test_path(cfg, sizeof cfg, assets, "cal3d/cally/cally.cfg");
    ossa_model *m = NULL;
    ossa_error err;
    if (ossa_load_file(cfg, NULL, &m, &err) != OSSA_OK) {
        char text[1024];
        fprintf(stderr, "skipped: %s does not load yet: %s\n", cfg,
                ossa_error_format(&err, text, sizeof text));
        return TEST_SKIP;
    }
    uint32_t clips = m->clip_count;
    ossa_model_destroy(m);

    harness h;
    int open_status = harness_open(&h, argv[1]);
    if (open_status != 0)
        return open_status;
    char png[600], out[4096];
    harness_file(&h, "cally.png", png, sizeof png);
    const char *args[] = {"--screenshot", png, "--size", "320x240", "--time", "0.5", cfg, NULL};
    int rc = harness_run(&h, args, out, sizeof out);
    CHECKF(rc == 0, "exit %d: %s", rc, out);
    harness_image img = {0};
    if (rc == 0 && harness_read_png(png, &img)) {
        size_t total = (size_t)img.width * (size_t)img.height, fg = harness_foreground(&img);
        CHECK(img.width == 320 && img.height == 240);
        CHECKF(fg > total / 50 && fg < total / 2, "%zu of %zu pixels drawn", fg, total);
    }
    harness_image_free(&img);
    check_crowd(&h, cfg);
    fprintf(stderr, "cally: %u clips\n", clips);
    harness_end(&h);
    return test_finish("view-cally");
}
