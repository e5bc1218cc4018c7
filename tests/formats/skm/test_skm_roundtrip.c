/* The demo written as SKM/SKP and read back gives the same model: bones, hierarchy, flags, bind
 * (inverse binds), vertices, normals, influences, triangles, UVs, mesh and material names, and
 * every clip sampled at its key times; the bind frame comes back as one extra one-frame clip.
 * Also: LOD files beside the base model, the pose file found through a .cfg import, a missing
 * pose file, and the writer's refusals. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "demo.h"
#include "ossa/load.h"
#include "ossa/write.h"
#include "ossa/reference.h"
#include "skm_test_util.h"

static ossa_model *load(const char *dir, const char *name, ossa_error *err)
{
    char path[4096];
    ossa_model *m = NULL;
    ossa_status st = ossa_load_file(test_path(path, sizeof path, dir, name), NULL, &m, err);
    CHECKF(st == OSSA_OK, "%s: %s", path, err->message);
    return m;
}

static void compare_bones(const ossa_model *a, const ossa_model *b)
{
    CHECK(a->bone_count == b->bone_count);
    if (a->bone_count != b->bone_count)
        return;
    CHECK(b->skeleton_format == OSSA_FORMAT_SKP);
    for (uint32_t i = 0; i < a->bone_count; i++) {
        const ossa_bone *x = &a->bones[i], *y = &b->bones[i];
        CHECKF(strcmp(x->name, y->name) == 0, "bone %u: %s vs %s", i, x->name, y->name);
        CHECK(x->parent == y->parent);
        CHECK((x->flags & OSSA_BONE_ATTACH) == (y->flags & OSSA_BONE_ATTACH));
        CHECKF(skt_max_diff(x->inv_bind_t, y->inv_bind_t, 3) < 1e-5, "bone %u inverse bind", i);
        CHECKF(skt_max_quat_diff(x->inv_bind_r, y->inv_bind_r, 1) < 1e-6, "bone %u", i);
        /* The demo rests in its bind pose, so the rest pose comes back too. */
        CHECKF(skt_max_diff(x->rest_t, y->rest_t, 3) < 1e-5, "bone %u rest", i);
        CHECKF(skt_max_quat_diff(x->rest_r, y->rest_r, 1) < 1e-6, "bone %u rest", i);
    }
}

static void compare_submesh(const ossa_model *a, const ossa_submesh *x, const ossa_model *b,
                            const ossa_submesh *y)
{
    CHECK(x->vertex_count == y->vertex_count);
    CHECK(x->face_count == y->face_count);
    if (x->vertex_count != y->vertex_count || x->face_count != y->face_count)
        return;
    CHECK(y->uv_set_count == 1);
    CHECK(x->max_influences == y->max_influences);
    CHECKF(skt_max_diff(x->positions, y->positions, 3 * (size_t)x->vertex_count) < 1e-5,
           "positions differ by %g",
           skt_max_diff(x->positions, y->positions, 3 * (size_t)x->vertex_count));
    CHECKF(skt_max_diff(x->normals, y->normals, 3 * (size_t)x->vertex_count) < 1e-5,
           "normals differ by %g", skt_max_diff(x->normals, y->normals, 3 * (size_t)x->vertex_count));
    for (uint32_t v = 0; v < x->vertex_count; v++) {
        static const float none[2] = {0.0f, 0.0f}; /* no UV set: written as (0, 0) */
        const float *u = x->uv_set_count ? x->uvs + 2 * (size_t)x->uv_set_count * v : none;
        CHECK(u[0] == y->uvs[2 * v] && u[1] == y->uvs[2 * v + 1]);
        uint32_t a0 = x->influence_start[v], a1 = x->influence_start[v + 1];
        uint32_t b0 = y->influence_start[v], b1 = y->influence_start[v + 1];
        CHECK(a1 - a0 == b1 - b0);
        for (uint32_t k = 0; k < a1 - a0 && k < b1 - b0; k++) {
            CHECK(x->influences[a0 + k].bone == y->influences[b0 + k].bone);
            CHECK(x->influences[a0 + k].weight == y->influences[b0 + k].weight);
        }
    }
    CHECK(memcmp(x->indices, y->indices, 3 * sizeof(uint32_t) * x->face_count) == 0);
    const char *ma = x->material >= 0 ? a->materials[x->material].name : "";
    const char *mb = y->material >= 0 ? b->materials[y->material].name : "";
    CHECKF(strcmp(ma, mb) == 0, "material %s vs %s", ma, mb);
}

static void compare_meshes(const ossa_model *a, const ossa_model *b)
{
    CHECK(a->mesh_count == b->mesh_count);
    for (uint32_t i = 0; i < a->mesh_count && i < b->mesh_count; i++) {
        const ossa_mesh *x = &a->meshes[i], *y = &b->meshes[i];
        CHECKF(strcmp(x->name, y->name) == 0, "mesh %s vs %s", x->name, y->name);
        CHECK(x->lod == y->lod);
        CHECK(y->format == OSSA_FORMAT_SKM);
        CHECK(x->submesh_count == y->submesh_count);
        for (uint32_t s = 0; s < x->submesh_count && s < y->submesh_count; s++)
            compare_submesh(a, &x->submeshes[s], b, &y->submeshes[s]);
    }
}

/* Every clip at its frames' times (and the loop point) gives the same local poses. */
static void compare_clips(const ossa_model *a, const ossa_model *b, float rate)
{
    /* The bind frame the writer stores last is the base pose again, not a clip: the same clips
     * at the same indices, and the same rest pose. */
    CHECK(b->clip_count == a->clip_count);
    CHECK(ossa_model_find_clip(b, "bind") == OSSA_NOT_FOUND);
    for (uint32_t j = 0; j < a->bone_count && j < b->bone_count; j++)
        for (int k = 0; k < 3; k++) {
            CHECK_NEAR(b->bones[j].inv_bind_t[k], a->bones[j].inv_bind_t[k], 1e-4);
            CHECK_NEAR(b->bones[j].rest_t[k], a->bones[j].rest_t[k], 1e-4);
        }
    size_t nb = a->bone_count;
    float *at = calloc(nb * 3, 4), *ar = calloc(nb * 4, 4), *as = calloc(nb * 3, 4);
    float *bt = calloc(nb * 3, 4), *br = calloc(nb * 4, 4), *bs = calloc(nb * 3, 4);
    for (uint32_t i = 0; i < a->clip_count; i++) {
        const ossa_clip *ca = &a->clips[i];
        uint32_t j = ossa_model_find_clip(b, ca->name);
        CHECKF(j == i, "clip %s at %u", ca->name, j);
        if (j == OSSA_NOT_FOUND)
            continue;
        const ossa_clip *cb = &b->clips[j];
        CHECK_NEAR(cb->duration, ca->duration, 1e-6);
        CHECK(cb->format == OSSA_FORMAT_SKP);
        uint32_t frames = (uint32_t)floorf(ca->duration * rate + 0.5f);
        CHECK(cb->tracks[0].key_count == frames + 1);
        for (uint32_t k = 0; k <= frames; k++) {
            float t = (float)k / rate;
            ossa_pose_rest(a, at, ar, as, a->bone_count, NULL);
            ossa_pose_rest(b, bt, br, bs, b->bone_count, NULL);
            ossa_sample_clip(a, ca, t, OSSA_WRAP_LOOP, at, ar, as, a->bone_count, NULL);
            ossa_sample_clip(b, cb, t, OSSA_WRAP_LOOP, bt, br, bs, b->bone_count, NULL);
            CHECKF(skt_max_diff(at, bt, 3 * nb) < 1e-5, "clip %s t %g translation %g", ca->name,
                   (double)t, skt_max_diff(at, bt, 3 * nb));
            CHECKF(skt_max_quat_diff(ar, br, nb) < 1e-6, "clip %s t %g rotation %g", ca->name,
                   (double)t, skt_max_quat_diff(ar, br, nb));
        }
    }
    free(at); free(ar); free(as); free(bt); free(br); free(bs);
}

static void test_demo_round_trip(const ossa_model *demo, const char *dir)
{
    ossa_error err;
    CHECKF(ossa_write_skm(demo, dir, "demo", NULL, &err) == OSSA_OK, "%s", err.message);
    ossa_model *back = load(dir, "demo.skm", &err);
    if (!back)
        return;
    CHECK(back->format == OSSA_FORMAT_SKM);
    CHECK(back->version == 2);
    CHECK(strstr(back->source, "demo.skm") != NULL);
    CHECKF(back->bind_disagreement < 1e-5, "bind disagreement %g",
           (double)back->bind_disagreement);
    CHECKF(back->warning_count == 0, "first warning: %s",
           back->warning_count ? back->warnings[0] : "");
    compare_bones(demo, back);
    compare_meshes(demo, back);
    compare_clips(demo, back, 10.0f);
    ossa_model_destroy(back);
}

/* A second file written as demo_lod1 sits beside demo.skm: loading demo.skm picks it up as the
 * level-1 mesh, and opening demo_lod1.skm on its own uses its own .skp. */
static void test_lod_sibling(const ossa_model *demo, const char *dir)
{
    ossa_error err;
    CHECK(ossa_write_skm(demo, dir, "lodded", NULL, &err) == OSSA_OK);
    CHECK(ossa_write_skm(demo, dir, "lodded_lod1", NULL, &err) == OSSA_OK);
    char path[4096];
    CHECK(remove(test_path(path, sizeof path, dir, "lodded_lod1.skp")) == 0);
    ossa_model *m = load(dir, "lodded.skm", &err);
    if (m) {
        CHECK(m->mesh_count == 2);
        if (m->mesh_count == 2) {
            CHECK(m->meshes[0].lod == 0 && m->meshes[1].lod == 1);
            CHECK(strcmp(m->meshes[1].name, "mannequin") == 0);
            compare_submesh(demo, &demo->meshes[0].submeshes[0], m, &m->meshes[1].submeshes[0]);
        }
        ossa_model_destroy(m);
    }
    /* The LOD file alone falls back to its base model's pose file. */
    m = load(dir, "lodded_lod1.skm", &err);
    if (m) {
        CHECK(m->mesh_count == 1 && m->meshes[0].lod == 1);
        CHECK(m->bone_count == demo->bone_count);
        ossa_model_destroy(m);
    }
}

/* <model>.cfg's import line names the pose file, whatever its extension and folder prefix. */
static void test_cfg_import(const ossa_model *demo, const char *dir)
{
    ossa_error err;
    CHECK(ossa_write_skm(demo, dir, "posed", NULL, &err) == OSSA_OK);
    char from[4096], to[4096];
    test_path(from, sizeof from, dir, "posed.skm");
    test_path(to, sizeof to, dir, "body.skm");
    CHECK(rename(from, to) == 0);
    const char *cfg = "// Qfusion model config\nscale 1\nIMPORT \"models/players/posed.skp\" // x\n";
    CHECK(skt_write(dir, "body.cfg", cfg, strlen(cfg)));
    ossa_model *m = load(dir, "body.skm", &err);
    if (m) {
        CHECK(m->clip_count == demo->clip_count);
        CHECK(m->format == OSSA_FORMAT_SKM);
        ossa_model_destroy(m);
    }
    /* An import naming a file that is not there is fatal, as is no pose file at all. */
    const char *bad = "import missing_pose\n";
    CHECK(skt_write(dir, "body.cfg", bad, strlen(bad)));
    ossa_model *none = NULL;
    CHECK(ossa_load_file(to, NULL, &none, &err) == OSSA_ERR_IO && !none);
    CHECKF(strstr(err.message, "missing_pose") != NULL, "%s", err.message);
    test_path(from, sizeof from, dir, "body.cfg");
    CHECK(remove(from) == 0);
    CHECK(ossa_load_file(to, NULL, &none, &err) == OSSA_ERR_IO && !none);
    CHECKF(strstr(err.message, "pose file") != NULL, "%s", err.message);
    CHECK(strstr(err.file, "body.skm") != NULL);
}

static void test_writer_refusals(const ossa_model *demo, const char *dir)
{
    ossa_error err;
    CHECK(ossa_write_skm(NULL, dir, "x", NULL, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_write_skm(demo, dir, "", NULL, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_write_skm(demo, dir, "x",
                         &(ossa_skm_write_options){.frame_rate = -1.0f}, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_write_skm(demo, dir, "x", &(ossa_skm_write_options){.frame_rate = 1e9f}, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_write_skm(demo, "/nonexistent-folder/for/ossa", "x", NULL, &err) == OSSA_ERR_IO);
    CHECK(err.message[0] && strstr(err.file, "x.sk") != NULL);
}

int main(void)
{
    ossa_model *demo = NULL;
    ossa_error err;
    if (ossa_demo_model(&demo, &err) != OSSA_OK) {
        fprintf(stderr, "demo: %s\n", err.message);
        return 1;
    }
    char dir[4096];
    if (!skt_make_dir(dir, sizeof dir)) {
        fprintf(stderr, "cannot make a temporary folder\n");
        return 1;
    }
    test_demo_round_trip(demo, dir);
    test_lod_sibling(demo, dir);
    test_cfg_import(demo, dir);
    test_writer_refusals(demo, dir);
    skt_remove_dir(dir);
    ossa_model_destroy(demo);
    return test_finish("skm-roundtrip");
}
