/* The writers' output contract (write.h, docs/RELIABILITY.md): every path is put to the guard
 * before anything is written; a refusal or failure leaves the folder as it was, with no
 * temporary behind; a link at a target's name is replaced, not written through; a loaded model
 * lists the files it was read from. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "demo.h"
#include "ossa/files.h"
#include "ossa/ossa.h"
#include "test_common.h"

typedef struct guard_log {
    int calls;
    const char *refuse; /* a file name to refuse */
    char seen[64][256];
} guard_log;

static bool check(void *user, const char *path, char *why, size_t why_size)
{
    guard_log *g = user;
    const char *leaf = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (g->calls < 64)
        snprintf(g->seen[g->calls], sizeof g->seen[0], "%s", leaf);
    g->calls++;
    if (g->refuse && !strcmp(leaf, g->refuse)) {
        snprintf(why, why_size, "not this one");
        return false;
    }
    return true;
}

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

static void empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[4400];
    while (d && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    if (d)
        closedir(d);
}

static void test_cal3d_guard(const ossa_model *demo, const char *dir)
{
    guard_log g = {0};
    g.refuse = "walk.caf";
    ossa_cal3d_write_options o = {.guard = {check, &g}};
    ossa_error err;
    ossa_status st = ossa_write_cal3d(demo, dir, "demo", &o, &err);
    CHECKF(st == OSSA_ERR_REFUSED && strstr(err.file, "walk.caf") &&
           strstr(err.message, "not this one"), "%d %s: %s", st, err.file, err.message);
    /* every name was asked before any file: the refusal left nothing at all */
    CHECK(entries(dir) == 0);
    int asked = g.calls;
    g.refuse = NULL;
    g.calls = 0;
    CHECKF(ossa_write_cal3d(demo, dir, "demo", &o, &err) == OSSA_OK, "%s", err.message);
    /* one question per file, and no temporary left */
    CHECK(g.calls > asked && g.calls == entries(dir));

    /* the model lists the files it came from: the .cfg and each file it names */
    char cfg[4400];
    snprintf(cfg, sizeof cfg, "%s/demo.cfg", dir);
    ossa_model *m = NULL;
    CHECKF(ossa_load_file(cfg, NULL, &m, &err) == OSSA_OK, "%s", err.message);
    CHECK(m && (int)m->file_count == entries(dir));
    bool has_cfg = false;
    for (uint32_t i = 0; m && i < m->file_count; i++)
        has_cfg |= !strcmp(m->files[i], cfg);
    CHECK(has_cfg);
    ossa_model_destroy(m);
    empty_dir(dir);
}

static void test_link_replaced(const ossa_model *demo, const char *dir)
{
    char victim[4400], link[4400];
    snprintf(victim, sizeof victim, "%s/victim.txt", dir);
    snprintf(link, sizeof link, "%s/m.c3s", dir);
    FILE *f = fopen(victim, "w");
    CHECK(f && fputs("private", f) >= 0);
    if (f)
        fclose(f);
    CHECK(symlink("victim.txt", link) == 0);
    ossa_error err;
    CHECKF(ossa_write_c3s(demo, link, NULL, &err) == OSSA_OK, "%s", err.message);
    struct stat st;
    CHECK(lstat(link, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 100);
    CHECK(stat(victim, &st) == 0 && st.st_size == 7);
    CHECK(entries(dir) == 2);
    /* one file written the same way (ossa_file_write: screenshots, the demo's textures) */
    CHECK(unlink(link) == 0 && symlink("victim.txt", link) == 0);
    CHECK(ossa_file_write(link, "new", 3, NULL, &err) == OSSA_OK);
    CHECK(lstat(link, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 3);
    CHECK(stat(victim, &st) == 0 && st.st_size == 7 && entries(dir) == 2);
    empty_dir(dir);
}

static void test_gltf_guard(const ossa_model *demo, const char *dir)
{
    char out[4400];
    snprintf(out, sizeof out, "%s/m.gltf", dir);
    guard_log g = {0};
    g.refuse = "m.bin";
    ossa_export_options o = {.guard = {check, &g}};
    ossa_error err;
    CHECK(ossa_export_gltf(demo, out, &o, &err) == OSSA_ERR_REFUSED && strstr(err.file, "m.bin"));
    CHECK(entries(dir) == 0);
    g.refuse = NULL;
    CHECKF(ossa_export_gltf(demo, out, &o, &err) == OSSA_OK, "%s", err.message);
    int files = entries(dir);
    CHECK(files >= 2);
    /* again: the textures already there with the same bytes are not written (nor asked) */
    g.calls = 0;
    CHECKF(ossa_export_gltf(demo, out, &o, &err) == OSSA_OK, "%s", err.message);
    CHECK(g.calls >= 1 && g.calls <= 2 && entries(dir) == files);
    empty_dir(dir);
}

static void test_failed_write_keeps_target(const ossa_model *demo, const char *dir)
{
    /* a folder that cannot take a new file: the target stays, the error names it */
    char sub[4400], target[4500];
    snprintf(sub, sizeof sub, "%s/ro", dir);
    CHECK(mkdir(sub, 0700) == 0);
    snprintf(target, sizeof target, "%s/m.cff", sub);
    FILE *f = fopen(target, "w");
    CHECK(f && fputs("old", f) >= 0);
    if (f)
        fclose(f);
    CHECK(chmod(sub, 0500) == 0);
    ossa_error err;
    ossa_status st = ossa_write_cff(demo, target, NULL, &err);
    struct stat s;
    if (geteuid() != 0) /* root writes anywhere */
        CHECK(st == OSSA_ERR_IO && strstr(err.file, "m.cff"));
    CHECK(stat(target, &s) == 0 && (st == OSSA_OK || s.st_size == 3));
    chmod(sub, 0700);
    empty_dir(sub);
    rmdir(sub);
}

int main(void)
{
    ossa_model *demo = NULL;
    ossa_error err;
    if (ossa_demo_model(&demo, &err) != OSSA_OK) {
        fprintf(stderr, "demo: %s\n", err.message);
        return 1;
    }
    char dir[] = "/tmp/ossa-out-file-XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "cannot make a temporary folder\n");
        return 1;
    }
    test_cal3d_guard(demo, dir);
    test_link_replaced(demo, dir);
    test_gltf_guard(demo, dir);
    test_failed_write_keeps_target(demo, dir);
    rmdir(dir);
    ossa_model_destroy(demo);
    return test_finish("out-file");
}
