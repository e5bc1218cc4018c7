/* Write then read gives the same model, for the hand-made scenes: the features scene in the
 * bone-weighted form (bones, weights, hidden and two-sided faces, UV frames, triggers, links,
 * mounts) and both scenes in the vertex-frame form (every clip baked at its key times). Posed
 * vertices, UVs and mount transforms agree at several times of every clip. */
#include <math.h>
#include <string.h>

#include "c3s_test_util.h"
#include "test_common.h"

static char text[1024];

static const ossa_submesh *flat(const ossa_model *m, uint32_t n, uint32_t *mesh, uint32_t *sub)
{
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        if (n < m->meshes[i].submesh_count) {
            *mesh = i;
            *sub = n;
            return &m->meshes[i].submeshes[n];
        }
        n -= m->meshes[i].submesh_count;
    }
    return NULL;
}

static uint32_t flat_count(const ossa_model *m)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        n += m->meshes[i].submesh_count;
    return n;
}

static double max_gap(const float *a, const float *b, size_t n)
{
    double g = 0;
    for (size_t i = 0; i < n; i++)
        g = fmax(g, fabs((double)a[i] - b[i]));
    return g;
}

static void compare(const char *label, const ossa_model *a, const ossa_model *b, bool frames)
{
    uint32_t n = flat_count(a);
    CHECKF(flat_count(b) == n, "%s: %u submeshes, expected %u", label, flat_count(b), n);
    CHECK(b->material_count == a->material_count);
    CHECK(b->clip_count == a->clip_count);
    if (flat_count(b) != n || b->clip_count != a->clip_count)
        return;
    CHECK(frames ? b->bone_count == 0 : b->bone_count == a->bone_count);
    float pa[64 * 3], pb[64 * 3], na[64 * 3], nb[64 * 3];
    for (uint32_t s = 0; s < n; s++) {
        uint32_t ma = 0, sa_i = 0, mb = 0, sb_i = 0;
        const ossa_submesh *sa = flat(a, s, &ma, &sa_i), *sb = flat(b, s, &mb, &sb_i);
        CHECKF(sa->vertex_count == sb->vertex_count && sa->face_count == sb->face_count &&
                   sa->vertex_count <= 64,
               "%s submesh %u: %u/%u vertices", label, s, sb->vertex_count, sa->vertex_count);
        if (sa->vertex_count != sb->vertex_count || sa->vertex_count > 64)
            continue;
        CHECK(sa->flags == sb->flags && sa->material == sb->material);
        CHECK((a->meshes[ma].flags & OSSA_MESH_HIDDEN) == (b->meshes[mb].flags & OSSA_MESH_HIDDEN));
        CHECK(memcmp(sa->indices, sb->indices, 12 * (size_t)sa->face_count) == 0);
        CHECKF(max_gap(sa->positions, sb->positions, 3 * (size_t)sa->vertex_count) < 1e-5,
               "%s submesh %u: bind positions", label, s);
        for (uint32_t c = 0; c < a->clip_count; c++) {
            const ossa_clip *ca = &a->clips[c], *cb = &b->clips[c];
            for (int k = 0; k < 7; k++) {
                float t = ca->duration * (float)k / 7.0f;
                /* The frame form holds key times only: compare there. */
                if (frames && ca->frame_rate > 0)
                    t = floorf(t * ca->frame_rate + 1e-4f) / ca->frame_rate;
                CHECK(ct_pose_submesh(a, ca, t, ma, sa_i, pa, na));
                CHECK(ct_pose_submesh(b, cb, t, mb, sb_i, pb, nb));
                double g = max_gap(pa, pb, 3 * (size_t)sa->vertex_count);
                CHECKF(g < 1e-4, "%s clip '%s' t=%g submesh %u: %g apart", label, ca->name,
                       (double)t, s, g);
                if (sa->uv_set_count) {
                    CHECK(ossa_uv_clip_eval(a, ca, ma, sa_i, t, OSSA_WRAP_LOOP, pa,
                                            sa->vertex_count, NULL) == OSSA_OK);
                    CHECK(ossa_uv_clip_eval(b, cb, mb, sb_i, t, OSSA_WRAP_LOOP, pb,
                                            b->meshes[mb].submeshes[sb_i].vertex_count,
                                            NULL) == OSSA_OK);
                    CHECKF(max_gap(pa, pb, 2 * (size_t)sa->vertex_count) < 1e-6,
                           "%s clip '%s' t=%g: uvs differ", label, ca->name, (double)t);
                }
            }
        }
    }
    for (uint32_t c = 0; c < a->clip_count; c++) {
        const ossa_clip *ca = &a->clips[c], *cb = &b->clips[c];
        CHECK(strcmp(ca->name, cb->name) == 0);
        CHECK_NEAR(ca->duration, cb->duration, 1e-6);
        CHECK(strcmp(ca->group ? ca->group : "", cb->group ? cb->group : "") == 0);
        CHECK(ca->trigger_count == cb->trigger_count && ca->link_count == cb->link_count);
        for (uint32_t t = 0; t < ca->trigger_count && t < cb->trigger_count; t++) {
            const ossa_clip_trigger *x = &ca->triggers[t], *y = &cb->triggers[t];
            CHECK_NEAR(x->time, y->time, 1e-6);
            CHECK(x->command == y->command && strcmp(x->name, y->name) == 0);
            CHECK(x->param_size == y->param_size &&
                  (!x->param_size || memcmp(x->params, y->params, x->param_size) == 0));
        }
        for (uint32_t l = 0; l < ca->link_count && l < cb->link_count; l++)
            CHECK(ca->links[l] == cb->links[l]);
    }
    CHECK(a->mount_count == b->mount_count);
    for (uint32_t i = 0; i < a->mount_count && i < b->mount_count; i++) {
        const ossa_mount *x = &a->mounts[i], *y = &b->mounts[i];
        CHECK(strcmp(x->name, y->name) == 0 && x->face == y->face);
        CHECK(max_gap(x->barycentric, y->barycentric, 3) < 1e-7);
        const ossa_submesh *sa = &a->meshes[x->mesh].submeshes[x->submesh];
        const ossa_submesh *sb = &b->meshes[y->mesh].submeshes[y->submesh];
        float ta[3], ra[4], sca[3], tb[3], rb[4], scb[3];
        CHECK(ossa_mount_transform(a, i, sa->positions, sa->vertex_count, ta, ra, sca, NULL) ==
              OSSA_OK);
        CHECK(ossa_mount_transform(b, i, sb->positions, sb->vertex_count, tb, rb, scb, NULL) ==
              OSSA_OK);
        CHECK(max_gap(ta, tb, 3) < 1e-5 && max_gap(ra, rb, 4) < 1e-5 &&
              max_gap(sca, scb, 3) < 1e-6);
    }
}

static void round_trip(const char *label, void (*scene)(ct_buf *), bool frames)
{
    ct_buf buf;
    ct_init(&buf);
    scene(&buf);
    ossa_model *a = NULL, *b = NULL;
    ossa_error err;
    CHECKF(ct_load(&buf, &a, &err) == OSSA_OK, "%s: %s", label,
           ossa_error_format(&err, text, sizeof text));
    ct_free(&buf);
    char path[512];
    CHECK(ct_temp_path(path, sizeof path, "scene.c3s"));
    ossa_c3s_write_options opt = {.vertex_frames = frames, .frame_rate = 0.0f};
    if (a) {
        /* Each clip keeps its own rate: write at the rate of the first one. */
        opt.frame_rate = a->clip_count ? a->clips[0].frame_rate : 0.0f;
        ossa_status st = ossa_write_c3s(a, path, &opt, &err);
        CHECKF(st == OSSA_OK, "%s: writing: %s", label, ossa_error_format(&err, text, sizeof text));
        if (st == OSSA_OK) {
            st = ossa_load_file(path, NULL, &b, &err);
            CHECKF(st == OSSA_OK, "%s: reading back: %s", label,
                   ossa_error_format(&err, text, sizeof text));
        }
    }
    if (a && b)
        compare(label, a, b, frames);
    ossa_model_destroy(a);
    ossa_model_destroy(b);
    ct_remove_temp(path);
}

int main(void)
{
    round_trip("features, bone weighted", ct_scene_features, false);
    round_trip("features, vertex frames", ct_scene_features, true);
    round_trip("frames, vertex frames", ct_scene_frames, true);
    return test_finish("c3s-roundtrip");
}
