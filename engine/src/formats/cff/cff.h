/* CFF (Corsairs / Sea Dogs 2000) internals shared with the tools: the reading conventions and a
 * diagnostic that decodes the vertex coordinates both ways docs/FORMATS.md, D8 mentions. */
#ifndef OSSA_FORMATS_CFF_H
#define OSSA_FORMATS_CFF_H

#include "ossa/load.h"

#include <stddef.h>
#include <stdint.h>
#include "ossa/model.h"

/* Frames per second a CFF animation plays at (docs/FORMATS.md, D11). */
#define OSSA_CFF_FRAME_RATE 25.0f

#endif
