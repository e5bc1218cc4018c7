/* The engine's WebAssembly entry: what the module (web/meson.build) exports for the page's worker
 * (web/site/worker.js) or Node.js, to load a character from files in the module's file system,
 * play it as ossa-view does (the instance's clock), skin it with the engine's instance (the kernel
 * the engine picks: SSE2 on wasm SIMD) and read the buffers. A character is a pointer into the
 * module's memory; NULL is failure, and ossa_web_error() then says why. Single-threaded, as the
 * module is. Strings returned live until the next call that returns one of the same kind. */
#ifndef OSSA_WEB_ENGINE_API_H
#define OSSA_WEB_ENGINE_API_H

#include <emscripten/emscripten.h>
#include <stdbool.h>
#include <stdint.h>
#include "ossa/ossa.h"

typedef struct web_character web_character;

/* The last failure's message, as the engine formats it (ossa_error_format:
 * "FILE: byte N: STATUS: text"); "" after a call that succeeded. */
EMSCRIPTEN_KEEPALIVE const char *ossa_web_error(void);
/* Loads the `count` files of paths (a .cfg alone, or the files of one model, skeleton first
 * whatever the order) and builds an instance at rest, with a position and a normal buffer per
 * part; no file is left out (the CLI's `ossa sample` rules). */
EMSCRIPTEN_KEEPALIVE web_character *ossa_web_load(const char *const *paths, uint32_t count);
/* As ossa-view opens a model: count 0 is the demo mannequin; otherwise files or folders by the
 * engine's rules, a file of the set that does not read left out with a warning "left out FILE:
 * why" (ossa_web_info lists the warnings), texture paths outside the given folders refused. The
 * clock starts at clip 0, time 0, playing; clip changes cross-fade over 0.25 s (the viewer's
 * default). */
EMSCRIPTEN_KEEPALIVE web_character *ossa_web_open(const char *const *paths, uint32_t count);
EMSCRIPTEN_KEEPALIVE void ossa_web_destroy(web_character *c);

EMSCRIPTEN_KEEPALIVE uint32_t ossa_web_clip_count(const web_character *c);
/* "" for a clip out of range. */
EMSCRIPTEN_KEEPALIVE const char *ossa_web_clip_name(const web_character *c, uint32_t clip);
/* Parts are the model's submeshes, mesh by mesh (ossa_instance_part_count). */
EMSCRIPTEN_KEEPALIVE uint32_t ossa_web_part_count(const web_character *c);
/* The kernel the instance skins with ("scalar", "sse2"). */
EMSCRIPTEN_KEEPALIVE const char *ossa_web_kernel(const web_character *c);

/* The kernel a character's instance will skin with (ossa_skin_kernel_resolve(AUTO)). */
EMSCRIPTEN_KEEPALIVE const char *ossa_web_default_kernel(void);

/* Poses the character at `time` seconds of clip (wrapped as a Cal3D cycle; a clip out of range:
 * the rest pose), puts its cloth at rest there (a seek: no spring steps) and skins every part
 * into its buffers; 0 on success, else -1 and ossa_web_error() says why. */
EMSCRIPTEN_KEEPALIVE int ossa_web_pose(web_character *c, uint32_t clip, float time);

/* ---- playing as ossa-view plays (the instance's clock); each call skins every part -------- */

/* The clock moves on by dt seconds of wall time (ossa_instance_tick: cross-fade, pose, morphs,
 * vertex frames, cloth). */
EMSCRIPTEN_KEEPALIVE int ossa_web_tick(web_character *c, float dt);
/* The viewer's playback actions (viewer/app.c), then shown as the viewer shows them. */
enum {
    OSSA_WEB_PLAY_PAUSE = 0, /* Space */
    OSSA_WEB_STEP,           /* arg frames: Right/Left +-1, Up/Down +-10 */
    OSSA_WEB_FIRST,          /* Home, Shift+Left */
    OSSA_WEB_LAST,           /* End, Shift+Right */
    OSSA_WEB_SPEED,          /* arg +1/-1 along the speed ladder: ] and [ */
    OSSA_WEB_REVERSE,        /* Backspace */
    OSSA_WEB_MODE,           /* L: loop, ping-pong, once */
    OSSA_WEB_CLIP,           /* arg: clip index, cross-faded (1-9, the clip list) */
    OSSA_WEB_CLIP_STEP       /* arg +1/-1: Tab / Shift+Tab */
};
EMSCRIPTEN_KEEPALIVE int ossa_web_act(web_character *c, int action, int arg);
/* Scrub: the clock to `time` seconds of clip (out of range: the current clip), any cross-fade
 * dropped, the cloth at rest where that pose skins it; nothing moves on. */
EMSCRIPTEN_KEEPALIVE int ossa_web_seek(web_character *c, uint32_t clip, float time);
/* on: the buffers hold the bind vertices (the viewer's P) until turned off. */
EMSCRIPTEN_KEEPALIVE int ossa_web_set_bind(web_character *c, int on);

/* The clock and what it shows, as JSON: {clip, clipName, time, duration, frame, lastFrame,
 * speed, playing, mode, fading, fadeFrom, bind} (web/site/PROTOCOL.md). */
EMSCRIPTEN_KEEPALIVE const char *ossa_web_state(web_character *c);
/* The model as JSON: {name, format, up, kernel, warnings, bones, clips (name, duration, key
 * ticks), materials, bindMin, bindMax, vertexCount, faceCount} (web/site/PROTOCOL.md); NULL when
 * out of memory. */
EMSCRIPTEN_KEEPALIVE const char *ossa_web_info(web_character *c);
/* 3 floats per bone: the joints in model space as last shown (the bind pose's with bind). */
EMSCRIPTEN_KEEPALIVE const float *ossa_web_joints(web_character *c);

/* Where a part lives in the model, and its buffers after a pose, tick, act or seek: `what`
 * 0 mesh, 1 submesh, 2 output_count, 3 index_count, 8 vertex_count (the submesh's, file order),
 * 9 material (-1: none), 10 two-sided; as pointers: 4 positions, 5 normals (3 floats per output
 * vertex), 6 indices (triangles in output order), 7 output_source (output -> file vertex,
 * OSSA_SKIN_PAD_VERTEX for padding; 0: output order is file order), 11 UV set 0 as shown
 * (2 floats per output vertex; 0 without UVs), 12 vertex colours (3 floats per output vertex; 0
 * without), 13 whether a clip animates the part's UVs, 14 whether its textures' row 0 is the
 * image's bottom row (ossa-view's flip by mesh format), 15 whether its mesh is hidden (loaded,
 * not drawn: C3S hidden elements). 0 for a part or `what` out of range. */
EMSCRIPTEN_KEEPALIVE uintptr_t ossa_web_part(const web_character *c, uint32_t part, int what);

/* ---- textures, export, bench (engine_extras.c) ------------------------------------------- */

/* Reads material's diffuse map as ossa-view does (ossa_texture_read: the file as named, else
 * with .tga, .png, .bmp, .jpg); 0, or -1 with ossa_web_error() naming the file. The bytes stay
 * until the next call or ossa_web_destroy: ossa_web_texture_field `what` 0 data, 1 size,
 * 2 width, 3 height, 4 type ("TGA", "BMP", "PNG", "JPG"), 5 the path read. */
EMSCRIPTEN_KEEPALIVE int ossa_web_texture(web_character *c, uint32_t material);
EMSCRIPTEN_KEEPALIVE uintptr_t ossa_web_texture_field(const web_character *c, int what);
/* The model as one .glb (ossa_export_glb_stream, default options): its size, or -1 with
 * ossa_web_error(); the bytes (ossa_web_export_data) stay until the next export or destroy. */
EMSCRIPTEN_KEEPALIVE int ossa_web_export_glb(web_character *c);
EMSCRIPTEN_KEEPALIVE const uint8_t *ossa_web_export_data(const web_character *c);
/* Skinning throughput, in millions of vertices a second, of the scalar and the SSE2 kernel (out
 * [0] and [1]; 0 where the module lacks one) on the mesh `ossa bench --vertices N` skins
 * (tools/bench_model.c, its seed: 4 influences, 64 bones, positions and normals, one thread,
 * cached stores): the median of `rounds` interleaved rounds of about 20 ms each. 0, or -1 with
 * ossa_web_error(). */
EMSCRIPTEN_KEEPALIVE int ossa_web_bench(uint32_t vertices, uint32_t rounds, double *out);

#endif
