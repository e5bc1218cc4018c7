#include "camera.h"

#include <cglm/cglm.h>
#include <math.h>
#include <string.h>

#define DEFAULT_YAW 0.5f
#define DEFAULT_PITCH 0.2f

void view_camera_init(view_camera *c)
{
    memset(c, 0, sizeof *c);
    c->yaw = DEFAULT_YAW;
    c->pitch = DEFAULT_PITCH;
    c->distance = 3.0f;
    c->fov_y = glm_rad(45.0f);
    c->radius = 1.0f;
    c->up = VIEW_UP_Y;
}

view_up_axis view_camera_up_for_model(ossa_format format, const float min[3], const float max[3])
{
    float ey = max[1] - min[1], ez = max[2] - min[2];
    bool finite = isfinite(ey) && isfinite(ez);
    switch (format) {
    case OSSA_FORMAT_DEMO:
    case OSSA_FORMAT_CFF:
        return VIEW_UP_Y;
    case OSSA_FORMAT_UNKNOWN:
    case OSSA_FORMAT_COUNT:
        return finite && ez > ey ? VIEW_UP_Z : VIEW_UP_Y;
    default:
        /* Cal3D, SKM/SKP, C3S: Z up unless the model plainly stands along Y. */
        return finite && ey > 1.5f * ez ? VIEW_UP_Y : VIEW_UP_Z;
    }
}

void view_camera_frame(view_camera *c, const float min[3], const float max[3])
{
    float r = 0.0f;
    for (int k = 0; k < 3; k++) {
        c->target[k] = 0.5f * (min[k] + max[k]);
        float ext = max[k] - min[k];
        r += 0.25f * ext * ext;
    }
    r = sqrtf(r);
    if (!(r > 1e-6f) || !isfinite(r)) {
        r = 1.0f;
        for (int k = 0; k < 3; k++)
            c->target[k] = isfinite(c->target[k]) ? c->target[k] : 0.0f;
    }
    c->radius = r;
    /* Far enough that the bounding sphere fits the vertical field of view, with a margin. */
    c->distance = 1.2f * r / sinf(0.5f * c->fov_y);
}

void view_camera_reset(view_camera *c, const float min[3], const float max[3])
{
    c->yaw = DEFAULT_YAW;
    c->pitch = DEFAULT_PITCH;
    view_camera_frame(c, min, max);
}

void view_camera_orbit(view_camera *c, float dx, float dy)
{
    if (!isfinite(dx) || !isfinite(dy))
        return;
    c->yaw -= dx * 0.01f;
    c->pitch += dy * 0.01f;
    c->yaw = fmodf(c->yaw, 2.0f * GLM_PIf);
    float limit = 0.5f * GLM_PIf - 0.01f;
    c->pitch = glm_clamp(c->pitch, -limit, limit);
}

void view_camera_pan(view_camera *c, float dx, float dy, float viewport_height)
{
    if (!isfinite(dx) || !isfinite(dy) || !(viewport_height > 0.0f))
        return;
    vec3 eye, up, forward, right, true_up;
    view_camera_eye(c, eye, up);
    glm_vec3_sub(c->target, eye, forward);
    glm_vec3_normalize(forward);
    glm_vec3_cross(forward, up, right);
    glm_vec3_normalize(right);
    glm_vec3_cross(right, forward, true_up);
    /* World units per pixel at the target's distance. */
    float unit = 2.0f * c->distance * tanf(0.5f * c->fov_y) / viewport_height;
    for (int k = 0; k < 3; k++)
        c->target[k] += (-dx * right[k] + dy * true_up[k]) * unit;
}

void view_camera_zoom(view_camera *c, float steps)
{
    if (!isfinite(steps))
        return;
    c->distance *= powf(0.9f, steps);
    float lo = 0.01f * c->radius, hi = 100.0f * c->radius;
    c->distance = glm_clamp(c->distance, lo, hi);
}

void view_camera_eye(const view_camera *c, float eye[3], float up[3])
{
    /* Offset in a Y-up frame where the model faces +Z... */
    float o[3] = {sinf(c->yaw) * cosf(c->pitch), sinf(c->pitch), cosf(c->yaw) * cosf(c->pitch)};
    if (c->up == VIEW_UP_Z) {
        /* ...or in a Z-up frame where it faces -Y (3ds Max's front view). */
        float y = o[1];
        o[1] = -o[2];
        o[2] = y;
        up[0] = 0.0f; up[1] = 0.0f; up[2] = 1.0f;
    } else {
        up[0] = 0.0f; up[1] = 1.0f; up[2] = 0.0f;
    }
    for (int k = 0; k < 3; k++)
        eye[k] = c->target[k] + c->distance * o[k];
}

void view_camera_view_proj(const view_camera *c, float aspect, float out[16])
{
    vec3 eye, up, target;
    view_camera_eye(c, eye, up);
    memcpy(target, c->target, sizeof target);
    mat4 view, proj, vp;
    glm_lookat(eye, target, up, view);
    /* The planes follow the distance to the target, which a pan keeps. */
    float near_plane = fmaxf(c->distance - 2.0f * c->radius, 0.001f * c->distance);
    float far_plane = c->distance + 2.0f * c->radius;
    glm_perspective(c->fov_y, aspect > 0.0f ? aspect : 1.0f, near_plane, far_plane, proj);
    glm_mat4_mul(proj, view, vp);
    memcpy(out, vp, sizeof vp);
}
