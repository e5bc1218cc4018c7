/* The scalar reference kernel: file order, any influence count. The SIMD kernels of the runtime
 * are tested against it. */
#include <math.h>
#include <string.h>
#include "core/error.h"
#include "ossa/reference.h"

ossa_status ossa_skin_submesh_scalar(const ossa_submesh *sm, const float *palette,
                                     float *out_pos, float *out_nrm, uint32_t vertex_capacity,
                                     ossa_error *err)
{
    /* either output may be NULL (not computed into anything) */
    if (!sm || (sm->vertex_count && !palette))
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "skin submesh scalar: %s is NULL",
                               !sm ? "submesh" : "palette");
    if (vertex_capacity < sm->vertex_count)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "skin submesh scalar: out_positions / out_normals hold %u vertices "
                               "(vertex_capacity), the submesh has %u", vertex_capacity,
                               sm->vertex_count);
    const float *points = sm->influence_points;
    for (uint32_t v = 0; v < sm->vertex_count; v++) {
        const float *p = sm->positions + 3 * v, *n = sm->normals + 3 * v;
        uint32_t a = sm->influence_start[v], e = sm->influence_start[v + 1];
        float px = 0, py = 0, pz = 0, nx = 0, ny = 0, nz = 0;
        if (a == e) {
            px = p[0]; py = p[1]; pz = p[2];
            nx = n[0]; ny = n[1]; nz = n[2];
        }
        for (uint32_t k = a; k < e; k++) {
            const float *mt = palette + 12 * sm->influences[k].bone;
            float w = sm->influences[k].weight;
            if (points) {
                /* the format's own sum: P_k [u_k; w_k], u_k pre-weighted */
                const float *u = points + 3 * (size_t)k;
                px += mt[0] * u[0] + mt[1] * u[1] + mt[2] * u[2] + w * mt[3];
                py += mt[4] * u[0] + mt[5] * u[1] + mt[6] * u[2] + w * mt[7];
                pz += mt[8] * u[0] + mt[9] * u[1] + mt[10] * u[2] + w * mt[11];
            } else {
                px += w * (mt[0] * p[0] + mt[1] * p[1] + mt[2] * p[2] + mt[3]);
                py += w * (mt[4] * p[0] + mt[5] * p[1] + mt[6] * p[2] + mt[7]);
                pz += w * (mt[8] * p[0] + mt[9] * p[1] + mt[10] * p[2] + mt[11]);
            }
            /* normals blend the rotations, also for per-influence points */
            nx += w * (mt[0] * n[0] + mt[1] * n[1] + mt[2] * n[2]);
            ny += w * (mt[4] * n[0] + mt[5] * n[1] + mt[6] * n[2]);
            nz += w * (mt[8] * n[0] + mt[9] * n[1] + mt[10] * n[2]);
        }
        float len = sqrtf(nx * nx + ny * ny + nz * nz);
        if (len > 0.0f) {
            nx /= len; ny /= len; nz /= len;
        }
        if (out_pos) {
            out_pos[3 * v] = px; out_pos[3 * v + 1] = py; out_pos[3 * v + 2] = pz;
        }
        if (out_nrm) {
            out_nrm[3 * v] = nx; out_nrm[3 * v + 1] = ny; out_nrm[3 * v + 2] = nz;
        }
    }
    return OSSA_OK;
}
