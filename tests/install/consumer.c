/* A program outside the project, built against an installed Ossa with nothing but
 * `pkg-config --cflags --libs ossa`: loads a model, poses a clip and skins it. */
#include <stdio.h>
#include <stdlib.h>
#include <ossa/ossa.h>

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    ossa_model *m = NULL;
    ossa_error err;
    if (ossa_load_file(argv[1], NULL, &m, &err) != OSSA_OK) {
        char msg[1024];
        fprintf(stderr, "%s\n", ossa_error_format(&err, msg, sizeof msg));
        return 1;
    }
    size_t nb = m->bone_count;
    float *lt = malloc(nb * 3 * sizeof(float)), *lr = malloc(nb * 4 * sizeof(float));
    float *ls = malloc(nb * 3 * sizeof(float)), *mt = malloc(nb * 3 * sizeof(float));
    float *mr = malloc(nb * 4 * sizeof(float)), *ms = malloc(nb * 3 * sizeof(float));
    float *palette = malloc(nb * 12 * sizeof(float));
    const ossa_submesh *sm = &m->meshes[0].submeshes[0];
    float *pos = malloc(sm->vertex_count * 3 * sizeof(float));
    float *nrm = malloc(sm->vertex_count * 3 * sizeof(float));
    ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
    ossa_sample_clip(m, &m->clips[0], 0.25f, OSSA_WRAP_LOOP, lt, lr, ls, m->bone_count, NULL);
    ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
    ossa_skin_palette(m, mt, mr, ms, palette, m->bone_count, NULL);
    ossa_skin_submesh_scalar(sm, palette, pos, nrm, sm->vertex_count, NULL);
    printf("bones %u clips %u vertex0 %.4f %.4f %.4f\n", m->bone_count, m->clip_count,
           (double)pos[0], (double)pos[1], (double)pos[2]);
    free(lt); free(lr); free(ls); free(mt); free(mr); free(ms); free(palette); free(pos); free(nrm);
    ossa_model_destroy(m);
    return 0;
}
