/* A Qfusion <model>.cfg opened directly (or among other files) opens <model>.skm with the pose
 * file its import names: the same bones, vertices and poses as opening the .skm. A Cal3D .cfg
 * (key=value lines) stays a Cal3D set, comments mentioning "import" included. Malformed Qfusion
 * cfgs (import without a path, no .skm, binary, no tokens, over the size cap, in memory) fail
 * with a message naming the cfg. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "ossa/limits.h"
#include "ossa/load.h"
#include "ossa/write.h"
#include "skm_test_util.h"

static ossa_model *load(const char *dir, const char *name)
{
    char path[4096];
    ossa_model *m = NULL;
    ossa_error err;
    ossa_status st = ossa_load_file(test_path(path, sizeof path, dir, name), NULL, &m, &err);
    CHECKF(st == OSSA_OK, "%s: %s: %s", path, err.file, err.message);
    return m;
}

/* Loading name must fail without a model, with a message naming the cfg as the file. */
static void expect_failure_in(const char *dir, const char *name, const char *cfg, ossa_status want,
                              const char *words)
{
    char path[4096];
    ossa_model *m = NULL;
    ossa_error err;
    ossa_status st = ossa_load_file(test_path(path, sizeof path, dir, name), NULL, &m, &err);
    CHECKF(st == want, "%s: status %d (%s)", name, (int)st, err.message);
    CHECK(m == NULL);
    ossa_model_destroy(m);
    CHECKF(strstr(err.message, words) != NULL, "%s: \"%s\" lacks \"%s\"", name, err.message, words);
    CHECKF(strstr(err.file, cfg) != NULL, "%s: error names %s", name, err.file);
}

static void expect_failure(const char *dir, const char *cfg, ossa_status want, const char *words)
{
    expect_failure_in(dir, cfg, cfg, want, words);
}

/* Same bones, meshes and clips, and the same pose (bones and skinned vertices) mid-"wave". */
static void compare_models(const ossa_model *a, const ossa_model *b)
{
    CHECK(a->format == OSSA_FORMAT_SKM && b->format == OSSA_FORMAT_SKM);
    CHECK(b->skeleton_format == OSSA_FORMAT_SKP);
    CHECK(a->bone_count == b->bone_count);
    for (uint32_t i = 0; i < a->bone_count && i < b->bone_count; i++) {
        CHECK(strcmp(a->bones[i].name, b->bones[i].name) == 0);
        CHECK(a->bones[i].parent == b->bones[i].parent);
    }
    CHECK(a->mesh_count == b->mesh_count);
    for (uint32_t i = 0; i < a->mesh_count && i < b->mesh_count; i++) {
        CHECK(a->meshes[i].submesh_count == b->meshes[i].submesh_count);
        const ossa_mesh *ma = &a->meshes[i], *mb = &b->meshes[i];
        for (uint32_t s = 0; s < ma->submesh_count && s < mb->submesh_count; s++) {
            const ossa_submesh *x = &ma->submeshes[s], *y = &mb->submeshes[s];
            CHECK(x->vertex_count == y->vertex_count && x->face_count == y->face_count);
            if (x->vertex_count == y->vertex_count)
                CHECK(memcmp(x->positions, y->positions, 12 * (size_t)x->vertex_count) == 0);
        }
    }
    CHECK(a->clip_count == b->clip_count);
    uint32_t ca = ossa_model_find_clip(a, "wave"), cb = ossa_model_find_clip(b, "wave");
    CHECK(ca != OSSA_NOT_FOUND && cb != OSSA_NOT_FOUND);
    if (ca == OSSA_NOT_FOUND || cb == OSSA_NOT_FOUND || a->bone_count != b->bone_count)
        return;
    skt_pose pa, pb;
    skt_pose_at(a, &a->clips[ca], 0.55f, &pa);
    skt_pose_at(b, &b->clips[cb], 0.55f, &pb);
    CHECK(pa.vertices == pb.vertices && pa.vertices > 0);
    CHECK(memcmp(pa.mt, pb.mt, 12 * (size_t)pa.bones) == 0);
    CHECK(memcmp(pa.mr, pb.mr, 16 * (size_t)pa.bones) == 0);
    if (pa.vertices == pb.vertices) {
        CHECK(memcmp(pa.pos, pb.pos, 12 * pa.vertices) == 0);
        CHECK(memcmp(pa.nrm, pb.nrm, 12 * pa.vertices) == 0);
    }
    skt_pose_free(&pa);
    skt_pose_free(&pb);
}

/* body.skm whose pose file is posed.skp, found only through body.cfg's import. */
static void test_open_cfg(const ossa_model *demo, const char *dir)
{
    ossa_error err;
    CHECK(ossa_write_skm(demo, dir, "posed", NULL, &err) == OSSA_OK);
    char from[4096], to[4096];
    CHECK(rename(test_path(from, sizeof from, dir, "posed.skm"),
                 test_path(to, sizeof to, dir, "body.skm")) == 0);
    const char *cfg =
        "// Qfusion model config\r\nscale 1\r\nImport \"models/players/posed.skp\" // x\r\n";
    CHECK(skt_write(dir, "body.cfg", cfg, strlen(cfg)));
    ossa_model *via_skm = load(dir, "body.skm"), *via_cfg = load(dir, "body.cfg");
    if (via_skm && via_cfg)
        compare_models(via_skm, via_cfg);

    /* The cfg and its .skm given together are one model, not two sets of meshes. */
    char cfg_path[4096];
    const char *both[] = {test_path(cfg_path, sizeof cfg_path, dir, "body.cfg"), to};
    ossa_model *pair = NULL;
    CHECKF(ossa_load_files(both, 2, NULL, &pair, &err) == OSSA_OK, "%s", err.message);
    if (pair && via_skm)
        compare_models(via_skm, pair);
    ossa_model_destroy(pair);

    /* What decides is the content: an import after 5000 bytes of comments still counts. */
    size_t pad = 5000;
    char *late = malloc(pad + 64);
    CHECK(late != NULL);
    if (late) {
        memset(late, ' ', pad);
        memcpy(late, "// padding", 10);
        int tail = snprintf(late + pad, 64, "\nimport posed\n");
        CHECK(skt_write(dir, "body.cfg", late, pad + (size_t)tail));
        CHECK(ossa_sniff(late, 4096, "body.cfg") == OSSA_FORMAT_CAL3D_CFG); /* no import yet */
        CHECK(ossa_sniff(late, pad + (size_t)tail, "body.cfg") == OSSA_FORMAT_SKM);
        ossa_model *m = load(dir, "body.cfg");
        if (m && via_skm)
            compare_models(via_skm, m);
        ossa_model_destroy(m);
        free(late);
    }
    ossa_model_destroy(via_skm);
    ossa_model_destroy(via_cfg);
}

/* Cal3D sets stay Cal3D, even with "import" in a comment. */
static void test_cal3d_cfg(const ossa_model *demo, const char *dir)
{
    ossa_error err;
    CHECK(ossa_write_cal3d(demo, dir, "cal", NULL, &err) == OSSA_OK);
    ossa_model *m = load(dir, "cal.cfg");
    CHECK(m && m->format == OSSA_FORMAT_CAL3D_CFG && m->bone_count == demo->bone_count);
    ossa_model_destroy(m);
    const char *text = "# import these files\nskeleton = cal.csf\nmesh=mannequin.cmf\n";
    CHECK(ossa_sniff(text, strlen(text), "x.cfg") == OSSA_FORMAT_CAL3D_CFG);
    CHECK(skt_write(dir, "commented.cfg", text, strlen(text)));
    m = load(dir, "commented.cfg");
    CHECK(m && m->format == OSSA_FORMAT_CAL3D_CFG && m->bone_count == demo->bone_count);
    ossa_model_destroy(m);
    const char *qf = "import body.skp\n";
    CHECK(ossa_sniff(qf, strlen(qf), "x.CFG") == OSSA_FORMAT_SKM);
    CHECK(ossa_sniff(qf, strlen(qf), "x.txt") == OSSA_FORMAT_UNKNOWN);
}

static void test_malformed(const ossa_model *demo, const char *dir)
{
    ossa_error err;
    /* body.skm and posed.skp exist (test_open_cfg): only the cfg is wrong. Opening the .skm
     * reads the same cfg and fails the same way. */
    const char *no_path = "scale 1\nimport   // nothing\n";
    CHECK(skt_write(dir, "body.cfg", no_path, strlen(no_path)));
    expect_failure(dir, "body.cfg", OSSA_ERR_FORMAT, "import without a pose file path");
    expect_failure_in(dir, "body.skm", "body.cfg", OSSA_ERR_FORMAT,
                      "import without a pose file path");
    CHECK(skt_write(dir, "body.cfg", "import \"\"", 9));
    expect_failure(dir, "body.cfg", OSSA_ERR_FORMAT, "import without");
    const char *missing = "import posed\n";
    CHECK(skt_write(dir, "lonely.cfg", missing, strlen(missing)));
    expect_failure(dir, "lonely.cfg", OSSA_ERR_IO, "lonely.skm not found");
    CHECK(skt_write(dir, "body.cfg", "import nowhere\n", 15));
    expect_failure(dir, "body.cfg", OSSA_ERR_IO, "nowhere");

    /* Binary, with and without an import among the bytes: a .cfg is text, so its first
     * control byte refuses it, naming the offset (an import in the noise was read before). */
    uint8_t bin[3000];
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof bin; i++) {
        x = x * 1103515245u + 12345u;
        uint8_t c = (uint8_t)(x >> 24);
        bin[i] = c == 0 || c == '=' ? 0xff : c; /* no NUL or '=' to end or shape the text */
    }
    CHECK(skt_write(dir, "body.cfg", bin, sizeof bin));
    expect_failure(dir, "body.cfg", OSSA_ERR_FORMAT, "a .cfg is text");
    memcpy(bin + 1000, "\nimport ", 8);
    CHECK(skt_write(dir, "body.cfg", bin, sizeof bin));
    expect_failure(dir, "body.cfg", OSSA_ERR_FORMAT, "a .cfg is text");
    /* A NUL: not text either. */
    CHECK(skt_write(dir, "body.cfg", "\n\0import posed\n", 15));
    expect_failure(dir, "body.cfg", OSSA_ERR_FORMAT, "a NUL byte at offset 1");
    /* No tokens at all. */
    CHECK(skt_write(dir, "body.cfg", "", 0));
    expect_failure(dir, "body.cfg", OSSA_ERR_FORMAT, "neither");
    CHECK(skt_write(dir, "body.cfg", " \n\t\n// only a comment\n", 22));
    expect_failure(dir, "body.cfg", OSSA_ERR_FORMAT, "no import line");

    /* Large: just under OSSA_MAX_CFG_SIZE of tokens, then a missing pose file, then a good
     * one; a byte more than the cap is refused unread, naming the size and the cap. */
    size_t big = OSSA_MAX_CFG_SIZE - 15;
    char *huge = malloc(big + 32);
    CHECK(huge != NULL);
    if (huge) {
        for (size_t i = 0; i < big; i++)
            huge[i] = i % 64 == 63 ? '\n' : (i % 2 ? ' ' : 'w');
        memcpy(huge + big, "\nimport absent\n", 15);
        CHECK(skt_write(dir, "body.cfg", huge, big + 15));
        expect_failure(dir, "body.cfg", OSSA_ERR_IO, "absent");
        memcpy(huge + big, "\nimport posed\n", 14);
        CHECK(skt_write(dir, "body.cfg", huge, big + 14));
        ossa_model *m = load(dir, "body.cfg");
        CHECK(m && m->bone_count == demo->bone_count);
        ossa_model_destroy(m);
        memcpy(huge + big, "\nimport posed  \n", 16);
        CHECK(skt_write(dir, "body.cfg", huge, big + 16));
        expect_failure(dir, "body.cfg", OSSA_ERR_RANGE, "a .cfg of 1048577 bytes: more than the "
                       "1048576 bytes");
        free(huge);
    }

    /* From memory a Qfusion cfg cannot reach its .skm. */
    ossa_model *m = NULL;
    CHECK(ossa_load_memory(missing, strlen(missing), "body.cfg", NULL, &m, &err) ==
          OSSA_ERR_INVALID_ARGUMENT);
    CHECK(!m && strstr(err.message, "load it by path") && strstr(err.file, "body.cfg"));
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
    test_open_cfg(demo, dir);
    test_cal3d_cfg(demo, dir);
    test_malformed(demo, dir);
    skt_remove_dir(dir);
    ossa_model_destroy(demo);
    return test_finish("skm-cfg");
}
