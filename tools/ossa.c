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
          "      continues along the first/last key pair (Cal3D's sampler without the loop key).\n",
          out);
    fputs("  export MODEL... -o OUT.glb|OUT.gltf [--fps N] [--up y|z] [--embed] [--verbose]\n"
          "                 [--frame-rate FPS]\n"
          "  export (MODEL|FOLDER)... -o OUTDIR [--gltf] [the same options]\n"
          "      glTF 2.0: bones as nodes with a skin, meshes (one primitive per submesh, UVs,\n"
          "      vertex colours, morph targets), every clip as an animation, morph clips and\n"
          "      C3S vertex frames as weight animations, materials (PBR reading of the colours)\n"
          "      and textures (embedded in .glb; beside a .gltf, or in it with --embed; TGA and\n"
          "      BMP become PNG). Y up: --up names the source's up axis (default: from the\n"
          "      format, as ossa-view). Stretches glTF cannot say as Cal3D does (extrapolation\n"
          "      before a first or after a last key) are resampled at --fps (default 30), with\n"
          "      a warning, as is everything else glTF cannot hold. With -o OUTDIR (or a folder\n"
          "      given) every model is exported on its own: a folder is walked for every .cfg,\n"
          "      else a folder with one Cal3D skeleton is one model, else each loose model;\n"
          "      one progress line per model on stderr, then a summary; exit status 1 if any\n"
          "      failed. --gltf writes .gltf files in a batch (default .glb). --verbose lists\n"
          "      each model's warnings in a batch. docs/FORMATS.md, glTF export, has details.\n",
          out);
    fputs("  convert MODEL... -o OUT [--version N] [--xml] [--fps N] [--vertex-frames]\n"
          "                  [--up y|z] [--embed] [--frame-rate FPS]\n"
          "  convert (MODEL|FOLDER)... -o OUTDIR --to cfg|xml|skm|c3s|cff|glb|gltf [options]\n"
          "      Writes the model in the format of OUT's extension: .cfg a Cal3D set (binary;\n"
          "      --xml for XML) beside OUT; .csf .cmf .caf .crf .cpf (.xsf ... .xpf as XML) the\n"
          "      one file of that kind (refused when the model makes several); .skm (+ .skp),\n"
          "      .c3s (--vertex-frames bakes every clip into vertex frames), .cff, and .glb or\n"
          "      .gltf (as ossa export; --up, --embed). --version: the Cal3D version, 699..1301\n"
          "      (default 1100 binary, 1000 XML; libcal3d 0.11 reads 1100). --fps: frames per\n"
          "      second of the SKM, C3S and CFF clips written (defaults 10, 30, 25) and of\n"
          "      glTF's resampled stretches (30). What the target cannot hold is refused with\n"
          "      an error or named in a warning before it is dropped. A batch writes OUTDIR/\n"
          "      <path>/<name>.<ext> (a Cal3D set: OUTDIR/<path>/<name>/<name>.cfg), walking\n"
          "      folders and reporting as ossa export does.\n",
          out);
    fputs("  bench [--vertices N] [--influences K] [--bones B] [--threads T] [--runs R]\n"
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
    if (!strcmp(cmd, "convert"))
        return ossa_cmd_convert(argc - 2, argv + 2);
    if (!strcmp(cmd, "export"))
        return ossa_cmd_export(argc - 2, argv + 2);
    if (!strcmp(cmd, "bench"))
        return ossa_cmd_bench(argc - 2, argv + 2);
    fprintf(stderr, "ossa: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
