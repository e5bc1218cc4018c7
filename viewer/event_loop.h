/* ossa-view's run: the model opened, then one of a PNG screenshot, a script replayed on script
 * time, a frame-time benchmark or the interactive window loop. SDL events become app.h's
 * abstract input; script commands are replayed as SDL events, so a script and a user take the
 * same path. */
#ifndef OSSA_VIEW_EVENT_LOOP_H
#define OSSA_VIEW_EVENT_LOOP_H

#include "app.h"

/* Runs what app->opt asks for: 0 or an exit status (options.h). */
int view_run(view_app *app);
/* Frees everything view_run made, whatever it got to. */
void view_shutdown(view_app *app);

#endif
