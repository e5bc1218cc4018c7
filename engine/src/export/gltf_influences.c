/* How far capping each vertex's influences moves it. three.js and most real-time engines read
 * only JOINTS_0/WEIGHTS_0 (four influences), so the export keeps the largest `keep` per vertex
 * (ossa_export_options.max_influences, 4 by default), renormalised, and reports what that costs:
 * the largest distance between a capped vertex skinned with all its influences and with the ones
 * kept, at the bind pose and over every clip played as a cycle at the export's fps (at most
 * OSSA_EXPORT_MAX_TRACK_SAMPLES poses a clip, OSSA_EXPORT_MAX_SAMPLES in all). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gltf_internal.h"
#include "ossa/limits.h"
#include "ossa/reference.h"
#include "ossa/sample.h"

/* Sum_k w_k M_k p over the first n of (bones, weights), the weights divided by their sum. */
static void blend(const float *pal, const uint32_t *bones, const float *w, uint32_t n,
                  const float *p, double out[3])
{
    double sum = 0.0;
    for (uint32_t k = 0; k < n; k++)
        sum += w[k];
    out[0] = out[1] = out[2] = 0.0;
    for (uint32_t k = 0; k < n && sum > 0.0; k++) {
        const float *M = pal + 12 * (size_t)bones[k];
        for (int r = 0; r < 3; r++)
            out[r] += (double)w[k] / sum *
                      ((double)M[4 * r] * p[0] + (double)M[4 * r + 1] * p[1] +
                       (double)M[4 * r + 2] * p[2] + (double)M[4 * r + 3]);
    }
}

static double worst_at(const gltf_ctx *c, const ossa_gltf_cut *cut, const float *pal,
                       uint32_t *jb, float *jw)
{
    double worst = 0.0;
    for (uint32_t i = 0; i < cut->count; i++) {
        uint32_t v = cut->vertices[i];
        uint32_t n = ossa_gltf_merge_influences(c, cut->sm, v, jb, jw);
        const float *p = cut->sm->positions + 3 * (size_t)v;
        double all[3], kept[3];
        blend(pal, jb, jw, n, p, all);
        blend(pal, jb, jw, n < cut->keep ? n : cut->keep, p, kept);
        double d = sqrt((all[0] - kept[0]) * (all[0] - kept[0]) +
                        (all[1] - kept[1]) * (all[1] - kept[1]) +
                        (all[2] - kept[2]) * (all[2] - kept[2]));
        worst = d > worst ? d : worst;
    }
    return worst;
}

void ossa_gltf_cut_measure(gltf_ctx *c, const ossa_gltf_cut *cut, double *at_bind,
                           double *over_clips)
{
    const ossa_model *m = c->m;
    *at_bind = *over_clips = 0.0;
    if (!cut->count || !m->bone_count)
        return;
    size_t nb = m->bone_count;
    float *block = malloc(nb * OSSA_REFERENCE_POSE_FLOATS * sizeof(float));
    ossa_reference_pose p = ossa_reference_pose_in(block, (uint32_t)nb);
    uint32_t jb[OSSA_MAX_INFLUENCES];
    float jw[OSSA_MAX_INFLUENCES];
    if (!block) {
        c->failed = true;
    } else {
        if (ossa_reference_pose_at(m, NULL, 0.0f, OSSA_WRAP_LOOP, &p, NULL) == OSSA_OK)
            *at_bind = worst_at(c, cut, p.palette, jb, jw);
        double fps = c->opt.fps > 0.0f ? c->opt.fps : 30.0;
        size_t budget = OSSA_EXPORT_MAX_SAMPLES;
        for (uint32_t i = 0; i < m->clip_count && budget; i++) {
            const ossa_clip *clip = &m->clips[i];
            double want = ceil((double)clip->duration * fps);
            size_t steps = want < OSSA_EXPORT_MAX_TRACK_SAMPLES ? (size_t)want
                                                                : OSSA_EXPORT_MAX_TRACK_SAMPLES;
            steps = steps < budget ? steps : budget;
            budget -= steps;
            for (size_t k = 0; k <= steps; k++) {
                float t = steps ? (float)((double)clip->duration * (double)k / (double)steps) : 0.0f;
                if (ossa_reference_pose_at(m, clip, t, OSSA_WRAP_LOOP, &p, NULL) != OSSA_OK)
                    break;
                double d = worst_at(c, cut, p.palette, jb, jw);
                *over_clips = d > *over_clips ? d : *over_clips;
            }
        }
    }
    free(block);
}
