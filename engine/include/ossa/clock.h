/* A clip clock: which clip, where in it, how fast, which wrap mode, playing or paused. What a
 * viewer's playback keys and timeline do to time, and what a character instance plays by
 * (ossa_instance_tick). Times are in seconds of clip time; the wrap modes are the sampler's
 * (ossa_playback_time in ossa/sample.h). The clock is a plain struct the caller owns; its
 * calls allocate nothing and cannot fail (values they cannot take are ignored, as each says).
 *
 * Frames: frame k is at time k / frame_rate, for k = 0 .. last frame. Played once or ping-pong,
 * the last frame is the last one at or before the clip's end (a 1 s clip at 30 frames a second
 * has frames 0..30). A looping clip's end is its start again, so there the last frame is the
 * last one before the end (frames 0..29). Stepping snaps to that grid and pauses playback. */
#ifndef OSSA_CLOCK_H
#define OSSA_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include "ossa/sample.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_clock {
    uint32_t clip_count;  /* clips the model has; 0: the rest pose is shown */
    const float *durations; /* clip_count lengths, the caller's (ossa_clock_init), read when
                               the clip changes: they must live as long as the clock */
    uint32_t clip;        /* current clip, < clip_count when clip_count > 0 */
    float duration;       /* of the current clip (> 0), 0 with no clips */
    float time;           /* clip time in [0, duration] */
    float speed;          /* playback rate, 1 = real time; negative plays backwards */
    float frame_rate;     /* frames per second for stepping and frame numbers (> 0) */
    ossa_wrap wrap;       /* loop, ping-pong or once */
    bool backwards;       /* ping-pong: in the returning half of the period */
    bool playing;
} ossa_clock;

/* The speed ladder that [ and ] walk: +-1/16 .. +-16 in powers of two, no zero. */
#define OSSA_CLOCK_SPEED_MIN 0.0625f
#define OSSA_CLOCK_SPEED_MAX 16.0f
#define OSSA_CLOCK_FRAME_RATE 30.0f

/* Starts at clip 0, time 0, speed 1, 30 frames a second, looping, playing. durations[i] is clip
 * i's length, for i < clip_count; the clock keeps the pointer (NULL: no clips). */
OSSA_API void ossa_clock_init(ossa_clock *c, uint32_t clip_count, const float *durations);
/* Moves time on by dt seconds of wall time times the speed, as the wrap mode says; nothing when
 * paused. A clip played once stops (pauses) at its end, or at its start when played backwards. */
OSSA_API void ossa_clock_advance(ossa_clock *c, float dt);
/* Play or pause; playing a clip that was played once to its end starts it again. */
OSSA_API void ossa_clock_toggle(ossa_clock *c);
/* Selects a clip (out of range: ignored) and rewinds it. */
OSSA_API void ossa_clock_set_clip(ossa_clock *c, uint32_t clip);
/* Next (+1) or previous (-1) clip, wrapping around. */
OSSA_API void ossa_clock_step_clip(ossa_clock *c, int delta);
/* Jumps to a time: wrapped into the clip when looping, clamped to [0, duration] otherwise
 * (non-finite: ignored). */
OSSA_API void ossa_clock_seek(ossa_clock *c, float time);
/* Multiplies the speed by factor, clamped to OSSA_CLOCK_SPEED_MIN..MAX in magnitude. */
OSSA_API void ossa_clock_scale_speed(ossa_clock *c, float factor);
/* One rung up (faster, +1) or down (slower, -1) the signed speed ladder: going slower than
 * +1/16 turns into -1/16 (reverse), and faster than -1/16 into +1/16. */
OSSA_API void ossa_clock_speed_step(ossa_clock *c, int direction);
/* Plays the other way at the same rate. */
OSSA_API void ossa_clock_reverse(ossa_clock *c);
/* Loop -> ping-pong -> once -> loop. */
OSSA_API void ossa_clock_cycle_mode(ossa_clock *c);
OSSA_API void ossa_clock_set_mode(ossa_clock *c, ossa_wrap wrap);
/* frames_per_second <= 0 or not finite: ignored. */
OSSA_API void ossa_clock_set_frame_rate(ossa_clock *c, float frames_per_second);

/* Frame grid. */
OSSA_API uint32_t ossa_clock_last_frame(const ossa_clock *c);
/* The frame at or just before the current time. */
OSSA_API uint32_t ossa_clock_frame(const ossa_clock *c);
/* Moves by delta frames from the current one, pausing: a looping clip wraps around the frame
 * grid, the other modes stop at the first and last frames. */
OSSA_API void ossa_clock_step_frames(ossa_clock *c, int delta);
/* First or last frame, pausing. */
OSSA_API void ossa_clock_first_frame(ossa_clock *c);
OSSA_API void ossa_clock_last_frame_seek(ossa_clock *c);

#ifdef __cplusplus
}
#endif
#endif
