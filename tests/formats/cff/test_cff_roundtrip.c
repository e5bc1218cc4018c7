/* The demo mannequin written as CFF and read back: one rigid part per bone, bone model-space
 * transforms equal to the demo's at every frame time (and close between frames), vertices where
 * the demo's bones carry them within the 16-bit quantisation, the seventh values, materials, and
 * byte-identical output on a second write. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cff_test_util.h"
#include "demo.h"
#include "test_common.h"

typedef struct pose {
    float *lt, *lr, *ls, *mt, *mr, *ms, *palette;
} pose;

static int pose_alloc(pose *p, uint32_t bones)
{
    p->lt = calloc(bones, 3 * sizeof(float));
    p->lr = calloc(bones, 4 * sizeof(float));
    p->ls = calloc(bones, 3 * sizeof(float));
    p->mt = calloc(bones, 3 * sizeof(float));
    p->mr = calloc(bones, 4 * sizeof(float));
    p->ms = calloc(bones, 3 * sizeof(float));
    p->palette = calloc(bones, 12 * sizeof(float));
    return p->lt && p->lr && p->ls && p->mt && p->mr && p->ms && p->palette;
}

static void pose_free(pose *p)
{
    free(p->lt);
    free(p->lr);
    free(p->ls);
    free(p->mt);
    free(p->mr);
    free(p->ms);
    free(p->palette);
}

/* Model-space pose and palette of clip at time t (NULL clip: the rest pose). */
static void pose_at(const ossa_model *m, const ossa_clip *clip, float t, pose *p)
{
    ossa_pose_rest(m, p->lt, p->lr, p->ls, m->bone_count, NULL);
    if (clip)
        ossa_sample_clip(m, clip, ossa_clip_wrap_time(clip, t), OSSA_WRAP_LOOP, p->lt, p->lr,
                         p->ls, m->bone_count, NULL);
    ossa_local_to_model(m, p->lt, p->lr, p->ls, p->mt, p->mr, p->ms, m->bone_count, NULL);
    ossa_skin_palette(m, p->mt, p->mr, p->ms, p->palette, m->bone_count, NULL);
}

/* Angle of the rotation between two unit quaternions, accurate for small angles (acos of the
 * dot product is not). */
static double rotation_angle_between(const float *a, const float *b)
{
    double minus = 0, plus = 0;
    for (int k = 0; k < 4; k++) {
        minus += ((double)a[k] - b[k]) * ((double)a[k] - b[k]);
        plus += ((double)a[k] + b[k]) * ((double)a[k] + b[k]);
    }
    double d = sqrt(fmin(minus, plus));
    return 4.0 * asin(fmin(1.0, 0.5 * d));
}

static void apply(const float *pal, const float *p, float *out)
{
    for (int r = 0; r < 3; r++)
        out[r] = pal[4 * r] * p[0] + pal[4 * r + 1] * p[1] + pal[4 * r + 2] * p[2] + pal[4 * r + 3];
}

/* The bone whose summed weight over a triangle is largest (ties: the later bone), as the writer. */
static uint32_t dominant(const ossa_submesh *sm, const uint32_t *tri)
{
    uint32_t best = UINT32_MAX;
    double best_w = 0;
    for (int i = 0; i < 3; i++)
        for (uint32_t k = sm->influence_start[tri[i]]; k < sm->influence_start[tri[i] + 1]; k++) {
            uint32_t bone = sm->influences[k].bone;
            double sum = 0;
            for (int j = 0; j < 3; j++)
                for (uint32_t l = sm->influence_start[tri[j]]; l < sm->influence_start[tri[j] + 1];
                     l++)
                    if (sm->influences[l].bone == bone)
                        sum += sm->influences[l].weight;
            if (best == UINT32_MAX || sum > best_w || (sum == best_w && bone > best)) {
                best = bone;
                best_w = sum;
            }
        }
    return best;
}

/* Every vertex of read part `bone`, skinned at the read pose, must lie within tol of a vertex
 * of a demo triangle dominated by that bone, carried rigidly by the demo bone. */
static double part_vertex_error(const ossa_model *demo, const pose *dp, const ossa_model *rd,
                                const pose *rp, uint32_t bone)
{
    const ossa_submesh *rs = &rd->meshes[bone].submeshes[0];
    float *skinned = malloc(3 * sizeof(float) * (rs->vertex_count + 1));
    float *normals = malloc(3 * sizeof(float) * (rs->vertex_count + 1));
    double worst = 0;
    if (!skinned || !normals) {
        free(skinned);
        free(normals);
        return INFINITY;
    }
    ossa_skin_submesh_scalar(rs, rp->palette, skinned, normals, rs->vertex_count, NULL);
    for (uint32_t v = 0; v < rs->vertex_count; v++) {
        double best = INFINITY;
        for (uint32_t s = 0; s < demo->meshes[0].submesh_count; s++) {
            const ossa_submesh *ds = &demo->meshes[0].submeshes[s];
            for (uint32_t f = 0; f < ds->face_count; f++) {
                const uint32_t *tri = ds->indices + 3 * (size_t)f;
                if (dominant(ds, tri) != bone)
                    continue;
                for (int k = 0; k < 3; k++) {
                    float q[3];
                    apply(dp->palette + 12 * (size_t)bone, ds->positions + 3 * (size_t)tri[k], q);
                    double d = sqrt(pow(q[0] - skinned[3 * v], 2) +
                                    pow(q[1] - skinned[3 * v + 1], 2) +
                                    pow(q[2] - skinned[3 * v + 2], 2));
                    if (d < best)
                        best = d;
                }
            }
        }
        if (best > worst)
            worst = best;
    }
    free(skinned);
    free(normals);
    return worst;
}

int main(void)
{
    char *dir = cff_temp_dir();
    CHECK(dir != NULL);
    if (!dir)
        return test_finish("cff-roundtrip");
    char path[4096], path2[4096];
    size_t size = 0, size2 = 0;
    uint8_t *bytes = cff_write_demo(dir, "demo.cff", 0.0f, path, sizeof path, &size);
    uint8_t *again = cff_write_demo(dir, "again.cff", 25.0f, path2, sizeof path2, &size2);
    CHECK(bytes && again);
    CHECKF(bytes && again && size == size2 && memcmp(bytes, again, size) == 0,
           "two writes of the demo differ (%zu and %zu bytes)", size, size2);

    ossa_model *demo = NULL, *rd = NULL;
    ossa_error err;
    CHECK(ossa_demo_model(&demo, &err) == OSSA_OK);
    ossa_status st = ossa_load_file(path, NULL, &rd, &err);
    CHECKF(st == OSSA_OK, "%s", err.message);
    if (!bytes || !demo || !rd) {
        free(bytes);
        free(again);
        ossa_model_destroy(demo);
        ossa_model_destroy(rd);
        cff_remove_dir(dir);
        return test_finish("cff-roundtrip");
    }

    /* Shape: a bone and a mesh per demo bone, one clip of 25 frames, three textures. */
    CHECK(rd->format == OSSA_FORMAT_CFF);
    CHECK(rd->bone_count == demo->bone_count);
    CHECK(rd->mesh_count == demo->bone_count);
    CHECK(rd->clip_count == 1);
    CHECK(rd->material_count == demo->material_count);
    for (uint32_t i = 0; i < rd->material_count && i < demo->material_count; i++)
        CHECKF(!strcmp(rd->materials[i].name, demo->materials[i].name), "material %u '%s'", i,
               rd->materials[i].name);
    uint32_t demo_faces = 0, read_faces = 0;
    for (uint32_t s = 0; s < demo->meshes[0].submesh_count; s++)
        demo_faces += demo->meshes[0].submeshes[s].face_count;
    for (uint32_t i = 0; i < rd->mesh_count; i++) {
        const ossa_submesh *sm = &rd->meshes[i].submeshes[0];
        read_faces += sm->face_count;
        if (i >= demo->bone_count)
            continue;
        CHECK(rd->meshes[i].submesh_count == 1);
        CHECK(sm->max_influences == 1);
        CHECK(sm->vertex_count == 0 || sm->influences[0].bone == i);
        CHECKF(!strncmp(rd->bones[i].name, demo->bones[i].name, 2), "part %u is '%s', bone '%s'",
               i, rd->bones[i].name, demo->bones[i].name);
    }
    /* Each part carries the material of the demo triangles its bone dominates. */
    for (uint32_t s = 0; s < demo->meshes[0].submesh_count; s++) {
        const ossa_submesh *ds = &demo->meshes[0].submeshes[s];
        for (uint32_t f = 0; f < ds->face_count; f++) {
            uint32_t b = dominant(ds, ds->indices + 3 * (size_t)f);
            CHECKF(b < rd->mesh_count && rd->meshes[b].submeshes[0].material == ds->material,
                   "face %u of submesh %u: bone %u", f, s, b);
        }
    }
    CHECK(read_faces == demo_faces);
    const ossa_clip *walk = &demo->clips[0], *clip = rd->clip_count ? &rd->clips[0] : NULL;
    if (clip) {
        CHECK_NEAR(clip->duration, walk->duration, 1e-6);
        CHECK(clip->track_count == rd->bone_count);
        for (uint32_t t = 0; t < clip->track_count; t++) {
            CHECK(clip->tracks[t].key_count == 25);
            CHECK(clip->tracks[t].extra != NULL);
            for (uint32_t k = 0; clip->tracks[t].extra && k < clip->tracks[t].key_count; k++)
                CHECK(clip->tracks[t].extra[k] == (float)k);
        }
    }

    /* Quantisation step of the file: scale / 32767 per axis (the header's scale). */
    float scale[3];
    memcpy(scale, bytes + 12, sizeof scale);
    double quant = 0;
    for (int k = 0; k < 3; k++)
        quant += pow(0.5 * scale[k] / 32767.0, 2);
    double vertex_tol = sqrt(quant) + 2e-6;
    printf("header scale %g %g %g: vertex tolerance %.3g\n", (double)scale[0], (double)scale[1],
           (double)scale[2], vertex_tol);

    pose dp, rp;
    if (rd->bone_count != demo->bone_count) {
        CHECK(!"the parts do not match the demo's bones: pose checks skipped");
        memset(&dp, 0, sizeof dp);
        memset(&rp, 0, sizeof rp);
    } else if (!pose_alloc(&dp, demo->bone_count) || !pose_alloc(&rp, rd->bone_count)) {
        CHECK(!"out of memory");
    } else if (clip) {
        /* Frame times (exact up to float error), then times between frames (interpolated from
         * 25 Hz samples of a 30 Hz clip: close, not equal). */
        const float times[] = {0.0f, 0.04f, 0.36f, 0.52f, 0.96f, 0.13f, 0.5f, 0.71f, 0.99f};
        double worst_t[2] = {0, 0}, worst_r[2] = {0, 0}, worst_v = 0;
        for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
            int between = i >= 5;
            pose_at(demo, walk, times[i], &dp);
            pose_at(rd, clip, times[i], &rp);
            for (uint32_t b = 0; b < rd->bone_count; b++) {
                double dt = 0;
                for (int k = 0; k < 3; k++)
                    dt = fmax(dt, fabs(dp.mt[3 * b + k] - rp.mt[3 * b + k]));
                double dr = rotation_angle_between(dp.mr + 4 * b, rp.mr + 4 * b);
                worst_t[between] = fmax(worst_t[between], dt);
                worst_r[between] = fmax(worst_r[between], dr);
            }
            if (!between)
                for (uint32_t b = 0; b < rd->bone_count; b++)
                    worst_v = fmax(worst_v, part_vertex_error(demo, &dp, rd, &rp, b));
        }
        printf("at frame times: translation %.3g, rotation %.3g rad, vertices %.3g; between "
               "frames: translation %.3g, rotation %.3g rad\n",
               worst_t[0], worst_r[0], worst_v, worst_t[1], worst_r[1]);
        CHECK(worst_t[0] <= 2e-6);
        CHECK(worst_r[0] <= 1e-5);
        CHECK(worst_v <= vertex_tol);
        CHECK(worst_t[1] <= 0.01);
        CHECK(worst_r[1] <= 0.02);
    }
    /* The bind positions of the read model are frame 0 of the walk. */
    if (dp.palette && rp.palette) {
        pose_at(demo, walk, 0.0f, &dp);
        double worst = 0;
        for (uint32_t b = 0; b < rd->bone_count; b++) {
            ossa_pose_rest(rd, rp.lt, rp.lr, rp.ls, rd->bone_count, NULL);
            ossa_local_to_model(rd, rp.lt, rp.lr, rp.ls, rp.mt, rp.mr, rp.ms, rd->bone_count, NULL);
            ossa_skin_palette(rd, rp.mt, rp.mr, rp.ms, rp.palette, rd->bone_count, NULL);
            worst = fmax(worst, part_vertex_error(demo, &dp, rd, &rp, b));
        }
        printf("rest pose against the walk at 0: %.3g\n", worst);
        CHECK(worst <= vertex_tol);
    }
    pose_free(&dp);
    pose_free(&rp);

    /* A second round trip (read model written and read again) keeps every key. */
    char path3[4096];
    snprintf(path3, sizeof path3, "%s/twice.cff", dir);
    ossa_model *rd2 = NULL;
    CHECK(ossa_write_cff(rd, path3,
                         &(ossa_cff_write_options){.frame_rate = 25.0f}, &err) == OSSA_OK);
    CHECKF(ossa_load_file(path3, NULL, &rd2, &err) == OSSA_OK, "%s", err.message);
    if (rd2) {
        CHECK(rd2->bone_count == rd->bone_count && rd2->clip_count == 1);
        double worst = 0;
        for (uint32_t t = 0; rd2->clip_count && t < rd2->clips[0].track_count; t++) {
            const ossa_track *a = &rd->clips[0].tracks[t], *b2 = &rd2->clips[0].tracks[t];
            CHECK(a->key_count == b2->key_count);
            for (uint32_t k = 0; k < a->key_count && k < b2->key_count; k++)
                for (int c = 0; c < 3; c++)
                    worst = fmax(worst, fabs(a->translations[3 * k + c] -
                                             b2->translations[3 * k + c]));
        }
        CHECK(worst <= 1e-6);
        for (uint32_t i = 0; i < rd2->mesh_count && i < rd->mesh_count; i++) {
            const ossa_submesh *a = &rd->meshes[i].submeshes[0], *b2 = &rd2->meshes[i].submeshes[0];
            CHECK(a->vertex_count == b2->vertex_count && a->face_count == b2->face_count);
            if (a->vertex_count != b2->vertex_count)
                continue;
            for (size_t k = 0; k < 3 * (size_t)a->vertex_count; k++)
                worst = fmax(worst, fabs(a->positions[k] - b2->positions[k]));
        }
        printf("second round trip: largest difference %.3g\n", worst);
        CHECK(worst <= vertex_tol);
    }
    ossa_model_destroy(rd2);

    /* A model without clips rests where it was modelled: one frame per part. */
    ossa_model *still = NULL;
    if (ossa_demo_model(&still, &err) == OSSA_OK) {
        still->clip_count = 0;
        /* A bone named "" gets a numbered part name; a bone without a name is refused. */
        ossa_bone *bones = malloc(still->bone_count * sizeof *bones);
        const ossa_bone *own_bones = still->bones;
        if (bones) {
            memcpy(bones, still->bones, still->bone_count * sizeof *bones);
            bones[1].name = NULL;
            still->bones = bones;
            char refused[4096];
            snprintf(refused, sizeof refused, "%s/nameless.cff", dir);
            CHECK(ossa_write_cff(still, refused, NULL, &err) != OSSA_OK && err.message[0]);
            bones[1].name = "";
        }
        char path4[4096];
        snprintf(path4, sizeof path4, "%s/still.cff", dir);
        ossa_model *rd3 = NULL;
        CHECK(ossa_write_cff(still, path4, NULL, &err) == OSSA_OK);
        CHECKF(ossa_load_file(path4, NULL, &rd3, &err) == OSSA_OK, "%s", err.message);
        if (rd3) {
            CHECK(rd3->clip_count == 1 && rd3->clips[0].tracks[0].key_count == 1);
            double worst = 0;
            for (uint32_t b = 0; b < rd3->bone_count && b < still->bone_count; b++) {
                float inv[4] = {-still->bones[b].inv_bind_r[0], -still->bones[b].inv_bind_r[1],
                                -still->bones[b].inv_bind_r[2], still->bones[b].inv_bind_r[3]};
                worst = fmax(worst, rotation_angle_between(inv, rd3->bones[b].rest_r));
            }
            CHECK(worst <= 1e-5);
        }
        ossa_model_destroy(rd3);
        still->bones = own_bones;
        free(bones);
        ossa_model_destroy(still);
    }

    /* Bad arguments fail cleanly and create nothing. */
    char path5[4096];
    snprintf(path5, sizeof path5, "%s/bad.cff", dir);
    CHECK(ossa_write_cff(demo, path5, &(ossa_cff_write_options){.frame_rate = -1.0f}, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(err.message[0] != '\0');
    CHECK(test_read_file(path5, &size2) == NULL);
    CHECK(ossa_write_cff(NULL, path5, NULL, &err) == OSSA_ERR_INVALID_ARGUMENT);
    snprintf(path5, sizeof path5, "%s/no/such/dir.cff", dir);
    CHECK(ossa_write_cff(demo, path5, NULL, &err) == OSSA_ERR_IO);

    ossa_model_destroy(demo);
    ossa_model_destroy(rd);
    free(bytes);
    free(again);
    cff_remove_dir(dir);
    return test_finish("cff-roundtrip");
}
