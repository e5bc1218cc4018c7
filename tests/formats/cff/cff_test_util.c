#include "cff_test_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demo.h"
#include "test_common.h"

char *cff_temp_dir(void)
{
    char tmpl[] = "/tmp/ossa-cff-XXXXXX";
    if (!mkdtemp(tmpl))
        return NULL;
    return strdup(tmpl);
}

void cff_remove_dir(char *dir)
{
    if (!dir)
        return;
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            remove(path);
        }
        closedir(d);
    }
    rmdir(dir);
    free(dir);
}

uint8_t *cff_write_demo(const char *dir, const char *name, float frame_rate, char *path_out,
                        size_t path_size, size_t *size)
{
    ossa_model *demo = NULL;
    ossa_error err;
    if (ossa_demo_model(&demo, &err) != OSSA_OK) {
        fprintf(stderr, "demo model: %s\n", err.message);
        return NULL;
    }
    snprintf(path_out, path_size, "%s/%s", dir, name);
    ossa_status st = ossa_write_cff(demo, path_out,
                                    &(ossa_cff_write_options){.frame_rate = frame_rate}, &err);
    ossa_model_destroy(demo);
    if (st != OSSA_OK) {
        char text[1024];
        fprintf(stderr, "ossa_write_cff: %s\n", ossa_error_format(&err, text, sizeof text));
        return NULL;
    }
    return test_read_file(path_out, size);
}

void cff_store_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

void cff_store_f32(uint8_t *p, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    cff_store_u32(p, u);
}

typedef struct grow {
    uint8_t *data;
    size_t size, cap;
    int failed;
} grow;

static size_t put(grow *g, const void *p, size_t n)
{
    size_t at = g->size;
    if (g->failed)
        return at;
    if (g->size + n > g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 1024;
        while (cap < g->size + n)
            cap *= 2;
        uint8_t *d = realloc(g->data, cap);
        if (!d) {
            g->failed = 1;
            return at;
        }
        g->data = d;
        g->cap = cap;
    }
    memcpy(g->data + g->size, p, n);
    g->size += n;
    return at;
}

static size_t put_u32(grow *g, uint32_t v)
{
    uint8_t b[4];
    cff_store_u32(b, v);
    return put(g, b, 4);
}

static size_t put_f32(grow *g, float v)
{
    uint8_t b[4];
    cff_store_f32(b, v);
    return put(g, b, 4);
}

static size_t put_u16(grow *g, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    return put(g, b, 2);
}

/* One mesh: vertices on a small grid, a fan of faces, frames turning about every axis. */
static void put_mesh(grow *g, cff_fixture *f, int i, const char name[4], uint32_t texture,
                     uint32_t nv, uint32_t nf, uint32_t frames)
{
    for (int k = 0; k < 3; k++)
        put_f32(g, 0.5f * (float)k); /* mesh origin: unused */
    f->uv_divisor_at[i] = put_f32(g, 1024.0f);
    put_f32(g, 2.0f); /* radius */
    f->texture_index_at[i] = put_u32(g, texture);
    f->vertex_count_at[i] = put_u32(g, nv);
    f->face_count_at[i] = put_u32(g, nf);
    put_u32(g, 1);
    f->frame_count_at[i] = put_u32(g, frames);
    put(g, name, 4);
    f->vertex_count[i] = nv;
    f->face_count[i] = nf;
    f->frame_count[i] = frames;
    for (uint32_t v = 0; v < nv; v++) {
        int16_t xyz[3] = {(int16_t)(v * 97 % 65535 - 32767), (int16_t)(v % 7 * 4000 - 12000),
                          (int16_t)(-(int)(v * 31 % 20000))};
        for (int k = 0; k < 3; k++)
            put_u16(g, (uint16_t)xyz[k]);
        put_u16(g, (uint16_t)(v * 3));
        put_u16(g, (uint16_t)(int16_t)(-(int)v));
        uint8_t rgb[3] = {(uint8_t)v, 127, 255};
        put(g, rgb, 3);
    }
    for (uint32_t t = 0; t < nf; t++) {
        uint32_t idx[3] = {0, t + 1, t + 2};
        for (int k = 0; k < 3; k++) {
            size_t at = nv <= 256 ? put(g, &(uint8_t){(uint8_t)idx[k]}, 1)
                                  : put_u16(g, (uint16_t)idx[k]);
            if (t == 0 && k == 0)
                f->first_face_at[i] = at;
        }
    }
    f->first_frame_at[i] = 0;
    for (uint32_t k = 0; k < frames; k++) {
        size_t at = put_f32(g, 0.1f * (float)k);
        if (k == 0)
            f->first_frame_at[i] = at;
        put_f32(g, 1.0f);
        put_f32(g, -2.0f + (float)i);
        put_f32(g, 0.3f * (float)k);
        put_f32(g, -0.2f * (float)k + 0.1f * (float)i);
        put_f32(g, 0.7f * (float)k);
        put_f32(g, (float)(k * 2)); /* seventh value */
    }
}

int cff_fixture_make(cff_fixture *f)
{
    memset(f, 0, sizeof *f);
    grow g = {0};
    const float origin[3] = {1.0f, -2.0f, 0.5f}, scale[3] = {4.0f, 2.0f, 8.0f};
    memcpy(f->origin, origin, sizeof origin);
    memcpy(f->scale, scale, sizeof scale);
    for (int k = 0; k < 3; k++)
        put_f32(&g, origin[k]);
    for (int k = 0; k < 3; k++)
        put_f32(&g, scale[k]);
    f->texture_count_at = put_u32(&g, 2);
    f->material_count_at = put_u32(&g, 1);
    f->lod_count_at = put_u32(&g, 2);
    size_t bsp_at = put_u32(&g, 0); /* patched below */
    put_f32(&g, 150.0f);
    put(&g, "\x08hull.tga", 9);
    put(&g, "\x09sails.tga", 10);
    uint8_t block[36] = {1, 0, 0, 0, 2};
    put(&g, block, sizeof block);
    f->material_entry_count_at = put_u32(&g, 2);
    for (int e = 0; e < 2; e++) {
        put_u32(&g, (uint32_t)e);
        put_f32(&g, 0.5f);
        put_u32(&g, 0);
        put_u32(&g, 1);
        put_u32(&g, 2);
    }
    f->mesh_count_at[0] = put_u32(&g, 2);
    put_u32(&g, 0);
    put_mesh(&g, f, 0, "hull", 0, 3, 1, 3);
    put_mesh(&g, f, 1, "sail", 1, 300, 298, 0);
    f->mesh_count_at[1] = put_u32(&g, 1);
    put_u32(&g, 0);
    put_mesh(&g, f, 2, "hull", 1, 4, 2, 2);
    f->structure_end = g.size;
    /* BSP section of type 1: one node and a pair list ending with a negative value. */
    put_u32(&g, 1);
    put_u32(&g, 1);
    put_u32(&g, 0);
    put_u32(&g, 0);
    put_u32(&g, 12);
    put_u32(&g, 0);
    put_u32(&g, 5);
    put_u16(&g, 3);
    put_u16(&g, (uint16_t)-1);
    if (g.failed) {
        free(g.data);
        return 0;
    }
    cff_store_u32(g.data + bsp_at, (uint32_t)f->structure_end);
    f->data = g.data;
    f->size = g.size;
    return 1;
}

void cff_fixture_free(cff_fixture *f)
{
    free(f->data);
    f->data = NULL;
}
