/* ossa-view --script on the demo, checked from the script's JSON state lines: a Right press
 * advances exactly one frame, Shift+Right lands on the last frame, a click at the timeline's
 * middle lands on half the duration, Up/Down move ten frames, [ and ] walk the speed ladder
 * into reverse, L cycles the wrap modes, 2 and Tab change clips through a cross-fade that ends,
 * a dropped file that does not load keeps the model and reports why, a dropped folder opens its
 * .cfg, F1 draws the help over the picture, the HUD draws its panels, mouse drags and
 * the wheel move the camera and R restores it, a bad script exits 1, and --bench-frames prints
 * its statistics. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_common.h"
#include "view_harness.h"

#define MAX_STATES 32

typedef struct state_line {
    char text[1024];
} state_line;

/* The value after "key": in a JSON line (numbers, true/false, strings without escapes). */
static bool json_field(const char *line, const char *key, char *out, size_t size)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(line, pattern);
    if (!at)
        return false;
    at += strlen(pattern);
    size_t n = 0;
    if (*at == '"') {
        for (at++; *at && *at != '"' && n + 1 < size; at++)
            out[n++] = *at;
    } else {
        for (; *at && *at != ',' && *at != '}' && n + 1 < size; at++)
            out[n++] = *at;
    }
    out[n] = '\0';
    return true;
}

static double num(const state_line *s, const char *key)
{
    char v[64];
    return json_field(s->text, key, v, sizeof v) ? strtod(v, NULL) : NAN;
}

static bool flag(const state_line *s, const char *key)
{
    char v[16];
    return json_field(s->text, key, v, sizeof v) && strcmp(v, "true") == 0;
}

static bool str_is(const state_line *s, const char *key, const char *want)
{
    char v[512];
    return json_field(s->text, key, v, sizeof v) && strcmp(v, want) == 0;
}

/* Writes the script, runs it and collects its state lines; returns the exit status. */
static int run_script(harness *h, const char *name, const char *text, state_line *states,
                      size_t *count, char *out, size_t out_size)
{
    char path[600];
    harness_file(h, name, path, sizeof path);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return -1;
    fputs(text, f);
    fclose(f);
    const char *args[] = {"--script", path, "--size", "320x240", NULL};
    int rc = harness_run(h, args, out, out_size);
    *count = 0;
    for (const char *line = out; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (line[0] == '{' && *count < MAX_STATES && len < sizeof states[0].text) {
            memcpy(states[*count].text, line, len);
            states[*count].text[len] = '\0';
            (*count)++;
        }
        line = end ? end + 1 : NULL;
    }
    return rc;
}

static void check_playback_script(harness *h)
{
    static char out[32768];
    state_line st[MAX_STATES];
    size_t n;
    const char *script = "state\n"
                         "key Right\n"
                         "state\n"
                         "key Shift+Right\n"
                         "state\n"
                         "click 0.5 0.98\n"
                         "state\n"
                         "key Shift+Left\n"
                         "key Up\n"
                         "state\n"
                         "key Down\n"
                         "key Left\n"
                         "state\n"
                         "key L\n"
                         "state\n"
                         "key [\n"
                         "key [\n"
                         "key [\n"
                         "key [\n"
                         "key [\n"
                         "state\n";
    int rc = run_script(h, "play.txt", script, st, &n, out, sizeof out);
    CHECKF(rc == 0, "exit %d: %s", rc, out);
    CHECKF(n == 8, "%zu state lines in: %s", n, out);
    if (rc != 0 || n != 8)
        return;
    double frame_period = 1.0 / 30.0, duration = num(&st[0], "duration");
    CHECK(str_is(&st[0], "clip_name", "walk") && num(&st[0], "frame") == 0 &&
          num(&st[0], "time") == 0.0 && flag(&st[0], "playing") && str_is(&st[0], "mode", "loop"));
    CHECK(duration > 0.0);
    /* Right: exactly one frame on, paused. */
    CHECK(num(&st[1], "frame") == num(&st[0], "frame") + 1);
    CHECK_NEAR(num(&st[1], "time"), num(&st[0], "time") + frame_period, 1e-5);
    CHECK(!flag(&st[1], "playing"));
    /* Shift+Right: the last frame, within one frame period of the end. */
    CHECK(num(&st[2], "frame") == num(&st[2], "last_frame"));
    CHECK_NEAR(num(&st[2], "time"), num(&st[2], "last_frame") * frame_period, 1e-5);
    CHECK(num(&st[2], "time") < duration && num(&st[2], "time") > duration - 1.5 * frame_period);
    /* A click on the middle of the timeline: half the duration. */
    CHECK_NEAR(num(&st[3], "time"), 0.5 * duration, 1e-3);
    /* Home, then Up: ten frames; Down and Left come back to... frame -1, which wraps. */
    CHECK(num(&st[4], "frame") == 10);
    CHECK(num(&st[5], "frame") == num(&st[5], "last_frame"));
    CHECK(str_is(&st[6], "mode", "pingpong"));
    /* Five times slower from 1: 1/2, 1/4, 1/8, 1/16, then reverse at -1/16. */
    CHECK_NEAR(num(&st[7], "speed"), -0.0625, 1e-9);
}

static void check_clip_script(harness *h)
{
    static char out[32768];
    state_line st[MAX_STATES];
    size_t n;
    const char *script = "key 2\n"
                         "state\n"
                         "wait 0.5\n"
                         "state\n"
                         "key Tab\n"
                         "state\n"
                         "key Shift+Tab\n"
                         "key Shift+Tab\n"
                         "wait 1\n"
                         "state\n"
                         "key 9\n"
                         "state\n";
    int rc = run_script(h, "clips.txt", script, st, &n, out, sizeof out);
    CHECKF(rc == 0 && n == 5, "exit %d, %zu states: %s", rc, n, out);
    if (rc != 0 || n != 5)
        return;
    int clips = (int)num(&st[0], "clip_count");
    CHECK(clips >= 2);
    /* 2 selects the second clip and fades into it from its start. */
    CHECK(num(&st[0], "clip") == 1 && flag(&st[0], "fading") && num(&st[0], "time") == 0.0);
    CHECK(num(&st[1], "clip") == 1 && !flag(&st[1], "fading"));
    CHECK_NEAR(num(&st[1], "time"), 0.5, 1e-4); /* it played on from its start */
    CHECK(num(&st[2], "clip") == 2 % clips);     /* Tab: the next one, wrapping */
    CHECK(num(&st[3], "clip") == (2 % clips + 2 * clips - 2) % clips); /* two back */
    CHECK(!flag(&st[3], "fading"));
    if (clips < 9)
        CHECK(num(&st[4], "clip") == num(&st[3], "clip")); /* no ninth clip: nothing happens */
}

static void check_drop_and_pictures(harness *h)
{
    static char out[32768];
    state_line st[MAX_STATES];
    size_t n;
    char bad[600], plain[600], help[600], script[2400];
    harness_file(h, "broken.xsf", bad, sizeof bad);
    FILE *f = fopen(bad, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("<HEADER MAGIC=\"XSF\" VERSION=\"919\"/>\n<SKELETON NUMBONES=\"99999999\">", f);
        fclose(f);
    }
    harness_file(h, "plain.png", plain, sizeof plain);
    harness_file(h, "help.png", help, sizeof help);
    snprintf(script, sizeof script,
             "key Space\n"
             "screenshot %s\n"
             "key F1\n"
             "screenshot %s\n"
             "drop %s\n"
             "state\n",
             plain, help, bad);
    int rc = run_script(h, "drop.txt", script, st, &n, out, sizeof out);
    CHECKF(rc == 0 && n == 1, "exit %d: %s", rc, out);
    if (n == 1) {
        CHECK(str_is(&st[0], "model", "built-in demo"));
        char message[512];
        CHECK(json_field(st[0].text, "message", message, sizeof message) &&
              strstr(message, "broken.xsf") != NULL);
    }
    CHECK(strstr(out, "ossa-view: cannot open:") != NULL); /* and on stderr */
    harness_image a = {0}, b = {0};
    if (harness_read_png(plain, &a) && harness_read_png(help, &b)) {
        CHECK(a.width == 320 && a.height == 240);
        /* The help covers the middle of the picture. */
        size_t changed = harness_differ(&a, &b, a.height / 4, 3 * a.height / 4);
        CHECKF(changed > (size_t)(a.width * a.height) / 10, "help changed %zu pixels", changed);
    }
    /* The same pose without the HUD (--screenshot draws none): the pictures differ where the
     * HUD's panels (top left) and the timeline (bottom) are. (With the HUD the model is framed
     * in the view the panels leave free, so it moves too: view-hud checks where.) */
    char bare[600];
    harness_file(h, "bare.png", bare, sizeof bare);
    const char *args[] = {"--screenshot", bare, "--size", "320x240", "--paused", NULL};
    harness_image c = {0};
    CHECK(harness_run(h, args, out, sizeof out) == 0);
    if (a.rgb && harness_read_png(bare, &c)) {
        size_t top = harness_differ(&a, &c, 0, 20), bottom = harness_differ(&a, &c, 220, 240);
        fprintf(stderr, "HUD: %zu pixels differ in the top rows, %zu at the bottom\n", top,
                bottom);
        CHECK(top > 500 && bottom > 500);
    }
    harness_image_free(&c);
    harness_image_free(&a);
    harness_image_free(&b);
}

/* The camera from the mouse: a left drag orbits, a right drag pans, the wheel zooms in, R
 * brings back the first view exactly. */
static void check_camera(harness *h)
{
    static char out[8192];
    state_line st[MAX_STATES];
    size_t n;
    const char *names[] = {"cam0.png", "orbit.png", "pan.png", "zoom.png", "reset.png"};
    char path[5][600], script[4000];
    for (int i = 0; i < 5; i++)
        harness_file(h, names[i], path[i], sizeof path[i]);
    snprintf(script, sizeof script,
             "key Space\nkey I\nscreenshot %s\n"
             "drag 0.3 0.5 0.6 0.5\nscreenshot %s\nkey R\n"
             "drag 0.5 0.5 0.7 0.5 right\nscreenshot %s\nkey R\n"
             "wheel 3\nscreenshot %s\nkey R\nscreenshot %s\n",
             path[0], path[1], path[2], path[3], path[4]);
    int rc = run_script(h, "camera.txt", script, st, &n, out, sizeof out);
    CHECKF(rc == 0, "exit %d: %s", rc, out);
    harness_image img[5];
    memset(img, 0, sizeof img);
    bool ok = rc == 0;
    for (int i = 0; i < 5 && ok; i++)
        ok = harness_read_png(path[i], &img[i]);
    if (ok) {
        int rows = img[0].height;
        size_t orbit = harness_differ(&img[0], &img[1], 0, rows);
        size_t pan = harness_differ(&img[0], &img[2], 0, rows);
        size_t base = harness_foreground(&img[0]), zoomed = harness_foreground(&img[3]);
        fprintf(stderr, "camera: orbit changed %zu pixels, pan %zu; zoom %zu -> %zu drawn\n",
                orbit, pan, base, zoomed);
        CHECK(orbit > 200 && pan > 200);
        CHECK(zoomed > base + base / 4);
        CHECK(harness_differ(&img[0], &img[4], 0, rows) == 0);
    }
    for (int i = 0; i < 5; i++)
        harness_image_free(&img[i]);
}

/* A dropped folder follows the engine's folder rule: the demo's SKM folder has no .cfg, so its
 * .skm, .skp and LOD files open together; the project's assets/ folder holds one model per
 * format folder and opens the first by name. */
static void check_folder_rule_drop(harness *h)
{
    const char *root = getenv("OSSA_SOURCE_ROOT");
    if (!root)
        return;
    static char out[32768];
    state_line st[MAX_STATES];
    size_t n;
    char script[1200];
    snprintf(script, sizeof script, "drop %s/assets/skm\nstate\ndrop %s/assets\nstate\n", root,
             root);
    int rc = run_script(h, "rule.txt", script, st, &n, out, sizeof out);
    CHECKF(rc == 0 && n == 2, "exit %d: %s", rc, out);
    if (n == 2) {
        CHECKF(str_is(&st[0], "model", "mannequin.skm (SKM)"), "%s", st[0].text);
        CHECKF(str_is(&st[1], "model", "mannequin.c3s (C3S)"), "%s", st[1].text);
    }
}

/* A dropped folder opens its .cfg (with the real assets, when present). */
static void check_folder_drop(harness *h)
{
    const char *assets = test_assets_dir();
    if (!assets) {
        fprintf(stderr, "no shared assets: the folder drop is not checked\n");
        return;
    }
    static char out[32768];
    state_line st[MAX_STATES];
    size_t n;
    char dir[600], script[800];
    test_path(dir, sizeof dir, assets, "cal3d/cally");
    snprintf(script, sizeof script, "key 2\ndrop %s\nstate\nkey Right\nstate\n", dir);
    int rc = run_script(h, "folder.txt", script, st, &n, out, sizeof out);
    CHECKF(rc == 0 && n == 2, "exit %d: %s", rc, out);
    if (n == 2) {
        /* A new model starts on its first clip, at its start, with fresh playback. */
        CHECKF(str_is(&st[0], "model", "cally.cfg (Cal3D cfg)"), "%s", st[0].text);
        CHECK(num(&st[0], "clip") == 0 && num(&st[0], "time") == 0.0 && !flag(&st[0], "fading"));
        CHECK(num(&st[1], "frame") == 1);
    }
}

static void check_failures_and_bench(harness *h)
{
    static char out[8192];
    state_line st[MAX_STATES];
    size_t n;
    int rc = run_script(h, "bad.txt", "state\nkey Sideways\n", st, &n, out, sizeof out);
    CHECKF(rc == 1 && n == 0, "exit %d: %s", rc, out);
    CHECK(strstr(out, "bad.txt:2:") != NULL);
    char missing[600];
    harness_file(h, "no-such-script.txt", missing, sizeof missing);
    const char *args[] = {"--script", missing, NULL};
    CHECK(harness_run(h, args, out, sizeof out) == 1);
    const char *both[] = {"--script", missing, "--bench-frames", "3", NULL};
    CHECK(harness_run(h, both, out, sizeof out) == 1);

    const char *bench[] = {"--bench-frames", "5", "--size", "160x120", NULL};
    rc = harness_run(h, bench, out, sizeof out);
    CHECKF(rc == 0, "exit %d: %s", rc, out);
    const char *line = strstr(out, "{\"frames\":5");
    CHECKF(line != NULL, "no statistics: %s", out);
    if (line) {
        state_line s;
        snprintf(s.text, sizeof s.text, "%s", line);
        double mn = num(&s, "min_ms"), med = num(&s, "median_ms"), p95 = num(&s, "p95_ms"),
               mx = num(&s, "max_ms"), mean = num(&s, "mean_ms");
        CHECK(mn > 0.0 && mn <= med && med <= p95 && p95 <= mx && mean >= mn && mean <= mx);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-view-script OSSA-VIEW\n");
        return 1;
    }
    harness h;
    if (!harness_begin(&h, argv[1]))
        return 1;
    static char out[16384];
    const char *help[] = {"--help", NULL};
    h.display = HARNESS_OFFSCREEN; /* --help opens no window */
    CHECK(harness_run(&h, help, out, sizeof out) == 0);
    const char *must[] = {"--script", "--bench-frames", "--frame-rate", "--mode", "--up",
                          "Shift+Right", "Tab", "F1", "wheel", "timeline", "drop", "state"};
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++)
        CHECKF(strstr(out, must[i]) != NULL, "--help does not mention %s", must[i]);
    if (harness_pick_display(&h) == HARNESS_NO_DISPLAY) {
        harness_end(&h);
        return TEST_SKIP;
    }
    check_playback_script(&h);
    check_clip_script(&h);
    check_drop_and_pictures(&h);
    check_folder_drop(&h);
    check_folder_rule_drop(&h);
    check_camera(&h);
    check_failures_and_bench(&h);
    harness_end(&h);
    return test_finish("view-script");
}
