#include "skm_test_util.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ossa/reference.h"
#include "ossa/sample.h"

bool skt_make_dir(char *buf, size_t size)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(buf, size, "%s/ossa-skm-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkdtemp(buf) != NULL;
}

void skt_remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            remove(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

bool skt_write(const char *dir, const char *name, const void *data, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

static uint8_t *skt_grow(skt_bytes *b, size_t n)
{
    if (b->size + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        while (cap < b->size + n)
            cap *= 2;
        uint8_t *p = realloc(b->data, cap);
        if (!p) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        b->data = p;
        b->cap = cap;
    }
    uint8_t *at = b->data + b->size;
    b->size += n;
    return at;
}

void skt_patch_u32(skt_bytes *b, size_t at, uint32_t v)
{
    uint8_t *p = b->data + at;
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

void skt_u32(skt_bytes *b, uint32_t v)
{
    skt_grow(b, 4);
    skt_patch_u32(b, b->size - 4, v);
}

void skt_f32(skt_bytes *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    skt_u32(b, u);
}

void skt_floats(skt_bytes *b, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        skt_f32(b, v[i]);
}

void skt_name(skt_bytes *b, const char *s)
{
    uint8_t *p = skt_grow(b, 64);
    memset(p, 0, 64);
    memcpy(p, s, strlen(s) < 64 ? strlen(s) : 64);
}

void skt_free(skt_bytes *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

void skt_pose_at(const ossa_model *m, const ossa_clip *clip, float t, skt_pose *out)
{
    memset(out, 0, sizeof *out);
    size_t nb = m->bone_count ? m->bone_count : 1;
    float *lt = calloc(nb * 3, sizeof(float)), *lr = calloc(nb * 4, sizeof(float));
    float *ls = calloc(nb * 3, sizeof(float)), *pal = calloc(nb * 12, sizeof(float));
    out->bones = m->bone_count;
    out->mt = calloc(nb * 3, sizeof(float));
    out->mr = calloc(nb * 4, sizeof(float));
    out->ms = calloc(nb * 3, sizeof(float));
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count && m->meshes[i].lod == 0; s++)
            out->vertices += m->meshes[i].submeshes[s].vertex_count;
    out->pos = calloc(out->vertices * 3 + 1, sizeof(float));
    out->nrm = calloc(out->vertices * 3 + 1, sizeof(float));
    if (!lt || !lr || !ls || !pal || !out->mt || !out->mr || !out->ms || !out->pos ||
        !out->nrm) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
    if (clip)
        ossa_sample_clip(m, clip, ossa_clip_wrap_time(clip, t), OSSA_WRAP_LOOP, lt, lr, ls,
                         m->bone_count, NULL);
    ossa_local_to_model(m, lt, lr, ls, out->mt, out->mr, out->ms, m->bone_count, NULL);
    ossa_skin_palette(m, out->mt, out->mr, out->ms, pal, m->bone_count, NULL);
    size_t at = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count && m->meshes[i].lod == 0; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            ossa_skin_submesh_scalar(sm, pal, out->pos + 3 * at, out->nrm + 3 * at,
                                     sm->vertex_count, NULL);
            at += sm->vertex_count;
        }
    free(lt);
    free(lr);
    free(ls);
    free(pal);
}

void skt_pose_free(skt_pose *p)
{
    free(p->mt);
    free(p->mr);
    free(p->ms);
    free(p->pos);
    free(p->nrm);
    memset(p, 0, sizeof *p);
}

double skt_max_diff(const float *a, const float *b, size_t n)
{
    double worst = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - (double)b[i]);
        if (!(d <= worst))
            worst = d; /* NaN counts as the worst */
    }
    return worst;
}

double skt_max_quat_diff(const float *a, const float *b, size_t n)
{
    double worst = 0.0;
    for (size_t i = 0; i < n; i++) {
        const float *p = a + 4 * i, *q = b + 4 * i;
        double dot = fabs((double)p[0] * q[0] + (double)p[1] * q[1] + (double)p[2] * q[2] +
                          (double)p[3] * q[3]);
        double d = 1.0 - dot;
        if (!(d <= worst))
            worst = d;
    }
    return worst;
}
