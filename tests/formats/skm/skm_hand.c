#include "skm_hand.h"

#include <math.h>
#include <string.h>

#define S 0.70710678f /* sin 45 degrees: a 90-degree turn about Z is (0, 0, S, S) */

static void pose(skt_bytes *b, float qx, float qy, float qz, float qw, float x, float y, float z)
{
    const float v[7] = {qx, qy, qz, qw, x, y, z};
    skt_floats(b, v, 7);
}

static void build_skp(skt_bytes *b, skm_hand_layout *l)
{
    static const char *const frames[] = {"idle_1", "idle_2", "run1", "run2", "idle_3", "7"};
    const uint32_t nf = 6, nb = 3;
    skt_u32(b, 0x314D4B53u); /* "SKM1" */
    skt_u32(b, 2);
    skt_u32(b, 0); /* file size, patched */
    skt_u32(b, nb);
    skt_u32(b, nf);
    skt_u32(b, 28);
    skt_u32(b, 28 + nb * 72);
    l->skp_bones = 28;
    skt_name(b, "root");
    skt_u32(b, 0xFFFFFFFFu);
    skt_u32(b, 0);
    skt_name(b, "arm");
    skt_u32(b, 0);
    skt_u32(b, 0);
    skt_name(b, "tag_weapon");
    skt_u32(b, 1);
    skt_u32(b, 1);
    l->skp_frames = b->size;
    l->skp_poses = b->size + nf * 68;
    for (uint32_t f = 0; f < nf; f++) {
        skt_name(b, frames[f]);
        skt_u32(b, (uint32_t)(l->skp_poses + f * nb * 28));
    }
    for (uint32_t f = 0; f < nf; f++) {
        /* The root moves along x: frame f puts it at x = 1 + f (idle_2 at 2, idle_3 at 5). */
        pose(b, 0, 0, 0, 1, 1.0f + (float)f, 0, 0);
        if (f == 1) /* a rotation of length 2: normalised on load, with a warning */
            pose(b, 0, 0, 2 * S, 2 * S, 0, 2, 0);
        else
            pose(b, 0, 0, S, S, 0, 2, 0);
        pose(b, 0, 0, 0, 1, 1, 0, 0);
    }
    skt_patch_u32(b, 8, (uint32_t)b->size);
}

/* One bone-vert: pre-weighted origin, influence, normal, bone. */
static void bonevert(skt_bytes *b, float ox, float oy, float oz, float w, float nx, float ny,
                     float nz, uint32_t bone)
{
    const float v[7] = {ox, oy, oz, w, nx, ny, nz};
    skt_floats(b, v, 4);
    skt_floats(b, v + 4, 3);
    skt_u32(b, bone);
}

static void build_skm(skt_bytes *b, skm_hand_layout *l)
{
    static const char *const names[3][2] = {
        {"skin", "body"}, {"cloth", "body"}, {"skin", "body_lod2"}};
    skt_u32(b, 0x314D4B53u);
    skt_u32(b, 2);
    skt_u32(b, 0);
    skt_u32(b, 3);  /* bones */
    skt_u32(b, 3);  /* meshes */
    skt_u32(b, 24);
    l->skm_records = 24;
    size_t data = 24 + 3 * 156;
    l->skm_verts = data;
    /* v0, v1, v2 = 4+32, 4+64, 4+64 bytes; uvs 24; indices 12; references 8 */
    l->skm_uvs = l->skm_verts + 36 + 68 + 68;
    l->skm_indices = l->skm_uvs + 24;
    l->skm_refs = l->skm_indices + 12;
    for (int r = 0; r < 3; r++) {
        skt_name(b, names[r][0]);
        skt_name(b, names[r][1]);
        skt_u32(b, 3);
        skt_u32(b, 1);
        skt_u32(b, 2);
        skt_u32(b, (uint32_t)l->skm_verts);
        skt_u32(b, (uint32_t)l->skm_uvs);
        skt_u32(b, (uint32_t)l->skm_indices);
        skt_u32(b, (uint32_t)l->skm_refs);
    }
    /* v0: all on the arm, one unit along its x: (1,3,0) in frame 0, normal +y. */
    skt_u32(b, 1);
    bonevert(b, 1, 0, 0, 1, 1, 0, 0, 1);
    /* v1: half root, half arm, both saying (2,2,0). */
    skt_u32(b, 2);
    bonevert(b, 0.5f, 1, 0, 0.5f, 0, 0, 1, 0);
    bonevert(b, 0, -0.5f, 0, 0.5f, 0, 0, 1, 1);
    /* v2: half root origin (1,0,0), half tag origin (1,3,0): the bind vertex (1,1.5,0) is 1.5
     * from each; the tag is not in the references. */
    skt_u32(b, 2);
    bonevert(b, 0, 0, 0, 0.5f, 0, 0, 1, 0);
    bonevert(b, 0, 0, 0, 0.5f, 0, 0, 1, 2);
    const float uv[6] = {0.25f, 0.5f, 0.75f, 0.5f, 0.5f, 1.0f};
    skt_floats(b, uv, 6);
    skt_u32(b, 0);
    skt_u32(b, 1);
    skt_u32(b, 2);
    skt_u32(b, 0);
    skt_u32(b, 1);
    skt_patch_u32(b, 8, (uint32_t)b->size);
}

void skm_hand_build(skt_bytes *skp, skt_bytes *skm, skm_hand_layout *layout)
{
    memset(skp, 0, sizeof *skp);
    memset(skm, 0, sizeof *skm);
    build_skp(skp, layout);
    build_skm(skm, layout);
}
