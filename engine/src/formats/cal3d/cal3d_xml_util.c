/* Parsing helpers shared by the Cal3D XML readers. libxml2 is used with a parser context per
 * call and per-parse options only (no network, no DTD loading, no entity substitution, errors
 * kept in the context instead of printed), so no global libxml2 state is touched. */
#define _GNU_SOURCE /* strtod_l, strtoll_l */
#include "formats/cal3d/cal3d_xml_util.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include "core/limits.h"

/* Cal3D XML has two top-level elements (HEADER, then the root): the file is parsed inside this
 * synthetic element, inserted on the first line so that line numbers stay those of the file. */
static const char wrap_open[] = "<ossa-cal3d-file>";
static const char wrap_close[] = "</ossa-cal3d-file>";

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int line_at(const uint8_t *p, size_t upto)
{
    int line = 1;
    for (size_t i = 0; i < upto; i++)
        line += p[i] == '\n';
    return line;
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
        return keep(x, xmlNodeListGetString(x->doc, c, 1));
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

ossa_status ossa_xml_parse_floats(ossa_xml *x, int line, const char *what, const char *s,
                                  float *out, int count)
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
        long long v = strtoll_l(p, &end, 10, x->c_locale);
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
    return ossa_xml_parse_floats(x, ossa_xml_line(n), ctx, v, out, 1);
}

/* Finds needle (ASCII, case-insensitive) in p[0..n). */
static const uint8_t *find_ci(const uint8_t *p, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (strncasecmp((const char *)p + i, needle, k) == 0)
            return p + i;
    return NULL;
}

/* The encodings Cal3D exporters wrote (and libxml2 converts without printing): UTF-8, Latin-1
 * and its Windows superset, ASCII. Anything else (EBCDIC, say) is refused before libxml2 sees
 * it: its converters write to stderr whatever the parser options say. */
static ossa_status check_encoding(ossa_build *b, const uint8_t *decl, size_t len)
{
    const uint8_t *at = find_ci(decl, len, "encoding");
    if (!at)
        return OSSA_OK;
    size_t i = (size_t)(at - decl) + 8;
    while (i < len && is_space((char)decl[i]))
        i++;
    if (i < len && decl[i] == '=')
        i++;
    while (i < len && is_space((char)decl[i]))
        i++;
    char quote = i < len ? (char)decl[i] : 0;
    if (quote != '"' && quote != '\'')
        return ossa_fail_line(b, OSSA_ERR_FORMAT, 1, "the XML declaration's encoding has no "
                              "quoted name");
    size_t start = ++i;
    while (i < len && decl[i] != (uint8_t)quote)
        i++;
    char name[32];
    size_t n = i - start < sizeof name - 1 ? i - start : sizeof name - 1;
    memcpy(name, decl + start, n);
    name[n] = 0;
    static const char *const known[] = {"UTF-8", "UTF8", "ISO-8859-1", "ISO8859-1", "ISO_8859-1",
                                        "LATIN1", "LATIN-1", "US-ASCII", "ASCII", "WINDOWS-1252",
                                        "CP1252"};
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (strcasecmp(name, known[k]) == 0 && i - start < sizeof name)
            return OSSA_OK;
    return ossa_fail_line(b, OSSA_ERR_UNSUPPORTED, 1, "the XML declaration names the encoding "
                          "'%s'; Cal3D XML is UTF-8, Latin-1 or ASCII", name);
}

/* libxml2 checks an element's attributes for duplicates pairwise: 200,000 attributes on one
 * element took minutes. One linear pass counts every element's attributes (an '=' inside a
 * tag, outside quotes) and refuses a file with more than any Cal3D element has, before
 * libxml2 sees it. Comments, CDATA and processing instructions are skipped. */
#define XML_MAX_ATTRIBUTES 64u
static ossa_status check_attribute_counts(ossa_build *b, const uint8_t *p, size_t n)
{
    int line = 1, tag_line = 0;
    uint32_t attributes = 0;
    char quote = 0;
    bool in_tag = false;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (c == '\n')
            line++;
        if (quote) {
            if (c == (uint8_t)quote)
                quote = 0;
        } else if (in_tag) {
            if (c == '"' || c == '\'')
                quote = (char)c;
            else if (c == '>')
                in_tag = false;
            else if (c == '=' && ++attributes > XML_MAX_ATTRIBUTES)
                return ossa_fail_line(b, OSSA_ERR_RANGE, tag_line, "an element with more than "
                                      "%u attributes", XML_MAX_ATTRIBUTES);
        } else if (c == '<') {
            const char *end = NULL;
            if (i + 4 <= n && memcmp(p + i, "<!--", 4) == 0)
                end = "-->";
            else if (i + 9 <= n && memcmp(p + i, "<![CDATA[", 9) == 0)
                end = "]]>";
            else if (i + 2 <= n && p[i + 1] == '?')
                end = "?>";
            if (end) {
                /* Skip to the end marker, counting lines; an unclosed one is libxml2's to
                 * report. */
                size_t k = strlen(end), j = i + 2;
                while (j + k <= n && memcmp(p + j, end, k) != 0)
                    line += p[j++] == '\n';
                i = j + k - 1;
                continue;
            }
            in_tag = true;
            tag_line = line;
            attributes = 0;
        }
    }
    return OSSA_OK;
}

/* Builds "[declaration] <wrap> content </wrap>" with the same line breaks before the content
 * as the file had. A UTF-8 BOM is dropped (the wrapped text is UTF-8 anyway). */
static ossa_status wrap_content(ossa_xml *x, const uint8_t *data, size_t size, char **out,
                                size_t *out_len, bool *has_decl)
{
    ossa_build *b = x->b;
    const uint8_t *p = data;
    size_t n = size;
    *out = NULL;
    *has_decl = false;
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
        p += 3;
        n -= 3;
    }
    if (n >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF)))
        return ossa_fail_line(b, OSSA_ERR_UNSUPPORTED, 1, "UTF-16 Cal3D XML is not supported");
    /* Cal3D files never have a DTD; refusing one here keeps entity tricks out entirely. */
    const uint8_t *dtd = find_ci(p, n, "<!DOCTYPE");
    if (!dtd)
        dtd = find_ci(p, n, "<!ENTITY");
    if (dtd)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, line_at(p, (size_t)(dtd - p)),
                              "a DTD or entity declaration is not allowed in Cal3D XML");
    size_t lead = 0;
    while (lead < n && is_space((char)p[lead]))
        lead++;
    size_t decl_len = 0;
    if (n - lead >= 6 && memcmp(p + lead, "<?xml", 5) == 0 && is_space((char)p[lead + 5])) {
        const uint8_t *q = find_ci(p + lead, n - lead, "?>");
        if (!q)
            return ossa_fail_line(b, OSSA_ERR_FORMAT, line_at(p, lead),
                                  "the XML declaration is not closed");
        decl_len = (size_t)(q + 2 - (p + lead));
        *has_decl = true;
        OSSA_TRY(check_encoding(b, p + lead, decl_len));
    }
    OSSA_TRY(check_attribute_counts(b, p, n));
    size_t total = n + sizeof wrap_open + sizeof wrap_close;
    if (total > INT32_MAX)
        return ossa_fail(b, OSSA_ERR_RANGE, -1, "XML file of %zu bytes is too large", size);
    char *buf = malloc(total);
    if (!buf)
        return ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot allocate %zu bytes", total);
    size_t len = 0;
    memcpy(buf + len, p + lead, decl_len); /* the declaration must come first */
    len += decl_len;
    memcpy(buf + len, p, lead);            /* then the white space that preceded it */
    len += lead;
    memcpy(buf + len, wrap_open, sizeof wrap_open - 1);
    len += sizeof wrap_open - 1;
    memcpy(buf + len, p + lead + decl_len, n - lead - decl_len);
    len += n - lead - decl_len;
    memcpy(buf + len, wrap_close, sizeof wrap_close - 1);
    len += sizeof wrap_close - 1;
    buf[len] = 0;
    *out = buf;
    *out_len = len;
    return OSSA_OK;
}

/* The first parse error (libxml2 keeps only the last one, often a consequence of the first).
 * Hooked on this parser context's own SAX handler: nothing global is touched. */
typedef struct first_error {
    bool set;
    int line, code;
    char message[300];
} first_error;

static void record_error(void *data, xmlErrorPtr e)
{
    (void)data;
    if (!e || e->level < XML_ERR_ERROR || !e->ctxt)
        return;
    first_error *fe = ((xmlParserCtxtPtr)e->ctxt)->_private;
    if (!fe || fe->set)
        return;
    fe->set = true;
    fe->line = e->line;
    fe->code = e->code;
    snprintf(fe->message, sizeof fe->message, "%s", e->message ? e->message : "malformed XML");
}

/* libxml2 names the synthetic wrapper element in tag-mismatch messages; say what it means in the
 * file instead (a tag still open at its end, or a closing tag with no opening one). */
static void reword_wrapper(char *message, size_t size)
{
    static const char mismatch[] = "Opening and ending tag mismatch: ";
    const char *wrap = wrap_open + 1;
    size_t wrap_len = sizeof wrap_open - 3;
    if (strncmp(message, mismatch, sizeof mismatch - 1) == 0) {
        char open[128], close[128];
        long line;
        if (sscanf(message + sizeof mismatch - 1, "%127s line %ld and %127s", open, &line,
                   close) == 3) {
            if (strlen(close) == wrap_len && strncmp(close, wrap, wrap_len) == 0) {
                snprintf(message, size, "the file ends inside <%.80s> (opened on line %ld): "
                         "</%.80s> is missing", open, line, open);
                return;
            }
            if (strlen(open) == wrap_len && strncmp(open, wrap, wrap_len) == 0) {
                snprintf(message, size, "</%.80s> closes an element that was never opened",
                         close);
                return;
            }
            snprintf(message, size, "tag mismatch: <%.80s> (opened on line %ld) is closed by "
                     "</%.80s>", open, line, close);
            return;
        }
    }
    /* Any other message naming the wrapper: it stands for the file as a whole. */
    char *at = strstr(message, wrap);
    if (at) {
        char out[300];
        int n = snprintf(out, sizeof out, "%.*s(the file's top level)%.150s",
                         (int)((size_t)(at - message) < 120 ? at - message : 120), message,
                         at + wrap_len);
        if (n > 0)
            snprintf(message, size, "%.250s", out);
    }
}

static ossa_status parse(ossa_xml *x, const uint8_t *data, size_t size)
{
    ossa_build *b = x->b;
    char *buf;
    size_t len = 0;
    bool has_decl;
    OSSA_TRY(wrap_content(x, data, size, &buf, &len, &has_decl));
    /* Without a declaration the text must be UTF-8; old exporters wrote Latin-1 names. */
    const char *encoding = NULL;
    if (!has_decl && !xmlCheckUTF8((const unsigned char *)buf)) {
        encoding = "ISO-8859-1";
        ossa_warn(b, "not UTF-8 and no XML declaration: read as ISO-8859-1");
    }
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    if (!ctxt) {
        free(buf);
        return ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot create an XML parser");
    }
    /* No XML_PARSE_NOENT / DTDLOAD / HUGE; NOERROR and NOWARNING keep libxml2 from printing. */
    first_error fe = {false, 0, 0, ""};
    ctxt->_private = &fe;
    if (ctxt->sax)
        ctxt->sax->serror = record_error;
    int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                  XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES;
    x->doc = xmlCtxtReadMemory(ctxt, buf, (int)len, NULL, encoding, options);
    free(buf);
    ossa_status st = OSSA_OK;
    if (!x->doc || !ctxt->wellFormed) {
        if (!fe.set) {
            xmlErrorPtr e = xmlCtxtGetLastError(ctxt);
            fe.line = e ? e->line : 0;
            fe.code = e ? e->code : 0;
            snprintf(fe.message, sizeof fe.message, "%s",
                     e && e->message ? e->message : "malformed XML");
        }
        size_t m = strlen(fe.message);
        while (m && is_space(fe.message[m - 1]))
            fe.message[--m] = 0;
        reword_wrapper(fe.message, sizeof fe.message);
        st = ossa_fail_line(b, fe.code == XML_ERR_NO_MEMORY ? OSSA_ERR_NOMEM : OSSA_ERR_FORMAT,
                            fe.line, "XML: %s", fe.message);
    }
    xmlFreeParserCtxt(ctxt);
    return st;
}

ossa_status ossa_xml_open(ossa_xml *x, ossa_build *b, const uint8_t *data, size_t size,
                          const char *magic, const char *root_name)
{
    memset(x, 0, sizeof *x);
    x->b = b;
    x->c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (x->c_locale == (locale_t)0)
        return ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot create the C locale");
    if (size > OSSA_MAX_FILE_SIZE)
        return ossa_fail(b, OSSA_ERR_RANGE, -1, "file of %zu bytes exceeds the limit of %u", size,
                         OSSA_MAX_FILE_SIZE);
    OSSA_TRY(parse(x, data, size));

    xmlNode *wrap = xmlDocGetRootElement(x->doc);
    xmlNode *first = ossa_xml_first(wrap, NULL);
    if (!first)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, 1, "no XML element: not a Cal3D %s file", magic);
    /* Either <HEADER MAGIC VERSION/> then the root, or a root carrying MAGIC/VERSION itself. */
    xmlNode *header = ossa_xml_is(first, "HEADER") ? first : NULL;
    xmlNode *root = header ? ossa_xml_next(first, NULL) : first;
    if (!root)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, ossa_xml_line(header),
                              "<HEADER> is not followed by a <%s> element", root_name);
    const xmlNode *magic_at = header && ossa_xml_attr(x, header, "MAGIC") ? header : root;
    const char *file_magic = ossa_xml_attr(x, magic_at, "MAGIC");
    if (file_magic) {
        if (strcasecmp(magic, "XSF") == 0 && strcasecmp(file_magic, "XFS") == 0)
            ossa_warn(b, "MAGIC \"XFS\" (the typo of the 0.9 format document) read as XSF");
        else if (strcasecmp(file_magic, magic) != 0)
            return ossa_fail_line(b, OSSA_ERR_FORMAT, ossa_xml_line(magic_at),
                                  "MAGIC \"%.40s\": this is not a Cal3D %s file", file_magic,
                                  magic);
    }
    if (!ossa_xml_is(root, root_name))
        return ossa_fail_line(b, OSSA_ERR_FORMAT, ossa_xml_line(root),
                              "root element <%.60s> where a Cal3D %s file has <%s>",
                              (const char *)root->name, magic, root_name);

    /* The header's VERSION, or the root's; an XAF's ANIMATION VERSION overrides the header. */
    const xmlNode *version_at = NULL;
    if (header && ossa_xml_attr(x, header, "VERSION"))
        version_at = header;
    if (ossa_xml_attr(x, root, "VERSION") && (!version_at || strcasecmp(magic, "XAF") == 0))
        version_at = root;
    int64_t version = 1000;
    if (version_at)
        OSSA_TRY(ossa_xml_attr_int(x, version_at, "VERSION", true, 0, INT32_MIN, INT32_MAX,
                                   &version));
    else
        ossa_warn(b, "no VERSION: read as a version 1000 (classic) file");
    OSSA_TRY(ossa_cal3d_check_version(b, version, -1,
                                      version_at ? ossa_xml_line(version_at) : 1, &x->lineage));
    if (ossa_xml_next(root, NULL))
        ossa_warn(b, "line %d: elements after </%s> ignored",
                  ossa_xml_line(ossa_xml_next(root, NULL)), (const char *)root->name);
    x->root = root;
    x->version = (uint32_t)version;
    b->last_version = x->version;
    return OSSA_OK;
}

void ossa_xml_close(ossa_xml *x)
{
    for (size_t i = 0; i < x->owned_count; i++)
        xmlFree(x->owned[i]);
    free(x->owned);
    x->owned = NULL;
    x->owned_count = x->owned_cap = 0;
    if (x->doc)
        xmlFreeDoc(x->doc);
    x->doc = NULL;
    if (x->c_locale != (locale_t)0)
        freelocale(x->c_locale);
    x->c_locale = (locale_t)0;
}
