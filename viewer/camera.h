/* Orbit camera of ossa-view (no GL): it turns around a target at a distance, with yaw and pitch
 * in radians, pans the target in the view plane and zooms by distance. Matrices are
 * column-major 4x4, as GL takes them.
 *
 * Up axis. Which world axis is up is a setting, chosen when the model is loaded by the engine's
 * one guess (view_camera_up_for_model: ossa_export_source_up in ossa/export.h, so the view stands
 * as the glTF export and the writers turn the model) or forced with --up. */
#ifndef OSSA_VIEW_CAMERA_H
#define OSSA_VIEW_CAMERA_H

#include <stdbool.h>
#include "ossa/model.h"

typedef enum view_up_axis {
    VIEW_UP_AUTO = 0,  /* only as a request: choose from the model */
    VIEW_UP_Y,
    VIEW_UP_Z
} view_up_axis;

/* A rectangle of the window in pixels, y down: [x0, x1) x [y0, y1). */
typedef struct view_rect {
    float x0, y0, x1, y1;
} view_rect;

typedef struct view_camera {
    float target[3];
    float yaw, pitch;   /* radians; yaw 0 looks at the model's front */
    float distance;
    float fov_y;        /* radians */
    float radius;       /* of the framed bounds, sets the near/far planes */
    view_up_axis up;    /* VIEW_UP_Y or VIEW_UP_Z */
    /* The window and the part of it the model is framed in (what the HUD leaves free): the
     * target shows at the viewport's middle and fov_y spans its height. */
    float window_w, window_h;
    view_rect viewport;
    /* Framing waits for the first viewport after it, whose aspect sets the distance. */
    bool frame_pending;
    float frame_min[3], frame_max[3];
} view_camera;

/* Defaults: Y up, a unit box framed, an 800 x 600 window all viewport. */
void view_camera_init(view_camera *c);
/* The up axis the export takes for m (from its format and every bind vertex). */
view_up_axis view_camera_up_for_model(const ossa_model *m);
/* Aims at the centre of a box and backs off until it fits the viewport, across and up (keeps
 * the angles). The distance is set again by the next view_camera_set_viewport unless a zoom
 * came first. */
void view_camera_frame(view_camera *c, const float min[3], const float max[3]);
/* The window's size and the viewport in it (clamped into the window; empty: all of it). */
void view_camera_set_viewport(view_camera *c, int window_w, int window_h, const view_rect *vp);
/* Default angles, then frames the box: what R does. */
void view_camera_reset(view_camera *c, const float min[3], const float max[3]);
/* Turns by a mouse drag in pixels. */
void view_camera_orbit(view_camera *c, float dx, float dy);
/* Moves the target across the view by a mouse drag in pixels: the point under the cursor stays
 * under it (at the target's depth). */
void view_camera_pan(view_camera *c, float dx, float dy);
/* Moves closer (steps > 0) or away; one wheel notch is one step. */
void view_camera_zoom(view_camera *c, float steps);
/* Eye position and the world's up axis. */
void view_camera_eye(const view_camera *c, float eye[3], float up[3]);
/* View and projection for the whole window, the viewport's picture placed in its rectangle. */
void view_camera_view_proj(const view_camera *c, float out[16]);

#endif
