/* A persistent thread pool for skin jobs (ossa/skin.h): a job whose pool field is set has its
 * output range split across the pool's threads by ossa_skin_job_run, with identical results. */
#ifndef OSSA_SKIN_POOL_H
#define OSSA_SKIN_POOL_H

#include <stdint.h>
#include "ossa/skin.h"
#include "ossa/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- thread pool ------------------------------------------------------------------------ */

/* ossa_skin_pool is declared in ossa/skin.h, where ossa_skin_job names it. */

/* A pool of `threads` participants: the calling thread plus threads - 1 persistent workers
 * (threads >= 1, <= 256). After a dispatch, a worker that finished (and the caller) spins for
 * at most 20 us for the next one, then sleeps on a condition variable: an idle pool uses no CPU.
 * A dispatch of fewer chunks than threads wakes only as many sleeping workers as it can use.
 * A build without threads (WebAssembly without pthreads) makes pools of 1 thread only and
 * answers more with OSSA_ERR_UNSUPPORTED. */
OSSA_API ossa_status ossa_skin_pool_create(uint32_t threads, ossa_skin_pool **out, ossa_error *err);
OSSA_API void ossa_skin_pool_destroy(ossa_skin_pool *pool);
OSSA_API uint32_t ossa_skin_pool_threads(const ossa_skin_pool *pool);
/* CPU seconds the pool's worker threads have run since they started (not the caller's), up to
 * date for workers running at the moment; 0 for a NULL pool. Benchmarks add it to the calling
 * thread's own clock, since a process-wide clock counts other threads' time late. */
OSSA_API double ossa_skin_pool_worker_cpu_seconds(const ossa_skin_pool *pool);

/* Runs fn(ctx, b, e) over [begin, end) cut into small contiguous chunks (about 8 per
 * participant) that the caller and the workers claim until none is left, chunk bounds on
 * multiples of `align` (>= 1); returns when all are done. Each participant first runs its home,
 * an even share of the range's blocks of `align` (the caller the first), then takes what is left
 * of the others'. Not reentrant: one dispatch at a time per pool. */
typedef void (*ossa_skin_range_fn)(void *ctx, uint32_t begin, uint32_t end);
OSSA_API void ossa_skin_pool_for(ossa_skin_pool *pool, uint32_t begin, uint32_t end, uint32_t align,
                                 ossa_skin_range_fn fn, void *ctx);
/* An align for ossa_skin_pool_for over [0, count) whose elements run best in groups of `group`
 * (>= 1; a crowd's OSSA_INSTANCE_UPDATE_GROUP): of the sizes group to group + 15 (below
 * 2 x group), the smallest whose blocks share count out most evenly among the pool's homes
 * (100 characters in blocks of 8 go 48 and 52 to 2 threads, in blocks of 10 50 and 50). A count
 * under 4 x group a thread gets one even share a thread instead (10 characters on 2 threads: 5
 * and 5; smaller pieces lost the cloth's lanes and paid a claim each, docs/BENCHMARKS.md), and
 * fewer elements than threads one each. group for a NULL or one-thread pool. */
OSSA_API uint32_t ossa_skin_pool_align(const ossa_skin_pool *pool, uint32_t count, uint32_t group);

#ifdef __cplusplus
}
#endif
#endif
