/* ossa-view's command line (options.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crowd.h"
#include "input.h"
#include "options.h"
#include "playback.h"
#include "script.h"

#define MAX_SCREENSHOT_SIDE 8192
#define MAX_BENCH_FRAMES 1000000L

void view_options_usage(FILE *out)
{
    fputs("usage: ossa-view [OPTIONS] [FILE|FOLDER...]\n"
          "Opens the files as one model (a Cal3D .cfg, or a skeleton with its meshes,\n"
          "animations and materials, or one SKM/SKP, C3S or CFF model; a Qfusion .cfg opens\n"
          "the .skm of the same name); with no file, the built-in demo mannequin. A folder\n"
          "opens its .cfg, C3S or CFF model (the first by name, with a note), else every model\n"
          "file in it and its subfolders. Files and folders dropped on the window replace the\n"
          "model the same way; a model that does not load leaves the current one shown, with\n"
          "the error in the window and on stderr.\n"
          "\n"
          "options:\n"
          "  --screenshot OUT.png  render one frame offscreen into OUT.png and exit\n"
          "  --script FILE         replay timed keys and mouse input from FILE in a hidden\n"
          "                        window, on script time, then exit (format below)\n"
          "  --bench-frames N      render N frames offscreen, one frame period apart, and print\n"
          "                        frame-time statistics as JSON (min/median/mean/p95/max ms)\n"
          "  --size WxH            offscreen size for the three above (default 800x600)\n"
          "  --quit-after N        close the window after N frames (for tests and timing)\n"
          "  --clip C              clip to play, by index or name (default 0)\n"
          "  --time T              start T seconds into the clip (default 0)\n"
          "  --frame-rate FPS      frames per second for stepping and frame numbers (default 30)\n"
          "  --speed S             playback speed, negative plays backwards (default 1)\n"
          "  --mode M              loop, pingpong or once (default loop)\n"
          "  --paused              start paused\n"
          "  --fade SECONDS        cross-fade length of clip changes (default 0.25)\n"
          "  --up auto|y|z         the world's up axis (default auto: from the model's format,\n"
          "                        Y for the demo and CFF, Z for Cal3D, SKM and C3S unless the\n"
          "                        bind pose is clearly taller along Y)\n"
          "  --bones               show the bone overlay from the start (a skeleton without\n"
          "                        a mesh always shows it)\n"
          "  --skinning cpu|gpu    skinning path: the engine's SIMD kernels (default) or\n"
          "                        the vertex shader\n"
          "  --crowd N             N characters of the model (1..65536) on a grid on the ground,\n"
          "                        each with its own phase and speed on the shared clock (seed\n"
          "                        fixed: the same crowd every run); the HUD shows characters,\n"
          "                        vertices a second and the CPU time of update + skin; state\n"
          "                        lines add characters, crowd_times and crowd_palettes\n"
          "                        (checksums), --bench-frames adds characters and cpu_ms\n"
          "  --hud                 draw the HUD into --screenshot too (scripts always do); the\n"
          "                        model is then framed beside its panels, and no frame rate\n"
          "                        is shown (one frame has none)\n"
          "  --allow-outside       follow material texture paths that lead outside the model's\n"
          "                        folders ('..', absolute names, links out), and links to\n"
          "                        files outside a folder opened as the model (otherwise left\n"
          "                        out with a warning). A texture must be a regular file whose\n"
          "                        header declares at most 8192 x 8192 pixels (PNG, JPEG,\n"
          "                        BMP, TGA); others are left out with a warning\n"
          "  --help                this text\n"
          "  --version             the version of ossa-view\n"
          "\n"
          "keys and mouse (F1 or H shows them in the window):\n",
          out);
    size_t count;
    const view_help_row *rows = view_help_rows(&count);
    for (size_t i = 0; i < count; i++)
        fprintf(out, "  %-30s %s\n", rows[i].input, rows[i].effect);
    fputs("\n"
          "script lines (times in seconds, X and Y in 0..1 of the window from its top left):\n"
          "  at T COMMAND      run COMMAND at script time T     wait S   let S seconds pass\n"
          "  key NAME          e.g. key Right, key Shift+Right, key Space, key 2, key F1\n"
          "  click X Y [left|middle|right]\n"
          "  drag X0 Y0 X1 Y1 [left|middle|right] [STEPS]\n"
          "  wheel N           N notches, positive zooms in\n"
          "  drop PATH...      open files or a folder as if dropped\n"
          "  screenshot F.png  the window's picture, HUD included\n"
          "  state             one JSON line on stdout: clip, clip_count, clip_name, time, frame,\n"
          "                    last_frame, duration, speed, playing, mode, fading, skinning,\n"
          "                    model, message, view (the free view x0 y0 x1 y1), clip_rows\n"
          "                    (first, rows, x0, x1, top, row height), font, selected_bone\n"
          "  quit              stop (the end of the script does too); '#' starts a comment\n"
          "\n"
          "The HUD's font is DejaVu Sans (fonts-dejavu-core) or another from the usual places;\n"
          "OSSA_VIEW_FONT=FILE.ttf names one. With none the HUD has no text (a note says so).\n"
          "The CPU skinning kernel is the one a short calibration measures fastest at start\n"
          "(the HUD says \"(measured)\"); OSSA_SKIN_KERNEL=scalar|sse2|avx2|avx512 forces one.\n"
          "\n"
          "exit status: 0 success, 1 bad arguments, a file that does not load, a script\n"
          "that does not parse or a PNG that cannot be written, 3 no display (DISPLAY and\n"
          "WAYLAND_DISPLAY unset, no SDL_VIDEODRIVER named; --screenshot, --script and\n"
          "--bench-frames need none) or no OpenGL 3.3 core context.\n",
          out);
}

static bool parse_size(const char *s, int *w, int *h)
{
    char *end;
    errno = 0;
    long a = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X') || errno)
        return false;
    const char *second = end + 1;
    long b = strtol(second, &end, 10);
    if (end == second || *end || errno)
        return false;
    if (a < 1 || b < 1 || a > MAX_SCREENSHOT_SIDE || b > MAX_SCREENSHOT_SIDE)
        return false;
    *w = (int)a;
    *h = (int)b;
    return true;
}

static bool parse_float(const char *s, float lo, float hi, float *out)
{
    char *end;
    float v = strtof(s, &end);
    if (end == s || *end || !isfinite(v) || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* Returns 0 to go on, or an exit status (-1 for a clean exit after --help). */
int view_options_parse(int argc, char **argv, view_options *o)
{
    memset(o, 0, sizeof *o);
    o->width = 800;
    o->height = 600;
    o->frame_rate = OSSA_CLOCK_FRAME_RATE;
    o->speed = 1.0f;
    o->fade = VIEW_CROSSFADE_SECONDS;
    o->mode = OSSA_WRAP_LOOP;
    o->files = calloc((size_t)argc, sizeof *o->files);
    if (!o->files) {
        fputs("ossa-view: out of memory\n", stderr);
        return VIEW_EXIT_INPUT;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            view_options_usage(stdout);
            return -1;
        } else if (strcmp(a, "--version") == 0) {
            printf("ossa-view %s\n", OSSA_VERSION);
            return -1;
        } else if (strcmp(a, "--allow-outside") == 0) {
            o->allow_outside = true;
        } else if (strcmp(a, "--bones") == 0) {
            o->bones = true;
        } else if (strcmp(a, "--paused") == 0) {
            o->paused = true;
        } else if (strcmp(a, "--hud") == 0) {
            o->hud = true;
        } else if (strcmp(a, "--skinning") == 0 && has_value) {
            const char *v = argv[++i];
            if (strcmp(v, "cpu") == 0) {
                o->skinning = VIEW_SKIN_CPU;
            } else if (strcmp(v, "gpu") == 0) {
                o->skinning = VIEW_SKIN_GPU;
            } else {
                fprintf(stderr, "ossa-view: --skinning '%s' is neither cpu nor gpu\n", v);
                return VIEW_EXIT_INPUT;
            }
        } else if (strcmp(a, "--screenshot") == 0 && has_value) {
            o->screenshot = argv[++i];
            if (!view_png_path(o->screenshot)) {
                fprintf(stderr, "ossa-view: --screenshot writes PNG; give a path ending in .png, "
                                "not '%s'\n", o->screenshot);
                return VIEW_EXIT_INPUT;
            }
        } else if (strcmp(a, "--script") == 0 && has_value) {
            o->script = argv[++i];
        } else if (strcmp(a, "--bench-frames") == 0 && has_value) {
            char *end;
            errno = 0;
            o->bench_frames = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || errno || o->bench_frames < 1 ||
                o->bench_frames > MAX_BENCH_FRAMES) {
                fprintf(stderr, "ossa-view: --bench-frames '%s' is not a count in 1..%ld\n",
                        argv[i], MAX_BENCH_FRAMES);
                return VIEW_EXIT_INPUT;
            }
        } else if (strcmp(a, "--quit-after") == 0 && has_value) {
            char *end;
            errno = 0;
            o->quit_after = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || errno || o->quit_after < 1 ||
                o->quit_after > MAX_BENCH_FRAMES) {
                fprintf(stderr, "ossa-view: --quit-after '%s' is not a count in 1..%ld\n",
                        argv[i], MAX_BENCH_FRAMES);
                return VIEW_EXIT_INPUT;
            }
        } else if (strcmp(a, "--crowd") == 0 && has_value) {
            char *end;
            errno = 0;
            long n = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || errno || n < 1 || n > VIEW_CROWD_MAX) {
                fprintf(stderr, "ossa-view: --crowd '%s' is not a count in 1..%d\n", argv[i],
                        VIEW_CROWD_MAX);
                return VIEW_EXIT_INPUT;
            }
            o->crowd = (unsigned)n;
        } else if (strcmp(a, "--size") == 0 && has_value) {
            if (!parse_size(argv[++i], &o->width, &o->height)) {
                fprintf(stderr, "ossa-view: --size '%s' is not WxH with sides 1..%d\n", argv[i],
                        MAX_SCREENSHOT_SIDE);
                return VIEW_EXIT_INPUT;
            }
        } else if (strcmp(a, "--clip") == 0 && has_value) {
            o->clip = argv[++i];
        } else if (strcmp(a, "--time") == 0 && has_value) {
            if (!parse_float(argv[++i], -1e9f, 1e9f, &o->time)) {
                fprintf(stderr, "ossa-view: --time '%s' is not a number of seconds\n", argv[i]);
                return VIEW_EXIT_INPUT;
            }
        } else if (strcmp(a, "--frame-rate") == 0 && has_value) {
            if (!parse_float(argv[++i], 1.0f, 1000.0f, &o->frame_rate)) {
                fprintf(stderr, "ossa-view: --frame-rate '%s' is not 1..1000 frames a second\n",
                        argv[i]);
                return VIEW_EXIT_INPUT;
            }
        } else if (strcmp(a, "--speed") == 0 && has_value) {
            if (!parse_float(argv[++i], -OSSA_CLOCK_SPEED_MAX, OSSA_CLOCK_SPEED_MAX, &o->speed) ||
                fabsf(o->speed) < OSSA_CLOCK_SPEED_MIN) {
                fprintf(stderr, "ossa-view: --speed '%s' is not within +-%g..%g\n", argv[i],
                        (double)OSSA_CLOCK_SPEED_MIN, (double)OSSA_CLOCK_SPEED_MAX);
                return VIEW_EXIT_INPUT;
            }
        } else if (strcmp(a, "--fade") == 0 && has_value) {
            if (!parse_float(argv[++i], 0.001f, 60.0f, &o->fade)) {
                fprintf(stderr, "ossa-view: --fade '%s' is not 0.001..60 seconds\n", argv[i]);
                return VIEW_EXIT_INPUT;
            }
        } else if (strcmp(a, "--mode") == 0 && has_value) {
            if (!view_wrap_mode_parse(argv[++i], &o->mode)) {
                fprintf(stderr, "ossa-view: --mode '%s' is not loop, pingpong or once\n",
                        argv[i]);
                return VIEW_EXIT_INPUT;
            }
        } else if (strcmp(a, "--up") == 0 && has_value) {
            const char *v = argv[++i];
            if (strcmp(v, "auto") == 0) {
                o->up = VIEW_UP_AUTO;
            } else if (strcmp(v, "y") == 0 || strcmp(v, "Y") == 0) {
                o->up = VIEW_UP_Y;
            } else if (strcmp(v, "z") == 0 || strcmp(v, "Z") == 0) {
                o->up = VIEW_UP_Z;
            } else {
                fprintf(stderr, "ossa-view: --up '%s' is not auto, y or z\n", v);
                return VIEW_EXIT_INPUT;
            }
        } else if (strcmp(a, "--") == 0) {
            while (++i < argc)
                o->files[o->file_count++] = argv[i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ossa-view: unknown option or missing value: %s (see --help)\n", a);
            return VIEW_EXIT_INPUT;
        } else {
            o->files[o->file_count++] = a;
        }
    }
    if ((o->screenshot != NULL) + (o->script != NULL) + (o->bench_frames > 0) > 1) {
        fputs("ossa-view: --screenshot, --script and --bench-frames exclude one another\n",
              stderr);
        return VIEW_EXIT_INPUT;
    }
    return 0;
}

void view_options_free(view_options *o)
{
    free(o->files);
    o->files = NULL;
    o->file_count = 0;
}
