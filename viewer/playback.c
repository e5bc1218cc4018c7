#include "playback.h"

#include <math.h>

/* Time wrapped into [0, duration), as a looping clip plays it. */
static float wrap(float time, float duration)
{
    if (!(duration > 0.0f) || !isfinite(time))
        return 0.0f;
    float w = fmodf(time, duration);
    if (w < 0.0f)
        w += duration;
    return w >= duration ? 0.0f : w;
}

static float clip_duration(const float *durations, uint32_t clip)
{
    float d = durations ? durations[clip] : 0.0f;
    return d > 0.0f && isfinite(d) ? d : 0.0f;
}

void view_playback_init(view_playback *p, uint32_t clip_count, const float *durations)
{
    p->clip_count = durations ? clip_count : 0;
    p->clip = 0;
    p->duration = p->clip_count ? clip_duration(durations, 0) : 0.0f;
    p->time = 0.0f;
    p->speed = 1.0f;
    p->playing = true;
}

void view_playback_advance(view_playback *p, float dt)
{
    if (!p->playing || !(p->duration > 0.0f) || !isfinite(dt))
        return;
    p->time = wrap(p->time + dt * p->speed, p->duration);
}

void view_playback_toggle(view_playback *p)
{
    p->playing = !p->playing;
}

void view_playback_set_clip(view_playback *p, uint32_t clip, const float *durations)
{
    if (clip >= p->clip_count || !durations)
        return;
    p->clip = clip;
    p->duration = clip_duration(durations, clip);
    p->time = 0.0f;
}

void view_playback_step_clip(view_playback *p, int delta, const float *durations)
{
    if (!p->clip_count)
        return;
    int64_t n = p->clip_count;
    int64_t next = ((int64_t)p->clip + delta % n + n) % n;
    view_playback_set_clip(p, (uint32_t)next, durations);
}

void view_playback_seek(view_playback *p, float time)
{
    if (isfinite(time))
        p->time = wrap(time, p->duration);
}

void view_playback_scale_speed(view_playback *p, float factor)
{
    if (!isfinite(factor) || factor == 0.0f)
        return;
    float s = p->speed * factor;
    float mag = fabsf(s);
    if (mag < VIEW_SPEED_MIN)
        mag = VIEW_SPEED_MIN;
    if (mag > VIEW_SPEED_MAX)
        mag = VIEW_SPEED_MAX;
    p->speed = s < 0.0f ? -mag : mag;
}
