/* ossa-view --script FILE: timed input replayed against a hidden window, on script time (never
 * the wall clock), so runs are deterministic. No SDL or GL here: the file is parsed into
 * commands up front (any error stops the viewer before it opens a window) and event_loop.c replays
 * them as the SDL events a user would cause, through the same handler as the window's events.
 *
 * One command a line; '#' starts a comment; blank lines are skipped. Times in seconds.
 *   at T CMD                 run CMD at script time T (T never goes back)
 *   wait S                   let S seconds of script time pass
 *   key NAME                 press and release a key: Space, Right, Shift+Right, Tab, 1, F1 ...
 *   click X Y [BUTTON]       press and release at (X, Y), in 0..1 of the window's width and
 *                            height from its top-left corner; BUTTON left (default), right, middle
 *   drag X0 Y0 X1 Y1 [BUTTON] [STEPS]
 *                            press at the first point, move in STEPS (default 8) to the second,
 *                            release
 *   wheel N                  turn the wheel N notches (positive: away from the user, zooms in)
 *   drop PATH...             open files or a folder as if dropped on the window (no spaces in
 *                            paths)
 *   screenshot FILE.png      write the window's picture as it is now, HUD included
 *   state                    print one JSON line on stdout: clip, clip_count, clip_name, time, frame,
 *                            last_frame, duration, speed, playing, mode, fading, skinning, model,
 *                            message, view (the free view: x0 y0 x1 y1 in pixels), clip_rows
 *                            (the clip panel: first row's clip, rows, x0, x1, top, row height),
 *                            font (the file, "" with none)
 *   quit                     stop here (the end of the file does the same)
 * Between commands the viewer advances in steps of at most 1/60 s of script time. */
#ifndef OSSA_VIEW_SCRIPT_H
#define OSSA_VIEW_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>

typedef enum view_script_op {
    VIEW_SCRIPT_KEY,
    VIEW_SCRIPT_CLICK,
    VIEW_SCRIPT_DRAG,
    VIEW_SCRIPT_WHEEL,
    VIEW_SCRIPT_DROP,
    VIEW_SCRIPT_SCREENSHOT,
    VIEW_SCRIPT_STATE,
    VIEW_SCRIPT_QUIT
} view_script_op;

enum { VIEW_BUTTON_LEFT = 1, VIEW_BUTTON_MIDDLE = 2, VIEW_BUTTON_RIGHT = 3 };

typedef struct view_script_cmd {
    view_script_op op;
    double at;               /* script time it runs at */
    int line;                /* in the file, for messages */
    int key;                 /* view_key */
    unsigned mods;           /* VIEW_MOD_* */
    float x0, y0, x1, y1;    /* normalised window coordinates */
    int button;              /* VIEW_BUTTON_* */
    int steps;               /* drag */
    float amount;            /* wheel */
    char *text;              /* screenshot path, or drop paths separated by '\n' (owned) */
    size_t path_count;       /* drop */
} view_script_cmd;

typedef struct view_script {
    view_script_cmd *cmds;
    size_t count;
} view_script;

/* Parses script text (name is used in messages); false with "NAME:LINE: why" in err. */
bool view_script_parse(const char *text, const char *name, view_script *s, char *err,
                       size_t err_size);
/* Reads and parses a file. */
bool view_script_load(const char *path, view_script *s, char *err, size_t err_size);
void view_script_free(view_script *s);

/* Whether path names a PNG (ends in .png, any case): screenshots are written as nothing else. */
bool view_png_path(const char *path);

#endif
