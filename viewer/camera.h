/* Orbit camera of ossa-view (no GL): it turns around a target at a distance, with yaw and pitch
 * in radians. Models whose bounds are tallest along Z (3ds Max exports, most Cal3D files) are
 * shown Z-up, the others Y-up. Matrices are column-major 4x4, as GL takes them. */
#ifndef OSSA_VIEW_CAMERA_H
#define OSSA_VIEW_CAMERA_H

#include <stdbool.h>

typedef struct view_camera {
    float target[3];
    float yaw, pitch;   /* radians; yaw 0 looks at the model's front */
    float distance;
    float fov_y;        /* radians */
    float radius;       /* of the framed bounds, sets the near/far planes */
    bool z_up;
} view_camera;

void view_camera_init(view_camera *c);
/* Aims at the centre of a box and backs off until it fits the view; picks Y- or Z-up. */
void view_camera_frame(view_camera *c, const float min[3], const float max[3]);
/* Turns by a mouse drag in pixels. */
void view_camera_orbit(view_camera *c, float dx, float dy);
/* Moves closer (steps > 0) or away; one wheel notch is one step. */
void view_camera_zoom(view_camera *c, float steps);
/* Eye position and the world's up axis. */
void view_camera_eye(const view_camera *c, float eye[3], float up[3]);
void view_camera_view_proj(const view_camera *c, float aspect, float out[16]);

#endif
