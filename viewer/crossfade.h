/* Clip changes in ossa-view fade across through the engine's mixer (ossa_mixer, Cal3D's CalMixer
 * semantics): the old clip leaves the synchronised cycles and fades out while going on from
 * where it was (clear_cycle), the new one fades in from its start (blend_cycle). Outside a fade
 * the viewer samples the current clip directly; during one it poses the model from the mixer's
 * blended pose. No GL here. */
#ifndef OSSA_VIEW_CROSSFADE_H
#define OSSA_VIEW_CROSSFADE_H

#include <stdbool.h>
#include <stdint.h>
#include "ossa/pose.h"
#include "ossa/mixer.h"

#define VIEW_CROSSFADE_SECONDS 0.25f

typedef struct view_crossfade {
    const ossa_model *model;   /* not owned */
    ossa_mixer *mixer;         /* NULL: the model has no clips or bones; clips change at once */
    ossa_soa_pose pose;        /* the blended local pose */
    uint32_t target;           /* the clip faded in */
    bool active;               /* a fade is running */
    float seconds;             /* fade length */
} view_crossfade;

/* Creates the mixer for a model; false (message in err) when it cannot, which the viewer
 * reports and lives with (hard cuts). */
bool view_crossfade_init(view_crossfade *cf, const ossa_model *m, float seconds, char *err,
                         size_t err_size);
void view_crossfade_free(view_crossfade *cf);
/* Starts a fade from clip `from`, now at clip time from_time, to clip `to` (from its start).
 * False when no fade runs (no mixer, same clip, ids out of range, mixer full): cut at once. */
bool view_crossfade_start(view_crossfade *cf, uint32_t from, float from_time, uint32_t to);
/* Moves the fade on by dt seconds (wall or script time), with the new clip at clip time
 * to_time; returns the blended pose while the fade runs, NULL once it has ended (then pose
 * the current clip as usual). */
const ossa_soa_pose *view_crossfade_update(view_crossfade *cf, float dt, float to_time);
/* Ends a running fade at once (e.g. when the user seeks). */
void view_crossfade_cancel(view_crossfade *cf);

#endif
