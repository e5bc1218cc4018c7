#include "png_write.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/files.h"

/* libpng reports errors by longjmp; everything the jump must see is kept in this struct so no
 * local variable changes between setjmp and the jump. */
typedef struct png_job {
    uint8_t *bytes; /* the PNG file, built in memory and written whole by ossa_file_write */
    size_t size, cap;
    bool failed;
    png_structp png;
    png_infop info;
    uint8_t *row;
} png_job;

static void png_job_end(png_job *job)
{
    if (job->png)
        png_destroy_write_struct(&job->png, job->info ? &job->info : NULL);
    free(job->row);
    job->row = NULL;
}

static void put_bytes(png_structp png, png_bytep data, size_t n)
{
    png_job *job = png_get_io_ptr(png);
    if (job->failed)
        return;
    if (n > job->cap - job->size) {
        size_t cap = job->cap ? job->cap : 65536;
        while (cap - job->size < n && cap < SIZE_MAX / 2)
            cap *= 2;
        uint8_t *grown = cap - job->size >= n ? realloc(job->bytes, cap) : NULL;
        if (!grown) {
            job->failed = true;
            return;
        }
        job->bytes = grown;
        job->cap = cap;
    }
    memcpy(job->bytes + job->size, data, n);
    job->size += n;
}

static void flush_bytes(png_structp png)
{
    (void)png;
}

static bool write_rows(png_job *job, const uint8_t *rgba, int width, int height, bool bottom_up)
{
    if (setjmp(png_jmpbuf(job->png)))
        return false;
    png_set_write_fn(job->png, job, put_bytes, flush_bytes);
    png_set_IHDR(job->png, job->info, (png_uint_32)width, (png_uint_32)height, 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(job->png, job->info);
    for (int y = 0; y < height; y++) {
        int src_y = bottom_up ? height - 1 - y : y;
        const uint8_t *src = rgba + (size_t)src_y * (size_t)width * 4;
        for (int x = 0; x < width; x++)
            memcpy(job->row + 3 * (size_t)x, src + 4 * (size_t)x, 3);
        png_write_row(job->png, job->row);
    }
    png_write_end(job->png, NULL);
    return true;
}

bool view_write_png(const char *path, const uint8_t *rgba, int width, int height, bool bottom_up,
                    char *err, size_t err_size)
{
    if (width <= 0 || height <= 0) {
        snprintf(err, err_size, "%s: bad image size %dx%d", path, width, height);
        return false;
    }
    png_job job = {0};
    job.row = malloc(3 * (size_t)width);
    if (!job.row) {
        snprintf(err, err_size, "%s: out of memory", path);
        return false;
    }
    job.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    job.info = job.png ? png_create_info_struct(job.png) : NULL;
    bool ok = job.png && job.info && write_rows(&job, rgba, width, height, bottom_up) &&
              !job.failed;
    png_job_end(&job);
    if (!ok) {
        snprintf(err, err_size, "%s: cannot encode the PNG", path);
        free(job.bytes);
        return false;
    }
    /* as every output: a temporary renamed into place, never through a link */
    ossa_error werr;
    ossa_status st = ossa_file_write(path, job.bytes, job.size, NULL, &werr);
    free(job.bytes);
    if (st != OSSA_OK) {
        ossa_error_format(&werr, err, (unsigned)err_size);
        return false;
    }
    return true;
}
