/* ossa-view's playback state (viewer/playback.c, no GL): looping, pause, clip changes, speed. */
#include <math.h>

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

    /* A model without clips: nothing moves, nothing breaks. */
    view_playback_init(&p, 0, NULL);
    view_playback_advance(&p, 1.0f);
    view_playback_step_clip(&p, 1, NULL);
    CHECK(p.clip_count == 0 && p.clip == 0 && p.time == 0.0f);
    return test_finish("playback");
}
