/* The clip clock (ossa/clock.h, engine/src/anim/clock.c): looping, pause, clip changes, speed,
 * the speed ladder through reverse, wrap modes and frame stepping. */
#include <math.h>
#include <string.h>

#include "ossa/clock.h"
#include "test_common.h"

int main(void)
{
    const float durations[3] = {1.0f, 2.0f, 0.5f};
    ossa_clock p;
    ossa_clock_init(&p, 3, durations);
    CHECK(p.clip == 0 && p.time == 0.0f && p.speed == 1.0f && p.playing);
    CHECK_NEAR(p.duration, 1.0, 0);

    ossa_clock_advance(&p, 0.25f);
    CHECK_NEAR(p.time, 0.25, 1e-6);
    ossa_clock_advance(&p, 1.0f); /* loops */
    CHECK_NEAR(p.time, 0.25, 1e-6);
    ossa_clock_advance(&p, NAN); /* ignored */
    CHECK_NEAR(p.time, 0.25, 1e-6);

    ossa_clock_toggle(&p);
    CHECK(!p.playing);
    ossa_clock_advance(&p, 0.5f); /* paused: time stands */
    CHECK_NEAR(p.time, 0.25, 1e-6);
    ossa_clock_toggle(&p);

    ossa_clock_scale_speed(&p, -2.0f); /* reverse, twice as fast */
    CHECK_NEAR(p.speed, -2.0, 0);
    ossa_clock_advance(&p, 0.25f);
    CHECK_NEAR(p.time, 0.75, 1e-6); /* 0.25 - 0.5 wraps to 0.75 */
    for (int i = 0; i < 20; i++)
        ossa_clock_scale_speed(&p, 2.0f);
    CHECK_NEAR(p.speed, -OSSA_CLOCK_SPEED_MAX, 0);
    for (int i = 0; i < 40; i++)
        ossa_clock_scale_speed(&p, 0.5f);
    CHECK_NEAR(p.speed, -OSSA_CLOCK_SPEED_MIN, 0);

    ossa_clock_set_clip(&p, 1);
    CHECK(p.clip == 1 && p.time == 0.0f);
    CHECK_NEAR(p.duration, 2.0, 0);
    ossa_clock_set_clip(&p, 7); /* out of range: ignored */
    CHECK(p.clip == 1);
    ossa_clock_step_clip(&p, 1);
    CHECK(p.clip == 2);
    ossa_clock_step_clip(&p, 1); /* wraps */
    CHECK(p.clip == 0);
    ossa_clock_step_clip(&p, -1);
    CHECK(p.clip == 2);

    ossa_clock_seek(&p, 1.2f); /* clip 2 lasts 0.5 s */
    CHECK_NEAR(p.time, 0.2, 1e-6);
    ossa_clock_seek(&p, -0.1f);
    CHECK_NEAR(p.time, 0.4, 1e-6);


    /* The speed ladder: [ halves towards 1/16, then crosses into reverse; ] comes back. */
    ossa_clock_init(&p, 3, durations);
    ossa_clock_speed_step(&p, -1);
    CHECK_NEAR(p.speed, 0.5, 0);
    for (int i = 0; i < 3; i++)
        ossa_clock_speed_step(&p, -1);
    CHECK_NEAR(p.speed, OSSA_CLOCK_SPEED_MIN, 0);
    ossa_clock_speed_step(&p, -1); /* through zero */
    CHECK_NEAR(p.speed, -OSSA_CLOCK_SPEED_MIN, 0);
    ossa_clock_speed_step(&p, -1); /* faster backwards */
    CHECK_NEAR(p.speed, -2 * OSSA_CLOCK_SPEED_MIN, 0);
    ossa_clock_speed_step(&p, 1);
    ossa_clock_speed_step(&p, 1);
    CHECK_NEAR(p.speed, OSSA_CLOCK_SPEED_MIN, 0);
    for (int i = 0; i < 20; i++)
        ossa_clock_speed_step(&p, 1);
    CHECK_NEAR(p.speed, OSSA_CLOCK_SPEED_MAX, 0);
    ossa_clock_reverse(&p);
    CHECK_NEAR(p.speed, -OSSA_CLOCK_SPEED_MAX, 0);

    /* Frames at 30 per second over a 1 s clip: a loop has frames 0..29 (30 is 0 again),
     * once and ping-pong 0..30. */
    ossa_clock_init(&p, 3, durations);
    CHECK(p.frame_rate == 30.0f && p.wrap == OSSA_WRAP_LOOP);
    CHECK(ossa_clock_last_frame(&p) == 29);
    ossa_clock_step_frames(&p, 1);
    CHECK(!p.playing); /* stepping pauses */
    CHECK(ossa_clock_frame(&p) == 1);
    CHECK_NEAR(p.time, 1.0 / 30.0, 1e-6);
    ossa_clock_step_frames(&p, 10);
    CHECK(ossa_clock_frame(&p) == 11);
    ossa_clock_step_frames(&p, -10);
    ossa_clock_step_frames(&p, -1);
    CHECK(ossa_clock_frame(&p) == 0 && p.time == 0.0f);
    ossa_clock_step_frames(&p, -1); /* a loop wraps to its last frame */
    CHECK(ossa_clock_frame(&p) == 29);
    CHECK_NEAR(p.time, 29.0 / 30.0, 1e-6);
    ossa_clock_step_frames(&p, 1); /* and on to the first */
    CHECK(ossa_clock_frame(&p) == 0);
    ossa_clock_last_frame_seek(&p);
    CHECK(ossa_clock_frame(&p) == 29);
    ossa_clock_first_frame(&p);
    CHECK(p.time == 0.0f);
    /* From between two frames, steps land on the neighbours. */
    ossa_clock_seek(&p, 0.05f); /* frame 1.5 */
    CHECK(ossa_clock_frame(&p) == 1);
    ossa_clock_step_frames(&p, 1);
    CHECK(ossa_clock_frame(&p) == 2);
    ossa_clock_seek(&p, 0.05f);
    ossa_clock_step_frames(&p, -1);
    CHECK(ossa_clock_frame(&p) == 1);

    ossa_clock_set_mode(&p, OSSA_WRAP_CLAMP);
    CHECK(ossa_clock_last_frame(&p) == 30);
    ossa_clock_last_frame_seek(&p);
    CHECK_NEAR(p.time, 1.0, 1e-6);
    ossa_clock_step_frames(&p, 1); /* no wrap when played once */
    CHECK(ossa_clock_frame(&p) == 30);
    ossa_clock_first_frame(&p);
    ossa_clock_step_frames(&p, -10);
    CHECK(p.time == 0.0f);
    /* A frame rate of 24 changes the grid. */
    ossa_clock_set_frame_rate(&p, 24.0f);
    ossa_clock_set_frame_rate(&p, -1.0f); /* ignored */
    CHECK(ossa_clock_last_frame(&p) == 24);
    ossa_clock_step_frames(&p, 1);
    CHECK_NEAR(p.time, 1.0 / 24.0, 1e-6);

    /* Once: playing stops at the end; play again starts over. */
    ossa_clock_init(&p, 3, durations);
    ossa_clock_set_mode(&p, OSSA_WRAP_CLAMP);
    ossa_clock_advance(&p, 0.75f);
    CHECK(p.playing);
    CHECK_NEAR(p.time, 0.75, 1e-6);
    ossa_clock_advance(&p, 0.5f);
    CHECK(!p.playing);
    CHECK_NEAR(p.time, 1.0, 0);
    ossa_clock_toggle(&p);
    CHECK(p.playing && p.time == 0.0f);
    /* ...and backwards stops at the start. */
    p.speed = -1.0f;
    ossa_clock_seek(&p, 0.25f);
    ossa_clock_advance(&p, 0.5f);
    CHECK(!p.playing && p.time == 0.0f);
    ossa_clock_toggle(&p);
    CHECK(p.playing);
    CHECK_NEAR(p.time, 1.0, 0);

    /* Ping-pong: forwards to the end, then back. */
    ossa_clock_init(&p, 3, durations);
    ossa_clock_cycle_mode(&p);
    CHECK(p.wrap == OSSA_WRAP_PINGPONG);
    ossa_clock_advance(&p, 0.75f);
    CHECK_NEAR(p.time, 0.75, 1e-6);
    ossa_clock_advance(&p, 0.5f); /* 1.25 in the period: 0.75 on the way back */
    CHECK_NEAR(p.time, 0.75, 1e-6);
    CHECK(p.backwards);
    ossa_clock_advance(&p, 0.5f); /* 1.75: 0.25, still returning */
    CHECK_NEAR(p.time, 0.25, 1e-6);
    ossa_clock_advance(&p, 0.5f); /* 2.25 = 0.25 of the next period, forwards again */
    CHECK_NEAR(p.time, 0.25, 1e-6);
    CHECK(!p.backwards);
    p.speed = -1.0f; /* reverse from the forward half runs back through the start */
    ossa_clock_advance(&p, 0.5f);
    CHECK_NEAR(p.time, 0.25, 1e-6);
    CHECK(p.backwards);
    ossa_clock_cycle_mode(&p);
    CHECK(p.wrap == OSSA_WRAP_CLAMP);
    ossa_clock_cycle_mode(&p);
    CHECK(p.wrap == OSSA_WRAP_LOOP);

    /* A model without clips: nothing moves, nothing breaks. */
    ossa_clock_init(&p, 0, NULL);
    ossa_clock_advance(&p, 1.0f);
    ossa_clock_step_clip(&p, 1);
    ossa_clock_step_frames(&p, 1);
    ossa_clock_last_frame_seek(&p);
    CHECK(p.clip_count == 0 && p.clip == 0 && p.time == 0.0f);
    CHECK(ossa_clock_last_frame(&p) == 0 && ossa_clock_frame(&p) == 0);
    return test_finish("anim-clock");
}
