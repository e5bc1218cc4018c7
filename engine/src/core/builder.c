/* The public model builder (ossa/build.h): the loaders' build context behind an opaque handle. */
#include <stdlib.h>
#include "core/build_context.h"
#include "core/error.h"
#include "ossa/build.h"

struct ossa_builder {
    ossa_build build;
    ossa_error own_err; /* where messages go when the caller passed no error record */
};

/* The status of the error just raised by a build call, NOMEM when it left none. */
static ossa_status raised(const ossa_builder *b)
{
    ossa_status s = b->build.err ? b->build.err->status : OSSA_ERR_NOMEM;
    return s != OSSA_OK ? s : OSSA_ERR_NOMEM;
}

ossa_status ossa_builder_create(const char *name, ossa_builder **out, ossa_error *err)
{
    if (!out)
        return ossa_error_status(err, OSSA_ERR_INVALID_ARGUMENT, "model builder");
    *out = NULL;
    ossa_error_clear(err);
    ossa_builder *b = calloc(1, sizeof *b);
    if (!b)
        return ossa_error_status(err, OSSA_ERR_NOMEM, "model builder");
    ossa_error_clear(&b->own_err);
    if (!ossa_build_init(&b->build, err ? err : &b->own_err, NULL)) {
        free(b);
        return ossa_error_status(err, OSSA_ERR_NOMEM, "model builder");
    }
    ossa_status st = ossa_build_set_file(&b->build, name && name[0] ? name : "(built)");
    if (st != OSSA_OK) {
        ossa_model *none;
        ossa_build_finish(&b->build, st, &none);
        free(b);
        return st;
    }
    *out = b;
    return OSSA_OK;
}

void ossa_builder_destroy(ossa_builder *b)
{
    if (!b)
        return;
    ossa_model *none;
    ossa_build_finish(&b->build, OSSA_ERR_INVALID_ARGUMENT, &none);
    free(b);
}

ossa_model *ossa_builder_model(ossa_builder *b)
{
    return b ? b->build.model : NULL;
}

ossa_status ossa_builder_alloc(ossa_builder *b, void *out_ptr, size_t count, size_t elem)
{
    if (!b || !out_ptr)
        return OSSA_ERR_INVALID_ARGUMENT;
    return ossa_build_array(&b->build, out_ptr, count, elem);
}

ossa_status ossa_builder_strndup(ossa_builder *b, const char **out, const char *text, size_t n)
{
    if (!b || !out || (!text && n))
        return OSSA_ERR_INVALID_ARGUMENT;
    return ossa_build_strndup(&b->build, out, text ? text : "", n);
}

ossa_status ossa_builder_add_mesh(ossa_builder *b, ossa_mesh **out)
{
    if (!b || !out)
        return OSSA_ERR_INVALID_ARGUMENT;
    return (*out = ossa_build_push_mesh(&b->build)) ? OSSA_OK : raised(b);
}

ossa_status ossa_builder_add_clip(ossa_builder *b, ossa_clip **out)
{
    if (!b || !out)
        return OSSA_ERR_INVALID_ARGUMENT;
    return (*out = ossa_build_push_clip(&b->build)) ? OSSA_OK : raised(b);
}

ossa_status ossa_builder_add_material(ossa_builder *b, ossa_material **out)
{
    if (!b || !out)
        return OSSA_ERR_INVALID_ARGUMENT;
    return (*out = ossa_build_push_material(&b->build)) ? OSSA_OK : raised(b);
}

ossa_status ossa_builder_set_skeleton(ossa_builder *b, ossa_bone *bones, uint32_t count)
{
    if (!b || (!bones && count))
        return OSSA_ERR_INVALID_ARGUMENT;
    return ossa_build_set_skeleton(&b->build, bones, count);
}

ossa_status ossa_builder_finish(ossa_builder *b, ossa_status status, ossa_model **out)
{
    if (!out) {
        ossa_builder_destroy(b);
        return OSSA_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    if (!b)
        return OSSA_ERR_INVALID_ARGUMENT;
    ossa_status st = ossa_build_finish(&b->build, status, out);
    free(b);
    return st;
}
