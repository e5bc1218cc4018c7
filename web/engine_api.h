/* The engine's WebAssembly entry: what the module (web/meson.build) exports for a page, or
 * Node.js, to load a character from files in the module's file system, pose it at a clip's time
 * and skin it with the engine's instance (the kernel the engine picks: SSE2 on wasm SIMD). A
 * character is a pointer into the module's memory; NULL is failure, and ossa_web_error() then
 * says why. Single-threaded, as the module is. */
#ifndef OSSA_WEB_ENGINE_API_H
#define OSSA_WEB_ENGINE_API_H

#include <emscripten/emscripten.h>
#include <stdint.h>
#include "ossa/ossa.h"

typedef struct web_character web_character;

/* The last failure's message, as the engine formats it (ossa_error_format:
 * "FILE: byte N: STATUS: text"); "" after a load that succeeded. */
EMSCRIPTEN_KEEPALIVE const char *ossa_web_error(void);
/* Loads the `count` files of paths (a .cfg alone, or the files of one model, skeleton first
 * whatever the order) and builds an instance at rest, with a position and a normal buffer per
 * part. */
EMSCRIPTEN_KEEPALIVE web_character *ossa_web_load(const char *const *paths, uint32_t count);
EMSCRIPTEN_KEEPALIVE void ossa_web_destroy(web_character *c);

EMSCRIPTEN_KEEPALIVE uint32_t ossa_web_clip_count(const web_character *c);
/* "" for a clip out of range. */
EMSCRIPTEN_KEEPALIVE const char *ossa_web_clip_name(const web_character *c, uint32_t clip);
/* Parts are the model's submeshes, mesh by mesh (ossa_instance_part_count). */
EMSCRIPTEN_KEEPALIVE uint32_t ossa_web_part_count(const web_character *c);
/* The kernel the instance skins with ("scalar", "sse2"). */
EMSCRIPTEN_KEEPALIVE const char *ossa_web_kernel(const web_character *c);

/* Poses the character at `time` seconds of clip (wrapped as a Cal3D cycle; a clip out of range:
 * the rest pose), puts its cloth at rest there (a seek: no spring steps) and skins every part
 * into its buffers; 0 on success, else -1 and ossa_web_error() says why. */
EMSCRIPTEN_KEEPALIVE int ossa_web_pose(web_character *c, uint32_t clip, float time);

/* Where a part lives in the model, and its buffers after ossa_web_pose: `what` 0 mesh,
 * 1 submesh, 2 output_count, 3 index_count, 8 vertex_count (the submesh's, file order); as
 * pointers: 4 positions, 5 normals (3 floats per output vertex), 6 indices (triangles in output
 * order), 7 output_source (output -> file vertex, OSSA_SKIN_PAD_VERTEX for padding; 0: output
 * order is file order). 0 for a part or `what` out of range. */
EMSCRIPTEN_KEEPALIVE uintptr_t ossa_web_part(const web_character *c, uint32_t part, int what);

#endif
