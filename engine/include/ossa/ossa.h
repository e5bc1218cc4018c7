/* Ossa: skeletal animation runtime for legacy character formats. */
#ifndef OSSA_OSSA_H
#define OSSA_OSSA_H

#include "ossa/status.h"
#include "ossa/model.h"
#include "ossa/load.h"
#include "ossa/anim.h"
#include "ossa/demo.h"
#include "ossa/skin.h"
#include "ossa/runtime.h"
#include "ossa/write.h"
#include "ossa/vertex_anim.h"
#include "ossa/export.h"
#include "ossa/instance.h"

#endif
