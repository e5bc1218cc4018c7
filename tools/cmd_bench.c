/* ossa bench: its options, the machine it runs on and the model it measures (loaded, or a
 * synthetic one); the skinning figures (bench_skin.c), the pose figures (bench_pose.c) and the
 * table or JSON of both (bench_report.c), or the crowd (bench_crowd.c) with --crowd. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bench_crowd.h"
#include "bench_model.h"
#include "bench_report.h"
#include "bench_timing.h"
#include "cli.h"
#include "ossa/skin.h"

enum { MAX_THREADS = 256 };

/* A crowd's synthetic character when --vertices is not given: a game character's size. */
#define CROWD_DEFAULT_VERTICES 4000u
#define CROWD_SYNTHETIC_CLIPS 4u /* so a crowd's characters cross-fade between motions */

/* "1,10,100": crowd sizes. */
static int parse_sizes(const char *arg, bench_crowd_opts *c)
{
    const char *p = arg;
    c->size_count = 0;
    while (p && *p) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || errno || *p == '-' || v < 1 || v > 1000000 ||
            c->size_count == BENCH_CROWD_MAX_SIZES || (*end && *end != ','))
            break;
        c->sizes[c->size_count++] = (uint32_t)v;
        p = *end ? end + 1 : end;
        if (!*p && *end == ',')
            break;
    }
    if (!arg || !*arg || *p || !c->size_count) {
        fprintf(stderr, "ossa bench: --crowd needs characters per crowd, 1..1000000, up to %d "
                        "of them separated by commas (as 1,10,100)\n",
                BENCH_CROWD_MAX_SIZES);
        return 0;
    }
    return 1;
}

static void cpu_model(char *out, size_t size)
{
    snprintf(out, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10))
            continue;
        const char *colon = strchr(line, ':');
        if (!colon)
            continue;
        colon++;
        while (*colon == ' ' || *colon == '\t')
            colon++;
        snprintf(out, size, "%s", colon);
        out[strcspn(out, "\n")] = 0;
        break;
    }
    fclose(f);
}

/* ---- command ------------------------------------------------------------------------------- */

static int parse_u32(const char *opt, const char *arg, uint32_t lo, uint32_t hi, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long v = arg ? strtoul(arg, &end, 10) : 0;
    if (!arg || !*arg || *end || errno || arg[0] == '-' || v < lo || v > hi) {
        fprintf(stderr, "ossa bench: %s needs a whole number in %u..%u\n", opt, lo, hi);
        return 0;
    }
    *out = (uint32_t)v;
    return 1;
}

static const char bench_usage[] =
    "ossa bench [--vertices N] [--influences K] [--bones B] [--threads T] [--runs R] [--json]\n"
    "           [--model FILE]... [--store auto|cached|stream] [--kernel K] [--crowd N[,N...]]\n"
    "           [--frames F]";

int ossa_cmd_bench(int argc, char **argv)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1)
        cores = 1;
    bench_opts o = {.vertices = 100000, .influences = 4, .bones = 64,
                    .threads = cores > MAX_THREADS ? MAX_THREADS : (uint32_t)cores, .runs = 7,
                    .store = OSSA_SKIN_STORE_AUTO, .crowd = {.frames = 16}};
    o.models = calloc((size_t)argc + 1, sizeof *o.models);
    if (!o.models)
        return 1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int ok = 1;
        if (!strcmp(a, "--json"))
            o.json = 1;
        else if (!strcmp(a, "--vertices"))
            ok = parse_u32(a, v, 1, 1u << 22, &o.vertices), o.vertices_set = true, i++;
        else if (!strcmp(a, "--crowd"))
            ok = parse_sizes(v, &o.crowd), i++;
        else if (!strcmp(a, "--frames"))
            ok = parse_u32(a, v, 1, 256, &o.crowd.frames), i++;
        else if (!strcmp(a, "--influences"))
            ok = parse_u32(a, v, 1, 64, &o.influences), i++;
        else if (!strcmp(a, "--bones"))
            ok = parse_u32(a, v, 1, 4096, &o.bones), i++;
        else if (!strcmp(a, "--threads"))
            ok = parse_u32(a, v, 1, MAX_THREADS, &o.threads), i++;
        else if (!strcmp(a, "--runs"))
            ok = parse_u32(a, v, 1, 64, &o.runs), i++;
        else if (!strcmp(a, "--store") && v && !strcmp(v, "auto"))
            o.store = OSSA_SKIN_STORE_AUTO, i++;
        else if (!strcmp(a, "--store") && v && !strcmp(v, "cached"))
            o.store = OSSA_SKIN_STORE_CACHED, i++;
        else if (!strcmp(a, "--store") && v && !strcmp(v, "stream"))
            o.store = OSSA_SKIN_STORE_STREAM, i++;
        else if (!strcmp(a, "--kernel") && v &&
                 ossa_skin_kernel_parse(v, &o.kernel, NULL) == OSSA_OK)
            i++;
        else if (!strcmp(a, "--model") && v)
            o.models[o.model_count++] = v, i++;
        else {
            fprintf(stderr, "ossa bench: unknown or incomplete option '%s'\nusage: %s\n", a,
                    bench_usage);
            ok = 0;
        }
        if (!ok) {
            free(o.models);
            return 2;
        }
    }
    if (!o.model_count && o.influences > o.bones) {
        fprintf(stderr, "ossa bench: --influences %u needs at least as many bones\n",
                o.influences);
        free(o.models);
        return 2;
    }

    bench_report *r = calloc(1, sizeof *r);
    ossa_model *m = NULL;
    int rc = 1;
    if (!r)
        goto done;
    cpu_model(r->cpu, sizeof r->cpu);
    r->cores = cores;
    time_t now = time(NULL);
    struct tm tm;
    strftime(r->date, sizeof r->date, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse2"))
        r->features[r->feature_count++] = "sse2";
    if (__builtin_cpu_supports("avx2"))
        r->features[r->feature_count++] = "avx2";
    if (__builtin_cpu_supports("fma"))
        r->features[r->feature_count++] = "fma";
    if (__builtin_cpu_supports("avx512f"))
        r->features[r->feature_count++] = "avx512f";
    for (int k = OSSA_SKIN_KERNEL_SCALAR; k < OSSA_SKIN_KERNEL_COUNT; k++)
        if (ossa_skin_kernel_available((ossa_skin_kernel)k))
            r->kernels[r->kernel_count++] = (ossa_skin_kernel)k;
    r->thread_counts[r->thread_count_n++] = 1;
    if (o.threads > 1)
        r->thread_counts[r->thread_count_n++] = o.threads;

    if (o.model_count) {
        m = ossa_cli_load(o.models, o.model_count, NULL);
        if (!m)
            goto done;
        if (!m->bone_count) {
            fprintf(stderr, "ossa bench: the model has no skeleton\n");
            goto done;
        }
        snprintf(r->source, sizeof r->source, "%s", m->source ? m->source : o.models[0]);
    } else {
        uint32_t vertices = o.crowd.size_count && !o.vertices_set ? CROWD_DEFAULT_VERTICES
                                                                  : o.vertices;
        bench_model_params params = {vertices, o.influences, o.bones, 31, 2.0f, BENCH_SEED,
                                     o.crowd.size_count ? CROWD_SYNTHETIC_CLIPS : 1};
        ossa_error err;
        if (bench_synthetic_model(&params, &m, &err) != OSSA_OK) {
            fprintf(stderr, "ossa bench: %s\n", err.message);
            goto done;
        }
        snprintf(r->source, sizeof r->source, "synthetic");
    }
    r->bone_count = m->bone_count;
    /* once for the process, as a program would; --kernel and --store override it; the crowd's
     * characters run its kernel */
    ossa_skin_calibration_options copt = {.kernel = o.kernel, .store = o.store};
    ossa_error cerr;
    if (ossa_skin_calibrate(&copt, &r->choice.choice, &cerr) != OSSA_OK) {
        fprintf(stderr, "ossa bench: %s\n", cerr.message);
        goto done;
    }
    if (o.crowd.size_count) {
        o.crowd.choice = &r->choice.choice;
        o.crowd.threads = o.threads;
        o.crowd.runs = o.runs;
        o.crowd.store = o.store;
        o.crowd.json = o.json;
        o.crowd.source = r->source;
        o.crowd.cpu = r->cpu;
        o.crowd.cores = r->cores;
        o.crowd.date = r->date;
        rc = bench_crowd_run(&o.crowd, m, stdout);
        goto done;
    }
    bench_load_begin(&r->load);
    bench_cpus_probe(&r->cpus, r->choice.choice.size[OSSA_SKIN_SIZE_SMALL].kernel,
                     r->thread_count_n > 1 ? r->thread_counts[1] : 1);
    if (!bench_skin(&o, m, r))
        goto done;
    ossa_model_destroy(m);
    m = NULL;
    for (size_t i = 0; i < POSE_SIZES; i++)
        if (!bench_pose(&o, r, i))
            goto done;
    bench_load_end(&r->load);
    if (o.json)
        bench_print_json(stdout, &o, r);
    else
        bench_print_table(stdout, &o, r);
    rc = fflush(stdout) == 0 ? 0 : 1;
done:
    ossa_model_destroy(m);
    free(r);
    free(o.models);
    return rc;
}
