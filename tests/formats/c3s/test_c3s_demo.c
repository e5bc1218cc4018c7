/* C3S writer and reader on the built-in demo model: both forms (bone-weighted with ASEQ bone
 * keys; every clip baked into vertex frames) read back with the demo's skeleton, meshes,
 * materials and clips, and play the demo's poses: skinned vertex positions agree with the
 * in-memory demo at several times of every clip. Writing the read model again and reading it
 * gives the same model (within float rounding of the bone-space offsets), output is
 * deterministic, and bad arguments and failed writes leave no file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "c3s_test_util.h"
#include "demo.h"
#include "test_common.h"

static char text[1024];

static bool read_all(const char *path, uint8_t **data, size_t *size)
{
    *data = test_read_file(path, size);
    return *data != NULL;
}

/* Largest distance between the two models' posed vertices over every submesh. */
static double pose_gap(const ossa_model *a, const ossa_clip *ca, const ossa_model *b,
                       const ossa_clip *cb, float time)
{
    double worst = 0;
    for (uint32_t i = 0; i < a->mesh_count; i++)
        for (uint32_t j = 0; j < a->meshes[i].submesh_count; j++) {
            const ossa_submesh *sa = &a->meshes[i].submeshes[j];
            if (i >= b->mesh_count || j >= b->meshes[i].submesh_count ||
                b->meshes[i].submeshes[j].vertex_count != sa->vertex_count)
                return 1e9;
            size_t n = 3 * (size_t)(sa->vertex_count ? sa->vertex_count : 1);
            float *pa = malloc(n * sizeof(float)), *na = malloc(n * sizeof(float));
            float *pb = malloc(n * sizeof(float)), *nb = malloc(n * sizeof(float));
            if (pa && pb && na && nb && ct_pose_submesh(a, ca, time, i, j, pa, na) &&
                ct_pose_submesh(b, cb, time, i, j, pb, nb)) {
                for (size_t k = 0; k < 3 * (size_t)sa->vertex_count; k++) {
                    double d = fabs((double)pa[k] - pb[k]);
                    worst = d > worst ? d : worst;
                }
            } else {
                worst = 1e9;
            }
            free(pa);
            free(pb);
            free(na);
            free(nb);
        }
    return worst;
}

static void compare_meshes(const char *label, const ossa_model *demo, const ossa_model *back)
{
    CHECKF(back->mesh_count == demo->mesh_count, "%s: %u meshes", label, back->mesh_count);
    if (back->mesh_count != demo->mesh_count)
        return;
    for (uint32_t i = 0; i < demo->mesh_count; i++) {
        const ossa_mesh *a = &demo->meshes[i], *b = &back->meshes[i];
        CHECKF(strcmp(a->name, b->name) == 0, "%s: mesh name '%s'", label, b->name);
        CHECK(b->format == OSSA_FORMAT_C3S && b->flags == a->flags);
        CHECKF(a->submesh_count == b->submesh_count, "%s: %u submeshes", label, b->submesh_count);
        for (uint32_t j = 0; j < a->submesh_count && j < b->submesh_count; j++) {
            const ossa_submesh *sa = &a->submeshes[j], *sb = &b->submeshes[j];
            CHECKF(sa->vertex_count == sb->vertex_count && sa->face_count == sb->face_count,
                   "%s submesh %u: %u/%u vertices, %u/%u faces", label, j, sb->vertex_count,
                   sa->vertex_count, sb->face_count, sa->face_count);
            CHECK(sa->material == sb->material);
            CHECK(sa->uv_set_count == sb->uv_set_count ||
                  (sa->uv_set_count && sb->uv_set_count == 1));
            if (sa->vertex_count != sb->vertex_count || sa->face_count != sb->face_count)
                continue;
            double dp = 0, dn = 0, du = 0;
            for (size_t k = 0; k < 3 * (size_t)sa->vertex_count; k++) {
                dp = fmax(dp, fabs((double)sa->positions[k] - sb->positions[k]));
                dn = fmax(dn, fabs((double)sa->normals[k] - sb->normals[k]));
            }
            for (uint32_t v = 0; v < sa->vertex_count && sb->uv_set_count; v++)
                for (int k = 0; k < 2; k++)
                    du = fmax(du, fabs((double)sa->uvs[2 * v * sa->uv_set_count + (uint32_t)k] -
                                       sb->uvs[2 * v + (uint32_t)k]));
            CHECKF(dp < 1e-5, "%s submesh %u: positions differ by %g", label, j, dp);
            CHECKF(dn < 1e-4, "%s submesh %u: normals differ by %g", label, j, dn);
            CHECKF(du == 0, "%s submesh %u: uvs differ by %g", label, j, du);
            CHECKF(memcmp(sa->indices, sb->indices, 12 * (size_t)sa->face_count) == 0,
                   "%s submesh %u: triangles differ", label, j);
        }
    }
}

static void check_form(const ossa_model *demo, bool frames)
{
    const char *label = frames ? "vertex frames" : "bone weighted";
    char path[512];
    CHECK(ct_temp_path(path, sizeof path, "demo.c3s"));
    ossa_c3s_write_options opt = {.vertex_frames = frames, .frame_rate = 0.0f};
    ossa_error err;
    ossa_status st = ossa_write_c3s(demo, path, &opt, &err);
    CHECKF(st == OSSA_OK, "%s: %s", label, ossa_error_format(&err, text, sizeof text));
    ossa_model *back = NULL;
    if (st == OSSA_OK) {
        st = ossa_load_file(path, NULL, &back, &err);
        CHECKF(st == OSSA_OK, "%s: reading back: %s", label,
               ossa_error_format(&err, text, sizeof text));
    }
    if (!back) {
        ct_remove_temp(path);
        return;
    }
    CHECK(back->format == OSSA_FORMAT_C3S && back->version == 0x10000);
    /* A scene is a whole model: a second file cannot join it. */
    const char *twice[2] = {path, path};
    ossa_model *joined = NULL;
    CHECK(ossa_load_files(twice, 2, NULL, &joined, &err) == OSSA_ERR_MISMATCH && !joined);
    for (uint32_t i = 0; i < back->warning_count; i++)
        printf("  %s warning: %s\n", label, back->warnings[i]);
    CHECKF(back->warning_count == 0, "%s: %u warnings", label, back->warning_count);
    compare_meshes(label, demo, back);
    /* Skeleton (bone form) or none (frame form). */
    if (frames) {
        CHECK(back->bone_count == 0);
    } else {
        CHECK(back->bone_count == demo->bone_count);
        for (uint32_t i = 0; i < back->bone_count && back->bone_count == demo->bone_count; i++) {
            const ossa_bone *a = &demo->bones[i], *b = &back->bones[i];
            CHECKF(strcmp(a->name, b->name) == 0 && a->parent == b->parent, "bone %u", i);
            for (int k = 0; k < 3; k++) {
                CHECK_NEAR(a->rest_t[k], b->rest_t[k], 1e-6);
                CHECK_NEAR(a->inv_bind_t[k], b->inv_bind_t[k], 1e-5);
            }
        }
        CHECKF(back->bind_disagreement < 1e-5, "bind disagreement %g",
               (double)back->bind_disagreement);
    }
    CHECK(back->material_count == demo->material_count);
    for (uint32_t i = 0; i < back->material_count && i < demo->material_count; i++)
        CHECK(strcmp(back->materials[i].name, demo->materials[i].name) == 0);
    CHECK(back->clip_count == demo->clip_count);
    for (uint32_t c = 0; c < back->clip_count && c < demo->clip_count; c++) {
        const ossa_clip *ca = &demo->clips[c], *cb = &back->clips[c];
        CHECK(strcmp(ca->name, cb->name) == 0);
        CHECK_NEAR(ca->duration, cb->duration, 1e-6);
        CHECK_NEAR(cb->frame_rate, 30.0, 1e-4);
        CHECK(frames ? cb->vertex_track_count == demo->meshes[0].submesh_count && !cb->track_count
                     : cb->track_count > 0 && !cb->vertex_track_count);
        /* Key times (every 1/30 s) match closely; between keys vertex frames lerp where the
         * skeleton slerps, so they may differ a little. */
        static const float at[] = {0.0f, 0.1f, 0.2f, 0.25f, 0.37f, 0.5f, 0.71f, 0.93f, 1.37f};
        for (size_t t = 0; t < sizeof at / sizeof at[0]; t++) {
            float time = ossa_clip_wrap_time(ca, at[t] * ca->duration);
            float frame = time * 30.0f;
            bool on_key = fabsf(frame - roundf(frame)) < 1e-3f;
            double gap = pose_gap(demo, ca, back, cb, time);
            double tol = frames && !on_key ? 5e-3 : 1e-4;
            CHECKF(gap < tol, "%s clip '%s' t=%g: vertices %g apart (tol %g)", label, ca->name,
                   (double)time, gap, tol);
        }
    }
    /* Second generation: writing what was read gives the same bytes. */
    char again[512];
    CHECK(ct_temp_path(again, sizeof again, "again.c3s"));
    st = ossa_write_c3s(back, again, &opt, &err);
    CHECKF(st == OSSA_OK, "%s: rewriting: %s", label, ossa_error_format(&err, text, sizeof text));
    uint8_t *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    if (st == OSSA_OK && read_all(path, &a, &na) && read_all(again, &b, &nb)) {
        ossa_model *third = NULL;
        CHECK(ossa_load_file(again, NULL, &third, &err) == OSSA_OK);
        if (third) {
            compare_meshes("third generation", back, third);
            for (uint32_t c = 0; c < back->clip_count && c < third->clip_count; c++)
                for (float t = 0.0f; t < 1.0f; t += 0.13f) {
                    double gap = pose_gap(back, &back->clips[c], third, &third->clips[c],
                                          t * back->clips[c].duration);
                    CHECKF(gap < 1e-5, "%s: regenerated clip %u differs by %g", label, c, gap);
                }
            ossa_model_destroy(third);
        }
        printf("  %s: %zu bytes, rewritten %zu bytes\n", label, na, nb);
    }
    free(a);
    free(b);
    /* The same model written twice gives the same bytes. */
    st = ossa_write_c3s(back, again, &opt, &err);
    if (st == OSSA_OK && read_all(again, &a, &na)) {
        char once_more[512];
        CHECK(ct_temp_path(once_more, sizeof once_more, "once-more.c3s"));
        CHECK(ossa_write_c3s(back, once_more, &opt, &err) == OSSA_OK);
        if (read_all(once_more, &b, &nb))
            CHECKF(na == nb && memcmp(a, b, na) == 0, "%s: output not deterministic", label);
        free(a);
        free(b);
        ct_remove_temp(once_more);
    }
    ct_remove_temp(again);
    ossa_model_destroy(back);
    ct_remove_temp(path);
}

static void bad_arguments(const ossa_model *demo)
{
    ossa_error err;
    CHECK(ossa_write_c3s(NULL, "/tmp/x.c3s", NULL, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_write_c3s(demo, NULL, NULL, &err) == OSSA_ERR_INVALID_ARGUMENT);
    ossa_c3s_write_options bad = {.vertex_frames = false, .frame_rate = -1.0f};
    CHECK(ossa_write_c3s(demo, "/tmp/x.c3s", &bad, &err) == OSSA_ERR_INVALID_ARGUMENT);
    const char *nowhere = "/nonexistent-dir-ossa/x.c3s";
    CHECK(ossa_write_c3s(demo, nowhere, NULL, &err) == OSSA_ERR_IO);
    CHECK(err.message[0] && strstr(err.file, "x.c3s"));
    struct stat st;
    CHECK(stat(nowhere, &st) != 0);
}

int main(void)
{
    ossa_model *demo = NULL;
    ossa_error err;
    if (ossa_demo_model(&demo, &err) != OSSA_OK) {
        fprintf(stderr, "demo: %s\n", err.message);
        return 1;
    }
    check_form(demo, false);
    check_form(demo, true);
    bad_arguments(demo);
    ossa_model_destroy(demo);
    return test_finish("c3s-demo");
}
