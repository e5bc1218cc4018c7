/* The thread pool: every index of every dispatch is run exactly once, whether the workers are
 * still spinning from the previous dispatch (back to back) or asleep (after a pause longer than
 * the spin window), with 2 to 4 participants and odd alignments; an idle pool sleeps: its
 * workers use (next to) no CPU while nothing is dispatched; and a worker that stalls (as one
 * preempted on a busy core) holds only the one small chunk it runs, the caller taking the rest;
 * the workers' CPU clock counts what they ran; each participant runs its home (an even share of the
 * aligned blocks, the caller's first) from the front and steals from the back of the others'. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ossa/skin_pool.h"
#include "test_common.h"

#define POOL_N 5000u

typedef struct count_ctx {
    atomic_uint hits[POOL_N];
    atomic_uint calls;
} count_ctx;

static void count_range(void *p, uint32_t begin, uint32_t end)
{
    count_ctx *c = p;
    atomic_fetch_add(&c->calls, 1);
    for (uint32_t i = begin; i < end; i++)
        atomic_fetch_add_explicit(&c->hits[i], 1, memory_order_relaxed);
}

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

static double process_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define STALL_N 16000u

typedef struct stall_ctx {
    pthread_t caller;
    atomic_uint caller_indices, worker_indices, worker_calls;
    atomic_uint hits[STALL_N];
    long stall_us;
} stall_ctx;

/* The worker stalls in its first chunk, as if the OS had preempted it. */
static void stall_range(void *p, uint32_t begin, uint32_t end)
{
    stall_ctx *c = p;
    for (uint32_t i = begin; i < end; i++)
        atomic_fetch_add_explicit(&c->hits[i], 1, memory_order_relaxed);
    if (pthread_equal(pthread_self(), c->caller)) {
        atomic_fetch_add(&c->caller_indices, end - begin);
        return;
    }
    atomic_fetch_add(&c->worker_indices, end - begin);
    if (atomic_fetch_add(&c->worker_calls, 1) == 0)
        sleep_us(c->stall_us);
}

static void check_stalled_worker(void)
{
    static stall_ctx c;
    ossa_skin_pool *pool = NULL;
    CHECK(ossa_skin_pool_create(2, &pool, NULL) == OSSA_OK);
    if (!pool)
        return;
    c.caller = pthread_self();
    c.stall_us = (long)(100000 * test_time_factor());
    ossa_skin_pool_for(pool, 0, STALL_N, 16, stall_range, &c);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < STALL_N; i++)
        bad += atomic_load(&c.hits[i]) != 1;
    CHECKF(bad == 0, "stalled worker: %u indices not run exactly once", bad);
    /* a fixed half per thread would leave 8000 to the stalled worker */
    uint32_t worker = atomic_load(&c.worker_indices), caller = atomic_load(&c.caller_indices);
    CHECKF(worker <= STALL_N / 8 && caller + worker == STALL_N,
           "stalled worker ran %u of %u indices (caller %u)", worker, STALL_N, caller);
    ossa_skin_pool_destroy(pool);
}

/* One worker's piece: the caller waits (yielding) until the worker has burnt 0.5 ms of its own
 * CPU time on the other piece, so every dispatch makes the worker run. */
typedef struct burn_ctx {
    pthread_t caller;
    atomic_int worker_done;
} burn_ctx;

static double thread_cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void burn_range(void *p, uint32_t begin, uint32_t end)
{
    burn_ctx *b = p;
    (void)begin, (void)end;
    if (pthread_equal(pthread_self(), b->caller)) {
        double t0 = process_cpu_s();
        while (!atomic_load(&b->worker_done) && process_cpu_s() - t0 < 5.0)
            sched_yield();
        return;
    }
    double t0 = thread_cpu_s();
    while (thread_cpu_s() - t0 < 0.0005)
        ;
    atomic_store(&b->worker_done, 1);
}

/* The workers' CPU clock counts what they ran, read right after the dispatch (ossa bench adds
 * it to the caller's clock; the process clock counts a thread running on another CPU late). */
static void check_worker_cpu(void)
{
    CHECK(ossa_skin_pool_worker_cpu_seconds(NULL) == 0.0);
    ossa_skin_pool *pool = NULL;
    CHECK(ossa_skin_pool_create(2, &pool, NULL) == OSSA_OK);
    if (!pool)
        return;
    double least = 1e9;
    for (int round = 0; round < 10; round++) {
        burn_ctx b = {.caller = pthread_self()};
        double w0 = ossa_skin_pool_worker_cpu_seconds(pool);
        ossa_skin_pool_for(pool, 0, 2, 1, burn_range, &b);
        double ran = ossa_skin_pool_worker_cpu_seconds(pool) - w0;
        if (atomic_load(&b.worker_done))
            least = ran < least ? ran : least;
    }
    CHECKF(least >= 0.0005 && least < 1.0, "the worker's clock moved %.6f s for 0.0005 s run",
           least);
    ossa_skin_pool_destroy(pool);
}

#define HOME_CHUNKS 16u
#define HOME_ALIGN 64u

typedef struct home_ctx {
    pthread_t caller;
    atomic_int by[HOME_CHUNKS]; /* 1: the caller ran the chunk, 2: the worker */
} home_ctx;

static void home_range(void *p, uint32_t begin, uint32_t end)
{
    home_ctx *h = p;
    for (uint32_t i = begin; i < end; i += HOME_ALIGN)
        atomic_store(&h->by[i / HOME_ALIGN], pthread_equal(pthread_self(), h->caller) ? 1 : 2);
    sleep_us(20); /* long enough for both to take part */
}

/* Whoever runs which chunk depends on timing; the order does not: in the caller's home (chunks
 * 0-7 of 16 on 2 threads) its chunks come before any the worker stole, and in the worker's home
 * (8-15) the worker's come before any the caller stole. */
static void check_homes(void)
{
    static home_ctx h;
    ossa_skin_pool *pool = NULL;
    CHECK(ossa_skin_pool_create(2, &pool, NULL) == OSSA_OK);
    if (!pool)
        return;
    h.caller = pthread_self();
    uint32_t bad = 0;
    for (int d = 0; d < 50; d++) {
        for (uint32_t i = 0; i < HOME_CHUNKS; i++)
            atomic_store(&h.by[i], 0);
        ossa_skin_pool_for(pool, 0, HOME_CHUNKS * HOME_ALIGN, HOME_ALIGN, home_range, &h);
        for (uint32_t home = 0; home < 2; home++) {
            int owner = home == 0 ? 1 : 2, stolen = 0;
            for (uint32_t i = home * HOME_CHUNKS / 2; i < (home + 1) * HOME_CHUNKS / 2; i++) {
                int by = atomic_load(&h.by[i]);
                bad += by == 0 || (stolen && by == owner);
                stolen |= by != owner;
            }
        }
    }
    CHECKF(bad == 0, "homes: %u chunks not run, or run by their owner after a stolen one", bad);
    ossa_skin_pool_destroy(pool);
}

#define EVEN_MAX_CALLS 64u

typedef struct even_ctx {
    atomic_uint calls;
    uint32_t begin[EVEN_MAX_CALLS], end[EVEN_MAX_CALLS];
} even_ctx;

static void even_range(void *p, uint32_t begin, uint32_t end)
{
    even_ctx *c = p;
    uint32_t i = atomic_fetch_add(&c->calls, 1);
    if (i < EVEN_MAX_CALLS) {
        c->begin[i] = begin;
        c->end[i] = end;
    }
}

/* Homes are even in blocks of align, not in chunks: n elements in blocks of `align` on 2 threads
 * split at block blocks / 2 (element `split`), so no call straddles it, and no chunk is longer
 * than `longest`, an eighth of a home rounded up to blocks. One grid of chunks over 1000 elements made chunks of 64 and
 * split at 512 (homes of 512 and 488). */
static void check_even_homes(uint32_t n, uint32_t split, uint32_t longest, uint32_t align)
{
    static even_ctx c;
    ossa_skin_pool *pool = NULL;
    CHECK(ossa_skin_pool_create(2, &pool, NULL) == OSSA_OK);
    if (!pool)
        return;
    uint32_t bad = 0, covered = 0;
    for (int d = 0; d < 20; d++) {
        atomic_store(&c.calls, 0);
        ossa_skin_pool_for(pool, 0, n, align, even_range, &c);
        uint32_t calls = atomic_load(&c.calls);
        bad += calls > EVEN_MAX_CALLS;
        for (uint32_t i = 0; i < calls && i < EVEN_MAX_CALLS; i++) {
            bad += c.begin[i] < split && c.end[i] > split;
            bad += c.end[i] - c.begin[i] > longest || c.begin[i] % align != 0;
            covered += c.end[i] - c.begin[i];
        }
    }
    CHECKF(bad == 0 && covered == 20 * n, "%u elements: %u chunks straddle %u or are too long",
           n, bad, split);
    ossa_skin_pool_destroy(pool);
}

/* The align that shares a crowd out most evenly: 100 characters in groups of 8 on 2 threads go
 * in blocks of 10 (50 and 50, not 48 and 52), 1000 likewise (not 496 and 504); 10000 in blocks
 * of 8 already share evenly; under 4 groups a thread, one even share a thread (one element at
 * the least); one thread, or none, keeps the group. */
static void check_align(void)
{
    ossa_skin_pool *two = NULL, *one = NULL;
    CHECK(ossa_skin_pool_create(2, &two, NULL) == OSSA_OK);
    CHECK(ossa_skin_pool_create(1, &one, NULL) == OSSA_OK);
    CHECK(ossa_skin_pool_align(two, 100, 8) == 10);
    CHECK(ossa_skin_pool_align(two, 1000, 8) == 10);
    CHECK(ossa_skin_pool_align(two, 10000, 8) == 8);
    CHECK(ossa_skin_pool_align(two, 64, 8) == 8);
    CHECK(ossa_skin_pool_align(two, 63, 8) == 32);
    CHECK(ossa_skin_pool_align(two, 10, 8) == 5);
    CHECK(ossa_skin_pool_align(two, 1, 8) == 1);
    CHECK(ossa_skin_pool_align(two, 0, 8) == 1);
    CHECK(ossa_skin_pool_align(two, 7, 0) == 4);
    CHECK(ossa_skin_pool_align(one, 100, 8) == 8);
    CHECK(ossa_skin_pool_align(NULL, 100, 8) == 8);
    CHECK(ossa_skin_pool_align(two, UINT32_MAX, UINT32_MAX) == (UINT32_MAX >> 1) + 1);
    uint32_t huge = ossa_skin_pool_align(two, UINT32_MAX, 1u << 28);
    CHECKF(huge >= 1u << 28 && huge < (1u << 28) + 16, "%u", huge);
    check_even_homes(100, 50, 10, 10);
    ossa_skin_pool_destroy(two);
    ossa_skin_pool_destroy(one);
}

int main(void)
{
    static count_ctx c;
    for (uint32_t threads = 2; threads <= 4; threads++) {
        ossa_skin_pool *pool = NULL;
        CHECK(ossa_skin_pool_create(threads, &pool, NULL) == OSSA_OK);
        if (!pool)
            break;
        CHECK(ossa_skin_pool_threads(pool) == threads);
        uint32_t bad = 0;
        for (uint32_t d = 0; d < 300; d++) {
            uint32_t begin = d % 7, end = POOL_N - (d % 13), align = 1 + d % 16;
            for (uint32_t i = 0; i < POOL_N; i++)
                atomic_store(&c.hits[i], 0);
            ossa_skin_pool_for(pool, begin, end, align, count_range, &c);
            for (uint32_t i = 0; i < POOL_N; i++)
                bad += atomic_load(&c.hits[i]) != (i >= begin && i < end ? 1u : 0u);
            /* now and then, pause past the spin window so workers go to sleep */
            if (d % 50 == 49)
                sleep_us(2000);
        }
        CHECKF(bad == 0, "%u threads: %u indices not run exactly once", threads, bad);

        /* idle: after the spin window the workers sleep (checked with the most workers) */
        if (threads == 4) {
            sleep_us(5000);
            double t0 = process_cpu_s();
            sleep_us(50000);
            double idle = process_cpu_s() - t0;
            CHECKF(idle < 0.01, "%u threads: idle pool used %.3f s of CPU in 0.05 s", threads, idle);
        }
        ossa_skin_pool_destroy(pool);
    }
    check_stalled_worker();
    check_worker_cpu();
    check_homes();
    check_even_homes(1000, 62 * 8, 8 * 8, 8);  /* 125 blocks: homes of 62 and 63 */
    check_even_homes(100, 6 * 8, 8, 8);      /* 13 blocks: homes of 6 and 7, chunks of 1 */
    check_align();
    /* one participant runs on the caller; an empty range runs nothing */
    ossa_skin_pool *one = NULL;
    CHECK(ossa_skin_pool_create(1, &one, NULL) == OSSA_OK);
    atomic_store(&c.calls, 0);
    ossa_skin_pool_for(one, 0, 10, 4, count_range, &c);
    ossa_skin_pool_for(one, 5, 5, 4, count_range, &c);
    CHECK(atomic_load(&c.calls) == 1);
    ossa_skin_pool_destroy(one);
    ossa_skin_pool *none = NULL;
    CHECK(ossa_skin_pool_create(0, &none, NULL) == OSSA_ERR_INVALID_ARGUMENT && none == NULL);
    return test_finish("skin-pool");
}
