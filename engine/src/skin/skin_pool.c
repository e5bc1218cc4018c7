/* Persistent pthread pool: workers are created once and sleep on a condition variable; a dispatch
 * publishes one range function under the mutex, bumps a generation counter and waits until every
 * worker has finished its slice. No allocation after create. */
#include <pthread.h>
#include <stdlib.h>
#include "skin_internal.h"

#define POOL_MAX_THREADS 256u

typedef struct pool_worker {
    struct ossa_skin_pool *pool;
    uint32_t index;   /* 1..threads-1; the caller is slice 0 */
    pthread_t thread;
} pool_worker;

struct ossa_skin_pool {
    uint32_t threads;
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    uint64_t generation;
    uint32_t pending;  /* workers still running the current dispatch */
    int quit;
    /* the current dispatch */
    ossa_skin_range_fn fn;
    void *ctx;
    uint32_t begin, end, align;
    uint32_t started; /* workers successfully created */
    pool_worker *workers;
};

/* Slice i of n over [begin, end), bounds rounded to multiples of align (relative to 0). */
static void slice(uint32_t begin, uint32_t end, uint32_t align, uint32_t i, uint32_t n,
                  uint32_t *b, uint32_t *e)
{
    uint64_t span = end - begin;
    uint64_t lo = begin + span * i / n, hi = begin + span * (i + 1) / n;
    lo = (lo + align - 1) / align * align;
    hi = (hi + align - 1) / align * align;
    if (i == 0)
        lo = begin;
    if (i + 1 == n || hi > end)
        hi = end;
    if (lo > end)
        lo = end;
    if (hi < lo)
        hi = lo;
    *b = (uint32_t)lo;
    *e = (uint32_t)hi;
}

static void *worker_main(void *arg)
{
    pool_worker *w = arg;
    struct ossa_skin_pool *p = w->pool;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->generation == seen)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->quit)
            break;
        seen = p->generation;
        ossa_skin_range_fn fn = p->fn;
        void *ctx = p->ctx;
        uint32_t b, e;
        slice(p->begin, p->end, p->align, w->index, p->threads, &b, &e);
        pthread_mutex_unlock(&p->lock);
        if (b < e)
            fn(ctx, b, e);
        pthread_mutex_lock(&p->lock);
        if (--p->pending == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static void pool_stop(struct ossa_skin_pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->quit = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (uint32_t i = 0; i < p->started; i++)
        pthread_join(p->workers[i].thread, NULL);
}

ossa_status ossa_skin_pool_create(uint32_t threads, ossa_skin_pool **out)
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
    if (!p->workers) {
        free(p);
        return OSSA_ERR_NOMEM;
    }
    if (pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p->workers);
        free(p);
        return OSSA_ERR_NOMEM;
    }
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->lock);
        free(p->workers);
        free(p);
        return OSSA_ERR_NOMEM;
    }
    if (pthread_cond_init(&p->done, NULL) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
        free(p->workers);
        free(p);
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

void ossa_skin_pool_destroy(ossa_skin_pool *p)
{
    if (!p)
        return;
    pool_stop(p);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p->workers);
    free(p);
}

uint32_t ossa_skin_pool_threads(const ossa_skin_pool *p)
{
    return p ? p->threads : 1;
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
    pthread_mutex_lock(&p->lock);
    p->fn = fn;
    p->ctx = ctx;
    p->begin = begin;
    p->end = end;
    p->align = align;
    p->pending = p->threads - 1;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);

    uint32_t b, e;
    slice(begin, end, align, 0, p->threads, &b, &e);
    if (b < e)
        fn(ctx, b, e);

    pthread_mutex_lock(&p->lock);
    while (p->pending)
        pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

static void run_slice(void *ctx, uint32_t begin, uint32_t end)
{
    ossa_skin_job job = *(const ossa_skin_job *)ctx;
    job.begin = begin;
    job.end = end;
    ossa_skin_job_run(&job);
}

ossa_status ossa_skin_run_parallel(ossa_skin_pool *pool, const ossa_skin_job *job)
{
    ossa_status st = ossa_skin_job_validate(job);
    if (st != OSSA_OK)
        return st;
    if (!pool || pool->threads == 1)
        return ossa_skin_job_run(job);
    ossa_skin_pool_for(pool, job->begin, job->end, OSSA_SKIN_BLOCK, run_slice, (void *)job);
    return OSSA_OK;
}
