/* ossa export: models to glTF 2.0, one model or a batch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "batch.h"
#include "cli.h"
#include "out_guard.h"

#define EXPORT_USAGE                                                                          \
    "ossa export MODEL... -o OUT.glb|OUT.gltf [--fps N] [--up y|z] [--embed] [--overwrite] "  \
    OSSA_CLI_SCALE_USAGE " "                                                                  \
    "[--verbose] " OSSA_CLI_LOAD_USAGE "\n       ossa export (MODEL|FOLDER)... -o OUTDIR [--gltf] [options]"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcasecmp(s + n - k, suffix);
}

/* Loads and exports one model; returns 0 written, 1 failed, OSSA_CLI_SKIPPED for a model with
 * nothing to export. Warnings are collected in w. The model's own files join the guard's inputs
 * before anything is written. */
static int export_one(const char *const *files, size_t count, const ossa_load_options *lopt,
                      const char *out, ossa_export_options *xopt, ossa_cli_guard *guard,
                      ossa_cli_warnings *w, char *why, size_t why_size)
{
    ossa_model *m = NULL;
    ossa_error err;
    ossa_load_options load = *lopt;
    load.log = (ossa_log_options){ossa_cli_warning_add, w}; /* a texture left out, keys sorted */
    if (ossa_load_files(files, count, &load, &m, &err) != OSSA_OK) {
        ossa_error_format(&err, why, (unsigned)why_size);
        return 1;
    }
    if (ossa_cli_nothing_to_export(m, why, why_size)) {
        ossa_model_destroy(m);
        return OSSA_CLI_SKIPPED;
    }
    if (ossa_cli_guard_add_model(guard, m) != 0) {
        ossa_model_destroy(m);
        snprintf(why, why_size, "out of memory");
        return 1;
    }
    xopt->guard = ossa_cli_write_guard(guard);
    if (ossa_batch_mkdirs(out) != 0) { /* the folders -o names, once there is something to write */
        ossa_model_destroy(m);
        snprintf(why, why_size, "cannot create the folders of %s", out);
        return 1;
    }
    xopt->log = (ossa_log_options){ossa_cli_warning_add, w};
    ossa_status st = ossa_export_gltf(m, out, xopt, &err);
    ossa_model_destroy(m);
    if (st != OSSA_OK) {
        ossa_error_format(&err, why, (unsigned)why_size);
        return 1;
    }
    return 0;
}

int ossa_cli_run_batch(const char *cmd, ossa_batch *b, ossa_cli_batch_fn fn, void *user,
                       bool verbose, const ossa_cli_guard *guard)
{
    size_t done = 0, warned = 0, failed = 0, files = 0, skipped = 0;
    for (size_t i = 0; i < b->count; i++) {
        const ossa_batch_model *bm = &b->models[i];
        ossa_cli_warnings w = {0};
        char why[1024] = "";
        size_t claimed = guard->claimed_count;
        int rc = ossa_batch_mkdirs(bm->out) ? (snprintf(why, sizeof why, "cannot create the "
                                                        "folders of %s", bm->out), 1)
                                            : fn(bm, user, &w, why, sizeof why);
        if (rc == OSSA_CLI_SKIPPED) {
            skipped++;
            fprintf(stderr, "ossa %s: [%zu/%zu] %s: skipped: %s\n", cmd, i + 1, b->count,
                    bm->label, why);
        } else if (rc) {
            failed++;
            fprintf(stderr, "ossa %s: [%zu/%zu] %s: FAILED: %s\n", cmd, i + 1, b->count,
                    bm->label, why);
        } else {
            done++;
            files += guard->claimed_count - claimed; /* a write is whole: every claim landed */
            warned += w.count > 0;
            fprintf(stderr, "ossa %s: [%zu/%zu] %s -> %s: ok", cmd, i + 1, b->count, bm->label,
                    bm->out);
            if (w.count)
                fprintf(stderr, ", %zu warning%s%s", w.count, w.count > 1 ? "s" : "",
                        verbose ? ":" : " (--verbose lists them)");
            fputc('\n', stderr);
            for (size_t k = 0; verbose && k < w.count; k++)
                fprintf(stderr, "    warning: %s\n", w.lines[k]);
        }
        ossa_cli_warnings_clear(&w);
    }
    if (b->unreadable)
        fprintf(stderr, "ossa %s: %zu entr%s could not be examined (above)\n", cmd,
                b->unreadable, b->unreadable == 1 ? "y" : "ies");
    fprintf(stderr, "ossa %s: %zu written (%zu file%s, %zu with warnings), ", cmd, done, files,
            files == 1 ? "" : "s", warned);
    if (skipped)
        fprintf(stderr, "%zu skipped (nothing to export), ", skipped);
    fprintf(stderr, "%zu failed, of %zu\n", failed, b->count);
    if (!b->count && !b->unreadable)
        fprintf(stderr, "ossa %s: no model found in what was given\n", cmd);
    else if (!done && !failed)
        fprintf(stderr, "ossa %s: nothing was written\n", cmd);
    return failed || b->unreadable || !done ? 1 : 0;
}

typedef struct export_batch_ctx {
    const ossa_load_options *lopt;
    ossa_export_options *xopt;
    ossa_cli_guard *guard;
} export_batch_ctx;

static int export_batch_one(const ossa_batch_model *bm, void *user, ossa_cli_warnings *w,
                            char *why, size_t why_size)
{
    export_batch_ctx *x = user;
    return export_one((const char *const *)bm->files, bm->file_count, x->lopt, bm->out, x->xopt,
                      x->guard, w, why, why_size);
}

int ossa_cmd_export(int argc, char **argv)
{
    ossa_load_options lopt = {0};
    ossa_export_options xopt = {0};
    ossa_cli_guard guard = {0};
    const char *out = NULL;
    bool verbose = false, gltf = false;
    int taken;
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t count = 0;
    if (!files)
        return 1;
    for (int i = 0; i < argc; i++) {
        if ((taken = ossa_cli_load_option("export", argc, argv, &i, &lopt)) != 0) {
            if (taken == 2)
                goto usage;
        } else if ((taken = ossa_cli_scale_option("export", argc, argv, &i, &lopt)) != 0) {
            if (taken == 2)
                goto usage;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--fps") && i + 1 < argc) {
            char *end;
            xopt.fps = strtof(argv[++i], &end);
            if (*end || !(xopt.fps >= 1.0f && xopt.fps <= 10000.0f)) {
                fprintf(stderr, "ossa export: --fps needs frames per second in 1..10000\n");
                goto usage;
            }
        } else if (!strcmp(argv[i], "--up") && i + 1 < argc) {
            i++;
            if (!strcasecmp(argv[i], "y"))
                xopt.up = OSSA_EXPORT_UP_Y;
            else if (!strcasecmp(argv[i], "z"))
                xopt.up = OSSA_EXPORT_UP_Z;
            else {
                fprintf(stderr, "ossa export: --up takes y or z, not '%s'\n", argv[i]);
                goto usage;
            }
        } else if (!strcmp(argv[i], "--max-influences") && i + 1 < argc) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || n < 1 || n > 64) {
                fprintf(stderr, "ossa export: --max-influences needs 1..64\n");
                goto usage;
            }
            xopt.max_influences = (uint32_t)n;
        } else if (!strcmp(argv[i], "--skip-bad")) {
            lopt.skip_bad_files = true;
        } else if (!strcmp(argv[i], "--embed")) {
            xopt.embed = true;
        } else if (!strcmp(argv[i], "--gltf")) {
            gltf = true;
        } else if (!strcmp(argv[i], "--overwrite")) {
            guard.overwrite = true;
        } else if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-v")) {
            verbose = true;
        } else if (ossa_cli_take_file("export", argv[i], files, &count)) {
            goto usage;
        }
    }
    if (!count || !out) {
        fprintf(stderr, "usage: %s\n", EXPORT_USAGE);
        goto usage;
    }
    /* -o a file: the inputs are one model (a folder: the model ossa_load_files finds in it) */
    bool single = ends_with(out, ".glb") || ends_with(out, ".gltf");
    const char *ext = ossa_batch_file_ext(out);
    if (!single && ext) {
        fprintf(stderr, "ossa export: writes .glb or .gltf, not '.%s' (-o %s); a folder of outputs "
                        "is given without an extension or with a trailing '/'\n", ext, out);
        goto usage;
    }
    int rc;
    if (ossa_cli_guard_add_args(&guard, files, count) != 0) {
        fprintf(stderr, "ossa export: out of memory\n");
        rc = 1;
    } else if (single) {
        ossa_cli_warnings w = {0};
        char why[1024];
        rc = export_one(files, count, &lopt, out, &xopt, &guard, &w, why, sizeof why);
        for (size_t k = 0; k < w.count; k++)
            fprintf(stderr, "ossa export: warning: %s\n", w.lines[k]);
        if (rc)
            fprintf(stderr, "ossa export: %s\n", why);
        rc = rc ? 1 : 0;
        ossa_cli_warnings_clear(&w);
    } else {
        ossa_batch b = {0};
        rc = ossa_batch_collect(&b, files, count, out, gltf ? "gltf" : "glb");
        if (!rc) {
            export_batch_ctx x = {&lopt, &xopt, &guard};
            rc = ossa_cli_run_batch("export", &b, export_batch_one, &x, verbose, &guard);
        }
        ossa_batch_free(&b);
    }
    ossa_cli_guard_free(&guard);
    free(files);
    return rc;
usage:
    free(files);
    return 2;
}
