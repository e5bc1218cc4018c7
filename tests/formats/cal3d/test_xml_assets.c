/* Cal3D XML readers on the real files of ../shared/assets: every XSF/XAF/XMF/XRF/XPF loads on
 * its own, and the folders load as models with concrete values checked. Skips when the assets
 * are absent. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "ossa/load.h"
#include "test_common.h"

static const char *assets;

static bool is_cal3d_xml(const char *name)
{
    const char *dot = strrchr(name, '.');
    static const char *const exts[] = {".xsf", ".xaf", ".xmf", ".xrf", ".xpf"};
    for (size_t i = 0; dot && i < sizeof exts / sizeof exts[0]; i++)
        if (strcasecmp(dot, exts[i]) == 0)
            return true;
    return false;
}

static bool has_warning(const ossa_model *m, const char *needle)
{
    for (uint32_t i = 0; i < m->warning_count; i++)
        if (strstr(m->warnings[i], needle))
            return true;
    return false;
}

/* Loads every Cal3D XML file below dir, one at a time; returns how many. */
static int load_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            n += load_tree(path);
            continue;
        }
        if (!is_cal3d_xml(e->d_name))
            continue;
        ossa_model *m = NULL;
        ossa_error err;
        ossa_status s = ossa_load_file(path, NULL, &m, &err);
        CHECKF(s == OSSA_OK && m, "%s: %s line %d: %s", path, ossa_status_name(s), err.line,
               err.message);
        if (m)
            CHECKF((m->bone_count > 0) + m->mesh_count + m->clip_count + m->morph_clip_count +
                           m->material_count == 1,
                   "%s: one thing per file", path);
        ossa_model_destroy(m);
        n++;
    }
    closedir(d);
    return n;
}

static ossa_model *load_set(const char *sub, const char *const *names, size_t count)
{
    char paths[32][1024];
    const char *ptrs[32];
    for (size_t i = 0; i < count && i < 32; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/%s/%s", assets, sub, names[i]);
        ptrs[i] = paths[i];
    }
    ossa_model *m = NULL;
    ossa_error err;
    ossa_status s = ossa_load_files(ptrs, count, NULL, &m, &err);
    CHECKF(s == OSSA_OK && m, "%s: %s: %s line %d: %s", sub, ossa_status_name(s), err.file,
           err.line, err.message);
    return m;
}

static const ossa_clip *clip(const ossa_model *m, const char *name)
{
    uint32_t i = ossa_model_find_clip(m, name);
    CHECKF(i != OSSA_NOT_FOUND, "clip %s", name);
    return i != OSSA_NOT_FOUND ? &m->clips[i] : NULL;
}

static void test_pose_mesh_marine(void)
{
    static const char *const files[] = {
        "BODY.XMF", "BODY.XRF", "EHeadLeft.XAF", "ERightIn.XAF", "Esquat1.XAF", "HEAD.XMF",
        "HEAD.XRF", "Helmet.XMF", "Helmet.XRF", "LEye.XMF", "LEye.XRF", "LeftTurn.XAF",
        "M16.XMF", "M16.XRF", "REye.XMF", "REye.XRF", "Skeleton.XSF"};
    ossa_model *m = load_set("cal3d-xml/PoseMeshMarine", files, sizeof files / sizeof files[0]);
    if (!m)
        return;
    /* NUMBONES says 40; the file has 41 BONE elements (a "Gun Barrel" was appended). */
    CHECK(m->bone_count == 41 && m->skeleton_format == OSSA_FORMAT_XSF);
    CHECK(m->skeleton_version == 1100);
    CHECK(has_warning(m, "NUMBONES"));
    CHECK(m->mesh_count == 6 && m->clip_count == 4 && m->material_count == 6);
    uint32_t head = ossa_model_find_bone(m, "Bip01 Head");
    CHECK(head != OSSA_NOT_FOUND);
    if (head != OSSA_NOT_FOUND) {
        const ossa_bone *bn = &m->bones[head];
        CHECK((uint32_t)bn->parent == ossa_model_find_bone(m, "Bip01 Neck"));
        CHECK_NEAR(bn->rest_t[0], 0.081591, 1e-7);
        CHECK_NEAR(bn->rest_r[2], -0.0605896, 1e-7); /* Hamilton: z negated */
        CHECK_NEAR(bn->rest_r[3], 0.998163, 1e-7);
        CHECK(bn->child_count == 3);
    }
    uint32_t gun = ossa_model_find_bone(m, "Gun Barrel");
    CHECK(gun < 41);
    const ossa_clip *c = clip(m, "EHeadLeft");
    if (c) {
        CHECK(c->track_count == 1 && c->tracks[0].bone == head);
        CHECK_NEAR(c->duration, 0.966667, 1e-6);
        CHECK(c->tracks[0].key_count == 2 && c->version == 1100);
        CHECK_NEAR(c->tracks[0].rotations[0], 0.506606, 1e-7);
        CHECK_NEAR(c->tracks[0].rotations[1], -0.0307507, 1e-7);
        CHECK_NEAR(c->tracks[0].rotations[3], 0.860046, 1e-7);
        CHECK_NEAR(c->tracks[0].translations[0], 0.081591, 1e-7);
    }
    for (uint32_t i = 0; i < m->mesh_count; i++)
        if (strcmp(m->meshes[i].name, "BODY") == 0) {
            const ossa_submesh *s = &m->meshes[i].submeshes[0];
            CHECK(s->vertex_count == 1102 && s->face_count == 1320 && s->uv_set_count == 1);
            CHECK_NEAR(s->positions[0], 0.429139, 1e-7);
            CHECK_NEAR(s->normals[1], 0.65376, 1e-7);
            CHECK_NEAR(s->uvs[1], 0.236001, 1e-7);
            CHECK(s->influence_start[1] == 2 && s->max_influences >= 2);
            CHECK_NEAR(s->influences[0].weight, 0.768938, 1e-7);
            CHECK(s->colors == NULL && s->material == 0);
        }
    for (uint32_t i = 0; i < m->material_count; i++)
        if (strcmp(m->materials[i].name, "BODY") == 0) {
            const ossa_material *mt = &m->materials[i];
            CHECK_NEAR(mt->ambient[0], 150.0 / 255.0, 1e-7);
            CHECK(mt->diffuse[3] == 1.0f && mt->specular[3] == 0.0f);
            CHECK(mt->map_count == 1 && strcmp(mt->maps[0].file, "marine_camodes.tga") == 0);
            CHECK(strstr(mt->maps[0].path, "PoseMeshMarine/marine_camodes.tga") != NULL);
        }
    ossa_model_destroy(m);
}

static void test_young_man(void)
{
    static const char *const files[] = {
        "Skeleton_Male_Average.xsf", "meshes/Eyebrows_Male_Average.xmf",
        "meshes/Eyes_Average.xmf", "meshes/Shorts_Male_Average.xmf",
        "meshes/TShirt_Short_Average.xmf", "animations/Run.xaf", "animations/Walk.xaf",
        "poses/HeadLeft.xaf", "poses/TorsoForward.xaf", "materials/Eyebrows_Black.xrf",
        "materials/Eyes_Brown.xrf", "materials/Shorts_Jogger_Green.xrf",
        "materials/TShirt_Delta3D_White.xrf"};
    ossa_model *m = load_set("cal3d-xml/YoungMan", files, sizeof files / sizeof files[0]);
    if (!m)
        return;
    CHECK(m->bone_count == 23 && m->skeleton_version == 1000);
    CHECK(m->mesh_count == 4 && m->clip_count == 4 && m->material_count == 4);
    CHECK(strcmp(m->bones[0].name, "mPelvis") == 0 && m->bones[0].parent == -1);
    CHECK_NEAR(m->bones[0].rest_t[2], 9.2364, 1e-6);
    CHECK_NEAR(m->bones[0].rest_r[1], -0.654109, 1e-7);
    uint32_t head = ossa_model_find_bone(m, "mHead");
    CHECK(head != OSSA_NOT_FOUND &&
          (uint32_t)m->bones[head].parent == ossa_model_find_bone(m, "mNeck"));
    const ossa_clip *walk = clip(m, "Walk");
    if (walk) {
        CHECK(walk->track_count == 21 && walk->duration == 2.0f);
        CHECK(walk->tracks[0].bone == 0 && walk->tracks[0].key_count == 61);
        CHECK_NEAR(walk->tracks[0].times[1], 0.0333333, 1e-7);
        CHECK_NEAR(walk->tracks[0].translations[5], 8.86024, 1e-5);
        CHECK_NEAR(walk->tracks[0].rotations[2], -0.7564, 1e-7);
    }
    const ossa_clip *pose = clip(m, "HeadLeft");
    if (pose && head != OSSA_NOT_FOUND)
        CHECK(pose->track_count == 1 && pose->tracks[0].bone == head);
    for (uint32_t i = 0; i < m->material_count; i++)
        if (strcmp(m->materials[i].name, "Eyebrows_Black") == 0) {
            CHECK(m->materials[i].map_count == 4);
            CHECK_NEAR(m->materials[i].diffuse[3], 254.0 / 255.0, 1e-7);
            CHECK(strcmp(m->materials[i].maps[3].file, "materials/Eyebrow_ALPHA.png") == 0);
        }
    ossa_model_destroy(m);
}

static void test_project_context(void)
{
    static const char *const files[] = {"Skeleton.xsf", "test_head.xmf", "talking_head.xpf"};
    ossa_model *m = load_set("cal3d-xml/tests-ProjectContext", files, 3);
    if (!m)
        return;
    CHECK(m->bone_count == 87 && m->skeleton_version == 911);
    CHECK(m->has_scene_ambient && m->scene_ambient[2] == 0.3f);
    uint32_t head = ossa_model_find_bone(m, "Head");
    CHECK(head != OSSA_NOT_FOUND && m->bones[head].source_index == 22);
    CHECK(m->mesh_count == 1 && m->morph_clip_count == 1);
    if (m->mesh_count == 1) {
        const ossa_submesh *s = &m->meshes[0].submeshes[0];
        CHECK(s->vertex_count == 64 && s->face_count == 80 && m->meshes[0].version == 919);
        CHECK(s->colors != NULL && s->colors[0] == 0.0f);
        CHECK(s->influences[0].bone == (uint32_t)head && s->influences[0].weight == 1.0f);
        CHECK(s->morph_count == 2 && strcmp(s->morphs[0].name, "aah_Head.Exclusive") == 0);
        const ossa_morph_target *t = &s->morphs[0];
        /* Absolute POSITION 0 -52.7146 1077.13 minus vertex 26 at 1.69575e-5 -52.7124 1057.13. */
        CHECK(t->count == 1 && t->vertex[0] == 26);
        CHECK_NEAR(t->d_position[0], -1.69575e-5, 1e-9);
        CHECK_NEAR(t->d_position[1], -0.0022, 1e-4);
        CHECK_NEAR(t->d_position[2], 20.0, 1e-3);
        CHECK_NEAR(t->d_normal[1], -0.989734 + 0.956271, 1e-6);
        CHECK(t->d_uv && t->d_uv[0] == 0.0f);
    }
    if (m->morph_clip_count == 1) {
        const ossa_morph_clip *c = &m->morph_clips[0];
        CHECK(strcmp(c->name, "talking_head") == 0 && c->track_count == 9);
        CHECK_NEAR(c->duration, 11.3333, 1e-4);
        CHECK(strcmp(c->tracks[0].morph_name, "aah_Head.Exclusive") == 0);
        CHECK(c->tracks[0].key_count == 341);
        CHECK_NEAR(c->tracks[0].weights[1], 0.123, 1e-7);
    }
    ossa_model_destroy(m);
}

static void test_imvu(void)
{
    /* skeleton1 (2 bones) with the two rotation-only animations that animate its bone 0. */
    static const char *const files[] = {"skeleton1.xsf", "animation2.xaf", "animation3.xaf"};
    ossa_model *m = load_set("cal3d-xml/imvu-tests", files, 3);
    if (m) {
        CHECK(m->bone_count == 2 && m->clip_count == 2);
        CHECK(strcmp(m->bones[1].name, "PelvisNode") == 0 && m->bones[1].parent == 0);
        CHECK_NEAR(m->bones[1].rest_t[2], 519.784, 1e-4);
        const ossa_clip *a2 = clip(m, "animation2");
        if (a2) {
            const ossa_track *t = &a2->tracks[0];
            CHECK(t->key_count == 2 && t->flags == OSSA_TRACK_HIGH_RANGE && a2->version == 919);
            /* D5: TRANSLATIONREQUIRED=0, so the rest translation 0 1.31134e-6 -30. */
            for (int k = 0; k < 2; k++) {
                CHECK(t->translations[3 * k] == 0.0f);
                CHECK_NEAR(t->translations[3 * k + 1], 1.31134e-6, 1e-12);
                CHECK(t->translations[3 * k + 2] == -30.0f);
            }
            CHECK(t->rotations[0] == -0.5f && t->rotations[3] == -0.5f);
            CHECK(t->times[1] == 40.0f);
        }
        const ossa_clip *a3 = clip(m, "animation3");
        if (a3) {
            const ossa_track *t = &a3->tracks[0];
            CHECK(t->key_count == 1 && t->translations[2] == -30.0f);
            CHECK_NEAR(t->rotations[2], -0.70710678, 1e-7);
            CHECK_NEAR(t->rotations[3], 0.70710678, 1e-7);
        }
        ossa_model_destroy(m);
    }

    char path[1024];
    ossa_error err;
    snprintf(path, sizeof path, "%s/cal3d-xml/imvu-tests/mesh1.xmf", assets);
    m = NULL;
    ossa_load_file(path, NULL, &m, &err);
    CHECKF(m != NULL, "%s", err.message);
    if (m) {
        const ossa_submesh *s = &m->meshes[0].submeshes[0];
        CHECK(s->vertex_count == 11 && s->face_count == 6 && s->material == 2);
        CHECK_NEAR(s->positions[0], 30.7542, 1e-4);
        CHECK(s->influences[0].bone == 22 && s->morph_count == 1);
        ossa_model_destroy(m);
    }
    snprintf(path, sizeof path, "%s/cal3d-xml/imvu-tests/mesh_with_empty_morph.xmf", assets);
    m = NULL;
    ossa_load_file(path, NULL, &m, &err);
    CHECKF(m != NULL, "%s", err.message);
    if (m) {
        const ossa_submesh *s = &m->meshes[0].submeshes[0];
        CHECK(s->morph_count == 2 && s->morphs[1].count == 0 && s->max_influences == 3);
        CHECK(strcmp(s->morphs[1].name, "empty") == 0);
        ossa_model_destroy(m);
    }
    /* Text between the top-level elements ("# a comment") is not an error. */
    snprintf(path, sizeof path, "%s/cal3d-xml/imvu-tests/xml_with_hash_mark_comments.xmf", assets);
    m = NULL;
    ossa_load_file(path, NULL, &m, &err);
    CHECKF(m != NULL, "%s", err.message);
    if (m) {
        CHECK(m->meshes[0].submeshes[0].influences[2].weight == 0.5f);
        CHECK(m->meshes[0].version == 919);
        ossa_model_destroy(m);
    }
    /* "0.0." in a NORM: the stray dot is ignored with a warning. */
    snprintf(path, sizeof path, "%s/cal3d-xml/imvu-tests/mesh2.xmf", assets);
    m = NULL;
    ossa_load_file(path, NULL, &m, &err);
    CHECKF(m != NULL, "%s", err.message);
    if (m) {
        CHECK(has_warning(m, "stray '.'") && m->meshes[0].submeshes[0].normals[0] == 0.0f);
        ossa_model_destroy(m);
    }
    snprintf(path, sizeof path, "%s/cal3d-xml/imvu-tests/material1.xrf", assets);
    m = NULL;
    ossa_load_file(path, NULL, &m, &err);
    CHECKF(m != NULL, "%s", err.message);
    if (m) {
        const ossa_material *mt = &m->materials[0];
        CHECK(mt->ambient[0] == 1.0f && mt->map_count == 2);
        CHECK(strcmp(mt->maps[0].type, "Diffuse Color") == 0);
        CHECK(strcmp(mt->maps[1].type, "Opacity") == 0);
        ossa_model_destroy(m);
    }
    snprintf(path, sizeof path, "%s/cal3d-xml/imvu-tests/animmorph1.xpf", assets);
    m = NULL;
    ossa_load_file(path, NULL, &m, &err);
    CHECKF(m != NULL, "%s", err.message);
    if (m) {
        const ossa_morph_clip *c = &m->morph_clips[0];
        CHECK(strcmp(c->tracks[0].morph_name, "eyes.Blink.Clamped") == 0);
        CHECK(c->tracks[0].key_count == 6 && c->tracks[0].weights[2] == 1.0f);
        ossa_model_destroy(m);
    }
    /* skeleton2: LOCALROTATION .7071067811 0 0 .7071067811 (leading dots). */
    snprintf(path, sizeof path, "%s/cal3d-xml/imvu-tests/skeleton2.xsf", assets);
    m = NULL;
    ossa_load_file(path, NULL, &m, &err);
    CHECKF(m != NULL, "%s", err.message);
    if (m) {
        CHECK_NEAR(m->bones[0].inv_bind_r[0], -0.7071067811, 1e-7);
        ossa_model_destroy(m);
    }
}

int main(void)
{
    assets = test_assets_dir();
    if (!assets)
        return TEST_SKIP;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/cal3d-xml", assets);
    int n = load_tree(dir);
    CHECKF(n == 47, "%d Cal3D XML files under cal3d-xml", n);
    snprintf(dir, sizeof dir, "%s/cal3d", assets);
    n = load_tree(dir); /* the XRF materials of the binary models */
    CHECKF(n >= 40, "%d XML materials under cal3d", n);
    test_pose_mesh_marine();
    test_young_man();
    test_project_context();
    test_imvu();
    return test_finish("xml-assets");
}
