/* Plain driver for one fuzz harness (built with every compiler): runs the harness's checks over
 * the files and folders named on the command line, the real assets (--assets) and the generated
 * seeds (--seeds), reporting every violated invariant instead of stopping at the first.
 *
 *   fuzz-csf [--seeds] [--assets] [--write-seeds DIR] [FILE|DIR]...
 *
 * Folders are walked recursively; for a harness bound to one format only files with that
 * extension are fed (the sniffing harness gets every file). A harness with companions
 * (fuzz_check.h) loads each input beside its fixed files. Seeds of the harness's own format
 * must load OK. Exit status: 0 all held, 1 a check failed, 77 --assets given but the assets
 * folder is absent (after running everything else). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "fuzz_check.h"
#include "fuzz_seeds.h"
#include "ossa/load.h"
#include "test_common.h"

typedef struct run_stats {
    fuzz_harness harness;
    fuzz_target target;
    unsigned inputs, loaded, failures;
} run_stats;

static const char *extension_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot ? dot + 1 : "";
}

static int wanted(const run_stats *rs, const char *path)
{
    const char *want = extension_of(rs->target.name);
    return !*want || strcasecmp(extension_of(path), want) == 0;
}

/* Runs the harness on one input; returns 1 when it loaded OK. */
static int run_one(run_stats *rs, const uint8_t *data, size_t size, const char *label)
{
    char why[768];
    rs->inputs++;
    ossa_status st;
    if (fuzz_check_harness(data, size, rs->harness, &st, why, sizeof why)) {
        fprintf(stderr, "FAIL %s: %s\n", label, why);
        rs->failures++;
        return 0;
    }
    if (st == OSSA_OK)
        rs->loaded++;
    return st == OSSA_OK;
}

static int read_whole(const char *path, uint8_t **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || st.st_size < 0) {
        fclose(f);
        return 0;
    }
    size_t n = (size_t)st.st_size;
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf || (n && fread(buf, 1, n, f) != n)) {
        free(buf);
        fclose(f);
        return 0;
    }
    fclose(f);
    *data = buf;
    *size = n;
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(run_stats *rs, const char *path, int explicit_file);

/* Every entry of a folder, in name order, so runs are repeatable. */
static void run_dir(run_stats *rs, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "FAIL %s: cannot open folder: %s\n", dir, strerror(errno));
        rs->failures++;
        return;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (count == cap) {
            size_t ncap = cap ? 2 * cap : 64;
            char **grown = realloc(names, ncap * sizeof *grown);
            if (!grown)
                break;
            names = grown;
            cap = ncap;
        }
        names[count] = strdup(e->d_name);
        if (names[count])
            count++;
    }
    closedir(d);
    if (count)
        qsort(names, count, sizeof *names, by_name);
    for (size_t i = 0; i < count; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        run_path(rs, path, 0);
        free(names[i]);
    }
    free(names);
}

static void run_path(run_stats *rs, const char *path, int explicit_file)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "FAIL %s: %s\n", path, strerror(errno));
        rs->failures++;
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        run_dir(rs, path);
        return;
    }
    if (!S_ISREG(st.st_mode) || (!explicit_file && !wanted(rs, path)))
        return;
    uint8_t *data;
    size_t size;
    if (!read_whole(path, &data, &size)) {
        fprintf(stderr, "FAIL %s: cannot read\n", path);
        rs->failures++;
        return;
    }
    run_one(rs, data, size, path);
    free(data);
}

static void run_seeds(run_stats *rs)
{
    fuzz_seed *seeds;
    size_t count = fuzz_seeds_make(&seeds);
    if (!count) {
        fprintf(stderr, "FAIL seeds: out of memory\n");
        rs->failures++;
        return;
    }
    for (size_t i = 0; i < count; i++) {
        int ok = run_one(rs, seeds[i].data, seeds[i].size, seeds[i].name);
        /* The sniff harness sees content only: CFF has no magic and is known by its extension
         * alone, so its seeds are not expected to load there. */
        int own = rs->target.format == seeds[i].format ||
                  (rs->target.format == OSSA_FORMAT_UNKNOWN && seeds[i].format != OSSA_FORMAT_CFF);
        if (own && !ok) {
            char why[768];
            ossa_status st;
            fuzz_check_harness(seeds[i].data, seeds[i].size, rs->harness, &st, why, sizeof why);
            fprintf(stderr, "FAIL seed %s: a valid %s file does not load%s: %s: %s\n",
                    seeds[i].name, ossa_format_name(seeds[i].format),
                    rs->harness.with ? " beside the fixed files" : "", ossa_status_name(st), why);
            rs->failures++;
        }
    }
    fuzz_seeds_free(seeds, count);
}

static int write_seeds(const char *dir)
{
    fuzz_seed *seeds;
    size_t count = fuzz_seeds_make(&seeds);
    int ok = count > 0;
    for (size_t i = 0; i < count && ok; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, seeds[i].name);
        FILE *f = fopen(path, "wb");
        ok = f && fwrite(seeds[i].data, 1, seeds[i].size, f) == seeds[i].size;
        if (f && fclose(f) != 0)
            ok = 0;
        if (!ok)
            fprintf(stderr, "cannot write %s\n", path);
    }
    fuzz_seeds_free(seeds, count);
    return ok;
}

int main(int argc, char **argv)
{
    fuzz_harness h = fuzz_harness_info();
    run_stats rs = {h, h.target, 0, 0, 0};
    int assets_missing = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seeds") == 0) {
            run_seeds(&rs);
        } else if (strcmp(argv[i], "--assets") == 0) {
            const char *dir = test_assets_dir();
            if (dir)
                run_path(&rs, dir, 0);
            else
                assets_missing = 1;
        } else if (strcmp(argv[i], "--write-seeds") == 0 && i + 1 < argc) {
            if (!write_seeds(argv[++i]))
                return 1;
        } else {
            run_path(&rs, argv[i], 1);
        }
    }
    printf("%s: %u inputs, %u loaded OK, %u invariant failure(s)%s\n", rs.target.name,
           rs.inputs, rs.loaded, rs.failures,
           assets_missing ? " (assets folder absent: skipped)" : "");
    if (rs.failures)
        return 1;
    return assets_missing ? TEST_SKIP : 0;
}
