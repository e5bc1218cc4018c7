/* Persistent pthread pool: workers are created once. A dispatch gives each participant (the
 * caller is 0) an even share of its range's aligned blocks, its home, cut into small chunks
 * (about 8, bounds on multiples of the caller's alignment) and published in an atomic word of
 * its own (dispatch number, end, next chunk of that home); then it bumps a generation counter.
 * Homes are even in blocks, not in chunks: with one grid of chunks over the whole range, 100
 * characters in pieces of 8 went 48 and 52 to two threads, and the shorter home's owner then
 * raced the other for its last chunk, moving those characters between the cores' caches every
 * other frame. Each participant claims its home's chunks from the front, then steals from the
 * back of the others' until none is left, and the caller waits until every chunk is done. So on
 * a quiet machine a participant runs the same elements every dispatch (a crowd's characters
 * stay in one core's caches: chunks taken first come first served moved them from core to core
 * every frame), and a worker that the OS preempts holds at most the one chunk it is running:
 * the others take the rest (a fixed half per thread made the whole dispatch wait for the
 * slowest core). A worker that arrives late finds the words at another dispatch, or exhausted,
 * and goes back to waiting without touching the dispatch's fields; those fields only change
 * after every chunk of their dispatch is done, and a claimed chunk is not done until its
 * claimer finishes it.
 *
 * Waiting is spin-then-block on both sides: a worker that has just finished spins for at most
 * POOL_SPIN_NS waiting for the next dispatch (frames and benchmarks dispatch back to back, and
 * a condition-variable wake-up costs tens of microseconds on a VM), then sleeps on a condition
 * variable; the caller likewise spins at most POOL_SPIN_NS for the chunks to finish before
 * sleeping. So an idle pool sleeps (no CPU) at most POOL_SPIN_NS after its last dispatch.
 * Sleepers are counted so a dispatch only takes the mutex when someone sleeps; the counters are
 * sequentially consistent, so a waker and a would-be sleeper cannot miss each other. No
 * allocation after create. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include "core/error.h"
#include "skin_internal.h"

#define POOL_MAX_THREADS 256u
#ifndef POOL_SPIN_NS
#define POOL_SPIN_NS 20000 /* tens of microseconds, and only right after a dispatch */
#endif

typedef struct pool_home {
    _Alignas(64) atomic_uint_fast64_t claim;
    /* the current dispatch's home, in blocks of align from the range's aligned base: written
     * before the claim word is published, read after a claim acquires it */
    uint32_t first, stop, chunk_blocks;
} pool_home;

typedef struct pool_worker {
    struct ossa_skin_pool *pool;
    uint32_t index;   /* 1..threads-1; the caller is slice 0 */
    pthread_t thread;
} pool_worker;

struct ossa_skin_pool {
    uint32_t threads;
    pthread_mutex_t lock;
    pthread_cond_t wake, done_cond;
    atomic_uint_fast64_t generation; /* bumped by every dispatch: wakes the workers */
    /* Each participant's home: dispatch number << 32 | end << 16 | next chunk of that home, and
     * the home's blocks, a line each. */
    pool_home *homes;
    atomic_uint done;          /* chunks of the current dispatch finished */
    atomic_uint sleepers;      /* workers blocked (or about to block) on `wake` */
    atomic_int caller_waiting; /* the caller blocked (or about to block) on `done` */
    atomic_int quit;
    /* the current dispatch: written before the generation is bumped */
    ossa_skin_range_fn fn;
    void *ctx;
    uint32_t begin, end, align;
    uint32_t count;                    /* chunks of the current dispatch, all homes together */
    uint32_t dispatch;                 /* number of the current dispatch (wraps) */
    uint32_t started; /* workers successfully created */
    pool_worker *workers;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Spins at most POOL_SPIN_NS for a generation other than `seen` (or quit); 1 when one came. */
static int spin_for_generation(struct ossa_skin_pool *p, uint64_t seen)
{
    int64_t start = now_ns();
    for (;;) {
        for (int i = 0; i < 64; i++) {
            if (atomic_load_explicit(&p->generation, memory_order_acquire) != seen ||
                atomic_load_explicit(&p->quit, memory_order_relaxed))
                return 1;
            cpu_relax();
        }
        if (now_ns() - start > POOL_SPIN_NS)
            return 0;
    }
}

static int spin_for_done(struct ossa_skin_pool *p, uint32_t count)
{
    int64_t start = now_ns();
    for (;;) {
        for (int i = 0; i < 64; i++) {
            if (atomic_load_explicit(&p->done, memory_order_acquire) == count)
                return 1;
            cpu_relax();
        }
        if (now_ns() - start > POOL_SPIN_NS)
            return 0;
    }
}

/* Where home t of `threads` begins among `blocks` blocks (it ends where home t + 1 begins): an
 * even share each, for the dispatch and for ossa_skin_pool_align's forecast alike. */
static uint64_t home_first(uint64_t blocks, uint32_t t, uint32_t threads)
{
    return blocks * t / threads;
}

#define POOL_CHUNKS_PER_THREAD 8u
#define POOL_MAX_CHUNKS 0xffffu

/* Chunk i of home h of the current dispatch: its inner bounds on multiples of align (relative to
 * 0), the first chunk of the range starting at begin and the last ending at end. */
static void chunk_bounds(const struct ossa_skin_pool *p, const pool_home *h, uint32_t i,
                         uint32_t *b, uint32_t *e)
{
    uint64_t base = (uint64_t)p->begin / p->align * p->align;
    uint64_t first = (uint64_t)h->first + (uint64_t)i * h->chunk_blocks;
    uint64_t stop = first + h->chunk_blocks < h->stop ? first + h->chunk_blocks : h->stop;
    uint64_t lo = base + first * p->align, hi = base + stop * p->align;
    if (lo < p->begin)
        lo = p->begin;
    if (hi > p->end)
        hi = p->end;
    *b = (uint32_t)lo;
    *e = (uint32_t)(hi < lo ? lo : hi);
}

/* Takes a chunk of home `h` of whatever dispatch its word holds, from the front (the owner) or
 * the back (a thief); 0 when none is left there. */
static int claim_from(struct ossa_skin_pool *p, uint32_t h, int front, uint32_t *chunk)
{
    atomic_uint_fast64_t *word = &p->homes[h].claim;
    uint_fast64_t v = atomic_load_explicit(word, memory_order_acquire);
    for (;;) {
        uint32_t next = (uint32_t)(v & 0xffffu), end = (uint32_t)((v >> 16) & 0xffffu);
        if (next >= end)
            return 0;
        uint_fast64_t taken = front ? v + 1 : v - ((uint_fast64_t)1 << 16);
        if (atomic_compare_exchange_weak_explicit(word, &v, taken, memory_order_acq_rel,
                                                  memory_order_acquire)) {
            *chunk = front ? next : end - 1;
            return 1;
        }
    }
}

/* Takes the next chunk for participant `self`: its home's, else another's, into *home and
 * *chunk. Returns the chunk count of that chunk's dispatch in *count (its fields were published
 * before its words). */
static int claim_chunk(struct ossa_skin_pool *p, uint32_t self, uint32_t *home, uint32_t *chunk,
                       uint32_t *count)
{
    for (uint32_t k = 0; k < p->threads; k++) {
        uint32_t h = self + k < p->threads ? self + k : self + k - p->threads;
        if (claim_from(p, h, k == 0, chunk)) {
            *home = h;
            *count = p->count;
            return 1;
        }
    }
    return 0;
}

/* Runs chunks until none is left; wakes the caller when it finished the dispatch's last one. */
static void run_chunks(struct ossa_skin_pool *p, uint32_t self)
{
    uint32_t h, i, count;
    while (claim_chunk(p, self, &h, &i, &count)) {
        uint32_t b, e;
        chunk_bounds(p, &p->homes[h], i, &b, &e);
        if (b < e)
            p->fn(p->ctx, b, e);
        if (atomic_fetch_add(&p->done, 1) + 1 == count && atomic_load(&p->caller_waiting)) {
            pthread_mutex_lock(&p->lock);
            pthread_cond_signal(&p->done_cond);
            pthread_mutex_unlock(&p->lock);
        }
    }
}

static void *worker_main(void *arg)
{
    pool_worker *w = arg;
    struct ossa_skin_pool *p = w->pool;
    uint64_t seen = 0;
    int spin = 0; /* no dispatch yet: sleep straight away */
    for (;;) {
        if (!spin || !spin_for_generation(p, seen)) {
            pthread_mutex_lock(&p->lock);
            atomic_fetch_add(&p->sleepers, 1);
            while (!atomic_load(&p->quit) && atomic_load(&p->generation) == seen)
                pthread_cond_wait(&p->wake, &p->lock);
            atomic_fetch_sub(&p->sleepers, 1);
            pthread_mutex_unlock(&p->lock);
        }
        if (atomic_load(&p->quit))
            break;
        seen = atomic_load_explicit(&p->generation, memory_order_acquire);
        run_chunks(p, w->index);
        spin = 1;
    }
    return NULL;
}

static void pool_stop(struct ossa_skin_pool *p)
{
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->quit, 1);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (uint32_t i = 0; i < p->started; i++)
        pthread_join(p->workers[i].thread, NULL);
}

static void pool_free(struct ossa_skin_pool *p)
{
    free(p->homes);
    free(p->workers);
    free(p);
}

static ossa_status pool_create(uint32_t threads, ossa_skin_pool **out)
{
    if (!out)
        return OSSA_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (threads < 1 || threads > POOL_MAX_THREADS)
        return OSSA_ERR_INVALID_ARGUMENT;
    struct ossa_skin_pool *p = calloc(1, sizeof *p);
    if (!p)
        return OSSA_ERR_NOMEM;
    p->threads = threads;
    p->workers = calloc(threads, sizeof *p->workers);
    p->homes = aligned_alloc(_Alignof(pool_home), threads * sizeof *p->homes);
    if (!p->workers || !p->homes) {
        pool_free(p);
        return OSSA_ERR_NOMEM;
    }
    for (uint32_t t = 0; t < threads; t++)
        atomic_init(&p->homes[t].claim, 0);
    if (pthread_mutex_init(&p->lock, NULL) != 0) {
        pool_free(p);
        return OSSA_ERR_NOMEM;
    }
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->lock);
        pool_free(p);
        return OSSA_ERR_NOMEM;
    }
    if (pthread_cond_init(&p->done_cond, NULL) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
        pool_free(p);
        return OSSA_ERR_NOMEM;
    }
    for (uint32_t i = 0; i + 1 < threads; i++) {
        p->workers[i].pool = p;
        p->workers[i].index = i + 1;
        if (pthread_create(&p->workers[i].thread, NULL, worker_main, &p->workers[i]) != 0) {
            ossa_skin_pool_destroy(p);
            return OSSA_ERR_NOMEM;
        }
        p->started++;
    }
    *out = p;
    return OSSA_OK;
}

/* WebAssembly built without pthreads (the browser page) links pthread_create as a stub that
 * always fails: say so rather than report the failure as memory. */
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define POOL_HAS_THREADS 0
#else
#define POOL_HAS_THREADS 1
#endif

ossa_status ossa_skin_pool_create(uint32_t threads, ossa_skin_pool **out, ossa_error *err)
{
    if (!POOL_HAS_THREADS && out && threads > 1) {
        *out = NULL;
        return ossa_error_fail(err, OSSA_ERR_UNSUPPORTED,
                               "skin pool of %u threads: this build has no threads", threads);
    }
    return ossa_error_status(err, pool_create(threads, out), "skin pool");
}

void ossa_skin_pool_destroy(ossa_skin_pool *p)
{
    if (!p)
        return;
    pool_stop(p);
    pthread_cond_destroy(&p->done_cond);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    pool_free(p);
}

uint32_t ossa_skin_pool_threads(const ossa_skin_pool *p)
{
    return p ? p->threads : 1;
}

/* Each worker's own CPU clock: Linux brings a running thread's clock up to date when it is read,
 * where the process clock adds the time of threads running on other CPUs only at their next
 * scheduler tick or switch (a round of a few hundred microseconds saw none of it). */
double ossa_skin_pool_worker_cpu_seconds(const ossa_skin_pool *p)
{
    double total = 0.0;
    for (uint32_t i = 0; p && i < p->started; i++) {
        clockid_t id;
        struct timespec ts;
        if (pthread_getcpuclockid(p->workers[i].thread, &id) == 0 &&
            clock_gettime(id, &ts) == 0)
            total += (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    return total;
}

void ossa_skin_pool_for(ossa_skin_pool *p, uint32_t begin, uint32_t end, uint32_t align,
                        ossa_skin_range_fn fn, void *ctx)
{
    if (!fn || begin >= end)
        return;
    if (align < 1)
        align = 1;
    if (!p || p->threads == 1) {
        fn(ctx, begin, end);
        return;
    }
    uint64_t blocks = ((uint64_t)end - (uint64_t)begin / align * align + align - 1) / align;
    if (blocks <= 1) {
        fn(ctx, begin, end);
        return;
    }
    p->fn = fn;
    p->ctx = ctx;
    p->begin = begin;
    p->end = end;
    p->align = align;
    p->dispatch++;
    /* Home t: blocks [blocks x t / T, blocks x (t + 1) / T), in chunks of whole blocks, about
     * POOL_CHUNKS_PER_THREAD of them and never more than a claim word counts. */
    uint64_t count = 0, chunks[POOL_MAX_THREADS];
    for (uint32_t t = 0; t < p->threads; t++) {
        pool_home *h = &p->homes[t];
        uint64_t first = home_first(blocks, t, p->threads);
        uint64_t stop = home_first(blocks, t + 1, p->threads);
        uint64_t per = (stop - first + POOL_CHUNKS_PER_THREAD - 1) / POOL_CHUNKS_PER_THREAD;
        if (per < (stop - first + POOL_MAX_CHUNKS - 1) / POOL_MAX_CHUNKS)
            per = (stop - first + POOL_MAX_CHUNKS - 1) / POOL_MAX_CHUNKS;
        h->first = (uint32_t)first;
        h->stop = (uint32_t)stop;
        h->chunk_blocks = per ? (uint32_t)per : 1u;
        chunks[t] = per ? (stop - first + per - 1) / per : 0;
        count += chunks[t];
    }
    p->count = (uint32_t)count;
    atomic_store(&p->done, 0);
    /* publishes the fields above to whoever claims a chunk */
    for (uint32_t t = 0; t < p->threads; t++)
        atomic_store_explicit(&p->homes[t].claim, (uint_fast64_t)p->dispatch << 32 | chunks[t] << 16,
                              memory_order_release);
    atomic_fetch_add(&p->generation, 1);
    if (atomic_load(&p->sleepers)) {
        /* No more sleepers woken than there are chunks beside the caller's: a few characters on
         * 16 threads woke every worker each frame, for nothing (2 of them ran at 0.43x one
         * thread). A woken worker that finds no chunk left spins, then sleeps again. */
        uint64_t helpers = count - 1;
        pthread_mutex_lock(&p->lock);
        if (helpers >= p->threads - 1)
            pthread_cond_broadcast(&p->wake);
        else
            for (uint64_t i = 0; i < helpers; i++)
                pthread_cond_signal(&p->wake);
        pthread_mutex_unlock(&p->lock);
    }

    run_chunks(p, 0);

    if (!spin_for_done(p, (uint32_t)count)) {
        pthread_mutex_lock(&p->lock);
        atomic_store(&p->caller_waiting, 1);
        while (atomic_load(&p->done) != count)
            pthread_cond_wait(&p->done_cond, &p->lock);
        atomic_store(&p->caller_waiting, 0);
        pthread_mutex_unlock(&p->lock);
    }
}

/* The most elements any home holds when [0, count) in blocks of `piece` is shared out as
 * ossa_skin_pool_for shares it. */
static uint64_t largest_home(uint32_t threads, uint32_t count, uint32_t piece)
{
    uint64_t blocks = ((uint64_t)count + piece - 1) / piece, most = 0;
    for (uint32_t t = 0; t < threads; t++) {
        uint64_t lo = home_first(blocks, t, threads) * piece;
        uint64_t hi = home_first(blocks, t + 1, threads) * piece;
        hi = hi < count ? hi : count;
        if (hi > lo && hi - lo > most)
            most = hi - lo;
    }
    return most;
}

uint32_t ossa_skin_pool_align(const ossa_skin_pool *p, uint32_t count, uint32_t group)
{
    if (group < 1)
        group = 1;
    if (!p || p->threads == 1)
        return group;
    if ((uint64_t)count < 4ull * p->threads * group)
        return count >= p->threads ? (uint32_t)(((uint64_t)count + p->threads - 1) / p->threads)
                                   : 1;
    uint32_t best = group;
    uint64_t least = largest_home(p->threads, count, group);
    for (uint32_t step = 1; step < 16 && step < group && group + step > group; step++) {
        uint64_t most = largest_home(p->threads, count, group + step);
        if (most < least) {
            least = most;
            best = group + step;
        }
    }
    return best;
}

static void run_slice(void *ctx, uint32_t begin, uint32_t end)
{
    ossa_skin_job job = *(const ossa_skin_job *)ctx;
    job.begin = begin;
    job.end = end;
    ossa_skin_job_run(&job, NULL); /* validated whole by ossa_skin_job_run */
}

void ossa_skin_pool_run_job(const ossa_skin_job *job)
{
    /* AUTO's kernel and store are by the size of the whole job, not of each slice; the slices
     * run on the thread that claims them. */
    ossa_skin_job whole = *job;
    whole.kernel = ossa_skin_job_kernel(job);
    whole.store = ossa_skin_job_streams(job) ? OSSA_SKIN_STORE_STREAM : OSSA_SKIN_STORE_CACHED;
    whole.pool = NULL;
    ossa_skin_pool_for(job->pool, job->begin, job->end, OSSA_SKIN_BLOCK, run_slice, &whole);
}
