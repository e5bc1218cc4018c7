#include "test_common.h"

#include <string.h>
#include <sys/stat.h>

int test_failures = 0;

const char *test_assets_dir(void)
{
    static const char *fallback = "../shared/assets";
    const char *dir = getenv("OSSA_ASSETS");
    if (!dir)
        dir = fallback;
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return NULL;
    return dir;
}

const char *test_path(char *buf, size_t size, const char *dir, const char *name)
{
    snprintf(buf, size, "%s/%s", dir, name);
    return buf;
}

uint8_t *test_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n < 0) {
        fclose(f);
        return NULL;
    }
    uint8_t *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf)
        *size = (size_t)n;
    return buf;
}

int test_finish(const char *name)
{
    if (test_failures)
        fprintf(stderr, "%s: %d check(s) failed\n", name, test_failures);
    else
        printf("%s: all checks passed\n", name);
    return test_failures ? 1 : 0;
}

double test_time_factor(void)
{
    const char *v = getenv("OSSA_TEST_TIME_FACTOR");
    double f = v ? atof(v) : 1.0;
    return f >= 1.0 ? f : 1.0;
}
