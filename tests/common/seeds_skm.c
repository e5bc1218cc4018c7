/* Small valid SKM/SKP files made from docs/FORMATS.md, SKM/SKP: a three-bone skeleton (one attachment
 * bone) with two clips, and a mesh of two records with one- and two-influence vertices. The
 * .skm loads on its own too (the reader then stands in unposed bones). */
#include "seeds_skm.h"

#include <stdlib.h>
#include <string.h>

typedef struct sbuf {
    uint8_t *data;
    size_t size, cap;
    bool failed;
} sbuf;

static void sput(sbuf *w, const void *p, size_t n)
{
    if (w->failed)
        return;
    if (w->size + n > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 512;
        while (cap < w->size + n)
            cap *= 2;
        uint8_t *grown = realloc(w->data, cap);
        if (!grown) {
            w->failed = true;
            return;
        }
        w->data = grown;
        w->cap = cap;
    }
    memcpy(w->data + w->size, p, n);
    w->size += n;
}

static void su32(sbuf *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    sput(w, b, 4);
}

static void sf32(sbuf *w, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    su32(w, v);
}

static void sname(sbuf *w, const char *s)
{
    char name[64] = {0};
    memcpy(name, s, strlen(s));
    sput(w, name, 64);
}

static void patch_size(sbuf *w)
{
    if (w->failed)
        return;
    uint32_t v = (uint32_t)w->size;
    for (int k = 0; k < 4; k++)
        w->data[8 + k] = (uint8_t)(v >> (8 * k));
}

static void skp(sbuf *w)
{
    static const char *const frames[] = {"stand_1", "stand_2", "jump_1"};
    sput(w, "SKM1", 4);
    su32(w, 2);
    su32(w, 0);
    su32(w, 3);
    su32(w, 3);
    su32(w, 28);
    su32(w, 28 + 3 * 72);
    sname(w, "pelvis");
    su32(w, 0xFFFFFFFFu);
    su32(w, 0);
    sname(w, "spine");
    su32(w, 0);
    su32(w, 0);
    sname(w, "tag_head");
    su32(w, 1);
    su32(w, 1);
    uint32_t poses = 28 + 3 * 72 + 3 * 68;
    for (uint32_t f = 0; f < 3; f++) {
        sname(w, frames[f]);
        su32(w, poses + f * 3 * 28);
    }
    for (uint32_t f = 0; f < 3; f++)
        for (uint32_t j = 0; j < 3; j++) {
            float s = 0.1f * (float)f;
            const float pose[7] = {0, s, 0, 1.0f - 0.5f * s * s, 0, j ? 0.5f : 1.0f, 0};
            for (int k = 0; k < 7; k++)
                sf32(w, pose[k]);
        }
    patch_size(w);
}

static void bonevert(sbuf *w, const float o[3], float infl, uint32_t bone)
{
    for (int k = 0; k < 3; k++)
        sf32(w, o[k] * infl);
    sf32(w, infl);
    sf32(w, 0);
    sf32(w, 0);
    sf32(w, infl);
    su32(w, bone);
}

static void skm(sbuf *w)
{
    static const float o[4][3] = {{-1, 0, 0}, {1, 0, 0}, {1, 0.5f, 0}, {-1, 0.5f, 0}};
    sput(w, "SKM1", 4);
    su32(w, 2);
    su32(w, 0);
    su32(w, 3);
    su32(w, 2);
    su32(w, 24);
    uint32_t verts = 24 + 2 * 156, vbytes = 4 * 36 + 2 * 32;
    uint32_t uvs = verts + vbytes, idx = uvs + 4 * 8, refs = idx + 2 * 12;
    static const char *const shaders[2] = {"models/seed/skin", "models/seed/cloth"};
    for (int r = 0; r < 2; r++) {
        sname(w, shaders[r]);
        sname(w, r ? "body_lod1" : "body");
        su32(w, 4);
        su32(w, 2);
        su32(w, 2);
        su32(w, verts);
        su32(w, uvs);
        su32(w, idx);
        su32(w, refs);
    }
    for (uint32_t v = 0; v < 4; v++) {
        su32(w, v < 2 ? 1 : 2);
        bonevert(w, o[v], v < 2 ? 1.0f : 0.5f, 0);
        if (v >= 2)
            bonevert(w, o[v], 0.5f, 1);
    }
    for (uint32_t v = 0; v < 4; v++) {
        sf32(w, (float)(v == 1 || v == 2));
        sf32(w, (float)(v >= 2));
    }
    static const uint32_t tris[6] = {0, 1, 2, 0, 2, 3};
    for (int k = 0; k < 6; k++)
        su32(w, tris[k]);
    su32(w, 0);
    su32(w, 1);
    patch_size(w);
}

bool fuzz_seeds_skm(fuzz_seed *out)
{
    static const char *const names[FUZZ_SKM_SEED_COUNT] = {"seed.skp", "seed.skm"};
    static const ossa_format formats[FUZZ_SKM_SEED_COUNT] = {OSSA_FORMAT_SKP, OSSA_FORMAT_SKM};
    for (int i = 0; i < FUZZ_SKM_SEED_COUNT; i++) {
        sbuf w = {0};
        if (i == 0)
            skp(&w);
        else
            skm(&w);
        if (w.failed) {
            free(w.data);
            return false;
        }
        out[i].name = names[i];
        out[i].format = formats[i];
        out[i].data = w.data;
        out[i].size = w.size;
    }
    return true;
}
