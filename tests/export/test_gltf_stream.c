/* ossa_export_glb_stream: the same bytes as a .glb written to a file, handed over in order; a
 * writer that stops fails the export with OSSA_ERR_IO and a message; bad arguments are refused. */
#define _DEFAULT_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "demo.h"
#include "ossa/export.h"
#include "test_common.h"

typedef struct sink {
    uint8_t *data;
    size_t size, cap;
    unsigned calls, stop_after; /* 0: never stop */
} sink;

static bool collect(void *user, const void *data, size_t size)
{
    sink *s = user;
    if (s->stop_after && s->calls >= s->stop_after)
        return false;
    s->calls++;
    if (s->size + size > s->cap) {
        size_t cap = (s->size + size) * 2;
        uint8_t *grown = realloc(s->data, cap);
        if (!grown)
            return false;
        s->data = grown;
        s->cap = cap;
    }
    memcpy(s->data + s->size, data, size);
    s->size += size;
    return true;
}

int main(void)
{
    ossa_model *m = NULL;
    ossa_error err;
    CHECK(ossa_demo_model(&m, &err) == OSSA_OK);
    if (!m)
        return test_finish("gltf-stream");
    char dir[] = "/tmp/ossa-gltf-stream-XXXXXX", path[256];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/demo.glb", dir);
    CHECK(ossa_export_gltf(m, path, NULL, &err) == OSSA_OK);
    size_t file_size = 0;
    uint8_t *file = test_read_file(path, &file_size);
    CHECK(file != NULL && file_size > 20);

    sink s = {0};
    CHECK(ossa_export_glb_stream(m, NULL, collect, &s, &err) == OSSA_OK);
    CHECKF(s.size == file_size && file && !memcmp(s.data, file, file_size),
           "stream of %zu bytes, file of %zu: they differ", s.size, file_size);
    CHECK(s.calls >= 2); /* header and JSON, then the binary chunk */

    sink stop = {.stop_after = 1};
    CHECK(ossa_export_glb_stream(m, NULL, collect, &stop, &err) == OSSA_ERR_IO);
    CHECK(err.status == OSSA_ERR_IO && strstr(err.message, "stopped") != NULL);

    CHECK(ossa_export_glb_stream(m, NULL, NULL, NULL, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_export_glb_stream(NULL, NULL, collect, &s, &err) == OSSA_ERR_INVALID_ARGUMENT);

    free(s.data);
    free(stop.data);
    free(file);
    unlink(path);
    rmdir(dir);
    ossa_model_destroy(m);
    return test_finish("gltf-stream");
}
