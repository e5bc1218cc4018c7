/* ossa: command-line front end of the engine. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

static void usage(FILE *out)
{
    fputs("usage: ossa COMMAND [ARGS]\n"
          "\n"
          "Commands:\n"
          "  info FILE... [--json] [--cff-half] [--frame-rate FPS]\n"
          "      Format, version, bones, meshes (vertices, faces and maximum influences of each\n"
          "      submesh), clips (duration, tracks, keys), morph clips, materials, warnings.\n"
          "      Several files form one model; a .cfg names a whole Cal3D model (key=value\n"
          "      lines), or a Qfusion one (an import line) stands for the .skm of its name.\n"
          "      --cff-half also shows CFF positions read as half floats (FORMAT-NOTES\n"
          "      Decision 8).\n"
          "      --frame-rate: frames per second of SKP and CFF frame lists (default 10, 25).\n"
          "  sample MODEL... [--clip NAME|INDEX] [--time SECONDS] [--bones]\n"
          "                 [--clamp | --extrapolate] [--frame-rate FPS]\n"
          "      CSV of the posed and skinned mesh, every vertex in file order:\n"
          "      mesh,submesh,vertex,px,py,pz,nx,ny,nz. Without --clip, the bind pose. The clip\n"
          "      plays as a Cal3D cycle: a time past its duration wraps, and after the last key\n"
          "      it blends back to the first. --bones prints bone,name,tx,ty,tz,qx,qy,qz,qw in\n"
          "      model space instead. --clamp holds the first and last keys; --extrapolate\n"
          "      continues along the first/last key pair (Cal3D's sampler without the loop key).\n"
          "  bench [--vertices N] [--influences K] [--bones B] [--threads T] [--runs R]\n"
          "        [--model FILE]... [--store auto|cached|stream] [--json]\n"
          "      Skinning throughput (vertices/s, positions + normals) of every kernel this CPU\n"
          "      runs, on 1 and T threads (default: every core), on a seeded random mesh (N =\n"
          "      100000 vertices, K = 4 influences, B = 64 bones) or a loaded model; a STREAM\n"
          "      triad on arrays as large as the mesh's streams, each kernel's bytes per vertex\n"
          "      and its fraction of the memory-bound limit; pose time (sample + local_to_model\n"
          "      + palette) for 64 and 256 bones; libcal3d's figures on the same data and the\n"
          "      ratios when it was found at build time. Medians of R runs (default 7) after\n"
          "      warm-up runs. --store: the skin jobs' store policy (default auto: currently\n"
          "      ordinary cached stores). --json: one JSON document. See docs/BENCHMARKS.md.\n"
          "  help, --help, -h (also after a command)\n"
          "      This text.\n"
          "\n"
          "Exit status: 0 on success, 1 when a file cannot be loaded, 2 on a usage error.\n",
          out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || (i == 1 && !strcmp(cmd, "help"))) {
            usage(stdout);
            return 0;
        }
    if (!strcmp(cmd, "info"))
        return ossa_cmd_info(argc - 2, argv + 2);
    if (!strcmp(cmd, "sample"))
        return ossa_cmd_sample(argc - 2, argv + 2);
    if (!strcmp(cmd, "bench"))
        return ossa_cmd_bench(argc - 2, argv + 2);
    fprintf(stderr, "ossa: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
