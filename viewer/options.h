/* ossa-view's command line: the options it takes, their parser and the --help text. No GL and
 * no SDL here. */
#ifndef OSSA_VIEW_OPTIONS_H
#define OSSA_VIEW_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "camera.h"
#include "display.h"
#include "ossa/sample.h"

/* Exit statuses: 1 for bad input (arguments, a file that does not load, a script that does not
 * parse, a PNG that cannot be written), 3 when no window or OpenGL 3.3 context can be had
 * (tests tell the two apart). */
enum { VIEW_EXIT_INPUT = 1, VIEW_EXIT_DISPLAY = 3 };

/* Seconds a clip change cross-fades over unless --fade says otherwise. */
#define VIEW_CROSSFADE_SECONDS 0.25f

typedef struct view_options {
    const char **files;
    size_t file_count;
    const char *screenshot;
    const char *script;
    long bench_frames;
    long quit_after;    /* --quit-after N: the interactive loop ends after N frames */
    int width, height;
    const char *clip;   /* index or name, NULL: clip 0 */
    float time;
    float frame_rate;
    float speed;
    float fade;
    ossa_wrap mode;
    view_up_axis up;
    bool paused;
    bool bones;
    bool hud;           /* --screenshot draws the HUD too */
    bool allow_outside; /* --allow-outside: texture paths may leave the model's folders */
    view_skinning skinning;
    unsigned crowd;     /* --crowd N: N characters (crowd.h); 0: the single model */
} view_options;

/* The --help text. */
void view_options_usage(FILE *out);
/* Fills o from argv (o->files points into argv; free it with view_options_free). Returns 0 to go
 * on, -1 after --help or --version (printed: exit cleanly), or an exit status with the reason
 * on stderr. */
int view_options_parse(int argc, char **argv, view_options *o);
void view_options_free(view_options *o);

#endif
