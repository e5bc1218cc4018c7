/* ossa-view's playback state (viewer/playback.c, no GL): looping, pause, clip changes, speed,
 * the speed ladder through reverse, wrap modes and frame stepping. */
#include <math.h>
#include <string.h>

#include "playback.h"
#include "test_common.h"

int main(void)
{
    const float durations[3] = {1.0f, 2.0f, 0.5f};
    view_playback p;
    view_playback_init(&p, 3, durations);
    CHECK(p.clip == 0 && p.time == 0.0f && p.speed == 1.0f && p.playing);
    CHECK_NEAR(p.duration, 1.0, 0);

    view_playback_advance(&p, 0.25f);
    CHECK_NEAR(p.time, 0.25, 1e-6);
    view_playback_advance(&p, 1.0f); /* loops */
    CHECK_NEAR(p.time, 0.25, 1e-6);
    view_playback_advance(&p, NAN); /* ignored */
    CHECK_NEAR(p.time, 0.25, 1e-6);

    view_playback_toggle(&p);
    CHECK(!p.playing);
    view_playback_advance(&p, 0.5f); /* paused: time stands */
    CHECK_NEAR(p.time, 0.25, 1e-6);
    view_playback_toggle(&p);

    view_playback_scale_speed(&p, -2.0f); /* reverse, twice as fast */
    CHECK_NEAR(p.speed, -2.0, 0);
    view_playback_advance(&p, 0.25f);
    CHECK_NEAR(p.time, 0.75, 1e-6); /* 0.25 - 0.5 wraps to 0.75 */
    for (int i = 0; i < 20; i++)
        view_playback_scale_speed(&p, 2.0f);
    CHECK_NEAR(p.speed, -VIEW_SPEED_MAX, 0);
    for (int i = 0; i < 40; i++)
        view_playback_scale_speed(&p, 0.5f);
    CHECK_NEAR(p.speed, -VIEW_SPEED_MIN, 0);

    view_playback_set_clip(&p, 1, durations);
    CHECK(p.clip == 1 && p.time == 0.0f);
    CHECK_NEAR(p.duration, 2.0, 0);
    view_playback_set_clip(&p, 7, durations); /* out of range: ignored */
    CHECK(p.clip == 1);
    view_playback_step_clip(&p, 1, durations);
    CHECK(p.clip == 2);
    view_playback_step_clip(&p, 1, durations); /* wraps */
    CHECK(p.clip == 0);
    view_playback_step_clip(&p, -1, durations);
    CHECK(p.clip == 2);

    view_playback_seek(&p, 1.2f); /* clip 2 lasts 0.5 s */
    CHECK_NEAR(p.time, 0.2, 1e-6);
    view_playback_seek(&p, -0.1f);
    CHECK_NEAR(p.time, 0.4, 1e-6);


    /* The speed ladder: [ halves towards 1/16, then crosses into reverse; ] comes back. */
    view_playback_init(&p, 3, durations);
    view_playback_speed_step(&p, -1);
    CHECK_NEAR(p.speed, 0.5, 0);
    for (int i = 0; i < 3; i++)
        view_playback_speed_step(&p, -1);
    CHECK_NEAR(p.speed, VIEW_SPEED_MIN, 0);
    view_playback_speed_step(&p, -1); /* through zero */
    CHECK_NEAR(p.speed, -VIEW_SPEED_MIN, 0);
    view_playback_speed_step(&p, -1); /* faster backwards */
    CHECK_NEAR(p.speed, -2 * VIEW_SPEED_MIN, 0);
    view_playback_speed_step(&p, 1);
    view_playback_speed_step(&p, 1);
    CHECK_NEAR(p.speed, VIEW_SPEED_MIN, 0);
    for (int i = 0; i < 20; i++)
        view_playback_speed_step(&p, 1);
    CHECK_NEAR(p.speed, VIEW_SPEED_MAX, 0);
    view_playback_reverse(&p);
    CHECK_NEAR(p.speed, -VIEW_SPEED_MAX, 0);

    /* Frames at 30 per second over a 1 s clip: a loop has frames 0..29 (30 is 0 again),
     * once and ping-pong 0..30. */
    view_playback_init(&p, 3, durations);
    CHECK(p.frame_rate == 30.0f && p.mode == OSSA_WRAP_LOOP);
    CHECK(view_playback_last_frame(&p) == 29);
    view_playback_step_frames(&p, 1);
    CHECK(!p.playing); /* stepping pauses */
    CHECK(view_playback_frame(&p) == 1);
    CHECK_NEAR(p.time, 1.0 / 30.0, 1e-6);
    view_playback_step_frames(&p, 10);
    CHECK(view_playback_frame(&p) == 11);
    view_playback_step_frames(&p, -10);
    view_playback_step_frames(&p, -1);
    CHECK(view_playback_frame(&p) == 0 && p.time == 0.0f);
    view_playback_step_frames(&p, -1); /* a loop wraps to its last frame */
    CHECK(view_playback_frame(&p) == 29);
    CHECK_NEAR(p.time, 29.0 / 30.0, 1e-6);
    view_playback_step_frames(&p, 1); /* and on to the first */
    CHECK(view_playback_frame(&p) == 0);
    view_playback_last_frame_seek(&p);
    CHECK(view_playback_frame(&p) == 29);
    view_playback_first_frame(&p);
    CHECK(p.time == 0.0f);
    /* From between two frames, steps land on the neighbours. */
    view_playback_seek(&p, 0.05f); /* frame 1.5 */
    CHECK(view_playback_frame(&p) == 1);
    view_playback_step_frames(&p, 1);
    CHECK(view_playback_frame(&p) == 2);
    view_playback_seek(&p, 0.05f);
    view_playback_step_frames(&p, -1);
    CHECK(view_playback_frame(&p) == 1);

    view_playback_set_mode(&p, OSSA_WRAP_CLAMP);
    CHECK(view_playback_last_frame(&p) == 30);
    view_playback_last_frame_seek(&p);
    CHECK_NEAR(p.time, 1.0, 1e-6);
    view_playback_step_frames(&p, 1); /* no wrap when played once */
    CHECK(view_playback_frame(&p) == 30);
    view_playback_first_frame(&p);
    view_playback_step_frames(&p, -10);
    CHECK(p.time == 0.0f);
    /* A frame rate of 24 changes the grid. */
    view_playback_set_frame_rate(&p, 24.0f);
    view_playback_set_frame_rate(&p, -1.0f); /* ignored */
    CHECK(view_playback_last_frame(&p) == 24);
    view_playback_step_frames(&p, 1);
    CHECK_NEAR(p.time, 1.0 / 24.0, 1e-6);

    /* Once: playing stops at the end; play again starts over. */
    view_playback_init(&p, 3, durations);
    view_playback_set_mode(&p, OSSA_WRAP_CLAMP);
    view_playback_advance(&p, 0.75f);
    CHECK(p.playing);
    CHECK_NEAR(p.time, 0.75, 1e-6);
    view_playback_advance(&p, 0.5f);
    CHECK(!p.playing);
    CHECK_NEAR(p.time, 1.0, 0);
    view_playback_toggle(&p);
    CHECK(p.playing && p.time == 0.0f);
    /* ...and backwards stops at the start. */
    p.speed = -1.0f;
    view_playback_seek(&p, 0.25f);
    view_playback_advance(&p, 0.5f);
    CHECK(!p.playing && p.time == 0.0f);
    view_playback_toggle(&p);
    CHECK(p.playing);
    CHECK_NEAR(p.time, 1.0, 0);

    /* Ping-pong: forwards to the end, then back. */
    view_playback_init(&p, 3, durations);
    view_playback_cycle_mode(&p);
    CHECK(p.mode == OSSA_WRAP_PINGPONG);
    view_playback_advance(&p, 0.75f);
    CHECK_NEAR(p.time, 0.75, 1e-6);
    view_playback_advance(&p, 0.5f); /* 1.25 in the period: 0.75 on the way back */
    CHECK_NEAR(p.time, 0.75, 1e-6);
    CHECK(p.backwards);
    view_playback_advance(&p, 0.5f); /* 1.75: 0.25, still returning */
    CHECK_NEAR(p.time, 0.25, 1e-6);
    view_playback_advance(&p, 0.5f); /* 2.25 = 0.25 of the next period, forwards again */
    CHECK_NEAR(p.time, 0.25, 1e-6);
    CHECK(!p.backwards);
    p.speed = -1.0f; /* reverse from the forward half runs back through the start */
    view_playback_advance(&p, 0.5f);
    CHECK_NEAR(p.time, 0.25, 1e-6);
    CHECK(p.backwards);
    view_playback_cycle_mode(&p);
    CHECK(p.mode == OSSA_WRAP_CLAMP);
    view_playback_cycle_mode(&p);
    CHECK(p.mode == OSSA_WRAP_LOOP);

    /* Mode names. */
    ossa_wrap mode;
    CHECK(view_wrap_mode_parse("pingpong", &mode) && mode == OSSA_WRAP_PINGPONG);
    CHECK(view_wrap_mode_parse("once", &mode) && mode == OSSA_WRAP_CLAMP);
    CHECK(!view_wrap_mode_parse("bounce", &mode));
    CHECK(strcmp(view_wrap_mode_name(OSSA_WRAP_LOOP), "loop") == 0);

    /* A model without clips: nothing moves, nothing breaks. */
    view_playback_init(&p, 0, NULL);
    view_playback_advance(&p, 1.0f);
    view_playback_step_clip(&p, 1, NULL);
    view_playback_step_frames(&p, 1);
    view_playback_last_frame_seek(&p);
    CHECK(p.clip_count == 0 && p.clip == 0 && p.time == 0.0f);
    CHECK(view_playback_last_frame(&p) == 0 && view_playback_frame(&p) == 0);
    return test_finish("playback");
}
