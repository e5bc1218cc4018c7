#include "c3s_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ct_init(ct_buf *b)
{
    memset(b, 0, sizeof *b);
    b->lie_kind = -1;
}

/* Counts the site and says whether this one is the lie. */
static bool lying(ct_buf *b, ct_site kind)
{
    bool hit = b->lie_kind == (int)kind && b->sites[kind] == b->lie_site;
    b->sites[kind]++;
    return hit;
}

void ct_count(ct_buf *b, uint32_t v)
{
    ct_cdw(b, lying(b, CT_COUNT) ? b->lie_value : v);
}

void ct_index(ct_buf *b, uint32_t v)
{
    ct_cdw(b, lying(b, CT_INDEX) ? b->lie_value : v);
}

void ct_float(ct_buf *b, float v)
{
    ct_f32(b, lying(b, CT_FLOAT) ? b->lie_float : v);
}

void ct_floats(ct_buf *b, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ct_float(b, v[i]);
}

void ct_bytes(ct_buf *b, const void *p, size_t n)
{
    if (b->size + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->size + n)
            cap *= 2;
        uint8_t *grown = realloc(b->data, cap);
        if (!grown) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        b->data = grown;
        b->cap = cap;
    }
    if (n)
        memcpy(b->data + b->size, p, n);
    b->size += n;
}

void ct_u8(ct_buf *b, uint8_t v) { ct_bytes(b, &v, 1); }

void ct_u32(ct_buf *b, uint32_t v)
{
    uint8_t p[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    ct_bytes(b, p, 4);
}

void ct_f32(ct_buf *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    ct_u32(b, u);
}

void ct_f32v(ct_buf *b, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ct_f32(b, v[i]);
}

/* Written here independently of the engine's encoder: 7-bit groups, most significant first. */
void ct_cdw(ct_buf *b, uint32_t v)
{
    uint8_t tmp[5];
    int n = 0;
    do {
        tmp[n++] = (uint8_t)(v & 0x7F);
        v >>= 7;
    } while (v);
    for (int i = n - 1; i >= 0; i--)
        ct_u8(b, (uint8_t)(tmp[i] | (i ? 0x80 : 0)));
}

void ct_str(ct_buf *b, const char *s) { ct_bytes(b, s, strlen(s) + 1); }

void ct_ocs(ct_buf *b, const float s[3], const float q[4], const float t[3])
{
    ct_floats(b, s, 3);
    ct_floats(b, q, 4);
    ct_floats(b, t, 3);
}

void ct_ocs_identity(ct_buf *b)
{
    static const float s[3] = {1, 1, 1}, q[4] = {0, 0, 0, 1}, t[3] = {0, 0, 0};
    ct_ocs(b, s, q, t);
}

size_t ct_begin(ct_buf *b, const char id[4])
{
    ct_bytes(b, id, 4);
    size_t at = b->size;
    ct_u32(b, 0);
    return at;
}

void ct_end(ct_buf *b, size_t at)
{
    uint32_t len = (uint32_t)(b->size - at - 4);
    uint8_t p[4] = {(uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16), (uint8_t)(len >> 24)};
    memcpy(b->data + at, p, 4);
    if (len & 1)
        ct_u8(b, 0);
}

size_t ct_sub(ct_buf *b, const char id[4], const char *name, uint32_t flags)
{
    size_t at = ct_begin(b, id);
    ct_cdw(b, 1);
    ct_str(b, name);
    ct_cdw(b, flags);
    return at;
}

void ct_start_scene(ct_buf *b)
{
    ct_bytes(b, "RIFF", 4);
    ct_u32(b, 0);
    ct_bytes(b, "C3SB", 4);
    size_t h = ct_begin(b, "SHDR");
    ct_u32(b, 0x10000);
    ct_str(b, "scene");
    ct_str(b, "tests");
    ct_str(b, "hand made");
    ct_end(b, h);
}

void ct_finish(ct_buf *b)
{
    uint32_t len = (uint32_t)(b->size - 8);
    uint8_t p[4] = {(uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16), (uint8_t)(len >> 24)};
    memcpy(b->data + 4, p, 4);
}

size_t ct_begin_model(ct_buf *b, const char *name)
{
    size_t at = ct_begin(b, "SMDL");
    ct_u32(b, 0x10000);
    ct_str(b, name);
    if ((strlen(name) + 1) & 1)
        ct_u8(b, 0);
    return at;
}

void ct_free(ct_buf *b)
{
    free(b->data);
    ct_init(b);
}

ossa_status ct_load_bytes(const uint8_t *data, size_t size, ossa_model **out, ossa_error *err)
{
    ossa_load_options opt;
    memset(&opt, 0, sizeof opt);
    opt.format = OSSA_FORMAT_C3S;
    return ossa_load_memory(data, size, "test.c3s", &opt, out, err);
}

ossa_status ct_load(const ct_buf *b, ossa_model **out, ossa_error *err)
{
    return ct_load_bytes(b->data, b->size, out, err);
}

bool ct_temp_path(char *out, size_t size, const char *name)
{
    char dir[] = "/tmp/ossa-c3s-XXXXXX";
    if (!mkdtemp(dir))
        return false;
    return snprintf(out, size, "%s/%s", dir, name) < (int)size;
}

void ct_remove_temp(const char *path)
{
    remove(path);
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
        rmdir(dir);
    }
}

bool ct_pose_submesh(const ossa_model *m, const ossa_clip *clip, float time, uint32_t mesh,
                     uint32_t submesh, float *positions, float *normals)
{
    const ossa_submesh *sm = &m->meshes[mesh].submeshes[submesh];
    if (!clip || ossa_clip_vertex_track(clip, mesh, submesh))
        return ossa_vertex_clip_eval(m, clip, mesh, submesh, time, OSSA_WRAP_LOOP, positions,
                                     normals, sm->vertex_count, NULL) == OSSA_OK;
    size_t nb = m->bone_count ? m->bone_count : 1;
    float *w = malloc(nb * 32 * sizeof(float));
    if (!w)
        return false;
    float *lt = w, *lr = lt + 3 * nb, *ls = lr + 4 * nb, *mt = ls + 3 * nb, *mr = mt + 3 * nb,
          *ms = mr + 4 * nb, *pal = ms + 3 * nb;
    ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
    ossa_sample_clip(m, clip, time, OSSA_WRAP_LOOP, lt, lr, ls, m->bone_count, NULL);
    ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
    ossa_skin_palette(m, mt, mr, ms, pal, m->bone_count, NULL);
    ossa_skin_submesh_scalar(sm, pal, positions, normals, sm->vertex_count, NULL);
    free(w);
    return true;
}
