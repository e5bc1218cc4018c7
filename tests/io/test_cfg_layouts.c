/* Cal3D .cfg sets laid out as classic applications ship them (docs/FORMATS.md, "Cal3D .cfg"):
 * the cfg inside data/ with path= relative to the folder the program runs from, so that
 * `path=data/models/hero/` in app/data/hero.cfg means app/data/models/hero/. The nearest
 * ancestor of the cfg's folder where path= names a folder is used, with a warning naming it;
 * path= beside the cfg still wins; a path= found nowhere fails naming the missing file (and a
 * file left out with skip_bad_files is named even when the caller takes no error, and told to
 * the load's logger even when the load then fails). Uses
 * the committed demo set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ossa/ossa.h"
#include "test_common.h"

static const char *const demo_files[] = {"mannequin.csf", "mannequin.cmf", "walk.caf",
                                         "wave.caf", "idle.caf", "skin.crf", "shirt.crf",
                                         "trousers.crf"};
#define DEMO_FILES (sizeof demo_files / sizeof demo_files[0])

static void copy_demo(const char *src_dir, const char *dst_dir)
{
    char a[4096], b[4096];
    for (size_t i = 0; i < DEMO_FILES; i++) {
        size_t n = 0;
        uint8_t *data = test_read_file(test_path(a, sizeof a, src_dir, demo_files[i]), &n);
        CHECKF(data != NULL, "%s", a);
        FILE *f = fopen(test_path(b, sizeof b, dst_dir, demo_files[i]), "wb");
        CHECK(f != NULL);
        if (f && data)
            CHECK(fwrite(data, 1, n, f) == n);
        if (f)
            fclose(f);
        free(data);
    }
}

static void write_cfg(const char *path, const char *folder)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fprintf(f, "path=%s\n", folder);
    for (size_t i = 0; i < DEMO_FILES; i++) {
        const char *e = strrchr(demo_files[i], '.') + 1;
        fprintf(f, "%s=%s\n", !strcmp(e, "csf") ? "skeleton" : !strcmp(e, "cmf") ? "mesh"
                              : !strcmp(e, "caf") ? "animation" : "material", demo_files[i]);
    }
    fclose(f);
}

static bool warned(const ossa_model *m, const char *needle)
{
    for (uint32_t i = 0; i < m->warning_count; i++)
        if (strstr(m->warnings[i], needle))
            return true;
    return false;
}

/* The load's logger (ossa_load_options.log): the lines it was given, in order. */
typedef struct logged {
    char lines[8][512];
    uint32_t count;
} logged;

static void log_line(void *user, const char *message)
{
    logged *l = user;
    if (l->count < 8)
        snprintf(l->lines[l->count], sizeof l->lines[0], "%s", message);
    l->count++;
}

int main(void)
{
    const char *root = getenv("OSSA_SOURCE_ROOT");
    char demo[4096], app[64] = "/tmp/ossa-cfg-app-XXXXXX", p[4096], q[4096], text[1024];
    snprintf(demo, sizeof demo, "%s/assets/cal3d", root ? root : ".");
    CHECK(mkdtemp(app) != NULL);
    snprintf(p, sizeof p, "%s/data", app);
    CHECK(mkdir(p, 0755) == 0);
    snprintf(p, sizeof p, "%s/data/models", app);
    CHECK(mkdir(p, 0755) == 0);
    snprintf(p, sizeof p, "%s/data/models/hero", app);
    CHECK(mkdir(p, 0755) == 0);
    copy_demo(demo, p);

    /* app/data/hero.cfg, path= relative to app/ (and written the Windows way). */
    static const char *const forms[] = {"data/models/hero/", "data\\models\\hero"};
    for (int k = 0; k < 2; k++) {
        snprintf(p, sizeof p, "%s/data/hero.cfg", app);
        write_cfg(p, forms[k]);
        ossa_model *m = NULL;
        ossa_error err;
        ossa_status st = ossa_load_file(p, NULL, &m, &err);
        CHECKF(st == OSSA_OK, "path=%s: %s", forms[k], ossa_error_format(&err, text, sizeof text));
        if (m) {
            CHECK(m->bone_count > 0 && m->mesh_count == 1 && m->clip_count == 3);
            snprintf(q, sizeof q, "using %s/data/models/hero/", app);
            CHECKF(warned(m, q) && warned(m, "nearest folder above"), "path=%s: no warning %s",
                   forms[k], q);
        }
        ossa_model_destroy(m);
    }

    /* Beside the cfg first: app/data/models/hero.cfg with path=hero/ takes hero/ beside it. */
    snprintf(p, sizeof p, "%s/data/models/hero.cfg", app);
    write_cfg(p, "hero/");
    ossa_model *m = NULL;
    ossa_error err;
    CHECKF(ossa_load_file(p, NULL, &m, &err) == OSSA_OK, "%s",
           ossa_error_format(&err, text, sizeof text));
    if (m)
        CHECK(!warned(m, "nearest folder above"));
    ossa_model_destroy(m);
    unlink(p);

    /* Nowhere: the missing file is named, as before. */
    snprintf(p, sizeof p, "%s/data/lost.cfg", app);
    write_cfg(p, "data/nowhere/");
    m = NULL;
    CHECK(ossa_load_file(p, NULL, &m, &err) != OSSA_OK && m == NULL);
    CHECKF(strstr(err.message, "not found") && strstr(err.message, "nowhere"), "%s", err.message);
    /* Left-out files are reported from their errors even when the caller takes none. */
    logged log = {0};
    ossa_load_options skip = {.skip_bad_files = true, .log = {log_line, &log}};
    CHECK(ossa_load_file(p, &skip, &m, NULL) == OSSA_ERR_IO && m == NULL);
    /* A failed load still tells the logger what it left out on the way. */
    CHECKF(log.count >= 1 && strstr(log.lines[0], "left out") && strstr(log.lines[0], "nowhere"),
           "%u lines, first '%s'", log.count, log.lines[0]);
    unlink(p);
    snprintf(p, sizeof p, "%s/data/hero.cfg", app);
    write_cfg(p, "data/models/hero/");
    FILE *f = fopen(p, "a");
    CHECK(f != NULL);
    if (f) {
        fputs("animation=gone.caf\n", f);
        fclose(f);
    }
    log.count = 0;
    CHECK(ossa_load_file(p, &skip, &m, NULL) == OSSA_OK && m != NULL);
    if (m) {
        CHECK(warned(m, "left out") && warned(m, "gone.caf") && m->clip_count == 3);
        /* The logger hears the model's warnings, in order, and nothing else. */
        CHECK(log.count == m->warning_count && log.count <= 8);
        for (uint32_t i = 0; i < log.count && i < 8; i++)
            CHECKF(!strcmp(log.lines[i], m->warnings[i]), "%s / %s", log.lines[i],
                   m->warnings[i]);
    }
    ossa_model_destroy(m);

    snprintf(p, sizeof p, "%s/data/hero.cfg", app);
    unlink(p);
    snprintf(p, sizeof p, "%s/data/models/hero", app);
    for (size_t i = 0; i < DEMO_FILES; i++)
        unlink(test_path(q, sizeof q, p, demo_files[i]));
    rmdir(p);
    snprintf(p, sizeof p, "%s/data/models", app);
    rmdir(p);
    snprintf(p, sizeof p, "%s/data", app);
    rmdir(p);
    rmdir(app);
    return test_finish("cfg-layouts");
}
