/* A small SKM/SKP pair made byte by byte from the spec (not by Ossa's writer), with values whose
 * results are worked out by hand in test_skm_reader.c; also used by the malformed-input test.
 *
 * hand.skp: bones root (-1), arm (0), tag_weapon (1, ATTACH); frames idle_1, idle_2, run1, run2,
 *   idle_3, 7. Frame 0: root at (1,0,0); arm at (0,2,0) turned 90 degrees about +Z; tag at
 *   (1,0,0) on the arm. So in frame 0 the arm is at (1,2,0) and the tag at (1,3,0).
 * hand.skm: three records sharing one vertex block: "body"/"skin", "body"/"cloth",
 *   "body_lod2"/"skin"; 3 vertices, 1 triangle, references {0, 1}. */
#ifndef OSSA_SKM_HAND_H
#define OSSA_SKM_HAND_H

#include "skm_test_util.h"

/* Field offsets the malformed test patches. */
typedef struct skm_hand_layout {
    size_t skp_bones, skp_frames, skp_poses;     /* table offsets in hand.skp */
    size_t skm_records, skm_verts, skm_uvs, skm_indices, skm_refs; /* in hand.skm */
} skm_hand_layout;

void skm_hand_build(skt_bytes *skp, skt_bytes *skm, skm_hand_layout *layout);

#endif
