/* Playback state of ossa-view: which clip, where in it, how fast, playing or paused. No GL and
 * no SDL here, so it can be unit-tested headless. Times are in seconds of clip time. */
#ifndef OSSA_VIEW_PLAYBACK_H
#define OSSA_VIEW_PLAYBACK_H

#include <stdbool.h>
#include <stdint.h>

typedef struct view_playback {
    uint32_t clip_count;  /* clips the model has; 0: the rest pose is shown */
    uint32_t clip;        /* current clip, < clip_count when clip_count > 0 */
    float duration;       /* of the current clip (> 0), 0 with no clips */
    float time;           /* in [0, duration) */
    float speed;          /* playback rate, 1 = real time; may be negative (reverse) */
    bool playing;
} view_playback;

#define VIEW_SPEED_MIN 0.0625f
#define VIEW_SPEED_MAX 16.0f

/* Starts at clip 0, time 0, speed 1, playing. durations[i] is clip i's length. */
void view_playback_init(view_playback *p, uint32_t clip_count, const float *durations);
/* Moves time on by dt seconds of wall time times the speed, looping; nothing when paused. */
void view_playback_advance(view_playback *p, float dt);
void view_playback_toggle(view_playback *p);
/* Selects a clip (out of range: ignored) and rewinds it; durations as for init. */
void view_playback_set_clip(view_playback *p, uint32_t clip, const float *durations);
/* Next (+1) or previous (-1) clip, wrapping around. */
void view_playback_step_clip(view_playback *p, int delta, const float *durations);
/* Jumps to a time, wrapped into the clip (non-finite: ignored). */
void view_playback_seek(view_playback *p, float time);
/* Multiplies the speed by factor, clamped to VIEW_SPEED_MIN..MAX in magnitude. */
void view_playback_scale_speed(view_playback *p, float factor);

#endif
