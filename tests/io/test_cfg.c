/* Cal3D .cfg model sets: relative paths, path=, scale=, unknown keys, letter-case fallback,
 * missing files, and an animation for another skeleton. Uses the real cally files. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ossa/ossa.h"
#include "test_common.h"

static char tmpdir[256];

static const char *write_cfg(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fputs(text, f);
    fclose(f);
    return path;
}

int main(void)
{
    const char *assets = test_assets_dir();
    if (!assets)
        return TEST_SKIP;
    char abs_assets[4096];
    if (!realpath(assets, abs_assets))
        return TEST_SKIP;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ossa-cfg-XXXXXX");
    if (!mkdtemp(tmpdir))
        return 1;
    char text[12288];
    ossa_model *m = NULL;
    ossa_error err;

    /* path= points into the asset folder; names in other letter case; an unknown key. */
    snprintf(text, sizeof text,
             "# test set\nscale=2\npath=%s/cal3d/cally\nskeleton=CALLY.CSF\n"
             "mesh=cally_head.cmf\nanimation=cally_walk.caf\nmaterial=cally_skin.xrf\n"
             "shadow=on\n",
             abs_assets);
    const char *cfg = write_cfg("set.cfg", text);
    CHECK(cfg != NULL);
    ossa_status st = ossa_load_file(cfg, NULL, &m, &err);
    char msg[1024];
    CHECKF(st == OSSA_OK, "%s", ossa_error_format(&err, msg, sizeof msg));
    if (st == OSSA_OK) {
        CHECK(m->format == OSSA_FORMAT_CAL3D_CFG);
        CHECK(m->bone_count == 37 && m->mesh_count == 1 && m->clip_count == 1);
        CHECK(m->material_count == 1);
        CHECK_NEAR(m->scale, 2.0f, 0);
        int case_warned = 0, key_warned = 0;
        for (uint32_t i = 0; i < m->warning_count; i++) {
            case_warned |= strstr(m->warnings[i], "letter case") != NULL;
            key_warned |= strstr(m->warnings[i], "unknown key 'shadow'") != NULL;
        }
        CHECK(case_warned && key_warned);
        ossa_model_destroy(m);
    }
    /* The same set unscaled: scale=2 doubled every bind position. */
    snprintf(text, sizeof text, "skeleton=%s/cal3d/cally/cally.csf\nmesh=%s/cal3d/cally/cally_head.cmf\n",
             abs_assets, abs_assets);
    ossa_model *plain = NULL;
    st = ossa_load_file(write_cfg("plain.cfg", text), NULL, &plain, &err);
    CHECK(st == OSSA_OK);
    snprintf(text, sizeof text, "scale=2\nskeleton=%s/cal3d/cally/cally.csf\nmesh=%s/cal3d/cally/cally_head.cmf\n",
             abs_assets, abs_assets);
    st = ossa_load_file(write_cfg("scaled.cfg", text), NULL, &m, &err);
    CHECK(st == OSSA_OK);
    if (plain && m) {
        const ossa_submesh *a = &plain->meshes[0].submeshes[0], *b = &m->meshes[0].submeshes[0];
        CHECK_NEAR(b->positions[0], 2.0f * a->positions[0], 1e-5);
        CHECK_NEAR(m->bones[1].rest_t[1], 2.0f * plain->bones[1].rest_t[1], 1e-5);
    }
    ossa_model_destroy(plain);
    ossa_model_destroy(m);

    /* A missing mesh fails the load, naming the file; nothing is returned. */
    snprintf(text, sizeof text, "skeleton=%s/cal3d/cally/cally.csf\nmesh=nowhere.cmf\n", abs_assets);
    m = (ossa_model *)1;
    st = ossa_load_file(write_cfg("missing.cfg", text), NULL, &m, &err);
    CHECK(st == OSSA_ERR_IO && m == NULL && strstr(err.message, "nowhere.cmf") != NULL);
    /* ...unless the caller asks to skip missing files. */
    ossa_load_options opt = {.skip_missing_files = 1};
    st = ossa_load_file(write_cfg("missing.cfg", text), &opt, &m, &err);
    CHECK(st == OSSA_OK && m && m->mesh_count == 0 && m->warning_count >= 1);
    ossa_model_destroy(m);

    /* An animation made for another skeleton (58 bones) on cally (37): rejected, clearly. */
    snprintf(text, sizeof text, "skeleton=%s/cal3d/cally/cally.csf\nanimation=%s/cal3d/hero/hero_idle.caf\n",
             abs_assets, abs_assets);
    st = ossa_load_file(write_cfg("foreign.cfg", text), NULL, &m, &err);
    CHECKF(st == OSSA_ERR_RANGE && m == NULL, "status %d", st);
    CHECKF(strstr(err.message, "not in the skeleton") != NULL && strstr(err.file, "hero_idle.caf"),
           "%s", ossa_error_format(&err, msg, sizeof msg));

    /* A bad scale is an error with its line. */
    st = ossa_load_file(write_cfg("scale.cfg", "\n\nscale=-3\n"), NULL, &m, &err);
    CHECK(st == OSSA_ERR_VALUE && err.line == 3);

    /* morphanim= (Blender's Cal3D exporter) names a morph animation as morphanimation= does:
     * the clip is loaded, not dropped as an unknown key, and `ossa info` lists it. */
    snprintf(text, sizeof text,
             "path=%s/cal3d-xml/tests-ProjectContext\nskeleton=Skeleton.xsf\nmesh=test_head.xmf\n"
             "morphanim=talking_head.xpf\n",
             abs_assets);
    cfg = write_cfg("morphanim.cfg", text);
    st = ossa_load_file(cfg, NULL, &m, &err);
    CHECKF(st == OSSA_OK, "%s", ossa_error_format(&err, msg, sizeof msg));
    if (st == OSSA_OK) {
        CHECK(m->morph_clip_count == 1 && m->mesh_count == 1);
        CHECK(m->morph_clip_count == 1 && strcmp(m->morph_clips[0].name, "talking_head") == 0);
        CHECK(m->morph_clip_count == 1 && m->morph_clips[0].track_count == 9);
        for (uint32_t i = 0; i < m->warning_count; i++)
            CHECKF(strstr(m->warnings[i], "unknown key") == NULL, "%s", m->warnings[i]);
        ossa_model_destroy(m);
    }
    const char *build_root = getenv("OSSA_BUILD_ROOT");
    if (build_root && cfg) {
        char cmd[2048], line[512];
        snprintf(cmd, sizeof cmd, "%s/tools/ossa info '%s'", build_root, cfg);
        FILE *p = popen(cmd, "r");
        int listed = 0;
        while (p && fgets(line, sizeof line, p))
            listed |= strstr(line, "morph clip 0 'talking_head' (XPF v919)") != NULL;
        CHECK(p && pclose(p) == 0);
        CHECK(listed);
    }

    const char *names[] = {"set.cfg", "plain.cfg", "scaled.cfg", "missing.cfg", "foreign.cfg",
                           "scale.cfg", "morphanim.cfg"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
        unlink(p);
    }
    rmdir(tmpdir);
    return test_finish("assets-cfg");
}
