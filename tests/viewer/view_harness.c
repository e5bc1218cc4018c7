#include "view_harness.h"

#include <dirent.h>
#include <fcntl.h>
#include <png.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

bool harness_begin(harness *h, const char *viewer)
{
    memset(h, 0, sizeof *h);
    h->viewer = viewer;
    h->display = HARNESS_OFFSCREEN;
    snprintf(h->dir, sizeof h->dir, "/tmp/ossa-view-test-XXXXXX");
    if (!mkdtemp(h->dir)) {
        perror("mkdtemp");
        return false;
    }
    /* Mesa and the display libraries leak on purpose at exit; LeakSanitizer would fail every
     * GL run of an ASan build, so the viewer runs without leak checks (its own code is
     * leak-checked by the GL-free tests). */
    setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
    return true;
}

void harness_end(harness *h)
{
    DIR *d = opendir(h->dir);
    if (d) {
        struct dirent *e;
        char path[600];
        while ((e = readdir(d)) != NULL)
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                unlink(harness_file(h, e->d_name, path, sizeof path));
        closedir(d);
    }
    rmdir(h->dir);
}

const char *harness_file(const harness *h, const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", h->dir, name);
    return buf;
}

int harness_run(harness *h, const char *const *args, char *err, size_t err_size)
{
    char err_path[600];
    harness_file(h, "output.txt", err_path, sizeof err_path);
    const char *argv[64];
    size_t n = 0;
    if (h->display == HARNESS_XVFB) {
        argv[n++] = "xvfb-run";
        argv[n++] = "-a";
    }
    argv[n++] = h->viewer;
    for (size_t i = 0; args[i] && n + 1 < sizeof argv / sizeof argv[0]; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 127;
    }
    if (pid == 0) {
        if (h->time_limit_s > 0)
            setpgid(0, 0); /* so that a kill past the limit reaches xvfb-run's children too */
        int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        if (h->display == HARNESS_OFFSCREEN)
            setenv("SDL_VIDEODRIVER", "offscreen", 1);
        else
            unsetenv("SDL_VIDEODRIVER");
        if (h->display == HARNESS_BARE) {
            unsetenv("DISPLAY");
            unsetenv("WAYLAND_DISPLAY");
            unsetenv("XDG_RUNTIME_DIR");
        }
        execvp(argv[0], (char *const *)argv);
        fprintf(stderr, "cannot run %s\n", argv[0]);
        _exit(127);
    }
    int status = 0;
    if (h->time_limit_s > 0) {
        /* poll: a viewer blocked on a file must fail the test, not hang it */
        struct timespec start, t;
        clock_gettime(CLOCK_MONOTONIC, &start);
        pid_t done;
        while ((done = waitpid(pid, &status, WNOHANG)) == 0) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if (t.tv_sec - start.tv_sec >= h->time_limit_s)
                break;
            usleep(20000);
        }
        if (done == 0) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
        }
        if (done <= 0)
            while (waitpid(pid, &status, 0) < 0)
                ;
    } else {
        while (waitpid(pid, &status, 0) < 0)
            ;
    }
    if (err && err_size) {
        err[0] = '\0';
        FILE *f = fopen(err_path, "rb");
        if (f) {
            size_t got = fread(err, 1, err_size - 1, f);
            err[got] = '\0';
            fclose(f);
        }
    }
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
}

harness_display harness_pick_display(harness *h)
{
    char png[600], err[2048];
    harness_file(h, "probe.png", png, sizeof png);
    const char *args[] = {"--screenshot", png, "--size", "16x16", NULL};
    const harness_display order[] = {HARNESS_OFFSCREEN, HARNESS_XVFB};
    for (size_t i = 0; i < 2; i++) {
        h->display = order[i];
        int rc = harness_run(h, args, err, sizeof err);
        if (rc == 0)
            return h->display;
        fprintf(stderr, "viewer probe (%s) exit %d: %s\n",
                order[i] == HARNESS_OFFSCREEN ? "SDL offscreen" : "xvfb-run", rc, err);
    }
    h->display = HARNESS_NO_DISPLAY;
    fprintf(stderr, "skipped: neither SDL's offscreen driver nor xvfb-run gives an OpenGL 3.3 "
                    "context here\n");
    return HARNESS_NO_DISPLAY;
}

int harness_open(harness *h, const char *viewer)
{
    if (!harness_begin(h, viewer))
        return 1;
    if (harness_pick_display(h) == HARNESS_NO_DISPLAY) {
        harness_end(h);
        return 77;
    }
    return 0;
}

bool harness_write_png(const harness *h, const char *name, int width, int height,
                       const uint8_t *rgb, char *path, size_t size)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)width;
    img.height = (png_uint_32)height;
    img.format = PNG_FORMAT_RGB;
    if (png_image_write_to_file(&img, harness_file(h, name, path, size), 0, rgb, 0, NULL))
        return true;
    fprintf(stderr, "cannot write %s: %s\n", path, img.message);
    return false;
}

bool harness_read_png(const char *path, harness_image *img)
{
    memset(img, 0, sizeof *img);
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&pi, path)) {
        fprintf(stderr, "%s: %s\n", path, pi.message);
        return false;
    }
    pi.format = PNG_FORMAT_RGB;
    img->rgb = malloc(PNG_IMAGE_SIZE(pi));
    if (!img->rgb || !png_image_finish_read(&pi, NULL, img->rgb, 0, NULL)) {
        fprintf(stderr, "%s: cannot decode: %s\n", path, pi.message);
        png_image_free(&pi);
        free(img->rgb);
        img->rgb = NULL;
        return false;
    }
    img->width = (int)pi.width;
    img->height = (int)pi.height;
    return true;
}

void harness_image_free(harness_image *img)
{
    free(img->rgb);
    img->rgb = NULL;
}

static bool same_colour(const uint8_t *a, const uint8_t *b)
{
    for (int k = 0; k < 3; k++)
        if (abs((int)a[k] - (int)b[k]) > 6)
            return false;
    return true;
}

size_t harness_foreground(const harness_image *img)
{
    size_t count = 0, n = (size_t)img->width * (size_t)img->height;
    for (size_t i = 0; i < n; i++)
        count += !same_colour(img->rgb + 3 * i, img->rgb);
    return count;
}

size_t harness_differ(const harness_image *a, const harness_image *b, int y0, int y1)
{
    if (a->width != b->width || a->height != b->height)
        return (size_t)-1;
    size_t count = 0;
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < a->height; y++)
        for (int x = 0; x < a->width; x++) {
            size_t i = 3 * ((size_t)y * (size_t)a->width + (size_t)x);
            count += !same_colour(a->rgb + i, b->rgb + i);
        }
    return count;
}
