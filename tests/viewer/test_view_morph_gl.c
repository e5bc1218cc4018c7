/* ossa-view on Cal3D morph clips and springs: the model of morph_fixture.h written as a Cal3D set
 * (binary, version 919, which stores morph targets) into a scratch folder, and a copy without its
 * morph clip (cloth alone). Checks: the state line counts one morphing and one spring part and,
 * in GPU mode, says those parts stay on the CPU ("gpu + cpu"); a screenshot at morph weight 0.5
 * (clip time 0.5) differs from one at weight 0 (time 0) on the CPU path, and the GPU mode draws
 * it as the CPU does; the note that morphing and spring parts stay on the CPU comes only in GPU
 * mode, after the model loaded; while playing, the cloth moves between two frames of a script
 * (the clip is a constant pose, so only the springs change the picture). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "morph_fixture.h"
#include "ossa/write.h"
#include "test_common.h"
#include "view_harness.h"

static bool write_set(harness *h, morph_fixture *f, const char *sub, char *cfg, size_t size)
{
    char dir[600];
    harness_file(h, sub, dir, sizeof dir);
    CHECK(mkdir(dir, 0700) == 0);
    ossa_error err;
    ossa_status st = ossa_model_validate(&f->model, &err);
    CHECKF(st == OSSA_OK, "validate: %s", err.message);
    if (st == OSSA_OK)
        st = ossa_write_cal3d(&f->model, dir, "morph",
                              &(ossa_cal3d_write_options){.version = 919}, &err);
    CHECKF(st == OSSA_OK, "write: %s", err.message);
    snprintf(cfg, size, "%s/morph.cfg", dir);
    return st == OSSA_OK;
}

static bool write_script(harness *h, const char *name, const char *text, char *path, size_t size)
{
    harness_file(h, name, path, size);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return false;
    fputs(text, f);
    fclose(f);
    return true;
}

static bool shoot(harness *h, const char *name, const char *cfg, const char *time,
                  const char *skinning, harness_image *img)
{
    char png[600], out[4096];
    harness_file(h, name, png, sizeof png);
    const char *args[] = {"--screenshot", png, "--size", "160x160", "--clip", "shift", "--time",
                          time, "--skinning", skinning, cfg, NULL};
    int rc = harness_run(h, args, out, sizeof out);
    CHECKF(rc == 0, "%s: exit %d: %s", name, rc, out);
    return rc == 0 && harness_read_png(png, img);
}

static void check_morphs(harness *h, const char *cfg)
{
    static char out[16384];
    char script[600];
    bool ok = write_script(h, "state.txt", "state\n", script, sizeof script);
    const char *args[] = {"--script", script, "--size", "64x64", "--skinning", "gpu", cfg, NULL};
    int rc = harness_run(h, args, out, sizeof out);
    CHECKF(ok && rc == 0, "exit %d: %s", rc, out);
    CHECKF(strstr(out, "\"morph_parts\":1,") && strstr(out, "\"spring_parts\":1,"), "%s", out);
    /* GPU mode: the morphing and spring parts are CPU-skinned, said once on stderr. */
    CHECKF(strstr(out, "\"skinning\":\"gpu + cpu") || strstr(out, "\"skinning\":\"cpu"), "%s",
           out);
    CHECKF(strstr(out, "\"skinning\":\"cpu") || strstr(out, "it is skinned on the CPU in GPU"),
           "%s", out);

    /* The note is true only in GPU mode: none on the CPU path, and once K switches to the GPU
     * it comes (once). A model that does not load prints no note at all. */
    const char *cpu[] = {"--script", script, "--size", "64x64", "--skinning", "cpu", cfg, NULL};
    rc = harness_run(h, cpu, out, sizeof out);
    CHECKF(rc == 0 && !strstr(out, "in GPU mode too"), "exit %d: %s", rc, out);
    char toggle[600];
    ok = write_script(h, "toggle.txt", "key K\nkey K\nkey K\nstate\n", toggle, sizeof toggle);
    const char *k[] = {"--script", toggle, "--size", "64x64", cfg, NULL};
    rc = harness_run(h, k, out, sizeof out);
    const char *note = strstr(out, "springs: it is skinned on the CPU in GPU mode too");
    CHECKF(ok && rc == 0 && note && !strstr(note + 1, "springs: it is skinned"), "exit %d: %s",
           rc, out);
    char broken[600];
    harness_file(h, "broken.cfg", broken, sizeof broken);
    FILE *bf = fopen(broken, "w");
    if (bf) {
        fputs("skeleton=no-such.csf\n", bf);
        fclose(bf);
    }
    const char *bad[] = {"--script", script, "--skinning", "gpu", broken, NULL};
    rc = harness_run(h, bad, out, sizeof out);
    CHECKF(rc == 1 && !strstr(out, "note:"), "exit %d: %s", rc, out);

    harness_image w0 = {0}, w1 = {0}, g1 = {0};
    if (shoot(h, "w0.png", cfg, "0", "cpu", &w0) && shoot(h, "w1.png", cfg, "0.5", "cpu", &w1) &&
        shoot(h, "g1.png", cfg, "0.5", "gpu", &g1)) {
        size_t moved = harness_differ(&w0, &w1, 0, w0.height);
        size_t gpu = harness_differ(&w1, &g1, 0, w1.height);
        fprintf(stderr, "morph: %zu pixels drawn, weight 0 vs 0.5 differ in %zu, cpu vs gpu %zu\n",
                harness_foreground(&w1), moved, gpu);
        CHECK(harness_foreground(&w1) > 100);
        CHECKF(moved > 100, "the morph changed %zu pixels", moved);
        CHECKF(gpu <= 4, "cpu and gpu differ in %zu pixels", gpu);
    }
    harness_image_free(&w0);
    harness_image_free(&w1);
    harness_image_free(&g1);
}

/* The same set listed as Blender's Cal3D exporter writes it (morphanim= instead of
 * morphanimation=): the viewer plays its morph clip, the mesh moves between weights 0 and 0.5. */
static void check_blender_key(harness *h, const char *cfg)
{
    char blender[700], line[1024];
    snprintf(blender, sizeof blender, "%.*s/blender.cfg", (int)(strrchr(cfg, '/') - cfg), cfg);
    FILE *in = fopen(cfg, "r"), *out = fopen(blender, "w");
    CHECK(in && out);
    bool renamed = false;
    while (in && out && fgets(line, sizeof line, in)) {
        if (strncmp(line, "morphanimation=", 15) == 0) {
            fprintf(out, "morphanim=%s", line + 15);
            renamed = true;
        } else {
            fputs(line, out);
        }
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    CHECK(renamed);
    harness_image w0 = {0}, w1 = {0};
    if (shoot(h, "b0.png", blender, "0", "cpu", &w0) &&
        shoot(h, "b1.png", blender, "0.5", "cpu", &w1)) {
        size_t moved = harness_differ(&w0, &w1, 0, w0.height);
        CHECKF(moved > 100, "morphanim=: the morph changed %zu pixels", moved);
    }
    harness_image_free(&w0);
    harness_image_free(&w1);
}

static void check_cloth(harness *h, const char *cfg)
{
    char script[600], a[600], b[600], text[1600], out[8192];
    harness_file(h, "cloth-a.png", a, sizeof a);
    harness_file(h, "cloth-b.png", b, sizeof b);
    snprintf(text, sizeof text, "wait 0.1\nscreenshot %s\nwait 0.4\nscreenshot %s\n", a, b);
    bool ok = write_script(h, "cloth.txt", text, script, sizeof script);
    const char *args[] = {"--script", script, "--size", "160x160", "--clip", "shift", cfg, NULL};
    int rc = harness_run(h, args, out, sizeof out);
    CHECKF(ok && rc == 0, "exit %d: %s", rc, out);
    harness_image ia = {0}, ib = {0};
    if (rc == 0 && harness_read_png(a, &ia) && harness_read_png(b, &ib)) {
        size_t moved = harness_differ(&ia, &ib, 0, ia.height);
        fprintf(stderr, "cloth: %zu pixels drawn, %zu changed over 0.4 s\n",
                harness_foreground(&ib), moved);
        CHECKF(moved > 50, "the cloth changed %zu pixels", moved);
    }
    harness_image_free(&ia);
    harness_image_free(&ib);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-view-morph-gl OSSA-VIEW\n");
        return 1;
    }
    harness h;
    if (!harness_begin(&h, argv[1]))
        return 1;
    static morph_fixture f;
    char morph_cfg[700], cloth_cfg[700];
    morph_fixture_make(&f);
    bool ok = write_set(&h, &f, "morph", morph_cfg, sizeof morph_cfg);
    morph_fixture_make(&f);
    f.model.morph_clip_count = 0;
    ok = ok && write_set(&h, &f, "cloth", cloth_cfg, sizeof cloth_cfg);
    if (!ok) {
        harness_end(&h);
        return test_finish("view-morph");
    }
    if (harness_pick_display(&h) == HARNESS_NO_DISPLAY) {
        harness_end(&h);
        return TEST_SKIP;
    }
    check_morphs(&h, morph_cfg);
    check_blender_key(&h, morph_cfg);
    check_cloth(&h, cloth_cfg);
    harness_end(&h);
    return test_finish("view-morph");
}
