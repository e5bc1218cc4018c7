/* ossa: command-line front end of the engine. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

static void usage(FILE *out)
{
    fputs("usage: ossa COMMAND [ARGS]\n"
          "\n"
          "Commands:\n"
          "  info FILE... [--json]\n"
          "      Format, version, bones, meshes (vertices, faces and maximum influences of each\n"
          "      submesh), clips (duration, tracks, keys), morph clips, materials, warnings.\n"
          "      Several files form one model; a .cfg names a whole Cal3D model.\n"
          "  sample MODEL... [--clip NAME|INDEX] [--time SECONDS] [--bones]\n"
          "                 [--clamp | --extrapolate]\n"
          "      CSV of the posed and skinned mesh, every vertex in file order:\n"
          "      mesh,submesh,vertex,px,py,pz,nx,ny,nz. Without --clip, the bind pose. The clip\n"
          "      plays as a Cal3D cycle: a time past its duration wraps, and after the last key\n"
          "      it blends back to the first. --bones prints bone,name,tx,ty,tz,qx,qy,qz,qw in\n"
          "      model space instead. --clamp holds the first and last keys; --extrapolate\n"
          "      continues along the first/last key pair (Cal3D's sampler without the loop key).\n"
          "  help\n"
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
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "info"))
        return ossa_cmd_info(argc - 2, argv + 2);
    if (!strcmp(cmd, "sample"))
        return ossa_cmd_sample(argc - 2, argv + 2);
    fprintf(stderr, "ossa: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
