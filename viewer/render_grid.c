/* The ground grid's lines (render.h), without GL. */
#include "render.h"

#include <math.h>

/* Grid lines across up, through the bind pose's lowest point along it, centred under it. */
void view_grid_build(const float bind_min[3], const float bind_max[3], const float up_in[3],
                     float *out)
{
    float up[3] = {0.0f, 1.0f, 0.0f};
    float len = sqrtf(up_in[0] * up_in[0] + up_in[1] * up_in[1] + up_in[2] * up_in[2]);
    if (isfinite(len) && len > 1e-6f)
        for (int k = 0; k < 3; k++)
            up[k] = up_in[k] / len;
    /* a: across up, built from the world axis least aligned with it; b = up x a. */
    int least = 0;
    for (int k = 1; k < 3; k++)
        if (fabsf(up[k]) < fabsf(up[least]))
            least = k;
    float ref[3] = {0.0f, 0.0f, 0.0f}, a[3], b[3];
    ref[least] = 1.0f;
    a[0] = up[1] * ref[2] - up[2] * ref[1];
    a[1] = up[2] * ref[0] - up[0] * ref[2];
    a[2] = up[0] * ref[1] - up[1] * ref[0];
    float la = sqrtf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    for (int k = 0; k < 3; k++)
        a[k] /= la;
    b[0] = up[1] * a[2] - up[2] * a[1];
    b[1] = up[2] * a[0] - up[0] * a[2];
    b[2] = up[0] * a[1] - up[1] * a[0];

    float ground = INFINITY, centre[3], diagonal = 0.0f;
    for (int corner = 0; corner < 8; corner++) {
        float h = 0.0f;
        for (int k = 0; k < 3; k++)
            h += up[k] * ((corner >> k) & 1 ? bind_max[k] : bind_min[k]);
        if (h < ground)
            ground = h;
    }
    float along = 0.0f;
    for (int k = 0; k < 3; k++) {
        centre[k] = 0.5f * (bind_min[k] + bind_max[k]);
        along += centre[k] * up[k];
        diagonal += (bind_max[k] - bind_min[k]) * (bind_max[k] - bind_min[k]);
    }
    for (int k = 0; k < 3; k++)
        centre[k] -= (along - ground) * up[k];
    float half = 0.75f * sqrtf(diagonal);
    if (!(half > 0.0f))
        half = 1.0f;
    const int cells = VIEW_GRID_LINES / 2 - 1;
    for (int i = 0; i <= cells; i++) {
        float t = -half + 2.0f * half * (float)i / (float)cells;
        for (int k = 0; k < 3; k++) { /* along a, at t on b */
            out[k] = centre[k] + t * b[k] - half * a[k];
            out[3 + k] = centre[k] + t * b[k] + half * a[k];
        }
        out += 6;
        for (int k = 0; k < 3; k++) { /* along b, at t on a */
            out[k] = centre[k] + t * a[k] - half * b[k];
            out[3 + k] = centre[k] + t * a[k] + half * b[k];
        }
        out += 6;
    }
}
