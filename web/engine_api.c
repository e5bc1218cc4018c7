/* The engine's WebAssembly entry (engine_api.h). */
#include <emscripten/emscripten.h>
#include <stdlib.h>
#include <string.h>
#include "engine_api.h"

struct web_character {
    ossa_model *model;
    ossa_instance *inst;
    uint32_t parts;
    ossa_instance_span *spans;  /* one per part, sized to its output_count */
};

static char last_error[1024];

static void set_error(const ossa_error *err)
{
    ossa_error_format(err, last_error, sizeof last_error);
}

EMSCRIPTEN_KEEPALIVE const char *ossa_web_error(void)
{
    return last_error;
}

EMSCRIPTEN_KEEPALIVE void ossa_web_destroy(web_character *c)
{
    if (!c)
        return;
    for (uint32_t p = 0; c->spans && p < c->parts; p++) {
        free(c->spans[p].positions);
        free(c->spans[p].normals);
    }
    free(c->spans);
    ossa_instance_destroy(c->inst);
    ossa_model_destroy(c->model);
    free(c);
}

static web_character *out_of_memory(web_character *c)
{
    ossa_error err = {.status = OSSA_ERR_NOMEM, .offset = -1};
    strcpy(err.message, "out of memory for the skinned outputs");
    set_error(&err);
    ossa_web_destroy(c);
    return NULL;
}

EMSCRIPTEN_KEEPALIVE web_character *ossa_web_load(const char *const *paths, uint32_t count)
{
    ossa_error err = {0};
    web_character *c = calloc(1, sizeof *c);
    last_error[0] = 0;
    if (!c)
        return out_of_memory(NULL);
    if (ossa_load_files(paths, count, NULL, &c->model, &err) != OSSA_OK ||
        ossa_instance_create(c->model, NULL, &c->inst, &err) != OSSA_OK) {
        set_error(&err);
        ossa_web_destroy(c);
        return NULL;
    }
    c->parts = ossa_instance_part_count(c->inst);
    c->spans = calloc(c->parts ? c->parts : 1, sizeof *c->spans);
    if (!c->spans)
        return out_of_memory(c);
    for (uint32_t p = 0; p < c->parts; p++) {
        ossa_instance_part info;
        ossa_instance_part_info(c->inst, p, &info, NULL);
        size_t n = info.output_count ? info.output_count : 1;
        c->spans[p].positions = malloc(3 * n * sizeof(float));
        c->spans[p].normals = malloc(3 * n * sizeof(float));
        c->spans[p].capacity = info.output_count;
        if (!c->spans[p].positions || !c->spans[p].normals)
            return out_of_memory(c);
    }
    return c;
}

EMSCRIPTEN_KEEPALIVE uint32_t ossa_web_clip_count(const web_character *c)
{
    return c->model->clip_count;
}

EMSCRIPTEN_KEEPALIVE const char *ossa_web_clip_name(const web_character *c, uint32_t clip)
{
    return clip < c->model->clip_count ? c->model->clips[clip].name : "";
}

EMSCRIPTEN_KEEPALIVE uint32_t ossa_web_part_count(const web_character *c)
{
    return c->parts;
}

EMSCRIPTEN_KEEPALIVE const char *ossa_web_kernel(const web_character *c)
{
    return ossa_skin_kernel_name(ossa_instance_kernel(c->inst));
}

EMSCRIPTEN_KEEPALIVE int ossa_web_pose(web_character *c, uint32_t clip, float time)
{
    ossa_error err = {0};
    ossa_instance_pose_clip(c->inst, clip, time);
    ossa_instance_springs_reset(c->inst);
    if (ossa_instance_skin(c->inst, 0, c->parts, c->spans, &err) != OSSA_OK) {
        set_error(&err);
        return -1;
    }
    return 0;
}

EMSCRIPTEN_KEEPALIVE uintptr_t ossa_web_part(const web_character *c, uint32_t part, int what)
{
    ossa_instance_part info;
    if (part >= c->parts || ossa_instance_part_info(c->inst, part, &info, NULL) != OSSA_OK)
        return 0;
    switch (what) {
    case 0: return info.mesh;
    case 1: return info.submesh;
    case 2: return info.output_count;
    case 3: return info.index_count;
    case 4: return (uintptr_t)c->spans[part].positions;
    case 5: return (uintptr_t)c->spans[part].normals;
    case 6: return (uintptr_t)info.indices;
    case 7: return (uintptr_t)info.output_source;
    case 8: return info.vertex_count;
    default: return 0;
    }
}
