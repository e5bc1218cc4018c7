/* Cal3D binary readers on malformed byte buffers, built field by field (binary_fixture.h) and
 * then broken: bad bone ids and face indices (with their byte offsets), versions, magic,
 * truncation at every byte, lying counts, NaN. */
#include <stdio.h>
#include <string.h>

#include "binary_fixture.h"
#include "test_common.h"

/* ---- cases ---- */

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
    check_errors();
    check_truncation();
    return test_finish("binary-synthetic-errors");
}
