/* ossa-view's HUD in headless pictures: the text is drawn in the TrueType font (lines with
 * descenders reach lower than lines without), the model is drawn only in the view the panels
 * leave free (an orbit changes pixels there and nowhere else), a set of twelve clips is listed
 * whole in the clip panel and a click on the twelfth row plays it through a cross-fade, a
 * skeleton alone shows its bones, a click on a joint shows its name, and with no font the viewer says so in one line and draws its
 * picture anyway. */
#include <stdlib.h>
#include <string.h>

#include "test_common.h"
#include "view_harness.h"

#define MAX_STATES 8

/* Runs a script at size; its JSON state lines go into states (count in *n). */
static int run_script(harness *h, const char *name, const char *text, const char *size,
                      const char *model, char states[][2048], size_t *n, char *out,
                      size_t out_size)
{
    char path[600];
    harness_file(h, name, path, sizeof path);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return -1;
    fputs(text, f);
    fclose(f);
    const char *args[] = {"--script", path, "--size", size, model, NULL};
    if (!model)
        args[4] = NULL;
    int rc = harness_run(h, args, out, out_size);
    *n = 0;
    for (const char *line = out; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (line[0] == '{' && *n < MAX_STATES && len < 2048) {
            memcpy(states[*n], line, len);
            states[*n][len] = '\0';
            (*n)++;
        }
        line = end ? end + 1 : NULL;
    }
    return rc;
}

/* count numbers of the array after "key":[ in a state line. */
static bool json_numbers(const char *line, const char *key, double *v, int count)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":[", key);
    const char *at = strstr(line, pattern);
    if (!at)
        return false;
    at += strlen(pattern);
    for (int i = 0; i < count; i++) {
        char *end;
        v[i] = strtod(at, &end);
        if (end == at)
            return false;
        at = *end == ',' ? end + 1 : end;
    }
    return true;
}

static double json_number(const char *line, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(line, pattern);
    return at ? strtod(at + strlen(pattern), NULL) : -1.0;
}

static bool json_true(const char *line, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":true", key);
    return strstr(line, pattern) != NULL;
}

static const uint8_t *px(const harness_image *img, int x, int y)
{
    return img->rgb + 3 * ((size_t)y * (size_t)img->width + (size_t)x);
}

/* Text pixels: much brighter than the panels behind them. */
static bool lit(const harness_image *img, int x, int y)
{
    const uint8_t *p = px(img, x, y);
    return p[0] + p[1] + p[2] > 330;
}

/* The lowest row (from top) of lit pixels in rows [y0, y1) and columns [0, x1); -1: none. */
static int ink_bottom(const harness_image *img, int y0, int y1, int x1, size_t *count)
{
    int bottom = -1;
    *count = 0;
    for (int y = y0; y < y1 && y < img->height; y++)
        for (int x = 0; x < x1 && x < img->width; x++)
            if (lit(img, x, y)) {
                bottom = y;
                (*count)++;
            }
    return bottom;
}

static void check_text_and_view(harness *h)
{
    static char out[32768];
    char st[MAX_STATES][2048], a_png[600], b_png[600], script[1600];
    size_t n;
    harness_file(h, "a.png", a_png, sizeof a_png);
    harness_file(h, "b.png", b_png, sizeof b_png);
    snprintf(script, sizeof script,
             "key Space\nstate\nscreenshot %s\ndrag 0.6 0.5 0.95 0.5\nscreenshot %s\n", a_png,
             b_png);
    int rc = run_script(h, "view.txt", script, "800x600", NULL, st, &n, out, sizeof out);
    CHECKF(rc == 0 && n == 1, "exit %d: %s", rc, out);
    double view[4], rows[6];
    bool ok = n == 1 && json_numbers(st[0], "view", view, 4) &&
              json_numbers(st[0], "clip_rows", rows, 6);
    CHECKF(ok, "%s", n ? st[0] : out);
    CHECKF(n == 1 && strstr(st[0], "\"font\":\"/"), "no font: %s", n ? st[0] : out);
    harness_image a = {0}, b = {0};
    if (!ok || !harness_read_png(a_png, &a) || !harness_read_png(b_png, &b)) {
        harness_image_free(&a);
        return;
    }
    /* The sidebar is on the left and the view is right of it, above the timeline. */
    CHECK(view[0] > 100.0 && view[0] < 330.0 && view[1] == 0.0 && view[2] == 800.0 &&
          view[3] > 540.0 && view[3] < 600.0);
    /* The orbit moves the model: pixels change in the view, and not one outside it. */
    size_t inside = 0, outside = 0;
    for (int y = 0; y < a.height; y++)
        for (int x = 0; x < a.width; x++) {
            const uint8_t *p = px(&a, x, y), *q = px(&b, x, y);
            if (abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[2] - q[2]) <= 6)
                continue;
            bool in = x >= view[0] && x < view[2] && y >= view[1] && y < view[3];
            inside += in;
            outside += !in;
        }
    fprintf(stderr, "orbit: %zu pixels changed in the view, %zu outside it\n", inside, outside);
    CHECK(inside > 2000 && outside == 0);
    /* Text in the information panel: line 0 ("built-in demo") has no descender, line 1
     * ("clip 1/3  walk") has 'p': its ink reaches further below its line's top. */
    double lh = rows[5];
    int pad = (int)(0.35 * lh), side = (int)view[0];
    size_t c0, c1;
    int b0 = ink_bottom(&a, pad, pad + (int)lh, side, &c0);
    int b1 = ink_bottom(&a, pad + (int)lh, pad + 2 * (int)lh, side, &c1);
    fprintf(stderr, "text: line height %g, %zu and %zu lit pixels, bottoms %d and %d\n", lh, c0,
            c1, b0, b1 - (int)lh);
    CHECK(lh >= 12.0 && c0 > 40 && c1 > 40);
    CHECKF(b0 >= 0 && b1 - (int)lh >= b0 + 2, "no descender: %d vs %d", b1 - (int)lh, b0);
    harness_image_free(&a);
    harness_image_free(&b);
}

static bool copy_file(const char *from, const char *to)
{
    size_t size;
    uint8_t *data = test_read_file(from, &size);
    FILE *f = data ? fopen(to, "wb") : NULL;
    bool ok = f && fwrite(data, 1, size, f) == size;
    if (f)
        ok &= fclose(f) == 0;
    free(data);
    CHECKF(ok, "cannot copy %s to %s", from, to);
    return ok;
}

/* The demo's Cal3D set with its three clips copied into twelve. */
static bool write_twelve_clips(harness *h, char *cfg, size_t size)
{
    const char *root = getenv("OSSA_SOURCE_ROOT");
    if (!root)
        root = ".";
    char from[700], to[700];
    static const char *const parts[] = {"mannequin.csf", "mannequin.cmf", "skin.crf",
                                        "shirt.crf", "trousers.crf"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        snprintf(from, sizeof from, "%s/assets/cal3d/%s", root, parts[i]);
        if (!copy_file(from, harness_file(h, parts[i], to, sizeof to)))
            return false;
    }
    harness_file(h, "twelve.cfg", cfg, size);
    FILE *f = fopen(cfg, "w");
    if (!f)
        return false;
    fputs("skeleton=mannequin.csf\nmesh=mannequin.cmf\n", f);
    static const char *const cafs[] = {"walk", "wave", "idle"};
    for (int i = 0; i < 12; i++) {
        char name[32];
        snprintf(name, sizeof name, "clip%02d.caf", i + 1);
        snprintf(from, sizeof from, "%s/assets/cal3d/%s.caf", root, cafs[i % 3]);
        if (!copy_file(from, harness_file(h, name, to, sizeof to))) {
            fclose(f);
            return false;
        }
        fprintf(f, "animation=%s\n", name);
    }
    fputs("material=skin.crf\nmaterial=shirt.crf\nmaterial=trousers.crf\n", f);
    return fclose(f) == 0;
}

static void check_clip_panel(harness *h)
{
    char cfg[600];
    if (!write_twelve_clips(h, cfg, sizeof cfg))
        return;
    static char out[32768];
    char st[MAX_STATES][2048], png[600], script[1600];
    size_t n;
    harness_file(h, "clips.png", png, sizeof png);
    /* First where the rows are, then a click in the middle of the twelfth. */
    snprintf(script, sizeof script, "key Space\nstate\nscreenshot %s\n", png);
    int rc = run_script(h, "rows.txt", script, "800x600", cfg, st, &n, out, sizeof out);
    CHECKF(rc == 0 && n == 1, "exit %d: %s", rc, out);
    double rows[6];
    if (n != 1 || !json_numbers(st[0], "clip_rows", rows, 6)) {
        CHECKF(false, "no clip rows: %s", out);
        return;
    }
    CHECK(json_number(st[0], "clip_count") == 12.0);
    /* All twelve rows listed, each with text (a name and a duration). */
    CHECKF(rows[0] == 0.0 && rows[1] == 12.0, "first %g, %g rows", rows[0], rows[1]);
    harness_image img = {0};
    if (harness_read_png(png, &img)) {
        size_t empty_rows = 0;
        for (int r = 0; r < 12; r++) {
            size_t count = 0;
            int y0 = (int)(rows[4] + r * rows[5]);
            ink_bottom(&img, y0, y0 + (int)rows[5], (int)rows[3], &count);
            empty_rows += count < 15;
        }
        CHECKF(empty_rows == 0, "%zu clip rows without text", empty_rows);
        harness_image_free(&img);
    }
    double x = 0.5 * (rows[2] + rows[3]) / 800.0, y = (rows[4] + 11.5 * rows[5]) / 600.0;
    snprintf(script, sizeof script, "state\nclick %.5f %.5f\nstate\nwait 1\nstate\n", x, y);
    rc = run_script(h, "click.txt", script, "800x600", cfg, st, &n, out, sizeof out);
    CHECKF(rc == 0 && n == 3, "exit %d: %s", rc, out);
    if (n == 3) {
        CHECK(json_number(st[0], "clip") == 0.0);
        CHECKF(json_number(st[1], "clip") == 11.0 && json_true(st[1], "fading"), "%s", st[1]);
        CHECK(json_number(st[2], "clip") == 11.0 && !json_true(st[2], "fading"));
    }
    /* A window too small for twelve rows: the list follows the clip that plays (Shift+Tab
     * from the first is the last). */
    rc = run_script(h, "small.txt", "key Shift+Tab\nstate\n", "320x240", cfg, st, &n, out,
                    sizeof out);
    if (rc == 0 && n == 1 && json_numbers(st[0], "clip_rows", rows, 6)) {
        CHECK(rows[1] >= 1.0 && rows[1] < 12.0);
        CHECKF(rows[0] + rows[1] == 12.0, "first %g of %g rows", rows[0], rows[1]);
    } else {
        CHECKF(false, "exit %d: %s", rc, out);
    }
}

static bool yellow(const uint8_t *p)
{
    return p[0] > 150 && p[1] > 150 && p[2] < 100;
}

static bool orange(const uint8_t *p)
{
    return p[0] > 200 && p[1] > 110 && p[1] < 190 && p[2] < 90;
}

static void check_skeleton_only(harness *h)
{
    const char *assets = test_assets_dir();
    if (!assets) {
        fprintf(stderr, "no shared assets: the skeleton alone is not checked\n");
        return;
    }
    char csf[600], png[600], out[4096];
    test_path(csf, sizeof csf, assets, "cal3d/cally/cally.csf");
    harness_file(h, "skeleton.png", png, sizeof png);
    const char *args[] = {"--screenshot", png, "--size", "320x240", csf, NULL};
    int rc = harness_run(h, args, out, sizeof out);
    CHECKF(rc == 0, "exit %d: %s", rc, out);
    harness_image img = {0};
    if (rc == 0 && harness_read_png(png, &img)) {
        /* The bone overlay is yellow. */
        size_t bone_pixels = 0;
        for (int y = 0; y < img.height; y++)
            for (int x = 0; x < img.width; x++)
                bone_pixels += yellow(px(&img, x, y));
        fprintf(stderr, "skeleton alone: %zu bone pixels\n", bone_pixels);
        CHECK(bone_pixels > 150);
        harness_image_free(&img);
    }
}

static size_t count_in_view(const harness_image *img, const double view[4],
                            bool (*match)(const uint8_t *))
{
    size_t n = 0;
    for (int y = (int)view[1]; y < (int)view[3] && y < img->height; y++)
        for (int x = (int)view[0]; x < (int)view[2] && x < img->width; x++)
            n += match(px(img, x, y));
    return n;
}

/* A click on a joint selects it and its name shows (in the accent colour) with the names
 * otherwise off; a click on empty space selects none. The topmost point of the bone overlay is
 * a joint (bones are drawn joint to joint). */
static void check_joint_pick(harness *h)
{
    static char out[32768];
    char st[MAX_STATES][2048], bones[600], picked[600], script[1600];
    size_t n;
    harness_file(h, "bones.png", bones, sizeof bones);
    snprintf(script, sizeof script, "key Space\nkey B\nstate\nscreenshot %s\n", bones);
    int rc = run_script(h, "bones.txt", script, "640x480", NULL, st, &n, out, sizeof out);
    double view[4];
    harness_image img = {0};
    if (rc != 0 || n != 1 || !json_numbers(st[0], "view", view, 4) ||
        !harness_read_png(bones, &img)) {
        CHECKF(false, "exit %d: %s", rc, out);
        return;
    }
    int jx = -1, jy = -1;
    for (int y = (int)view[1]; y < (int)view[3] && jy < 0; y++)
        for (int x = (int)view[0]; x < (int)view[2] && jx < 0; x++)
            if (yellow(px(&img, x, y))) {
                jx = x;
                jy = y;
            }
    size_t orange_before = count_in_view(&img, view, orange);
    harness_image_free(&img);
    CHECK(jx >= 0 && orange_before == 0);
    CHECK(json_number(st[0], "selected_bone") == -1.0);
    harness_file(h, "picked.png", picked, sizeof picked);
    snprintf(script, sizeof script,
             "key Space\nkey B\nclick %.5f %.5f\nstate\nscreenshot %s\nclick %.5f 0.02\nstate\n",
             (jx + 0.5) / 640.0, (jy + 0.5) / 480.0, picked, (view[2] - 4.0) / 640.0);
    rc = run_script(h, "pick.txt", script, "640x480", NULL, st, &n, out, sizeof out);
    CHECKF(rc == 0 && n == 2, "exit %d: %s", rc, out);
    if (n == 2) {
        CHECKF(json_number(st[0], "selected_bone") >= 0.0, "%s", st[0]);
        CHECK(json_number(st[1], "selected_bone") == -1.0);
    }
    if (rc == 0 && harness_read_png(picked, &img)) {
        size_t name = count_in_view(&img, view, orange);
        fprintf(stderr, "pick: joint at %d,%d; its name %zu pixels\n", jx, jy, name);
        CHECK(name > 15);
        harness_image_free(&img);
    }
}

static void check_no_font(harness *h)
{
    char png[600], out[4096];
    harness_file(h, "nofont.png", png, sizeof png);
    const char *args[] = {"--screenshot", png, "--size", "160x120", "--hud", NULL};
    setenv("OSSA_VIEW_FONT", "/no/such/font.ttf", 1);
    int rc = harness_run(h, args, out, sizeof out);
    unsetenv("OSSA_VIEW_FONT");
    CHECKF(rc == 0, "exit %d: %s", rc, out);
    const char *prefix = "ossa-view: note: font /no/such/font.ttf";
    const char *note = strstr(out, prefix);
    CHECKF(note && !strstr(note + strlen(prefix), "note:"), "%s", out);
    harness_image img = {0};
    CHECK(harness_read_png(png, &img) && harness_foreground(&img) > 500);
    harness_image_free(&img);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-view-hud OSSA-VIEW\n");
        return 1;
    }
    harness h;
    int status = harness_open(&h, argv[1]);
    if (status)
        return status;
    check_text_and_view(&h);
    check_clip_panel(&h);
    check_skeleton_only(&h);
    check_joint_pick(&h);
    check_no_font(&h);
    harness_end(&h);
    return test_finish("view-hud");
}
