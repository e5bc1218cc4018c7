/* ossa sample: the posed, skinned mesh (or the model-space bones) as CSV. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "ossa/vertex_anim.h"

static int parse_clip(const ossa_model *m, const char *arg)
{
    char *end;
    errno = 0;
    long idx = strtol(arg, &end, 10);
    if (*arg && !*end && !errno) {
        if (idx >= 0 && idx < (long)m->clip_count)
            return (int)idx;
        return -1;
    }
    uint32_t found = ossa_model_find_clip(m, arg);
    return found == OSSA_NOT_FOUND ? -1 : (int)found;
}

static int sample(const ossa_model *m, int clip, float time, ossa_wrap mode, int bones)
{
    size_t nb = m->bone_count ? m->bone_count : 1;
    float *block = malloc(nb * OSSA_REFERENCE_POSE_FLOATS * sizeof(float));
    ossa_reference_pose pose = ossa_reference_pose_in(block, (uint32_t)nb);
    const float *mt = pose.mt, *mr = pose.mr, *pal = pose.palette;
    int rc = 0;
    if (!block) {
        fprintf(stderr, "ossa sample: out of memory\n");
        rc = 1;
        goto done;
    }
    /* Only a cycle wraps the time into the clip; --clamp and --extrapolate act on the time as
     * given, so they differ from the cycle before the clip's start and past its end. */
    const ossa_clip *c = clip >= 0 ? &m->clips[clip] : NULL;
    float t_clip = c && mode == OSSA_WRAP_LOOP ? ossa_clip_wrap_time(c, time) : time;
    ossa_reference_pose_at(m, c, time, mode, &pose, NULL);
    if (bones) {
        puts("bone,name,tx,ty,tz,qx,qy,qz,qw");
        for (uint32_t i = 0; i < m->bone_count; i++)
            printf("%u,%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", i, m->bones[i].name,
                   (double)mt[3 * i], (double)mt[3 * i + 1], (double)mt[3 * i + 2],
                   (double)mr[4 * i], (double)mr[4 * i + 1], (double)mr[4 * i + 2],
                   (double)mr[4 * i + 3]);
        goto done;
    }
    puts("mesh,submesh,vertex,px,py,pz,nx,ny,nz");
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            size_t n = sm->vertex_count ? sm->vertex_count : 1;
            float *pos = malloc(n * 3 * sizeof(float)), *nrm = malloc(n * 3 * sizeof(float));
            if (!pos || !nrm) {
                free(pos);
                free(nrm);
                fprintf(stderr, "ossa sample: out of memory\n");
                rc = 1;
                goto done;
            }
            if (c && ossa_clip_vertex_track(c, i, s)) { /* C3S vertex frames: lerped */
                ossa_vertex_clip_eval(m, c, i, s, t_clip, mode, pos, nrm,
                                      m->meshes[i].submeshes[s].vertex_count, NULL);
            } else if (m->bone_count) {
                ossa_skin_submesh_scalar(sm, pal, pos, nrm, sm->vertex_count, NULL);
            } else { /* a mesh without its skeleton: the bind pose as stored */
                memcpy(pos, sm->positions, 3 * sizeof(float) * sm->vertex_count);
                memcpy(nrm, sm->normals, 3 * sizeof(float) * sm->vertex_count);
            }
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                printf("%u,%u,%u,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", i, s, v, (double)pos[3 * v],
                       (double)pos[3 * v + 1], (double)pos[3 * v + 2], (double)nrm[3 * v],
                       (double)nrm[3 * v + 1], (double)nrm[3 * v + 2]);
            free(pos);
            free(nrm);
        }
    }
done:
    free(block);
    return rc;
}

int ossa_cmd_sample(int argc, char **argv)
{
    const char *clip_arg = NULL;
    float time = 0.0f;
    int bones = 0;
    ossa_wrap mode = OSSA_WRAP_LOOP; /* a clip plays as a Cal3D cycle */
    const char *mode_arg = NULL, *time_arg = NULL;
    ossa_load_options opt = {0};
    int taken;
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t count = 0;
    if (!files)
        return 1;
    for (int i = 0; i < argc; i++) {
        if ((taken = ossa_cli_load_option("sample", argc, argv, &i, &opt)) != 0) {
            if (taken == 2) {
                free(files);
                return 2;
            }
        } else if (!strcmp(argv[i], "--clip") && i + 1 < argc) {
            clip_arg = argv[++i];
        } else if (!strcmp(argv[i], "--time") && i + 1 < argc) {
            char *end;
            time_arg = argv[++i];
            time = strtof(time_arg, &end);
            if (*end || !isfinite(time)) {
                fprintf(stderr, "ossa sample: --time needs a number, not '%s'\n", argv[i]);
                free(files);
                return 2;
            }
        } else if (!strcmp(argv[i], "--bones")) {
            bones = 1;
        } else if (!strcmp(argv[i], "--clamp") || !strcmp(argv[i], "--extrapolate")) {
            if (mode_arg && strcmp(mode_arg, argv[i])) {
                fprintf(stderr, "ossa sample: %s and %s contradict each other: a time outside the "
                                "clip either holds its end keys or continues past them\n",
                        mode_arg, argv[i]);
                free(files);
                return 2;
            }
            mode_arg = argv[i];
            mode = !strcmp(argv[i], "--clamp") ? OSSA_WRAP_CLAMP : OSSA_WRAP_EXTRAPOLATE;
        } else if (ossa_cli_take_file("sample", argv[i], files, &count)) {
            free(files);
            return 2;
        }
    }
    if (!clip_arg && (time_arg || mode_arg)) {
        fprintf(stderr, "ossa sample: %s needs --clip: without a clip the model is sampled in its "
                        "bind pose, where time does not apply\n",
                time_arg ? "--time" : mode_arg);
        free(files);
        return 2;
    }
    int status;
    ossa_model *m = ossa_cli_load_args("ossa sample MODEL... [--clip NAME|INDEX] [--time SECONDS] "
                                       "[--bones] [--clamp | --extrapolate] " OSSA_CLI_LOAD_USAGE,
                                       files, count, &opt, &status);
    if (!m)
        return status;
    int clip = -1;
    if (clip_arg) {
        clip = parse_clip(m, clip_arg);
        if (clip < 0) {
            fprintf(stderr, "ossa sample: no clip '%s' (the model has %u)\n", clip_arg,
                    m->clip_count);
            ossa_model_destroy(m);
            return 2;
        }
    }
    int rc = sample(m, clip, time, mode, bones);
    ossa_model_destroy(m);
    return rc;
}
