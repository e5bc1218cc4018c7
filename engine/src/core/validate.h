/* Validation that also says which part of the model failed, so a load of several files can
 * name the file that brought that part in (core/build_context.c). */
#ifndef OSSA_CORE_VALIDATE_H
#define OSSA_CORE_VALIDATE_H

#include <stdint.h>
#include "ossa/model.h"

typedef enum ossa_model_part_kind {
    OSSA_PART_WHOLE,      /* no single part: chains across bones and clips, mounts */
    OSSA_PART_BONE,
    OSSA_PART_MESH,
    OSSA_PART_CLIP,
    OSSA_PART_MORPH_CLIP,
    OSSA_PART_MATERIAL,
    OSSA_PART_KIND_COUNT
} ossa_model_part_kind;

typedef struct ossa_model_part {
    ossa_model_part_kind kind;
    uint32_t index;       /* into the model's array of that kind */
} ossa_model_part;

/* ossa_model_validate; on a failure *part (when not NULL) says where. */
ossa_status ossa_model_validate_part(const ossa_model *m, ossa_error *err, ossa_model_part *part);

#endif
