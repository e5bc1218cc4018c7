#include "png_write.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libpng reports errors by longjmp; everything the jump must see is kept in this struct so no
 * local variable changes between setjmp and the jump. */
typedef struct png_job {
    FILE *file;
    png_structp png;
    png_infop info;
    uint8_t *row;
} png_job;

/* Releases everything; false when closing the file failed (a full disk shows up here). */
static bool png_job_end(png_job *job)
{
    if (job->png)
        png_destroy_write_struct(&job->png, job->info ? &job->info : NULL);
    bool closed = !job->file || fclose(job->file) == 0;
    job->file = NULL;
    free(job->row);
    job->row = NULL;
    return closed;
}

static bool write_rows(png_job *job, const uint8_t *rgba, int width, int height, bool bottom_up)
{
    if (setjmp(png_jmpbuf(job->png)))
        return false;
    png_init_io(job->png, job->file);
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
    job.file = fopen(path, "wb");
    if (!job.file) {
        snprintf(err, err_size, "%s: cannot create: %s", path, strerror(errno));
        png_job_end(&job);
        return false;
    }
    job.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    job.info = job.png ? png_create_info_struct(job.png) : NULL;
    bool ok = job.png && job.info && write_rows(&job, rgba, width, height, bottom_up);
    ok = png_job_end(&job) && ok;
    if (!ok) {
        snprintf(err, err_size, "%s: cannot write the PNG", path);
        remove(path);
        return false;
    }
    return true;
}
