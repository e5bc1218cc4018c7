/* Tiny assertion helpers shared by the test programs (exit 77 = skipped for meson). */
#ifndef OSSA_TEST_COMMON_H
#define OSSA_TEST_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TEST_SKIP 77

extern int test_failures;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            test_failures++;                                                          \
        }                                                                             \
    } while (0)

#define CHECKF(cond, ...)                                                 \
    do {                                                                  \
        if (!(cond)) {                                                    \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                 \
            fputc('\n', stderr);                                          \
            test_failures++;                                              \
        }                                                                 \
    } while (0)

#define CHECK_NEAR(a, b, tol) \
    CHECKF(fabs((double)(a) - (double)(b)) <= (tol), "%.9g vs %.9g (tol %g)", (double)(a), (double)(b), (double)(tol))

/* Folder of the shared real assets, or NULL when absent (tests then skip). */
const char *test_assets_dir(void);
/* Joins dir and name into a static-free caller buffer. */
const char *test_path(char *buf, size_t size, const char *dir, const char *name);
/* Reads a whole file; NULL on failure. Caller frees. */
uint8_t *test_read_file(const char *path, size_t *size);
/* How much slower than usual this run may be (OSSA_TEST_TIME_FACTOR, e.g. under valgrind; 1 by
 * default): tests that bound a time multiply the bound by it. */
double test_time_factor(void);
/* Exit status for main: 0, or 1 when any check failed; prints a summary line. */
int test_finish(const char *name);

#endif
