/* Instances that share their model's runtime data (ossa_instance_create_shared) and mixers over
 * borrowed clips (ossa_mixer_create_shared): a shared instance writes exactly the bytes an
 * instance of its own writes, through play, fades, updates, seeks and cloth, also after its
 * prototype is gone; the direct kernel path (prepared wide palette) equals a skin job with the
 * same kernel bit for bit, and so do its streaming stores and parts skinned in any grouping
 * (the skin list, one part a call, a pool for the larger parts); a pose set after a cloth step
 * moves the cloth part's rigid vertices; bad arguments are refused. On the demo mannequin and,
 * when the shared assets are there, cally (7 of its parts, the ponytail with springs among
 * them). Many instances a call: test_instance_many.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"
#include "demo.h"
#include "instance_test_util.h"
#include "test_common.h"

/* One script on both: a cross-fade, updates (springs step), a seek, another fade. */
static int script_step(ossa_instance *inst, uint32_t frame, uint32_t clips)
{
    if (frame == 5 && clips > 1 && ossa_instance_play(inst, 1, 0.3f, NULL) != OSSA_OK)
        return 0;
    if (frame == 20)
        ossa_instance_seek(inst, 0.4f);
    if (frame == 30 && ossa_instance_play(inst, 0, 0.2f, NULL) != OSSA_OK)
        return 0;
    ossa_instance_update(inst, 1.0f / 60.0f);
    return 1;
}

/* A shared instance against one of its own, the prototype destroyed half way. */
static void check_shared_equal(const char *name, const ossa_model *m)
{
    ossa_instance *proto = NULL, *shared = NULL, *own = NULL;
    ossa_error err;
    CHECKF(ossa_instance_create(m, NULL, &proto, &err) == OSSA_OK, "%s", err.message);
    CHECK(ossa_instance_create_shared(proto, NULL, &shared, &err) == OSSA_OK);
    CHECK(ossa_instance_create(m, NULL, &own, &err) == OSSA_OK);
    if (!proto || !shared || !own) {
        ossa_instance_destroy(proto);
        ossa_instance_destroy(shared);
        ossa_instance_destroy(own);
        return;
    }
    CHECK(ossa_instance_model(shared) == m);
    uint32_t parts = ossa_instance_part_count(own), skinned = 0;
    CHECK(ossa_instance_part_count(shared) == parts);
    for (uint32_t p = 0; p < parts; p++) {
        ossa_instance_part a, b, c;
        ossa_instance_part_info(proto, p, &a, NULL);
        ossa_instance_part_info(shared, p, &b, NULL);
        ossa_instance_part_info(own, p, &c, NULL);
        CHECK(a.skin == b.skin && a.output_count == c.output_count); /* one copy, shared */
        CHECK(!b.skin || b.skin != c.skin);                          /* the other its own */
        CHECK(!b.spring || b.spring != a.spring);                    /* cloth is per instance */
        skinned += b.skin != NULL;
    }
    CHECK(skinned > 0);
    frame_out os = {0}, oo = {0};
    CHECK(frame_out_make(&os, shared) && frame_out_make(&oo, own));
    CHECK(ossa_instance_play(shared, 0, 0.0f, NULL) == OSSA_OK);
    CHECK(ossa_instance_play(own, 0, 0.0f, NULL) == OSSA_OK);
    CHECK(ossa_instance_play(proto, 0, 0.0f, NULL) == OSSA_OK);
    uint32_t differ = 0;
    for (uint32_t f = 0; f < 60; f++) {
        if (f == 10) { /* the shared data outlives the instance that built it */
            ossa_instance_destroy(proto);
            proto = NULL;
        }
        if (proto)
            CHECK(script_step(proto, f, m->clip_count));
        CHECK(script_step(shared, f, m->clip_count) && script_step(own, f, m->clip_count));
        differ += !frame_out_same(shared, own, &os, &oo);
    }
    CHECKF(differ == 0, "%s: %u of 60 frames differ", name, differ);
    /* its own state a frame touches: more than the instance, less than a copy of the model */
    size_t state = ossa_instance_state_bytes(shared);
    CHECKF(state > 1024 && state < ((size_t)1 << 20), "%s: %zu bytes of state", name, state);
    CHECK(ossa_instance_state_bytes(NULL) == 0);
    printf("%s: %u parts (%u skinned), shared instance equals its own for 60 frames\n", name,
           parts, skinned);
    frame_out_free(&os);
    frame_out_free(&oo);
    ossa_instance_destroy(shared);
    ossa_instance_destroy(own);
}

/* The instance's direct path (prepared palette, no job) against a skin job, every kernel. */
static void check_direct_equals_job(const char *name, const ossa_model *m)
{
    uint32_t kernels = 0;
    for (int k = OSSA_SKIN_KERNEL_SCALAR; k < OSSA_SKIN_KERNEL_COUNT; k++) {
        if (!ossa_skin_kernel_available((ossa_skin_kernel)k))
            continue;
        ossa_instance_desc desc = {.kernel = (ossa_skin_kernel)k};
        ossa_instance *inst = NULL;
        CHECK(ossa_instance_create(m, &desc, &inst, NULL) == OSSA_OK);
        if (!inst)
            continue;
        frame_out o = {0};
        CHECK(frame_out_make(&o, inst));
        CHECK(ossa_instance_play(inst, m->clip_count > 1 ? 1 : 0, 0.0f, NULL) == OSSA_OK);
        ossa_instance_update(inst, 0.37f);
        CHECK(ossa_instance_skin(inst, 0, o.parts, o.spans, NULL) == OSSA_OK);
        for (uint32_t p = 0; p < o.parts; p++) {
            ossa_instance_part info;
            ossa_instance_part_info(inst, p, &info, NULL);
            if (!info.skin || info.spring || !info.output_count)
                continue;
            size_t n = 3 * (size_t)info.output_count;
            float *pos = ossa_skin_buffer_alloc(n * sizeof(float));
            float *nrm = ossa_skin_buffer_alloc(n * sizeof(float));
            ossa_skin_job job = {.mesh = info.skin, .palette = ossa_instance_palette(inst),
                                 .palette_size = m->bone_count, .out_positions = pos,
                                 .out_normals = nrm, .out_capacity = info.output_count,
                                 .end = ossa_skin_mesh_output_count(info.skin)};
            job.kernel = (ossa_skin_kernel)k;
            job.morph_weights = info.morph_weights;
            CHECK(pos && nrm && ossa_skin_job_run(&job, NULL) == OSSA_OK);
            CHECKF(pos && nrm && !memcmp(pos, o.spans[p].positions, n * sizeof(float)) &&
                       !memcmp(nrm, o.spans[p].normals, n * sizeof(float)),
                   "%s: part %u differs from a %s job", name, p,
                   ossa_skin_kernel_name((ossa_skin_kernel)k));
            ossa_skin_buffer_free(pos);
            ossa_skin_buffer_free(nrm);
        }
        kernels++;
        frame_out_free(&o);
        ossa_instance_destroy(inst);
    }
    printf("%s: instance skin equals skin jobs bit for bit on %u kernels\n", name, kernels);
}

/* Parts skinned in any grouping write what one call over every part writes: a call from part 1
 * with every other span NULL (those buffers stay untouched), one call a part, and a call whose
 * larger parts (64 outputs and more) go to a pool while the rest share the skin list. */
static void check_part_subsets(const char *name, const ossa_model *m)
{
    for (int k = OSSA_SKIN_KERNEL_SCALAR; k < OSSA_SKIN_KERNEL_COUNT; k++) {
        if (!ossa_skin_kernel_available((ossa_skin_kernel)k))
            continue;
        ossa_instance_desc desc = {.kernel = (ossa_skin_kernel)k, .parallel_min_vertices = 64};
        ossa_instance *inst = NULL;
        ossa_skin_pool *pool = NULL;
        CHECK(ossa_instance_create(m, &desc, &inst, NULL) == OSSA_OK);
        CHECK(ossa_skin_pool_create(2, &pool, NULL) == OSSA_OK);
        frame_out all = {0}, sub = {0}, one = {0}, split = {0};
        if (!inst || !pool || !frame_out_make(&all, inst) || !frame_out_make(&sub, inst) ||
            !frame_out_make(&one, inst) || !frame_out_make(&split, inst)) {
            CHECK(0);
        } else {
            CHECK(ossa_instance_play(inst, m->clip_count > 1 ? 1 : 0, 0.0f, NULL) == OSSA_OK);
            ossa_instance_update(inst, 0.37f);
            CHECK(ossa_instance_skin(inst, 0, all.parts, all.spans, NULL) == OSSA_OK);
            /* the reference moves out; no later call may write the spans of an earlier one */
            float *ref = malloc(2 * all.floats * sizeof(float));
            CHECK(ref != NULL);
            if (!ref)
                ref = all.data;
            else
                memcpy(ref, all.data, 2 * all.floats * sizeof(float));
            const float fill = -7.5f;
            for (size_t i = 0; ref != all.data && i < 2 * all.floats; i++)
                all.data[i] = fill;
            for (size_t i = 0; i < 2 * sub.floats; i++)
                sub.data[i] = fill;
            for (uint32_t p = 2; p < sub.parts; p += 2)
                sub.spans[p].positions = NULL;
            if (sub.parts > 1)
                CHECK(ossa_instance_skin(inst, 1, sub.parts - 1, sub.spans + 1, NULL) == OSSA_OK);
            for (uint32_t p = 0; p < one.parts; p++)
                CHECK(ossa_instance_skin(inst, p, 1, &one.spans[p], NULL) == OSSA_OK);
            ossa_instance_set_pool(inst, pool);
            CHECK(ossa_instance_skin(inst, 0, split.parts, split.spans, NULL) == OSSA_OK);
            ossa_instance_set_pool(inst, NULL);
            size_t bad = 0;
            for (uint32_t p = 0; p < all.parts; p++) {
                ossa_instance_part info;
                ossa_instance_part_info(inst, p, &info, NULL);
                size_t n = 3 * (size_t)info.output_count, at = (size_t)(all.spans[p].positions -
                                                                        all.data);
                bool skipped = p == 0 || p % 2 == 0;
                for (size_t i = 0; i < n; i++)
                    for (int half = 0; half < 2; half++) {
                        size_t j = at + i + (half ? all.floats : 0);
                        bad += skipped ? sub.data[j] != fill
                                       : memcmp(&sub.data[j], &ref[j], sizeof(float)) != 0;
                    }
            }
            CHECKF(bad == 0, "%s %s: %zu floats of a part subset wrong", name,
                   ossa_skin_kernel_name((ossa_skin_kernel)k), bad);
            size_t stale = 0;
            for (size_t i = 0; ref != all.data && i < 2 * all.floats; i++)
                stale += all.data[i] != fill;
            CHECKF(stale == 0, "%s %s: %zu floats written into an earlier call's spans", name,
                   ossa_skin_kernel_name((ossa_skin_kernel)k), stale);
            CHECKF(!memcmp(one.data, ref, 2 * all.floats * sizeof(float)),
                   "%s %s: parts skinned one a call differ", name,
                   ossa_skin_kernel_name((ossa_skin_kernel)k));
            CHECKF(!memcmp(split.data, ref, 2 * all.floats * sizeof(float)),
                   "%s %s: parts split between a pool and the list differ", name,
                   ossa_skin_kernel_name((ossa_skin_kernel)k));
            if (ref != all.data)
                free(ref);
        }
        frame_out_free(&all);
        frame_out_free(&sub);
        frame_out_free(&one);
        frame_out_free(&split);
        ossa_skin_pool_destroy(pool);
        ossa_instance_destroy(inst);
    }
}

/* Non-temporal stores (desc.store, ossa_instance_set_store) write the bytes ordinary stores
 * write, on every kernel, through fades, a seek and cloth (cloth parts keep ordinary stores);
 * spans off the 64-byte lines fall back to ordinary stores. */
static void check_store(const char *name, const ossa_model *m)
{
    uint32_t kernels = 0, differ = 0;
    for (int k = OSSA_SKIN_KERNEL_SCALAR; k < OSSA_SKIN_KERNEL_COUNT; k++) {
        if (!ossa_skin_kernel_available((ossa_skin_kernel)k))
            continue;
        ossa_instance_desc cached = {.kernel = (ossa_skin_kernel)k,
                                     .store = OSSA_SKIN_STORE_CACHED};
        ossa_instance_desc stream = {.kernel = (ossa_skin_kernel)k,
                                     .store = OSSA_SKIN_STORE_STREAM};
        ossa_instance *inst[3] = {0};
        frame_out o[3] = {{0}};
        CHECK(ossa_instance_create(m, &cached, &inst[0], NULL) == OSSA_OK);
        CHECK(inst[0] && ossa_instance_create_shared(inst[0], &stream, &inst[1], NULL) == OSSA_OK);
        CHECK(inst[0] && ossa_instance_create_shared(inst[0], &cached, &inst[2], NULL) == OSSA_OK);
        ossa_instance_set_store(inst[2], OSSA_SKIN_STORE_STREAM);
        ossa_instance_set_store(inst[2], (ossa_skin_store)7); /* out of range: ignored */
        for (int i = 0; i < 3 && inst[0] && inst[1] && inst[2]; i++) {
            CHECK(frame_out_make_at(&o[i], inst[i], i == 2 ? 1 : 0));
            CHECK(ossa_instance_play(inst[i], 0, 0.0f, NULL) == OSSA_OK);
        }
        for (uint32_t f = 0; f < 40 && inst[0] && inst[1] && inst[2]; f++) {
            for (int i = 0; i < 3; i++)
                CHECK(script_step(inst[i], f, m->clip_count));
            differ += !frame_out_same(inst[0], inst[1], &o[0], &o[1]);
            differ += !frame_out_same(inst[0], inst[2], &o[0], &o[2]);
        }
        for (int i = 0; i < 3; i++) {
            frame_out_free(&o[i]);
            ossa_instance_destroy(inst[i]);
        }
        kernels++;
    }
    CHECKF(differ == 0, "%s: %u frames differ between streaming and ordinary stores", name, differ);
    printf("%s: streaming stores equal ordinary ones on %u kernels for 40 frames\n", name,
           kernels);
}

/* A mixer over borrowed runtime data evaluates as one with its own; bad arguments refused. */
static void check_mixer_shared(const ossa_model *m)
{
    ossa_rt_skeleton *skel = NULL;
    ossa_rt_clip **clips = calloc(m->clip_count + 1, sizeof *clips);
    ossa_mixer *own = NULL, *borrowed = NULL;
    ossa_error err;
    CHECK(clips && ossa_rt_skeleton_create(m, &skel, &err) == OSSA_OK);
    for (uint32_t c = 0; clips && c < m->clip_count; c++)
        CHECK(ossa_rt_clip_create(m, &m->clips[c], &clips[c], &err) == OSSA_OK);
    const ossa_rt_clip *const *cc = (const ossa_rt_clip *const *)clips;
    ossa_mixer *bad = (ossa_mixer *)1;
    CHECK(ossa_mixer_create_shared(m, NULL, NULL, cc, &bad, &err) == OSSA_ERR_INVALID_ARGUMENT &&
          !bad);
    CHECK(ossa_mixer_create_shared(m, NULL, skel, NULL, &bad, NULL) ==
          OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_mixer_create(m, NULL, &own, &err) == OSSA_OK);
    CHECK(ossa_mixer_create_shared(m, NULL, skel, cc, &borrowed, &err) == OSSA_OK);
    ossa_soa_pose a = {0}, b = {0};
    CHECK(ossa_soa_pose_create(m->bone_count, &a, NULL) == OSSA_OK);
    CHECK(ossa_soa_pose_create(m->bone_count, &b, NULL) == OSSA_OK);
    if (own && borrowed && a.block && b.block) {
        ossa_mixer *both[2] = {own, borrowed};
        for (int i = 0; i < 2; i++) {
            CHECK(ossa_mixer_blend_cycle(both[i], 0, 1.0f, 0.0f, NULL) == OSSA_OK);
            if (m->clip_count > 1)
                CHECK(ossa_mixer_execute_action(both[i], 1, 0.1f, 0.1f, 0.5f, false, NULL) ==
                      OSSA_OK);
            ossa_mixer_update(both[i], 0.23f);
        }
        CHECK(ossa_mixer_evaluate(own, &a, NULL) == OSSA_OK);
        CHECK(ossa_mixer_evaluate(borrowed, &b, NULL) == OSSA_OK);
        CHECK(ossa_mixer_skeleton(borrowed) == skel);
        const float *fa[10] = {a.tx, a.ty, a.tz, a.qx, a.qy, a.qz, a.qw, a.sx, a.sy, a.sz};
        const float *fb[10] = {b.tx, b.ty, b.tz, b.qx, b.qy, b.qz, b.qw, b.sx, b.sy, b.sz};
        for (int i = 0; i < 10; i++)
            CHECK(!memcmp(fa[i], fb[i], a.bone_count * sizeof(float)));
    }
    ossa_soa_pose_destroy(&a);
    ossa_soa_pose_destroy(&b);
    ossa_mixer_destroy(own);
    ossa_mixer_destroy(borrowed); /* before what it borrows */
    for (uint32_t c = 0; clips && c < m->clip_count; c++)
        ossa_rt_clip_destroy(clips[c]);
    free(clips);
    ossa_rt_skeleton_destroy(skel);
}

static void check_bad_arguments(const ossa_model *m)
{
    ossa_instance *proto = NULL, *out = (ossa_instance *)1;
    ossa_error err;
    CHECK(ossa_instance_create_shared(NULL, NULL, &out, &err) == OSSA_ERR_INVALID_ARGUMENT &&
          !out && err.message[0]);
    CHECK(ossa_instance_create(m, NULL, &proto, NULL) == OSSA_OK);
    CHECK(ossa_instance_create_shared(proto, NULL, NULL, NULL) == OSSA_ERR_INVALID_ARGUMENT);
    ossa_instance_desc bad = {.kernel = OSSA_SKIN_KERNEL_COUNT};
    out = (ossa_instance *)1;
    CHECK(ossa_instance_create_shared(proto, &bad, &out, NULL) == OSSA_ERR_INVALID_ARGUMENT &&
          !out);
    ossa_instance_desc bad_store = {.store = (ossa_skin_store)(OSSA_SKIN_STORE_STREAM + 1)};
    out = (ossa_instance *)1;
    CHECK(ossa_instance_create_shared(proto, &bad_store, &out, NULL) ==
              OSSA_ERR_INVALID_ARGUMENT &&
          !out);
    ossa_instance_destroy(proto); /* the refused ones left no reference behind (ASan) */
}

/* After a cloth step the part's output is the step's (kept, not skinned again) only until the
 * pose changes: a pose set directly (ossa_instance_pose_clip) must move the rigid vertices and
 * every normal of the cloth part as a fresh skin does (instance c, whose cloth never stepped). */
static void check_cloth_after_pose(const ossa_model *m)
{
    ossa_instance *a = NULL, *c = NULL;
    CHECK(ossa_instance_create(m, NULL, &a, NULL) == OSSA_OK);
    CHECK(ossa_instance_create(m, NULL, &c, NULL) == OSSA_OK);
    frame_out oa = {0}, oc = {0};
    if (!a || !c || !frame_out_make(&oa, a) || !frame_out_make(&oc, c))
        goto done;
    CHECK(ossa_instance_play(a, 0, 0.0f, NULL) == OSSA_OK);
    for (int f = 0; f < 20; f++)
        ossa_instance_update(a, 1.0f / 60.0f);
    ossa_instance_pose_clip(a, 1, 0.4f);
    ossa_instance_pose_clip(c, 1, 0.4f);
    CHECK(ossa_instance_skin(a, 0, oa.parts, oa.spans, NULL) == OSSA_OK);
    CHECK(ossa_instance_skin(c, 0, oc.parts, oc.spans, NULL) == OSSA_OK);
    int cloth = 0;
    long rigid = 0, rigid_same = 0, free_moved = 0, normals_same = 1;
    for (uint32_t p = 0; p < oa.parts; p++) {
        ossa_instance_part info;
        ossa_instance_part_info(a, p, &info, NULL);
        if (!info.spring)
            continue;
        cloth++;
        const float *phys = info.source->physique_weights;
        const float *pa = oa.spans[p].positions, *pc = oc.spans[p].positions;
        normals_same &= memcmp(oa.spans[p].normals, oc.spans[p].normals,
                               3 * sizeof(float) * info.output_count) == 0;
        for (uint32_t o = 0; o < info.output_count; o++) {
            uint32_t v = info.output_source[o];
            if (v == OSSA_SKIN_PAD_VERTEX)
                continue;
            int same = memcmp(pa + 3 * (size_t)o, pc + 3 * (size_t)o, 3 * sizeof(float)) == 0;
            if (phys[v] > 0.0f) {
                free_moved += !same;
            } else {
                rigid++;
                rigid_same += same;
            }
        }
    }
    printf("cloth after a new pose: %d part(s), %ld of %ld rigid vertices as a fresh skin, %ld "
           "cloth vertices where the steps left them\n", cloth, rigid_same, rigid, free_moved);
    CHECK(cloth == 1 && rigid > 0 && rigid_same == rigid && normals_same && free_moved > 0);
done:
    frame_out_free(&oa);
    frame_out_free(&oc);
    ossa_instance_destroy(a);
    ossa_instance_destroy(c);
}

int main(void)
{
    ossa_model *demo = NULL;
    ossa_error err;
    CHECK(ossa_demo_model(&demo, &err) == OSSA_OK);
    if (demo) {
        check_shared_equal("demo", demo);
        check_direct_equals_job("demo", demo);
        check_part_subsets("demo", demo);
        check_store("demo", demo);
        check_mixer_shared(demo);
        check_bad_arguments(demo);
        ossa_model_destroy(demo);
    }
    ossa_model *cally = NULL;
    if (load_cally_parts(&cally)) {
        check_shared_equal("cally", cally);
        check_direct_equals_job("cally", cally);
        check_part_subsets("cally", cally);
        check_store("cally", cally);
        check_cloth_after_pose(cally);
        ossa_model_destroy(cally);
    }
    return test_finish("anim-instance-shared");
}
