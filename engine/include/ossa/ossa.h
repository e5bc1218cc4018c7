/* Ossa: skeletal animation runtime for legacy character formats. */
#ifndef OSSA_OSSA_H
#define OSSA_OSSA_H

#include "ossa/status.h"
#include "ossa/model.h"
#include "ossa/load.h"
#include "ossa/demo.h"
#include "ossa/write.h"
#include "ossa/export.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/pose.h"
#include "ossa/mixer.h"
#include "ossa/skin.h"
#include "ossa/skin_pool.h"
#include "ossa/cloth.h"
#include "ossa/vertex_anim.h"

#endif
