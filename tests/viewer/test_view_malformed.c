/* ossa-view with files that do not load: an error on stderr, exit status 1, no crash and no
 * screenshot written. Loading fails before any window opens, so no display is needed. */
#include <string.h>

#include "test_common.h"
#include "view_harness.h"

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK(fwrite(data, 1, size, f) == size);
        fclose(f);
    }
}

static void expect_failure(harness *h, const char *file, const char *what)
{
    char png[600], err[4096];
    harness_file(h, "never.png", png, sizeof png);
    const char *args[] = {"--screenshot", png, file, NULL};
    int rc = harness_run(h, args, err, sizeof err);
    CHECKF(rc == 1, "%s: exit %d (stderr: %s)", what, rc, err);
    CHECKF(strstr(err, "ossa-view: ") != NULL, "%s: no message on stderr: %s", what, err);
    FILE *f = fopen(png, "rb");
    CHECKF(f == NULL, "%s: a screenshot was written", what);
    if (f)
        fclose(f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-view-malformed OSSA-VIEW\n");
        return 1;
    }
    harness h;
    if (!harness_begin(&h, argv[1]))
        return 1;
    h.display = HARNESS_OFFSCREEN;
    char path[600];

    /* A CSF header whose bone count is far beyond the bytes that follow. */
    const unsigned char lying[] = {'C', 'S', 'F', 0, 0xe8, 0x03, 0, 0, 0xff, 0xff, 0xff, 0x7f,
                                   1, 2, 3};
    write_file(harness_file(&h, "lying.csf", path, sizeof path), lying, sizeof lying);
    expect_failure(&h, path, "lying bone count");

    /* A CAF cut off in its header. */
    const unsigned char cut[] = {'C', 'A', 'F', 0, 0xe8, 0x03};
    write_file(harness_file(&h, "cut.caf", path, sizeof path), cut, sizeof cut);
    expect_failure(&h, path, "truncated animation");

    /* Not a model at all, and a file that is not there. */
    const char text[] = "hello, I am not a model\n";
    write_file(harness_file(&h, "text.bin", path, sizeof path), text, sizeof text - 1);
    expect_failure(&h, path, "unknown format");
    expect_failure(&h, harness_file(&h, "missing.cmf", path, sizeof path), "missing file");

    /* Bad arguments fail the same way. */
    char err[4096];
    const char *bad_size[] = {"--screenshot", "x.png", "--size", "0x10", NULL};
    CHECK(harness_run(&h, bad_size, err, sizeof err) == 1);
    const char *bad_clip[] = {"--screenshot", "x.png", "--clip", "no-such-clip", NULL};
    CHECK(harness_run(&h, bad_clip, err, sizeof err) == 1);
    CHECK(strstr(err, "no-such-clip") != NULL);
    harness_end(&h);
    return test_finish("view-malformed");
}
