#include "playback.h"

#include <math.h>
#include <string.h>

/* Slack for float times that should sit on a frame: 0.1% of a frame. */
#define FRAME_SLACK 1e-3

static float clip_duration(const float *durations, uint32_t clip)
{
    float d = durations ? durations[clip] : 0.0f;
    return d > 0.0f && isfinite(d) ? d : 0.0f;
}

static bool has_time(const view_playback *p)
{
    return p->duration > 0.0f;
}

void view_playback_init(view_playback *p, uint32_t clip_count, const float *durations)
{
    memset(p, 0, sizeof *p);
    p->clip_count = durations ? clip_count : 0;
    p->duration = p->clip_count ? clip_duration(durations, 0) : 0.0f;
    p->speed = 1.0f;
    p->frame_rate = VIEW_FRAME_RATE_DEFAULT;
    p->mode = OSSA_WRAP_LOOP;
    p->playing = true;
}

static float clamp_time(const view_playback *p, float t)
{
    return t < 0.0f ? 0.0f : t > p->duration ? p->duration : t;
}

void view_playback_advance(view_playback *p, float dt)
{
    if (!p->playing || !has_time(p) || !isfinite(dt))
        return;
    float d = p->duration, delta = dt * p->speed;
    switch (p->mode) {
    case OSSA_WRAP_PINGPONG: {
        /* Position in the 2d-long period: forwards over [0, d], back over [d, 2d). */
        float u = (p->backwards ? 2.0f * d - p->time : p->time) + delta;
        float w = fmodf(u, 2.0f * d);
        if (w < 0.0f)
            w += 2.0f * d;
        p->backwards = w > d;
        p->time = ossa_playback_time(d, w, OSSA_WRAP_PINGPONG);
        break;
    }
    case OSSA_WRAP_CLAMP: {
        float t = p->time + delta;
        if ((p->speed > 0.0f && t >= d) || (p->speed < 0.0f && t <= 0.0f))
            p->playing = false;
        p->time = ossa_playback_time(d, t, OSSA_WRAP_CLAMP);
        break;
    }
    default:
        p->time = ossa_playback_time(d, p->time + delta, OSSA_WRAP_LOOP);
        break;
    }
}

void view_playback_toggle(view_playback *p)
{
    p->playing = !p->playing;
    if (p->playing && p->mode == OSSA_WRAP_CLAMP && has_time(p)) {
        if (p->speed > 0.0f && p->time >= p->duration)
            p->time = 0.0f;
        else if (p->speed < 0.0f && p->time <= 0.0f)
            p->time = p->duration;
    }
}

void view_playback_set_clip(view_playback *p, uint32_t clip, const float *durations)
{
    if (clip >= p->clip_count || !durations)
        return;
    p->clip = clip;
    p->duration = clip_duration(durations, clip);
    p->time = 0.0f;
    p->backwards = false;
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
    if (!isfinite(time))
        return;
    p->backwards = false;
    if (p->mode == OSSA_WRAP_LOOP)
        p->time = ossa_playback_time(p->duration, time, OSSA_WRAP_LOOP);
    else
        p->time = clamp_time(p, time);
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

void view_playback_speed_step(view_playback *p, int direction)
{
    if (direction == 0)
        return;
    /* Towards zero halves the magnitude, away from it doubles; the smallest rung crosses
     * over to the other sign. */
    bool up = direction > 0, positive = p->speed > 0.0f;
    if (fabsf(p->speed) <= VIEW_SPEED_MIN && up != positive)
        p->speed = up ? VIEW_SPEED_MIN : -VIEW_SPEED_MIN;
    else
        view_playback_scale_speed(p, up == positive ? 2.0f : 0.5f);
}

void view_playback_reverse(view_playback *p)
{
    p->speed = -p->speed;
}

void view_playback_set_mode(view_playback *p, ossa_wrap mode)
{
    if (mode != OSSA_WRAP_LOOP && mode != OSSA_WRAP_PINGPONG && mode != OSSA_WRAP_CLAMP)
        return;
    p->mode = mode;
    p->backwards = false;
    /* A loop never shows its end time (it is the start again). */
    if (mode == OSSA_WRAP_LOOP)
        p->time = ossa_playback_time(p->duration, p->time, OSSA_WRAP_LOOP);
}

void view_playback_cycle_mode(view_playback *p)
{
    view_playback_set_mode(p, p->mode == OSSA_WRAP_LOOP       ? OSSA_WRAP_PINGPONG
                              : p->mode == OSSA_WRAP_PINGPONG ? OSSA_WRAP_CLAMP
                                                              : OSSA_WRAP_LOOP);
}

void view_playback_set_frame_rate(view_playback *p, float frames_per_second)
{
    if (frames_per_second > 0.0f && isfinite(frames_per_second))
        p->frame_rate = frames_per_second;
}

uint32_t view_playback_last_frame(const view_playback *p)
{
    if (!has_time(p))
        return 0;
    double frames = (double)p->duration * (double)p->frame_rate;
    if (frames > 4e9)
        frames = 4e9;
    double last = p->mode == OSSA_WRAP_LOOP ? ceil(frames - FRAME_SLACK) - 1.0
                                            : floor(frames + FRAME_SLACK);
    return last > 0.0 ? (uint32_t)last : 0;
}

uint32_t view_playback_frame(const view_playback *p)
{
    double f = floor((double)p->time * (double)p->frame_rate + FRAME_SLACK);
    uint32_t last = view_playback_last_frame(p);
    return f <= 0.0 ? 0 : f >= (double)last ? last : (uint32_t)f;
}

static void go_to_frame(view_playback *p, int64_t frame)
{
    p->playing = false;
    p->backwards = false;
    p->time = clamp_time(p, (float)((double)frame / (double)p->frame_rate));
}

void view_playback_step_frames(view_playback *p, int delta)
{
    if (!has_time(p))
        return;
    double at = (double)p->time * (double)p->frame_rate;
    /* From between two frames, a step forwards lands on the next one, backwards on the
     * previous one. */
    int64_t base = (int64_t)(delta >= 0 ? floor(at + FRAME_SLACK) : ceil(at - FRAME_SLACK));
    int64_t last = view_playback_last_frame(p), next = base + delta;
    if (p->mode == OSSA_WRAP_LOOP) {
        next %= last + 1;
        if (next < 0)
            next += last + 1;
    } else {
        next = next < 0 ? 0 : next > last ? last : next;
    }
    go_to_frame(p, next);
}

void view_playback_first_frame(view_playback *p)
{
    if (has_time(p))
        go_to_frame(p, 0);
}

void view_playback_last_frame_seek(view_playback *p)
{
    if (has_time(p))
        go_to_frame(p, view_playback_last_frame(p));
}

const char *view_wrap_mode_name(ossa_wrap mode)
{
    switch (mode) {
    case OSSA_WRAP_LOOP: return "loop";
    case OSSA_WRAP_PINGPONG: return "pingpong";
    case OSSA_WRAP_CLAMP: return "once";
    default: return NULL;
    }
}

bool view_wrap_mode_parse(const char *name, ossa_wrap *mode)
{
    static const ossa_wrap all[] = {OSSA_WRAP_LOOP, OSSA_WRAP_PINGPONG, OSSA_WRAP_CLAMP};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(name, view_wrap_mode_name(all[i])) == 0) {
            *mode = all[i];
            return true;
        }
    return false;
}
