/* Qfusion SKM/SKP type 2 layout constants and name rules shared by the reader (skm.c), the
 * writer (skm_write.c), the pose-file lookup in load_skm_paths.c and the LOD files in load.c.
 * Sizes are those of docs/FORMATS.md, SKM/SKP; all data is little-endian. */
#ifndef OSSA_SKM_FORMAT_H
#define OSSA_SKM_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SKM_ID "SKM1"
#define SKM_MODELTYPE 2u
#define SKM_NAME_BYTES 64u           /* NUL-terminated names: at most 63 characters */
#define SKM_MAX_FILESIZE 16777216u
#define SKM_MAX_BONES 256u
#define SKM_MAX_MESHES 32u
#define SKM_MAX_TRIS 65536u
#define SKM_MAX_VERTS (SKM_MAX_TRIS * 3u)
#define SKM_MAX_REFERENCES SKM_MAX_BONES
#define SKM_MAX_FRAMES 65536u
#define SKM_MAX_LODS 4u              /* base_lod1 .. base_lod4 */
#define SKM_BONEFLAG_ATTACH 1u

#define SKM_HEADER_BYTES 24u         /* id, type, filesize, num_bones, num_meshes, ofs_meshes */
#define SKM_MESH_BYTES 156u          /* two names, four counts... see skm.c */
#define SKM_BONEVERT_BYTES 32u       /* origin[3], influence, normal[3], bonenum */
#define SKP_HEADER_BYTES 28u         /* id, type, filesize, num_bones, num_frames, ofs x2 */
#define SKP_BONE_BYTES 72u           /* name[64], parent s32, flags u32 */
#define SKP_FRAME_BYTES 68u          /* name[64], ofs_bonepositions */
#define SKP_POSE_BYTES 28u           /* quat[4] (x y z w, standard), origin[3] */

/* docs/FORMATS.md, D10: frames play at this rate unless a caller says otherwise. */
#define SKP_DEFAULT_FRAME_RATE 10.0f

/* Length of a name's "_lodN" suffix (N = 1..9 digits), 0 when it has none; *lod gets N. */
static inline size_t ossa_skm_lod_suffix(const char *name, size_t len, uint32_t *lod)
{
    size_t d = len;
    while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9')
        d--;
    if (d == len || len - d > 9 || d < 4)
        return 0;
    const char *s = name + d - 4;
    if (s[0] != '_' || (s[1] | 32) != 'l' || (s[2] | 32) != 'o' || (s[3] | 32) != 'd')
        return 0;
    uint32_t n = 0;
    for (size_t i = d; i < len; i++)
        n = n * 10u + (uint32_t)(name[i] - '0');
    *lod = n;
    return len - d + 4;
}

#endif
