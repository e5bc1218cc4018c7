/* The two Cal3D 1300/1301 lineages (docs/FORMATS.md, D1) told apart from the data:
 * upstream files (node lights in the CSF, vertex colours in the CMF) and mp3butcher files
 * (neither), written by the test writer, load and report their lineage; a failed attempt at the
 * other layout leaves no warning behind; a file that fits neither names both layouts and where
 * each broke, the closer first; cut files and lying counts fail cleanly; a file both layouts read
 * (no vertices) is upstream; bytes left over give a warning; `ossa info` names the lineage.
 *
 * Usage: test-lineage PATH-TO-OSSA */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lineage_fixture.h"
#include "ossa/ossa.h"
#include "test_common.h"

static char text[1024];

static const char *lineage_label(int version)
{
    return version & CW_MP3BUTCHER ? "mp3butcher" : "upstream";
}

static ossa_cal3d_lineage lineage_of(int version)
{
    return version & CW_MP3BUTCHER ? OSSA_CAL3D_MP3BUTCHER : OSSA_CAL3D_UPSTREAM;
}

static ossa_model *load_mem(const uint8_t *data, size_t size, const char *name, ossa_error *err)
{
    ossa_model *m = NULL;
    if (ossa_load_memory(data, size, name, NULL, &m, err) != OSSA_OK)
        return NULL;
    return m;
}

static bool make_dir(char *dir, size_t size)
{
    snprintf(dir, size, "/tmp/ossa-lineage-XXXXXX");
    return mkdtemp(dir) != NULL;
}

static void remove_set(const char *dir)
{
    char path[600];
    for (int i = 0; i < LF_FILES; i++)
        unlink(test_path(path, sizeof path, dir, lf_name(i)));
    rmdir(dir);
}

/* Loads dir's skeleton, mesh and animation as one model. */
static ossa_model *load_set(const char *dir, ossa_error *err)
{
    char paths[LF_FILES][600];
    const char *list[LF_FILES];
    for (int i = 0; i < LF_FILES; i++)
        list[i] = test_path(paths[i], sizeof paths[i], dir, lf_name(i));
    ossa_model *m = NULL;
    if (ossa_load_files(list, LF_FILES, NULL, &m, err) != OSSA_OK)
        return NULL;
    return m;
}

/* The whole set of each lineage and version loads, with the lineage and exactly what its
 * layout holds: lights and colours in upstream files only. No warning of the attempt at the
 * other layout survives, and only one mesh is added. */
static void check_each_lineage(int version)
{
    const char *label = lineage_label(version);
    bool upstream = !(version & CW_MP3BUTCHER);
    lf_files f;
    char dir[64];
    CHECK(lf_write(version, &f) == 0 && make_dir(dir, sizeof dir) && lf_save(&f, dir) == 0);
    ossa_error err;
    ossa_model *m = load_set(dir, &err);
    CHECKF(m != NULL, "%s %d: %s", label, version & 0xFFFF, ossa_error_format(&err, text, sizeof text));
    if (m) {
        CHECKF(m->skeleton_lineage == lineage_of(version), "%s: skeleton read as %s", label,
               ossa_cal3d_lineage_name(m->skeleton_lineage));
        CHECK(m->skeleton_version == (uint32_t)(version & 0xFFFF));
        CHECK(m->mesh_count == 1 && m->clip_count == 1 && m->bone_count == 3);
        CHECKF(m->warning_count == 0, "%s: %u warnings, first: %s", label, m->warning_count,
               m->warning_count ? m->warnings[0] : "");
        CHECK(m->has_scene_ambient == upstream);
        if (upstream)
            CHECK(m->scene_ambient[0] == 0.25f && m->scene_ambient[2] == 0.75f);
        uint32_t root = ossa_model_find_bone(m, "root"), head = ossa_model_find_bone(m, "head");
        CHECK(root != OSSA_NOT_FOUND && head != OSSA_NOT_FOUND);
        if (root != OSSA_NOT_FOUND && head != OSSA_NOT_FOUND) {
            CHECK(m->bones[root].light_type == (upstream ? 1 : 0));
            CHECK(m->bones[head].light_type == (upstream ? 2 : 0));
            CHECK(m->bones[head].light_color[2] == (upstream ? 0.375f : 0.0f));
        }
        if (m->mesh_count == 1) {
            const ossa_mesh *mesh = &m->meshes[0];
            CHECKF(mesh->lineage == lineage_of(version), "%s: mesh read as %s", label,
                   ossa_cal3d_lineage_name(mesh->lineage));
            CHECK(mesh->submesh_count == 2);
            for (uint32_t s = 0; s < mesh->submesh_count; s++) {
                const ossa_submesh *sm = &mesh->submeshes[s];
                const cw_submesh *w = &lf_mesh()->submeshes[s];
                CHECK(sm->vertex_count == w->vertex_count && sm->face_count == w->face_count);
                CHECK((sm->colors != NULL) == upstream);
                for (uint32_t v = 0; sm->colors && v < sm->vertex_count; v++)
                    CHECK(memcmp(sm->colors + 3 * v, w->vertices[v].color, 12) == 0);
                /* The same LOD data and positions whichever lineage wrote them. */
                for (uint32_t v = 0; v < sm->vertex_count; v++) {
                    CHECK(sm->collapse_id[v] == w->vertices[v].collapse_id);
                    CHECK(memcmp(sm->positions + 3 * v, w->vertices[v].position, 12) == 0);
                }
                CHECK(sm->morph_count == w->morph_count && sm->spring_count == w->spring_count);
            }
        }
        ossa_model_destroy(m);
    }

    /* Each file alone, from memory: the mesh without a skeleton too. */
    for (int i = LF_CSF; i <= LF_CMF; i++) {
        m = load_mem(f.data[i], f.size[i], lf_name(i), &err);
        CHECKF(m != NULL, "%s alone: %s", lf_name(i), ossa_error_format(&err, text, sizeof text));
        if (m && i == LF_CSF)
            CHECK(m->skeleton_lineage == lineage_of(version) && m->warning_count == 0);
        if (m && i == LF_CMF)
            CHECK(m->mesh_count == 1 && m->meshes[0].lineage == lineage_of(version));
        ossa_model_destroy(m);
    }
    remove_set(dir);
    lf_free(&f);
}

/* Each file is told apart on its own: an upstream skeleton with an mp3butcher mesh. */
static void check_mixed_set(void)
{
    lf_files up, mp;
    char dir[64];
    CHECK(lf_write(1301, &up) == 0 && lf_write(1301 | CW_MP3BUTCHER, &mp) == 0);
    CHECK(make_dir(dir, sizeof dir));
    CHECK(cw_save(dir, lf_name(LF_CSF), up.data[LF_CSF], up.size[LF_CSF]) == 0);
    CHECK(cw_save(dir, lf_name(LF_CMF), mp.data[LF_CMF], mp.size[LF_CMF]) == 0);
    CHECK(cw_save(dir, lf_name(LF_CAF), mp.data[LF_CAF], mp.size[LF_CAF]) == 0);
    ossa_error err;
    ossa_model *m = load_set(dir, &err);
    CHECKF(m != NULL, "mixed set: %s", ossa_error_format(&err, text, sizeof text));
    if (m) {
        CHECK(m->skeleton_lineage == OSSA_CAL3D_UPSTREAM && m->has_scene_ambient);
        CHECK(m->mesh_count == 1 && m->meshes[0].lineage == OSSA_CAL3D_MP3BUTCHER);
        ossa_model_destroy(m);
    }
    remove_set(dir);
    lf_free(&up);
    lf_free(&mp);
}

static size_t put_i32(uint8_t *p, size_t at, int32_t v)
{
    uint32_t u = (uint32_t)v;
    for (int k = 0; k < 4; k++)
        p[at + (size_t)k] = (uint8_t)(u >> (8 * k));
    return at + 4;
}

static size_t put_f32(uint8_t *p, size_t at, float f)
{
    int32_t v;
    memcpy(&v, &f, 4);
    return put_i32(p, at, v);
}

/* A one-bone mp3butcher CSF whose bone name hides a bone that the upstream layout reads after
 * its scene ambient colour: that bone has light type 7 (a warning) and then a child id out of
 * range, so the upstream attempt warns and fails. Returns the size (177). */
static size_t polyglot_csf(uint8_t *p)
{
    memset(p, 0, 177);
    memcpy(p, "CSF", 4);
    size_t at = put_i32(p, 4, 1300);
    at = put_i32(p, at, 1);    /* one bone */
    at = put_i32(p, at, 97);   /* mp3butcher: its name, bytes 16..113 */
    memcpy(p + at, "abcdefgh", 8); /* upstream: ambient = (97 as float, "abcd", "efgh") */
    at = put_i32(p, 24, 1);    /* upstream bone: a 1-byte empty name at 28 */
    at += 1 + 14 * 4;          /* its 14 floats, zero */
    at = put_i32(p, at, -1);   /* parent */
    at = put_i32(p, at, 7);    /* light type 7: "unknown light type" */
    at += 12;                  /* light colour */
    at = put_i32(p, at, 1);    /* one child ... */
    at = put_i32(p, at, 5);    /* ... with id 5: out of range, at offset 109 */
    /* mp3butcher bone after its name: identity transforms, root, no children. */
    static const float floats[14] = {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1};
    for (int k = 0; k < 14; k++)
        at = put_f32(p, at, floats[k]);
    at = put_i32(p, at, -1);
    at = put_i32(p, at, 0);
    return at;
}

/* The attempt at the wrong layout warns before it fails; neither the warning nor anything else
 * of it stays in the model. */
static void check_failed_attempt_leaves_nothing(void)
{
    uint8_t file[177];
    size_t size = polyglot_csf(file);
    CHECK(size == sizeof file);
    ossa_error err;
    ossa_model *m = load_mem(file, size, "polyglot.csf", &err);
    CHECKF(m != NULL, "polyglot: %s", ossa_error_format(&err, text, sizeof text));
    if (m) {
        CHECK(m->skeleton_lineage == OSSA_CAL3D_MP3BUTCHER && m->bone_count == 1);
        CHECK(strcmp(m->bones[0].name, "abcdefgh\x01") == 0 && !m->has_scene_ambient);
        CHECKF(m->warning_count == 0, "%u warnings, first: %s", m->warning_count,
               m->warning_count ? m->warnings[0] : "");
        ossa_model_destroy(m);
    }
    /* Cut by one byte, neither layout reads it: the mp3butcher one ran out of data (closest),
     * the upstream one stopped at the child id it reached after the light type. */
    m = load_mem(file, size - 1, "polyglot.csf", &err);
    CHECK(m == NULL && err.status == OSSA_ERR_TRUNCATED);
    CHECKF(strncmp(err.message, "bone 0: need 4 bytes for child count, only 3 left (in the "
                   "mp3butcher 1300 layout, which read further; ", 102) == 0 &&
               strstr(err.message, "in the upstream 1300 layout: bone 0: ") != NULL &&
               strstr(err.message, "child 0 has id 5") != NULL &&
               strstr(err.message, "at offset 109") != NULL,
           "%s", err.message);
    ossa_model_destroy(m);
}

/* A damaged file of either lineage names both layouts, the one that got further first, and
 * carries its status and offset. */
static void check_fits_neither(int version)
{
    lf_files f;
    CHECK(lf_write(version, &f) == 0);
    uint8_t *d = f.data[LF_CMF];
    size_t n = f.size[LF_CMF];
    /* The last face index (submesh 1 has 3 vertices) becomes 7. */
    put_i32(d, n - 4, 7);
    ossa_error err;
    ossa_model *m = load_mem(d, n, "hero.cmf", &err);
    CHECK(m == NULL);
    char want_first[160], want_second[96], want_end[48];
    bool mp = version & CW_MP3BUTCHER;
    int v = version & 0xFFFF;
    /* The cause leads; the layout it was read in and the other layout's failure follow. */
    snprintf(want_first, sizeof want_first, "submesh 1: face 0: index 7");
    snprintf(want_second, sizeof want_second, "(in the %s %d layout, which read further; in the "
             "%s %d layout: ", mp ? "mp3butcher" : "upstream", v, mp ? "upstream" : "mp3butcher",
             v);
    snprintf(want_end, sizeof want_end, "the file fits neither Cal3D %d layout)", v);
    CHECKF(strncmp(err.message, want_first, strlen(want_first)) == 0 &&
               strstr(err.message, want_second) != NULL && strstr(err.message, want_end) != NULL,
           "%s", err.message);
    CHECKF(err.status == OSSA_ERR_RANGE && err.offset == (int64_t)(n - 4), "status %s offset %lld",
           ossa_status_name(err.status), (long long)err.offset);
    CHECK(strcmp(err.file, "hero.cmf") == 0);
    lf_free(&f);
}

/* Every proper prefix of a skeleton or mesh of either lineage fails as truncated, never with a
 * model. */
static void check_truncated(int version)
{
    lf_files f;
    CHECK(lf_write(version, &f) == 0);
    for (int i = LF_CSF; i <= LF_CMF; i++) {
        int wrong = 0;
        ossa_load_options opt = {0};
        opt.format = i == LF_CSF ? OSSA_FORMAT_CSF : OSSA_FORMAT_CMF; /* too short to sniff */
        for (size_t n = 0; n < f.size[i]; n++) {
            ossa_error err;
            ossa_model *m = NULL;
            ossa_status st = ossa_load_memory(f.data[i], n, lf_name(i), &opt, &m, &err);
            if (st != OSSA_ERR_TRUNCATED || m || err.offset < 0) {
                if (!wrong++)
                    fprintf(stderr, "%s %s cut at %zu: %s\n", lineage_label(version), lf_name(i),
                            n, ossa_error_format(&err, text, sizeof text));
                ossa_model_destroy(m);
            }
        }
        CHECKF(wrong == 0, "%s %s: %d prefixes did not fail as truncated", lineage_label(version),
               lf_name(i), wrong);
    }
    lf_free(&f);
}

/* A count that lies fails cleanly: an error with an offset (at most the end of the data), no
 * model. */
static void expect_clean_failure(const char *what, const uint8_t *d, size_t n, const char *name)
{
    ossa_error err;
    ossa_model *m = NULL;
    ossa_status st = ossa_load_memory(d, n, name, NULL, &m, &err);
    CHECKF(st != OSSA_OK && m == NULL && err.status == st && err.offset >= 0 &&
               err.offset <= (int64_t)n,
           "%s: %s", what, ossa_error_format(&err, text, sizeof text));
    ossa_model_destroy(m);
}

static void check_lying_counts(int version)
{
    lf_files f;
    CHECK(lf_write(version, &f) == 0);
    uint8_t *copy = malloc(f.size[LF_CMF] > f.size[LF_CSF] ? f.size[LF_CMF] : f.size[LF_CSF]);
    CHECK(copy != NULL);
    if (copy) {
        /* CMF: submesh 0's vertex count (offset 16) one more and one less, its face count,
         * one submesh more. */
        static const struct { size_t at; int32_t value; } cmf_lies[] = {
            {16, 5}, {16, 3}, {8, 3}, {20, 3}};
        for (size_t k = 0; k < sizeof cmf_lies / sizeof cmf_lies[0]; k++) {
            memcpy(copy, f.data[LF_CMF], f.size[LF_CMF]);
            put_i32(copy, cmf_lies[k].at, cmf_lies[k].value);
            char what[96];
            snprintf(what, sizeof what, "%s CMF, %d at %zu", lineage_label(version),
                     cmf_lies[k].value, cmf_lies[k].at);
            expect_clean_failure(what, copy, f.size[LF_CMF], "hero.cmf");
        }
        /* One submesh fewer cannot be told from bytes left over: read with a warning. */
        memcpy(copy, f.data[LF_CMF], f.size[LF_CMF]);
        put_i32(copy, 8, 1);
        ossa_error err;
        ossa_model *m = load_mem(copy, f.size[LF_CMF], "hero.cmf", &err);
        CHECK(m && m->mesh_count == 1 && m->meshes[0].submesh_count == 1 &&
              m->meshes[0].lineage == lineage_of(version) && m->warning_count == 1 &&
              strstr(m->warnings[0], "after the last submesh ignored") != NULL);
        ossa_model_destroy(m);
        /* CSF: bone count (offset 8) one more, one less. */
        static const int32_t bone_counts[] = {4, 2};
        for (size_t k = 0; k < 2; k++) {
            memcpy(copy, f.data[LF_CSF], f.size[LF_CSF]);
            put_i32(copy, 8, bone_counts[k]);
            char what[96];
            snprintf(what, sizeof what, "%s CSF, %d bones", lineage_label(version),
                     bone_counts[k]);
            expect_clean_failure(what, copy, f.size[LF_CSF], "hero.csf");
        }
    }
    free(copy);
    lf_free(&f);
}

/* A mesh without vertices has the same bytes in both lineages: it is read as upstream. */
static void check_ambiguous(int version)
{
    for (uint32_t count = 0; count <= 2; count++) {
        size_t nu = 0, nm = 0;
        uint8_t *up = lf_write_empty_cmf(version, count, &nu);
        uint8_t *mp = lf_write_empty_cmf(version | CW_MP3BUTCHER, count, &nm);
        CHECK(up && mp && nu == nm && memcmp(up, mp, nu) == 0);
        ossa_error err;
        ossa_model *m = up ? load_mem(up, nu, "empty.cmf", &err) : NULL;
        CHECKF(m != NULL, "empty mesh: %s", ossa_error_format(&err, text, sizeof text));
        if (m) {
            CHECK(m->mesh_count == 1 && m->meshes[0].submesh_count == count);
            CHECKF(m->meshes[0].lineage == OSSA_CAL3D_UPSTREAM, "read as %s",
                   ossa_cal3d_lineage_name(m->meshes[0].lineage));
            ossa_model_destroy(m);
        }
        free(up);
        free(mp);
    }
}

/* Bytes after the last element: neither layout ends on the last byte, so the one that read the
 * rest is taken, with the usual warning. */
static void check_trailing(int version)
{
    lf_files f;
    CHECK(lf_write(version, &f) == 0);
    for (int i = LF_CSF; i <= LF_CMF; i++) {
        uint8_t *d = calloc(f.size[i] + 8, 1);
        if (!d)
            continue;
        memcpy(d, f.data[i], f.size[i]);
        ossa_error err;
        ossa_model *m = load_mem(d, f.size[i] + 8, lf_name(i), &err);
        CHECKF(m != NULL, "%s + 8: %s", lf_name(i), ossa_error_format(&err, text, sizeof text));
        if (m) {
            ossa_cal3d_lineage got = i == LF_CSF ? m->skeleton_lineage
                                     : m->mesh_count ? m->meshes[0].lineage : OSSA_CAL3D_CLASSIC;
            CHECKF(got == lineage_of(version), "%s + 8 read as %s", lf_name(i),
                   ossa_cal3d_lineage_name(got));
            CHECKF(m->warning_count == 1 && strstr(m->warnings[0], "8 bytes after the last") &&
                       strstr(m->warnings[0], "ignored"),
                   "%s + 8: %u warnings", lf_name(i), m->warning_count);
            ossa_model_destroy(m);
        }
        free(d);
    }
    lf_free(&f);
}

/* Runs a command; returns its output (malloc'ed) and exit status, or NULL. */
static char *run(const char *cmd, int *status)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t size = 0, cap = 1 << 16;
    char *out = malloc(cap);
    if (out)
        size = fread(out, 1, cap - 1, p);
    int rc = pclose(p);
    *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    if (out)
        out[size] = '\0';
    return out;
}

/* ossa info names the lineage of each 1300/1301 skeleton and mesh, in text and JSON. */
static void check_cli(const char *ossa, int version)
{
    lf_files f;
    char dir[64], cmd[1024], want[96];
    CHECK(lf_write(version, &f) == 0 && make_dir(dir, sizeof dir) && lf_save(&f, dir) == 0);
    int v = version & 0xFFFF, status = -1;
    const char *label = lineage_label(version);
    for (int json = 0; json < 2; json++) {
        snprintf(cmd, sizeof cmd, "'%s' info %s '%s/hero.csf' '%s/hero.cmf' '%s/walk.caf'", ossa,
                 json ? "--json" : "", dir, dir, dir);
        char *out = run(cmd, &status);
        CHECKF(out && status == 0, "%s: exit %d", cmd, status);
        if (out && !json) {
            snprintf(want, sizeof want, "bones: 3 (CSF v%d, %s %d)\n", v, label, v);
            CHECKF(strstr(out, want) != NULL, "no '%s' in:\n%s", want, out);
            snprintf(want, sizeof want, "mesh 0 'hero' (CMF v%d, %s %d): 2 submeshes", v, label,
                     v);
            CHECKF(strstr(out, want) != NULL, "no '%s' in:\n%s", want, out);
            /* Animations are the same in both lineages: no lineage there. */
            snprintf(want, sizeof want, "clip 0 'walk' (CAF v%d):", v);
            CHECKF(strstr(out, want) != NULL, "no '%s' in:\n%s", want, out);
        }
        if (out && json) {
            snprintf(want, sizeof want, "\"version\":%d,\"lineage\":\"%s\",\"names\":", v, label);
            CHECKF(strstr(out, want) != NULL, "no '%s' in:\n%s", want, out);
            snprintf(want, sizeof want, "\"version\":%d,\"lineage\":\"%s\",\"submeshes\":", v,
                     label);
            CHECKF(strstr(out, want) != NULL, "no '%s' in:\n%s", want, out);
        }
        free(out);
    }
    remove_set(dir);
    lf_free(&f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-lineage PATH-TO-OSSA\n");
        return 2;
    }
    static const int versions[] = {1300, 1301, 1300 | CW_MP3BUTCHER, 1301 | CW_MP3BUTCHER};
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        check_each_lineage(versions[i]);
        check_fits_neither(versions[i]);
        check_truncated(versions[i]);
        check_lying_counts(versions[i]);
        check_trailing(versions[i]);
        check_cli(argv[1], versions[i]);
    }
    check_ambiguous(1300);
    check_ambiguous(1301);
    check_mixed_set();
    check_failed_attempt_leaves_nothing();
    return test_finish("layouts-lineage");
}
