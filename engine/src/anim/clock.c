/* The clip clock (ossa/clock.h). */
#include "ossa/clock.h"

#include <math.h>
#include <string.h>

/* Slack for float times that should sit on a frame: 0.1% of a frame. */
#define FRAME_SLACK 1e-3

static float clip_duration(const float *durations, uint32_t clip)
{
    float d = durations ? durations[clip] : 0.0f;
    return d > 0.0f && isfinite(d) ? d : 0.0f;
}

static bool has_time(const ossa_clock *c)
{
    return c->duration > 0.0f;
}

void ossa_clock_init(ossa_clock *c, uint32_t clip_count, const float *durations)
{
    memset(c, 0, sizeof *c);
    c->clip_count = durations ? clip_count : 0;
    c->durations = c->clip_count ? durations : NULL;
    c->duration = c->clip_count ? clip_duration(durations, 0) : 0.0f;
    c->speed = 1.0f;
    c->frame_rate = OSSA_CLOCK_FRAME_RATE;
    c->wrap = OSSA_WRAP_LOOP;
    c->playing = true;
}

static float clamp_time(const ossa_clock *c, float t)
{
    return t < 0.0f ? 0.0f : t > c->duration ? c->duration : t;
}

void ossa_clock_advance(ossa_clock *c, float dt)
{
    if (!c->playing || !has_time(c) || !isfinite(dt))
        return;
    float d = c->duration, delta = dt * c->speed;
    switch (c->wrap) {
    case OSSA_WRAP_PINGPONG: {
        /* Position in the 2d-long period: forwards over [0, d], back over [d, 2d). */
        float u = (c->backwards ? 2.0f * d - c->time : c->time) + delta;
        float w = fmodf(u, 2.0f * d);
        if (w < 0.0f)
            w += 2.0f * d;
        c->backwards = w > d;
        c->time = ossa_playback_time(d, w, OSSA_WRAP_PINGPONG);
        break;
    }
    case OSSA_WRAP_CLAMP: {
        float t = c->time + delta;
        if ((c->speed > 0.0f && t >= d) || (c->speed < 0.0f && t <= 0.0f))
            c->playing = false;
        c->time = ossa_playback_time(d, t, OSSA_WRAP_CLAMP);
        break;
    }
    default:
        c->time = ossa_playback_time(d, c->time + delta, OSSA_WRAP_LOOP);
        break;
    }
}

void ossa_clock_toggle(ossa_clock *c)
{
    c->playing = !c->playing;
    if (c->playing && c->wrap == OSSA_WRAP_CLAMP && has_time(c)) {
        if (c->speed > 0.0f && c->time >= c->duration)
            c->time = 0.0f;
        else if (c->speed < 0.0f && c->time <= 0.0f)
            c->time = c->duration;
    }
}

void ossa_clock_set_clip(ossa_clock *c, uint32_t clip)
{
    if (clip >= c->clip_count || !c->durations)
        return;
    c->clip = clip;
    c->duration = clip_duration(c->durations, clip);
    c->time = 0.0f;
    c->backwards = false;
}

void ossa_clock_step_clip(ossa_clock *c, int delta)
{
    if (!c->clip_count)
        return;
    int64_t n = c->clip_count;
    int64_t next = ((int64_t)c->clip + delta % n + n) % n;
    ossa_clock_set_clip(c, (uint32_t)next);
}

void ossa_clock_seek(ossa_clock *c, float time)
{
    if (!isfinite(time))
        return;
    c->backwards = false;
    if (c->wrap == OSSA_WRAP_LOOP)
        c->time = ossa_playback_time(c->duration, time, OSSA_WRAP_LOOP);
    else
        c->time = clamp_time(c, time);
}

void ossa_clock_scale_speed(ossa_clock *c, float factor)
{
    if (!isfinite(factor) || factor == 0.0f)
        return;
    float s = c->speed * factor;
    float mag = fabsf(s);
    if (mag < OSSA_CLOCK_SPEED_MIN)
        mag = OSSA_CLOCK_SPEED_MIN;
    if (mag > OSSA_CLOCK_SPEED_MAX)
        mag = OSSA_CLOCK_SPEED_MAX;
    c->speed = s < 0.0f ? -mag : mag;
}

void ossa_clock_speed_step(ossa_clock *c, int direction)
{
    if (direction == 0)
        return;
    /* Towards zero halves the magnitude, away from it doubles; the smallest rung crosses
     * over to the other sign. */
    bool up = direction > 0, positive = c->speed > 0.0f;
    if (fabsf(c->speed) <= OSSA_CLOCK_SPEED_MIN && up != positive)
        c->speed = up ? OSSA_CLOCK_SPEED_MIN : -OSSA_CLOCK_SPEED_MIN;
    else
        ossa_clock_scale_speed(c, up == positive ? 2.0f : 0.5f);
}

void ossa_clock_reverse(ossa_clock *c)
{
    c->speed = -c->speed;
}

void ossa_clock_set_mode(ossa_clock *c, ossa_wrap wrap)
{
    if (wrap != OSSA_WRAP_LOOP && wrap != OSSA_WRAP_PINGPONG && wrap != OSSA_WRAP_CLAMP)
        return;
    c->wrap = wrap;
    c->backwards = false;
    /* A loop never shows its end time (it is the start again). */
    if (wrap == OSSA_WRAP_LOOP)
        c->time = ossa_playback_time(c->duration, c->time, OSSA_WRAP_LOOP);
}

void ossa_clock_cycle_mode(ossa_clock *c)
{
    ossa_clock_set_mode(c, c->wrap == OSSA_WRAP_LOOP       ? OSSA_WRAP_PINGPONG
                              : c->wrap == OSSA_WRAP_PINGPONG ? OSSA_WRAP_CLAMP
                                                              : OSSA_WRAP_LOOP);
}

void ossa_clock_set_frame_rate(ossa_clock *c, float frames_per_second)
{
    if (frames_per_second > 0.0f && isfinite(frames_per_second))
        c->frame_rate = frames_per_second;
}

uint32_t ossa_clock_last_frame(const ossa_clock *c)
{
    if (!has_time(c))
        return 0;
    double frames = (double)c->duration * (double)c->frame_rate;
    if (frames > 4e9)
        frames = 4e9;
    double last = c->wrap == OSSA_WRAP_LOOP ? ceil(frames - FRAME_SLACK) - 1.0
                                            : floor(frames + FRAME_SLACK);
    return last > 0.0 ? (uint32_t)last : 0;
}

uint32_t ossa_clock_frame(const ossa_clock *c)
{
    double f = floor((double)c->time * (double)c->frame_rate + FRAME_SLACK);
    uint32_t last = ossa_clock_last_frame(c);
    return f <= 0.0 ? 0 : f >= (double)last ? last : (uint32_t)f;
}

static void go_to_frame(ossa_clock *c, int64_t frame)
{
    c->playing = false;
    c->backwards = false;
    c->time = clamp_time(c, (float)((double)frame / (double)c->frame_rate));
}

void ossa_clock_step_frames(ossa_clock *c, int delta)
{
    if (!has_time(c))
        return;
    double at = (double)c->time * (double)c->frame_rate;
    /* From between two frames, a step forwards lands on the next one, backwards on the
     * previous one. */
    int64_t base = (int64_t)(delta >= 0 ? floor(at + FRAME_SLACK) : ceil(at - FRAME_SLACK));
    int64_t last = ossa_clock_last_frame(c), next = base + delta;
    if (c->wrap == OSSA_WRAP_LOOP) {
        next %= last + 1;
        if (next < 0)
            next += last + 1;
    } else {
        next = next < 0 ? 0 : next > last ? last : next;
    }
    go_to_frame(c, next);
}

void ossa_clock_first_frame(ossa_clock *c)
{
    if (has_time(c))
        go_to_frame(c, 0);
}

void ossa_clock_last_frame_seek(ossa_clock *c)
{
    if (has_time(c))
        go_to_frame(c, ossa_clock_last_frame(c));
}
