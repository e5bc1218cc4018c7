/* How far Cal3D's cloth (springs) takes its vertices from the skin that glTF exports: each
 * submesh with springs is skinned and its cloth stepped through two seconds of the rest pose and
 * then through every clip played once as a cycle at the export's fps (starting at rest where the
 * skin puts it, as Cal3D's resetPositions); the largest distance between a cloth vertex and its
 * skinned (linear blend) position is the figure the warning reports. A run steps at most
 * OSSA_EXPORT_MAX_TRACK_SAMPLES times and the export OSSA_EXPORT_MAX_SAMPLES in all. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gltf_internal.h"
#include "ossa/limits.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/skin.h"
#include "ossa/cloth.h"

typedef struct spring_run {
    const ossa_model *m;
    ossa_reference_pose pose;
    uint32_t steps;          /* cloth steps so far, of OSSA_EXPORT_MAX_SAMPLES */
} spring_run;

static void palette_at(spring_run *r, const ossa_clip *clip, float time)
{
    ossa_reference_pose_at(r->m, clip, time, OSSA_WRAP_LOOP, &r->pose, NULL);
}

/* Steps the cloth of one submesh through a stretch of time; returns the largest gap. */
static double simulate(spring_run *r, ossa_skin_mesh *mesh, ossa_spring_state *state,
                       const ossa_clip *clip, float seconds, float fps, float *pos, float *nrm,
                       float *lbs)
{
    uint32_t n = ossa_skin_mesh_output_count(mesh);
    ossa_skin_job job = {.mesh = mesh, .palette = r->pose.palette,
                         .palette_size = r->m->bone_count, .out_positions = pos,
                         .out_normals = nrm, .out_capacity = ossa_skin_mesh_output_count(mesh),
                         .end = ossa_skin_mesh_output_count(mesh)};
    palette_at(r, clip, 0.0f);
    if (ossa_skin_job_run(&job, NULL) != OSSA_OK)
        return 0.0;
    if (ossa_spring_state_reset_to(state, pos, n, NULL) != OSSA_OK)
        return 0.0;
    double worst = 0.0;
    /* Steps counted in double (1e9 s at 30 fps overflows a uint32) and capped per run and per
     * export: past them the figure covers the first steps of a clip only. */
    double want = ceil((double)seconds * (double)fps);
    uint32_t steps = want < OSSA_EXPORT_MAX_TRACK_SAMPLES ? (uint32_t)want
                                                          : OSSA_EXPORT_MAX_TRACK_SAMPLES;
    if (steps > OSSA_EXPORT_MAX_SAMPLES - r->steps)
        steps = OSSA_EXPORT_MAX_SAMPLES - r->steps;
    r->steps += steps;
    for (uint32_t i = 1; i <= steps; i++) {
        palette_at(r, clip, (float)((double)i / fps));
        if (ossa_skin_job_run(&job, NULL) != OSSA_OK)
            break;
        memcpy(lbs, pos, 3 * sizeof(float) * n);
        if (ossa_spring_update(state, 1.0f / fps, pos, n, NULL) != OSSA_OK)
            break;
        for (uint32_t v = 0; v < n; v++) {
            double d2 = 0.0;
            for (int k = 0; k < 3; k++) {
                double d = (double)pos[3 * v + k] - lbs[3 * v + k];
                d2 += d * d;
            }
            worst = d2 > worst * worst ? sqrt(d2) : worst;
        }
    }
    return worst;
}

double ossa_gltf_spring_gap(gltf_ctx *c)
{
    const ossa_model *m = c->m;
    size_t nb = m->bone_count ? m->bone_count : 1;
    float *block = malloc(nb * OSSA_REFERENCE_POSE_FLOATS * sizeof(float));
    spring_run r = {.m = m, .pose = ossa_reference_pose_in(block, (uint32_t)nb)};
    double worst = m->bone_count && block ? 0.0 : -1.0;
    for (uint32_t i = 0; i < m->mesh_count && worst >= 0.0; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count && worst >= 0.0; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            if (!sm->spring_count)
                continue;
            ossa_skin_mesh *mesh = NULL;
            ossa_spring_state *state = NULL;
            float *pos = NULL, *nrm = NULL, *lbs = NULL;
            if (ossa_skin_mesh_create(sm, m->bone_count, &mesh, NULL) == OSSA_OK &&
                ossa_spring_state_create(mesh, &state, NULL) == OSSA_OK) {
                size_t n = (size_t)ossa_skin_mesh_output_count(mesh) * 3 + 3;
                pos = malloc(n * sizeof(float));
                nrm = malloc(n * sizeof(float));
                lbs = malloc(n * sizeof(float));
            }
            if (!pos || !nrm || !lbs) {
                worst = -1.0;
            } else {
                worst = fmax(worst, simulate(&r, mesh, state, NULL, 2.0f, c->opt.fps, pos, nrm,
                                             lbs));
                for (uint32_t k = 0; k < m->clip_count; k++)
                    worst = fmax(worst, simulate(&r, mesh, state, &m->clips[k],
                                                 m->clips[k].duration, c->opt.fps, pos, nrm, lbs));
            }
            free(pos);
            free(nrm);
            free(lbs);
            ossa_spring_state_destroy(state);
            ossa_skin_mesh_destroy(mesh);
        }
    free(block);
    return worst;
}
