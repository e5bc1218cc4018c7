/* ossa-view's crowd without GL (viewer/crowd.c): the grid (size, spacing from the bind bounds,
 * the plane across up, centred), seeded phases and speeds, the shared clock (seeks to each
 * character's offset, ticks by its speed, pauses that still let a clip change fade), distinct
 * poses, skinning split over a pool equal to skinning on one thread, and the packed palettes. */
#include <math.h>
#include <string.h>

#include "crowd.h"
#include "demo.h"
#include "test_common.h"

static void check_layout(void)
{
    const float lo[3] = {-0.3f, 0.0f, -0.1f}, hi[3] = {0.3f, 1.8f, 0.1f};
    uint32_t cols, rows;
    float spacing, o[3];
    view_crowd_layout(1, lo, hi, 1, &cols, &rows, &spacing);
    CHECK(cols == 1 && rows == 1);
    view_crowd_offset(0, cols, rows, spacing, 1, o);
    CHECK(o[0] == 0.0f && o[1] == 0.0f && o[2] == 0.0f); /* one character: where it was */
    /* Y up: X and Z span the ground; the larger extent is X's 0.6. */
    view_crowd_layout(5, lo, hi, 1, &cols, &rows, &spacing);
    CHECK(cols == 3 && rows == 2);
    CHECK_NEAR(spacing, 1.5 * 0.6, 1e-6);
    float sum[3] = {0, 0, 0};
    for (uint32_t i = 0; i < 6; i++) { /* a full 3 x 2 grid is centred */
        view_crowd_offset(i, cols, rows, spacing, 1, o);
        CHECK(o[1] == 0.0f);
        for (int k = 0; k < 3; k++)
            sum[k] += o[k];
        for (uint32_t j = 0; j < i; j++) {
            float p[3];
            view_crowd_offset(j, cols, rows, spacing, 1, p);
            float d = hypotf(o[0] - p[0], o[2] - p[2]);
            CHECKF(d >= spacing - 1e-5f, "%u and %u %g apart", i, j, (double)d);
        }
    }
    CHECK_NEAR(sum[0], 0.0, 1e-5);
    CHECK_NEAR(sum[2], 0.0, 1e-5);
    /* Z up: X and Y span the ground. */
    view_crowd_layout(4, lo, hi, 2, &cols, &rows, &spacing);
    CHECK(cols == 2 && rows == 2);
    CHECK_NEAR(spacing, 1.5 * 1.8, 1e-6);
    view_crowd_offset(3, cols, rows, spacing, 2, o);
    CHECK(o[2] == 0.0f && o[0] > 0.0f && o[1] > 0.0f);
    view_crowd_layout(17, lo, hi, 1, &cols, &rows, &spacing);
    CHECK(cols == 5 && rows == 4);
}

static void check_phases(void)
{
    float pa[64], sa[64], pb[64], sb[64], pc[64], sc[64];
    view_crowd_phases(64, 7, pa, sa);
    view_crowd_phases(64, 7, pb, sb);
    view_crowd_phases(64, 8, pc, sc);
    CHECK(memcmp(pa, pb, sizeof pa) == 0 && memcmp(sa, sb, sizeof sa) == 0);
    CHECK(memcmp(pa, pc, sizeof pa) != 0);
    CHECK(pa[0] == 0.0f && sa[0] == 1.0f);
    uint32_t distinct = 0;
    for (uint32_t i = 0; i < 64; i++) {
        CHECK(pa[i] >= 0.0f && pa[i] < 1.0f);
        CHECK(sa[i] >= 0.8f && sa[i] <= 1.2f);
        distinct += i && pa[i] != pa[i - 1];
    }
    CHECK(distinct == 63);
}

static float wrap(float t, float d)
{
    float w = fmodf(t, d);
    return w < 0.0f ? w + d : w;
}

static bool all_distinct(const view_crowd *c)
{
    for (uint32_t i = 0; i < c->count; i++)
        for (uint32_t j = 0; j < i; j++)
            if (view_crowd_palette_checksum(c, i) == view_crowd_palette_checksum(c, j))
                return false;
    return true;
}

static void check_crowd(const ossa_model *m)
{
    ossa_instance *probe = NULL;
    CHECK(ossa_instance_create(m, NULL, &probe, NULL) == OSSA_OK);
    uint32_t parts = ossa_instance_part_count(probe);
    size_t vertices = 0;
    for (uint32_t p = 0; p < parts; p++) {
        ossa_instance_part info;
        ossa_instance_part_info(probe, p, &info, NULL);
        vertices += info.output_count;
    }
    const float lo[3] = {-0.5f, 0.0f, -0.2f}, hi[3] = {0.5f, 1.8f, 0.2f};
    view_crowd pooled, single;
    char err[256];
    CHECK(!view_crowd_init(&single, m, 0, 1, vertices, lo, hi, 1, 1, err, sizeof err));
    CHECK(view_crowd_init(&pooled, m, 6, VIEW_CROWD_SEED, vertices, lo, hi, 1, 3, err,
                          sizeof err));
    CHECK(view_crowd_init(&single, m, 6, VIEW_CROWD_SEED, vertices, lo, hi, 1, 1, err,
                          sizeof err));
    CHECK(pooled.pool != NULL && single.pool == NULL);
    CHECK_NEAR(pooled.bounds_min[0], lo[0] - pooled.spacing, 1e-5);
    CHECK(pooled.bounds_max[1] == hi[1]); /* Y up: no row lifts a character */
    float d = m->clips[0].duration;
    view_crowd_play(&pooled, 0, 0.0f, 0.0f);
    view_crowd_play(&single, 0, 0.0f, 0.0f);
    view_crowd_seek(&pooled, 0.25f);
    view_crowd_seek(&single, 0.25f);
    for (uint32_t i = 0; i < pooled.count; i++)
        CHECK_NEAR(view_crowd_time(&pooled, i), pooled.phase[i] * d + pooled.speed[i] * 0.25f,
                   1e-5);
    CHECK(all_distinct(&pooled));
    /* Character 0 (phase 0, speed 1) shows what one model at the shared time shows. */
    ossa_instance_pose_clip(probe, 0, 0.25f);
    const float *want = ossa_instance_palette(probe);
    const float *got = ossa_instance_palette(pooled.instances[0]);
    float worst = 0.0f;
    for (size_t k = 0; k < 12 * (size_t)m->bone_count; k++)
        worst = fmaxf(worst, fabsf(want[k] - got[k]));
    CHECKF(worst < 1e-5f, "character 0 differs from one model by %g", (double)worst);

    /* A tick moves each by its speed times the shared clock's change. */
    float before[6];
    for (uint32_t i = 0; i < 6; i++)
        before[i] = view_crowd_time(&pooled, i);
    view_crowd_advance(&pooled, 0.1f, 0.1f);
    view_crowd_advance(&single, 0.1f, 0.1f);
    for (uint32_t i = 0; i < 6; i++)
        CHECK_NEAR(view_crowd_time(&pooled, i), wrap(before[i] + pooled.speed[i] * 0.1f, d),
                   1e-5);
    /* Half speed for the same wall time: half the way (Cal3D time factor). */
    view_crowd_advance(&single, 0.05f, 0.1f);
    CHECK_NEAR(view_crowd_time(&single, 1),
               wrap(before[1] + single.speed[1] * 0.15f, d), 1e-5);
    view_crowd_seek(&single, 0.35f);
    view_crowd_seek(&pooled, 0.35f);

    /* Skinning over the pool equals skinning on one thread; characters differ. */
    view_crowd_skin(&pooled, NULL);
    view_crowd_skin(&single, NULL);
    size_t floats = 3 * vertices * 6;
    CHECK(pooled.skinned_vertices == 6 * vertices);
    CHECK(memcmp(pooled.positions, single.positions, floats * sizeof(float)) == 0);
    CHECK(memcmp(pooled.normals, single.normals, floats * sizeof(float)) == 0);
    CHECK(memcmp(pooled.positions, pooled.positions + 3 * vertices,
                 3 * vertices * sizeof(float)) != 0);
    bool *mask = calloc(parts, sizeof *mask);
    mask[0] = true;
    view_crowd_skin(&pooled, mask);
    ossa_instance_part first;
    ossa_instance_part_info(probe, 0, &first, NULL);
    CHECK(pooled.skinned_vertices == 6 * (size_t)first.output_count);
    free(mask);

    /* Paused: nothing moves, until a clip change, which fades without moving the clocks. */
    uint32_t sums[6];
    for (uint32_t i = 0; i < 6; i++) {
        sums[i] = view_crowd_palette_checksum(&pooled, i);
        before[i] = view_crowd_time(&pooled, i);
    }
    view_crowd_advance(&pooled, 0.0f, 0.1f);
    for (uint32_t i = 0; i < 6; i++)
        CHECK(view_crowd_palette_checksum(&pooled, i) == sums[i]);
    if (m->clip_count > 1) {
        /* One clock: the morph clocks (and the cloth, stepped by the same time) stand still
         * too while the fade moves on, as the single model's do. Each character plays the new
         * clip from its own place on the shared clock (0 after a clip change): character 0
         * stays on it, as the single model. */
        float morph_clock[6];
        for (uint32_t i = 0; i < 6; i++)
            morph_clock[i] = ossa_instance_morph_time(pooled.instances[i]);
        float d1 = m->clips[1].duration;
        view_crowd_play(&pooled, 1, 0.25f, 0.0f);
        view_crowd_advance(&pooled, 0.0f, 0.1f);
        for (uint32_t i = 0; i < 6; i++) {
            CHECK(view_crowd_palette_checksum(&pooled, i) != sums[i]);
            CHECK(ossa_instance_fading(pooled.instances[i], NULL));
            CHECK_NEAR(view_crowd_time(&pooled, i), wrap(pooled.phase[i] * d1, d1), 1e-6);
            sums[i] = view_crowd_palette_checksum(&pooled, i);
        }
        CHECK(view_crowd_time(&pooled, 0) == 0.0f);
        CHECK(all_distinct(&pooled));
        /* Still paused: the fade moves on, the clocks stand (morphs too). */
        view_crowd_advance(&pooled, 0.0f, 0.1f);
        for (uint32_t i = 0; i < 6; i++) {
            CHECK(view_crowd_palette_checksum(&pooled, i) != sums[i]);
            CHECK_NEAR(view_crowd_time(&pooled, i), wrap(pooled.phase[i] * d1, d1), 1e-6);
            morph_clock[i] = ossa_instance_morph_time(pooled.instances[i]);
        }
        view_crowd_advance(&pooled, 0.0f, 0.1f);
        for (uint32_t i = 0; i < 6; i++)
            CHECK(ossa_instance_morph_time(pooled.instances[i]) == morph_clock[i]);
    }

    /* What the GPU path uploads: each character's place, then its palette. */
    size_t stride = 4 * (1 + 3 * (size_t)m->bone_count);
    float *packed = malloc(6 * stride * sizeof *packed);
    view_crowd_pack(&pooled, packed);
    CHECK(memcmp(packed + 5 * stride, pooled.offsets + 15, 3 * sizeof(float)) == 0);
    CHECK(memcmp(packed + 5 * stride + 4, ossa_instance_palette(pooled.instances[5]),
                 12 * m->bone_count * sizeof(float)) == 0);
    free(packed);
    view_crowd_free(&pooled);
    view_crowd_free(&single);
    ossa_instance_destroy(probe);
}

int main(void)
{
    check_layout();
    check_phases();
    ossa_model *demo = NULL;
    CHECK(ossa_demo_model(&demo, NULL) == OSSA_OK);
    if (demo) {
        CHECK(demo->clip_count > 1 && demo->bone_count > 0);
        check_crowd(demo);
        ossa_model_destroy(demo);
    }
    return test_finish("viewer-crowd");
}
