/* The character instance (instance.h) on the demo mannequin, its C3S vertex-frame version and
 * hostile inputs: fades change weights over time, seek equals a mixer driven by hand, skin output
 * equals the scalar reference for the same palette, frames are applied, bad arguments are
 * refused, whatever loads plays and skins to finite numbers. Springs and morphs:
 * test_instance_cloth.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_seeds.h"
#include "ossa/ossa.h"
#include "demo.h"
#include "instance_test_util.h"
#include "test_common.h"

static void check_parts(const ossa_instance *inst, const ossa_model *m)
{
    uint32_t expected = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        expected += m->meshes[i].submesh_count;
    CHECK(ossa_instance_part_count(inst) == expected);
    CHECK(ossa_instance_model(inst) == m);
    ossa_instance_part p;
    CHECK(ossa_instance_part_info(inst, expected, &p, NULL) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_instance_part_of(inst, m->mesh_count, 0) == OSSA_NOT_FOUND);
    for (uint32_t i = 0; i < expected; i++) {
        CHECK(ossa_instance_part_info(inst, i, &p, NULL) == OSSA_OK);
        CHECK(ossa_instance_part_of(inst, p.mesh, p.submesh) == i);
        CHECK(p.source == &m->meshes[p.mesh].submeshes[p.submesh]);
        CHECK(p.output_count >= p.vertex_count);
        CHECK(p.index_count == 3 * p.source->face_count);
        for (uint32_t k = 0; k < p.index_count; k++)
            CHECK(p.indices[k] < p.output_count);
        CHECK(!p.skin == !p.output_source);
    }
}

/* Weights move with a cross-fade, the vertex clip follows the heavier clip, skinning equals
 * the scalar path, seek equals a mixer driven by hand. */
static void test_demo(void)
{
    ossa_model *m = NULL;
    ossa_error err;
    CHECK(ossa_demo_model(&m, &err) == OSSA_OK);
    if (!m)
        return;
    CHECK(m->clip_count >= 2);
    ossa_instance *inst = NULL;
    CHECK(ossa_instance_create(m, NULL, &inst, &err) == OSSA_OK);
    if (!inst) {
        ossa_model_destroy(m);
        return;
    }
    check_parts(inst, m);
    ossa_mixer *mx = ossa_instance_mixer(inst);
    outputs o;
    CHECK(outputs_make(&o, inst));

    /* At rest: the palette is the rest pose's, skinning the scalar path's. */
    uint32_t compared = 0;
    CHECK(ossa_instance_skin(inst, 0, o.count, o.spans, &err) == OSSA_OK);
    CHECK(skin_vs_scalar(inst, &o, &compared) <= 1e-5 && compared > 0);

    CHECK(ossa_instance_play(inst, 0, 0.0f, &err) == OSSA_OK);
    ossa_instance_update(inst, 0.1f);
    CHECK_NEAR(ossa_mixer_weight(mx, 0), 1.0, 1e-6);
    CHECK(ossa_instance_vertex_clip(inst) == 0);
    CHECK_NEAR(ossa_instance_time(inst), 0.1, 1e-6);

    /* Cross-fade to clip 1 over 0.5 s: both play mid-way, summing to 1; clip 0 leaves. */
    CHECK(ossa_instance_play(inst, 1, 0.5f, &err) == OSSA_OK);
    ossa_instance_update(inst, 0.1f);
    float w0 = ossa_mixer_weight(mx, 0), w1 = ossa_mixer_weight(mx, 1);
    CHECKF(w0 > 0.5f && w0 < 1.0f && w1 > 0.0f && w1 < 0.5f, "w0 %g w1 %g", (double)w0,
           (double)w1);
    CHECK_NEAR(w0 + w1, 1.0, 1e-5);
    CHECK(ossa_instance_vertex_clip(inst) == 0);
    ossa_instance_update(inst, 0.2f);
    float w0b = ossa_mixer_weight(mx, 0), w1b = ossa_mixer_weight(mx, 1);
    CHECKF(w0b < w0 && w1b > w1, "w0 %g -> %g, w1 %g -> %g", (double)w0, (double)w0b,
           (double)w1, (double)w1b);
    CHECK(ossa_instance_vertex_clip(inst) == 1);
    for (int i = 0; i < 4; i++)
        ossa_instance_update(inst, 0.1f);
    CHECK(!ossa_mixer_is_active(mx, 0) && ossa_mixer_weight(mx, 0) == 0.0f); /* cleared at 0 */
    CHECK_NEAR(ossa_mixer_weight(mx, 1), 1.0, 1e-6);
    CHECK(ossa_instance_skin(inst, 0, o.count, o.spans, &err) == OSSA_OK);
    CHECK(skin_vs_scalar(inst, &o, &compared) <= 1e-5 && compared > 0);
    CHECK(outputs_finite(&o, inst));

    /* Bad dt changes nothing; bad plays are refused. */
    float before = ossa_instance_time(inst);
    ossa_instance_update(inst, NAN);
    CHECK(ossa_instance_time(inst) == before);
    CHECK(ossa_instance_play(inst, m->clip_count, 0.0f, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_instance_play(inst, 0, NAN, &err) == OSSA_ERR_INVALID_ARGUMENT && err.message[0]);
    CHECK(ossa_instance_play(inst, 0, -1.0f, &err) == OSSA_ERR_INVALID_ARGUMENT);

    /* Seek: the same palette as a mixer playing clip 1 set to that time by hand. */
    ossa_instance_seek(inst, 0.83f);
    CHECK(ossa_instance_time(inst) == 0.83f);
    {
        ossa_mixer *ref = NULL;
        ossa_soa_pose local = {0}, model = {0};
        float *palette = calloc(12 * (size_t)m->bone_count, sizeof(float));
        CHECK(ossa_mixer_create(m, NULL, &ref, &err) == OSSA_OK && palette);
        CHECK(ossa_soa_pose_create(m->bone_count, &local, NULL) == OSSA_OK);
        CHECK(ossa_soa_pose_create(m->bone_count, &model, NULL) == OSSA_OK);
        CHECK(ossa_mixer_blend_cycle(ref, 1, 1.0f, 0.0f, NULL) == OSSA_OK);
        ossa_mixer_update(ref, 0.0f);
        ossa_mixer_set_time(ref, 0.83f);
        CHECK(ossa_mixer_evaluate(ref, &local, NULL) == OSSA_OK);
        ossa_ltm_job lj = {ossa_mixer_skeleton(ref), &local, &model};
        ossa_palette_job pj = {ossa_mixer_skeleton(ref), &model, palette,
                               12 * (size_t)m->bone_count};
        CHECK(ossa_ltm_job_run(&lj, NULL) == OSSA_OK && ossa_palette_job_run(&pj, NULL) == OSSA_OK);
        CHECK(memcmp(palette, ossa_instance_palette(inst),
                     12 * (size_t)m->bone_count * sizeof(float)) == 0);
        free(palette);
        ossa_soa_pose_destroy(&local);
        ossa_soa_pose_destroy(&model);
        ossa_mixer_destroy(ref);
    }

    /* pose_clip equals the scalar API (sample, local to model, palette) within float noise. */
    {
        size_t nb = m->bone_count;
        float *buf = calloc(32 * nb, sizeof(float));
        CHECK(buf != NULL);
        float *lt = buf, *lr = lt + 3 * nb, *ls = lr + 4 * nb, *mt = ls + 3 * nb,
              *mr = mt + 3 * nb, *ms = mr + 4 * nb, *pal = ms + 3 * nb;
        const ossa_clip *c = &m->clips[1];
        ossa_instance_pose_clip(inst, 1, 0.61f);
        CHECK(ossa_instance_vertex_clip(inst) == 1);
        ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
        ossa_sample_clip(m, c, ossa_clip_wrap_time(c, 0.61f), OSSA_WRAP_LOOP, lt, lr, ls,
                         m->bone_count, NULL);
        ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
        ossa_skin_palette(m, mt, mr, ms, pal, m->bone_count, NULL);
        double d = 0;
        for (size_t i = 0; i < 12 * nb; i++)
            d = fmax(d, fabs((double)pal[i] - ossa_instance_palette(inst)[i]));
        CHECKF(d <= 1e-5, "pose_clip palette differs by %g", d);
        /* Rest for no clip; pose_local with a mismatched pose is the rest pose too. */
        ossa_instance_pose_clip(inst, OSSA_INSTANCE_NO_CLIP, 0.0f);
        CHECK(ossa_instance_vertex_clip(inst) == OSSA_INSTANCE_NO_CLIP);
        ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
        ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
        ossa_skin_palette(m, mt, mr, ms, pal, m->bone_count, NULL);
        d = 0;
        for (size_t i = 0; i < 12 * nb; i++)
            d = fmax(d, fabs((double)pal[i] - ossa_instance_palette(inst)[i]));
        CHECKF(d <= 1e-5, "rest palette differs by %g", d);
        free(buf);
    }

    /* Spans are checked before anything is written. */
    if (o.count) {
        ossa_instance_span small = o.spans[0];
        small.capacity = o.spans[0].capacity ? o.spans[0].capacity - 1 : 0;
        CHECK(o.spans[0].capacity == 0 ||
              ossa_instance_skin(inst, 0, 1, &small, &err) == OSSA_ERR_INVALID_ARGUMENT);
        ossa_instance_span nonormals = o.spans[0];
        nonormals.normals = NULL;
        CHECK(ossa_instance_skin(inst, 0, 1, &nonormals, &err) == OSSA_ERR_INVALID_ARGUMENT);
        CHECK(ossa_instance_skin(inst, o.count, 1, o.spans, &err) == OSSA_ERR_INVALID_ARGUMENT);
        CHECK(ossa_instance_skin(inst, 0, 0, NULL, &err) == OSSA_OK);
        ossa_instance_span skip = {NULL, NULL, 0};
        CHECK(ossa_instance_skin(inst, 0, 1, &skip, &err) == OSSA_OK);
    }
    ossa_instance_desc bad = {.kernel = OSSA_SKIN_KERNEL_COUNT};
    ossa_instance *none = (ossa_instance *)&bad;
    CHECK(ossa_instance_create(m, &bad, &none, &err) == OSSA_ERR_INVALID_ARGUMENT && !none);
    CHECK(ossa_instance_create(NULL, NULL, &none, &err) == OSSA_ERR_INVALID_ARGUMENT && !none);

    /* Every kernel on a pool gives the scalar result too. */
    ossa_skin_pool *pool = NULL;
    CHECK(ossa_skin_pool_create(2, &pool, NULL) == OSSA_OK);
    for (int k = OSSA_SKIN_KERNEL_SCALAR; k < OSSA_SKIN_KERNEL_COUNT; k++) {
        if (!ossa_skin_kernel_available((ossa_skin_kernel)k))
            continue;
        ossa_instance_desc d = {.kernel = (ossa_skin_kernel)k, .pool = pool,
                                .parallel_min_vertices = 1};
        ossa_instance *ki = NULL;
        CHECK(ossa_instance_create(m, &d, &ki, &err) == OSSA_OK);
        if (!ki)
            continue;
        CHECK(ossa_instance_kernel(ki) == (ossa_skin_kernel)k);
        CHECK(ossa_instance_play(ki, 0, 0.0f, &err) == OSSA_OK);
        ossa_instance_update(ki, 0.37f);
        CHECK(ossa_instance_skin(ki, 0, o.count, o.spans, &err) == OSSA_OK);
        CHECKF(skin_vs_scalar(ki, &o, &compared) <= 1e-5, "kernel %s",
               ossa_skin_kernel_name((ossa_skin_kernel)k));
        ossa_instance_destroy(ki);
    }
    ossa_skin_pool_destroy(pool);

    /* A kernel chosen by measurement: an AUTO instance runs the choice's small-class kernel, an
     * explicit kernel wins over it, and a bad or absent choice kernel is refused as a job's. */
    for (int k = OSSA_SKIN_KERNEL_AUTO; k < OSSA_SKIN_KERNEL_COUNT; k++) {
        if (k != OSSA_SKIN_KERNEL_AUTO && !ossa_skin_kernel_available((ossa_skin_kernel)k))
            continue;
        ossa_skin_calibration_options co = {.kernel = (ossa_skin_kernel)k, .rounds = 2};
        ossa_skin_choice choice;
        CHECK(ossa_skin_calibrate(&co, &choice, &err) == OSSA_OK);
        ossa_skin_kernel chosen = choice.size[OSSA_SKIN_SIZE_SMALL].kernel;
        CHECK(k == OSSA_SKIN_KERNEL_AUTO || chosen == (ossa_skin_kernel)k);
        ossa_instance_desc d = {.choice = &choice};
        ossa_instance *ki = NULL;
        CHECK(ossa_instance_create(m, &d, &ki, &err) == OSSA_OK);
        if (!ki)
            continue;
        memset(&choice, 0xff, sizeof choice); /* read at creation only */
        CHECK(ossa_instance_kernel(ki) == chosen);
        CHECK(ossa_instance_play(ki, 0, 0.0f, &err) == OSSA_OK);
        ossa_instance_update(ki, 0.37f);
        CHECK(ossa_instance_skin(ki, 0, o.count, o.spans, &err) == OSSA_OK);
        CHECKF(skin_vs_scalar(ki, &o, &compared) <= 1e-5, "chosen kernel %s",
               ossa_skin_kernel_name(chosen));
        ossa_instance_destroy(ki);
    }
    ossa_skin_choice forced = {.size = {{OSSA_SKIN_KERNEL_SCALAR, OSSA_SKIN_STORE_CACHED},
                                        {OSSA_SKIN_KERNEL_SCALAR, OSSA_SKIN_STORE_STREAM}}};
    ossa_instance_desc over = {.kernel = OSSA_SKIN_KERNEL_SSE2, .choice = &forced};
    ossa_instance *oi = NULL;
    if (ossa_skin_kernel_available(OSSA_SKIN_KERNEL_SSE2)) {
        CHECK(ossa_instance_create(m, &over, &oi, &err) == OSSA_OK);
        CHECK(oi && ossa_instance_kernel(oi) == OSSA_SKIN_KERNEL_SSE2);
        ossa_instance_destroy(oi);
    }
    forced.size[OSSA_SKIN_SIZE_SMALL].kernel = OSSA_SKIN_KERNEL_COUNT;
    over.kernel = OSSA_SKIN_KERNEL_AUTO;
    CHECK(ossa_instance_create(m, &over, &oi, &err) == OSSA_ERR_INVALID_ARGUMENT && !oi);
    forced.size[OSSA_SKIN_SIZE_SMALL].kernel = OSSA_SKIN_KERNEL_AUTO;
    CHECK(ossa_instance_create(m, &over, &oi, &err) == OSSA_ERR_INVALID_ARGUMENT && !oi);
    for (int k = OSSA_SKIN_KERNEL_SCALAR; k < OSSA_SKIN_KERNEL_COUNT; k++) {
        if (ossa_skin_kernel_available((ossa_skin_kernel)k))
            continue;
        forced.size[OSSA_SKIN_SIZE_SMALL].kernel = (ossa_skin_kernel)k;
        CHECK(ossa_instance_create(m, &over, &oi, &err) == OSSA_ERR_UNSUPPORTED && !oi);
    }

    outputs_free(&o);
    ossa_instance_destroy(inst);
    ossa_instance_destroy(NULL);
    ossa_model_destroy(m);
}

/* C3S vertex frames: a part with a vertex track shows ossa_vertex_clip_eval's shape. */
static void test_frames(void)
{
    const char *root = getenv("OSSA_SOURCE_ROOT");
    char path[4096];
    snprintf(path, sizeof path, "%s/assets/c3s/mannequin_frames.c3s", root ? root : ".");
    ossa_model *m = NULL;
    ossa_error err;
    CHECKF(ossa_load_file(path, NULL, &m, &err) == OSSA_OK, "%s: %s", path, err.message);
    if (!m)
        return;
    ossa_instance *inst = NULL;
    CHECK(ossa_instance_create(m, NULL, &inst, &err) == OSSA_OK);
    outputs o = {0};
    CHECK(inst && outputs_make(&o, inst));
    uint32_t played = 0, uv_checked = 0;
    for (uint32_t c = 0; inst && c < m->clip_count; c++) {
        CHECK(ossa_instance_play(inst, c, 0.0f, &err) == OSSA_OK);
        ossa_instance_seek(inst, 0.0f);
        ossa_instance_update(inst, 0.3f * m->clips[c].duration);
        CHECK(ossa_instance_vertex_clip(inst) == c);
        CHECK(ossa_instance_skin(inst, 0, o.count, o.spans, &err) == OSSA_OK);
        CHECK(outputs_finite(&o, inst));
        for (uint32_t i = 0; i < o.count; i++) {
            if (!ossa_instance_part_vertex_track(inst, i))
                continue;
            ossa_instance_part p;
            ossa_instance_part_info(inst, i, &p, NULL);
            float *ref_p = malloc(3 * (p.vertex_count + 1) * sizeof(float));
            float *ref_n = malloc(3 * (p.vertex_count + 1) * sizeof(float));
            float *uvs = malloc(2 * (p.output_count + 1) * sizeof(float));
            float *ref_uv = malloc(2 * (p.vertex_count + 1) * sizeof(float));
            CHECK(ref_p && ref_n && uvs && ref_uv);
            CHECK(ossa_vertex_clip_eval(m, &m->clips[c], p.mesh, p.submesh,
                                        ossa_instance_vertex_time(inst), OSSA_WRAP_LOOP, ref_p,
                                        ref_n, p.vertex_count + 1, NULL) == OSSA_OK);
            double d = 0, moved = 0;
            for (uint32_t v = 0; v < p.output_count; v++) {
                uint32_t f = p.output_source ? p.output_source[v] : v;
                if (f == OSSA_SKIN_PAD_VERTEX)
                    continue;
                for (int k = 0; k < 3; k++) {
                    d = fmax(d, fabs((double)o.spans[i].positions[3 * v + k] - ref_p[3 * f + k]));
                    moved = fmax(moved, fabs((double)ref_p[3 * f + k] -
                                             p.source->positions[3 * f + k]));
                }
            }
            CHECKF(d == 0.0, "clip %u part %u: frames differ by %g", c, i, d);
            played += moved > 0.0;
            if (p.uv_tracked && ossa_clip_uv_track(&m->clips[c], p.mesh, p.submesh)) {
                CHECK(ossa_instance_uvs(inst, i, false, uvs, p.output_count + 1, NULL) == OSSA_OK);
                /* one vertex short: refused, named, nothing written */
                ossa_error short_err = {0};
                float first = uvs[0];
                CHECK(ossa_instance_uvs(inst, i, true, uvs, p.output_count - 1, &short_err) ==
                      OSSA_ERR_INVALID_ARGUMENT);
                CHECKF(strstr(short_err.message, "uvs holds") &&
                       strstr(short_err.message, "outputs"), "%s", short_err.message);
                CHECK(uvs[0] == first);
                CHECK(ossa_uv_clip_eval(m, &m->clips[c], p.mesh, p.submesh,
                                        ossa_instance_vertex_time(inst), OSSA_WRAP_LOOP,
                                        ref_uv, p.vertex_count + 1, NULL) == OSSA_OK);
                for (uint32_t v = 0; v < p.output_count; v++) {
                    uint32_t f = p.output_source ? p.output_source[v] : v;
                    if (f != OSSA_SKIN_PAD_VERTEX)
                        CHECK(uvs[2 * v] == ref_uv[2 * f] && uvs[2 * v + 1] == ref_uv[2 * f + 1]);
                }
                uv_checked++;
            }
            free(ref_p);
            free(ref_n);
            free(uvs);
            free(ref_uv);
        }
    }
    CHECKF(played > 0, "no part played a vertex frame that moved it");
    printf("frames: %u part shapes from vertex tracks, %u uv sets\n", played, uv_checked);
    /* Mounts: the bind transform and the current one exist for every mount on a part. */
    for (uint32_t i = 0; inst && i < m->mount_count; i++) {
        float t[3], r[4], s[3];
        ossa_status st = ossa_instance_mount(inst, i, false, t, r, s, NULL);
        CHECK(st == OSSA_OK || st == OSSA_ERR_VALUE);
        if (st == OSSA_OK)
            CHECK(all_finite(t, 3) && all_finite(r, 4) && all_finite(s, 3));
    }
    CHECK(!inst || ossa_instance_mount(inst, m->mount_count, false, (float[3]){0},
                                       (float[4]){0}, (float[3]){0}, NULL) ==
                                       OSSA_ERR_INVALID_ARGUMENT);
    outputs_free(&o);
    ossa_instance_destroy(inst);
    ossa_model_destroy(m);
}

/* Every fuzz seed and byte-flipped copies of it: whatever loads makes an instance that plays,
 * updates, seeks and skins to finite numbers. */
static void test_hostile(void)
{
    fuzz_seed *seeds = NULL;
    size_t n = fuzz_seeds_make(&seeds);
    CHECK(n > 0);
    uint32_t rng = 12345u, loaded = 0, tried = 0;
    for (size_t s = 0; s < n; s++) {
        for (int variant = 0; variant < 40; variant++) {
            size_t size = seeds[s].size;
            uint8_t *data = malloc(size + 1);
            CHECK(data != NULL);
            if (!data)
                break;
            memcpy(data, seeds[s].data, size);
            for (int f = 0; variant && f < 1 + variant % 4 && size; f++) {
                rng = rng * 1664525u + 1013904223u;
                size_t at = (rng >> 8) % size;
                rng = rng * 1664525u + 1013904223u;
                data[at] = (uint8_t)(variant % 3 == 0 ? 0xff : data[at] ^ (1u << (rng >> 29)));
            }
            ossa_model *m = NULL;
            ossa_error err;
            tried++;
            if (ossa_load_memory(data, size, seeds[s].name, NULL, &m, &err) == OSSA_OK) {
                loaded++;
                ossa_instance *inst = NULL;
                ossa_status st = ossa_instance_create(m, NULL, &inst, &err);
                CHECKF(st == OSSA_OK, "%s variant %d: %s", seeds[s].name, variant, err.message);
                outputs o = {0};
                if (inst && outputs_make(&o, inst)) {
                    for (uint32_t c = 0; c < m->clip_count && c < 3; c++) {
                        CHECK(ossa_instance_play(inst, c, 0.2f, &err) == OSSA_OK);
                        for (int k = 0; k < 5; k++)
                            ossa_instance_update(inst, 0.07f);
                    }
                    ossa_instance_seek(inst, 0.5f);
                    ossa_instance_update(inst, 1.0f / 30.0f);
                    CHECK(ossa_instance_skin(inst, 0, o.count, o.spans, &err) == OSSA_OK);
                    CHECKF(outputs_finite(&o, inst), "%s variant %d: non-finite output",
                           seeds[s].name, variant);
                }
                outputs_free(&o);
                ossa_instance_destroy(inst);
                ossa_model_destroy(m);
            }
            free(data);
        }
    }
    printf("hostile: %u of %u inputs loaded, each made a finite instance\n", loaded, tried);
    fuzz_seeds_free(seeds, n);
}

int main(void)
{
    test_demo();
    test_frames();
    test_hostile();
    return test_finish("anim-instance");
}
