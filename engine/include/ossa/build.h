/* Building a model in code (the demo mannequin, synthetic bench models, test fixtures): a builder
 * owns the model under construction and the memory behind it; the program fills the model's
 * fields and arrays, then ossa_builder_finish validates it (ossa_model_validate) and hands it
 * over, or frees everything. Arrays come zeroed from the model's own allocator, so the finished
 * model is freed by ossa_model_destroy like a loaded one. */
#ifndef OSSA_BUILD_H
#define OSSA_BUILD_H

#include <stddef.h>
#include <stdint.h>
#include "ossa/model.h"
#include "ossa/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_builder ossa_builder;

/* A builder of an empty model; name is the file name its messages give. Every later call of the
 * builder fills err (which may be NULL) on failure, and the first failure's message is kept. */
OSSA_API ossa_status ossa_builder_create(const char *name, ossa_builder **out, ossa_error *err);
/* Frees the builder and the model under construction (safe on NULL). */
OSSA_API void ossa_builder_destroy(ossa_builder *b);
/* The model under construction: set its fields directly; its arrays come from the calls below. */
OSSA_API ossa_model *ossa_builder_model(ossa_builder *b);

/* *(T **)out_ptr = count zeroed elements of elem bytes (overflow-checked), owned by the model. */
OSSA_API ossa_status ossa_builder_alloc(ossa_builder *b, void *out_ptr, size_t count, size_t elem);
/* A copy of the first n bytes of text, terminated, owned by the model. */
OSSA_API ossa_status ossa_builder_strndup(ossa_builder *b, const char **out, const char *text,
                                          size_t n);
/* One more zeroed mesh, clip or material at the end of the model's list. */
OSSA_API ossa_status ossa_builder_add_mesh(ossa_builder *b, ossa_mesh **out);
OSSA_API ossa_status ossa_builder_add_clip(ossa_builder *b, ossa_clip **out);
OSSA_API ossa_status ossa_builder_add_material(ossa_builder *b, ossa_material **out);
/* The skeleton, given in any order with parent and children as indices into bones: reordered
 * parents-first (ossa_bone.source_index keeps the given index); cycles and bad indices are
 * refused. Set it before meshes and clips, which use the final (parents-first) indices. */
OSSA_API ossa_status ossa_builder_set_skeleton(ossa_builder *b, ossa_bone *bones, uint32_t count);

/* Ends the build and frees the builder. With status OSSA_OK the model is validated and, when
 * valid, handed over in *out; otherwise (or with a failed status, passed through) *out is NULL
 * and nothing is left. */
OSSA_API ossa_status ossa_builder_finish(ossa_builder *b, ossa_status status, ossa_model **out);

#ifdef __cplusplus
}
#endif
#endif
