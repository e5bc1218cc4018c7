#include "camera.h"

#include <cglm/cglm.h>
#include <math.h>
#include <string.h>
#include "ossa/export.h"

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
    c->window_w = 800.0f;
    c->window_h = 600.0f;
    c->viewport = (view_rect){0.0f, 0.0f, 800.0f, 600.0f};
}

static float viewport_aspect(const view_camera *c)
{
    float w = c->viewport.x1 - c->viewport.x0, h = c->viewport.y1 - c->viewport.y0;
    return w > 0.0f && h > 0.0f ? w / h : 1.0f;
}

/* Far enough that the bounding sphere fits both the vertical and the horizontal field of view
 * of the viewport, with a margin. */
static void fit_distance(view_camera *c)
{
    float half_y = 0.5f * c->fov_y;
    float half_x = atanf(tanf(half_y) * viewport_aspect(c));
    c->distance = 1.2f * c->radius / sinf(fminf(half_x, half_y));
}

view_up_axis view_camera_up_for_model(const ossa_model *m)
{
    /* The engine's guess, so the view stands as the export turns the model. */
    return ossa_export_source_up(m, NULL) == OSSA_EXPORT_UP_Z ? VIEW_UP_Z : VIEW_UP_Y;
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
    fit_distance(c);
    c->frame_pending = true;
}

void view_camera_set_viewport(view_camera *c, int window_w, int window_h, const view_rect *vp)
{
    float w = window_w > 0 ? (float)window_w : 1.0f, h = window_h > 0 ? (float)window_h : 1.0f;
    view_rect r = vp ? *vp : (view_rect){0.0f, 0.0f, w, h};
    r.x0 = fmaxf(r.x0, 0.0f);
    r.y0 = fmaxf(r.y0, 0.0f);
    r.x1 = fminf(r.x1, w);
    r.y1 = fminf(r.y1, h);
    if (!(r.x1 - r.x0 >= 1.0f) || !(r.y1 - r.y0 >= 1.0f))
        r = (view_rect){0.0f, 0.0f, w, h};
    c->window_w = w;
    c->window_h = h;
    c->viewport = r;
    if (c->frame_pending) {
        fit_distance(c);
        c->frame_pending = false;
    }
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

void view_camera_pan(view_camera *c, float dx, float dy)
{
    float viewport_height = c->viewport.y1 - c->viewport.y0;
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
    c->frame_pending = false; /* the user's distance from now on */
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

void view_camera_view_proj(const view_camera *c, float out[16])
{
    vec3 eye, up, target;
    view_camera_eye(c, eye, up);
    memcpy(target, c->target, sizeof target);
    mat4 view, proj, vp;
    glm_lookat(eye, target, up, view);
    /* The planes follow the distance to the target, which a pan keeps. */
    float near_plane = fmaxf(c->distance - 2.0f * c->radius, 0.001f * c->distance);
    float far_plane = c->distance + 2.0f * c->radius;
    glm_perspective(c->fov_y, viewport_aspect(c), near_plane, far_plane, proj);
    /* Clip space of the viewport into that of the window: scale, then move its middle. */
    const view_rect *r = &c->viewport;
    float sx = (r->x1 - r->x0) / c->window_w, sy = (r->y1 - r->y0) / c->window_h;
    float tx = (r->x0 + r->x1) / c->window_w - 1.0f, ty = 1.0f - (r->y0 + r->y1) / c->window_h;
    mat4 place = GLM_MAT4_IDENTITY_INIT;
    place[0][0] = sx;
    place[1][1] = sy;
    place[3][0] = tx;
    place[3][1] = ty;
    glm_mat4_mul(place, proj, proj);
    glm_mat4_mul(proj, view, vp);
    memcpy(out, vp, sizeof vp);
}
