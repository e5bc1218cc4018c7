/* XRF colours read as libcal3d 0.11 reads them (docs/FORMATS.md, "XRF colour components").
 *
 * 0.11's loadXmlCoreMaterial pushes the text of AMBIENT, DIFFUSE and SPECULAR, in that order,
 * into ONE std::stringstream and reads four ints from it after each push (`str.clear(); str <<
 * text; str >> r >> g >> b >> a;`), then casts each to unsigned char. So a component stops at
 * its first non-digit ("127.5" gives 127), whatever is left unread stays in the stream in front
 * of the next colour's text, a failed read leaves the stream failed until the next clear() (the
 * remaining components of that colour keep their previous values), and a value out of 0..255
 * wraps. Real files need this: Blender's Cal3D exporter writes `255 255 255 127.5`. TinyXML,
 * which 0.11 parses with, hands over element text with its white space condensed (trimmed, runs
 * made one space), so the pushes join without a separator. */
#include <limits.h>
#include <string.h>

#include "cal3d_xml_util.h"

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Appends text to the stream as TinyXML condenses it. */
static void push_text(ossa_xml_colour_stream *s, const char *text)
{
    const char *p = text ? text : "";
    bool pending_space = false;
    while (is_ws(*p))
        p++;
    for (; *p; p++) {
        if (is_ws(*p)) {
            pending_space = true;
            continue;
        }
        if (pending_space && s->len < sizeof s->buf - 1)
            s->buf[s->len++] = ' ';
        pending_space = false;
        if (s->len < sizeof s->buf - 1)
            s->buf[s->len++] = *p;
        else
            s->truncated = true;
    }
    s->buf[s->len] = '\0';
}

/* One `str >> int`, libstdc++'s way: the sentry refuses a stream not good (the value is kept)
 * and, skipping white space, fails at the end (kept too); num_get reads a sign and decimal
 * digits into a long: no digit gives 0 and failbit, overflow the limit and failbit; the int is
 * then clamped with failbit. Reaching the end sets eofbit, so the next read fails. */
static void read_int(ossa_xml_colour_stream *s, int *value)
{
    if (s->fail || s->eof) {
        s->fail = true;
        return;
    }
    while (s->pos < s->len && is_ws(s->buf[s->pos]))
        s->pos++;
    if (s->pos >= s->len) {
        s->eof = s->fail = true;
        return;
    }
    bool negative = false;
    if (s->buf[s->pos] == '+' || s->buf[s->pos] == '-')
        negative = s->buf[s->pos++] == '-';
    long long v = 0;
    bool digits = false, overflow = false;
    while (s->pos < s->len && s->buf[s->pos] >= '0' && s->buf[s->pos] <= '9') {
        digits = true;
        if (v <= (LLONG_MAX - 9) / 10)
            v = v * 10 + (s->buf[s->pos] - '0');
        else
            overflow = true;
        s->pos++;
    }
    if (s->pos >= s->len)
        s->eof = true;
    if (!digits) {
        *value = 0;
        s->fail = true;
        return;
    }
    if (overflow || v > LONG_MAX) {
        v = negative ? LONG_MIN : LONG_MAX;
        s->fail = true;
    } else if (negative) {
        v = -v;
    }
    if (v < INT_MIN || v > INT_MAX) {
        *value = v < 0 ? INT_MIN : INT_MAX;
        s->fail = true;
        return;
    }
    *value = (int)v;
}

/* True when text is exactly four decimal integers in 0..255 (the written form). */
static bool plain_colour(const char *text)
{
    const char *p = text ? text : "";
    for (int i = 0; i < 4; i++) {
        while (is_ws(*p))
            p++;
        int v = 0, n = 0;
        while (*p >= '0' && *p <= '9' && n < 4) {
            v = v * 10 + (*p++ - '0');
            n++;
        }
        if (n == 0 || n > 3 || v > 255 || (*p && !is_ws(*p)))
            return false;
    }
    while (is_ws(*p))
        p++;
    return *p == '\0';
}

bool ossa_xml_colour_read(ossa_xml_colour_stream *s, const char *text, uint8_t rgba[4])
{
    /* str.clear() then str << text: the read position stays where the last read left it. */
    bool leftover = s->pos < s->len;
    s->fail = s->eof = false;
    if (s->pos > 0) { /* drop what was read; the rest keeps its place in front */
        memmove(s->buf, s->buf + s->pos, s->len - s->pos);
        s->len -= s->pos;
        s->pos = 0;
    }
    push_text(s, text);
    for (int i = 0; i < 4; i++) {
        read_int(s, &s->value[i]);
        rgba[i] = (uint8_t)(unsigned)s->value[i];
    }
    return !leftover && plain_colour(text);
}
