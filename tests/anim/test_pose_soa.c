/* SoA local-to-model and palette against the scalar path (ossa_local_to_model,
 * ossa_skin_palette) within 1e-6: random skeletons with and without scale, and Cal3D assets
 * posed by their clips when present. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "anim_fixture.h"
#include "test_common.h"

static double worst_rel;

/* Relative (absolute below 1) difference of two arrays. */
static double rel_diff(const float *a, const float *b, size_t n)
{
    double d = 0;
    for (size_t i = 0; i < n; i++) {
        double e = fabs((double)a[i] - (double)b[i]) / fmax(1.0, fabs((double)b[i]));
        if (!(e <= d))
            d = e;
    }
    return d;
}

/* Poses the local pose (AoS) both ways and compares model transforms and palettes. */
static void compare_pose(const ossa_model *m, const ossa_rt_skeleton *sk, const float *lt,
                         const float *lr, const float *ls)
{
    uint32_t n = m->bone_count;
    float *buf = calloc((size_t)n * 44 + 1, sizeof(float));
    float *mt = buf, *mr = mt + 3 * n, *ms = mr + 4 * n, *pal = ms + 3 * n;
    float *mt2 = pal + 12 * n, *mr2 = mt2 + 3 * n, *ms2 = mr2 + 4 * n, *pal2 = ms2 + 3 * n;
    ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
    ossa_skin_palette(m, mt, mr, ms, pal, m->bone_count, NULL);
    ossa_soa_pose local, model;
    CHECK(ossa_soa_pose_create(n, &local, NULL) == OSSA_OK);
    CHECK(ossa_soa_pose_create(n, &model, NULL) == OSSA_OK);
    CHECK(ossa_soa_pose_from_aos(&local, lt, lr, ls, n, NULL) == OSSA_OK);
    ossa_ltm_job ltm = {.skeleton = sk, .local = &local, .model = &model};
    CHECK(ossa_ltm_job_run(&ltm, NULL) == OSSA_OK);
    ossa_palette_job pj = {.skeleton = sk, .model = &model, .palette = pal2,
                           .palette_floats = 12 * (size_t)n};
    CHECK(ossa_palette_job_run(&pj, NULL) == OSSA_OK);
    ossa_soa_pose_to_aos(&model, mt2, mr2, ms2, model.bone_count, NULL);
    /* Local to model does ossa_local_to_model's operations in its order: the same bits. */
    CHECKF(!memcmp(mt2, mt, 12 * (size_t)n) && !memcmp(mr2, mr, 16 * (size_t)n) &&
           !memcmp(ms2, ms, 12 * (size_t)n), "SoA local to model != scalar bits (%u bones)", n);
    /* Translations are compared relative to the size of the pose (the largest model-space or
     * inverse-bind translation): the palette's translation column is a sum of such terms. */
    double size = 1.0;
    for (uint32_t i = 0; i < 3 * n; i++)
        size = fmax(size, fmax(fabs(mt[i]), fabs(m->bones[i / 3].inv_bind_t[i % 3] * ms[i])));
    double et = 0, erot = 0;
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 12; k++) {
            double d = fabs((double)pal2[12 * i + k] - pal[12 * i + k]);
            if (k % 4 == 3)
                et = fmax(et, d / size);
            else
                erot = fmax(erot, d / fmax(1.0, fabs(pal[12 * i + k])));
        }
    et = fmax(et, max_diff(mt2, mt, 3 * n) / size);
    double e = fmax(fmax(et, erot), fmax(rel_diff(mr2, mr, 4 * n), rel_diff(ms2, ms, 3 * n)));
    CHECKF(e <= 1e-6, "SoA vs scalar (%u bones): t %g r %g s %g palette rotation %g", n, et,
           rel_diff(mr2, mr, 4 * n), rel_diff(ms2, ms, 3 * n), erot);
    worst_rel = fmax(worst_rel, e);
    /* A palette buffer one bone short and aliased poses are refused. */
    pj.palette_floats = 12 * (size_t)n - 1;
    CHECK(n == 0 || ossa_palette_job_run(&pj, NULL) != OSSA_OK);
    ltm.model = &local;
    CHECK(ossa_ltm_job_validate(&ltm, NULL) != OSSA_OK);
    ossa_soa_pose_destroy(&local);
    ossa_soa_pose_destroy(&model);
    free(buf);
}

/* Rest pose, then every clip at a few times (scalar sampler). */
static void pose_model(const ossa_model *m)
{
    ossa_rt_skeleton *sk;
    ossa_error err;
    CHECK(ossa_rt_skeleton_create(m, &sk, &err) == OSSA_OK);
    CHECK(ossa_rt_skeleton_bone_count(sk) == m->bone_count);
    uint32_t n = m->bone_count;
    float *buf = calloc((size_t)n * 10 + 1, sizeof(float));
    float *t = buf, *r = t + 3 * n, *s = r + 4 * n;
    ossa_pose_rest(m, t, r, s, m->bone_count, NULL);
    compare_pose(m, sk, t, r, s);
    /* the skeleton's rest pose is the model's */
    ossa_soa_pose p;
    CHECK(ossa_soa_pose_create(n, &p, NULL) == OSSA_OK);
    CHECK(ossa_rt_skeleton_rest(sk, &p, NULL) == OSSA_OK);
    float *t2 = calloc((size_t)n * 10 + 1, sizeof(float));
    ossa_soa_pose_to_aos(&p, t2, t2 + 3 * n, t2 + 7 * n, p.bone_count, NULL);
    CHECK(!memcmp(t2, buf, (size_t)n * 10 * sizeof(float)));
    free(t2);
    ossa_soa_pose_destroy(&p);
    for (uint32_t c = 0; c < m->clip_count; c++)
        for (int k = 0; k < 5; k++) {
            ossa_pose_rest(m, t, r, s, m->bone_count, NULL);
            ossa_sample_clip(m, &m->clips[c], m->clips[c].duration * (float)k / 4.3f,
                             OSSA_WRAP_LOOP, t, r, s, m->bone_count, NULL);
            compare_pose(m, sk, t, r, s);
        }
    free(buf);
    ossa_rt_skeleton_destroy(sk);
}

/* Output arrays one bone short are refused with the status and a message naming them and both
 * sizes, and nothing is written: the palette job, the reference path, SoA to AoS. */
static void test_short_buffers(void)
{
    fixture f;
    fixture_random(&f, 77, 9, 1, 4, 0);
    const ossa_model *m = &f.model;
    const uint32_t n = 9;
    ossa_rt_skeleton *sk = NULL;
    ossa_soa_pose model;
    CHECK(ossa_rt_skeleton_create(m, &sk, NULL) == OSSA_OK);
    CHECK(ossa_soa_pose_create(n, &model, NULL) == OSSA_OK);
    ossa_rt_skeleton_rest(sk, &model, NULL);
    float buf[12 * 9];
    for (size_t i = 0; i < 12 * (size_t)n; i++)
        buf[i] = -7.0f;
    ossa_error err = {0};
    ossa_palette_job pj = {.skeleton = sk, .model = &model, .palette = buf,
                           .palette_floats = 12 * (size_t)n - 1};
    CHECK(ossa_palette_job_run(&pj, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(err.status == OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err.message, "palette holds 107 floats") && strstr(err.message, "need 108"),
           "%s", err.message);
    float t[3 * 9], r[4 * 9], sc[3 * 9];
    ossa_error_clear(&err);
    CHECK(ossa_pose_rest(m, t, r, sc, n - 1, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err.message, "t, r, s hold 8 bones (bone_capacity), the model has 9"), "%s",
           err.message);
    ossa_error_clear(&err);
    CHECK(ossa_sample_clip(m, &m->clips[0], 0.1f, OSSA_WRAP_LOOP, buf, buf, buf, n - 1, &err) ==
          OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err.message, "sample clip") && strstr(err.message, "8 bones"), "%s",
           err.message);
    ossa_error_clear(&err);
    CHECK(ossa_skin_palette(m, t, r, sc, buf, n - 1, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err.message, "palette hold 8 bones"), "%s", err.message);
    ossa_error_clear(&err);
    CHECK(ossa_local_to_model(m, t, r, sc, buf, buf, buf, n - 1, &err) ==
          OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err.message, "local to model") && strstr(err.message, "8 bones"), "%s",
           err.message);
    ossa_error_clear(&err);
    CHECK(ossa_soa_pose_to_aos(&model, buf, buf, buf, n - 1, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err.message, "hold 8 bones") && strstr(err.message, "pose has 9"), "%s",
           err.message);
    uint32_t touched = 0;
    /* the other way: AoS inputs one bone short are refused, the pose left as it was */
    float tx0 = model.tx[0];
    ossa_error_clear(&err);
    CHECK(ossa_soa_pose_from_aos(&model, buf, buf, buf, n - 1, &err) ==
          OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err.message, "hold 8 bones") && strstr(err.message, "pose has 9"), "%s",
           err.message);
    CHECK(ossa_soa_pose_from_aos(NULL, buf, buf, buf, n, NULL) == OSSA_ERR_INVALID_ARGUMENT);
    /* the rest pose into a pose of another bone count: refused, nothing written */
    ossa_soa_pose other;
    CHECK(ossa_soa_pose_create(n - 1, &other, NULL) == OSSA_OK);
    other.tx[0] = -7.0f;
    ossa_error_clear(&err);
    CHECK(ossa_rt_skeleton_rest(sk, &other, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err.message, "8 bones") && strstr(err.message, "skeleton 9"), "%s",
           err.message);
    CHECK(other.tx[0] == -7.0f && model.tx[0] == tx0);
    CHECK(ossa_rt_skeleton_rest(NULL, &model, NULL) == OSSA_ERR_INVALID_ARGUMENT);
    ossa_soa_pose_destroy(&other);
    for (size_t i = 0; i < 12 * (size_t)n; i++)
        touched += buf[i] != -7.0f;
    CHECKF(touched == 0, "%u floats written by refused calls", touched);
    ossa_soa_pose_destroy(&model);
    ossa_rt_skeleton_destroy(sk);
    fixture_free(&f);
}

static void test_assets(void)
{
    const char *dir = test_assets_dir();
    if (!dir)
        return;
    const char *cfgs[] = {"cal3d/cally/cally.cfg", "cal3d/paladin/paladin.cfg",
                          "cal3d/marine/cal3d.cfg"};
    for (int i = 0; i < 3; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, cfgs[i]);
        ossa_model *m = NULL;
        ossa_error err;
        ossa_status st = ossa_load_file(path, NULL, &m, &err);
        CHECKF(st == OSSA_OK, "%s: %s", path, err.message);
        if (st == OSSA_OK) {
            pose_model(m);
            ossa_model_destroy(m);
        }
    }
}

int main(void)
{
    const uint32_t sizes[] = {1, 7, 8, 9, 64, 100, 256};
    for (int with_scale = 0; with_scale < 2; with_scale++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            fixture f;
            fixture_random(&f, 1000 + (uint32_t)i, sizes[i], 2, 8, with_scale);
            pose_model(&f.model);
            fixture_free(&f);
        }
    test_short_buffers();
    test_assets();
    printf("worst relative difference SoA vs scalar: %g\n", worst_rel);
    return test_finish("anim-pose-soa");
}
