/* ossa: command-line front end of the engine. Each command has one entry in the table below:
 * its synopsis and description are what `ossa --help` lists and `ossa COMMAND --help` prints. */
#include <signal.h>
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
     "info MODEL... [--json] [--cff-half] [--frame-rate FPS] [--allow-outside]\n",
     "Format, version, bones, meshes (vertices, faces and maximum influences of each\n"
     "submesh; a C3S scene model's own counts as in the file), clips (duration, tracks,\n"
     "keys), morph clips, materials, warnings. Several files form one model; a .cfg names\n"
     "a whole Cal3D model (key=value lines), or a Qfusion one (an import line) stands for\n"
     "the .skm of its name. A file of the model that does not read (missing, damaged,\n"
     "for another skeleton) is left out and listed among the warnings (\"left out FILE:\n"
     "why\"); the model fails only when no skeleton or no mesh remains. The bind pose's\n"
     "height along the up axis export assumes is printed.\n"
     "--json: the same as one JSON document.\n"
     "--cff-half: also shows CFF positions read as half floats (docs/FORMATS.md, CFF).\n"
     "--frame-rate FPS: frames per second of SKP and CFF frame lists (default 10, 25).\n"
     OSSA_CLI_ALLOW_OUTSIDE_HELP},
    {"sample", ossa_cmd_sample,
     "sample MODEL... [--clip NAME|INDEX [--time SECONDS] [--clamp | --extrapolate]]\n"
     "       [--bones] [--frame-rate FPS] [--allow-outside]\n",
     "CSV of the posed and skinned mesh, every vertex in file order:\n"
     "mesh,submesh,vertex,px,py,pz,nx,ny,nz. Without --clip, the bind pose.\n"
     "--clip: the clip by name or index, played as a Cal3D cycle: a time past its\n"
     "duration wraps, and after the last key it blends back to the first.\n"
     "--time SECONDS: when in the clip (default 0).\n"
     "--clamp: the time as given, holding the first and last keys outside them.\n"
     "--extrapolate: the time as given, continuing along the first/last key pair\n"
     "outside them (Cal3D's sampler without the loop key).\n"
     "--bones: bone,name,tx,ty,tz,qx,qy,qz,qw in model space instead of the mesh.\n"
     "--frame-rate FPS: frames per second of SKP and CFF frame lists (default 10, 25).\n"
     OSSA_CLI_ALLOW_OUTSIDE_HELP},
    {"export", ossa_cmd_export,
     "export MODEL... -o OUT.glb|OUT.gltf [--fps N] [--up y|z] [--embed] [--overwrite]\n"
     "       [--max-influences N] [--skip-bad] [--scale F] [--units m|cm|mm|in|ft]\n"
     "       [--frame-rate FPS] [--allow-outside]\n"
     "export (MODEL|FOLDER)... -o OUTDIR [--gltf] [--verbose] [the options above]\n",
     "glTF 2.0: bones as nodes with a skin and inverse binds, one mesh per mesh with one\n"
     "primitive per submesh (normals, UV sets, vertex colours, morph targets), every clip\n"
     "as an animation named as the clip, morph clips and C3S vertex frames as weight\n"
     "animations, materials as a PBR reading of the colours, textures (TGA and BMP\n"
     "become PNG). What glTF cannot say as the source does is changed as little as it\n"
     "can be, with a warning on stderr saying what and how far (docs/FORMATS.md, glTF\n"
     "export). Several files form one model, as for info. A texture is read only from\n"
     "inside the model's folders (see --allow-outside), only when it is a regular file\n"
     "and its header declares at most 8192 x 8192 pixels; else it is left out with a\n"
     "warning (docs/FORMATS.md, Texture files). The load's warnings are shown too.\n"
     "-o OUT.glb: one binary file, textures inside.\n"
     "-o OUT.gltf: JSON, with OUT.bin and the textures written beside it.\n"
     "-o OUTDIR: a batch: every MODEL on its own, every FOLDER walked (every .cfg, else a\n"
     "folder with one Cal3D skeleton as one model, else each loose model file), each\n"
     "written to OUTDIR/<path>/<name>.glb (<name>_2.glb, ... when names meet) with one\n"
     "progress line on stderr and a summary (models and files written, with warnings,\n"
     "failed); it goes on past a model that fails and exits 1 if any failed or none was\n"
     "found. Links out of a FOLDER are skipped.\n"
     "Every file is written to a temporary beside it and renamed into place when complete:\n"
     "a failed write leaves the old file as it was. An output that is one of the inputs\n"
     "(or a file beneath an input folder, or a file a model was read from), that another\n"
     "output of the run wrote, or that another Cal3D .cfg beside it lists is refused.\n"
     "--overwrite: replace such outputs anyway (still through a temporary).\n"
     "--fps N: rate of the stretches resampled because glTF holds where Cal3D\n"
     "extrapolates (before a track's first key, after its last) (default 30).\n"
     "--up y|z: the source's up axis (default: from the format, as ossa-view: Y for the\n"
     "demo and CFF, Z for Cal3D, SKM and C3S unless the model plainly stands along Y).\n"
     "--embed: a .gltf with its buffer and textures inside as data: URIs.\n"
     "--skip-bad: a file of a model that does not read is left out, named in a warning,\n"
     "and the rest written (by default the model fails whole); a model left with no\n"
     "skeleton or no mesh still fails.\n"
     "--max-influences N: joint influences kept per vertex (default 4, what three.js and\n"
     "most engines read; the smallest are dropped and the rest renormalised, with a\n"
     "warning giving how far that moves vertices over the clips).\n"
     "--scale F: multiply every length by F (bones, meshes, clips), as a .cfg's scale=.\n"
     "--units m|cm|mm|in|ft: the source's unit, brought to metres (glTF's unit): Cal3D\n"
     "sets are often centimetres or inches (`ossa info` prints the bind pose's height).\n"
     "-o names folders that do not exist yet: they are created. An extension other than\n"
     ".glb or .gltf is refused (a folder of outputs: no extension, or a trailing '/').\n"
     "A model with nothing to export (an animation without its skeleton) is skipped with\n"
     "\"nothing to export\": exit 1 alone, never counted as written in a batch.\n"
     "--gltf: a batch writes .gltf files (default .glb).\n"
     "--verbose: a batch lists each model's warnings under its progress line.\n"
     "--frame-rate FPS: frames per second of SKP and CFF frame lists (default 10, 25).\n"
     OSSA_CLI_ALLOW_OUTSIDE_HELP},
    {"convert", ossa_cmd_convert,
     "convert MODEL... -o OUT [--version N] [--lineage upstream|mp3butcher] [--xml]\n"
     "        [--fps N] [--vertex-frames] [--up y|z] [--embed] [--overwrite]\n"
     "        [--max-influences N] [--skip-bad] [--scale F] [--units m|cm|mm|in|ft]\n"
     "        [--frame-rate FPS] [--allow-outside]\n"
     "convert (MODEL|FOLDER)... -o OUTDIR --to cfg|xml|skm|c3s|cff|glb|gltf [--verbose]\n"
     "        [the options above]\n",
     "Writes the model in the format of OUT's extension. What the target cannot hold is\n"
     "refused (an error naming it) or dropped with a warning naming it.\n"
     "-o OUT.cfg: a Cal3D set, its files beside OUT (binary; --xml: XML).\n"
     "-o OUT.csf|cmf|caf|crf|cpf (or .xsf|xmf|xaf|xrf|xpf, XML): the one file of that\n"
     "kind (refused when the model makes several).\n"
     "-o OUT.skm: SKM with its .skp. -o OUT.c3s: a C3S scene. -o OUT.cff: CFF, turned\n"
     "Y up from a Z-up source, its textures copied beside it.\n"
     "-o OUT.glb|OUT.gltf: glTF, as ossa export.\n"
     "-o OUTDIR --to KIND: a batch as ossa export's (a Cal3D set goes into a folder of\n"
     "its own, OUTDIR/<path>/<name>/<name>.cfg; --to xml for XML sets).\n"
     "--version N: Cal3D version, 699..1301 but 913..918 (default 1100 binary, which\n"
     "libcal3d 0.11 and older tools read, or 1300, with a warning saying so, for a model\n"
     "with node lights, vertex colours, morph targets or map types; 1000 XML).\n"
     "--lineage upstream|mp3butcher: the layout of a binary 1300/1301 set: upstream\n"
     "Cal3D's (default) or the mp3butcher fork's (no node lights, scene ambient or vertex\n"
     "colours; --version defaults to 1301 then).\n"
     "--xml: a Cal3D set as XML.\n"
     "--fps N: frames per second of the SKM, C3S and CFF clips written (defaults 10, 30,\n"
     "25), and of glTF's resampled stretches (30).\n"
     "--vertex-frames: C3S with every clip baked into vertex frames, no bones.\n"
     "--up y|z: as ossa export, for glTF and CFF (both Y up).\n"
     "--embed, --max-influences N: as ossa export, for glTF.\n"
     "--skip-bad: as ossa export.\n"
     "--scale F, --units U: as ossa export: every length scaled before it is written.\n"
     "--overwrite: as ossa export: outputs are refused where they would replace an\n"
     "input (a set converted into its own folder keeps its meshes' and clips' names),\n"
     "another output of the run, or a file another .cfg beside them lists.\n"
     "--verbose: a batch lists each model's warnings.\n"
     "--frame-rate FPS: frames per second of SKP and CFF frame lists read (default 10, 25).\n"
     OSSA_CLI_ALLOW_OUTSIDE_HELP},
    {"bench", ossa_cmd_bench,
     "bench [--vertices N] [--influences K] [--bones B] [--threads T] [--runs R]\n"
     "      [--model FILE]... [--store auto|cached|stream] [--kernel K] [--json]\n"
     "      [--crowd N[,N...]] [--frames F]\n",
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
     "--store auto|cached|stream: the skin jobs' store policy (default auto: streaming\n"
     "stores for a mesh of 262144 vertices or more, cached stores below); with --crowd,\n"
     "the characters' (auto: streaming once the crowd outgrows half the last-level cache,\n"
     "counted as 64 MB at most).\n"
     "The kernel and store chosen by a short calibration (ossa_skin_calibrate) are\n"
     "timed beside every kernel with each store forced (1 thread), with the rates that\n"
     "made the choice.\n"
     "With T > 1 the chosen kernel is also timed pinned to each CPU in turn (Linux):\n"
     "their speeds and the most T threads can gain over the fastest alone.\n"
     "--kernel auto|scalar|sse2|avx2|avx512: the calibration's kernel (default auto:\n"
     "measured); --store other than auto forces its store likewise.\n"
     "--json: one JSON document.\n"
     "--crowd N[,N...]: instead, crowds of N characters of the model (default: the\n"
     "synthetic one with 4000 vertices and 4 clips), each playing a clip at its own phase\n"
     "and speed, some cross-fading: frame time (median, p95), characters and vertices per\n"
     "second on 1 and T threads, and libcal3d doing the same work in the same rounds;\n"
     "the characters run the calibration's kernel (or --kernel's).\n"
     "--frames F: timed frames per round of a crowd (default 16, 1..256; fewer when\n"
     "frames are slow).\n"},
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
    /* Past a file-size limit a write then fails with EFBIG, and the writer removes its
     * temporary and leaves the target as it was, instead of the process dying mid-file. */
    signal(SIGXFSZ, SIG_IGN);
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
