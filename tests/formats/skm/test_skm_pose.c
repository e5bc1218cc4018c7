/* The demo pose from the written SKM/SKP agrees with the in-memory demo: model-space bone
 * transforms and skinned vertices (anim.h, scalar path) at several times of every clip.
 *  - Written at 30 frames per second, the demo's own key rate, every frame is a demo key, so
 *    the read clip interpolates the same keys at any time. The reader plays frames at 10 per
 *    second (D10), so demo time t is read-back time 3 t.
 *  - Written at the default 10 per second, the poses agree at frame times (k / 10 s). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "demo.h"
#include "ossa/load.h"
#include "ossa/write.h"
#include "skm_test_util.h"

#define TOL_POS 2e-5 /* model units: the demo is 1.8 units tall */
#define TOL_ROT 1e-6

static void compare_at(const ossa_model *demo, const ossa_clip *a, float ta, const ossa_model *back,
                       const ossa_clip *b, float tb, double *worst)
{
    skt_pose pa, pb;
    skt_pose_at(demo, a, ta, &pa);
    skt_pose_at(back, b, tb, &pb);
    CHECK(pa.bones == pb.bones && pa.vertices == pb.vertices);
    if (pa.bones == pb.bones && pa.vertices == pb.vertices) {
        double dt = skt_max_diff(pa.mt, pb.mt, 3 * (size_t)pa.bones);
        double dr = skt_max_quat_diff(pa.mr, pb.mr, pa.bones);
        double dp = skt_max_diff(pa.pos, pb.pos, 3 * pa.vertices);
        double dn = skt_max_diff(pa.nrm, pb.nrm, 3 * pa.vertices);
        CHECKF(dt <= TOL_POS && dr <= TOL_ROT && dp <= TOL_POS && dn <= 1e-4,
               "clip %s at %g s: bones %g / %g, vertices %g, normals %g", a ? a->name : "(rest)",
               (double)ta, dt, dr, dp, dn);
        double d = fmax(fmax(dt, dp), dn);
        if (d > *worst)
            *worst = d;
    }
    skt_pose_free(&pa);
    skt_pose_free(&pb);
}

static ossa_model *write_and_load(const ossa_model *demo, const char *dir, const char *base,
                                  float rate)
{
    ossa_error err;
    CHECKF(ossa_write_skm(demo, dir, base, &(ossa_skm_write_options){.frame_rate = rate}, &err) == OSSA_OK, "%s", err.message);
    char path[4096], name[256];
    snprintf(name, sizeof name, "%s.skm", base);
    ossa_model *m = NULL;
    CHECKF(ossa_load_file(test_path(path, sizeof path, dir, name), NULL, &m, &err) == OSSA_OK,
           "%s", err.message);
    return m;
}

int main(void)
{
    ossa_model *demo = NULL;
    ossa_error err;
    if (ossa_demo_model(&demo, &err) != OSSA_OK)
        return 1;
    char dir[4096];
    if (!skt_make_dir(dir, sizeof dir))
        return 1;
    static const float fractions[] = {0.0f, 0.1f, 0.237f, 0.5f, 0.61f, 0.999f};
    double worst = 0.0;

    ossa_model *at30 = write_and_load(demo, dir, "demo30", 30.0f);
    ossa_model *at10 = write_and_load(demo, dir, "demo10", 0.0f);
    if (at30 && at10) {
        compare_at(demo, NULL, 0.0f, at30, NULL, 0.0f, &worst);
        for (uint32_t c = 0; c < demo->clip_count; c++) {
            const ossa_clip *a = &demo->clips[c];
            uint32_t b30 = ossa_model_find_clip(at30, a->name);
            uint32_t b10 = ossa_model_find_clip(at10, a->name);
            CHECK(b30 != OSSA_NOT_FOUND && b10 != OSSA_NOT_FOUND);
            if (b30 == OSSA_NOT_FOUND || b10 == OSSA_NOT_FOUND)
                continue;
            CHECK_NEAR(at30->clips[b30].duration, 3.0 * a->duration, 1e-5);
            for (size_t i = 0; i < sizeof fractions / sizeof fractions[0]; i++) {
                float t = fractions[i] * a->duration;
                compare_at(demo, a, t, at30, &at30->clips[b30], 3.0f * t, &worst);
            }
            uint32_t frames = (uint32_t)(a->duration * 10.0f + 0.5f);
            for (uint32_t k = 0; k < frames; k += 3)
                compare_at(demo, a, (float)k / 10.0f, at10, &at10->clips[b10], (float)k / 10.0f,
                           &worst);
        }
    }
    printf("largest difference: %g model units\n", worst);
    ossa_model_destroy(at30);
    ossa_model_destroy(at10);
    skt_remove_dir(dir);
    ossa_model_destroy(demo);
    return test_finish("skm-pose");
}
