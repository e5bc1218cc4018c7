/* Every writer and the glTF export on models whose indices name things the model does not hold:
 *  - parts loaded without their skeleton (a lone CAF: `ossa convert walk.caf -o walk.c3s`; a
 *    lone CMF with a clip) keep their file's bone ids, and materials they were never given;
 *  - hand-made models that never went through validation (a bone, a material, a face or a
 *    parent out of range; a file bone id no skeleton could have).
 * A writer that cannot place them refuses with a message and leaves no file; one that can
 * writes something that loads back; nobody indexes out of range (this test runs under ASan and
 * valgrind: the C3S writer once wrote past a one-byte block for bone 4095). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_write_check.h"
#include "ossa/build.h"
#include "ossa/export.h"
#include "ossa/load.h"
#include "ossa/write.h"
#include "test_common.h"

enum { W_CAL3D, W_CAL3D_XML, W_SKM, W_C3S, W_C3S_FRAMES, W_CFF, W_GLB, W_GLTF, W_COUNT };
static const char *const names[W_COUNT] = {"Cal3D", "Cal3D XML", "SKM", "C3S", "C3S frames",
                                           "CFF", "glb", "gltf"};

static char root[4096];

static ossa_status run(const ossa_model *m, int w, const char *dir, ossa_error *err)
{
    char path[4400];
    ossa_cal3d_write_options xml = {.xml = true};
    ossa_c3s_write_options frames = {.vertex_frames = true};
    switch (w) {
    case W_CAL3D: return ossa_write_cal3d(m, dir, "model", NULL, err);
    case W_CAL3D_XML: return ossa_write_cal3d(m, dir, "model", &xml, err);
    case W_SKM: return ossa_write_skm(m, dir, "model", NULL, err);
    case W_C3S:
    case W_C3S_FRAMES:
        snprintf(path, sizeof path, "%s/model.c3s", dir);
        return ossa_write_c3s(m, path, w == W_C3S ? NULL : &frames, err);
    case W_CFF:
        snprintf(path, sizeof path, "%s/model.cff", dir);
        return ossa_write_cff(m, path, NULL, err);
    default:
        snprintf(path, sizeof path, "%s/model.%s", dir, w == W_GLB ? "glb" : "gltf");
        return ossa_export_gltf(m, path, NULL, err);
    }
}

static size_t entries(const char *dir)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

static void clear(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            remove(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* Runs writer w; returns its status after checking the error contract (and, on a refusal, that
 * nothing was left behind). The message goes to msg. */
static ossa_status write_one(const char *label, const ossa_model *m, int w, char *msg, size_t size)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/%s-%d", root, label, w);
    CHECK(mkdir(dir, 0700) == 0);
    ossa_error err;
    memset(&err, 0, sizeof err);
    ossa_status st = run(m, w, dir, &err);
    snprintf(msg, size, "%s", err.message);
    if (st != OSSA_OK) {
        CHECKF(err.status == st && err.message[0], "%s, %s: %s without a message", label,
               names[w], ossa_status_name(st));
        CHECKF(entries(dir) == 0, "%s, %s: refused but left %zu files", label, names[w],
               entries(dir));
    }
    clear(dir);
    return st;
}

static void expect_refusal(const char *label, const ossa_model *m, int w, const char *says)
{
    char msg[512];
    ossa_status st = write_one(label, m, w, msg, sizeof msg);
    CHECKF(st != OSSA_OK, "%s, %s: written instead of refused", label, names[w]);
    if (st != OSSA_OK && says)
        CHECKF(strstr(msg, says) != NULL, "%s, %s: message \"%s\" lacks \"%s\"", label,
               names[w], msg, says);
}

/* ---- models loaded without their skeleton, built as a loader would leave them ---- */

static const float keys_t[6] = {0, 0, 0, 1, 0, 0};
static const float keys_r[8] = {0, 0, 0, 1, 0, 0, 0, 1};
static const float keys_time[2] = {0.0f, 1.0f};

/* A clip "walk" of 1 s with one track per id in bones (no skeleton). */
static void add_clip(ossa_builder *b, const uint32_t *bones, uint32_t count)
{
    ossa_clip *c = NULL;
    ossa_track *tracks = NULL;
    CHECK(ossa_builder_add_clip(b, &c) == OSSA_OK);
    if (count)
        CHECK(ossa_builder_alloc(b, &tracks, count, sizeof *tracks) == OSSA_OK);
    if (!c || (count && !tracks))
        return;
    CHECK(ossa_builder_strndup(b, &c->name, "walk", 4) == OSSA_OK);
    c->duration = 1.0f;
    c->format = OSSA_FORMAT_CAF;
    c->track_count = count;
    c->tracks = tracks;
    for (uint32_t i = 0; i < count; i++)
        tracks[i] = (ossa_track){bones[i], 2, 0, keys_time, keys_t, keys_r, NULL, NULL};
}

static const float tri_pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
static const float tri_nrm[9] = {0, 0, 1, 0, 0, 1, 0, 0, 1};
static const uint32_t tri_idx[3] = {0, 1, 2};
static const uint32_t tri_start[4] = {0, 1, 2, 3};
static const ossa_influence tri_inf[3] = {{7, 1.0f}, {7, 1.0f}, {9, 1.0f}};

/* One triangle on file bones 7 and 9 with material thread 2, no materials loaded. */
static void add_mesh(ossa_builder *b)
{
    ossa_mesh *mesh = NULL;
    ossa_submesh *sm = NULL;
    CHECK(ossa_builder_add_mesh(b, &mesh) == OSSA_OK);
    CHECK(ossa_builder_alloc(b, &sm, 1, sizeof *sm) == OSSA_OK);
    if (!mesh || !sm)
        return;
    CHECK(ossa_builder_strndup(b, &mesh->name, "body", 4) == OSSA_OK);
    mesh->format = OSSA_FORMAT_CMF;
    mesh->submesh_count = 1;
    mesh->submeshes = sm;
    sm->material = 2;
    sm->vertex_count = 3;
    sm->face_count = 1;
    sm->max_influences = 1;
    sm->positions = tri_pos;
    sm->normals = tri_nrm;
    sm->indices = tri_idx;
    sm->influence_start = tri_start;
    sm->influences = tri_inf;
}

static ossa_model *build(int mesh, const uint32_t *track_bones, uint32_t tracks, int clip)
{
    ossa_builder *b = NULL;
    ossa_model *m = NULL;
    CHECK(ossa_builder_create("noskeleton", &b, NULL) == OSSA_OK);
    if (!b)
        return NULL;
    ossa_builder_model(b)->format = OSSA_FORMAT_CAF;
    if (mesh)
        add_mesh(b);
    if (clip)
        add_clip(b, track_bones, tracks);
    ossa_status st = ossa_builder_finish(b, OSSA_OK, &m);
    CHECKF(st == OSSA_OK, "a skeleton-less model does not build: %s", ossa_status_name(st));
    return m;
}

/* The fuzz harnesses' invariants: refusals keep the contract and leave nothing, OKs load back. */
static void check_invariants(const char *label, const ossa_model *m)
{
    char why[768];
    CHECKF(!fuzz_check_writers(m, why, sizeof why), "%s: %s", label, why);
    CHECKF(!fuzz_check_export_file(m, why, sizeof why), "%s: %s", label, why);
}

static void skeletonless(void)
{
    /* `ossa convert walk.caf -o walk.c3s`: ids up to 4095 and no skeleton. */
    const uint32_t bones[3] = {0, 17, 4095};
    ossa_model *walk = build(0, bones, 3, 1);
    if (walk) {
        expect_refusal("lone clip", walk, W_C3S, "skeleton");
        expect_refusal("lone clip", walk, W_C3S_FRAMES, "skeleton");
        expect_refusal("lone clip", walk, W_SKM, NULL);
        char msg[512];
        /* Cal3D holds file ids as they are: the CAF is written back. */
        CHECK(write_one("lone clip", walk, W_CAL3D, msg, sizeof msg) == OSSA_OK);
        check_invariants("lone clip", walk);
    }
    ossa_model_destroy(walk);

    /* A lone mesh with a clip: skinning it would read a palette of bones it does not have. */
    const uint32_t on_mesh[1] = {7};
    ossa_model *both = build(1, on_mesh, 1, 1);
    if (both) {
        expect_refusal("mesh and clip", both, W_C3S, "skeleton");
        expect_refusal("mesh and clip", both, W_C3S_FRAMES, "skeleton");
        check_invariants("mesh and clip", both);
    }
    ossa_model_destroy(both);

    /* A clip with no tracks over the lone mesh: the vertex frames hold the bind pose, and the
     * material thread nothing was loaded for becomes no material. */
    ossa_model *still = build(1, NULL, 0, 1);
    if (still) {
        char msg[512], dir[4200], path[4300];
        CHECKF(write_one("mesh, empty clip", still, W_C3S_FRAMES, msg, sizeof msg) == OSSA_OK,
               "%s", msg);
        snprintf(dir, sizeof dir, "%s/still", root);
        snprintf(path, sizeof path, "%s/model.c3s", dir);
        CHECK(mkdir(dir, 0700) == 0);
        ossa_c3s_write_options frames = {.vertex_frames = true};
        ossa_model *back = NULL;
        CHECK(ossa_write_c3s(still, path, &frames, NULL) == OSSA_OK);
        CHECK(ossa_load_file(path, NULL, &back, NULL) == OSSA_OK);
        if (back && back->mesh_count && back->meshes[0].submesh_count) {
            const ossa_submesh *sm = &back->meshes[0].submeshes[0];
            CHECK(sm->material == -1);
            CHECK(sm->frame_count >= 1);
            for (uint32_t f = 0; f < sm->frame_count && sm->vertex_count == 3; f++)
                CHECK(memcmp(sm->frame_positions + 9 * (size_t)f, tri_pos, sizeof tri_pos) == 0);
        }
        ossa_model_destroy(back);
        clear(dir);
        check_invariants("mesh, empty clip", still);
    }
    ossa_model_destroy(still);
}

/* ---- hand-made models that were never validated ---- */

typedef struct handmade {
    ossa_model m;
    ossa_bone bone;
    ossa_mesh mesh;
    ossa_submesh sm;
    ossa_clip clip;
    ossa_track track;
    ossa_influence inf[3];
    uint32_t idx[3];
} handmade;

/* One root bone, a triangle bound to it, a clip on it: valid until a test breaks one index. */
static void handmade_init(handmade *h)
{
    memset(h, 0, sizeof *h);
    h->bone = (ossa_bone){.name = "root", .parent = -1, .rest_r = {0, 0, 0, 1},
                          .rest_s = {1, 1, 1}, .inv_bind_r = {0, 0, 0, 1}};
    for (int i = 0; i < 3; i++) {
        h->inf[i] = (ossa_influence){0, 1.0f};
        h->idx[i] = (uint32_t)i;
    }
    h->sm = (ossa_submesh){.material = -1, .vertex_count = 3, .face_count = 1,
                           .max_influences = 1, .positions = tri_pos, .normals = tri_nrm,
                           .influence_start = tri_start, .influences = h->inf,
                           .indices = h->idx};
    h->mesh = (ossa_mesh){.name = "body", .submesh_count = 1, .submeshes = &h->sm};
    h->track = (ossa_track){0, 2, 0, keys_time, keys_t, keys_r, NULL, NULL};
    h->clip = (ossa_clip){.name = "walk", .duration = 1.0f, .track_count = 1,
                          .tracks = &h->track};
    h->m = (ossa_model){.source = "handmade", .format = OSSA_FORMAT_DEMO, .scale = 1.0f,
                        .bone_count = 1, .bones = &h->bone, .mesh_count = 1,
                        .meshes = &h->mesh, .clip_count = 1, .clips = &h->clip};
}

static void expect_all_refuse(const char *label, const handmade *h)
{
    ossa_error err;
    ossa_error_clear(&err);
    CHECKF(ossa_model_validate(&h->m, &err) != OSSA_OK, "%s: validates", label);
    for (int w = 0; w < W_COUNT; w++)
        expect_refusal(label, &h->m, w, "not valid");
}

static void unvalidated(void)
{
    handmade h;
    handmade_init(&h);
    ossa_error err;
    ossa_error_clear(&err);
    CHECKF(ossa_model_validate(&h.m, &err) == OSSA_OK, "the hand-made model: %s", err.message);
    check_invariants("hand-made", &h.m);

    handmade_init(&h);
    h.inf[2].bone = 5; /* the SKM writer marked used[5] of a one-bone array */
    expect_all_refuse("influence on bone 5 of 1", &h);

    handmade_init(&h);
    h.track.bone = 3;
    expect_all_refuse("track on bone 3 of 1", &h);

    handmade_init(&h);
    h.idx[1] = 40;
    expect_all_refuse("face on vertex 40 of 3", &h);

    handmade_init(&h);
    h.bone.parent = 2;
    expect_all_refuse("parent 2 of bone 0", &h);

    ossa_material mat = {.name = "skin", .ambient = {1, 1, 1, 1}, .diffuse = {1, 1, 1, 1}};
    handmade_init(&h);
    h.m.material_count = 1;
    h.m.materials = &mat;
    h.sm.material = 4;
    expect_all_refuse("material 4 of 1", &h);

    /* Without a skeleton file ids stay, but only ids some skeleton could have. */
    handmade_init(&h);
    h.m.bone_count = 0;
    h.m.bones = NULL;
    h.inf[0].bone = 4096;
    expect_all_refuse("influence on file bone 4096", &h);
    handmade_init(&h);
    h.m.bone_count = 0;
    h.m.bones = NULL;
    h.m.mesh_count = 0;
    h.track.bone = 70000;
    expect_all_refuse("track on file bone 70000", &h);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/ossa-foreign-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    skeletonless();
    unvalidated();
    CHECKF(entries(root) == 0, "%zu entries left in %s", entries(root), root);
    rmdir(root);
    return test_finish("write-foreign-ids");
}
