/* ossa-gen-demo: writes the built-in demo mannequin (ossa_demo_model) in every format Ossa reads,
 * one folder per format under OUTDIR, the way assets/ holds them:
 *   cal3d/      mannequin.cfg + CSF, CMF, CAF, CRF (binary, version 1100)
 *   cal3d-xml/  mannequin.cfg + XSF, XMF, XAF, XRF (version 1000)
 *   skm/        mannequin.skm + mannequin.skp (clips as 10 frames per second)
 *   c3s/        mannequin.c3s (bone-animated) and mannequin_frames.c3s (vertex frames)
 *   cff/        mannequin.cff (rigid parts, 25 frames per second)
 * Output depends only on the model, so every run gives the same bytes. A format whose writer is
 * not available yet (OSSA_ERR_UNSUPPORTED) is reported and skipped; any other failure makes the
 * exit status 1. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ossa/ossa.h"

#define GEN_BASE "mannequin"

typedef enum gen_result { GEN_WROTE, GEN_SKIPPED, GEN_FAILED } gen_result;

typedef struct gen_format {
    const char *folder;
    const char *what;
} gen_format;

static const gen_format gen_formats[] = {
    {"cal3d", "Cal3D binary set"},
    {"cal3d-xml", "Cal3D XML set"},
    {"skm", "SKM/SKP"},
    {"c3s", "C3S scenes"},
    {"cff", "CFF"},
};
enum { GEN_FORMAT_COUNT = sizeof gen_formats / sizeof gen_formats[0] };

static int usage(FILE *to)
{
    fprintf(to, "usage: ossa-gen-demo OUTDIR [FORMAT...]\n"
                "Writes the demo mannequin under OUTDIR/<format>/ for each FORMAT (default: all):\n");
    for (int i = 0; i < GEN_FORMAT_COUNT; i++)
        fprintf(to, "  %-10s %s\n", gen_formats[i].folder, gen_formats[i].what);
    return to == stdout ? 0 : 2;
}

static bool make_dir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return true;
    fprintf(stderr, "ossa-gen-demo: cannot create %s: %s\n", path, strerror(errno));
    return false;
}

/* One writer call; a writer that is not there yet leaves no trace. */
static ossa_status write_one(const ossa_model *m, int format, const char *dir, ossa_error *err)
{
    char path[4096 + 64]; /* dir is shorter than 4096 - 64 (see generate) */
    switch (format) {
    case 0: return ossa_write_cal3d(m, dir, GEN_BASE, false, 0, err);
    case 1: return ossa_write_cal3d(m, dir, GEN_BASE, true, 0, err);
    case 2: return ossa_write_skm(m, dir, GEN_BASE, 0.0f, err);
    case 3: {
        ossa_c3s_write_options opt = {false, 0.0f};
        snprintf(path, sizeof path, "%s/%s.c3s", dir, GEN_BASE);
        ossa_status st = ossa_write_c3s(m, path, &opt, err);
        if (st != OSSA_OK)
            return st;
        opt.vertex_frames = true;
        snprintf(path, sizeof path, "%s/%s_frames.c3s", dir, GEN_BASE);
        st = ossa_write_c3s(m, path, &opt, err);
        if (st != OSSA_OK) {
            snprintf(path, sizeof path, "%s/%s.c3s", dir, GEN_BASE);
            unlink(path); /* both scenes or neither */
        }
        return st;
    }
    default:
        snprintf(path, sizeof path, "%s/%s.cff", dir, GEN_BASE);
        return ossa_write_cff(m, path, 0.0f, err);
    }
}

static gen_result generate(const ossa_model *m, const char *out, int format)
{
    char dir[4096];
    int n = snprintf(dir, sizeof dir, "%s/%s", out, gen_formats[format].folder);
    if (n < 0 || (size_t)n >= sizeof dir - 64) {
        fprintf(stderr, "ossa-gen-demo: output path too long\n");
        return GEN_FAILED;
    }
    bool existed = access(dir, F_OK) == 0;
    if (!make_dir(dir))
        return GEN_FAILED;
    ossa_error err;
    ossa_error_clear(&err);
    ossa_status st = write_one(m, format, dir, &err);
    if (st == OSSA_OK) {
        printf("%-10s wrote %s\n", gen_formats[format].folder, dir);
        return GEN_WROTE;
    }
    if (!existed)
        rmdir(dir); /* only removes it when empty */
    char text[1024];
    if (st == OSSA_ERR_UNSUPPORTED && !err.message[0]) {
        printf("%-10s skipped: no writer yet\n", gen_formats[format].folder);
        return GEN_SKIPPED;
    }
    printf("%-10s %s: %s\n", gen_formats[format].folder,
           st == OSSA_ERR_UNSUPPORTED ? "skipped" : "FAILED",
           ossa_error_format(&err, text, sizeof text));
    return st == OSSA_ERR_UNSUPPORTED ? GEN_SKIPPED : GEN_FAILED;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0))
        return usage(stdout);
    if (argc < 2)
        return usage(stderr);
    bool wanted[GEN_FORMAT_COUNT];
    for (int i = 0; i < GEN_FORMAT_COUNT; i++)
        wanted[i] = argc == 2;
    for (int a = 2; a < argc; a++) {
        int found = -1;
        for (int i = 0; i < GEN_FORMAT_COUNT; i++)
            if (strcmp(argv[a], gen_formats[i].folder) == 0)
                found = i;
        if (found < 0) {
            fprintf(stderr, "ossa-gen-demo: unknown format '%s'\n", argv[a]);
            return usage(stderr);
        }
        wanted[found] = true;
    }
    if (!make_dir(argv[1]))
        return 1;

    ossa_model *m = NULL;
    ossa_error err;
    if (ossa_demo_model(&m, &err) != OSSA_OK) {
        char text[1024];
        fprintf(stderr, "ossa-gen-demo: demo model: %s\n", ossa_error_format(&err, text, sizeof text));
        return 1;
    }
    int failed = 0;
    for (int i = 0; i < GEN_FORMAT_COUNT; i++)
        if (wanted[i] && generate(m, argv[1], i) == GEN_FAILED)
            failed++;
    ossa_model_free(m);
    return failed ? 1 : 0;
}
