/* Every real binary CSF/CMF/CRF of the shared assets loads, and what the loader produced is
 * compared with the file's raw bytes, decoded here independently: every bone of every
 * skeleton, every vertex, influence and face of every mesh (with its skeleton, so bone ids go
 * through the parents-first mapping), the winding auto-flip rule on each submesh's first face,
 * and the marine's binary materials. All real files are classic layout (v700..v1000). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ossa/load.h"
#include "test_common.h"

static int32_t le32(const uint8_t *p)
{
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    int32_t v;
    memcpy(&v, &u, 4);
    return v;
}

static float lef(const uint8_t *p)
{
    int32_t i = le32(p);
    float f;
    memcpy(&f, &i, 4);
    return f;
}

static ossa_model *load_paths(const char *const *paths, size_t n, const ossa_load_options *opt)
{
    ossa_model *m = NULL;
    ossa_error err;
    ossa_status st = ossa_load_files(paths, n, opt, &m, &err);
    CHECKF(st == OSSA_OK, "%s: %s", paths[n - 1], err.message);
    return st == OSSA_OK ? m : NULL;
}

/* Model index of the bone that was at position file_id in the CSF. */
static int32_t model_bone_of(const ossa_model *m, uint32_t file_id)
{
    for (uint32_t i = 0; i < m->bone_count; i++)
        if (m->bones[i].source_index == file_id)
            return (int32_t)i;
    return -1;
}

/* Walks a classic CSF and compares every bone with the loaded skeleton. */
static void check_skeleton(const char *path, uint32_t expected_bones)
{
    size_t size;
    uint8_t *d = test_read_file(path, &size);
    CHECKF(d != NULL, "%s missing", path);
    if (!d)
        return;
    ossa_model *m = load_paths(&path, 1, NULL);
    if (m) {
        CHECK(m->bone_count == expected_bones);
        CHECK((uint32_t)le32(d + 8) == expected_bones);
        CHECK(m->skeleton_format == OSSA_FORMAT_CSF);
        CHECK(m->skeleton_version == (uint32_t)le32(d + 4));
        CHECK(!m->has_scene_ambient);
        size_t o = 12;
        for (uint32_t i = 0; i < expected_bones && m->bone_count == expected_bones; i++) {
            int32_t len = le32(d + o);
            const char *name = (const char *)d + o + 4;
            o += 4 + (size_t)len;
            int32_t mi = model_bone_of(m, i);
            CHECKF(mi >= 0, "%s: file bone %u not in the model", path, i);
            if (mi < 0)
                break;
            const ossa_bone *bn = &m->bones[mi];
            CHECKF(strcmp(bn->name, name) == 0, "%s bone %u: '%s' vs '%s'", path, i, bn->name,
                   name);
            for (int k = 0; k < 3; k++) {
                CHECK(bn->rest_t[k] == lef(d + o + 4 * k));
                CHECK(bn->inv_bind_t[k] == lef(d + o + 28 + 4 * k));
                CHECK(bn->rest_r[k] == -lef(d + o + 12 + 4 * k)); /* conjugated (D3) */
                CHECK(bn->inv_bind_r[k] == -lef(d + o + 40 + 4 * k));
                CHECK(bn->rest_s[k] == 1.0f);
            }
            CHECK(bn->rest_r[3] == lef(d + o + 24));
            CHECK(bn->inv_bind_r[3] == lef(d + o + 52));
            o += 56;
            int32_t parent = le32(d + o);
            int32_t children = le32(d + o + 4);
            o += 8;
            CHECKF(parent == -1 ? bn->parent == -1
                                : bn->parent == model_bone_of(m, (uint32_t)parent),
                   "%s bone %u parent", path, i);
            CHECK(bn->child_count == (uint32_t)children);
            for (int32_t c = 0; c < children && bn->child_count == (uint32_t)children; c++)
                CHECK((int32_t)bn->children[c] == model_bone_of(m, (uint32_t)le32(d + o + 4 * c)));
            o += 4 * (size_t)children;
        }
        CHECKF(o == size, "%s: walked %zu of %zu bytes", path, o, size);
        ossa_model_destroy(m);
    }
    free(d);
}

/* n = (p1 - p2) x (p3 - p2) of face f, dotted with the normal of the face's first vertex. */
static double winding_dot(const ossa_submesh *sm, uint32_t f)
{
    const uint32_t *t = sm->indices + 3 * (size_t)f;
    const float *p1 = sm->positions + 3 * t[0], *p2 = sm->positions + 3 * t[1];
    const float *p3 = sm->positions + 3 * t[2], *n = sm->normals + 3 * t[0];
    double a[3], c[3];
    for (int k = 0; k < 3; k++) {
        a[k] = (double)p1[k] - p2[k];
        c[k] = (double)p3[k] - p2[k];
    }
    return (a[1] * c[2] - a[2] * c[1]) * n[0] + (a[2] * c[0] - a[0] * c[2]) * n[1] +
           (a[0] * c[1] - a[1] * c[0]) * n[2];
}

typedef struct mesh_stats {
    uint32_t submeshes, vertices, faces, flipped, dropped_lod;
} mesh_stats;

/* Walks a classic CMF and compares every value with the loaded mesh (the last mesh of m). */
static void compare_cmf(const ossa_model *m, const uint8_t *d, size_t size, const char *path,
                        bool have_skeleton, const ossa_load_options *opt, mesh_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    const ossa_mesh *mesh = &m->meshes[m->mesh_count - 1];
    CHECK(mesh->format == OSSA_FORMAT_CMF && mesh->version == (uint32_t)le32(d + 4));
    uint32_t nsub = (uint32_t)le32(d + 8);
    CHECKF(mesh->submesh_count == nsub, "%s: %u submeshes vs %u", path, mesh->submesh_count,
           nsub);
    if (mesh->submesh_count != nsub)
        return;
    stats->submeshes = nsub;
    size_t o = 12;
    for (uint32_t s = 0; s < nsub; s++) {
        const ossa_submesh *sm = &mesh->submeshes[s];
        int32_t h[6];
        for (int k = 0; k < 6; k++)
            h[k] = le32(d + o + 4 * (size_t)k);
        o += 24;
        CHECK(sm->material == h[0]);
        CHECK(sm->vertex_count == (uint32_t)h[1] && sm->face_count == (uint32_t)h[2]);
        CHECK(sm->lod_count == (uint32_t)h[3] && sm->spring_count == (uint32_t)h[4]);
        CHECK(sm->uv_set_count == (uint32_t)h[5]);
        CHECK(sm->colors == NULL && sm->morph_count == 0);
        if (sm->vertex_count != (uint32_t)h[1] || sm->face_count != (uint32_t)h[2] ||
            sm->uv_set_count != (uint32_t)h[5])
            return;
        uint32_t tc = (uint32_t)h[5], max_inf = 0, dropped = 0;
        int bad = 0;
        for (uint32_t v = 0; v < sm->vertex_count; v++) {
            for (int k = 0; k < 3; k++) {
                bad += sm->positions[3 * v + k] != lef(d + o + 4 * k);
                bad += sm->normals[3 * v + k] != lef(d + o + 12 + 4 * k);
            }
            /* LOD fields out of range are dropped (-1 / 0) with one warning per submesh. */
            int32_t collapse = le32(d + o + 24), face_collapse = le32(d + o + 28);
            if (collapse < -1 || collapse >= h[1] || face_collapse < 0) {
                dropped++;
                collapse = collapse < -1 || collapse >= h[1] ? -1 : collapse;
                face_collapse = face_collapse < 0 ? 0 : face_collapse;
            }
            bad += sm->collapse_id[v] != collapse;
            bad += sm->face_collapse_count[v] != (uint32_t)face_collapse;
            o += 32;
            for (uint32_t t = 0; t < tc; t++) {
                float u = lef(d + o), w = lef(d + o + 4);
                if (opt && opt->invert_v)
                    w = 1.0f - w;
                bad += sm->uvs[2 * (tc * v + t)] != u || sm->uvs[2 * (tc * v + t) + 1] != w;
                o += 8;
            }
            uint32_t n = (uint32_t)le32(d + o);
            o += 4;
            uint32_t start = sm->influence_start[v];
            bad += sm->influence_start[v + 1] - start != n;
            if (n > max_inf)
                max_inf = n;
            for (uint32_t k = 0; k < n && !bad; k++) {
                uint32_t id = (uint32_t)le32(d + o + 8 * k);
                uint32_t want = have_skeleton ? (uint32_t)model_bone_of(m, id) : id;
                bad += sm->influences[start + k].bone != want;
                bad += sm->influences[start + k].weight != lef(d + o + 8 * k + 4);
            }
            o += 8 * (size_t)n;
            if (h[4] > 0) {
                bad += sm->physique_weights[v] != lef(d + o);
                o += 4;
            }
            if (bad) {
                CHECKF(!bad, "%s submesh %u vertex %u differs from the file", path, s, v);
                return;
            }
        }
        CHECK(sm->max_influences == max_inf);
        if (dropped) {
            char text[64];
            snprintf(text, sizeof text, "submesh %u: %u vertices have a collapse id", s, dropped);
            bool warned = false;
            for (uint32_t w = 0; w < m->warning_count; w++)
                warned |= strstr(m->warnings[w], text) != NULL;
            CHECKF(warned, "%s: no warning '%s'", path, text);
            stats->dropped_lod += dropped;
        }
        for (int32_t k = 0; k < h[4]; k++) {
            CHECK(sm->springs[k].vertex[0] == (uint32_t)le32(d + o));
            CHECK(sm->springs[k].vertex[1] == (uint32_t)le32(d + o + 4));
            CHECK(sm->springs[k].idle_length == lef(d + o + 12));
            o += 16;
        }
        /* Faces: as stored, or with corners 1 and 2 swapped in every face when flipped. */
        bool flipped = sm->winding_flipped != 0;
        for (uint32_t f = 0; f < sm->face_count; f++) {
            const uint32_t *t = sm->indices + 3 * (size_t)f;
            uint32_t r0 = (uint32_t)le32(d + o), r1 = (uint32_t)le32(d + o + 4);
            uint32_t r2 = (uint32_t)le32(d + o + 8);
            o += 12;
            bad += t[0] != r0 || t[1] != (flipped ? r2 : r1) || t[2] != (flipped ? r1 : r2);
        }
        CHECKF(!bad, "%s submesh %u: faces differ from the file", path, s);
        /* The rule: after loading, the first face's normal disagrees with its first vertex's
         * normal (the loader flipped exactly when they agreed); flip_winding inverts it. */
        if (sm->face_count) {
            double dot = winding_dot(sm, 0);
            if (opt && opt->flip_winding)
                CHECKF(dot >= 0.0, "%s submesh %u: dot %g", path, s, dot);
            else
                CHECKF(dot <= 0.0, "%s submesh %u: dot %g", path, s, dot);
        }
        stats->vertices += sm->vertex_count;
        stats->faces += sm->face_count;
        stats->flipped += flipped;
    }
    CHECKF(o == size, "%s: walked %zu of %zu bytes", path, o, size);
}

/* Loads skeleton + mesh and compares the mesh with its bytes. */
static void check_mesh(const char *dir, const char *csf, const char *cmf,
                       const ossa_load_options *opt, mesh_stats *stats)
{
    char sp[1024], mp[1024];
    test_path(sp, sizeof sp, dir, csf);
    test_path(mp, sizeof mp, dir, cmf);
    const char *paths[2] = {mp, sp}; /* mesh first: the loader must still read the skeleton first */
    size_t size;
    uint8_t *d = test_read_file(mp, &size);
    CHECKF(d != NULL, "%s missing", mp);
    ossa_model *m = d ? load_paths(paths, 2, opt) : NULL;
    if (m) {
        CHECK(m->mesh_count == 1 && m->bone_count > 0);
        compare_cmf(m, d, size, mp, true, opt, stats);
        ossa_model_destroy(m);
    }
    free(d);
}

static void check_all_meshes(const char *assets)
{
    static const struct {
        const char *dir, *csf, *cmf;
        uint32_t bones;
    } sets[] = {
        {"cal3d/cally", "cally.csf", "cally_calf_left.cmf cally_calf_right.cmf cally_chest.cmf "
         "cally_foot_left.cmf cally_foot_right.cmf cally_hand_left.cmf cally_hand_right.cmf "
         "cally_head.cmf cally_lowerarm_left.cmf cally_lowerarm_right.cmf cally_neck.cmf "
         "cally_pelvis.cmf cally_ponytail.cmf cally_thigh_left.cmf cally_thigh_right.cmf "
         "cally_upperarm_left.cmf cally_upperarm_right.cmf", 37},
        {"cal3d/skeleton", "skeleton.csf", "skeleton_calf_left.cmf skeleton_calf_right.cmf "
         "skeleton_chest.cmf skeleton_foot_left.cmf skeleton_foot_right.cmf skeleton_hair.cmf "
         "skeleton_hand_left.cmf skeleton_hand_right.cmf skeleton_head.cmf "
         "skeleton_lowerarm_left.cmf skeleton_lowerarm_right.cmf skeleton_neck.cmf "
         "skeleton_pelvis.cmf skeleton_spine_lower.cmf skeleton_spine_upper.cmf "
         "skeleton_thigh_left.cmf skeleton_thigh_right.cmf skeleton_upperarm_left.cmf "
         "skeleton_upperarm_right.cmf", 23},
        {"cal3d/hero", "hero.csf", "hero.cmf", 58},
        {"cal3d/heroine", "heroine.csf", "heroine_body.cmf heroine_hair.cmf heroine_head.cmf", 58},
        {"cal3d/thug", "thug.csf", "thug_body.cmf thug_head.cmf", 58},
        {"cal3d/paladin", "paladin.csf", "paladin_body.cmf paladin_cape.cmf paladin_loincloth.cmf",
         58},
        {"cal3d/paladin-v900", "../paladin/paladin.csf",
         "paladin_body.cmf paladin_cape.cmf paladin_loincloth.cmf", 58},
        {"cal3d/marine", "Skeleton.csf", "BODY.cmf HEAD.cmf Helmet.cmf M16m80.cmf", 36},
    };
    uint32_t meshes = 0, flipped = 0, submeshes = 0, dropped = 0;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        char dir[1024], csf[1024];
        test_path(dir, sizeof dir, assets, sets[i].dir);
        if (strncmp(sets[i].csf, "../", 3) != 0)
            check_skeleton(test_path(csf, sizeof csf, dir, sets[i].csf), sets[i].bones);
        char names[512];
        snprintf(names, sizeof names, "%s", sets[i].cmf);
        for (char *tok = strtok(names, " "); tok; tok = strtok(NULL, " ")) {
            mesh_stats st;
            check_mesh(dir, sets[i].csf, tok, NULL, &st);
            CHECKF(st.submeshes > 0 && st.vertices > 0 && st.faces > 0, "%s/%s", dir, tok);
            meshes++;
            flipped += st.flipped;
            dropped += st.dropped_lod;
            submeshes += st.submeshes;
        }
    }
    CHECK(meshes == 52);
    /* The rule does fire on real data: some submeshes are flipped and some are not. */
    printf("real meshes: %u, submeshes %u, flipped by the auto-flip rule: %u, vertices with "
           "bad LOD data: %u\n", meshes, submeshes, flipped, dropped);
    CHECK(flipped > 0);
}

/* Hand-checked facts of cally.csf and cally_head.cmf at known offsets. */
static void check_cally_facts(const char *assets)
{
    char csf[1024], cmf[1024];
    test_path(csf, sizeof csf, assets, "cal3d/cally/cally.csf");
    test_path(cmf, sizeof cmf, assets, "cal3d/cally/cally_head.cmf");
    ossa_model *m = load_paths((const char *[]){csf}, 1, NULL);
    if (m) {
        static const char *const names[] = {"Cally", "Cally Pelvis", "Cally Spine",
                                            "Cally Spine1", "Cally Spine2", "Cally Neck"};
        static const int parents[] = {-1, 0, 1, 2, 3, 4};
        for (int i = 0; i < 6; i++) {
            CHECK(strcmp(m->bones[i].name, names[i]) == 0);
            CHECK(m->bones[i].parent == parents[i]);
        }
        CHECK(m->bones[2].child_count == 3 && m->bones[2].children[1] == 29);
        /* Cally's root: translation (0, 4.3739, 95.915), Cal3D rotation (-0, 0, 0.7071, 0.7071). */
        CHECK_NEAR(m->bones[0].rest_t[2], 95.9153824, 1e-5);
        CHECK_NEAR(m->bones[0].rest_r[2], -0.7071063, 1e-6);
        CHECK_NEAR(m->bones[0].rest_r[3], 0.7071072, 1e-6);
        CHECK(ossa_model_find_bone(m, "cally neck") == 5);
        ossa_model_destroy(m);
    }
    size_t size;
    uint8_t *d = test_read_file(cmf, &size);
    m = d ? load_paths((const char *[]){csf, cmf}, 2, NULL) : NULL;
    if (m) {
        const ossa_submesh *sm = &m->meshes[0].submeshes[0];
        CHECK(strcmp(m->meshes[0].name, "cally_head") == 0);
        CHECK(sm->vertex_count == 327 && sm->face_count == 640 && sm->uv_set_count == 0);
        CHECK(sm->lod_count == 315 && sm->material == 0);
        /* Vertex 0 starts at byte 36: position, normal, collapse id, face collapse count, (no
         * uv sets), influence count at 68, then (bone id, weight) pairs. */
        CHECK(sm->positions[0] == lef(d + 36) && sm->positions[2] == lef(d + 44));
        CHECK_NEAR(sm->positions[2], 161.912491, 1e-5);
        CHECK(sm->normals[1] == lef(d + 52));
        CHECK(sm->collapse_id[0] == -1 && sm->face_collapse_count[0] == 0);
        uint32_t n = (uint32_t)le32(d + 68);
        CHECK(sm->influence_start[1] == n && n == 1);
        CHECK(sm->influences[0].weight == lef(d + 76));
        CHECK(m->bones[sm->influences[0].bone].source_index == (uint32_t)le32(d + 72));
        ossa_model_destroy(m);
    }
    free(d);
}

/* The load options: flip_winding inverts the decision, invert_v mirrors v. */
static void check_options(const char *assets)
{
    char dir[1024];
    test_path(dir, sizeof dir, assets, "cal3d/cally");
    ossa_load_options opt = {0};
    opt.flip_winding = 1;
    opt.invert_v = 1;
    mesh_stats plain, inverted;
    check_mesh(dir, "cally.csf", "cally_chest.cmf", NULL, &plain);
    check_mesh(dir, "cally.csf", "cally_chest.cmf", &opt, &inverted);
    CHECK(plain.flipped + inverted.flipped == plain.submeshes);
}

/* The v900 Paladin meshes read with the v700 skeleton of ../paladin. */
static void check_paladin_v900(const char *assets)
{
    char csf[1024], a[1024], b[1024], c[1024];
    test_path(csf, sizeof csf, assets, "cal3d/paladin/paladin.csf");
    test_path(a, sizeof a, assets, "cal3d/paladin-v900/paladin_body.cmf");
    test_path(b, sizeof b, assets, "cal3d/paladin-v900/paladin_cape.cmf");
    test_path(c, sizeof c, assets, "cal3d/paladin-v900/paladin_loincloth.cmf");
    ossa_model *m = load_paths((const char *[]){a, b, c, csf}, 4, NULL);
    if (!m)
        return;
    CHECK(m->bone_count == 58 && m->mesh_count == 3);
    CHECK(m->skeleton_format == OSSA_FORMAT_CSF && m->skeleton_version == 700);
    if (m->mesh_count == 3) {
        CHECK(strcmp(m->meshes[0].name, "paladin_body") == 0);
        CHECK(m->meshes[0].version == 900 && m->meshes[0].submesh_count == 17);
        CHECK(m->meshes[1].submesh_count == 1 && m->meshes[2].submesh_count == 3);
        uint32_t influences = 0;
        for (uint32_t i = 0; i < m->mesh_count; i++)
            for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
                const ossa_submesh *sm = &m->meshes[i].submeshes[s];
                uint32_t n = sm->influence_start[sm->vertex_count];
                for (uint32_t k = 0; k < n; k++)
                    CHECK(sm->influences[k].bone < 58);
                influences += n;
            }
        CHECK(influences > 1000);
    }
    ossa_model_destroy(m);
}

static void check_marine_materials(const char *assets)
{
    char p[1024];
    test_path(p, sizeof p, assets, "cal3d/marine/BODY.crf");
    size_t size;
    uint8_t *d = test_read_file(p, &size);
    ossa_model *m = NULL;
    ossa_error err;
    if (d) {
        CHECK(ossa_load_memory(d, size, p, NULL, &m, &err) == OSSA_OK);
        free(d);
    }
    if (m) {
        CHECK(m->material_count == 1 && m->format == OSSA_FORMAT_CRF && m->version == 1000);
        const ossa_material *mt = &m->materials[0];
        CHECK(strcmp(mt->name, "BODY") == 0);
        /* Bytes 8..19: 96 96 96 00 | 96 96 96 ff | e5 e5 e5 00, shininess 0. */
        CHECK_NEAR(mt->ambient[0], 150.0 / 255.0, 1e-6);
        CHECK(mt->ambient[3] == 0.0f);
        CHECK_NEAR(mt->diffuse[2], 150.0 / 255.0, 1e-6);
        CHECK(mt->diffuse[3] == 1.0f);
        CHECK_NEAR(mt->specular[1], 229.0 / 255.0, 1e-6);
        CHECK(mt->shininess == 0.0f);
        CHECK(mt->map_count == 1);
        if (mt->map_count == 1) {
            CHECK(strcmp(mt->maps[0].file, "marine_camodes.tga") == 0);
            CHECK(strcmp(mt->maps[0].type, "") == 0);
            char want[1100];
            snprintf(want, sizeof want, "%s/cal3d/marine/marine_camodes.tga", assets);
            CHECK(strcmp(mt->maps[0].path, want) == 0);
        }
        ossa_model_destroy(m);
    }
    static const char *const others[] = {"HEAD.crf", "Helmet.crf", "M16m80.crf"};
    static const char *const maps[] = {"marine_camodes.tga", "helmet.tga", "m16.tga"};
    for (int i = 0; i < 3; i++) {
        char q[1024], rel[64];
        snprintf(rel, sizeof rel, "cal3d/marine/%s", others[i]);
        ossa_model *mm = load_paths((const char *[]){test_path(q, sizeof q, assets, rel)}, 1,
                                    NULL);
        if (!mm)
            continue;
        CHECK(mm->material_count == 1);
        if (mm->materials[0].map_count == 1)
            CHECK(strcmp(mm->materials[0].maps[0].file, maps[i]) == 0);
        ossa_model_destroy(mm);
    }
}

int main(void)
{
    const char *assets = test_assets_dir();
    if (!assets) {
        printf("shared assets absent: skipped\n");
        return TEST_SKIP;
    }
    check_cally_facts(assets);
    check_all_meshes(assets);
    check_options(assets);
    check_paladin_v900(assets);
    check_marine_materials(assets);
    return test_finish("binary-assets");
}
