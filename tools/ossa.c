/* ossa: command-line front end of the engine. Each command has one entry in the table below:
 * its synopsis and description are what `ossa --help` lists and `ossa COMMAND --help` prints. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

#ifndef OSSA_VERSION
#define OSSA_VERSION "unknown"
#endif

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *synopsis; /* the arguments, one or more lines */
    const char *text;     /* what it does and what each option means */
} command;

static const command commands[] = {
    {"info", ossa_cmd_info,
     "info MODEL... [--json] [--cff-half] [--frame-rate FPS]\n",
     "Format, version, bones, meshes (vertices, faces and maximum influences of each\n"
     "submesh; a C3S scene model's own counts as in the file), clips (duration, tracks,\n"
     "keys), morph clips, materials, warnings. Several files form one model; a .cfg names\n"
     "a whole Cal3D model (key=value lines), or a Qfusion one (an import line) stands for\n"
     "the .skm of its name.\n"
     "--json: the same as one JSON document.\n"
     "--cff-half: also shows CFF positions read as half floats (docs/FORMATS.md, CFF).\n"
     "--frame-rate FPS: frames per second of SKP and CFF frame lists (default 10, 25).\n"},
    {"sample", ossa_cmd_sample,
     "sample MODEL... [--clip NAME|INDEX [--time SECONDS] [--clamp | --extrapolate]]\n"
     "       [--bones] [--frame-rate FPS]\n",
     "CSV of the posed and skinned mesh, every vertex in file order:\n"
     "mesh,submesh,vertex,px,py,pz,nx,ny,nz. Without --clip, the bind pose.\n"
     "--clip: the clip by name or index, played as a Cal3D cycle: a time past its\n"
     "duration wraps, and after the last key it blends back to the first.\n"
     "--time SECONDS: when in the clip (default 0).\n"
     "--clamp: the time as given, holding the first and last keys outside them.\n"
     "--extrapolate: the time as given, continuing along the first/last key pair\n"
     "outside them (Cal3D's sampler without the loop key).\n"
     "--bones: bone,name,tx,ty,tz,qx,qy,qz,qw in model space instead of the mesh.\n"
     "--frame-rate FPS: frames per second of SKP and CFF frame lists (default 10, 25).\n"},
    {"bench", ossa_cmd_bench,
     "bench [--vertices N] [--influences K] [--bones B] [--threads T] [--runs R]\n"
     "      [--model FILE]... [--store auto|cached|stream] [--json]\n",
     "Skinning throughput (vertices/s, positions + normals) of every kernel this CPU\n"
     "runs, on 1 and T threads, a STREAM triad on arrays as large as the mesh's streams,\n"
     "each kernel's bytes per vertex and its fraction of the memory-bound limit, pose\n"
     "time (sample + local_to_model + palette) for 64 and 256 bones, and libcal3d's\n"
     "figures on the same data with the ratios when it was found at build time. Subjects\n"
     "run in interleaved rounds; figures are medians. See docs/BENCHMARKS.md.\n"
     "--vertices N: vertices of the seeded random mesh (default 100000).\n"
     "--influences K: influences per vertex of that mesh (default 4).\n"
     "--bones B: bones of that mesh's palette (default 64).\n"
     "--model FILE...: skin a loaded model's submeshes instead.\n"
     "--threads T: the second thread count (default: every core).\n"
     "--runs R: timed rounds (default 7), each after untimed warm-up runs.\n"
     "--store auto|cached|stream: the skin jobs' store policy (default auto: currently\n"
     "ordinary cached stores).\n"
     "--json: one JSON document.\n"},
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static void indent(FILE *out, const char *text, const char *pad)
{
    while (*text) {
        const char *nl = strchr(text, '\n');
        size_t n = nl ? (size_t)(nl - text) : strlen(text);
        fprintf(out, "%s%.*s\n", pad, (int)n, text);
        text += n + (nl ? 1 : 0);
    }
}

static void usage(FILE *out)
{
    fputs("usage: ossa COMMAND [ARGS]\n\nCommands:\n", out);
    for (size_t i = 0; i < COMMAND_COUNT; i++) {
        indent(out, commands[i].synopsis, "  ");
        indent(out, commands[i].text, "      ");
    }
    fputs("  help, --help, -h\n"
          "      This text; `ossa COMMAND --help` shows one command.\n"
          "  --version\n"
          "      The version of ossa.\n"
          "\n"
          "Exit status: 0 on success, 1 when a file cannot be loaded, 2 on a usage error.\n",
          out);
}

static void command_usage(FILE *out, const command *c)
{
    fputs("usage: ossa ", out);
    indent(out, c->synopsis, "");
    fputc('\n', out);
    indent(out, c->text, "");
    fputs("\nExit status: 0 on success, 1 when a file cannot be loaded, 2 on a usage error.\n",
          out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--version")) {
        printf("ossa %s\n", OSSA_VERSION);
        return 0;
    }
    if (!strcmp(name, "help") || !strcmp(name, "--help") || !strcmp(name, "-h")) {
        usage(stdout);
        return 0;
    }
    const command *c = NULL;
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (!strcmp(name, commands[i].name))
            c = &commands[i];
    if (!c) {
        fprintf(stderr, "ossa: unknown command '%s'\n\n", name);
        usage(stderr);
        return 2;
    }
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            command_usage(stdout, c);
            return 0;
        }
    return c->run(argc - 2, argv + 2);
}
