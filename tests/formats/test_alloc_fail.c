/* Allocation failure: every loader and writer (Cal3D binary, XML and mp3butcher, SKM, C3S, CFF, glTF), with its Nth allocation failing for every N up
 * to the number it makes, returns OSSA_ERR_NOMEM (a writer: an error), hands out no model and
 * leaks nothing. The engine is linked statically, and malloc and its relatives are wrapped at
 * link time (-Wl,--wrap=...) to count live blocks and fail on demand; jansson's blocks are
 * counted; libxml2's own allocations are not. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "ossa/export.h"
#include "ossa/ossa.h"
#include "demo.h"
#include "test_common.h"

/* Test-harness state, the only globals here: the wrappers cannot take arguments. */
static long fail_at;   /* the call that fails (1-based); 0: none */
static long calls;     /* allocations counted since the last reset */
static long live;      /* blocks handed out minus blocks freed */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
char *__real_strdup(const char *s);
int __real_posix_memalign(void **p, size_t align, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
char *__wrap_strdup(const char *s);
int __wrap_posix_memalign(void **p, size_t align, size_t n);
void *__wrap_aligned_alloc(size_t align, size_t n);

static int failing(void)
{
    return ++calls == fail_at;
}

void *__wrap_malloc(size_t n)
{
    void *p = failing() ? NULL : __real_malloc(n);
    live += p != NULL;
    return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
    void *p = failing() ? NULL : __real_calloc(n, size);
    live += p != NULL;
    return p;
}

void *__wrap_realloc(void *p, size_t n)
{
    if (failing())
        return NULL;
    void *q = __real_realloc(p, n);
    live += !p && q;
    return q;
}

void __wrap_free(void *p)
{
    live -= p != NULL;
    __real_free(p);
}

char *__wrap_strdup(const char *s)
{
    char *p = failing() ? NULL : __real_strdup(s);
    live += p != NULL;
    return p;
}

int __wrap_posix_memalign(void **p, size_t align, size_t n)
{
    if (failing())
        return 12; /* ENOMEM */
    int r = __real_posix_memalign(p, align, n);
    live += r == 0;
    return r;
}

void *__wrap_aligned_alloc(size_t align, size_t n)
{
    void *p = failing() ? NULL : __real_aligned_alloc(align, n);
    live += p != NULL;
    return p;
}

/* jansson's allocator: counted, never failed. */
static void *counted_malloc(size_t n)
{
    void *p = __real_malloc(n);
    live += p != NULL;
    return p;
}

static char scratch[256];

/* Removes every file of the scratch folder (a failed writer must leave none, checked too). */
static size_t scratch_files(bool remove)
{
    DIR *d = opendir(scratch);
    size_t n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        n++;
        if (remove) {
            char p[600];
            snprintf(p, sizeof p, "%s/%s", scratch, e->d_name);
            unlink(p);
        }
    }
    if (d)
        closedir(d);
    return n;
}

typedef ossa_status (*step_fn)(const void *arg, ossa_model **out, ossa_error *err);

/* Runs step with no failure to count its allocations, then with each one failing in turn. */
static void sweep(const char *what, step_fn step, const void *arg, bool writer)
{
    ossa_model *m = NULL;
    ossa_error err;
    fail_at = 0;
    calls = 0;
    long before = live;
    ossa_status st = step(arg, &m, &err);
    CHECKF(st == OSSA_OK, "%s: %s", what, err.message);
    long total = calls;
    ossa_model_destroy(m);
    scratch_files(true);
    CHECKF(live == before, "%s: %ld blocks not freed after a successful run", what, live - before);
    long bad = 0;
    for (long n = 1; n <= total && bad < 5; n++) {
        fail_at = n;
        calls = 0;
        before = live;
        m = (ossa_model *)1;
        st = step(arg, &m, &err);
        fail_at = 0;
        bool ok = writer ? st != OSSA_OK && scratch_files(false) == 0
                         : st == OSSA_ERR_NOMEM && m == NULL;
        if (!writer && st == OSSA_OK)
            ossa_model_destroy(m);
        scratch_files(true);
        if (!ok || live != before) {
            bad++;
            CHECKF(0, "%s: allocation %ld of %ld failing: status %s, %ld blocks leaked, %zu files "
                   "left (%s)", what, n, total, ossa_status_name(st), live - before,
                   scratch_files(false), err.message);
        }
    }
    printf("%s: %ld allocations, each failed in turn\n", what, total);
}

static ossa_status load_step(const void *arg, ossa_model **out, ossa_error *err)
{
    return ossa_load_file((const char *)arg, NULL, out, err);
}

static const ossa_model *demo;

static ossa_status write_skm(const void *arg, ossa_model **out, ossa_error *err)
{
    (void)arg;
    *out = NULL;
    return ossa_write_skm(demo, scratch, "demo", NULL, err);
}

static ossa_status write_c3s(const void *arg, ossa_model **out, ossa_error *err)
{
    char p[600];
    snprintf(p, sizeof p, "%s/demo.c3s", scratch);
    ossa_c3s_write_options opt = {.vertex_frames = *(const bool *)arg, .frame_rate = 0.0f};
    *out = NULL;
    return ossa_write_c3s(demo, p, &opt, err);
}

static ossa_status write_cal3d(const void *arg, ossa_model **out, ossa_error *err)
{
    *out = NULL;
    return ossa_write_cal3d(demo, scratch, "demo", (const ossa_cal3d_write_options *)arg, err);
}

static ossa_status write_gltf(const void *arg, ossa_model **out, ossa_error *err)
{
    char p[600];
    snprintf(p, sizeof p, "%s/demo.%s", scratch, (const char *)arg);
    *out = NULL;
    return ossa_export_gltf(demo, p, NULL, err);
}

static ossa_status write_cff(const void *arg, ossa_model **out, ossa_error *err)
{
    char p[600];
    (void)arg;
    snprintf(p, sizeof p, "%s/demo.cff", scratch);
    *out = NULL;
    return ossa_write_cff(demo, p, NULL, err);
}

int main(void)
{
    /* The exporter's JSON is built by jansson: its blocks are counted too (a string jansson
     * made is freed by the exporter), but not failed: jansson's json_dumps was seen to return a
     * string with one of its internal allocations failed, which is jansson's to answer for. */
    json_set_alloc_funcs(counted_malloc, __wrap_free);
    const char *root = getenv("OSSA_SOURCE_ROOT");
    if (!root)
        return TEST_SKIP;
    snprintf(scratch, sizeof scratch, "/tmp/ossa-alloc-XXXXXX");
    if (!mkdtemp(scratch))
        return 1;
    static const char *const files[] = {
        "cal3d/mannequin.cfg", "cal3d/mannequin.csf", "cal3d/walk.caf", "cal3d/skin.crf",
        "cal3d-xml/mannequin.cfg", "cal3d-xml/walk.xaf", "skm/mannequin.skm",
        "c3s/mannequin.c3s", "c3s/mannequin_frames.c3s", "cff/mannequin.cff", "cal3d"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/assets/%s", root, files[i]);
        sweep(files[i], load_step, path, false);
    }
    ossa_model *model = NULL;
    ossa_error err;
    CHECK(ossa_demo_model(&model, &err) == OSSA_OK);
    demo = model;
    if (demo) {
        static const bool bones = false, frames = true;
        static const ossa_cal3d_write_options binary = {0}, xml = {.xml = true},
                                              fork = {.mp3butcher = true};
        sweep("write cal3d", write_cal3d, &binary, true);
        sweep("write cal3d xml", write_cal3d, &xml, true);
        sweep("write cal3d mp3butcher", write_cal3d, &fork, true);
        sweep("write skm", write_skm, NULL, true);
        sweep("write c3s", write_c3s, &bones, true);
        sweep("write c3s vertex frames", write_c3s, &frames, true);
        sweep("write cff", write_cff, NULL, true);
        sweep("export glb", write_gltf, "glb", true);
        sweep("export gltf", write_gltf, "gltf", true);
    }
    ossa_model_destroy(model);
    rmdir(scratch);
    return test_finish("alloc-fail");
}
