#include "script.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "input.h"
#include "ossa/files.h"

/* Caps that keep a hostile script from eating memory or time. */
#define SCRIPT_MAX_BYTES (16u << 20)
#define SCRIPT_MAX_TOKENS 64
#define SCRIPT_MAX_TIME 86400.0
#define SCRIPT_MAX_STEPS 10000

static bool fail(char *err, size_t err_size, const char *name, int line, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(err, err_size, "%s:%d: %s", name, line, what);
    return false;
}

static bool parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v))
        return false;
    *out = v;
    return true;
}

static bool parse_unit(const char *s, float *out)
{
    double v;
    if (!parse_double(s, &v) || v < 0.0 || v > 1.0)
        return false;
    *out = (float)v;
    return true;
}

static bool parse_button(const char *s, int *button)
{
    if (strcasecmp(s, "left") == 0)
        *button = VIEW_BUTTON_LEFT;
    else if (strcasecmp(s, "middle") == 0)
        *button = VIEW_BUTTON_MIDDLE;
    else if (strcasecmp(s, "right") == 0)
        *button = VIEW_BUTTON_RIGHT;
    else
        return false;
    return true;
}

/* Joins tokens with '\n' into a new string. */
static char *join(char **tok, size_t n)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += strlen(tok[i]) + 1;
    char *out = malloc(len ? len : 1);
    if (!out)
        return NULL;
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (i)
            strcat(out, "\n");
        strcat(out, tok[i]);
    }
    return out;
}

/* Parses one command (tokens without the "at T" prefix) into c. */
static bool parse_command(char **tok, size_t n, view_script_cmd *c, const char *name, int line,
                          char *err, size_t err_size)
{
    const char *op = tok[0];
    c->button = VIEW_BUTTON_LEFT;
    if (strcasecmp(op, "key") == 0) {
        if (n != 2)
            return fail(err, err_size, name, line, "key takes one key name");
        c->op = VIEW_SCRIPT_KEY;
        if (!view_key_parse(tok[1], &c->key, &c->mods))
            return fail(err, err_size, name, line, "unknown key '%s'", tok[1]);
    } else if (strcasecmp(op, "click") == 0) {
        c->op = VIEW_SCRIPT_CLICK;
        if (n < 3 || n > 4 || !parse_unit(tok[1], &c->x0) || !parse_unit(tok[2], &c->y0) ||
            (n == 4 && !parse_button(tok[3], &c->button)))
            return fail(err, err_size, name, line,
                        "click takes X Y in 0..1 and an optional left|middle|right");
        c->x1 = c->x0;
        c->y1 = c->y0;
    } else if (strcasecmp(op, "drag") == 0) {
        c->op = VIEW_SCRIPT_DRAG;
        c->steps = 8;
        bool ok = n >= 5 && n <= 7 && parse_unit(tok[1], &c->x0) && parse_unit(tok[2], &c->y0) &&
                  parse_unit(tok[3], &c->x1) && parse_unit(tok[4], &c->y1);
        for (size_t i = 5; ok && i < n; i++) {
            double steps;
            if (parse_button(tok[i], &c->button))
                continue;
            ok = parse_double(tok[i], &steps) && steps >= 1 && steps <= SCRIPT_MAX_STEPS &&
                 steps == floor(steps);
            c->steps = ok ? (int)steps : c->steps;
        }
        if (!ok)
            return fail(err, err_size, name, line,
                        "drag takes X0 Y0 X1 Y1 in 0..1, then optionally a button and a step "
                        "count (1..%d)", SCRIPT_MAX_STEPS);
    } else if (strcasecmp(op, "wheel") == 0) {
        double v;
        c->op = VIEW_SCRIPT_WHEEL;
        if (n != 2 || !parse_double(tok[1], &v) || fabs(v) > 1000.0)
            return fail(err, err_size, name, line, "wheel takes a number of notches");
        c->amount = (float)v;
    } else if (strcasecmp(op, "drop") == 0) {
        c->op = VIEW_SCRIPT_DROP;
        if (n < 2)
            return fail(err, err_size, name, line, "drop takes one or more paths");
        c->path_count = n - 1;
        if (!(c->text = join(tok + 1, n - 1)))
            return fail(err, err_size, name, line, "out of memory");
    } else if (strcasecmp(op, "screenshot") == 0) {
        c->op = VIEW_SCRIPT_SCREENSHOT;
        if (n != 2)
            return fail(err, err_size, name, line, "screenshot takes one file name");
        if (!view_png_path(tok[1]))
            return fail(err, err_size, name, line, "screenshot writes PNG: the file name must end "
                                                   "in .png");
        if (!(c->text = join(tok + 1, 1)))
            return fail(err, err_size, name, line, "out of memory");
    } else if (strcasecmp(op, "state") == 0 && n == 1) {
        c->op = VIEW_SCRIPT_STATE;
    } else if (strcasecmp(op, "quit") == 0 && n == 1) {
        c->op = VIEW_SCRIPT_QUIT;
    } else {
        return fail(err, err_size, name, line, "unknown command '%s' (or wrong arguments)", op);
    }
    return true;
}

bool view_script_parse(const char *text, const char *name, view_script *s, char *err,
                       size_t err_size)
{
    memset(s, 0, sizeof *s);
    size_t len = strlen(text);
    if (len > SCRIPT_MAX_BYTES)
        return fail(err, err_size, name, 0, "more than %u bytes", SCRIPT_MAX_BYTES);
    /* One command at most per line: count the lines to size the array once. */
    size_t lines = 1;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    char *copy = malloc(len + 1);
    s->cmds = calloc(lines, sizeof *s->cmds);
    if (!copy || !s->cmds) {
        free(copy);
        free(s->cmds);
        s->cmds = NULL;
        return fail(err, err_size, name, 0, "out of memory");
    }
    memcpy(copy, text, len + 1);
    double now = 0.0;
    bool ok = true;
    int line = 0;
    for (char *next = copy; ok && next;) {
        char *cur = next;
        next = strchr(cur, '\n');
        if (next)
            *next++ = '\0';
        line++;
        char *hash = strchr(cur, '#');
        if (hash)
            *hash = '\0';
        char *tok[SCRIPT_MAX_TOKENS];
        size_t n = 0;
        char *save = NULL;
        for (char *t = strtok_r(cur, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
            if (n == SCRIPT_MAX_TOKENS) {
                ok = fail(err, err_size, name, line, "more than %d words", SCRIPT_MAX_TOKENS);
                break;
            }
            tok[n++] = t;
        }
        if (!ok || n == 0)
            continue;
        size_t first = 0;
        if (strcasecmp(tok[0], "at") == 0) {
            double t;
            if (n < 3 || !parse_double(tok[1], &t) || t < now || t > SCRIPT_MAX_TIME) {
                ok = fail(err, err_size, name, line,
                          "'at T COMMAND' needs a time from %.3f (the script's time so far) "
                          "to %.0f", now, SCRIPT_MAX_TIME);
                continue;
            }
            now = t;
            first = 2;
        } else if (strcasecmp(tok[0], "wait") == 0) {
            double t;
            if (n != 2 || !parse_double(tok[1], &t) || t < 0.0 || now + t > SCRIPT_MAX_TIME) {
                ok = fail(err, err_size, name, line, "wait takes seconds (>= 0)");
                continue;
            }
            now += t;
            continue;
        }
        view_script_cmd *c = &s->cmds[s->count];
        c->at = now;
        c->line = line;
        ok = parse_command(tok + first, n - first, c, name, line, err, err_size);
        s->count++; /* counted even on failure, so view_script_free releases its text */
    }
    free(copy);
    if (!ok) {
        view_script_free(s);
        return false;
    }
    return true;
}

bool view_script_load(const char *path, view_script *s, char *err, size_t err_size)
{
    memset(s, 0, sizeof *s);
    /* The library's reading: a regular file only (a FIFO would block), at most 16 MiB. */
    uint8_t *bytes;
    size_t got;
    ossa_error why;
    if (ossa_file_read(path, SCRIPT_MAX_BYTES, &bytes, &got, &why) != OSSA_OK) {
        snprintf(err, err_size, "%s: %s", path, why.message);
        return false;
    }
    char *text = (char *)bytes;
    if (memchr(text, '\0', got)) {
        snprintf(err, err_size, "%s: not a text file (NUL byte)", path);
        ossa_file_free(bytes);
        return false;
    }
    bool ok = view_script_parse(text, path, s, err, err_size);
    ossa_file_free(bytes);
    return ok;
}

void view_script_free(view_script *s)
{
    for (size_t i = 0; i < s->count; i++)
        free(s->cmds[i].text);
    free(s->cmds);
    memset(s, 0, sizeof *s);
}

bool view_png_path(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcasecmp(path + n - 4, ".png") == 0 && path[n - 5] != '/';
}
