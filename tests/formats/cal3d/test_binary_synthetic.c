/* Cal3D binary readers on byte buffers built field by field (binary_fixture.h, docs/FORMATS.md,
 * Cal3D binary layouts): a skeleton listed children-first (reordering and the remapping of a mesh's
 * influences), IMVU 911 files (scene ambient, node lights, vertex colours, a morph target, no
 * auto-flip), 1200 and 1300 meshes, a CPF, a typed CRF, and a zero-area first face. Errors on
 * the same files: test_binary_synthetic_errors.c. */
#include <math.h>
#include <string.h>

#include "binary_fixture.h"
#include "test_common.h"

/* ---- cases ---- */

static void check_skeleton_bones(const ossa_model *m)
{
    CHECK(m->bone_count == 3);
    if (m->bone_count != 3)
        return;
    /* Parents first: root, arm, hand; each remembers its file position. */
    CHECK(strcmp(m->bones[0].name, "root") == 0 && m->bones[0].parent == -1);
    CHECK(strcmp(m->bones[1].name, "arm") == 0 && m->bones[1].parent == 0);
    CHECK(strcmp(m->bones[2].name, "hand") == 0 && m->bones[2].parent == 1);
    CHECK(m->bones[0].source_index == 1 && m->bones[1].source_index == 2 &&
          m->bones[2].source_index == 0);
    CHECK(m->bones[0].child_count == 1 && m->bones[0].children[0] == 1);
    CHECK(m->bones[1].child_count == 1 && m->bones[1].children[0] == 2);
    CHECK(m->bones[2].child_count == 0);
    /* Cal3D quaternions are conjugated once (D3); scale is 1. */
    CHECK(m->bones[0].rest_r[0] == -0.6f && m->bones[0].rest_r[3] == 0.8f);
    CHECK(m->bones[0].inv_bind_r[0] == 0.6f && m->bones[0].inv_bind_r[3] == 0.8f);
    CHECK(m->bones[0].rest_t[2] == 3.0f && m->bones[0].inv_bind_t[1] == -2.0f);
    CHECK(m->bones[2].rest_s[0] == 1.0f && m->bones[2].rest_s[2] == 1.0f);
    CHECK(has_warning(m, "reordered"));
}

static void check_reordered_skeleton_and_mesh(void)
{
    buf csf = {0}, cmf = {0};
    cmf_marks mk;
    build_csf(&csf, 1000, false);
    build_cmf(&cmf, 1000, false, &mk);
    ossa_model *m = NULL;
    ossa_error err;
    CHECKF(load_pair(&csf, &cmf, NULL, &m, &err) == OSSA_OK, "%s", err.message);
    if (!m)
        return;
    check_skeleton_bones(m);
    CHECK(m->skeleton_format == OSSA_FORMAT_CSF && m->skeleton_version == 1000);
    CHECK(!m->has_scene_ambient && m->bones[0].light_type == 0);
    CHECK(m->mesh_count == 1);
    const ossa_submesh *sm = &m->meshes[0].submeshes[0];
    CHECK(m->meshes[0].version == 1000 && sm->vertex_count == 3 && sm->face_count == 1);
    CHECK(sm->lod_count == 2 && sm->uv_set_count == 1 && sm->material == 0);
    /* File bone ids 0 (hand), 2 (arm), 1 (root) become model bones 2, 1, 0. */
    CHECK(sm->influence_start[0] == 0 && sm->influence_start[1] == 2 &&
          sm->influence_start[2] == 3 && sm->influence_start[3] == 3);
    CHECK(sm->max_influences == 2);
    CHECK(sm->influences[0].bone == 2 && sm->influences[0].weight == 0.75f);
    CHECK(sm->influences[1].bone == 1 && sm->influences[1].weight == 0.25f);
    CHECK(sm->influences[2].bone == 0 && sm->influences[2].weight == 1.0f);
    CHECK(sm->colors == NULL && sm->morph_count == 0);
    CHECK(sm->uvs[2] == 1.0f && sm->uvs[3] == 0.0f && sm->uvs[5] == 1.0f);
    CHECK(sm->collapse_id[0] == 1 && sm->collapse_id[1] == -1 && sm->face_collapse_count[0] == 1);
    CHECK(sm->physique_weights[1] == 1.0f && sm->physique_weights[2] == 0.5f);
    CHECK(sm->spring_count == 1 && sm->springs[0].vertex[0] == 1 && sm->springs[0].vertex[1] == 2);
    CHECK(sm->springs[0].coefficient == 0.9f && sm->springs[0].idle_length == 1.5f);
    /* Classic auto-flip: face normal (0,0,-1) agrees with vertex 0's normal, so it flips. */
    CHECK(sm->winding_flipped == 1);
    CHECK(sm->indices[0] == 0 && sm->indices[1] == 2 && sm->indices[2] == 1);
    ossa_model_destroy(m);

    /* flip_winding inverts the decision; invert_v mirrors v. */
    ossa_load_options opt = {0};
    opt.flip_winding = 1;
    opt.invert_v = 1;
    m = NULL;
    CHECKF(load_pair(&csf, &cmf, &opt, &m, &err) == OSSA_OK, "%s", err.message);
    if (m) {
        sm = &m->meshes[0].submeshes[0];
        CHECK(sm->winding_flipped == 0 && sm->indices[1] == 1 && sm->indices[2] == 2);
        CHECK(sm->uvs[1] == 0.5f && sm->uvs[3] == 1.0f && sm->uvs[5] == 0.0f);
        ossa_model_destroy(m);
    }
}

static void check_imvu_911(void)
{
    buf csf = {0}, cmf = {0};
    cmf_marks mk;
    build_csf(&csf, 911, true);
    build_cmf(&cmf, 911, true, &mk);
    ossa_model *m = NULL;
    ossa_error err;
    CHECKF(load_pair(&csf, &cmf, NULL, &m, &err) == OSSA_OK, "%s", err.message);
    if (!m)
        return;
    check_skeleton_bones(m);
    CHECK(m->has_scene_ambient && m->scene_ambient[0] == 0.1f && m->scene_ambient[2] == 0.3f);
    CHECK(m->skeleton_version == 911);
    /* Lights: hand (file 0) OMNI (1, .5, .25), arm (file 2) DIRECTIONAL (0, 1, 0). */
    CHECK(m->bones[2].light_type == 1 && m->bones[2].light_color[1] == 0.5f);
    CHECK(m->bones[1].light_type == 2 && m->bones[1].light_color[1] == 1.0f);
    CHECK(m->bones[0].light_type == 0);
    const ossa_submesh *sm = &m->meshes[0].submeshes[0];
    CHECK(sm->colors != NULL);
    if (sm->colors)
        CHECK(sm->colors[0] == 1.0f && sm->colors[2] == 0.5f && sm->colors[4] == 0.5f);
    CHECK(sm->influences[0].bone == 2 && sm->influences[2].bone == 0);
    /* IMVU's reader never flips. */
    CHECK(sm->winding_flipped == 0 && sm->indices[1] == 1 && sm->indices[2] == 2);
    /* The morph target: absolute values in the file, deltas in the model. */
    CHECK(sm->morph_count == 1);
    if (sm->morph_count == 1) {
        const ossa_morph_target *mt = &sm->morphs[0];
        CHECK(strcmp(mt->name, "smile") == 0 && mt->count == 1 && mt->vertex[0] == 1);
        CHECK(mt->d_position[0] == 0.0f && mt->d_position[1] == 0.5f && mt->d_position[2] == 0.0f);
        CHECK(mt->d_normal[1] == 0.6f && fabsf(mt->d_normal[2] - 0.2f) < 1e-6f);
        CHECK(mt->d_uv && mt->d_uv[0] == -0.5f && mt->d_uv[1] == 0.75f);
    }
    ossa_model_destroy(m);

    buf crf = {0};
    build_crf(&crf, 911, true);
    m = load_buf(&crf, "mats/skin.crf", &err);
    if (m) {
        const ossa_material *mt = &m->materials[0];
        CHECK(strcmp(mt->name, "skin") == 0 && mt->version == 911);
        CHECK(mt->ambient[0] == 1.0f && mt->ambient[1] == 0.0f && mt->ambient[2] == 0.2f);
        CHECK(mt->diffuse[1] == 0.4f && fabsf(mt->diffuse[3] - 128.0f / 255.0f) < 1e-7f);
        CHECK(mt->specular[3] == 40.0f / 255.0f && mt->shininess == 12.5f);
        CHECK(mt->map_count == 2);
        CHECK(strcmp(mt->maps[0].file, "skin.png") == 0);
        CHECK(strcmp(mt->maps[0].type, "Diffuse Color") == 0);
        CHECK(strcmp(mt->maps[0].path, "mats/skin.png") == 0);
        CHECK(strcmp(mt->maps[1].path, "mats/textures/bump.tga") == 0);
        CHECK(strcmp(mt->maps[1].type, "Bump") == 0);
        ossa_model_destroy(m);
    }
    buf crf_classic = {0};
    build_crf(&crf_classic, 1100, false);
    m = load_buf(&crf_classic, "plain.crf", &err);
    if (m) {
        CHECK(m->materials[0].map_count == 2 && strcmp(m->materials[0].maps[1].type, "") == 0);
        CHECK(strcmp(m->materials[0].maps[0].path, "skin.png") == 0);
        ossa_model_destroy(m);
    }
}

/* 1300 has the extras and flips; 1200 is the classic layout and flips. No skeleton: file bone
 * ids are kept. */
static void check_1200_1300(void)
{
    buf b13 = {0}, b12 = {0};
    cmf_marks mk;
    build_cmf(&b13, 1300, true, &mk);
    build_cmf(&b12, 1200, false, &mk);
    ossa_error err;
    ossa_model *m = load_buf(&b13, "up.cmf", &err);
    if (m) {
        const ossa_submesh *sm = &m->meshes[0].submeshes[0];
        CHECK(m->version == 1300 && sm->colors != NULL && sm->morph_count == 1);
        CHECK(sm->winding_flipped == 1 && sm->indices[1] == 2);
        CHECK(sm->influences[0].bone == 0 && sm->influences[1].bone == 2);
        ossa_model_destroy(m);
    }
    m = load_buf(&b12, "v1200.cmf", &err);
    if (m) {
        const ossa_submesh *sm = &m->meshes[0].submeshes[0];
        CHECK(m->version == 1200 && sm->colors == NULL && sm->morph_count == 0);
        CHECK(sm->winding_flipped == 1 && sm->indices[1] == 2);
        ossa_model_destroy(m);
    }
}

static void check_cpf(void)
{
    buf b = {0};
    build_cpf(&b, 919);
    ossa_error err;
    ossa_model *m = load_buf(&b, "face.cpf", &err);
    if (!m)
        return;
    CHECK(m->format == OSSA_FORMAT_CPF && m->version == 919 && m->morph_clip_count == 1);
    const ossa_morph_clip *c = &m->morph_clips[0];
    CHECK(strcmp(c->name, "face") == 0 && c->duration == 2.0f && c->track_count == 2);
    CHECK(strcmp(c->tracks[0].morph_name, "smile") == 0 && c->tracks[0].key_count == 3);
    CHECK(c->tracks[0].times[2] == 2.0f && c->tracks[0].weights[1] == 1.0f);
    /* blink's keys were out of order: sorted, with a warning. */
    CHECK(strcmp(c->tracks[1].morph_name, "blink") == 0);
    CHECK(c->tracks[1].times[0] == 0.5f && c->tracks[1].weights[0] == 0.25f);
    CHECK(c->tracks[1].times[1] == 1.5f && c->tracks[1].weights[1] == 1.0f);
    CHECK(has_warning(m, "blink"));
    ossa_model_destroy(m);
}

/* A zero-area first face: no flip, a warning. */
static void check_zero_area_face(void)
{
    buf cmf = {0};
    cmf_marks mk;
    build_cmf(&cmf, 1000, false, &mk);
    int32_t zero = 0;
    memcpy(cmf.d + mk.face_index2, &zero, 4); /* face (0, 1, 0) */
    ossa_error err;
    ossa_model *m = load_buf(&cmf, "flat.cmf", &err);
    if (m) {
        const ossa_submesh *sm = &m->meshes[0].submeshes[0];
        CHECK(sm->winding_flipped == 0 && sm->indices[1] == 1 && sm->indices[2] == 0);
        CHECK(has_warning(m, "zero area"));
        ossa_model_destroy(m);
    }
}

int main(void)
{
    check_reordered_skeleton_and_mesh();
    check_imvu_911();
    check_1200_1300();
    check_cpf();
    check_zero_area_face();
    return test_finish("binary-synthetic");
}
