/* ossa-view's names for the clip clock's wrap modes (the clock itself is ossa/clock.h). */
#ifndef OSSA_VIEW_PLAYBACK_H
#define OSSA_VIEW_PLAYBACK_H

#include <stdbool.h>
#include "ossa/clock.h"

/* "loop", "pingpong", "once"; NULL for anything else. */
const char *view_wrap_mode_name(ossa_wrap mode);
/* Parses those names; false when unknown. */
bool view_wrap_mode_parse(const char *name, ossa_wrap *mode);

#endif
