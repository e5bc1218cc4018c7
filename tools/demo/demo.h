/* The demo model: a jointed mannequin made in code with the public builder (ossa/build.h), for
 * the viewer to show when it is given no file, for the demo assets (ossa-gen-demo) and for tests
 * that need a known model without assets. A small library beside the tools, not part of
 * libossa. */
#ifndef OSSA_TOOLS_DEMO_H
#define OSSA_TOOLS_DEMO_H

#include "ossa/status.h"

#include "ossa/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Builds the mannequin: 19 bones (Y up, about 1.8 units tall, feet at y = 0, facing +Z), one
 * mesh of boxes (one submesh per material) rigidly skinned with blended elbows and knees, three
 * materials and three looping clips: "walk" (1 s), "wave" (2 s) and "idle" (2 s), in that order.
 * The model is validated; on failure *out is NULL and err says why. */
ossa_status ossa_demo_model(ossa_model **out, ossa_error *err);

#ifdef __cplusplus
}
#endif
#endif
