/* What the viewer shows, as toggled by keys (B, W, N, P, G, K, J) and command-line options.
 * app.c owns the state and the keys; render.c and scene.c read it. No GL here. */
#ifndef OSSA_VIEW_DISPLAY_H
#define OSSA_VIEW_DISPLAY_H

#include <stdbool.h>

typedef enum view_skinning {
    VIEW_SKIN_CPU = 0, /* the engine's SIMD kernels write into the uploaded vertex buffer */
    VIEW_SKIN_GPU      /* the vertex shader blends a bone palette */
} view_skinning;

typedef struct view_display {
    bool bones;        /* B: skeleton overlay */
    bool joint_names;  /* J: joint names beside the overlay */
    bool wireframe;    /* W */
    bool normals;      /* N: a short line along each vertex normal */
    bool bind_pose;    /* P: show the bind pose instead of the animated one */
    bool grid;         /* G: ground grid under the model */
    view_skinning skinning; /* K switches */
} view_display;

#endif
