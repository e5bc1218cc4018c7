/* The layout round trip's character (layouts_character.h). */
#include "layouts_character.h"

#include <math.h>
#include <string.h>

const canon_bone canon_template[BONES] = {
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
const float scene_ambient[3] = {0.2f, 0.3f, 0.4f};

/* File index of each canonical bone: identity, or child-before-parent (leg_l first, root last). */
static const int file_identity[BONES] = {0, 1, 2, 3, 4};
static const int file_reordered[BONES] = {4, 2, 1, 3, 0};



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

void build_character(character *c, int reorder)
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
     * binary CMF auto-flip (D7) applies to it; two uv sets, 1..4 influences, a spring and a
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
