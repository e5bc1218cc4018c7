/* ossa-view run headless with nothing set up for it (no DISPLAY, WAYLAND_DISPLAY,
 * XDG_RUNTIME_DIR or SDL_VIDEODRIVER), as on a fresh build machine: a --screenshot works and
 * prints nothing, in particular no complaint about XDG_RUNTIME_DIR from a display library; a
 * screenshot named anything but .png is refused (it would have been PNG bytes). */
#include <string.h>
#include <unistd.h>

#include "test_common.h"
#include "view_harness.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-view-headless OSSA-VIEW\n");
        return 1;
    }
    harness h;
    int open = harness_open(&h, argv[1]);
    if (open)
        return open;
    if (h.display != HARNESS_OFFSCREEN) {
        harness_end(&h);
        fprintf(stderr, "skipped: SDL's offscreen driver gives no OpenGL context here\n");
        return TEST_SKIP;
    }
    h.display = HARNESS_BARE;
    char png[600], out[4096];
    harness_file(&h, "demo.png", png, sizeof png);
    const char *args[] = {"--screenshot", png, "--size", "64x48", NULL};
    int rc = harness_run(&h, args, out, sizeof out);
    CHECKF(rc == 0, "exit %d: %s", rc, out);
    CHECKF(strstr(out, "XDG_RUNTIME_DIR") == NULL, "the viewer's output: %s", out);
    CHECKF(out[0] == '\0', "a headless screenshot printed: %s", out);
    harness_image img = {0, 0, NULL};
    CHECK(harness_read_png(png, &img) && img.width == 64 && img.height == 48);
    if (img.rgb)
        CHECK(harness_foreground(&img) > 50);
    harness_image_free(&img);
    /* A screenshot is PNG: another extension is refused before anything is drawn or written. */
    char jpg[600];
    harness_file(&h, "demo.jpg", jpg, sizeof jpg);
    const char *jargs[] = {"--screenshot", jpg, "--size", "64x48", NULL};
    rc = harness_run(&h, jargs, out, sizeof out);
    CHECKF(rc != 0 && strstr(out, ".png"), "--screenshot demo.jpg: exit %d: %s", rc, out);
    CHECK(access(jpg, F_OK) != 0);
    harness_end(&h);
    return test_finish("view-headless");
}
