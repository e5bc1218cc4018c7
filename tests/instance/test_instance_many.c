/* Many instances a call: ossa_instance_update_many (cloth in SIMD lanes) writes what
 * ossa_instance_update writes, and ossa_instance_tick_many what ossa_instance_tick writes, each
 * clock its own speed, over instances sharing their runtime data against instances of their own.
 * On the demo mannequin and, when the shared assets are there, cally (a ponytail with springs). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"
#include "demo.h"
#include "instance_test_util.h"
#include "test_common.h"

/* ossa_instance_update_many over shared instances (their cloth in SIMD lanes, one with its own
 * spring_max_dt so it steps alone, a NULL entry, every other one streaming) against ossa_instance_update on instances of
 * their own: the same bytes every frame, at odd time steps too. */
static void check_update_many(const char *name, const ossa_model *m)
{
    enum { COUNT = 12, FRAMES = 60 }; /* a full group of 8 lanes, then shorter ones */
    ossa_instance *batch[COUNT] = {0}, *own[COUNT] = {0};
    frame_out ob[COUNT] = {{0}}, oo[COUNT] = {{0}};
    uint32_t cloth = 0, ok = 1;
    for (uint32_t i = 0; i < COUNT && ok; i++) {
        if (i == 3)
            continue; /* stays NULL in the batch */
        ossa_instance_desc desc = {.spring_max_dt = i == 10 ? 0.01f : 0.0f};
        /* streaming ones: update_many asks for their state ahead */
        ossa_instance_desc in_batch = desc;
        in_batch.store = i % 2 ? OSSA_SKIN_STORE_STREAM : OSSA_SKIN_STORE_AUTO;
        ok &= (i == 0 ? ossa_instance_create(m, &in_batch, &batch[i], NULL)
                      : ossa_instance_create_shared(batch[0], &in_batch, &batch[i], NULL)) ==
              OSSA_OK;
        ok &= ossa_instance_create(m, &desc, &own[i], NULL) == OSSA_OK;
        ok &= frame_out_make(&ob[i], batch[i]) && frame_out_make(&oo[i], own[i]);
        ossa_instance *both[2] = {batch[i], own[i]};
        for (int k = 0; k < 2 && ok; k++) {
            ok &= ossa_instance_play(both[k], i % m->clip_count, 0.0f, NULL) == OSSA_OK;
            ossa_instance_seek(both[k], 0.13f * (float)i);
        }
    }
    CHECK(ok);
    for (uint32_t p = 0; ok && p < ossa_instance_part_count(batch[0]); p++) {
        ossa_instance_part info;
        ossa_instance_part_info(batch[0], p, &info, NULL);
        cloth += info.spring != NULL;
    }
    uint32_t differ = 0;
    for (uint32_t f = 0; ok && f < FRAMES; f++) {
        /* mostly 60 Hz; a long step (clamped by spring_max_dt), none, one back, one not finite */
        float dt = f == 7 ? 0.5f : f == 8 ? 0.0f : f == 9 ? -0.05f : f == 10 ? NAN : 1.0f / 60.0f;
        for (uint32_t i = 0; i < COUNT; i++)
            if (batch[i] && f == 20 + i && m->clip_count > 1) {
                CHECK(ossa_instance_play(batch[i], (i + 1) % m->clip_count, 0.25f, NULL) ==
                      OSSA_OK);
                CHECK(ossa_instance_play(own[i], (i + 1) % m->clip_count, 0.25f, NULL) ==
                      OSSA_OK);
            }
        ossa_instance_update_many(batch, COUNT, dt);
        for (uint32_t i = 0; i < COUNT; i++) {
            if (!batch[i])
                continue;
            ossa_instance_update(own[i], dt);
            differ += !frame_out_same(batch[i], own[i], &ob[i], &oo[i]);
        }
    }
    CHECKF(differ == 0, "%s: %u instance frames of update_many differ", name, differ);
    ossa_instance_update_many(NULL, 3, 0.1f); /* nothing to do */
    printf("%s: update_many equals update on %d instances for %d frames (%u cloth parts)\n", name,
           COUNT - 1, FRAMES, cloth);
    for (uint32_t i = 0; i < COUNT; i++) {
        frame_out_free(&ob[i]);
        frame_out_free(&oo[i]);
        ossa_instance_destroy(batch[i]);
        ossa_instance_destroy(own[i]);
    }
}

/* ossa_instance_tick_many over shared instances, each clock its own speed (backwards too), wrap
 * mode, clip, cross-fades, seeks and pauses, a NULL entry, against ossa_instance_tick on
 * instances of their own: the same bytes every frame (cloth stepped in lanes, each by its own
 * playback time). */
static void check_tick_many(const char *name, const ossa_model *m)
{
    enum { COUNT = 19, FRAMES = 50 }; /* two full groups of 8 lanes, then a short one */
    ossa_instance *batch[COUNT] = {0}, *own[COUNT] = {0};
    frame_out ob[COUNT] = {{0}}, oo[COUNT] = {{0}};
    uint32_t ok = 1, differ = 0;
    for (uint32_t i = 0; i < COUNT && ok; i++) {
        if (i == 5)
            continue; /* stays NULL in the batch */
        ok &= (i == 0 ? ossa_instance_create(m, NULL, &batch[i], NULL)
                      : ossa_instance_create_shared(batch[0], NULL, &batch[i], NULL)) == OSSA_OK;
        ok &= ossa_instance_create(m, NULL, &own[i], NULL) == OSSA_OK;
        ok &= frame_out_make(&ob[i], batch[i]) && frame_out_make(&oo[i], own[i]);
        ossa_instance *both[2] = {batch[i], own[i]};
        for (int k = 0; k < 2 && ok; k++) {
            ossa_clock *c = ossa_instance_clock(both[k]);
            c->speed = (i % 4 == 3 ? -1.0f : 1.0f) * (0.8f + 0.03f * (float)i);
            ossa_clock_set_mode(c, (ossa_wrap)(i % 3));
            ossa_instance_seek_clock(both[k], i % (m->clip_count + 1), 0.11f * (float)i);
        }
    }
    CHECK(ok);
    for (uint32_t f = 0; ok && f < FRAMES; f++) {
        float dt = f == 7 ? 0.5f : f == 8 ? 0.0f : f == 9 ? NAN : 1.0f / 60.0f;
        for (uint32_t i = 0; i < COUNT; i++) {
            if (!batch[i])
                continue;
            ossa_instance *both[2] = {batch[i], own[i]};
            for (int k = 0; k < 2; k++) {
                if (f == 12 + i && m->clip_count > 1)
                    CHECK(ossa_instance_switch_clip(both[k], (i + 1) % m->clip_count, 0.25f,
                                                    NULL) == OSSA_OK);
                if (f == 30 + i % 4) { /* a jump mid-fade for some */
                    ossa_clock_seek(ossa_instance_clock(both[k]), 0.05f * (float)i);
                    ossa_instance_jumped(both[k]);
                }
                if (f == 40 && i % 2)
                    ossa_clock_toggle(ossa_instance_clock(both[k])); /* paused: no cloth step */
            }
        }
        ossa_instance_tick_many(batch, COUNT, dt);
        for (uint32_t i = 0; i < COUNT; i++) {
            if (!batch[i])
                continue;
            ossa_instance_tick(own[i], dt);
            differ += !frame_out_same(batch[i], own[i], &ob[i], &oo[i]);
        }
    }
    CHECKF(differ == 0, "%s: %u instance frames of tick_many differ", name, differ);
    ossa_instance_tick_many(NULL, 3, 0.1f); /* nothing to do */
    printf("%s: tick_many equals tick on %d instances for %d frames\n", name, COUNT - 1, FRAMES);
    for (uint32_t i = 0; i < COUNT; i++) {
        frame_out_free(&ob[i]);
        frame_out_free(&oo[i]);
        ossa_instance_destroy(batch[i]);
        ossa_instance_destroy(own[i]);
    }
}

int main(void)
{
    ossa_model *demo = NULL;
    ossa_error err;
    CHECK(ossa_demo_model(&demo, &err) == OSSA_OK);
    if (demo) {
        check_update_many("demo", demo);
        check_tick_many("demo", demo);
        ossa_model_destroy(demo);
    }
    ossa_model *cally = NULL;
    if (load_cally_parts(&cally)) {
        check_update_many("cally", cally);
        check_tick_many("cally", cally);
        ossa_model_destroy(cally);
    }
    return test_finish("anim-instance-many");
}
