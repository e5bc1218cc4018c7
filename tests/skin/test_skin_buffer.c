/* ossa_skin_buffer_alloc: zeroed, 64-byte aligned; large buffers 2 MB aligned (so huge pages can
 * back all of them); impossible sizes fail with NULL instead of wrapping around. The crowd store
 * policy streams exactly above half the cache CPUID reports. */
#include <stdint.h>
#include <stdio.h>
#include "ossa/skin.h"
#include "test_common.h"

static void check_buffer(size_t bytes, size_t align)
{
    unsigned char *p = ossa_skin_buffer_alloc(bytes);
    CHECKF(p != NULL, "alloc %zu", bytes);
    if (!p)
        return;
    CHECKF((uintptr_t)p % align == 0, "alloc %zu: %p not %zu-aligned", bytes, (void *)p, align);
    size_t nonzero = 0;
    for (size_t i = 0; i < bytes; i++)
        nonzero += p[i] != 0;
    CHECKF(nonzero == 0, "alloc %zu: %zu bytes not zeroed", bytes, nonzero);
    for (size_t i = 0; i < bytes; i += 4093)
        p[i] = 0xa5; /* the whole size is writable */
    if (bytes)
        p[bytes - 1] = 0x5a;
    ossa_skin_buffer_free(p);
}

static void check_crowd_store(void)
{
    uint64_t cache = ossa_skin_cache_bytes();
    CHECKF(cache >= ((uint64_t)64 << 10) && cache <= ((uint64_t)1 << 40), "cache of %llu bytes",
           (unsigned long long)cache);
    /* a socket-wide L3 larger than the cap counts as the cap */
    uint64_t counted = cache < OSSA_SKIN_CROWD_CACHE_MAX ? cache : OSSA_SKIN_CROWD_CACHE_MAX;
    CHECK(ossa_skin_crowd_store(0) == OSSA_SKIN_STORE_CACHED);
    CHECK(ossa_skin_crowd_store(counted / 2) == OSSA_SKIN_STORE_CACHED);
    CHECK(ossa_skin_crowd_store(counted / 2 + 1) == OSSA_SKIN_STORE_STREAM);
    CHECK(ossa_skin_crowd_store(OSSA_SKIN_CROWD_CACHE_MAX / 2 + 1) == OSSA_SKIN_STORE_STREAM);
    CHECK(ossa_skin_crowd_store(UINT64_MAX) == OSSA_SKIN_STORE_STREAM);
    printf("crowd store: a cache of %llu KB, streaming above %llu KB\n",
           (unsigned long long)(cache >> 10), (unsigned long long)(counted >> 11));
}

int main(void)
{
    check_crowd_store();
    check_buffer(0, 64);
    check_buffer(1, 64);
    check_buffer(12 * 1001, 64);
    check_buffer(OSSA_SKIN_HUGE_BYTES - 1, 64);
    check_buffer(OSSA_SKIN_HUGE_BYTES, (size_t)2 << 20);
    check_buffer(3 * OSSA_SKIN_HUGE_BYTES + 12, (size_t)2 << 20);
    CHECK(ossa_skin_buffer_alloc(SIZE_MAX) == NULL);
    CHECK(ossa_skin_buffer_alloc(SIZE_MAX - 100) == NULL);
    ossa_skin_buffer_free(NULL);
    return test_finish("skin-buffer");
}
