/* Cal3D writer on the built-in demo model: binary and XML sets at the default and at every
 * layout the writer produces read back field for field; output is byte-identical run to run;
 * refused versions, bad arguments and failed writes leave no files behind. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ossa/ossa.h"
#include "demo.h"
#include "test_common.h"
#include "writer_test_util.h"

static char text[1024];

/* Writes m as a set into a fresh folder, loads the .cfg back and compares. */
static void round_trip_as(const ossa_model *m, bool xml, uint32_t version, bool mp3butcher)
{
    char dir[256], cfg[512], label[96];
    snprintf(label, sizeof label, "demo %s v%u%s", xml ? "XML" : "binary", version,
             mp3butcher ? " mp3butcher" : "");
    CHECK(wt_make_temp_dir(dir, sizeof dir, "ossa-write-demo"));
    ossa_error err;
    ossa_cal3d_write_options opt = {.xml = xml, .version = version, .mp3butcher = mp3butcher};
    ossa_status st = ossa_write_cal3d(m, dir, "demo", &opt, &err);
    CHECKF(st == OSSA_OK, "%s: %s", label, ossa_error_format(&err, text, sizeof text));
    ossa_model *back = NULL;
    snprintf(cfg, sizeof cfg, "%s/demo.cfg", dir);
    if (st == OSSA_OK) {
        st = ossa_load_file(cfg, NULL, &back, &err);
        CHECKF(st == OSSA_OK, "%s: reading back: %s", label,
               ossa_error_format(&err, text, sizeof text));
    }
    if (back) {
        uint32_t v = version ? version : mp3butcher ? 1301 : xml ? 1000 : 1100;
        wt_compare_options cmp = {
            .binary = !xml,
            .imvu_binary = !xml && v >= 911 && v <= 919,
            .track_flags = xml,
            .lights = true,
            .map_types = true,
        };
        CHECKF(wt_compare_models(label, m, back, &cmp) == 0, "%s differs", label);
        CHECK(back->skeleton_version == v);
        CHECK(back->skeleton_format == (xml ? OSSA_FORMAT_XSF : OSSA_FORMAT_CSF));
        /* The reader tells the lineage from the data alone. */
        if (!xml && v >= 1300) {
            ossa_cal3d_lineage want = mp3butcher ? OSSA_CAL3D_MP3BUTCHER : OSSA_CAL3D_UPSTREAM;
            CHECKF(back->skeleton_lineage == want, "%s: skeleton read as %s", label,
                   ossa_cal3d_lineage_name(back->skeleton_lineage));
            for (uint32_t i = 0; i < back->mesh_count; i++)
                CHECKF(back->meshes[i].lineage == want, "%s: mesh %u read as %s", label, i,
                       ossa_cal3d_lineage_name(back->meshes[i].lineage));
            CHECK(back->has_scene_ambient == !mp3butcher);
        }
        for (uint32_t i = 0; i < back->clip_count; i++)
            CHECK(back->clips[i].version == v && !back->clips[i].compressed);
        ossa_model_destroy(back);
    }
    wt_remove_dir(dir);
}

static void round_trip(const ossa_model *m, bool xml, uint32_t version)
{
    round_trip_as(m, xml, version, false);
}

/* Two runs give the same bytes, file for file. */
static void deterministic(const ossa_model *m, bool xml)
{
    char a[256], b[256];
    CHECK(wt_make_temp_dir(a, sizeof a, "ossa-write-a"));
    CHECK(wt_make_temp_dir(b, sizeof b, "ossa-write-b"));
    ossa_error err;
    ossa_cal3d_write_options opt = {.xml = xml};
    CHECK(ossa_write_cal3d(m, a, "demo", &opt, &err) == OSSA_OK);
    CHECK(ossa_write_cal3d(m, b, "demo", &opt, &err) == OSSA_OK);
    const char *files[] = {"demo.cfg", "demo", "mannequin", "walk", "wave", "idle",
                           "skin", "shirt", "trousers"};
    const char *bin_ext[] = {"", "csf", "cmf", "caf", "caf", "caf", "crf", "crf", "crf"};
    const char *xml_ext[] = {"", "xsf", "xmf", "xaf", "xaf", "xaf", "xrf", "xrf", "xrf"};
    CHECK(wt_count_files(a) == 9 && wt_count_files(b) == 9);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char name[64], pa[512], pb[512];
        if (i == 0)
            snprintf(name, sizeof name, "%s", files[i]);
        else
            snprintf(name, sizeof name, "%s.%s", files[i], xml ? xml_ext[i] : bin_ext[i]);
        size_t na = 0, nb = 0;
        uint8_t *da = test_read_file(test_path(pa, sizeof pa, a, name), &na);
        uint8_t *db = test_read_file(test_path(pb, sizeof pb, b, name), &nb);
        CHECKF(da && db && na == nb && memcmp(da, db, na) == 0, "%s differs between runs", name);
        /* Headers: binary magic and version, XML HEADER line. */
        if (da && i == 1 && !xml)
            CHECK(na > 8 && memcmp(da, "CSF\0\x4c\x04\0\0", 8) == 0);
        if (da && i == 1 && xml)
            CHECK(strncmp((const char *)da, "<HEADER MAGIC=\"XSF\" VERSION=\"1000\" />\n", 38) == 0);
        free(da);
        free(db);
    }
    wt_remove_dir(a);
    wt_remove_dir(b);
}

/* Cal3D stores quaternions conjugated: the demo's upperarm_l rests rotated +0.12 rad about Z,
 * which the XSF must hold as z = -sin(0.06). */
static void conjugated_in_file(const ossa_model *m)
{
    char dir[256], path[512];
    CHECK(wt_make_temp_dir(dir, sizeof dir, "ossa-write-quat"));
    ossa_error err;
    CHECK(ossa_write_cal3d(m, dir, "demo", &(ossa_cal3d_write_options){.xml = true}, &err) ==
          OSSA_OK);
    size_t n = 0;
    char *xsf = (char *)test_read_file(test_path(path, sizeof path, dir, "demo.xsf"), &n);
    CHECK(xsf != NULL);
    if (xsf) {
        xsf[n - 1] = '\0';
        const char *bone = strstr(xsf, "NAME=\"upperarm_l\"");
        const char *rot = bone ? strstr(bone, "<ROTATION>") : NULL;
        float q[4] = {0, 0, 0, 0};
        CHECK(rot && sscanf(rot, "<ROTATION>%f %f %f %f", &q[0], &q[1], &q[2], &q[3]) == 4);
        CHECK_NEAR(q[2], -sin(0.06), 1e-6);
        CHECK_NEAR(q[3], cos(0.06), 1e-6);
        free(xsf);
    }
    wt_remove_dir(dir);
}

static void refusals(const ossa_model *m)
{
    char dir[256];
    CHECK(wt_make_temp_dir(dir, sizeof dir, "ossa-write-refuse"));
    ossa_error err;
    /* 913..918 are always bit-packed: refused before anything is written. */
    ossa_cal3d_write_options v915 = {.version = 915}, v600 = {.version = 600};
    ossa_cal3d_write_options xml1400 = {.xml = true, .version = 1400}, v913 = {.version = 913};
    CHECK(ossa_write_cal3d(m, dir, "demo", &v915, &err) == OSSA_ERR_UNSUPPORTED);
    CHECK(err.status == OSSA_ERR_UNSUPPORTED && strstr(err.message, "915") != NULL);
    CHECK(ossa_write_cal3d(m, dir, "demo", &v600, &err) == OSSA_ERR_VERSION);
    CHECK(ossa_write_cal3d(m, dir, "demo", &xml1400, &err) == OSSA_ERR_VERSION);
    CHECK(ossa_write_cal3d(m, dir, NULL, NULL, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_write_cal3d(m, dir, "a/b", NULL, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_write_cal3d(NULL, dir, "demo", NULL, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_write_cal3d(m, dir, "demo", &v913, NULL) == OSSA_ERR_UNSUPPORTED);
    /* The mp3butcher layout exists for binary 1300/1301 only. */
    ossa_cal3d_write_options fork_1100 = {.version = 1100, .mp3butcher = true};
    ossa_cal3d_write_options fork_xml = {.xml = true, .version = 1300, .mp3butcher = true};
    CHECK(ossa_write_cal3d(m, dir, "demo", &fork_1100, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "mp3butcher") != NULL && strstr(err.message, "1100") != NULL);
    CHECK(ossa_write_cal3d(m, dir, "demo", &fork_xml, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(wt_count_files(dir) == 0);

    /* A missing folder: an I/O error naming the file. */
    char missing[512];
    snprintf(missing, sizeof missing, "%s/no/such/folder", dir);
    CHECK(ossa_write_cal3d(m, missing, "demo", NULL, &err) == OSSA_ERR_IO);
    CHECK(strstr(err.file, "demo.csf") != NULL);

    /* A write that cannot complete (walk.caf cannot be created: a folder has its name) writes
     * no file of the set. */
    char blocker[512];
    snprintf(blocker, sizeof blocker, "%s/walk.caf", dir);
    CHECK(mkdir(blocker, 0777) == 0);
    CHECK(ossa_write_cal3d(m, dir, "demo", NULL, &err) == OSSA_ERR_IO);
    CHECK(strstr(err.file, "walk.caf") != NULL);
    CHECK(wt_count_files(dir) == 1);
    rmdir(blocker);
    wt_remove_dir(dir);
}

int main(void)
{
    ossa_model *m = NULL;
    ossa_error err;
    if (ossa_demo_model(&m, &err) != OSSA_OK) {
        fprintf(stderr, "demo model: %s\n", err.message);
        return 1;
    }
    round_trip(m, false, 0);
    round_trip(m, true, 0);
    /* Every binary layout with plain tracks: classic, IMVU 911/912/919, 1200, upstream. */
    static const uint32_t binary_versions[] = {699, 700, 910, 911, 912, 919, 1000, 1200, 1300, 1301};
    for (size_t i = 0; i < sizeof binary_versions / sizeof binary_versions[0]; i++)
        round_trip(m, false, binary_versions[i]);
    static const uint32_t xml_versions[] = {700, 919, 1100, 1300};
    for (size_t i = 0; i < sizeof xml_versions / sizeof xml_versions[0]; i++)
        round_trip(m, true, xml_versions[i]);
    /* The mp3butcher lineage: 1300, 1301 and its default (1301). */
    round_trip_as(m, false, 1300, true);
    round_trip_as(m, false, 1301, true);
    round_trip_as(m, false, 0, true);
    deterministic(m, false);
    deterministic(m, true);
    conjugated_in_file(m);
    refusals(m);
    ossa_model_destroy(m);
    return test_finish("writers-cal3d-demo");
}
