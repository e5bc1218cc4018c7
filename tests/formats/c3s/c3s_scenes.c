/* Hand-made C3S scenes for the reader tests. Every count, index and float goes through
 * ct_count / ct_index / ct_float so that the malformed tests can lie at any one of them while
 * the chunk lengths stay right. */
#include <math.h>
#include <string.h>

#include "c3s_test_util.h"

typedef struct ring { uint32_t v[3]; } ring;

/* Edges for triangles: edge 3i + k goes from ring vertex k (tail) to ring vertex k + 1. */
static void put_edges(ct_buf *b, const ring *rings, uint32_t n, uint32_t disabled_edge)
{
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < 3; k++) {
            uint32_t id = 3 * i + k + 1;
            size_t c = ct_sub(b, "EDGE", "", id == disabled_edge ? 1u : 0u);
            ct_f32(b, 0.0f); /* reserved: read raw, never a lie site */
            ct_index(b, rings[i].v[(k + 1) % 3]);
            ct_index(b, rings[i].v[k]);
            ct_index(b, 0);
            ct_count(b, 1);
            ct_index(b, 1);
            ct_end(b, c);
        }
}

static void put_vertex(ct_buf *b, uint32_t flags, float lod, uint32_t weights,
                       const float *factor, const float (*offset)[3], const uint32_t *bone)
{
    size_t c = ct_sub(b, "VRTX", "", flags);
    ct_float(b, lod);
    ct_count(b, 1); /* one edge link and one triface link, to check their indices */
    ct_index(b, 1);
    ct_count(b, 1);
    ct_index(b, 1);
    ct_count(b, weights);
    for (uint32_t w = 0; w < weights; w++) {
        ct_float(b, factor[w]);
        ct_floats(b, offset[w], 3);
        ct_index(b, bone[w]);
    }
    ct_end(b, c);
}

static void put_face(ct_buf *b, uint32_t flags, float lod, uint32_t material, uint32_t first_edge,
                     const uint32_t tex[3])
{
    size_t c = ct_sub(b, "TRIF", "", flags);
    ct_float(b, lod);
    ct_index(b, material);
    for (uint32_t k = 0; k < 3; k++)
        ct_index(b, first_edge + k);
    for (uint32_t k = 0; k < 3; k++)
        ct_index(b, tex ? tex[k] : 0);
    ct_count(b, 0);
    ct_end(b, c);
}

/* One model "figure" of two bones (root; arm at (0,1,0) turned 90 degrees about Z) exercising
 * weights in bone space, disabled and LOD-dead elements, hidden, two-sided and inverted
 * trifaces, LOD ranges, texture splits, UV frames, sequences with bone keys, triggers and
 * links, mounts, and unknown chunks:
 *   v1 (0,0,0), v2 (1,0,0), v3 (0,1,0) on root; v4 (1,2,0) on arm (offset (1,-1,0));
 *   v5 (2,0,0) half root (offset (2,0,0)), half arm (offset (-1,-2,0)); v6 disabled; v7 LOD 2.
 *   F1 v1 v2 v3 mat 1 tex t1 t2 t3     F2 v1 v3 v4 mat 1 tex t5 t3 t4   F3 hidden v3 v4 v5
 *   F4 disabled   F5 uses v6   F6 two-sided v1 v2 v5 mat 2   F7 inverted v2 v3 v5 mat 2
 *   F8 v1 v2 v3 with range 0.5 -> mat 2, v3 v4 v5 (range 2.0 ignored)   F9 LOD 1.5
 *   F10 uses v7   F11 v2 v4 v5 mat 2 with the disabled t6   F12 has a disabled edge */
void ct_scene_features(ct_buf *b)
{
    ct_start_scene(b);
    size_t junk = ct_begin(b, "JUNK");
    ct_bytes(b, "odd!!", 5);
    ct_end(b, junk);
    size_t model = ct_begin_model(b, "figure");

    size_t c = ct_sub(b, "XTRA", "", 0); /* an extension: skipped */
    ct_bytes(b, "ab", 2);
    ct_end(b, c);
    c = ct_sub(b, "TXTR", "tex", 1);
    ct_cdw(b, 64);
    ct_cdw(b, 64);
    ct_str(b, "skin.png");
    ct_end(b, c);
    c = ct_sub(b, "WAVE", "snd", 0);
    ct_str(b, "step.wav");
    ct_end(b, c);
    c = ct_sub(b, "MATR", "skin", 0);
    ct_float(b, 0.25f);
    ct_count(b, 1);
    ct_index(b, 1);
    ct_count(b, 0);
    ct_end(b, c);
    c = ct_sub(b, "MATR", "cloth", 1);
    ct_float(b, 0.0f);
    ct_count(b, 0);
    ct_count(b, 1);
    ct_index(b, 1);
    ct_end(b, c);

    static const float one[1] = {1.0f}, half[2] = {0.5f, 0.5f};
    static const uint32_t root[1] = {1}, arm[1] = {2}, both[2] = {1, 2};
    static const float o1[1][3] = {{0, 0, 0}}, o2[1][3] = {{1, 0, 0}}, o3[1][3] = {{0, 1, 0}};
    static const float o4[1][3] = {{1, -1, 0}}, o5[2][3] = {{2, 0, 0}, {-1, -2, 0}};
    static const float o6[1][3] = {{5, 5, 5}}, o7[1][3] = {{6, 6, 6}};
    put_vertex(b, 0, 0.0f, 1, one, o1, root);
    put_vertex(b, 0, 0.0f, 1, one, o2, root);
    put_vertex(b, 0, 1.0f, 1, one, o3, root);
    put_vertex(b, 0, -1.0f, 1, one, o4, arm);
    put_vertex(b, 0, 0.0f, 2, half, o5, both);
    put_vertex(b, 1, 0.0f, 1, one, o6, root);
    put_vertex(b, 0, 2.0f, 1, one, o7, root);

    /* Rings (clockwise from the front), then F8's two LOD ranges. */
    static const ring rings[] = {
        {{1, 2, 3}}, {{1, 3, 4}}, {{3, 4, 5}}, {{1, 2, 5}}, {{1, 6, 2}}, {{1, 2, 5}},
        {{2, 3, 5}}, {{1, 2, 3}}, {{1, 2, 3}}, {{1, 2, 7}}, {{2, 4, 5}}, {{1, 2, 3}},
        {{3, 4, 5}}, {{1, 2, 4}}};
    put_edges(b, rings, 14, 3 * 11 + 2); /* F12's second edge is disabled */
    static const uint32_t tex1[3] = {1, 2, 3}, tex2[3] = {5, 3, 4}, tex11[3] = {6, 0, 0};
    put_face(b, 0, 0.0f, 1, 1, tex1);       /* F1 */
    put_face(b, 0, 0.0f, 1, 4, tex2);       /* F2 */
    put_face(b, 16, 0.0f, 1, 7, NULL);      /* F3 hidden */
    put_face(b, 1, 0.0f, 1, 10, NULL);      /* F4 disabled */
    put_face(b, 0, 0.0f, 1, 13, NULL);      /* F5 uses v6 */
    put_face(b, 2, 0.0f, 2, 16, NULL);      /* F6 two-sided */
    put_face(b, 4, 0.0f, 2, 19, NULL);      /* F7 inverted */
    c = ct_sub(b, "TRIF", "", 0);           /* F8 with LOD ranges */
    ct_float(b, 0.0f);
    ct_index(b, 1);
    for (uint32_t k = 0; k < 3; k++)
        ct_index(b, 22 + k);
    for (uint32_t k = 0; k < 3; k++)
        ct_index(b, tex1[k]);
    ct_count(b, 2);
    ct_float(b, 0.5f);
    ct_index(b, 2);
    for (uint32_t k = 0; k < 3; k++)
        ct_index(b, 37 + k);
    for (uint32_t k = 0; k < 3; k++)
        ct_index(b, 0);
    ct_float(b, 2.0f);
    ct_index(b, 1);
    for (uint32_t k = 0; k < 3; k++)
        ct_index(b, 40 + k);
    for (uint32_t k = 0; k < 3; k++)
        ct_index(b, 0);
    ct_end(b, c);
    put_face(b, 0, 1.5f, 1, 25, NULL);      /* F9 below full detail */
    put_face(b, 0, 0.0f, 1, 28, NULL);      /* F10 uses v7 */
    put_face(b, 0, 0.0f, 2, 31, tex11);     /* F11 disabled texture vertex */
    put_face(b, 0, 0.0f, 1, 34, NULL);      /* F12 disabled edge */

    for (uint32_t t = 0; t < 6; t++) {
        c = ct_sub(b, "TVRT", "", t == 5 ? 1u : 0u);
        ct_end(b, c);
    }
    c = ct_sub(b, "TGRP", "uv", 0);
    ct_count(b, 5);
    for (uint32_t t = 1; t <= 5; t++)
        ct_index(b, t);
    ct_end(b, c);
    for (int f = 0; f < 2; f++) {
        c = ct_sub(b, "TFRM", "uvframe", 0);
        ct_index(b, 1);
        ct_count(b, 5);
        for (uint32_t t = 1; t <= 5; t++) {
            ct_float(b, 0.1f * (float)t + 0.5f * (float)f);
            ct_float(b, 0.2f * (float)t);
        }
        ct_end(b, c);
    }

    static const float unit[3] = {1, 1, 1}, none[4] = {0, 0, 0, 1}, zero[3] = {0, 0, 0};
    static const float quarter_z[4] = {0, 0, 0.70710678f, 0.70710678f}, up[3] = {0, 1, 0};
    c = ct_sub(b, "BONE", "root", 0);
    ct_ocs(b, unit, none, zero);
    ct_index(b, 0);
    ct_count(b, 1);
    ct_index(b, 2);
    ct_end(b, c);
    c = ct_sub(b, "BONE", "arm", 1);
    ct_ocs(b, unit, quarter_z, up);
    ct_index(b, 1);
    ct_count(b, 0);
    ct_end(b, c);

    c = ct_sub(b, "ASEQ", "bend", 0);
    ct_float(b, 10.0f);
    ct_str(b, "arms");
    ct_count(b, 4);
    for (uint32_t k = 0; k < 4; k++) {
        ct_count(b, k == 0 || k == 2 ? 1u : 0u);
        if (k == 0 || k == 2)
            ct_index(b, k == 0 ? 1u : 2u);
        ct_count(b, k == 3 ? 2u : 1u);
        float angle = 0.17453293f * (float)k / 2.0f; /* 10 degrees per key, half angle */
        float q[4] = {0, 0, sinf(angle), cosf(angle)};
        ct_index(b, 2);
        ct_ocs(b, unit, q, zero);
        if (k == 3) {
            static const float lift[3] = {0, 0, 1};
            ct_index(b, 1);
            ct_ocs(b, unit, none, lift);
        }
        ct_count(b, 0);
    }
    ct_count(b, 2);
    ct_float(b, 0.5f);
    ct_bytes(b, "TRIG", 4);
    ct_count(b, 5);
    ct_bytes(b, "step", 5);
    ct_float(b, 0.25f);
    ct_bytes(b, "SND ", 4);
    ct_count(b, 3);
    ct_bytes(b, "\1\2\3", 3);
    ct_count(b, 1);
    ct_index(b, 2);
    ct_end(b, c);

    c = ct_sub(b, "ASEQ", "idle", 0);
    ct_float(b, 5.0f);
    ct_str(b, "");
    ct_count(b, 1);
    ct_count(b, 0);
    ct_count(b, 0);
    ct_count(b, 0);
    ct_count(b, 0);
    ct_count(b, 2);
    ct_index(b, 1);
    ct_index(b, 2);
    ct_end(b, c);

    c = ct_sub(b, "ASEQ", "empty", 0);
    ct_float(b, 4.0f);
    ct_str(b, "");
    ct_count(b, 0);
    ct_count(b, 0);
    ct_count(b, 0);
    ct_end(b, c);

    static const float lift[3] = {0, 0.1f, 0};
    static const float bary[3] = {0.2f, 0.3f, 0.5f};
    c = ct_sub(b, "SMNT", "hat", 0);
    ct_ocs(b, unit, none, lift);
    ct_index(b, 2);
    ct_floats(b, bary, 3);
    ct_end(b, c);
    c = ct_sub(b, "SMNT", "lost", 0);
    ct_ocs(b, unit, none, zero);
    ct_index(b, 4);
    ct_floats(b, bary, 3);
    ct_end(b, c);

    ct_end(b, model);
    ct_finish(b);
}

static void put_vframe(ct_buf *b, uint32_t group, bool compressed, const float scale[3],
                       const float translate[3], const uint8_t *bytes, const float *raw,
                       uint32_t count)
{
    static const float lo[3] = {-10, -10, -10}, hi[3] = {10, 10, 10};
    size_t c = ct_sub(b, "VFRM", "", compressed ? 1u : 0u);
    ct_index(b, group);
    ct_floats(b, lo, 3);
    ct_floats(b, hi, 3);
    ct_floats(b, scale, 3);
    ct_floats(b, translate, 3);
    ct_count(b, compressed ? count : 0);
    if (compressed)
        ct_bytes(b, bytes, 3 * (size_t)count);
    ct_count(b, compressed ? 0 : count);
    if (!compressed)
        ct_floats(b, raw, 3 * (size_t)count);
    ct_end(b, c);
}

static void put_key(ct_buf *b, uint32_t bone, const float *translate, uint32_t vf1, uint32_t vf2,
                    bool frames)
{
    static const float unit[3] = {1, 1, 1}, none[4] = {0, 0, 0, 1};
    ct_count(b, 0);
    ct_count(b, bone ? 1u : 0u);
    if (bone) {
        ct_index(b, bone);
        ct_ocs(b, unit, none, translate);
    }
    ct_count(b, frames ? 2u : 0u);
    if (frames) {
        ct_index(b, vf1);
        ct_index(b, vf2);
    }
}

/* Two models. "blob": no weights, vertex groups g1 {v1 v2 v3} and g2 {v4}; frames f1 (g1 raw:
 * (0,0,0) (1,0,0) (0,1,0)), f2 (g2 compressed: (2,2,0)), f3 (g1 compressed: the same raised to
 * z = 1), f4 (g2 raw: (2,2,2)); sequence "morph" at 2 per second with keys {f1 f2} {f3 f4}
 * {f3 base}; sequence "mixed" at 1 per second: a key moving its (unused) bone "root" whose
 * frames are ignored, then {f3 f4}. "stick": one bone also named "root", a triangle on it and
 * sequence "spin" (a quarter turn about Y). */
void ct_scene_frames(ct_buf *b)
{
    ct_start_scene(b);
    size_t model = ct_begin_model(b, "blob");
    static const float unit[3] = {1, 1, 1}, none[4] = {0, 0, 0, 1}, zero[3] = {0, 0, 0};
    for (int v = 0; v < 4; v++) {
        size_t c = ct_sub(b, "VRTX", "", 0);
        ct_float(b, 0.0f);
        ct_count(b, 0);
        ct_count(b, 0);
        ct_count(b, 0);
        ct_end(b, c);
    }
    size_t c = ct_sub(b, "VGRP", "g1", 0);
    ct_count(b, 3);
    for (uint32_t v = 1; v <= 3; v++)
        ct_index(b, v);
    ct_end(b, c);
    c = ct_sub(b, "VGRP", "g2", 0);
    ct_count(b, 1);
    ct_index(b, 4);
    ct_end(b, c);
    static const float base[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, top[3] = {2, 2, 2};
    static const float half[3] = {0.5f, 0.5f, 0.5f}, shift2[3] = {1, 1, 0}, shift3[3] = {0, 0, -1};
    static const uint8_t b2[3] = {2, 2, 0}, b3[9] = {0, 0, 4, 2, 0, 4, 0, 2, 4};
    put_vframe(b, 1, false, unit, zero, NULL, base, 3);
    put_vframe(b, 2, true, half, shift2, b2, NULL, 1);
    put_vframe(b, 1, true, half, shift3, b3, NULL, 3);
    put_vframe(b, 2, false, unit, zero, NULL, top, 1);
    static const ring rings[2] = {{{1, 2, 3}}, {{2, 4, 3}}};
    put_edges(b, rings, 2, 0);
    put_face(b, 0, 0.0f, 0, 1, NULL);
    put_face(b, 0, 0.0f, 0, 4, NULL);
    c = ct_sub(b, "BONE", "root", 0);
    ct_ocs(b, unit, none, zero);
    ct_index(b, 0);
    ct_count(b, 0);
    ct_end(b, c);
    c = ct_sub(b, "ASEQ", "morph", 0);
    ct_float(b, 2.0f);
    ct_str(b, "");
    ct_count(b, 3);
    put_key(b, 0, NULL, 1, 2, true);
    put_key(b, 0, NULL, 3, 4, true);
    put_key(b, 0, NULL, 3, 0, true);
    ct_count(b, 0);
    ct_count(b, 0);
    ct_end(b, c);
    c = ct_sub(b, "ASEQ", "mixed", 0);
    ct_float(b, 1.0f);
    ct_str(b, "");
    ct_count(b, 2);
    static const float raise[3] = {0, 0, 5};
    put_key(b, 1, raise, 3, 4, true);
    put_key(b, 0, NULL, 3, 4, true);
    ct_count(b, 0);
    ct_count(b, 0);
    ct_end(b, c);
    ct_end(b, model);

    model = ct_begin_model(b, "stick");
    c = ct_sub(b, "MATR", "wood", 0);
    ct_float(b, 0.0f);
    ct_count(b, 0);
    ct_count(b, 0);
    ct_end(b, c);
    static const float offsets[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    static const float one[1] = {1.0f};
    static const uint32_t bone1[1] = {1};
    for (int v = 0; v < 3; v++)
        put_vertex(b, 0, 0.0f, 1, one, &offsets[v], bone1);
    static const ring tri[1] = {{{1, 2, 3}}};
    put_edges(b, tri, 1, 0);
    put_face(b, 0, 0.0f, 1, 1, NULL);
    c = ct_sub(b, "BONE", "root", 0);
    ct_ocs(b, unit, none, zero);
    ct_index(b, 0);
    ct_count(b, 0);
    ct_end(b, c);
    c = ct_sub(b, "ASEQ", "spin", 0);
    ct_float(b, 1.0f);
    ct_str(b, "");
    ct_count(b, 1);
    ct_count(b, 0);
    ct_count(b, 1);
    ct_index(b, 1);
    static const float quarter_y[4] = {0, 0.70710678f, 0, 0.70710678f};
    ct_ocs(b, unit, quarter_y, zero);
    ct_count(b, 0);
    ct_count(b, 0);
    ct_count(b, 0);
    ct_end(b, c);
    ct_end(b, model);
    ct_finish(b);
}
