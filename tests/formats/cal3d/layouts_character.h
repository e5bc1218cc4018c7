/* The small character of the Cal3D layout round trip (test_layouts.c), in parents-first
 * ("canonical") order: five bones with lights, a three-track clip, two submeshes with springs,
 * a morph target and its clip, a material; built into the test-only writer's structures
 * (cal3d_writer.h), with the bones in file order either canonical or child-before-parent. */
#ifndef OSSA_TEST_LAYOUTS_CHARACTER_H
#define OSSA_TEST_LAYOUTS_CHARACTER_H

#include <stdint.h>

#include "cal3d_writer.h"

enum { BONES = 5, TRACKS = 3 };

typedef struct canon_bone {
    const char *name;
    int parent;
    float t[3];
    float r[4]; /* Cal3D convention, normalised at start-up */
    float lt[3];
    float lr[4];
    int light_type;
    float light_color[3];
} canon_bone;

typedef struct character {
    canon_bone canon[BONES];
    const int *file_of;         /* canonical -> file index */
    int canon_of[BONES];        /* file -> canonical */
    cw_bone bones[BONES];       /* file order */
    int32_t children[BONES][BONES];
    cw_skeleton skel;
    cw_key keys[TRACKS][4];
    cw_track tracks[TRACKS];
    cw_animation anim;
    cw_vertex v0[4], v1[3];
    cw_spring springs[1];
    cw_blend_vertex blend[2];
    cw_morph morph;
    int32_t faces0[6], faces1[3];
    cw_submesh sub[2];
    cw_mesh mesh;
    cw_map maps[2];
    cw_material material;
    cw_morph_key mkeys[3];
    cw_morph_track mtrack;
    cw_morph_animation manim;
} character;

extern const canon_bone canon_template[BONES];
extern const float scene_ambient[3];

/* Fills c; reorder writes the bones child-before-parent (leg_l first, root last). */
void build_character(character *c, int reorder);

#endif
