/* ossa-view on a C3S scene that plays vertex frames: the demo mannequin written with
 * ossa_write_c3s (vertex_frames, no bones) into a scratch folder. Its walk moves the legs between
 * two times; at each time it matches the same scene written bone-animated (skinned by the
 * viewer) and the built-in demo's outline (C3S keeps no material colours, so against the demo
 * only which pixels are covered is compared) within a few pixels: the frame form lerps between
 * shapes sampled at 30 per second, so moving edges may shift by a pixel. The CPU and GPU skinning
 * modes draw it identically (frame shapes are written on the CPU in both). A mount added to the
 * scene shows as a red, green and blue tripod with the bone overlay (--bones) only; a hidden mesh
 * added beside the figure is neither drawn nor framed (the outline stays the demo's). */
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "ossa/write.h"
#include "test_common.h"
#include "view_harness.h"

/* A screenshot of model (NULL: the built-in demo) at a time of its walk. */
static bool shoot(harness *h, const char *name, const char *model, const char *time,
                  const char *skinning, bool bones, harness_image *img)
{
    char png[600], err[4096];
    harness_file(h, name, png, sizeof png);
    const char *args[16] = {"--screenshot", png, "--size", "240x320", "--clip", "walk",
                            "--time", time, "--skinning", skinning};
    size_t n = 10;
    if (bones)
        args[n++] = "--bones";
    if (model)
        args[n++] = model;
    args[n] = NULL;
    int rc = harness_run(h, args, err, sizeof err);
    CHECKF(rc == 0, "%s: exit %d: %s", name, rc, err);
    return rc == 0 && harness_read_png(png, img);
}

/* The demo with additions on copies of its tables: a mount on the first triangle, the first
 * submesh flagged two-sided (drawn as before: nothing is culled), and a hidden second mesh, a
 * copy of the first moved 0.6 units along +X (it must not be drawn nor framed). */
static bool write_scene(const harness *h, bool frames, char *path, size_t size)
{
    ossa_model *m = NULL;
    ossa_error err;
    CHECK(ossa_demo_model(&m, &err) == OSSA_OK);
    if (!m)
        return false;
    harness_file(h, frames ? "mannequin_frames.c3s" : "mannequin_bones.c3s", path, size);
    ossa_c3s_write_options opt = {.vertex_frames = frames, .frame_rate = 30.0f};
    ossa_mount mount = {.name = "tag", .barycentric = {0.2f, 0.3f, 0.5f},
                        .offset_r = {0.0f, 0.0f, 0.0f, 1.0f}, .offset_s = {1.0f, 1.0f, 1.0f}};
    const ossa_mesh *mesh = &m->meshes[0];
    uint32_t n = mesh->submesh_count;
    ossa_submesh *shown = calloc(n, sizeof *shown), *moved = calloc(n, sizeof *moved);
    float **positions = calloc(n, sizeof *positions);
    bool ok = shown && moved && positions;
    for (uint32_t i = 0; ok && i < n; i++) {
        shown[i] = moved[i] = mesh->submeshes[i];
        size_t floats = 3 * (size_t)mesh->submeshes[i].vertex_count;
        positions[i] = malloc((floats ? floats : 1) * sizeof(float));
        ok = positions[i] != NULL;
        for (size_t k = 0; ok && k < floats; k++)
            positions[i][k] = mesh->submeshes[i].positions[k] + (k % 3 == 0 ? 0.6f : 0.0f);
        if (ok)
            moved[i].positions = positions[i];
    }
    ossa_status st = OSSA_ERR_NOMEM;
    if (ok) {
        shown[0].flags |= OSSA_SUBMESH_TWO_SIDED;
        ossa_mesh meshes[2] = {*mesh, *mesh};
        meshes[0].submeshes = shown;
        meshes[1].submeshes = moved;
        meshes[1].flags |= OSSA_MESH_HIDDEN;
        ossa_model scene = *m;
        scene.mesh_count = 2;
        scene.meshes = meshes;
        scene.mount_count = 1;
        scene.mounts = &mount;
        st = ossa_write_c3s(&scene, path, &opt, &err);
        char text[512];
        CHECKF(st == OSSA_OK, "write: %s", ossa_error_format(&err, text, sizeof text));
    }
    for (uint32_t i = 0; positions && i < n; i++)
        free(positions[i]);
    free(positions);
    free(shown);
    free(moved);
    ossa_model_destroy(m);
    return st == OSSA_OK;
}

/* Pixels covered in one image and background in the other (background: the top-left pixel). */
static size_t outline_differ(const harness_image *a, const harness_image *b)
{
    size_t n = (size_t)a->width * (size_t)a->height, count = 0;
    if (a->width != b->width || a->height != b->height)
        return n;
    for (size_t i = 0; i < n; i++) {
        bool fa = false, fb = false;
        for (int k = 0; k < 3; k++) {
            fa = fa || abs((int)a->rgb[3 * i + k] - (int)a->rgb[k]) > 6;
            fb = fb || abs((int)b->rgb[3 * i + k] - (int)b->rgb[k]) > 6;
        }
        count += fa != fb;
    }
    return count;
}

/* Pixels near one of the tripod's axis colours (render.c: 0.95 0.2 0.2, 0.2 0.9 0.3,
 * 0.25 0.45 1.0); the grey mannequin and the dark background have none. */
static void axis_pixels(const harness_image *img, size_t counts[3])
{
    static const int rgb[3][3] = {{242, 51, 51}, {51, 230, 77}, {64, 115, 255}};
    size_t n = (size_t)img->width * (size_t)img->height;
    counts[0] = counts[1] = counts[2] = 0;
    for (size_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            bool near = true;
            for (int k = 0; k < 3; k++)
                near = near && abs((int)img->rgb[3 * i + k] - rgb[a][k]) <= 24;
            counts[a] += near;
        }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-view-c3s OSSA-VIEW\n");
        return 1;
    }
    harness h;
    if (!harness_begin(&h, argv[1]))
        return 1;
    char scene[600], bones[600];
    if (!write_scene(&h, true, scene, sizeof scene) ||
        !write_scene(&h, false, bones, sizeof bones)) {
        harness_end(&h);
        return test_finish("view-c3s");
    }
    if (harness_pick_display(&h) == HARNESS_NO_DISPLAY) {
        harness_end(&h);
        return TEST_SKIP;
    }
    harness_image f0 = {0}, f1 = {0}, demo0 = {0}, demo1 = {0}, gpu1 = {0}, b0 = {0}, b1 = {0},
                  overlay = {0};
    if (shoot(&h, "frames-0.png", scene, "0", "cpu", false, &f0) &&
        shoot(&h, "frames-025.png", scene, "0.25", "cpu", false, &f1) &&
        shoot(&h, "bones-0.png", bones, "0", "cpu", false, &b0) &&
        shoot(&h, "bones-025.png", bones, "0.25", "cpu", false, &b1) &&
        shoot(&h, "demo-0.png", NULL, "0", "cpu", false, &demo0) &&
        shoot(&h, "demo-025.png", NULL, "0.25", "cpu", false, &demo1) &&
        shoot(&h, "frames-025-gpu.png", scene, "0.25", "gpu", false, &gpu1) &&
        shoot(&h, "frames-025-bones-overlay.png", scene, "0.25", "cpu", true, &overlay)) {
        size_t total = (size_t)f0.width * (size_t)f0.height;
        size_t drawn0 = harness_foreground(&f0), drawn1 = harness_foreground(&f1);
        CHECKF(drawn0 > total / 20 && drawn1 > total / 20, "drawn %zu / %zu of %zu", drawn0,
               drawn1, total);
        /* The frames move the legs (lower half) far more than the head (top fifth). */
        size_t legs = harness_differ(&f0, &f1, f0.height / 2, f0.height);
        size_t head = harness_differ(&f0, &f1, 0, f0.height / 5);
        CHECKF(legs > 500 && legs > 4 * head, "frames: lower half %zu changed, top %zu", legs,
               head);
        /* The same outline as the skinned scene and the demo, but for a rim of pixels along
         * moving edges. */
        size_t off0 = harness_differ(&f0, &b0, 0, f0.height);
        size_t off1 = harness_differ(&f1, &b1, 0, f1.height);
        CHECK(outline_differ(&f1, &b1) * 100 <= drawn1 * 2);
        size_t outline0 = outline_differ(&f0, &demo0), outline1 = outline_differ(&f1, &demo1);
        fprintf(stderr,
                "drawn %zu / %zu of %zu; walk moves %zu pixels (head %zu); frames vs bones: "
                "%zu at 0 s, %zu at 0.25 s; outline vs demo: %zu, %zu\n",
                drawn0, drawn1, total, legs, head, off0, off1, outline0, outline1);
        /* C3S stores no normals: the reader computes them from each frame's shape, where the
         * skinned scene turns its bind normals, so the shading differs near blended joints. */
        CHECKF(off0 * 10 <= drawn0, "frames vs bones at 0 s: %zu pixels differ", off0);
        CHECKF(off1 * 10 <= drawn1, "frames vs bones at 0.25 s: %zu pixels differ", off1);
        CHECKF(outline0 * 100 <= drawn0, "outline vs demo at 0 s: %zu pixels differ", outline0);
        CHECKF(outline1 * 100 <= drawn1 * 2, "outline vs demo at 0.25 s: %zu differ", outline1);
        /* The GPU mode writes the frame shapes on the CPU too: the same image. */
        size_t paths = harness_differ(&f1, &gpu1, 0, f1.height);
        CHECKF(paths == 0, "cpu and gpu modes differ on %zu pixels", paths);
        /* The mount's tripod: three colours with the overlay, none without it. */
        size_t with[3], without[3];
        axis_pixels(&overlay, with);
        axis_pixels(&f1, without);
        fprintf(stderr, "tripod pixels x %zu y %zu z %zu (without the overlay %zu %zu %zu)\n",
                with[0], with[1], with[2], without[0], without[1], without[2]);
        for (int a = 0; a < 3; a++) {
            CHECKF(with[a] >= 4, "axis %d: %zu pixels of its colour", a, with[a]);
            CHECKF(without[a] == 0, "axis %d drawn without the overlay", a);
        }
    }
    harness_image *all[] = {&f0, &f1, &demo0, &demo1, &gpu1, &b0, &b1, &overlay};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        harness_image_free(all[i]);
    harness_end(&h);
    return test_finish("view-c3s");
}
