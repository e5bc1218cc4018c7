#include "input.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

view_action view_key_action(int key, unsigned mods)
{
    bool shift = (mods & VIEW_MOD_SHIFT) != 0;
    view_action a = {VIEW_ACT_NONE, 0};
    /* Ctrl and Alt combinations are left to the window manager and the desktop. */
    if (mods & (VIEW_MOD_CTRL | VIEW_MOD_ALT))
        return a;
    if (key >= '1' && key <= '9') {
        a.kind = VIEW_ACT_CLIP;
        a.arg = key - '1';
        return a;
    }
    switch (key) {
    case VIEW_KEY_ESCAPE: a.kind = VIEW_ACT_QUIT; break;
    case VIEW_KEY_SPACE: a.kind = VIEW_ACT_PLAY_PAUSE; break;
    case VIEW_KEY_RIGHT:
        a.kind = shift ? VIEW_ACT_LAST_FRAME : VIEW_ACT_STEP;
        a.arg = 1;
        break;
    case VIEW_KEY_LEFT:
        a.kind = shift ? VIEW_ACT_FIRST_FRAME : VIEW_ACT_STEP;
        a.arg = -1;
        break;
    case VIEW_KEY_HOME: a.kind = VIEW_ACT_FIRST_FRAME; break;
    case VIEW_KEY_END: a.kind = VIEW_ACT_LAST_FRAME; break;
    case VIEW_KEY_UP: a.kind = VIEW_ACT_STEP; a.arg = 10; break;
    case VIEW_KEY_DOWN: a.kind = VIEW_ACT_STEP; a.arg = -10; break;
    case ']': case '=': case VIEW_KEY_KP_PLUS: a.kind = VIEW_ACT_SPEED; a.arg = 1; break;
    case '[': case '-': case VIEW_KEY_KP_MINUS: a.kind = VIEW_ACT_SPEED; a.arg = -1; break;
    case VIEW_KEY_BACKSPACE: a.kind = VIEW_ACT_REVERSE; break;
    case 'L': a.kind = VIEW_ACT_CYCLE_MODE; break;
    case VIEW_KEY_TAB: a.kind = VIEW_ACT_CLIP_STEP; a.arg = shift ? -1 : 1; break;
    case VIEW_KEY_F1: case 'H': a.kind = VIEW_ACT_HELP; break;
    case 'I': a.kind = VIEW_ACT_HUD; break;
    case 'B': a.kind = VIEW_ACT_BONES; break;
    case 'J': a.kind = VIEW_ACT_JOINT_NAMES; break;
    case 'W': a.kind = VIEW_ACT_WIREFRAME; break;
    case 'N': a.kind = VIEW_ACT_NORMALS; break;
    case 'P': a.kind = VIEW_ACT_BIND_POSE; break;
    case 'G': a.kind = VIEW_ACT_GRID; break;
    case 'K': a.kind = VIEW_ACT_SKINNING; break;
    case 'F': a.kind = VIEW_ACT_FRAME_MODEL; break;
    case 'R': a.kind = VIEW_ACT_RESET_CAMERA; break;
    default: break;
    }
    return a;
}

static const struct {
    const char *name;
    int key;
} key_names[] = {
    {"left", VIEW_KEY_LEFT}, {"right", VIEW_KEY_RIGHT}, {"up", VIEW_KEY_UP},
    {"down", VIEW_KEY_DOWN}, {"tab", VIEW_KEY_TAB}, {"escape", VIEW_KEY_ESCAPE},
    {"esc", VIEW_KEY_ESCAPE}, {"backspace", VIEW_KEY_BACKSPACE}, {"home", VIEW_KEY_HOME},
    {"end", VIEW_KEY_END}, {"f1", VIEW_KEY_F1}, {"kp+", VIEW_KEY_KP_PLUS},
    {"kp-", VIEW_KEY_KP_MINUS}, {"space", VIEW_KEY_SPACE},
};

static bool parse_one_key(const char *name, size_t len, int *key)
{
    if (len == 1) {
        unsigned char c = (unsigned char)name[0];
        if (isalpha(c)) {
            *key = toupper(c);
            return true;
        }
        if (isdigit(c) || c == '[' || c == ']' || c == '-' || c == '=') {
            *key = c;
            return true;
        }
        return false;
    }
    for (size_t i = 0; i < sizeof key_names / sizeof key_names[0]; i++)
        if (strlen(key_names[i].name) == len && strncasecmp(name, key_names[i].name, len) == 0) {
            *key = key_names[i].key;
            return true;
        }
    return false;
}

bool view_key_parse(const char *text, int *key, unsigned *mods)
{
    *key = VIEW_KEY_NONE;
    *mods = 0;
    const char *part = text;
    for (;;) {
        /* A '+' right at the start of a part is the key itself only as in "KP+". */
        const char *plus = strchr(part, '+');
        if (plus == part)
            return false;
        if (!plus || (plus[1] == '\0' && plus - part == 2 && strncasecmp(part, "kp", 2) == 0))
            return parse_one_key(part, strlen(part), key);
        size_t len = (size_t)(plus - part);
        if (len == 5 && strncasecmp(part, "shift", 5) == 0)
            *mods |= VIEW_MOD_SHIFT;
        else if (len == 4 && strncasecmp(part, "ctrl", 4) == 0)
            *mods |= VIEW_MOD_CTRL;
        else if (len == 3 && strncasecmp(part, "alt", 3) == 0)
            *mods |= VIEW_MOD_ALT;
        else
            return false;
        part = plus + 1;
    }
}

static const view_help_row help_rows[] = {
    {"Space", "play / pause"},
    {"Left / Right", "one frame back / forward (pauses)"},
    {"Shift+Left / Shift+Right", "first / last frame (also Home / End)"},
    {"Down / Up", "ten frames back / forward"},
    {"[ / ] (- / =, keypad - / +)", "slower / faster; past 1/16 into reverse"},
    {"Backspace", "reverse the direction"},
    {"L", "wrap mode: loop, ping-pong, once"},
    {"1 .. 9", "clip 1 to 9, cross-faded"},
    {"Tab / Shift+Tab", "next / previous clip, cross-faded"},
    {"B", "bones on / off"},
    {"J", "joint names on / off"},
    {"W", "wireframe on / off"},
    {"N", "vertex normals on / off"},
    {"P", "bind pose on / off"},
    {"G", "ground grid on / off"},
    {"K", "skinning on the CPU or the GPU (morphs, springs: CPU)"},
    {"F", "frame the model"},
    {"R", "reset the camera"},
    {"I", "information (HUD) on / off"},
    {"F1 / H", "this help on / off"},
    {"Esc", "quit"},
    {"left drag", "orbit"},
    {"left click on a joint", "select it: its name always shows (elsewhere: none)"},
    {"right or middle drag", "pan"},
    {"wheel", "zoom"},
    {"click or drag the timeline", "scrub"},
    {"click a clip in the clip panel", "play it, cross-faded (any clip, past the ninth too)"},
    {"wheel over the clip panel", "scroll the clip list"},
    {"drop files or a folder", "open them as the model"},
};

const view_help_row *view_help_rows(size_t *count)
{
    *count = sizeof help_rows / sizeof help_rows[0];
    return help_rows;
}

void view_timeline_layout(view_timeline *t, int width, int height)
{
    float w = width > 0 ? (float)width : 1.0f, h = height > 0 ? (float)height : 1.0f;
    /* Symmetric margins, so the window's middle is the clip's middle. */
    float margin = fminf(16.0f, 0.05f * w);
    t->x0 = margin;
    t->x1 = w - margin;
    float bar = fminf(10.0f, 0.04f * h);
    t->y1 = h - fminf(10.0f, 0.04f * h);
    t->y0 = t->y1 - bar;
    t->hit_y0 = t->y0 - fminf(10.0f, 0.04f * h);
}

bool view_timeline_hit(const view_timeline *t, float x, float y)
{
    return x >= t->x0 - 4.0f && x <= t->x1 + 4.0f && y >= t->hit_y0;
}

float view_timeline_time_at(const view_timeline *t, float x, float duration)
{
    if (!(duration > 0.0f) || !(t->x1 > t->x0) || !isfinite(x))
        return 0.0f;
    float f = (x - t->x0) / (t->x1 - t->x0);
    f = f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
    return f * duration;
}

float view_timeline_x_of(const view_timeline *t, float time, float duration)
{
    float f = duration > 0.0f ? time / duration : 0.0f;
    f = f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
    return t->x0 + f * (t->x1 - t->x0);
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted values. */
static double percentile(const double *sorted, size_t n, double p)
{
    size_t rank = (size_t)ceil(p / 100.0 * (double)n);
    return sorted[rank ? rank - 1 : 0];
}

bool view_frame_stats_compute(double *ms, size_t count, view_frame_stats *out)
{
    if (!count)
        return false;
    qsort(ms, count, sizeof *ms, compare_double);
    double sum = 0.0;
    for (size_t i = 0; i < count; i++)
        sum += ms[i];
    out->min = ms[0];
    out->max = ms[count - 1];
    out->mean = sum / (double)count;
    out->median = count % 2 ? ms[count / 2] : 0.5 * (ms[count / 2 - 1] + ms[count / 2]);
    out->p95 = percentile(ms, count, 95.0);
    return true;
}
