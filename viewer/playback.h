/* Playback state of ossa-view: which clip, where in it, how fast, which wrap mode, playing or
 * paused. No GL and no SDL here, so it can be unit-tested headless. Times are in seconds of
 * clip time; the wrap modes are the engine's (ossa_playback_time in ossa/sample.h).
 *
 * Frames: frame k is at time k / frame_rate, for k = 0 .. last frame. Played once or ping-pong,
 * the last frame is the last one at or before the clip's end (a 1 s clip at 30 frames a second
 * has frames 0..30). A looping clip's end is its start again, so there the last frame is the
 * last one before the end (frames 0..29). Stepping snaps to that grid and pauses playback. */
#ifndef OSSA_VIEW_PLAYBACK_H
#define OSSA_VIEW_PLAYBACK_H

#include <stdbool.h>
#include <stdint.h>
#include "ossa/sample.h"

typedef struct view_playback {
    uint32_t clip_count;  /* clips the model has; 0: the rest pose is shown */
    uint32_t clip;        /* current clip, < clip_count when clip_count > 0 */
    float duration;       /* of the current clip (> 0), 0 with no clips */
    float time;           /* clip time in [0, duration] */
    float speed;          /* playback rate, 1 = real time; negative plays backwards */
    float frame_rate;     /* frames per second for stepping and frame numbers (> 0) */
    ossa_wrap mode;  /* loop, ping-pong or once */
    bool backwards;       /* ping-pong: in the returning half of the period */
    bool playing;
} view_playback;

/* The speed ladder that [ and ] walk: +-1/16 .. +-16 in powers of two, no zero. */
#define VIEW_SPEED_MIN 0.0625f
#define VIEW_SPEED_MAX 16.0f
#define VIEW_FRAME_RATE_DEFAULT 30.0f

/* Starts at clip 0, time 0, speed 1, 30 frames a second, looping, playing. durations[i] is clip
 * i's length. */
void view_playback_init(view_playback *p, uint32_t clip_count, const float *durations);
/* Moves time on by dt seconds of wall time times the speed, as the wrap mode says; nothing when
 * paused. A clip played once stops (pauses) at its end, or at its start when played backwards. */
void view_playback_advance(view_playback *p, float dt);
/* Play or pause; playing a clip that was played once to its end starts it again. */
void view_playback_toggle(view_playback *p);
/* Selects a clip (out of range: ignored) and rewinds it; durations as for init. */
void view_playback_set_clip(view_playback *p, uint32_t clip, const float *durations);
/* Next (+1) or previous (-1) clip, wrapping around. */
void view_playback_step_clip(view_playback *p, int delta, const float *durations);
/* Jumps to a time: wrapped into the clip when looping, clamped to [0, duration] otherwise
 * (non-finite: ignored). */
void view_playback_seek(view_playback *p, float time);
/* Multiplies the speed by factor, clamped to VIEW_SPEED_MIN..MAX in magnitude. */
void view_playback_scale_speed(view_playback *p, float factor);
/* One rung up (faster, +1) or down (slower, -1) the signed speed ladder: going slower than
 * +1/16 turns into -1/16 (reverse), and faster than -1/16 into +1/16. */
void view_playback_speed_step(view_playback *p, int direction);
/* Plays the other way at the same rate. */
void view_playback_reverse(view_playback *p);
/* Loop -> ping-pong -> once -> loop. */
void view_playback_cycle_mode(view_playback *p);
void view_playback_set_mode(view_playback *p, ossa_wrap mode);
/* frames_per_second <= 0 or not finite: ignored. */
void view_playback_set_frame_rate(view_playback *p, float frames_per_second);

/* Frame grid. */
uint32_t view_playback_last_frame(const view_playback *p);
/* The frame at or just before the current time. */
uint32_t view_playback_frame(const view_playback *p);
/* Moves by delta frames from the current one, pausing: a looping clip wraps around the frame
 * grid, the other modes stop at the first and last frames. */
void view_playback_step_frames(view_playback *p, int delta);
/* First or last frame, pausing. */
void view_playback_first_frame(view_playback *p);
void view_playback_last_frame_seek(view_playback *p);

/* "loop", "pingpong", "once"; NULL for anything else. */
const char *view_wrap_mode_name(ossa_wrap mode);
/* Parses those names; false when unknown. */
bool view_wrap_mode_parse(const char *name, ossa_wrap *mode);

#endif
