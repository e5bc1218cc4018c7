/* Round trip of one small character through every Cal3D binary layout: the test-only writer
 * (tests/common/cal3d_writer.c, written from the specs) produces CSF, CAF, CMF, CRF and CPF
 * files at one version, ossa_load_files reads them together, and every value of the model is
 * compared with what the files hold.
 *
 * Usage: test-layouts CASE [reorder]
 *   CASE = a version (700, 911, 1300, ...) with optional suffixes: "c" sets the CAF compression
 *   flag word (919, 1300, 1301), "q" sets CAF flags bit 0 (1200, quantised tracks), "m" writes
 *   the mp3butcher lineage of 1300/1301 (no node lights, no vertex colours).
 *   "reorder" writes the bones child-before-parent, so the reader has to reorder them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cal3d_writer.h"
#include "layouts_character.h"
#include "ossa/load.h"
#include "test_common.h"

/* ---- checks ---- */

/* The number the files carry (without the mp3butcher flag of the test writer). */
static uint32_t file_version(int version)
{
    return (uint32_t)(version & ~(CW_MP3BUTCHER | CW_MP3BUTCHER_TERMINATED));
}

/* The layout the reader must report for a skeleton or mesh of this case (D1): the
 * 1300/1301 lineage is told from the data alone. */
static ossa_cal3d_lineage expected_lineage(int version)
{
    uint32_t v = file_version(version);
    if (version & CW_MP3BUTCHER)
        return OSSA_CAL3D_MP3BUTCHER;
    if (v >= 1300)
        return OSSA_CAL3D_UPSTREAM;
    if (v >= 1200)
        return OSSA_CAL3D_V1200;
    return v >= 911 && v <= 919 ? OSSA_CAL3D_IMVU : OSSA_CAL3D_CLASSIC;
}

#define TOL_EXACT 1e-6

static void check_vec(const char *what, const float *got, const float *want, int n, double tol)
{
    for (int i = 0; i < n; i++)
        CHECKF(fabs((double)got[i] - (double)want[i]) <= tol, "%s[%d]: got %.9g, want %.9g", what,
               i, (double)got[i], (double)want[i]);
}

/* The model stores Hamilton quaternions: the Cal3D file value conjugated (D3). The sign
 * is checked too: raw layouts keep the file's, bit-packed ones decode the dropped component as
 * positive and the quantised one as written (Bit-packed and Quantised CAF keys). */
static void check_quat(const char *what, const float *got, const float *cal3d, double tol)
{
    float want[4] = {-cal3d[0], -cal3d[1], -cal3d[2], cal3d[3]};
    check_vec(what, got, want, 4, tol);
}

static int canon_by_name(const char *name)
{
    for (int i = 0; i < BONES; i++)
        if (name && strcmp(name, canon_template[i].name) == 0)
            return i;
    return -1;
}

/* Canonical index of model bone b, or -1. */
static int canon_of_model(const ossa_model *m, uint32_t b)
{
    return b < m->bone_count ? canon_by_name(m->bones[b].name) : -1;
}

static void check_skeleton(const ossa_model *m, const character *c, int version)
{
    CHECKF(m->bone_count == BONES, "bone_count %u", m->bone_count);
    if (m->bone_count != BONES)
        return;
    CHECK(m->skeleton_format == OSSA_FORMAT_CSF);
    CHECKF(m->skeleton_version == file_version(version), "skeleton_version %u",
           m->skeleton_version);
    CHECKF(m->skeleton_lineage == expected_lineage(version), "skeleton read as %s",
           ossa_cal3d_lineage_name(m->skeleton_lineage));
    int lights = cw_has_node_lights(version);
    CHECKF(m->has_scene_ambient == lights, "has_scene_ambient %d", m->has_scene_ambient);
    if (lights)
        check_vec("scene ambient", m->scene_ambient, scene_ambient, 3, 0);
    int seen[BONES] = {0};
    for (uint32_t i = 0; i < BONES; i++) {
        const ossa_bone *b = &m->bones[i];
        int ci = canon_by_name(b->name);
        CHECKF(ci >= 0, "bone %u has unexpected name '%s'", i, b->name ? b->name : "(null)");
        if (ci < 0)
            continue;
        seen[ci]++;
        const canon_bone *cb = &c->canon[ci];
        char what[64];
        snprintf(what, sizeof what, "bone %s", cb->name);
        CHECKF(b->source_index == (uint32_t)c->file_of[ci], "%s: source_index %u, want %d", what,
               b->source_index, c->file_of[ci]);
        /* Parents first, and the parent is the right bone. */
        CHECKF(b->parent < (int32_t)i, "%s: parent %d not before %u", what, b->parent, i);
        if (cb->parent < 0)
            CHECKF(b->parent == -1, "%s: parent %d, want root", what, b->parent);
        else
            CHECKF(b->parent >= 0 && canon_of_model(m, (uint32_t)b->parent) == cb->parent,
                   "%s: parent %d is not %s", what, b->parent, c->canon[cb->parent].name);
        snprintf(what, sizeof what, "bone %s rest_t", cb->name);
        check_vec(what, b->rest_t, cb->t, 3, 0);
        snprintf(what, sizeof what, "bone %s rest_r", cb->name);
        check_quat(what, b->rest_r, cb->r, 0);
        snprintf(what, sizeof what, "bone %s inv_bind_t", cb->name);
        check_vec(what, b->inv_bind_t, cb->lt, 3, 0);
        snprintf(what, sizeof what, "bone %s inv_bind_r", cb->name);
        check_quat(what, b->inv_bind_r, cb->lr, 0);
        static const float one[3] = {1, 1, 1};
        snprintf(what, sizeof what, "bone %s rest_s", cb->name);
        check_vec(what, b->rest_s, one, 3, 0);
        static const float zero[3] = {0, 0, 0};
        CHECKF(b->light_type == (lights ? cb->light_type : 0), "bone %s light_type %d", cb->name,
               b->light_type);
        snprintf(what, sizeof what, "bone %s light_color", cb->name);
        check_vec(what, b->light_color, lights ? cb->light_color : zero, 3, 0);
        /* Children, as model indices, name the canonical children in file order. */
        uint32_t want_children = 0;
        for (int k = 0; k < BONES; k++)
            want_children += c->canon[k].parent == ci;
        CHECKF(b->child_count == want_children, "bone %s child_count %u, want %u", cb->name,
               b->child_count, want_children);
        const cw_bone *fb = &c->bones[c->file_of[ci]];
        for (uint32_t k = 0; k < b->child_count && k < fb->child_count && b->children; k++)
            CHECKF(canon_of_model(m, b->children[k]) == c->canon_of[fb->children[k]],
                   "bone %s child %u is model bone %u", cb->name, k, b->children[k]);
    }
    for (int i = 0; i < BONES; i++)
        CHECKF(seen[i] == 1, "bone %s seen %d times", canon_template[i].name, seen[i]);
}

/* The model bone an influence or track names must be the canonical bone the file id meant. */
static void check_bone_ref(const ossa_model *m, const character *c, uint32_t model_bone,
                           int32_t file_bone, const char *what)
{
    int want = c->canon_of[file_bone];
    CHECKF(canon_of_model(m, model_bone) == want, "%s: model bone %u, want %s", what,
           model_bone, c->canon[want].name);
}

static void check_submesh(const ossa_model *m, const character *c, const ossa_submesh *sm,
                          const cw_submesh *w, int s, int version)
{
    char what[96];
    CHECKF(sm->material == w->material, "submesh %d material %d", s, sm->material);
    CHECKF(sm->vertex_count == w->vertex_count, "submesh %d vertex_count %u", s, sm->vertex_count);
    CHECKF(sm->face_count == w->face_count, "submesh %d face_count %u", s, sm->face_count);
    CHECKF(sm->uv_set_count == w->texcoord_count, "submesh %d uv sets %u", s, sm->uv_set_count);
    CHECKF(sm->lod_count == (uint32_t)w->lod_count, "submesh %d lod_count %u", s, sm->lod_count);
    if (sm->vertex_count != w->vertex_count || sm->face_count != w->face_count ||
        sm->uv_set_count != w->texcoord_count)
        return;
    uint32_t max_inf = 0;
    for (uint32_t v = 0; v < w->vertex_count; v++) {
        const cw_vertex *wv = &w->vertices[v];
        snprintf(what, sizeof what, "submesh %d vertex %u position", s, v);
        check_vec(what, sm->positions + 3 * v, wv->position, 3, 0);
        snprintf(what, sizeof what, "submesh %d vertex %u normal", s, v);
        check_vec(what, sm->normals + 3 * v, wv->normal, 3, 0);
        static const float white[3] = {1, 1, 1};
        const float *want_color = cw_has_vertex_colors(version) ? wv->color : white;
        snprintf(what, sizeof what, "submesh %d vertex %u color", s, v);
        if (sm->colors)
            check_vec(what, sm->colors + 3 * v, want_color, 3, 0);
        else
            CHECKF(want_color == white, "%s: NULL colours, want (%g %g %g)", what,
                   (double)want_color[0], (double)want_color[1], (double)want_color[2]);
        for (uint32_t u = 0; u < w->texcoord_count; u++) {
            snprintf(what, sizeof what, "submesh %d vertex %u uv set %u", s, v, u);
            check_vec(what, sm->uvs + 2 * ((size_t)v * w->texcoord_count + u), wv->uv[u], 2, 0);
        }
        if (sm->collapse_id)
            CHECKF(sm->collapse_id[v] == wv->collapse_id, "submesh %d vertex %u collapse %d", s,
                   v, sm->collapse_id[v]);
        if (sm->face_collapse_count)
            CHECKF(sm->face_collapse_count[v] == (uint32_t)wv->face_collapse_count,
                   "submesh %d vertex %u face collapse count %u", s, v,
                   sm->face_collapse_count[v]);
        uint32_t n = sm->influence_start[v + 1] - sm->influence_start[v];
        CHECKF(n == wv->influence_count, "submesh %d vertex %u has %u influences, want %u", s, v,
               n, wv->influence_count);
        max_inf = wv->influence_count > max_inf ? wv->influence_count : max_inf;
        for (uint32_t i = 0; i < n && i < wv->influence_count; i++) {
            const ossa_influence *inf = &sm->influences[sm->influence_start[v] + i];
            snprintf(what, sizeof what, "submesh %d vertex %u influence %u", s, v, i);
            check_bone_ref(m, c, inf->bone, wv->influence_bone[i], what);
            CHECKF(inf->weight == wv->influence_weight[i], "%s weight %g", what,
                   (double)inf->weight);
        }
        if (w->spring_count) {
            CHECKF(sm->physique_weights != NULL, "submesh %d: no physique weights", s);
            if (sm->physique_weights)
                CHECKF(sm->physique_weights[v] == wv->physique_weight,
                       "submesh %d vertex %u physique %g", s, v, (double)sm->physique_weights[v]);
        }
    }
    CHECKF(sm->max_influences == max_inf, "submesh %d max_influences %u, want %u", s,
           sm->max_influences, max_inf);
    CHECKF(sm->spring_count == w->spring_count, "submesh %d spring_count %u", s, sm->spring_count);
    for (uint32_t i = 0; i < sm->spring_count && i < w->spring_count; i++) {
        const ossa_spring *sp = &sm->springs[i];
        CHECK(sp->vertex[0] == (uint32_t)w->springs[i].vertex[0]);
        CHECK(sp->vertex[1] == (uint32_t)w->springs[i].vertex[1]);
        CHECK(sp->coefficient == w->springs[i].coefficient);
        CHECK(sp->idle_length == w->springs[i].idle_length);
    }
    if (!w->spring_count)
        CHECKF(sm->physique_weights == NULL, "submesh %d: physique weights without springs", s);

    /* Morph targets: the file's absolute values become deltas from the base vertex. */
    uint32_t want_morphs = cw_has_morph_targets(version) ? w->morph_count : 0;
    CHECKF(sm->morph_count == want_morphs, "submesh %d morph_count %u, want %u", s,
           sm->morph_count, want_morphs);
    for (uint32_t t = 0; t < sm->morph_count && t < want_morphs; t++) {
        const ossa_morph_target *mt = &sm->morphs[t];
        const cw_morph *wm = &w->morphs[t];
        CHECKF(mt->name && strcmp(mt->name, wm->name) == 0, "morph name '%s'",
               mt->name ? mt->name : "(null)");
        CHECKF(mt->count == wm->count, "morph %s count %u, want %u", wm->name, mt->count,
               wm->count);
        for (uint32_t k = 0; k < mt->count && k < wm->count; k++) {
            const cw_blend_vertex *bv = &wm->vertices[k];
            const cw_vertex *base = &w->vertices[bv->vertex];
            CHECKF(mt->vertex[k] == (uint32_t)bv->vertex, "morph %s entry %u vertex %u", wm->name,
                   k, mt->vertex[k]);
            float dp[3], dn[3];
            for (int i = 0; i < 3; i++) {
                dp[i] = bv->position[i] - base->position[i];
                dn[i] = bv->normal[i] - base->normal[i];
            }
            snprintf(what, sizeof what, "morph %s vertex %d d_position", wm->name, bv->vertex);
            check_vec(what, mt->d_position + 3 * k, dp, 3, TOL_EXACT);
            snprintf(what, sizeof what, "morph %s vertex %d d_normal", wm->name, bv->vertex);
            check_vec(what, mt->d_normal + 3 * k, dn, 3, TOL_EXACT);
            for (uint32_t u = 0; mt->d_uv && u < w->texcoord_count; u++) {
                float du[2] = {bv->uv[u][0] - base->uv[u][0], bv->uv[u][1] - base->uv[u][1]};
                snprintf(what, sizeof what, "morph %s vertex %d d_uv set %u", wm->name,
                         bv->vertex, u);
                check_vec(what, mt->d_uv + 2 * ((size_t)k * w->texcoord_count + u), du, 2,
                          TOL_EXACT);
            }
        }
    }

    /* Faces: the binary auto-flip swaps indices 1 and 2 of every face when the first face's
     * (p1 - p2) x (p3 - p2) points along vertex 1's normal. Submesh 0 is built to flip. */
    int flip = cw_flips_winding(version) && s == 0;
    CHECKF(sm->winding_flipped == flip, "submesh %d winding_flipped %d, want %d", s,
           sm->winding_flipped, flip);
    for (uint32_t f = 0; f < w->face_count; f++) {
        uint32_t want[3] = {(uint32_t)w->faces[3 * f], (uint32_t)w->faces[3 * f + 1],
                            (uint32_t)w->faces[3 * f + 2]};
        if (flip) {
            uint32_t t = want[1];
            want[1] = want[2];
            want[2] = t;
        }
        for (int i = 0; i < 3; i++)
            CHECKF(sm->indices[3 * f + i] == want[i], "submesh %d face %u index %d: %u, want %u",
                   s, f, i, sm->indices[3 * f + i], want[i]);
    }
}

static void check_mesh(const ossa_model *m, const character *c, int version)
{
    CHECKF(m->mesh_count == 1, "mesh_count %u", m->mesh_count);
    if (m->mesh_count != 1)
        return;
    const ossa_mesh *mesh = &m->meshes[0];
    CHECKF(mesh->name && strcmp(mesh->name, "hero") == 0, "mesh name '%s'",
           mesh->name ? mesh->name : "(null)");
    CHECK(mesh->format == OSSA_FORMAT_CMF);
    CHECKF(mesh->version == file_version(version), "mesh version %u", mesh->version);
    CHECKF(mesh->lineage == expected_lineage(version), "mesh read as %s",
           ossa_cal3d_lineage_name(mesh->lineage));
    CHECKF(mesh->submesh_count == 2, "submesh_count %u", mesh->submesh_count);
    for (uint32_t s = 0; s < mesh->submesh_count && s < 2; s++)
        check_submesh(m, c, &mesh->submeshes[s], &c->sub[s], (int)s, version);
}

/* Whether key k decodes to its own translation (bit-packed required-but-static tracks copy the
 * first key's instead). */
static int translation_is_own(const cw_track *t, uint32_t k, cw_track_layout layout)
{
    return !(layout == CW_LAYOUT_BITPACKED && k > 0 &&
             (t->flags & CW_TRACK_TRANSLATION_REQUIRED) &&
             !(t->flags & CW_TRACK_TRANSLATION_DYNAMIC));
}

static void check_clip(const ossa_model *m, const character *c, int version,
                       const cw_caf_options *opt)
{
    CHECKF(m->clip_count == 1, "clip_count %u", m->clip_count);
    if (m->clip_count != 1)
        return;
    const ossa_clip *clip = &m->clips[0];
    cw_track_layout layout = cw_caf_layout(version, opt);
    CHECKF(clip->name && strcmp(clip->name, "walk") == 0, "clip name '%s'",
           clip->name ? clip->name : "(null)");
    CHECK(clip->format == OSSA_FORMAT_CAF);
    CHECKF(clip->version == file_version(version), "clip version %u", clip->version);
    CHECKF(clip->duration == c->anim.duration, "clip duration %g", (double)clip->duration);
    CHECKF(clip->compressed == (layout != CW_LAYOUT_RAW), "clip compressed %d, layout %d",
           clip->compressed, (int)layout);
    CHECKF(clip->track_count == TRACKS, "track_count %u", clip->track_count);
    for (uint32_t t = 0; t < clip->track_count && t < TRACKS; t++) {
        const ossa_track *tr = &clip->tracks[t];
        const cw_track *wt = &c->tracks[t];
        char what[96];
        snprintf(what, sizeof what, "track %u bone", t);
        check_bone_ref(m, c, tr->bone, wt->bone, what);
        CHECKF(tr->key_count == wt->key_count, "track %u key_count %u", t, tr->key_count);
        if (layout == CW_LAYOUT_BITPACKED)
            CHECKF(tr->flags == wt->flags, "track %u flags %u, want %u", t, tr->flags, wt->flags);
        float time_tol, trans_tol, rot_tol;
        cw_quantisation_tolerance(&c->anim, version, opt, t, &time_tol, &trans_tol, &rot_tol);
        /* Decoded values agree with the writer's own decoding up to float rounding. */
        double tol = layout == CW_LAYOUT_RAW ? 0.0 : 2e-5;
        for (uint32_t k = 0; k < tr->key_count && k < wt->key_count; k++) {
            cw_key want;
            cw_expect_key(&c->anim, &c->skel, version, opt, t, k, &want);
            /* The writer's decoding is within half a step of what was written. */
            const cw_key *orig = &wt->keys[k];
            CHECKF(fabsf(want.time - orig->time) <= time_tol * 1.0001f + 1e-7f,
                   "writer: track %u key %u time", t, k);
            if (translation_is_own(wt, k, layout))
                for (int i = 0; i < 3; i++)
                    CHECKF(fabsf(want.translation[i] - orig->translation[i]) <=
                               trans_tol * 1.0001f + 1e-6f * fabsf(orig->translation[i]),
                           "writer: track %u key %u translation %d: %g vs %g", t, k, i,
                           (double)want.translation[i], (double)orig->translation[i]);
            float dot = 0;
            for (int i = 0; i < 4; i++)
                dot += want.rotation[i] * orig->rotation[i];
            for (int i = 0; i < 4; i++)
                CHECKF(fabsf(want.rotation[i] - (dot < 0 ? -1.0f : 1.0f) * orig->rotation[i]) <=
                           rot_tol + 1e-6f,
                       "writer: track %u key %u rotation %d", t, k, i);

            snprintf(what, sizeof what, "track %u key %u time", t, k);
            check_vec(what, &tr->times[k], &want.time, 1, tol);
            snprintf(what, sizeof what, "track %u key %u translation", t, k);
            check_vec(what, tr->translations + 3 * k, want.translation, 3,
                      tol * (1.0 + fabs((double)want.translation[0]) +
                             fabs((double)want.translation[1]) + fabs((double)want.translation[2])));
            snprintf(what, sizeof what, "track %u key %u rotation", t, k);
            check_quat(what, tr->rotations + 4 * k, want.rotation, tol);
        }
    }
}

static void check_morph_clip(const ossa_model *m, const character *c, int version)
{
    CHECKF(m->morph_clip_count == 1, "morph_clip_count %u", m->morph_clip_count);
    if (m->morph_clip_count != 1)
        return;
    const ossa_morph_clip *mc = &m->morph_clips[0];
    CHECKF(mc->name && strcmp(mc->name, "smile") == 0, "morph clip name '%s'",
           mc->name ? mc->name : "(null)");
    CHECK(mc->format == OSSA_FORMAT_CPF);
    CHECKF(mc->version == file_version(version), "morph clip version %u", mc->version);
    CHECK(mc->duration == c->manim.duration);
    CHECKF(mc->track_count == 1, "morph track_count %u", mc->track_count);
    if (mc->track_count != 1)
        return;
    const ossa_morph_track *t = &mc->tracks[0];
    CHECKF(t->morph_name && strcmp(t->morph_name, "smile") == 0, "morph track name '%s'",
           t->morph_name ? t->morph_name : "(null)");
    CHECKF(t->key_count == 3, "morph key_count %u", t->key_count);
    for (uint32_t k = 0; k < t->key_count && k < 3; k++) {
        CHECK(t->times[k] == c->mkeys[k].time);
        CHECK(t->weights[k] == c->mkeys[k].weight);
    }
}

static void check_material(const ossa_model *m, const character *c, int version)
{
    CHECKF(m->material_count == 1, "material_count %u", m->material_count);
    if (m->material_count != 1)
        return;
    const ossa_material *mat = &m->materials[0];
    CHECKF(mat->name && strcmp(mat->name, "skin") == 0, "material name '%s'",
           mat->name ? mat->name : "(null)");
    CHECK(mat->format == OSSA_FORMAT_CRF);
    CHECKF(mat->version == file_version(version), "material version %u", mat->version);
    for (int i = 0; i < 4; i++) {
        CHECK_NEAR(mat->ambient[i], c->material.ambient[i] / 255.0, 1e-6);
        CHECK_NEAR(mat->diffuse[i], c->material.diffuse[i] / 255.0, 1e-6);
        CHECK_NEAR(mat->specular[i], c->material.specular[i] / 255.0, 1e-6);
    }
    CHECK(mat->shininess == c->material.shininess);
    CHECKF(mat->map_count == 2, "map_count %u", mat->map_count);
    for (uint32_t i = 0; i < mat->map_count && i < 2; i++) {
        const ossa_texture_map *map = &mat->maps[i];
        const char *want_type = cw_has_map_types(version) ? c->maps[i].type : "";
        CHECKF(map->file && strcmp(map->file, c->maps[i].file) == 0, "map %u file '%s'", i,
               map->file ? map->file : "(null)");
        CHECKF(map->type && strcmp(map->type, want_type) == 0, "map %u type '%s', want '%s'", i,
               map->type ? map->type : "(null)", want_type);
        size_t pl = map->path ? strlen(map->path) : 0, fl = strlen(c->maps[i].file);
        CHECKF(pl >= fl && strcmp(map->path + pl - fl, c->maps[i].file) == 0, "map %u path '%s'",
               i, map->path ? map->path : "(null)");
    }
}

/* ---- files ---- */

static const char *const file_names[] = {"walk.caf", "hero.cmf", "smile.cpf", "skin.crf",
                                         "hero.csf"};
enum { FILES = 5 };

/* Writes the five files into dir; 0 on success. */
static int write_files(const character *c, const char *dir, int version,
                       const cw_caf_options *opt)
{
    uint8_t *data[FILES];
    size_t size[FILES];
    data[0] = cw_write_caf(&c->anim, version, opt, &size[0]);
    data[1] = cw_write_cmf(&c->mesh, version, &size[1]);
    data[2] = cw_write_cpf(&c->manim, version, &size[2]);
    data[3] = cw_write_crf(&c->material, version, &size[3]);
    data[4] = cw_write_csf(&c->skel, version, &size[4]);
    int bad = 0;
    for (int i = 0; i < FILES; i++) {
        if (!data[i] || cw_save(dir, file_names[i], data[i], size[i]) != 0) {
            fprintf(stderr, "cannot write %s/%s\n", dir, file_names[i]);
            bad = 1;
        }
        free(data[i]);
    }
    return bad ? -1 : 0;
}

static void remove_files(const char *dir)
{
    char path[4096];
    for (int i = 0; i < FILES; i++)
        unlink(test_path(path, sizeof path, dir, file_names[i]));
    rmdir(dir);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s VERSION[c|q] [reorder]\n", argv[0]);
        return 2;
    }
    char *end;
    long version = strtol(argv[1], &end, 10);
    cw_caf_options opt = {0, 0};
    for (; *end; end++) {
        if (*end == 'c')
            opt.compress = 1;
        else if (*end == 'q')
            opt.flags = 1;
        else if (*end == 'm' && version >= 1300)
            version |= CW_MP3BUTCHER;
        else if (*end == 't' && (version & CW_MP3BUTCHER))
            version |= CW_MP3BUTCHER_TERMINATED;
        else {
            fprintf(stderr, "bad case '%s'\n", argv[1]);
            return 2;
        }
    }
    int reorder = argc > 2 && strcmp(argv[2], "reorder") == 0;
    char name[64];
    snprintf(name, sizeof name, "layouts-%s%s", argv[1], reorder ? "-reorder" : "");

    character *c = malloc(sizeof *c);
    if (!c)
        return 1;
    build_character(c, reorder);
    char dir[] = "/tmp/ossa-layouts-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        free(c);
        return 1;
    }
    if (write_files(c, dir, (int)version, &opt) != 0) {
        test_failures++;
    } else {
        char paths[FILES][4096];
        const char *list[FILES];
        for (int i = 0; i < FILES; i++)
            list[i] = test_path(paths[i], sizeof paths[i], dir, file_names[i]);
        ossa_model *m = NULL;
        ossa_error err;
        ossa_status st = ossa_load_files(list, FILES, NULL, &m, &err);
        if (st != OSSA_OK) {
            char buf[1024];
            fprintf(stderr, "load failed: %s\n", ossa_error_format(&err, buf, sizeof buf));
        }
        CHECKF(st == OSSA_OK && m, "ossa_load_files: %s", ossa_status_name(st));
        if (m) {
            for (uint32_t i = 0; i < m->warning_count; i++)
                fprintf(stderr, "warning: %s\n", m->warnings[i]);
            CHECK(m->format == OSSA_FORMAT_CSF);
            CHECKF(m->version == file_version(version), "model version %u", m->version);
            check_skeleton(m, c, (int)version);
            check_mesh(m, c, (int)version);
            check_clip(m, c, (int)version, &opt);
            check_morph_clip(m, c, (int)version);
            check_material(m, c, (int)version);
            ossa_model_destroy(m);
        }
    }
    remove_files(dir);
    free(c);
    return test_finish(name);
}
