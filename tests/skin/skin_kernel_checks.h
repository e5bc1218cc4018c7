/* What the two files of test-skin-kernels share (test_skin_kernels.c, test_skin_exact.c). */
#ifndef OSSA_TEST_SKIN_KERNEL_CHECKS_H
#define OSSA_TEST_SKIN_KERNEL_CHECKS_H

#include <stdint.h>
#include "ossa/skin.h"

/* The pools the bit-identity checks run on (2 and 3 threads): none where the build has no
 * threads (WebAssembly without pthreads: tests/web/check_wasm_kernels.py). */
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define POOL_THREADS_MAX 1u
#else
#define POOL_THREADS_MAX 3u
#endif

/* Exact meshes (influence_points): each influence's pre-weighted point is w_i (p + delta_i),
 * delta_i random for most influences (spread: its size) and 0 for a third; weights do not sum to
 * 1. The reference is ossa_skin_submesh_scalar's sum_i P_i [u_i; w_i] on the morphed vertex
 * (a morph moves p and every u_i by w_i times its delta). spread 0: every influence agrees on
 * p, so the mesh takes the blend path and must still match. */
void check_exact_with(ossa_skin_kernel k, uint32_t n, uint32_t max_inf, uint32_t morphs,
                      uint64_t seed, uint32_t bones, float spread);

/* Runs job (mesh, palette, kernel and morphs set) over the whole output into op / on, first
 * filled with 0xff bytes: mode 0 with cached stores, 1 with streaming ones, 2 cut at odd points
 * (unaligned heads and tails in every piece). */
void skin_job_run_mode(ossa_skin_job job, int mode, float *op, float *on);
/* The thread pool gives one thread's bits with 2 and 3 participants: job run on one thread into
 * op / on, then on each pool into op2 / on2. */
void check_pool_bits(ossa_skin_job job, float *op, float *on, float *op2, float *on2,
                     const char *what);

#endif
