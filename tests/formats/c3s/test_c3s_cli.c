/* `ossa info` and `ossa sample` on C3S files (the CLI binary is argv[1]): info names the
 * format and shows the C3S extras (vertex frames and tracks, triggers, links, mounts, hidden
 * meshes, two-sided submeshes); sample prints, for a vertex-frame clip and for a bone clip,
 * the same vertices as the engine's own evaluation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "c3s_test_util.h"
#include "demo.h"
#include "test_common.h"

static char *run(const char *cli, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", cli, args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    size_t got;
    while (out && (got = fread(out + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *grown = realloc(out, cap * 2);
            if (!grown) {
                free(out);
                out = NULL;
                break;
            }
            out = grown;
            cap *= 2;
        }
    }
    int rc = pclose(p);
    if (out)
        out[n] = 0;
    if (rc != 0) {
        fprintf(stderr, "'%s' exited with %d:\n%s\n", cmd, rc, out ? out : "");
        test_failures++;
    }
    return out;
}

static bool save(const ossa_model *m, bool frames, const char *path)
{
    ossa_c3s_write_options opt = {.vertex_frames = frames, .frame_rate = 0.0f};
    ossa_error err;
    return ossa_write_c3s(m, path, &opt, &err) == OSSA_OK;
}

/* Every CSV row of `ossa sample` against ct_pose_submesh. */
static void compare_sample(const char *cli, const char *path, const ossa_model *m,
                           uint32_t clip, float time)
{
    char args[1024];
    snprintf(args, sizeof args, "sample '%s' --clip %u --time %g", path, clip, (double)time);
    char *out = run(cli, args);
    if (!out)
        return;
    double worst = 0;
    unsigned rows = 0;
    char *line = strchr(out, '\n');
    float pos[3 * 512], nrm[3 * 512];
    uint32_t have_mesh = UINT32_MAX, have_sub = UINT32_MAX;
    while (line && line[1]) {
        line++;
        unsigned mesh, sub, v;
        double p[3], n[3];
        if (sscanf(line, "%u,%u,%u,%lf,%lf,%lf,%lf,%lf,%lf", &mesh, &sub, &v, &p[0], &p[1], &p[2],
                   &n[0], &n[1], &n[2]) != 9)
            break;
        if (mesh != have_mesh || sub != have_sub) {
            CHECK(m->meshes[mesh].submeshes[sub].vertex_count <= 512);
            CHECK(ct_pose_submesh(m, &m->clips[clip], ossa_clip_wrap_time(&m->clips[clip], time),
                                  mesh, sub, pos, nrm));
            have_mesh = mesh;
            have_sub = sub;
        }
        for (int k = 0; k < 3; k++)
            worst = fmax(worst, fabs(p[k] - pos[3 * v + (unsigned)k]));
        rows++;
        line = strchr(line, '\n');
    }
    uint32_t total = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++)
            total += m->meshes[i].submeshes[s].vertex_count;
    CHECKF(rows == total, "%s: %u rows for %u vertices", path, rows, total);
    CHECKF(worst < 1e-6, "%s clip %u t=%g: sample differs by %g", path, clip, (double)time, worst);
    free(out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-c3s-cli OSSA\n");
        return 2;
    }
    const char *cli = argv[1];
    ossa_model *demo = NULL, *features = NULL, *bones = NULL, *frames = NULL;
    ossa_error err;
    CHECK(ossa_demo_model(&demo, &err) == OSSA_OK);
    ct_buf b;
    ct_init(&b);
    ct_scene_features(&b);
    CHECK(ct_load(&b, &features, &err) == OSSA_OK);
    char bone_path[512], frame_path[512], feat_path[512], raw_path[512];
    /* The scene as built (7 vertices, 12 trifaces in the file; seams split vertices, disabled
     * faces are dropped): info shows both counts. */
    CHECK(ct_temp_path(raw_path, sizeof raw_path, "raw.c3s"));
    FILE *raw = fopen(raw_path, "wb");
    CHECK(raw && fwrite(b.data, 1, b.size, raw) == b.size);
    if (raw)
        fclose(raw);
    ct_free(&b);
    if (features) {
        uint64_t vertices = 0, faces = 0;
        for (uint32_t i = 0; i < features->mesh_count; i++)
            for (uint32_t s = 0; s < features->meshes[i].submesh_count; s++) {
                vertices += features->meshes[i].submeshes[s].vertex_count;
                faces += features->meshes[i].submeshes[s].face_count;
            }
        CHECK(features->meshes[0].file_vertex_count == 7);
        CHECK(features->meshes[0].file_face_count == 12);
        CHECK(vertices != 7 && faces != 12);
        char args[1024], want[256];
        snprintf(args, sizeof args, "info '%s'", raw_path);
        snprintf(want, sizeof want, "model in the file: vertices 7, faces 12; rendered: vertices "
                                    "%llu, faces %llu",
                 (unsigned long long)vertices, (unsigned long long)faces);
        char *info = run(cli, args);
        CHECKF(info && strstr(info, want), "ossa info lacks \"%s\":\n%s", want, info ? info : "");
        free(info);
    }
    ct_remove_temp(raw_path);
    CHECK(ct_temp_path(bone_path, sizeof bone_path, "bones.c3s"));
    CHECK(ct_temp_path(frame_path, sizeof frame_path, "frames.c3s"));
    CHECK(ct_temp_path(feat_path, sizeof feat_path, "features.c3s"));
    if (demo && features && save(demo, false, bone_path) && save(demo, true, frame_path) &&
        save(features, false, feat_path)) {
        char args[1024];
        snprintf(args, sizeof args, "info '%s'", feat_path);
        char *info = run(cli, args);
        if (info) {
            static const char *const want[] = {
                "format: C3S", "bones: 2", "uv frames", "two-sided", "hidden", "triggers 2",
                "'step'", "linked clips 1", "group 'arms'", "mounts: 1", "mount 0 'hat'",
                "bind disagreement"};
            for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
                CHECKF(strstr(info, want[i]), "ossa info lacks \"%s\":\n%s", want[i], info);
            free(info);
        }
        snprintf(args, sizeof args, "info '%s'", frame_path);
        info = run(cli, args);
        if (info) {
            CHECKF(strstr(info, "vertex frames") && strstr(info, "vertex tracks 3") &&
                       strstr(info, "bones: 0"),
                   "ossa info on the vertex-frame demo:\n%s", info);
            free(info);
        }
        CHECK(ossa_load_file(bone_path, NULL, &bones, &err) == OSSA_OK);
        CHECK(ossa_load_file(frame_path, NULL, &frames, &err) == OSSA_OK);
        static const float times[] = {0.0f, 0.3f, 0.55f, 1.7f};
        for (size_t t = 0; t < sizeof times / sizeof times[0] && bones && frames; t++)
            for (uint32_t c = 0; c < 3; c++) {
                compare_sample(cli, bone_path, bones, c, times[t]);
                compare_sample(cli, frame_path, frames, c, times[t]);
            }
    } else {
        CHECK(!"writing the C3S files");
    }
    ct_remove_temp(bone_path);
    ct_remove_temp(frame_path);
    ct_remove_temp(feat_path);
    ossa_model_destroy(demo);
    ossa_model_destroy(features);
    ossa_model_destroy(bones);
    ossa_model_destroy(frames);
    return test_finish("c3s-cli");
}
