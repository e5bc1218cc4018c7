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
    ossa_local_to_model(m, lt, lr, ls, mt, mr, ms);
    ossa_skin_palette(m, mt, mr, ms, pal);
    ossa_soa_pose local, model;
    CHECK(ossa_soa_pose_create(n, &local, NULL) == OSSA_OK);
    CHECK(ossa_soa_pose_create(n, &model, NULL) == OSSA_OK);
    ossa_soa_pose_from_aos(&local, lt, lr, ls);
    ossa_ltm_job ltm = {.skeleton = sk, .local = &local, .model = &model};
    CHECK(ossa_ltm_job_run(&ltm) == OSSA_OK);
    ossa_palette_job pj = {.skeleton = sk, .model = &model, .palette = pal2,
                           .palette_floats = 12 * (size_t)n};
    CHECK(ossa_palette_job_run(&pj) == OSSA_OK);
    ossa_soa_pose_to_aos(&model, mt2, mr2, ms2);
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
    CHECK(n == 0 || ossa_palette_job_run(&pj) != OSSA_OK);
    ltm.model = &local;
    CHECK(ossa_ltm_job_validate(&ltm) != OSSA_OK);
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
    ossa_pose_rest(m, t, r, s);
    compare_pose(m, sk, t, r, s);
    /* the skeleton's rest pose is the model's */
    ossa_soa_pose p;
    CHECK(ossa_soa_pose_create(n, &p, NULL) == OSSA_OK);
    ossa_rt_skeleton_rest(sk, &p);
    float *t2 = calloc((size_t)n * 10 + 1, sizeof(float));
    ossa_soa_pose_to_aos(&p, t2, t2 + 3 * n, t2 + 7 * n);
    CHECK(!memcmp(t2, buf, (size_t)n * 10 * sizeof(float)));
    free(t2);
    ossa_soa_pose_destroy(&p);
    for (uint32_t c = 0; c < m->clip_count; c++)
        for (int k = 0; k < 5; k++) {
            ossa_pose_rest(m, t, r, s);
            ossa_sample_clip(m, &m->clips[c], m->clips[c].duration * (float)k / 4.3f,
                             OSSA_WRAP_LOOP, t, r, s);
            compare_pose(m, sk, t, r, s);
        }
    free(buf);
    ossa_rt_skeleton_destroy(sk);
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
    test_assets();
    printf("worst relative difference SoA vs scalar: %g\n", worst_rel);
    return test_finish("anim-pose-soa");
}
