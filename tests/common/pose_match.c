/* Pose comparison across vertex orders (pose_match.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pose_match.h"

static bool drawn(const ossa_model *m, uint32_t i)
{
    return !(m->meshes[i].flags & OSSA_MESH_HIDDEN);
}

bool pm_posed_init(pm_posed *p, const ossa_model *m)
{
    p->count = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; drawn(m, i) && s < m->meshes[i].submesh_count; s++)
            p->count += m->meshes[i].submeshes[s].vertex_count;
    p->pos = calloc(3 * p->count + 1, sizeof(float));
    p->blended = calloc(p->count + 1, sizeof(bool));
    if (!p->pos || !p->blended) {
        pm_posed_free(p);
        return false;
    }
    size_t at = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; drawn(m, i) && s < m->meshes[i].submesh_count; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                p->blended[at + v] = sm->influence_start[v + 1] - sm->influence_start[v] > 1;
            at += sm->vertex_count;
        }
    return true;
}

void pm_posed_free(pm_posed *p)
{
    free(p->pos);
    free(p->blended);
    p->pos = NULL;
    p->blended = NULL;
}

void pm_pose(const ossa_model *m, const ossa_clip *clip, float t, pm_posed *p)
{
    size_t nb = m->bone_count ? m->bone_count : 1;
    float *lt = calloc(3 * nb, sizeof(float)), *lr = calloc(4 * nb, sizeof(float));
    float *ls = calloc(3 * nb, sizeof(float)), *mt = calloc(3 * nb, sizeof(float));
    float *mr = calloc(4 * nb, sizeof(float)), *ms = calloc(3 * nb, sizeof(float));
    float *palette = calloc(12 * nb, sizeof(float));
    if (lt && lr && ls && mt && mr && ms && palette) {
        ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
        if (clip)
            ossa_sample_clip(m, clip, t, OSSA_WRAP_LOOP, lt, lr, ls, m->bone_count, NULL);
        ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
        ossa_skin_palette(m, mt, mr, ms, palette, m->bone_count, NULL);
        size_t at = 0;
        for (uint32_t i = 0; i < m->mesh_count; i++)
            for (uint32_t s = 0; drawn(m, i) && s < m->meshes[i].submesh_count; s++) {
                const ossa_submesh *sm = &m->meshes[i].submeshes[s];
                float *out = p->pos + 3 * at;
                float *normals = calloc(3 * (size_t)sm->vertex_count + 1, sizeof(float));
                if (clip && normals && ossa_clip_vertex_track(clip, i, s))
                    ossa_vertex_clip_eval(m, clip, i, s, t, OSSA_WRAP_LOOP, out, normals,
                                          sm->vertex_count, NULL);
                else if (normals && m->bone_count)
                    ossa_skin_submesh_scalar(sm, palette, out, normals, sm->vertex_count, NULL);
                else
                    memcpy(out, sm->positions, 3 * sizeof(float) * sm->vertex_count);
                free(normals);
                at += sm->vertex_count;
            }
    }
    free(lt); free(lr); free(ls); free(mt); free(mr); free(ms); free(palette);
}

void pm_turn_to_y_up(pm_posed *p)
{
    for (size_t v = 0; v < p->count; v++) {
        float y = p->pos[3 * v + 1];
        p->pos[3 * v + 1] = p->pos[3 * v + 2];
        p->pos[3 * v + 2] = -y;
    }
}

static float dist(const float *a, const float *b)
{
    float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

/* want's vertices sorted by x, so each lookup scans only the slab [x - tol, x + tol]. */
static const float *sort_x;
static int by_x(const void *a, const void *b)
{
    float xa = sort_x[3 * *(const size_t *)a], xb = sort_x[3 * *(const size_t *)b];
    return xa < xb ? -1 : xa > xb;
}

bool pm_match_build(const pm_posed *want, const pm_posed *got, bool rigid, float tol,
                    pm_match *mt)
{
    size_t *order = malloc((want->count + 1) * sizeof *order);
    size_t cap = 16, n = 0;
    mt->first = calloc(got->count + 1, sizeof(size_t));
    mt->candidates = malloc(cap * sizeof(size_t));
    if (!order || !mt->first || !mt->candidates) {
        free(order);
        pm_match_free(mt);
        return false;
    }
    for (size_t d = 0; d < want->count; d++)
        order[d] = d;
    sort_x = want->pos;
    qsort(order, want->count, sizeof *order, by_x);
    for (size_t v = 0; v < got->count; v++) {
        mt->first[v] = n;
        const float *g = got->pos + 3 * v;
        size_t lo = 0, hi = want->count; /* first sorted vertex with x >= g.x - tol */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (want->pos[3 * order[mid]] < g[0] - tol)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t k = lo; k < want->count && want->pos[3 * order[k]] <= g[0] + tol; k++) {
            size_t d = order[k];
            if ((rigid && want->blended[d]) || dist(g, want->pos + 3 * d) > tol)
                continue;
            if (n == cap) {
                size_t *grown = realloc(mt->candidates, (cap *= 2) * sizeof(size_t));
                if (!grown) {
                    free(order);
                    pm_match_free(mt);
                    return false;
                }
                mt->candidates = grown;
            }
            mt->candidates[n++] = d;
        }
    }
    mt->first[got->count] = n;
    free(order);
    return true;
}

void pm_match_free(pm_match *mt)
{
    free(mt->first);
    free(mt->candidates);
    mt->first = mt->candidates = NULL;
}

pm_result pm_compare(const pm_posed *want, const pm_posed *got, const pm_match *mt)
{
    pm_result r = {0, 0, 0};
    for (size_t v = 0; v < got->count; v++) {
        if (mt->first[v] == mt->first[v + 1]) {
            r.unmatched++;
            continue;
        }
        float best = INFINITY;
        for (size_t k = mt->first[v]; k < mt->first[v + 1]; k++) {
            float e = dist(got->pos + 3 * v, want->pos + 3 * mt->candidates[k]);
            best = e < best ? e : best;
        }
        r.compared++;
        r.worst = best > r.worst ? best : r.worst;
    }
    return r;
}

float pm_model_size(const ossa_model *m)
{
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++)
            for (uint32_t v = 0; v < m->meshes[i].submeshes[s].vertex_count; v++)
                for (int k = 0; k < 3; k++) {
                    float x = m->meshes[i].submeshes[s].positions[3 * v + k];
                    lo[k] = fminf(lo[k], x);
                    hi[k] = fmaxf(hi[k], x);
                }
    if (!(hi[0] >= lo[0]))
        return 1.0f;
    float d = 0;
    for (int k = 0; k < 3; k++)
        d += (hi[k] - lo[k]) * (hi[k] - lo[k]);
    return d > 0 ? sqrtf(d) : 1.0f;
}
