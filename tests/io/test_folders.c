/* Folders where a model is expected (the CLI binary is argv[1]): the demo's Cal3D set laid out
 * as real sets are (skeleton at the top, animations in cafc/, meshes in cmfc/, materials and a
 * texture in tex/, no .cfg) opens whole through ossa_load_file, `ossa info`, `ossa sample` and
 * `ossa bench --model`; a folder with .cfg files opens the shallowest, the first by name, and
 * says so; a folder without model files is an error naming it; FIFOs are never opened. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ossa/ossa.h"
#include "demo.h"
#include "test_common.h"

static char root[256];

static const char *at(char *buf, size_t size, const char *rel)
{
    snprintf(buf, size, "%s/%s", root, rel);
    return buf;
}

static bool move(const char *from_rel, const char *to_rel)
{
    char a[512], b[512];
    return rename(at(a, sizeof a, from_rel), at(b, sizeof b, to_rel)) == 0;
}

static bool has_clip(const ossa_model *m, const char *name)
{
    return ossa_model_find_clip(m, name) != OSSA_NOT_FOUND;
}

static bool has_warning(const ossa_model *m, const char *needle)
{
    for (uint32_t i = 0; i < m->warning_count; i++)
        if (strstr(m->warnings[i], needle))
            return true;
    return false;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-folders OSSA\n");
        return 2;
    }
    snprintf(root, sizeof root, "/tmp/ossa-folders-XXXXXX");
    if (!mkdtemp(root))
        return 1;
    char p[512], cmd[2048];
    ossa_model *demo = NULL, *m = NULL;
    ossa_error err;
    CHECK(ossa_demo_model(&demo, &err) == OSSA_OK);
    CHECK(demo && ossa_write_cal3d(demo, root, "Arthur", NULL, &err) == OSSA_OK);

    /* The set as written, with its .cfg: the reference. */
    ossa_model *ref = NULL;
    CHECK(ossa_load_file(at(p, sizeof p, "Arthur.cfg"), NULL, &ref, &err) == OSSA_OK);

    /* Laid out without a .cfg, in subfolders; a texture and a text file beside them. */
    CHECK(unlink(at(p, sizeof p, "Arthur.cfg")) == 0);
    CHECK(mkdir(at(p, sizeof p, "cafc"), 0700) == 0 && mkdir(at(p, sizeof p, "cmfc"), 0700) == 0 &&
          mkdir(at(p, sizeof p, "tex"), 0700) == 0);
    CHECK(move("walk.caf", "cafc/walk.caf") && move("wave.caf", "cafc/wave.caf") &&
          move("idle.caf", "cafc/idle.caf") && move("mannequin.cmf", "cmfc/mannequin.cmf") &&
          move("skin.crf", "tex/skin.crf") && move("shirt.crf", "tex/shirt.crf") &&
          move("trousers.crf", "tex/trousers.crf"));
    FILE *f = fopen(at(p, sizeof p, "tex/skin.tga"), "wb");
    if (f) {
        fputs("not a model", f);
        fclose(f);
    }
    f = fopen(at(p, sizeof p, "readme.txt"), "w");
    if (f) {
        fputs("skeleton=Arthur.csf\n", f);
        fclose(f);
    }
    /* A FIFO: opening it would block forever. */
    CHECK(mkfifo(at(p, sizeof p, "cafc/pipe.caf"), 0600) == 0);

    CHECKF(ossa_load_file(root, NULL, &m, &err) == OSSA_OK, "%s", err.message);
    if (m && ref) {
        CHECK(m->bone_count == ref->bone_count && m->mesh_count == ref->mesh_count);
        CHECK(m->clip_count == 3 && m->material_count == ref->material_count);
        CHECK(has_clip(m, "walk") && has_clip(m, "wave") && has_clip(m, "idle"));
        CHECK(m->mesh_count == 1 &&
              m->meshes[0].submesh_count == ref->meshes[0].submesh_count);
    }
    ossa_model_destroy(m);
    m = NULL;

    /* The CLI: info, sample and bench take the folder as they take a file. */
    int status = -1;
    snprintf(cmd, sizeof cmd, "'%s' info '%s'", argv[1], root);
    char *out = test_run(cmd, &status);
    CHECKF(status == 0 && out && strstr(out, "clips: 3") && strstr(out, "'walk'"), "%s", out);
    free(out);
    snprintf(cmd, sizeof cmd, "'%s' sample '%s' --clip walk --time 0.3", argv[1], root);
    out = test_run(cmd, &status);
    CHECKF(status == 0 && out && strlen(out) > 1000, "ossa sample DIR: %d", status);
    free(out);
    snprintf(cmd, sizeof cmd, "'%s' bench --model '%s' --runs 1 --threads 1 --json", argv[1], root);
    out = test_run(cmd, &status);
    CHECKF(status == 0 && out && out[0] == '{', "ossa bench --model DIR: %d", status);
    free(out);

    /* Two .cfg files beside each other, one deeper: the shallower first by name, said. */
    CHECK(ossa_write_cal3d(demo, at(p, sizeof p, "cmfc"), "deep", NULL, &err) == OSSA_OK);
    f = fopen(at(p, sizeof p, "b.cfg"), "w");
    if (f) {
        fputs("skeleton=Arthur.csf\nmesh=cmfc/mannequin.cmf\n", f);
        fclose(f);
    }
    f = fopen(at(p, sizeof p, "a.cfg"), "w");
    if (f) {
        fputs("skeleton=Arthur.csf\nanimation=cafc/wave.caf\n", f);
        fclose(f);
    }
    CHECKF(ossa_load_file(root, NULL, &m, &err) == OSSA_OK, "%s", err.message);
    if (m) {
        CHECK(m->clip_count == 1 && m->mesh_count == 0 && has_clip(m, "wave"));
        CHECK(has_warning(m, "opened '") && has_warning(m, "a.cfg', the first by name") &&
              has_warning(m, "b.cfg'"));
    }
    ossa_model_destroy(m);
    m = NULL;

    /* A folder with no model file: an error naming the folder. */
    CHECK(mkdir(at(p, sizeof p, "empty"), 0700) == 0);
    CHECK(ossa_load_file(at(p, sizeof p, "empty"), NULL, &m, &err) == OSSA_ERR_IO && !m);
    CHECKF(strstr(err.file, "empty") && strstr(err.message, "no file Ossa reads"), "%s: %s",
           err.file, err.message);
    snprintf(cmd, sizeof cmd, "'%s' info '%s' 2>&1", argv[1], at(p, sizeof p, "empty"));
    out = test_run(cmd, &status);
    CHECKF(status != 0 && out && strstr(out, "no file Ossa reads"), "%s", out ? out : "");
    free(out);

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
    ossa_model_destroy(ref);
    ossa_model_destroy(demo);
    return test_finish("folders");
}
