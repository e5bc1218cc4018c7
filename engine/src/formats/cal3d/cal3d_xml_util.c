/* Element, attribute and number helpers shared by the Cal3D XML readers; the stream reader
 * itself is in cal3d_xml_stream.c. */
#define _GNU_SOURCE /* strtod_l, strtoll_l */
#include "formats/cal3d/cal3d_xml_util.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ossa/limits.h"

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Remembers a string libxml2 allocated so that it is freed with the document. */
static const char *keep(ossa_xml *x, xmlChar *s)
{
    if (!s)
        return "";
    if (x->owned_count == x->owned_cap) {
        size_t cap = x->owned_cap ? 2 * x->owned_cap : 16;
        xmlChar **grown = realloc(x->owned, cap * sizeof *grown);
        if (!grown) {
            xmlFree(s);
            return "";
        }
        x->owned = grown;
        x->owned_cap = cap;
    }
    x->owned[x->owned_count++] = s;
    return (const char *)s;
}

void ossa_xml_release_strings(ossa_xml *x)
{
    for (size_t i = 0; i < x->owned_count; i++)
        xmlFree(x->owned[i]);
    x->owned_count = 0;
}

int ossa_xml_line(const xmlNode *n)
{
    long line = n ? xmlGetLineNo(n) : 0;
    return line > 0 && line < INT32_MAX ? (int)line : 0;
}

bool ossa_xml_is(const xmlNode *n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && n->name &&
           (!name || strcasecmp((const char *)n->name, name) == 0);
}

xmlNode *ossa_xml_next(const xmlNode *n, const char *name)
{
    for (xmlNode *c = n ? n->next : NULL; c; c = c->next)
        if (ossa_xml_is(c, name))
            return c;
    return NULL;
}

xmlNode *ossa_xml_first(const xmlNode *parent, const char *name)
{
    xmlNode *c = parent ? parent->children : NULL;
    return ossa_xml_is(c, name) ? c : ossa_xml_next(c, name);
}

uint32_t ossa_xml_count(const xmlNode *parent, const char *name)
{
    uint32_t n = 0;
    for (xmlNode *c = ossa_xml_first(parent, name); c; c = ossa_xml_next(c, name))
        if (n < UINT32_MAX)
            n++;
    return n;
}

const char *ossa_xml_attr(ossa_xml *x, const xmlNode *n, const char *name)
{
    if (!n || n->type != XML_ELEMENT_NODE)
        return NULL;
    for (xmlAttr *a = n->properties; a; a = a->next) {
        if (!a->name || strcasecmp((const char *)a->name, name) != 0)
            continue;
        xmlNode *c = a->children;
        if (!c)
            return "";
        if (!c->next && c->type == XML_TEXT_NODE)
            return c->content ? (const char *)c->content : "";
        return keep(x, xmlNodeListGetString(n->doc, c, 1));
    }
    return NULL;
}

const char *ossa_xml_text(ossa_xml *x, const xmlNode *n)
{
    xmlNode *c = n ? n->children : NULL;
    if (!c)
        return "";
    if (!c->next && (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE))
        return c->content ? (const char *)c->content : "";
    return keep(x, xmlNodeGetContent(n));
}

/* Length of the token at p (up to white space), for messages. */
static int token_len(const char *p)
{
    int n = 0;
    while (p[n] && !is_space(p[n]) && n < 40)
        n++;
    return n;
}

/* Checks what follows a number: white space, the end, or (with a warning) one stray '.' after
 * a number that already has a decimal point ("0.0." occurs in an IMVU test mesh). */
static bool number_ends(ossa_xml *x, int line, const char *what, const char *start,
                        const char **end)
{
    const char *e = *end;
    if (!*e || is_space(*e))
        return true;
    if (*e == '.' && (!e[1] || is_space(e[1])) && memchr(start, '.', (size_t)(e - start))) {
        if (!x->warned_stray_dot)
            ossa_warn(x->b, "line %d: %s: stray '.' after the number %.*s ignored", line, what,
                      (int)(e - start), start);
        x->warned_stray_dot = true;
        *end = e + 1;
        return true;
    }
    return false;
}

/* Whether the token at p is a C99 hexadecimal float ("0x10", "-0x1p3"): strtod reads it, but
 * libcal3d reads element text with C++ stream extraction, which stops at the 'x' and gives 0
 * (docs/FORMATS.md, "XML numbers"). */
static bool hex_float(const char *p)
{
    if (*p == '+' || *p == '-')
        p++;
    return p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
}

/* Exactly count numbers; text: element text, read as libcal3d's stream extraction reads it
 * (a hexadecimal float is 0, with a warning), else an attribute, read as atof does. */
static ossa_status parse_floats(ossa_xml *x, int line, const char *what, const char *s,
                                float *out, int count, bool text)
{
    const char *p = s ? s : "";
    for (int i = 0; i < count; i++) {
        while (is_space(*p))
            p++;
        if (!*p)
            return ossa_fail_line(x->b, OSSA_ERR_VALUE, line, "%s: %d number%s expected, found %d",
                                  what, count, count == 1 ? "" : "s", i);
        char *end;
        double d = strtod_l(p, &end, x->c_locale);
        const char *e = end;
        if (e == p || !number_ends(x, line, what, p, &e))
            return ossa_fail_line(x->b, OSSA_ERR_VALUE, line, "%s: '%.*s' is not a number", what,
                                  token_len(p), p);
        if (text && hex_float(p)) {
            if (!x->warned_hex)
                ossa_warn(x->b, "line %d: %s: '%.*s' is hexadecimal, which Cal3D reads as 0: "
                          "read as 0", line, what, token_len(p), p);
            x->warned_hex = true;
            d = *p == '-' ? -0.0 : 0.0;
        }
        if (!isfinite(d) || fabs(d) > FLT_MAX)
            return ossa_fail_line(x->b, OSSA_ERR_VALUE, line, "%s: '%.*s' is not a finite number",
                                  what, token_len(p), p);
        out[i] = (float)d;
        p = e;
    }
    while (is_space(*p))
        p++;
    if (*p)
        return ossa_fail_line(x->b, OSSA_ERR_VALUE, line, "%s: '%.*s' after the %d number%s",
                              what, token_len(p), p, count, count == 1 ? "" : "s");
    return OSSA_OK;
}

ossa_status ossa_xml_parse_floats(ossa_xml *x, int line, const char *what, const char *s,
                                  float *out, int count)
{
    return parse_floats(x, line, what, s, out, count, true);
}

ossa_status ossa_xml_parse_attr_floats(ossa_xml *x, int line, const char *what, const char *s,
                                       float *out, int count)
{
    return parse_floats(x, line, what, s, out, count, false);
}

ossa_status ossa_xml_parse_ints(ossa_xml *x, int line, const char *what, const char *s,
                                int64_t *out, int count, int64_t lo, int64_t hi)
{
    const char *p = s ? s : "";
    for (int i = 0; i < count; i++) {
        while (is_space(*p))
            p++;
        if (!*p)
            return ossa_fail_line(x->b, OSSA_ERR_VALUE, line, "%s: %d integer%s expected, found %d",
                                  what, count, count == 1 ? "" : "s", i);
        char *end;
        errno = 0;
#ifdef __EMSCRIPTEN__
        /* emscripten's libc (musl) has no strtoll_l; its strtoll ignores the locale */
        long long v = strtoll(p, &end, 10);
#else
        long long v = strtoll_l(p, &end, 10, x->c_locale);
#endif
        if (end == p || (*end && !is_space(*end)))
            return ossa_fail_line(x->b, OSSA_ERR_VALUE, line, "%s: '%.*s' is not an integer",
                                  what, token_len(p), p);
        if (errno == ERANGE || v < lo || v > hi)
            return ossa_fail_line(x->b, OSSA_ERR_RANGE, line, "%s: %.*s not in %lld..%lld", what,
                                  token_len(p), p, (long long)lo, (long long)hi);
        out[i] = v;
        p = end;
    }
    while (is_space(*p))
        p++;
    if (*p)
        return ossa_fail_line(x->b, OSSA_ERR_VALUE, line, "%s: '%.*s' after the %d integer%s",
                              what, token_len(p), p, count, count == 1 ? "" : "s");
    return OSSA_OK;
}

ossa_status ossa_xml_child_floats(ossa_xml *x, const xmlNode *parent, const char *child,
                                  const char *what, float *out, int count)
{
    xmlNode *c = ossa_xml_first(parent, child);
    if (!c)
        return ossa_fail_line(x->b, OSSA_ERR_FORMAT, ossa_xml_line(parent), "%s: no <%s> element",
                              what, child);
    char ctx[200];
    snprintf(ctx, sizeof ctx, "%s %s", what, (const char *)c->name);
    return ossa_xml_parse_floats(x, ossa_xml_line(c), ctx, ossa_xml_text(x, c), out, count);
}

ossa_status ossa_xml_attr_int(ossa_xml *x, const xmlNode *n, const char *attr, bool required,
                              int64_t def, int64_t lo, int64_t hi, int64_t *out)
{
    const char *v = ossa_xml_attr(x, n, attr);
    if (!v) {
        *out = def;
        if (required)
            return ossa_fail_line(x->b, OSSA_ERR_FORMAT, ossa_xml_line(n),
                                  "<%s> has no %s attribute", (const char *)n->name, attr);
        return OSSA_OK;
    }
    char ctx[120];
    snprintf(ctx, sizeof ctx, "%s %s", (const char *)n->name, attr);
    return ossa_xml_parse_ints(x, ossa_xml_line(n), ctx, v, out, 1, lo, hi);
}

ossa_status ossa_xml_attr_float(ossa_xml *x, const xmlNode *n, const char *attr, bool required,
                                float def, float *out)
{
    const char *v = ossa_xml_attr(x, n, attr);
    if (!v) {
        *out = def;
        if (required)
            return ossa_fail_line(x->b, OSSA_ERR_FORMAT, ossa_xml_line(n),
                                  "<%s> has no %s attribute", (const char *)n->name, attr);
        return OSSA_OK;
    }
    char ctx[120];
    snprintf(ctx, sizeof ctx, "%s %s", (const char *)n->name, attr);
    return ossa_xml_parse_attr_floats(x, ossa_xml_line(n), ctx, v, out, 1);
}

ossa_status ossa_xml_check_length(ossa_xml *x, int line, const char *what, size_t n)
{
    /* The cap the binary readers put on every string (docs/FORMATS.md, "XML strings"). */
    if (n > OSSA_MAX_STRING)
        return ossa_fail_line(x->b, OSSA_ERR_RANGE, line, "%s of %zu bytes is longer than the "
                              "limit of %u bytes", what, n, OSSA_MAX_STRING);
    return OSSA_OK;
}

ossa_status ossa_xml_dup_str(ossa_xml *x, int line, const char *what, const char **out,
                             const char *s)
{
    size_t n = strnlen(s, (size_t)OSSA_MAX_STRING + 1);
    OSSA_TRY(ossa_xml_check_length(x, line, what, n > OSSA_MAX_STRING ? strlen(s) : n));
    return ossa_build_strndup(x->b, out, s, n);
}

ossa_status ossa_xml_check_hint(ossa_xml *x, const xmlNode *n, const char *attr, uint32_t actual,
                                const char *child)
{
    int64_t hint = actual; /* set by the call below; GCC -O3 cannot see it */
    OSSA_TRY(ossa_xml_attr_int(x, n, attr, false, actual, INT32_MIN, INT32_MAX, &hint));
    if (hint != (int64_t)actual)
        ossa_warn(x->b, "line %d: %s=\"%lld\" but %u <%s> element%s", ossa_xml_line(n), attr,
                  (long long)hint, actual, child, actual == 1 ? "" : "s");
    return OSSA_OK;
}
