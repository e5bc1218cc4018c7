/* ossa-view --crowd on the demo, headless: the state lines name 4 characters whose clocks and
 * palettes differ and move with the shared clock (play, pause, a frame step, a clip change that
 * fades while paused, character 0 on the shared clock throughout); --crowd 1 draws exactly what the single model draws; CPU and GPU
 * skinning (instanced, or a draw per character) draw the same crowd, more of the frame than one
 * character; the bind pose (P) of a crowd of 1 is the single model's, and a crowd's covers
 * more; the HUD names the instanced path; --bench-frames adds the crowd's figures; bad counts
 * exit 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_common.h"
#include "view_harness.h"

#define MAX_STATES 8
#define CHARACTERS 4

typedef struct crowd_state {
    double time;
    int clip, characters;
    double times[CHARACTERS];
    unsigned long palettes[CHARACTERS];
} crowd_state;

/* Reads `"key":[a,b,...]` (CHARACTERS numbers) from a JSON line. */
static bool numbers(const char *line, const char *key, double *out)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":[", key);
    const char *at = strstr(line, pattern);
    if (!at)
        return false;
    at += strlen(pattern);
    for (int i = 0; i < CHARACTERS; i++) {
        char *end;
        out[i] = strtod(at, &end);
        if (end == at)
            return false;
        at = end + 1;
    }
    return true;
}

static bool parse_state(const char *line, crowd_state *s)
{
    const char *t = strstr(line, "\"time\":"), *c = strstr(line, "\"clip\":"),
               *n = strstr(line, "\"characters\":");
    double pal[CHARACTERS];
    if (!t || !c || !n || !numbers(line, "crowd_times", s->times) ||
        !numbers(line, "crowd_palettes", pal))
        return false;
    s->time = strtod(t + 7, NULL);
    s->clip = atoi(c + 7);
    s->characters = atoi(n + 13);
    for (int i = 0; i < CHARACTERS; i++)
        s->palettes[i] = (unsigned long)pal[i];
    return true;
}

static bool distinct(const crowd_state *s)
{
    for (int i = 0; i < CHARACTERS; i++)
        for (int j = 0; j < i; j++)
            if (s->palettes[i] == s->palettes[j] || s->times[i] == s->times[j])
                return false;
    return true;
}

static bool any_same_palette(const crowd_state *a, const crowd_state *b)
{
    for (int i = 0; i < CHARACTERS; i++)
        if (a->palettes[i] == b->palettes[i])
            return true;
    return false;
}

static void check_script(harness *h)
{
    char path[600];
    harness_file(h, "crowd.txt", path, sizeof path);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("at 0.2 state\n"      /* playing */
          "at 0.4 state\n"
          "key Space\n"         /* paused: nothing moves */
          "at 0.6 state\n"
          "key Right\n"         /* a frame step seeks everyone */
          "state\n"
          "key 2\n"             /* a clip change fades though paused */
          "at 1.2 state\n"
          "at 1.4 state\n",
          f);
    fclose(f);
    const char *args[] = {"--crowd", "4", "--script", path, "--size", "320x240", NULL};
    static char out[32768];
    int rc = harness_run(h, args, out, sizeof out);
    CHECKF(rc == 0, "exit %d: %s", rc, out);
    crowd_state st[MAX_STATES];
    size_t n = 0;
    for (const char *line = strchr(out, '{'); line && n < MAX_STATES; line = strchr(line + 1, '{'))
        if (parse_state(line, &st[n]))
            n++;
    CHECKF(n == 6, "%zu crowd state lines in: %s", n, out);
    if (n != 6)
        return;
    for (size_t i = 0; i < n; i++) {
        CHECK(st[i].characters == CHARACTERS);
        CHECKF(distinct(&st[i]), "state %zu: characters share a pose or a clock", i);
        /* Character 0 runs on the shared clock itself, a clip change included (everyone
         * then plays the new clip from its own place on the shared clock). */
        CHECK_NEAR(st[i].times[0], st[i].time, 2e-3);
    }
    /* Playing: every clock moved by its own speed (0.8 .. 1.2 of the shared one). */
    double shared = st[1].time - st[0].time;
    CHECK(shared > 0.15);
    for (int i = 0; i < CHARACTERS; i++) {
        double moved = st[1].times[i] - st[0].times[i];
        if (moved < 0.0)
            moved += 1.0; /* the walk is 1 s long and loops */
        CHECKF(moved >= 0.79 * shared && moved <= 1.21 * shared, "character %d moved %g of %g",
               i, moved, shared);
    }
    CHECK(!any_same_palette(&st[0], &st[1]));
    /* Paused: nothing moved. */
    CHECK(memcmp(st[2].palettes, st[1].palettes, sizeof st[1].palettes) == 0);
    /* A frame step: all moved. */
    CHECK(!any_same_palette(&st[3], &st[2]));
    /* The clip change faded everyone towards the wave while paused, the clocks standing. */
    CHECK(st[4].clip == 1 && st[5].clip == 1);
    CHECK(!any_same_palette(&st[4], &st[3]));
    for (int i = 0; i < CHARACTERS; i++)
        CHECK_NEAR(st[5].times[i], st[4].times[i], 1e-6);
}

static bool shoot(harness *h, const char *name, const char *crowd, const char *skinning,
                  harness_image *img)
{
    char png[600], err[4096];
    harness_file(h, name, png, sizeof png);
    const char *args[] = {"--screenshot", png, "--size", "320x240", "--time", "0.3",
                          "--skinning", skinning, crowd ? "--crowd" : NULL, crowd, NULL};
    int rc = harness_run(h, args, err, sizeof err);
    CHECKF(rc == 0, "exit %d: %s", rc, err);
    return rc == 0 && harness_read_png(png, img);
}

static void check_pictures(harness *h)
{
    harness_image one = {0}, crowd1 = {0}, cpu = {0}, gpu = {0}, gpu1 = {0}, loop = {0};
    bool shot = shoot(h, "one.png", NULL, "cpu", &one) &&
                shoot(h, "crowd1.png", "1", "cpu", &crowd1) &&
                shoot(h, "cpu.png", "9", "cpu", &cpu) && shoot(h, "gpu.png", "9", "gpu", &gpu) &&
                shoot(h, "gpu1.png", "1", "gpu", &gpu1);
    /* The fallback without instancing: a draw per character, the same picture. */
    setenv("OSSA_VIEW_NO_INSTANCING", "1", 1);
    shot = shot && shoot(h, "loop.png", "9", "gpu", &loop);
    unsetenv("OSSA_VIEW_NO_INSTANCING");
    if (shot) {
        CHECK(harness_differ(&gpu, &loop, 0, gpu.height) == 0);
        size_t f1 = harness_foreground(&one), fc = harness_foreground(&cpu),
               fg = harness_foreground(&gpu), diff = harness_differ(&cpu, &gpu, 0, cpu.height);
        fprintf(stderr, "foreground: one %zu, crowd cpu %zu, gpu %zu; cpu/gpu differ %zu\n", f1,
                fc, fg, diff);
        /* One character is the single model, pixel for pixel (CPU and GPU alike). */
        CHECK(harness_differ(&one, &crowd1, 0, one.height) == 0);
        CHECKF(harness_differ(&one, &gpu1, 0, one.height) < f1 / 50, "gpu crowd of 1 differs");
        /* Nine characters framed together cover more than one does. */
        CHECKF(fc > f1 && fg > f1, "crowd %zu / %zu vs one %zu", fc, fg, f1);
        /* The same poses on either path: only rounding at edges differs. */
        CHECKF(diff < fc / 50, "cpu and gpu crowds differ in %zu of %zu pixels", diff, fc);
    }
    harness_image_free(&one);
    harness_image_free(&crowd1);
    harness_image_free(&cpu);
    harness_image_free(&gpu);
    harness_image_free(&gpu1);
    harness_image_free(&loop);
}

/* The bind pose (key P) through a script: crowd NULL for the single model. */
static bool bind_shot(harness *h, const char *name, const char *crowd, bool bind,
                      harness_image *img)
{
    char script[600], png[600], out[4096];
    harness_file(h, "bind.txt", script, sizeof script);
    harness_file(h, name, png, sizeof png);
    FILE *f = fopen(script, "w");
    CHECK(f != NULL);
    if (!f)
        return false;
    fprintf(f, "at 0.3 %s%s\n", bind ? "key P\nscreenshot " : "screenshot ", png);
    fclose(f);
    const char *args[] = {"--script", script, "--size", "320x240", crowd ? "--crowd" : NULL,
                          crowd, NULL};
    int rc = harness_run(h, args, out, sizeof out);
    CHECKF(rc == 0, "exit %d: %s", rc, out);
    return rc == 0 && harness_read_png(png, img);
}

/* Pixels that differ between two images of one size in the right half above the timeline:
 * where a script's screenshot frames the model beside the HUD's panels. */
static size_t differ_right(const harness_image *a, const harness_image *b)
{
    size_t n = 0;
    for (int y = 0; y < a->height - 48; y++)
        for (int x = a->width / 2; x < a->width; x++) {
            size_t at = 3 * ((size_t)y * (size_t)a->width + (size_t)x);
            n += memcmp(a->rgb + at, b->rgb + at, 3) != 0;
        }
    return n;
}

/* Pixels right of the HUD's panels and above the timeline that differ from the top-right
 * one (background). */
static size_t foreground_right(const harness_image *img)
{
    const uint8_t *bg = img->rgb + 3 * ((size_t)img->width - 1);
    size_t n = 0;
    for (int y = 0; y < img->height - 48; y++)
        for (int x = img->width * 2 / 5; x < img->width; x++)
            n += memcmp(img->rgb + 3 * ((size_t)y * (size_t)img->width + (size_t)x), bg, 3) != 0;
    return n;
}

/* The crowd's bind pose is drawn instanced, each character's place by instance. */
static void check_bind_pose(harness *h)
{
    harness_image one = {0}, crowd1 = {0}, crowd9 = {0}, posed9 = {0};
    if (bind_shot(h, "bind-one.png", NULL, true, &one) &&
        bind_shot(h, "bind-1.png", "1", true, &crowd1) &&
        bind_shot(h, "bind-9.png", "9", true, &crowd9) &&
        bind_shot(h, "posed-9.png", "9", false, &posed9)) {
        size_t f9 = foreground_right(&crowd9), p9 = foreground_right(&posed9);
        CHECKF(differ_right(&one, &crowd1) == 0, "bind crowd of 1 differs");
        /* Nine characters standing apart cover about what nine walking ones do (one place for
         * all would leave about a ninth). */
        CHECKF(f9 > p9 / 2 && f9 < 2 * p9, "bind crowd covers %zu pixels, posed %zu", f9, p9);
    }
    harness_image_free(&one);
    harness_image_free(&crowd1);
    harness_image_free(&crowd9);
    harness_image_free(&posed9);
}

static void check_bench_and_errors(harness *h)
{
    static char out[8192];
    const char *bench[] = {"--crowd", "4", "--bench-frames", "5", "--size", "160x120", NULL};
    int rc = harness_run(h, bench, out, sizeof out);
    CHECKF(rc == 0, "exit %d: %s", rc, out);
    CHECKF(strstr(out, "\"characters\":4") && strstr(out, "\"cpu_median_ms\":") &&
               strstr(out, "\"vertices_per_second\":") && strstr(out, "\"median_ms\":"),
           "bench output: %s", out);
    const char *vpf = strstr(out, "\"vertices_per_frame\":"), *v = strstr(out, "\"vertices\":");
    CHECK(vpf && v && strtol(vpf + 21, NULL, 10) == 4 * strtol(v + 11, NULL, 10));
    const char *gpu[] = {"--crowd", "4", "--bench-frames", "5", "--size", "160x120",
                         "--skinning", "gpu", NULL};
    rc = harness_run(h, gpu, out, sizeof out);
    CHECKF(rc == 0 && strstr(out, "\"skinning\":\"gpu instanced\""), "exit %d: %s", rc, out);
    const char *zero[] = {"--crowd", "0", "--screenshot", "x.png", NULL};
    CHECK(harness_run(h, zero, out, sizeof out) == 1 && strstr(out, "--crowd"));
    const char *word[] = {"--crowd", "many", "--screenshot", "x.png", NULL};
    CHECK(harness_run(h, word, out, sizeof out) == 1);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-view-crowd OSSA-VIEW\n");
        return 1;
    }
    harness h;
    int status = harness_open(&h, argv[1]);
    if (status)
        return status;
    check_script(&h);
    check_pictures(&h);
    check_bind_pose(&h);
    check_bench_and_errors(&h);
    harness_end(&h);
    return test_finish("view-crowd");
}
