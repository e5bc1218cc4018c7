/* Cal3D binary readers on byte buffers built here, field by field, from FORMAT-NOTES A.3-A.7:
 * a skeleton listed children-first (reordering and the remapping of a mesh's influences), IMVU
 * 911 files (scene ambient, node lights, vertex colours, a morph target, no auto-flip), 1200 and
 * 1300 meshes, a CPF, a typed CRF, and errors: bad bone ids and face indices (with their byte
 * offsets), versions, magic, truncation at every byte, lying counts, NaN. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ossa/load.h"
#include "test_common.h"

/* ---- a little-endian byte buffer ---- */

typedef struct buf {
    uint8_t d[4096];
    size_t n;
} buf;

static void put(buf *b, const void *p, size_t n)
{
    if (b->n + n > sizeof b->d) {
        fprintf(stderr, "test buffer overflow\n");
        exit(1);
    }
    memcpy(b->d + b->n, p, n);
    b->n += n;
}

static void put_i32(buf *b, int32_t v)
{
    uint8_t p[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)((uint32_t)v >> 24)};
    put(b, p, 4);
}

static void put_f32(buf *b, float f)
{
    int32_t i;
    memcpy(&i, &f, 4);
    put_i32(b, i);
}

static void put_fv(buf *b, int n, const float *v)
{
    for (int i = 0; i < n; i++)
        put_f32(b, v[i]);
}

#define PUT3(b, x, y, z) put_fv(b, 3, (const float[]){x, y, z})
#define PUT4(b, x, y, z, w) put_fv(b, 4, (const float[]){x, y, z, w})

/* Cal3D string: length including the NUL, then the bytes and the NUL. */
static void put_str(buf *b, const char *s)
{
    put_i32(b, (int32_t)strlen(s) + 1);
    put(b, s, strlen(s) + 1);
}

static void put_header(buf *b, const char *magic, int32_t version)
{
    put(b, magic, 4);
    put_i32(b, version);
}

/* ---- files ---- */

/* A skeleton: classic, or IMVU/upstream with scene ambient and node lights. File order lists
 * the hand before its parents: 0 hand (parent 2), 1 root (no parent), 2 arm (parent 1). */
static void build_csf(buf *b, int32_t version, bool lights)
{
    put_header(b, "CSF", version);
    put_i32(b, 3);
    if (lights)
        PUT3(b, 0.1f, 0.2f, 0.3f);
    /* bone 0: hand, child of arm (2) */
    put_str(b, "hand");
    PUT3(b, 0, 0, 1);
    PUT4(b, 0, 0, 0, 1);
    PUT3(b, 0, 0, -2);
    PUT4(b, 0, 0, 0, 1);
    put_i32(b, 2);
    if (lights) {
        put_i32(b, 1);
        PUT3(b, 1.0f, 0.5f, 0.25f);
    }
    put_i32(b, 0);
    /* bone 1: root */
    put_str(b, "root");
    PUT3(b, 1, 2, 3);
    PUT4(b, 0.6f, 0, 0, 0.8f);
    PUT3(b, -1, -2, -3);
    PUT4(b, -0.6f, 0, 0, 0.8f);
    put_i32(b, -1);
    if (lights) {
        put_i32(b, 0);
        PUT3(b, 0, 0, 0);
    }
    put_i32(b, 1);
    put_i32(b, 2);
    /* bone 2: arm, child of root, parent of hand */
    put_str(b, "arm");
    PUT3(b, 0, 0, 1);
    PUT4(b, 0, 0, 0, 1);
    PUT3(b, 0, 0, -1);
    PUT4(b, 0, 0, 0, 1);
    put_i32(b, 1);
    if (lights) {
        put_i32(b, 2);
        PUT3(b, 0, 1, 0);
    }
    put_i32(b, 1);
    put_i32(b, 0);
}

/* Where build_cmf put the fields the error tests break. */
typedef struct cmf_marks {
    size_t influence_bone; /* vertex 1, influence 0: bone id */
    size_t face_index2;    /* face 0, corner 2 */
    size_t weight;         /* vertex 0, influence 0: weight */
    size_t morph_id;       /* first blend vertex id */
    size_t uv;             /* vertex 0: texture coordinate u */
} cmf_marks;

/* One submesh of three vertices and one face (0, 1, 2) whose geometric normal (0, 0, -1)
 * agrees with vertex 0's normal (0, 0, -1): the classic rule flips it. extras = IMVU/upstream
 * fields (morph count, colours); with them, one morph target "smile" moves vertex 1. */
static void build_cmf(buf *b, int32_t version, bool extras, cmf_marks *mk)
{
    put_header(b, "CMF", version);
    put_i32(b, 1);                 /* submeshes */
    put_i32(b, 0);                 /* material thread */
    put_i32(b, 3);                 /* vertices */
    put_i32(b, 1);                 /* faces */
    put_i32(b, 2);                 /* LODs */
    put_i32(b, 1);                 /* springs */
    put_i32(b, 1);                 /* uv sets */
    if (extras)
        put_i32(b, 1);             /* morphs */
    /* vertex 0: two influences, bones 0 and 2 */
    PUT3(b, 0, 0, 0);
    PUT3(b, 0, 0, -1);
    if (extras)
        PUT3(b, 1.0f, 0.0f, 0.5f);
    put_i32(b, 1);
    put_i32(b, 1);
    mk->uv = b->n;
    put_f32(b, 0.25f);
    put_f32(b, 0.5f);
    put_i32(b, 2);
    put_i32(b, 0);
    mk->weight = b->n;
    put_f32(b, 0.75f);
    put_i32(b, 2);
    put_f32(b, 0.25f);
    put_f32(b, 0.0f);              /* physique weight */
    /* vertex 1: one influence, bone 1 */
    PUT3(b, 1, 0, 0);
    PUT3(b, 0, 0, -1);
    if (extras)
        PUT3(b, 0.5f, 0.5f, 0.5f);
    put_i32(b, -1);
    put_i32(b, 0);
    put_f32(b, 1.0f);
    put_f32(b, 0.0f);
    put_i32(b, 1);
    mk->influence_bone = b->n;
    put_i32(b, 1);
    put_f32(b, 1.0f);
    put_f32(b, 1.0f);
    /* vertex 2: no influences */
    PUT3(b, 0, 1, 0);
    PUT3(b, 0, 0, -1);
    if (extras)
        PUT3(b, 1, 1, 1);
    put_i32(b, -1);
    put_i32(b, 0);
    put_f32(b, 0.0f);
    put_f32(b, 1.0f);
    put_i32(b, 0);
    put_f32(b, 0.5f);
    /* spring between vertices 1 and 2 */
    put_i32(b, 1);
    put_i32(b, 2);
    put_f32(b, 0.9f);
    put_f32(b, 1.5f);
    if (extras) {
        put_str(b, "smile");
        mk->morph_id = b->n;
        put_i32(b, 1);             /* vertex 1: absolute values */
        PUT3(b, 1.0f, 0.5f, 0.0f);
        PUT3(b, 0.0f, 0.6f, -0.8f);
        put_f32(b, 0.5f);
        put_f32(b, 0.75f);
        put_i32(b, 4);             /* terminator: vertexCount + 1 */
    }
    put_i32(b, 0);
    put_i32(b, 1);
    mk->face_index2 = b->n;
    put_i32(b, 2);
}

static void build_crf(buf *b, int32_t version, bool typed)
{
    put_header(b, "CRF", version);
    put(b, (const uint8_t[]){255, 0, 51, 255}, 4);
    put(b, (const uint8_t[]){0, 102, 0, 128}, 4);
    put(b, (const uint8_t[]){10, 20, 30, 40}, 4);
    put_f32(b, 12.5f);
    put_i32(b, 2);
    put_str(b, "skin.png");
    if (typed)
        put_str(b, "Diffuse Color");
    put_str(b, "textures/bump.tga");
    if (typed)
        put_str(b, "Bump");
}

static void build_cpf(buf *b, int32_t version)
{
    put_header(b, "CPF", version);
    put_f32(b, 2.0f);
    put_i32(b, 2);
    put_str(b, "smile");
    put_i32(b, 3);
    const float smile[] = {0, 0, 1, 1, 2, 0};
    put_fv(b, 6, smile);
    put_str(b, "blink");
    put_i32(b, 2);
    const float blink[] = {1.5f, 1.0f, 0.5f, 0.25f}; /* out of order */
    put_fv(b, 4, blink);
}

/* ---- loading ---- */

/* Writes b to a fresh /tmp file with the given suffix; the caller unlinks path. */
static bool write_temp(const buf *b, const char *suffix, char path[64])
{
    snprintf(path, 64, "/tmp/ossa-binmesh-XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0)
        return false;
    bool ok = write(fd, b->d, b->n) == (ssize_t)b->n;
    close(fd);
    return ok;
}

/* Skeleton + mesh through ossa_load_files (mesh named first); status returned, model in *m. */
static ossa_status load_pair(const buf *csf, const buf *cmf, const ossa_load_options *opt,
                             ossa_model **m, ossa_error *err)
{
    char sp[64], mp[64];
    bool ok = write_temp(csf, ".csf", sp);
    ok = write_temp(cmf, ".cmf", mp) && ok;
    CHECK(ok);
    const char *paths[2] = {mp, sp};
    ossa_status st = ok ? ossa_load_files(paths, 2, opt, m, err) : OSSA_ERR_IO;
    unlink(sp);
    unlink(mp);
    return st;
}

static ossa_model *load_buf(const buf *b, const char *name, ossa_error *err)
{
    ossa_model *m = NULL;
    ossa_status st = ossa_load_memory(b->d, b->n, name, NULL, &m, err);
    CHECKF(st == OSSA_OK, "%s: %s", name, err->message);
    return m;
}

static bool has_warning(const ossa_model *m, const char *text)
{
    for (uint32_t i = 0; i < m->warning_count; i++)
        if (strstr(m->warnings[i], text))
            return true;
    return false;
}

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
    /* Cal3D quaternions are conjugated once (Decision 3); scale is 1. */
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

static void expect_error(ossa_status st, const ossa_model *m, const ossa_error *err,
                         ossa_status want, int64_t offset, const char *text)
{
    CHECKF(st == want && m == NULL, "status %d, wanted %d (%s)", st, want, err->message);
    if (offset >= 0)
        CHECKF(err->offset == offset, "offset %lld, wanted %lld (%s)", (long long)err->offset,
               (long long)offset, err->message);
    CHECKF(strstr(err->message, text) != NULL, "message '%s' lacks '%s'", err->message, text);
}

static void check_errors(void)
{
    buf csf = {0}, cmf = {0};
    cmf_marks mk;
    build_csf(&csf, 1000, false);
    build_cmf(&cmf, 1000, false, &mk);
    ossa_model *m = NULL;
    ossa_error err;

    /* An influence bone id the skeleton lacks. */
    buf bad = cmf;
    int32_t id = 99;
    memcpy(bad.d + mk.influence_bone, &id, 4);
    ossa_status st = load_pair(&csf, &bad, NULL, &m, &err);
    expect_error(st, m, &err, OSSA_ERR_RANGE, (int64_t)mk.influence_bone,
                 "submesh 0: vertex 1: influence 0: bone id 99 not in the skeleton's 0..2");
    /* Without a skeleton the same id is kept; a negative one is refused. */
    m = load_buf(&bad, "noskel.cmf", &err);
    if (m) {
        CHECK(m->meshes[0].submeshes[0].influences[2].bone == 99);
        ossa_model_destroy(m);
    }
    id = -5;
    memcpy(bad.d + mk.influence_bone, &id, 4);
    m = NULL;
    st = ossa_load_memory(bad.d, bad.n, "neg.cmf", NULL, &m, &err);
    expect_error(st, m, &err, OSSA_ERR_RANGE, (int64_t)mk.influence_bone, "bone id -5");

    /* A value each reader takes (finite) but validation of the whole model refuses (beyond
     * 1e15): the error names the mesh file, not the skeleton read first. */
    bad = cmf;
    float huge = 1e30f;
    memcpy(bad.d + mk.uv, &huge, 4);
    st = load_pair(&csf, &bad, NULL, &m, &err);
    expect_error(st, m, &err, OSSA_ERR_VALUE, -1, "texture coordinate");
    size_t fl = strlen(err.file);
    CHECKF(fl > 4 && strcmp(err.file + fl - 4, ".cmf") == 0, "error names '%s', not the .cmf",
           err.file);

    /* A face index beyond the vertices. */
    bad = cmf;
    id = 7;
    memcpy(bad.d + mk.face_index2, &id, 4);
    st = load_pair(&csf, &bad, NULL, &m, &err);
    expect_error(st, m, &err, OSSA_ERR_RANGE, (int64_t)mk.face_index2,
                 "submesh 0: face 0: index 7 not in the submesh's vertices 0..2");

    /* NaN weight. */
    bad = cmf;
    uint32_t nan_bits = 0x7fc00000u;
    memcpy(bad.d + mk.weight, &nan_bits, 4);
    st = ossa_load_memory(bad.d, bad.n, "nan.cmf", NULL, &m, &err);
    expect_error(st, m, &err, OSSA_ERR_VALUE, (int64_t)mk.weight, "influence weight");

    /* Versions outside 699..1301, and a wrong magic. */
    bad = cmf;
    id = 1302;
    memcpy(bad.d + 4, &id, 4);
    st = ossa_load_memory(bad.d, bad.n, "v.cmf", NULL, &m, &err);
    expect_error(st, m, &err, OSSA_ERR_VERSION, 4, "1302");
    id = 698;
    memcpy(bad.d + 4, &id, 4);
    st = ossa_load_memory(bad.d, bad.n, "v.cmf", NULL, &m, &err);
    expect_error(st, m, &err, OSSA_ERR_VERSION, 4, "698");
    ossa_load_options as_csf = {0};
    as_csf.format = OSSA_FORMAT_CSF;
    st = ossa_load_memory(cmf.d, cmf.n, "x.csf", &as_csf, &m, &err);
    expect_error(st, m, &err, OSSA_ERR_FORMAT, 0, "CSF");

    /* A vertex count the file cannot hold fails before anything is allocated. */
    bad = cmf;
    id = 1000000;
    memcpy(bad.d + 16, &id, 4);
    st = ossa_load_memory(bad.d, bad.n, "lying.cmf", NULL, &m, &err);
    expect_error(st, m, &err, OSSA_ERR_TRUNCATED, 16, "1000000 vertices");
    id = 100000000;
    memcpy(bad.d + 16, &id, 4);
    st = ossa_load_memory(bad.d, bad.n, "lying.cmf", NULL, &m, &err);
    expect_error(st, m, &err, OSSA_ERR_RANGE, 16, "vertex count");

    /* Skeleton: a parent id beyond the bones, a child id beyond them, no bones. */
    bad = csf;
    id = 3;
    size_t parent_at = 12 + 4 + 5 + 56; /* bone 0: name "hand" then 14 floats */
    memcpy(bad.d + parent_at, &id, 4);
    st = ossa_load_memory(bad.d, bad.n, "p.csf", NULL, &m, &err);
    expect_error(st, m, &err, OSSA_ERR_RANGE, (int64_t)parent_at, "bone 0: 'hand' has parent id 3");
    bad = csf;
    id = 0;
    memcpy(bad.d + 8, &id, 4);
    st = ossa_load_memory(bad.d, bad.n, "e.csf", NULL, &m, &err);
    expect_error(st, m, &err, OSSA_ERR_FORMAT, 8, "no bones");
    bad = csf;
    id = 5; /* root's only child id, the last int of bone 1 */
    size_t root_child = parent_at + 8 + 4 + 5 + 56 + 8;
    memcpy(bad.d + root_child, &id, 4);
    st = ossa_load_memory(bad.d, bad.n, "c.csf", NULL, &m, &err);
    expect_error(st, m, &err, OSSA_ERR_RANGE, (int64_t)root_child, "child 0 has id 5");

    /* Morph ids must ascend; a CPF needs a positive duration. */
    buf imvu = {0};
    build_cmf(&imvu, 911, true, &mk);
    id = -1;
    memcpy(imvu.d + mk.morph_id, &id, 4);
    st = ossa_load_memory(imvu.d, imvu.n, "m.cmf", NULL, &m, &err);
    expect_error(st, m, &err, OSSA_ERR_FORMAT, (int64_t)mk.morph_id, "morph target 0");
    buf cpf = {0};
    build_cpf(&cpf, 1300);
    float zero = 0.0f;
    memcpy(cpf.d + 8, &zero, 4);
    st = ossa_load_memory(cpf.d, cpf.n, "z.cpf", NULL, &m, &err);
    expect_error(st, m, &err, OSSA_ERR_VALUE, 8, "duration");
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

/* Every proper prefix of every file fails as truncated, and never leaves a model. */
static void check_truncation(void)
{
    buf files[8];
    memset(files, 0, sizeof files);
    cmf_marks mk;
    ossa_format formats[8] = {OSSA_FORMAT_CSF, OSSA_FORMAT_CSF, OSSA_FORMAT_CMF, OSSA_FORMAT_CMF,
                              OSSA_FORMAT_CMF, OSSA_FORMAT_CRF, OSSA_FORMAT_CRF, OSSA_FORMAT_CPF};
    build_csf(&files[0], 700, false);
    build_csf(&files[1], 919, true);
    build_cmf(&files[2], 700, false, &mk);
    build_cmf(&files[3], 911, true, &mk);
    build_cmf(&files[4], 1301, true, &mk);
    build_crf(&files[5], 1000, false);
    build_crf(&files[6], 1300, true);
    build_cpf(&files[7], 1300);
    for (int f = 0; f < 8; f++) {
        ossa_load_options opt = {0};
        opt.format = formats[f];
        ossa_model *m = NULL;
        ossa_error err;
        CHECKF(ossa_load_memory(files[f].d, files[f].n, "whole", &opt, &m, &err) == OSSA_OK,
               "file %d: %s", f, err.message);
        ossa_model_destroy(m);
        int wrong = 0;
        for (size_t n = 0; n < files[f].n; n++) {
            m = NULL;
            ossa_status st = ossa_load_memory(files[f].d, n, "cut", &opt, &m, &err);
            if (st != OSSA_ERR_TRUNCATED || m) {
                if (!wrong++)
                    fprintf(stderr, "file %d cut at %zu: status %d: %s\n", f, n, st, err.message);
                ossa_model_destroy(m);
            }
        }
        CHECKF(wrong == 0, "file %d: %d prefixes did not fail as truncated", f, wrong);
    }
}

int main(void)
{
    check_reordered_skeleton_and_mesh();
    check_imvu_911();
    check_1200_1300();
    check_cpf();
    check_errors();
    check_zero_area_face();
    check_truncation();
    return test_finish("binary-synthetic");
}
