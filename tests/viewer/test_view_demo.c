/* ossa-view --screenshot of the demo: the mannequin is drawn, the walk moves its legs between
 * two times, one time renders the same twice, --size is honoured and --help answers. */
#include <string.h>

#include "test_common.h"
#include "view_harness.h"

static bool shoot(harness *h, const char *name, const char *time, harness_image *img)
{
    char png[600], err[2048];
    harness_file(h, name, png, sizeof png);
    const char *args[] = {"--screenshot", png, "--size", "240x320", "--clip", "walk", "--time",
                          time, NULL};
    int rc = harness_run(h, args, err, sizeof err);
    CHECKF(rc == 0, "exit %d: %s", rc, err);
    return rc == 0 && harness_read_png(png, img);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-view-demo OSSA-VIEW\n");
        return 1;
    }
    harness h;
    if (!harness_begin(&h, argv[1]))
        return 1;
    char out[4096];
    const char *help[] = {"--help", NULL};
    h.display = HARNESS_OFFSCREEN; /* --help opens no window */
    CHECK(harness_run(&h, help, out, sizeof out) == 0);
    CHECK(strstr(out, "usage: ossa-view") != NULL && strstr(out, "Space") != NULL);
    if (harness_pick_display(&h) == HARNESS_NO_DISPLAY) {
        harness_end(&h);
        return TEST_SKIP;
    }
    harness_image a = {0}, b = {0}, again = {0};
    if (shoot(&h, "t0.png", "0", &a) && shoot(&h, "t025.png", "0.25", &b) &&
        shoot(&h, "t0-again.png", "0", &again)) {
        CHECK(a.width == 240 && a.height == 320);
        size_t total = (size_t)a.width * (size_t)a.height;
        size_t fa = harness_foreground(&a), fb = harness_foreground(&b);
        /* The mannequin covers a good part of the frame but not all of it. */
        CHECKF(fa > total / 20 && fa < total / 2, "%zu of %zu pixels drawn at 0 s", fa, total);
        CHECKF(fb > total / 20 && fb < total / 2, "%zu of %zu pixels drawn at 0.25 s", fb, total);
        /* Walking swings the legs (lower half) far more than it moves the head (top fifth). */
        size_t legs = harness_differ(&a, &b, a.height / 2, a.height);
        size_t head = harness_differ(&a, &b, 0, a.height / 5);
        fprintf(stderr, "drawn %zu / %zu of %zu; changed: lower half %zu, top fifth %zu\n", fa,
                fb, total, legs, head);
        CHECKF(legs > 500, "only %zu pixels changed in the lower half", legs);
        CHECKF(legs > 4 * head, "lower half %zu changed pixels, top %zu", legs, head);
        /* Rendering is deterministic: the same time gives the same picture. */
        CHECK(harness_differ(&a, &again, 0, a.height) == 0);
    }
    harness_image_free(&a);
    harness_image_free(&b);
    harness_image_free(&again);
    harness_end(&h);
    return test_finish("view-demo");
}
