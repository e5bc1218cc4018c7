/* A hand-built model for the morph and spring tests of the viewer, with exactly known pose and
 * morph weights: one bone moved +1 along X by the clip "shift" (1 s); a triangle whose vertex 0
 * has a morph target "bulge" of -1 along X, keyed by the morph clip "pulse" (2 s: weight 0 at
 * 0 s, 1 at 1 s, 0 at 2 s); a cloth strip (vertices 0 and 1 rigid, 2 and 3 free, hanging on
 * springs of idle length 1). Every array lives in the fixture. */
#ifndef OSSA_VIEW_MORPH_FIXTURE_H
#define OSSA_VIEW_MORPH_FIXTURE_H

#include <string.h>
#include "ossa/model.h"

static const float morph_fixture_ident[4] = {0, 0, 0, 1};

typedef struct morph_fixture {
    ossa_model model;
    ossa_bone bone;
    ossa_clip clip;
    ossa_track track;
    float key_time, key_t[3];
    ossa_morph_clip morph_clip;
    ossa_morph_track morph_track;
    float morph_times[3], morph_weights[3];
    ossa_mesh mesh;
    ossa_submesh sub[2];
    ossa_morph_target target;
    uint32_t target_vertex;
    float d_pos[3], d_nrm[3];
    float tri_pos[9], tri_nrm[9];
    uint32_t tri_start[4], tri_idx[3];
    float cloth_pos[12], cloth_nrm[12], cloth_phys[4];
    uint32_t cloth_start[5], cloth_idx[6];
    ossa_influence inf[4];
    ossa_spring springs[3];
} morph_fixture;

static inline void morph_fixture_make(morph_fixture *f)
{
    memset(f, 0, sizeof *f);
    f->bone = (ossa_bone){.name = "root", .parent = -1};
    f->bone.rest_r[3] = f->bone.inv_bind_r[3] = 1;
    f->bone.rest_s[0] = f->bone.rest_s[1] = f->bone.rest_s[2] = 1;
    f->key_t[0] = 1.0f;
    f->track = (ossa_track){.bone = 0, .key_count = 1, .times = &f->key_time,
                            .translations = f->key_t, .rotations = morph_fixture_ident};
    f->clip = (ossa_clip){.name = "shift", .duration = 1, .track_count = 1, .tracks = &f->track};

    const float mt[3] = {0, 1, 2}, mw[3] = {0, 1, 0};
    memcpy(f->morph_times, mt, sizeof mt);
    memcpy(f->morph_weights, mw, sizeof mw);
    f->morph_track = (ossa_morph_track){.morph_name = "bulge", .key_count = 3,
                                        .times = f->morph_times, .weights = f->morph_weights};
    f->morph_clip = (ossa_morph_clip){.name = "pulse", .duration = 2, .track_count = 1,
                                      .tracks = &f->morph_track};

    for (int i = 0; i < 4; i++)
        f->inf[i] = (ossa_influence){.bone = 0, .weight = 1.0f};
    /* Triangle (0,0,0) (1,0,0) (0,1,0); vertex 0 moves -1 along X at full weight. */
    const float tp[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    memcpy(f->tri_pos, tp, sizeof tp);
    for (int v = 0; v < 3; v++) {
        f->tri_nrm[3 * v + 2] = 1.0f;
        f->tri_start[v] = (uint32_t)v;
        f->tri_idx[v] = (uint32_t)v;
    }
    f->tri_start[3] = 3;
    f->d_pos[0] = -1.0f;
    f->target = (ossa_morph_target){.name = "bulge", .count = 1, .vertex = &f->target_vertex,
                                    .d_position = f->d_pos, .d_normal = f->d_nrm};
    ossa_submesh *tri = &f->sub[0];
    *tri = (ossa_submesh){.material = -1, .vertex_count = 3, .face_count = 1, .max_influences = 1,
                          .positions = f->tri_pos, .normals = f->tri_nrm,
                          .influence_start = f->tri_start, .influences = f->inf,
                          .indices = f->tri_idx, .morph_count = 1, .morphs = &f->target};

    /* Cloth: 0 (0,0,0) and 1 (1,0,0) rigid, 2 (0,-1,0) and 3 (1,-1,0) free. */
    const float cp[12] = {0, 0, 0, 1, 0, 0, 0, -1, 0, 1, -1, 0};
    const float phys[4] = {0, 0, 1, 1};
    const uint32_t ci[6] = {0, 1, 2, 1, 3, 2};
    memcpy(f->cloth_pos, cp, sizeof cp);
    memcpy(f->cloth_phys, phys, sizeof phys);
    memcpy(f->cloth_idx, ci, sizeof ci);
    for (int v = 0; v < 4; v++) {
        f->cloth_nrm[3 * v + 2] = 1.0f;
        f->cloth_start[v] = (uint32_t)v;
    }
    f->cloth_start[4] = 4;
    f->springs[0] = (ossa_spring){{2, 0}, 1000.0f, 1.0f};
    f->springs[1] = (ossa_spring){{3, 1}, 1000.0f, 1.0f};
    f->springs[2] = (ossa_spring){{2, 3}, 1000.0f, 1.0f};
    ossa_submesh *cloth = &f->sub[1];
    *cloth = (ossa_submesh){.material = -1, .vertex_count = 4, .face_count = 2,
                            .max_influences = 1, .positions = f->cloth_pos,
                            .normals = f->cloth_nrm, .influence_start = f->cloth_start,
                            .influences = f->inf, .indices = f->cloth_idx,
                            .physique_weights = f->cloth_phys, .spring_count = 3,
                            .springs = f->springs};

    f->mesh = (ossa_mesh){.name = "body", .submesh_count = 2, .submeshes = f->sub};
    f->model = (ossa_model){.bone_count = 1, .bones = &f->bone, .clip_count = 1,
                            .clips = &f->clip, .morph_clip_count = 1,
                            .morph_clips = &f->morph_clip, .mesh_count = 1, .meshes = &f->mesh,
                            .scale = 1};
}

#endif
