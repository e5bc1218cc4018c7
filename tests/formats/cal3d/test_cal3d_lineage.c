/* The Cal3D writer in both 1300/1301 lineages (docs/FORMATS.md, D1). A character with
 * node lights and vertex colours and one without them (tests/common/lineage_fixture.c, written
 * by the independent test writer) are loaded, written by ossa_write_cal3d in each lineage they
 * fit, read back and compared field for field; the reader reports the lineage written. The
 * writer's CSF, CMF and CAF equal the test writer's byte for byte (compression flag word after
 * the CAF version, flags word after its track count, lights and colours only upstream). Data
 * the mp3butcher layout cannot hold is refused, leaving no file. */
#include <string.h>
#include <unistd.h>

#include "lineage_fixture.h"
#include "ossa/ossa.h"
#include "test_common.h"
#include "writer_test_util.h"

static char text[1024];

static ossa_model *load_fixture(int version, lf_files *f, char *dir, size_t dir_size)
{
    CHECK(lf_write(version, f) == 0);
    CHECK(wt_make_temp_dir(dir, dir_size, "ossa-lineage-in"));
    CHECK(lf_save(f, dir) == 0);
    char paths[LF_FILES][600];
    const char *list[LF_FILES];
    for (int i = 0; i < LF_FILES; i++)
        list[i] = test_path(paths[i], sizeof paths[i], dir, lf_name(i));
    ossa_model *m = NULL;
    ossa_error err;
    CHECKF(ossa_load_files(list, LF_FILES, NULL, &m, &err) == OSSA_OK, "fixture %d: %s",
           version & 0xFFFF, ossa_error_format(&err, text, sizeof text));
    return m;
}

/* Writes m in one lineage, reads it back and compares; the written files equal the test
 * writer's files of that lineage (expect). */
static void round_trip(const ossa_model *m, uint32_t version, bool mp3butcher,
                       const lf_files *expect)
{
    char dir[256], cfg[512], label[64];
    snprintf(label, sizeof label, "%s %u", mp3butcher ? "mp3butcher" : "upstream", version);
    CHECK(wt_make_temp_dir(dir, sizeof dir, "ossa-lineage-out"));
    ossa_cal3d_write_options opt = {.version = version, .mp3butcher = mp3butcher};
    ossa_error err;
    ossa_status st = ossa_write_cal3d(m, dir, "hero", &opt, &err);
    CHECKF(st == OSSA_OK, "%s: %s", label, ossa_error_format(&err, text, sizeof text));
    ossa_model *back = NULL;
    if (st == OSSA_OK) {
        snprintf(cfg, sizeof cfg, "%s/hero.cfg", dir);
        st = ossa_load_file(cfg, NULL, &back, &err);
        CHECKF(st == OSSA_OK, "%s: reading back: %s", label,
               ossa_error_format(&err, text, sizeof text));
    }
    if (back) {
        wt_compare_options cmp = {.binary = true, .lights = true, .map_types = true};
        CHECKF(wt_compare_models(label, m, back, &cmp) == 0, "%s differs", label);
        ossa_cal3d_lineage want = mp3butcher ? OSSA_CAL3D_MP3BUTCHER : OSSA_CAL3D_UPSTREAM;
        CHECKF(back->skeleton_lineage == want && back->mesh_count == 1 &&
                   back->meshes[0].lineage == want,
               "%s: read back as %s", label, ossa_cal3d_lineage_name(back->skeleton_lineage));
        CHECK(back->skeleton_version == version && back->clips[0].version == version);
        ossa_model_destroy(back);
    }
    for (int i = 0; expect && st == OSSA_OK && i < LF_FILES; i++) {
        char path[600];
        size_t n = 0;
        uint8_t *got = test_read_file(test_path(path, sizeof path, dir, lf_name(i)), &n);
        CHECKF(got && n == expect->size[i] && memcmp(got, expect->data[i], n) == 0,
               "%s: %s (%zu bytes) differs from the test writer's (%zu bytes)", label,
               lf_name(i), n, expect->size[i]);
        free(got);
    }
    wt_remove_dir(dir);
}

int main(void)
{
    static const uint32_t versions[] = {1300, 1301};
    for (size_t k = 0; k < 2; k++) {
        uint32_t v = versions[k];
        lf_files up, mp;
        char up_dir[256], mp_dir[256];
        ossa_model *lit = load_fixture((int)v, &up, up_dir, sizeof up_dir);
        ossa_model *plain = load_fixture((int)v | CW_MP3BUTCHER, &mp, mp_dir, sizeof mp_dir);
        if (lit && plain) {
            CHECK(lit->has_scene_ambient && lit->meshes[0].submeshes[0].colors != NULL);
            CHECK(!plain->has_scene_ambient && plain->meshes[0].submeshes[0].colors == NULL);
            /* Lights and colours: upstream only. */
            round_trip(lit, v, false, &up);
            /* With no version asked, a model 1100 cannot hold is written at 1300, not refused;
             * one it can hold at 1100. */
            CHECK(ossa_cal3d_default_version(lit, NULL) == 1300);
            CHECK(ossa_cal3d_default_version(plain, NULL) == 1300); /* morph targets, map types */
            {
                char ddir[256], dcfg[600];
                CHECK(wt_make_temp_dir(ddir, sizeof ddir, "ossa-lineage-default"));
                ossa_error derr;
                CHECKF(ossa_write_cal3d(lit, ddir, "hero", NULL, &derr) == OSSA_OK, "%s",
                       derr.message);
                snprintf(dcfg, sizeof dcfg, "%s/hero.cfg", ddir);
                ossa_model *back = NULL;
                CHECKF(ossa_load_file(dcfg, NULL, &back, &derr) == OSSA_OK, "%s", derr.message);
                if (back)
                    CHECK(back->skeleton_version == 1300 && back->has_scene_ambient);
                ossa_model_destroy(back);
                wt_remove_dir(ddir);
            }
            char dir[256];
            CHECK(wt_make_temp_dir(dir, sizeof dir, "ossa-lineage-refused"));
            ossa_cal3d_write_options fork = {.version = v, .mp3butcher = true};
            ossa_error err;
            CHECK(ossa_write_cal3d(lit, dir, "hero", &fork, &err) == OSSA_ERR_UNSUPPORTED);
            CHECKF(strstr(err.message, "node lights") && strstr(err.message, "mp3butcher"), "%s",
                   err.message);
            CHECK(wt_count_files(dir) == 0);
            wt_remove_dir(dir);
            /* Without them: both lineages, each read back as written. */
            round_trip(plain, v, true, &mp);
            round_trip(plain, v, false, NULL);
        }
        ossa_model_destroy(lit);
        ossa_model_destroy(plain);
        wt_remove_dir(up_dir);
        wt_remove_dir(mp_dir);
        lf_free(&up);
        lf_free(&mp);
    }
    return test_finish("writers-cal3d-lineage");
}
