/* ossa-view: opens a model (or the built-in demo), plays its clips and renders it with OpenGL
 * 3.3 core, with a HUD, a timeline and a help overlay. --screenshot renders one frame offscreen
 * into a PNG and exits; --script replays timed input on script time; --bench-frames measures
 * frame times. The command line is options.c; what actions do is app.c (no GL, no SDL); opening
 * models files.c; the window and frames window.c; the run and its events event_loop.c. */
#include <string.h>

#include "app.h"
#include "event_loop.h"
#include "options.h"

int main(int argc, char **argv)
{
    view_app app;
    memset(&app, 0, sizeof app);
    int status = view_options_parse(argc, argv, &app.opt);
    if (status == 0)
        status = view_run(&app);
    else if (status < 0)
        status = 0;
    view_shutdown(&app);
    view_options_free(&app.opt);
    return status;
}
