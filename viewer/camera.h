/* Orbit camera of ossa-view (no GL): it turns around a target at a distance, with yaw and pitch
 * in radians, pans the target in the view plane and zooms by distance. Matrices are
 * column-major 4x4, as GL takes them.
 *
 * Up axis. Which world axis is up is a setting, chosen from the model's format when the model
 * is loaded (view_camera_up_for_model) or forced with --up:
 *   Y up: the built-in demo, CFF (Direct3D-style files);
 *   Z up: Cal3D (3ds Max and Blender exporters write Z up), SKM/SKP and C3S (Quake and Unreal
 *         engine conventions), unless the bind pose is clearly taller along Y than along Z,
 *         which marks a file exported Y up;
 *   unknown formats: the taller of Y and Z. */
#ifndef OSSA_VIEW_CAMERA_H
#define OSSA_VIEW_CAMERA_H

#include <stdbool.h>
#include "ossa/model.h"

typedef enum view_up_axis {
    VIEW_UP_AUTO = 0,  /* only as a request: choose from the model */
    VIEW_UP_Y,
    VIEW_UP_Z
} view_up_axis;

typedef struct view_camera {
    float target[3];
    float yaw, pitch;   /* radians; yaw 0 looks at the model's front */
    float distance;
    float fov_y;        /* radians */
    float radius;       /* of the framed bounds, sets the near/far planes */
    view_up_axis up;    /* VIEW_UP_Y or VIEW_UP_Z */
} view_camera;

/* Defaults: Y up, a unit box framed. */
void view_camera_init(view_camera *c);
/* The up axis for a model of this format with these bind-pose bounds. */
view_up_axis view_camera_up_for_model(ossa_format format, const float min[3], const float max[3]);
/* Aims at the centre of a box and backs off until it fits the view (keeps the angles). */
void view_camera_frame(view_camera *c, const float min[3], const float max[3]);
/* Default angles, then frames the box: what R does. */
void view_camera_reset(view_camera *c, const float min[3], const float max[3]);
/* Turns by a mouse drag in pixels. */
void view_camera_orbit(view_camera *c, float dx, float dy);
/* Moves the target across the view by a mouse drag in pixels, in a window viewport_height
 * pixels high: the point under the cursor stays under it (at the target's depth). */
void view_camera_pan(view_camera *c, float dx, float dy, float viewport_height);
/* Moves closer (steps > 0) or away; one wheel notch is one step. */
void view_camera_zoom(view_camera *c, float steps);
/* Eye position and the world's up axis. */
void view_camera_eye(const view_camera *c, float eye[3], float up[3]);
void view_camera_view_proj(const view_camera *c, float aspect, float out[16]);

#endif
