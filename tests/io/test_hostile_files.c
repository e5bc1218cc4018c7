/* Files that are not what their names say, found by a hostile-input probe: a FIFO given
 * directly or named by a .cfg (opening it used to block forever), a 1 GiB sparse file named
 * .caf or .xsf (it used to be read whole before being refused), a .cfg naming a file of the wrong
 * kind for its key (an animation under skeleton= silently gave the root a child's keys) and a
 * .cfg naming itself. Each must fail at once, cheaply, with a message that says what is wrong
 * and where. A FIFO named as a texture must not block the glTF export either. An alarm turns a
 * hang into a failure. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ossa/export.h"
#include "ossa/ossa.h"
#include "test_common.h"

static char dir[256];

static const char *in_dir(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", dir, name);
    return buf;
}

static void write_text(const char *name, const char *text)
{
    char p[512];
    FILE *f = fopen(in_dir(p, sizeof p, name), "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Notes whether an export warning holds needle. */
typedef struct seen_warning {
    const char *needle;
    bool seen;
} seen_warning;

static void on_warning(void *user, const char *message)
{
    seen_warning *w = user;
    w->seen |= strstr(message, w->needle) != NULL;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Loads name from the scratch folder and expects status, a message holding needle, the error's
 * line (0: not checked), in well under a second. */
static void expect(const char *name, ossa_status status, int line, const char *needle)
{
    char p[512];
    ossa_model *m = (ossa_model *)1;
    ossa_error err;
    double t0 = now();
    ossa_status st = ossa_load_file(in_dir(p, sizeof p, name), NULL, &m, &err);
    double took = now() - t0;
    CHECKF(st == status && m == NULL, "%s: status %s (%s)", name, ossa_status_name(st),
           err.message);
    CHECKF(strstr(err.message, needle) != NULL, "%s: '%s' lacks '%s'", name, err.message, needle);
    if (line)
        CHECKF(err.line == line, "%s: line %d, expected %d", name, err.line, line);
    CHECKF(took < 1.0 * test_time_factor(), "%s took %.2f s", name, took);
}

int main(void)
{
    const char *root = getenv("OSSA_SOURCE_ROOT");
    if (!root)
        return TEST_SKIP;
    snprintf(dir, sizeof dir, "/tmp/ossa-hostile-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    alarm(60); /* a blocked open fails the test instead of hanging it */
    char cmd[1024], p[512];
    snprintf(cmd, sizeof cmd, "cp '%s'/assets/cal3d/* '%s'/", root, dir);
    CHECK(system(cmd) == 0);

    /* Special files: refused before any read, whether given or named by a .cfg. */
    CHECK(mkfifo(in_dir(p, sizeof p, "pipe.caf"), 0600) == 0);
    expect("pipe.caf", OSSA_ERR_IO, 0, "a FIFO");
    write_text("fifo.cfg", "skeleton=mannequin.csf\nanimation=pipe.caf\n");
    expect("fifo.cfg", OSSA_ERR_IO, 0, "a FIFO");

    /* A huge sparse file named like a model: refused from its first bytes, reading 512 of
     * them, not 1 GiB. */
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    for (int k = 0; k < 2; k++) {
        const char *name = k ? "huge.xsf" : "huge.caf";
        FILE *f = fopen(in_dir(p, sizeof p, name), "wb");
        CHECK(f && ftruncate(fileno(f), (off_t)1 << 30) == 0);
        if (f)
            fclose(f);
        expect(name, OSSA_ERR_FORMAT, 0, "not a format Ossa reads");
        unlink(p);
    }
    getrusage(RUSAGE_SELF, &after);
    CHECKF(after.ru_maxrss - before.ru_maxrss < 64 * 1024, "peak memory grew by %ld KB",
           after.ru_maxrss - before.ru_maxrss);

    /* A .cfg key naming a file of another kind: an error on that line. */
    write_text("order.cfg", "skeleton=walk.caf\nskeleton=mannequin.csf\nmesh=mannequin.cmf\n");
    expect("order.cfg", OSSA_ERR_FORMAT, 1, "skeleton= names");
    write_text("kinds.cfg", "skeleton=mannequin.csf\nmesh=mannequin.cmf\nmaterial=walk.caf\n");
    expect("kinds.cfg", OSSA_ERR_FORMAT, 3, "not a material");
    write_text("self.cfg", "skeleton=mannequin.csf\nanimation=self.cfg\n");
    expect("self.cfg", OSSA_ERR_FORMAT, 2, "not an animation");
    write_text("text.cfg", "skeleton=mannequin.csf\nmesh=notes.txt\n");
    write_text("notes.txt", "hello\n");
    expect("text.cfg", OSSA_ERR_FORMAT, 2, "not a file Ossa reads");

    /* A texture that is a FIFO: the glTF export goes on without it instead of blocking. */
    snprintf(cmd, sizeof cmd, "cp '%s'/assets/c3s/mannequin.c3s '%s'/assets/c3s/skin.tga '%s'/",
             root, root, dir);
    CHECK(system(cmd) == 0);
    CHECK(mkfifo(in_dir(p, sizeof p, "shirt.tga"), 0600) == 0);
    ossa_model *scene = NULL;
    ossa_error err;
    CHECK(ossa_load_file(in_dir(p, sizeof p, "mannequin.c3s"), NULL, &scene, &err) == OSSA_OK);
    if (scene) {
        /* ...and its warning says what the file is (it said "not found (Invalid argument)"). */
        seen_warning w = {"a FIFO, not a file Ossa reads", false};
        ossa_export_options opt = {.log = {on_warning, &w}};
        double t0 = now();
        ossa_status st = ossa_export_gltf(scene, in_dir(p, sizeof p, "out.glb"), &opt, &err);
        CHECKF(st == OSSA_OK, "export with a FIFO texture: %s", err.message);
        CHECK(now() - t0 < 5.0 * test_time_factor());
        CHECKF(w.seen, "no warning holds '%s'", w.needle);
        ossa_model_destroy(scene);
    }

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    return test_finish("hostile-files");
}
