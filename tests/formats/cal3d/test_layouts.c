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
#include "ossa/load.h"
#include "test_common.h"

/* ---- the character, in parents-first ("canonical") order ---- */

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

static const canon_bone canon_template[BONES] = {
    {"root", -1, {0.5f, -1.25f, 3.0f}, {0.1f, 0.2f, 0.3f, 0.9f}, {-0.5f, 1.0f, -3.0f},
     {-0.1f, -0.2f, -0.3f, 0.9f}, 0, {0, 0, 0}},
    {"spine", 0, {0.0f, 0.0f, 1.5f}, {-0.7f, 0.1f, 0.0f, 0.7f}, {0.25f, -0.75f, -4.5f},
     {0.6f, -0.3f, 0.2f, 0.7f}, 1, {1.0f, 0.5f, 0.25f}},
    {"head", 1, {0.0f, 0.125f, 0.75f}, {0.0f, -0.9f, 0.2f, 0.38f}, {1.0f, 2.0f, 3.0f},
     {0.3f, 0.3f, -0.8f, 0.4f}, 2, {0.1f, 0.2f, 0.3f}},
    {"hip_l", 0, {-0.3f, 0.0f, 0.0f}, {0.3f, 0.2f, 0.85f, -0.38f}, {0.3f, 0.0f, 0.0f},
     {0.0f, 0.0f, 0.0f, 1.0f}, 4, {0.9f, 0.9f, 0.9f}},
    {"leg_l", 3, {0.0f, 0.0f, -1.0f}, {0.05f, 0.05f, 0.05f, -0.99f}, {0.0f, 0.0f, 1.0f},
     {0.2f, 0.1f, 0.0f, 0.97f}, 3, {0.0f, 1.0f, 0.0f}},
};
static const float scene_ambient[3] = {0.2f, 0.3f, 0.4f};

/* File index of each canonical bone: identity, or child-before-parent (leg_l first, root last). */
static const int file_identity[BONES] = {0, 1, 2, 3, 4};
static const int file_reordered[BONES] = {4, 2, 1, 3, 0};

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

static void normalise(float q[4])
{
    float n = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        q[i] /= n;
}

static void set3(float *d, float a, float b, float c)
{
    d[0] = a;
    d[1] = b;
    d[2] = c;
}

static void set_key(cw_key *k, float time, float tx, float ty, float tz, float rx, float ry,
                    float rz, float rw)
{
    k->time = time;
    set3(k->translation, tx, ty, tz);
    k->rotation[0] = rx;
    k->rotation[1] = ry;
    k->rotation[2] = rz;
    k->rotation[3] = rw;
    normalise(k->rotation);
}

static void set_influences(cw_vertex *v, int n, const int *bones, const float *w,
                           const int *file_of)
{
    v->influence_count = (uint32_t)n;
    for (int i = 0; i < n; i++) {
        v->influence_bone[i] = file_of[bones[i]];
        v->influence_weight[i] = w[i];
    }
}

static void build_character(character *c, int reorder)
{
    memset(c, 0, sizeof *c);
    memcpy(c->canon, canon_template, sizeof c->canon);
    c->file_of = reorder ? file_reordered : file_identity;
    for (int i = 0; i < BONES; i++) {
        normalise(c->canon[i].r);
        normalise(c->canon[i].lr);
        c->canon_of[c->file_of[i]] = i;
    }
    /* Skeleton in file order; children lists in canonical order of the children. */
    for (int ci = 0; ci < BONES; ci++) {
        const canon_bone *cb = &c->canon[ci];
        int fi = c->file_of[ci];
        cw_bone *b = &c->bones[fi];
        b->name = cb->name;
        b->parent = cb->parent < 0 ? -1 : c->file_of[cb->parent];
        memcpy(b->translation, cb->t, sizeof b->translation);
        memcpy(b->rotation, cb->r, sizeof b->rotation);
        memcpy(b->local_translation, cb->lt, sizeof b->local_translation);
        memcpy(b->local_rotation, cb->lr, sizeof b->local_rotation);
        b->light_type = cb->light_type;
        memcpy(b->light_color, cb->light_color, sizeof b->light_color);
        for (int k = 0; k < BONES; k++)
            if (c->canon[k].parent == ci)
                c->children[fi][b->child_count++] = c->file_of[k];
        b->children = c->children[fi];
    }
    c->skel.bone_count = BONES;
    c->skel.bones = c->bones;
    memcpy(c->skel.scene_ambient, scene_ambient, sizeof scene_ambient);

    /* Animation: times are multiples of 1/30 s so the IMVU 10-bit time steps are exact.
     * Track 0 (root): translation required + dynamic, high range.
     * Track 1 (spine): translation required, not dynamic, low range: bit-packed keys after the
     *   first copy the first key's translation.
     * Track 2 (head): no translation: bit-packed keys take the bone's rest translation, and the
     *   raw layouts store that same translation. Its rotations cover every dropped component
     *   and a negative largest one. */
    set_key(&c->keys[0][0], 0.0f, 1.0f, 2.0f, 3.0f, 0.1f, 0.2f, 0.3f, 0.9f);
    set_key(&c->keys[0][1], 0.2f, 1.5f, -2.25f, 30.0f, -0.8f, 0.1f, 0.2f, 0.55f);
    set_key(&c->keys[0][2], 0.5f, -200.0f, 2.5f, 3.5f, 0.2f, -0.9f, 0.1f, 0.37f);
    set_key(&c->keys[0][3], 1.0f, 1000.0f, 0.0f, -7.75f, 0.3f, 0.2f, 0.85f, -0.38f);
    set_key(&c->keys[1][0], 0.0f, 0.25f, -0.5f, 1.5f, 0.0f, 0.0f, 0.0f, 1.0f);
    set_key(&c->keys[1][1], 0.4f, 0.75f, -0.25f, 1.25f, 0.5f, 0.5f, 0.5f, 0.5f);
    set_key(&c->keys[1][2], 0.8f, 1.0f, 0.0f, 0.5f, -0.3f, -0.3f, -0.3f, -0.6f);
    for (int k = 0; k < 3; k++) {
        static const float rot[3][4] = {{0.9f, 0.1f, -0.1f, 0.2f}, {0.1f, 0.2f, -0.95f, 0.1f},
                                        {0.05f, 0.05f, 0.05f, -0.99f}};
        const float *t = c->canon[2].t;
        set_key(&c->keys[2][k], (float)k / 3.0f, t[0], t[1], t[2], rot[k][0], rot[k][1],
                rot[k][2], rot[k][3]);
    }
    const int track_bone[TRACKS] = {0, 1, 2};
    const uint32_t track_flags[TRACKS] = {
        CW_TRACK_TRANSLATION_REQUIRED | CW_TRACK_TRANSLATION_DYNAMIC | CW_TRACK_HIGH_RANGE,
        CW_TRACK_TRANSLATION_REQUIRED, 0};
    const uint32_t track_keys[TRACKS] = {4, 3, 3};
    for (int t = 0; t < TRACKS; t++) {
        c->tracks[t].bone = c->file_of[track_bone[t]];
        c->tracks[t].flags = track_flags[t];
        c->tracks[t].key_count = track_keys[t];
        c->tracks[t].keys = c->keys[t];
    }
    c->anim.duration = 1.0f;
    c->anim.track_count = TRACKS;
    c->anim.tracks = c->tracks;

    /* Submesh 0: a quad whose first face winds clockwise seen from its +z normals, so the
     * binary CMF auto-flip (A.5) applies to it; two uv sets, 1..4 influences, a spring and a
     * morph target. */
    static const float quad[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    static const int inf_bones[4][4] = {{0}, {1, 0}, {1, 2, 0}, {2, 1, 3, 4}};
    static const float inf_w[4][4] = {{1.0f}, {0.6f, 0.4f}, {0.5f, 0.3f, 0.2f},
                                      {0.4f, 0.3f, 0.2f, 0.1f}};
    for (int i = 0; i < 4; i++) {
        cw_vertex *v = &c->v0[i];
        memcpy(v->position, quad[i], sizeof v->position);
        set3(v->normal, 0, 0, 1);
        set3(v->color, 0.25f * (float)i, 1.0f - 0.2f * (float)i, 0.5f);
        v->collapse_id = i == 3 ? 0 : -1;
        v->face_collapse_count = i == 3 ? 2 : 0;
        v->uv[0][0] = quad[i][0];
        v->uv[0][1] = quad[i][1];
        v->uv[1][0] = 0.5f + 0.125f * (float)i;
        v->uv[1][1] = -0.25f * (float)i;
        set_influences(v, i + 1, inf_bones[i], inf_w[i], c->file_of);
        v->physique_weight = i < 2 ? 0.0f : 0.5f * (float)(i - 1);
    }
    c->springs[0] = (cw_spring){{2, 3}, 0.5f, 1.0f};
    for (int k = 0; k < 2; k++) {
        cw_blend_vertex *bv = &c->blend[k];
        int vi = k == 0 ? 1 : 3;
        bv->vertex = vi;
        set3(bv->position, quad[vi][0] + 0.5f, quad[vi][1] - 0.25f, 0.75f * (float)(k + 1));
        set3(bv->normal, 0.0f, 0.6f, 0.8f);
        bv->uv[0][0] = c->v0[vi].uv[0][0] + 0.125f;
        bv->uv[0][1] = c->v0[vi].uv[0][1];
        bv->uv[1][0] = c->v0[vi].uv[1][0];
        bv->uv[1][1] = c->v0[vi].uv[1][1] - 0.5f;
    }
    c->morph = (cw_morph){"smile", 2, c->blend};
    static const int32_t f0[6] = {0, 2, 1, 0, 3, 2};
    memcpy(c->faces0, f0, sizeof f0);
    c->sub[0] = (cw_submesh){.material = 0, .lod_count = 1, .texcoord_count = 2,
                             .vertex_count = 4, .vertices = c->v0, .spring_count = 1,
                             .springs = c->springs, .morph_count = 1, .morphs = &c->morph,
                             .face_count = 2, .faces = c->faces0};

    /* Submesh 1: one counter-clockwise triangle (no flip), one uv set, no springs. */
    static const float tri[3][3] = {{2, 0, 0}, {3, 0, 0}, {2, 1, 0}};
    static const int tri_bones[3][2] = {{3}, {3, 4}, {4}};
    static const float tri_w[3][2] = {{1.0f}, {0.75f, 0.25f}, {1.0f}};
    for (int i = 0; i < 3; i++) {
        cw_vertex *v = &c->v1[i];
        memcpy(v->position, tri[i], sizeof v->position);
        set3(v->normal, 0, 0, 1);
        set3(v->color, 1.0f, 0.0f, 0.125f * (float)i);
        v->collapse_id = -1;
        v->uv[0][0] = 0.25f * (float)i;
        v->uv[0][1] = 1.0f - 0.25f * (float)i;
        set_influences(v, i == 1 ? 2 : 1, tri_bones[i], tri_w[i], c->file_of);
    }
    static const int32_t f1[3] = {0, 1, 2};
    memcpy(c->faces1, f1, sizeof f1);
    c->sub[1] = (cw_submesh){.material = 0, .lod_count = 0, .texcoord_count = 1,
                             .vertex_count = 3, .vertices = c->v1, .face_count = 1,
                             .faces = c->faces1};
    c->mesh = (cw_mesh){2, c->sub};

    c->maps[0] = (cw_map){"skin.png", "Diffuse Color"};
    c->maps[1] = (cw_map){"skin_alpha.png", "Opacity"};
    c->material = (cw_material){{10, 20, 30, 255}, {200, 100, 50, 255}, {255, 255, 255, 128},
                                32.5f, 2, c->maps};

    c->mkeys[0] = (cw_morph_key){0.0f, 0.0f};
    c->mkeys[1] = (cw_morph_key){0.5f, 1.0f};
    c->mkeys[2] = (cw_morph_key){1.0f, 0.25f};
    c->mtrack = (cw_morph_track){"smile", 3, c->mkeys};
    c->manim = (cw_morph_animation){1.0f, 1, &c->mtrack};
}

/* ---- checks ---- */

/* The number the files carry (without the mp3butcher flag of the test writer). */
static uint32_t file_version(int version)
{
    return (uint32_t)(version & ~CW_MP3BUTCHER);
}

/* The layout the reader must report for a skeleton or mesh of this case (Decision 1): the
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

/* The model stores Hamilton quaternions: the Cal3D file value conjugated (Decision 3). The sign
 * is checked too: raw layouts keep the file's, bit-packed ones decode the dropped component as
 * positive and the quantised one as written (B.1, B.2). */
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
