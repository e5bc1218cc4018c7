/* Skinning without a job, for callers that checked everything once (the character instance):
 * a whole mesh on the calling thread with a concrete kernel, and the palette already laid out
 * the way the SIMD kernels read it. A crowd of small parts then pays neither a job's validation
 * nor the per-call palette copy of every influence group. Results are bit-identical to
 * ossa_skin_job_run with the same kernel (the kernels read the same numbers). */
#ifndef OSSA_SKIN_DIRECT_H
#define OSSA_SKIN_DIRECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ossa/cloth.h"
#include "ossa/skin.h"
#include "core/prefetch.h"

/* Floats of the wide palette kernel k reads for a palette of `bones` bones (16 a bone: one
 * 64-byte line, the last 4 zero), or 0 when k does not use one (scalar, SSE2, or more bones
 * than the kernels copy). */
size_t ossa_skin_wide_floats(ossa_skin_kernel k, uint32_t bones);
/* palette (12 floats a bone) into wide (ossa_skin_wide_floats floats, 64-byte aligned). */
void ossa_skin_wide_fill(const float *palette, uint32_t bones, float *wide);
/* Skins every output vertex of mesh with kernel k (concrete and available). palette holds at
 * least the mesh's palette_size bones; wide is its wide copy or NULL; morph_weights as
 * ossa_skin_job's. Nothing is checked. stream asks for non-temporal stores, taken only when both
 * outputs are 64-byte aligned; returns 1 when they were taken, and then the caller owes one
 * ossa_skin_store_fence before anyone reads the outputs (one fence after a character's parts,
 * not one a part: on the Zen 5 VM of 2026-11-26 a fence a part made streaming 2.5x slower). */
int ossa_skin_mesh_run(const ossa_skin_mesh *mesh, ossa_skin_kernel k, const float *palette,
                       const float *wide, const float *morph_weights, float *out_positions,
                       float *out_normals, int stream);
/* A character's parts as one skin list (skin_list.c): the blocks of every part the list
 * kernels take, grouped by influence count. meshes: one per part, NULL for parts not skinned;
 * at most 65536 parts. NULL when no part is listed, or out of memory (both: skin part by part). */
typedef struct ossa_skin_list ossa_skin_list;
ossa_skin_list *ossa_skin_list_create(const ossa_skin_mesh *const *meshes, uint32_t count);
void ossa_skin_list_destroy(ossa_skin_list *l);
/* Whether part's blocks are in l. */
bool ossa_skin_list_has(const ossa_skin_list *l, uint32_t part);
/* Whether kernel k (concrete) has a list kernel: AVX2 and AVX-512. */
bool ossa_skin_list_runs_on(ossa_skin_kernel k);
/* Every listed part p whose pos[p] is not NULL into pos[p] / nrm[p] (its output_count
 * vertices), with kernel k (ossa_skin_list_runs_on, available) from the wide palette (not NULL:
 * ossa_skin_wide_fill's), the bits its ossa_skin_mesh_run writes. Nothing is checked. stream:
 * non-temporal stores, only with every such output 64-byte aligned; the caller then owes one
 * ossa_skin_store_fence. */
void ossa_skin_list_run(const ossa_skin_list *l, ossa_skin_kernel k, const float *wide,
                        float *const *pos, float *const *nrm, int stream);
/* Whether a store policy streams `vertices` outputs (OSSA_SKIN_STORE_AUTO: by size, as a job). */
int ossa_skin_store_streams(ossa_skin_store store, uint32_t vertices);
/* Orders the non-temporal stores made so far before every later store (sfence): what another
 * thread reads after it sees a later store is complete. The kernels never fence themselves. */
void ossa_skin_store_fence(void);

/* A spring state's memory a step touches, appended to out (ossa_mixer_state_ranges' reason). */
void ossa_spring_state_ranges(const ossa_spring_state *s, ossa_mem_range *out, uint32_t *count,
                              uint32_t max);

/* Characters whose cloth one SIMD relaxation steps together (a lane buffer's width), and the
 * most ossa_spring_update_lanes takes: two such groups, whose chains overlap in the core. */
#define SPRING_LANES 8u
#define SPRING_LANES_MAX (2u * SPRING_LANES)
/* ossa_spring_update(s[l], dt[l], out[l], ...) for each of `lanes` (1..SPRING_LANES_MAX; more
 * are cut to that) states of one mesh, with the same bits in every out[l]: the relaxation runs
 * the characters as SIMD lanes, so their chains of dependent divisions overlap. Each lane has its
 * own step (characters of a crowd play at their own speeds; only the Verlet step uses it). Nothing
 * is checked but the steps (one not finite: nothing happens): every out[l] holds the mesh's
 * output_count vertices. */
void ossa_spring_update_lanes(ossa_spring_state *const *s, float *const *out, uint32_t lanes,
                              const float *dt);

#endif
