/* What the module's three files (engine_api.c, engine_info.c, engine_extras.c) share. */
#ifndef OSSA_WEB_ENGINE_INTERNAL_H
#define OSSA_WEB_ENGINE_INTERNAL_H

#include "engine_api.h"

struct web_character {
    ossa_model *model;
    ossa_instance *inst;
    uint32_t parts;
    ossa_instance_span *spans;   /* one per part, sized to its output_count */
    /* Per part, in output order (NULL where the model has none): the bind vertices (the
     * viewer's P), UV set 0 as shown, vertex colours. */
    float **bind_positions, **bind_normals, **uvs, **colors;
    bool *uv_animated;
    float *joints, *bind_joints; /* 3 floats per bone */
    bool bind;                   /* the buffers hold the bind vertices */
    float fade_seconds;
    char *info_json;             /* the last ossa_web_info */
    char state_json[1024];
    ossa_texture_file texture;   /* the last ossa_web_texture's file */
    uint8_t *glb;                /* the last export */
    size_t glb_size, glb_capacity;
};

/* Fills the module's last error. */
void web_set_error(const ossa_error *err);
/* err with status, offset -1 and message. */
void web_fail(ossa_status status, const char *message);

#endif
