/* Runs ossa-view headless for the viewer tests and reads back its PNG screenshots. The display
 * is SDL's offscreen driver (Mesa, EGL), else xvfb-run with X11, else the test skips. */
#ifndef OSSA_VIEW_HARNESS_H
#define OSSA_VIEW_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum harness_display {
    HARNESS_OFFSCREEN,   /* SDL_VIDEODRIVER=offscreen */
    HARNESS_XVFB,        /* xvfb-run -a, SDL's default (X11) driver */
    HARNESS_BARE,        /* no DISPLAY, WAYLAND_DISPLAY, XDG_RUNTIME_DIR or SDL_VIDEODRIVER:
                            the viewer must find its headless way alone */
    HARNESS_NO_DISPLAY
} harness_display;

typedef struct harness {
    const char *viewer;  /* path of ossa-view */
    char dir[64];        /* scratch folder, removed by harness_end */
    harness_display display;
    int time_limit_s;    /* > 0: harness_run kills ossa-view (its process group) after that */
} harness;

/* Makes the scratch folder; false (message printed) when it cannot. */
bool harness_begin(harness *h, const char *viewer);
void harness_end(harness *h);
/* Finds a display that can give ossa-view an OpenGL 3.3 context; HARNESS_NO_DISPLAY (with a
 * message) when none can. */
harness_display harness_pick_display(harness *h);
/* harness_begin, then harness_pick_display: 0 when ossa-view can run, 77 (skip: no display; the
 * scratch folder is removed again) or 1 (no scratch folder), the test's exit status then. */
int harness_open(harness *h, const char *viewer);
/* Runs ossa-view with args (NULL-terminated); returns its exit status, or 128 + signal when it
 * was killed (128 + SIGKILL past h->time_limit_s). Its output (stdout and stderr) is copied into err (NUL-terminated, truncated). */
int harness_run(harness *h, const char *const *args, char *err, size_t err_size);
/* dir/name into buf. */
const char *harness_file(const harness *h, const char *name, char *buf, size_t size);

typedef struct harness_image {
    int width, height;
    uint8_t *rgb;        /* 3 bytes per pixel, rows top to bottom */
} harness_image;

bool harness_read_png(const char *path, harness_image *img);
/* Writes width x height RGB pixels (rows top to bottom) as dir/name; its path into path. False,
 * with a message, when it cannot. */
bool harness_write_png(const harness *h, const char *name, int width, int height,
                       const uint8_t *rgb, char *path, size_t size);
void harness_image_free(harness_image *img);
/* Pixels whose colour differs (by more than a small tolerance) from the top-left pixel, which
 * is background in every screenshot the tests take. */
size_t harness_foreground(const harness_image *img);
/* Pixels that differ between two images of one size, in rows [y0, y1). */
size_t harness_differ(const harness_image *a, const harness_image *b, int y0, int y1);

#endif
