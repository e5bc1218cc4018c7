/* The Cal3D XML pre-scan: one linear pass over the file's tags before libxml2 sees it. It
 * refuses what libxml2 would choke on (more than 64 attributes on an element, nesting past 256,
 * records with thousands of elements inside), counts every container's children by kind, and
 * lists the comments and processing instructions outside records that the input callback
 * blanks: libxml2's reader keeps those nodes until the end of the file (8.8 MB of bare comments
 * peaked at 246 MB), and the readers never look at them. */
#include "formats/cal3d/cal3d_xml_util.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <libxml/parserInternals.h>

#include "io/file_io.h"

#define XML_MAX_ATTRIBUTES 64u    /* on one element; Cal3D elements have at most 8 */
#define XML_MAX_DEPTH 256u        /* libxml2's own default limit */
#define XML_RECORD_MAX_ELEMENTS 8192u /* inside one record: a BONE's 4,096 CHILDID and slack */
#define XML_RECORD_MAX_ATTRIBUTES 8192u
/* Blanked comments join the text around them into one node, and libxml2 refuses a text node
 * over 10,000,000 bytes (without XML_PARSE_HUGE): joined text stays under a third of that, as
 * a byte of Windows-1252 may take three in UTF-8. */
#define XML_BLANK_TEXT_MAX 3000000u

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

typedef struct scan_frame {
    const ossa_xml_kind *kind; /* a container's kind, else NULL */
    uint32_t occurrence;
} scan_frame;

typedef struct scan {
    ossa_xml *x;
    const ossa_xml_kind *root_kind;
    ossa_xml_high_bytes high;
    size_t blank_cap;
    size_t text_start;           /* where the text node libxml2 is building began */
    bool pending;                /* a comment or instruction not yet decided */
    size_t pending_start, pending_end;
    scan_frame stack[XML_MAX_DEPTH];
    uint32_t depth, top_level;
    bool header_seen;
    uint32_t record_depth; /* 0: not inside a record, else its depth + 1 */
    uint32_t record_elements, record_attributes;
    int record_line;
} scan;

static bool name_is(const uint8_t *name, size_t len, const char *want)
{
    return strlen(want) == len && strncasecmp((const char *)name, want, len) == 0;
}

static ossa_status push_occurrence(scan *s, const ossa_xml_kind *kind, uint32_t *out)
{
    ossa_xml *x = s->x;
    (void)kind;
    if (x->occurrence_count == UINT32_MAX)
        return ossa_fail(x->b, OSSA_ERR_RANGE, -1, "too many XML elements");
    if ((x->occurrence_count & (x->occurrence_count - 1)) == 0) { /* 0, 1, 2, 4...: grow */
        size_t cap = x->occurrence_count ? 2 * (size_t)x->occurrence_count : 1;
        ossa_xml_occurrence *grown = realloc(x->occurrences, cap * sizeof *grown);
        if (!grown)
            return ossa_fail(x->b, OSSA_ERR_NOMEM, -1, "cannot allocate the XML pre-scan");
        x->occurrences = grown;
    }
    *out = x->occurrence_count;
    memset(&x->occurrences[*out], 0, sizeof x->occurrences[*out]);
    x->occurrences[*out].end = ++x->occurrence_count;
    return OSSA_OK;
}

/* A start tag name[0..len) at the current depth, on line: decides what the element is to the
 * reader and counts it. *opened tells whether a frame was pushed (not for "<a/>"). */
static ossa_status scan_start(scan *s, const uint8_t *name, size_t len, int line, bool empty)
{
    ossa_build *b = s->x->b;
    if (s->record_depth) {
        if (++s->record_elements > XML_RECORD_MAX_ELEMENTS)
            return ossa_fail_line(b, OSSA_ERR_RANGE, s->record_line, "an element with more than "
                                  "%u elements inside", XML_RECORD_MAX_ELEMENTS);
    }
    const ossa_xml_kind *container = NULL;
    bool record = false;
    uint32_t occurrence = 0;
    if (s->depth == 0) {
        /* Top level: an optional HEADER, then the root (what ossa_xml_read expects). */
        uint32_t rank = s->top_level++;
        if (rank == 0 && name_is(name, len, "HEADER"))
            s->header_seen = record = true;
        else if (rank == (s->header_seen ? 1u : 0u)) {
            if (s->root_kind->children)
                container = s->root_kind;
            else
                record = true;
        }
    } else if (!s->record_depth) {
        scan_frame *parent = &s->stack[s->depth - 1];
        const ossa_xml_kind *pk = parent->kind;
        for (uint32_t i = 0; pk && i < pk->child_count; i++) {
            const ossa_xml_kind *k = &pk->children[i];
            if (!name_is(name, len, k->name))
                continue;
            uint32_t *count = &s->x->occurrences[parent->occurrence].counts[i];
            if (*count < UINT32_MAX)
                (*count)++;
            if (!k->children)
                record = true;
            else if (*count <= k->cap)
                container = k; /* past the cap the reader stops at the parent */
            break;
        }
    }
    if (container)
        OSSA_TRY(push_occurrence(s, container, &occurrence));
    if (record && !s->record_depth) {
        s->record_depth = s->depth + 1;
        s->record_elements = 0;
        s->record_attributes = 0;
        s->record_line = line;
    }
    if (empty) {
        if (record && s->record_depth == s->depth + 1)
            s->record_depth = 0;
        return OSSA_OK;
    }
    if (s->depth == XML_MAX_DEPTH)
        return ossa_fail_line(b, OSSA_ERR_RANGE, line, "elements nested more than %u deep",
                              XML_MAX_DEPTH);
    s->stack[s->depth].kind = container;
    s->stack[s->depth].occurrence = occurrence;
    s->depth++;
    return OSSA_OK;
}

static void scan_end(scan *s)
{
    if (s->depth == 0)
        return; /* a stray end tag: libxml2 reports it */
    s->depth--;
    if (s->stack[s->depth].kind)
        s->x->occurrences[s->stack[s->depth].occurrence].end = s->x->occurrence_count;
    if (s->record_depth == s->depth + 1)
        s->record_depth = 0;
}

/* Whether p[0..n) holds only characters XML allows (Char), as the file's encoding decodes them:
 * anything else is left in place for libxml2 to report, exactly as before. Strict UTF-8 (no
 * overlong forms, surrogates, U+FFFE/FFFF or values past U+10FFFF). */
static bool xml_chars(const uint8_t *p, size_t n, ossa_xml_high_bytes high)
{
    for (size_t i = 0; i < n;) {
        uint8_t c = p[i];
        if (c < 0x80) {
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
                return false;
            i++;
            continue;
        }
        if (high == OSSA_XML_HIGH_NONE)
            return false;
        if (high == OSSA_XML_HIGH_LATIN1) {
            i++;
            continue;
        }
        if (high == OSSA_XML_HIGH_CP1252) {
            /* The five bytes Windows-1252 leaves undefined: iconv refuses them. */
            if (c == 0x81 || c == 0x8D || c == 0x8F || c == 0x90 || c == 0x9D)
                return false;
            i++;
            continue;
        }
        size_t more = (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : 0;
        if (more == 0 || more > n - i - 1)
            return false;
        uint32_t cp = c & (0x3Fu >> more);
        for (size_t k = 1; k <= more; k++) {
            if ((p[i + k] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (p[i + k] & 0x3Fu);
        }
        static const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
        if (cp < least[more] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ||
            cp == 0xFFFE || cp == 0xFFFF)
            return false;
        i += more + 1;
    }
    return true;
}

/* A well-formed comment p[0..n), "<!--" to "-->": no "--" inside, no '-' before the end. */
static bool comment_ok(const uint8_t *p, size_t n, ossa_xml_high_bytes high)
{
    if (n < 7)
        return false;
    const uint8_t *body = p + 4;
    size_t len = n - 7;
    for (size_t i = 0; i + 1 < len; i++)
        if (body[i] == '-' && body[i + 1] == '-')
            return false;
    return (len == 0 || body[len - 1] != '-') && xml_chars(body, len, high);
}

/* A well-formed processing instruction p[0..n), "<?" to "?>", with an ASCII name that does not
 * start with "xml" (reserved: libxml2 refuses or warns about those) and no ':' (a namespace
 * error), then white space before any content. Others are left to libxml2. */
static bool instruction_ok(const uint8_t *p, size_t n, ossa_xml_high_bytes high)
{
    if (n < 4)
        return false;
    const uint8_t *body = p + 2;
    size_t len = n - 4, i = 0;
    while (i < len && (body[i] == '_' || body[i] == '-' || body[i] == '.' ||
                       (body[i] >= '0' && body[i] <= '9') || ((body[i] | 0x20) >= 'a' &&
                                                              (body[i] | 0x20) <= 'z')))
        i++;
    if (i == 0 || !(body[0] == '_' || ((body[0] | 0x20) >= 'a' && (body[0] | 0x20) <= 'z')))
        return false;
    if (i >= 3 && strncasecmp((const char *)body, "xml", 3) == 0)
        return false;
    if (i < len && !is_space((char)body[i]))
        return false;
    return xml_chars(body + i, len - i, high);
}

/* Adds p[start..end) to the ranges blanked; one that follows another across white space only
 * extends it, so that runs of comments cost one entry. */
static ossa_status add_blank(scan *s, const uint8_t *p, size_t start, size_t end)
{
    ossa_xml *x = s->x;
    if (x->blank_count) {
        ossa_xml_blank *last = &x->blanks[x->blank_count - 1];
        size_t gap = last->end;
        while (gap < start && is_space((char)p[gap]))
            gap++;
        if (gap == start) {
            last->end = (uint32_t)end;
            return OSSA_OK;
        }
    }
    if (x->blank_count == s->blank_cap) {
        size_t cap = s->blank_cap ? 2 * s->blank_cap : 64;
        ossa_xml_blank *grown = realloc(x->blanks, cap * sizeof *grown);
        if (!grown)
            return ossa_fail(x->b, OSSA_ERR_NOMEM, -1, "cannot allocate the XML pre-scan");
        x->blanks = grown;
        s->blank_cap = cap;
    }
    x->blanks[x->blank_count++] = (ossa_xml_blank){(uint32_t)start, (uint32_t)end};
    return OSSA_OK;
}

/* Decides the pending comment, whose blanking would join the text from s->text_start up to
 * next_stop: blanked if that stays under the limit, else kept as the node that ends the text
 * (the text before it was checked when the comment before was decided). */
static ossa_status decide(scan *s, const uint8_t *p, size_t next_stop)
{
    if (!s->pending)
        return OSSA_OK;
    s->pending = false;
    if (next_stop - s->text_start <= XML_BLANK_TEXT_MAX)
        return add_blank(s, p, s->pending_start, s->pending_end);
    s->text_start = s->pending_end;
    return OSSA_OK;
}

/* Markup p[at..after) that makes a node ends the text libxml2 is building. */
static ossa_status end_text(scan *s, const uint8_t *p, size_t at, size_t after)
{
    ossa_status st = decide(s, p, at);
    s->text_start = after;
    return st;
}

/* One linear pass over the tags (comments, CDATA and processing instructions skipped). libxml2
 * checks an element's attributes for duplicates pairwise: 200,000 attributes on one element took
 * minutes, so more than 64 (an '=' inside a tag, outside quotes) is refused here. */
ossa_status ossa_xml_prescan(ossa_xml *x, const ossa_xml_kind *root_kind, const uint8_t *p,
                             size_t n, ossa_xml_high_bytes high)
{
    ossa_build *b = x->b;
    scan *s = calloc(1, sizeof *s);
    if (!s)
        return ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot allocate the XML pre-scan");
    s->x = x;
    s->root_kind = root_kind;
    s->high = high;
    ossa_status st = OSSA_OK;
    int line = 1;
    for (size_t i = 0; i < n && st == OSSA_OK; i++) {
        if (p[i] == '\n')
            line++;
        if (p[i] != '<')
            continue;
        const char *end = NULL;
        size_t from = 0; /* where the end marker is first looked for, as libxml2 does */
        if (i + 4 <= n && memcmp(p + i, "<!--", 4) == 0)
            end = "-->", from = i + 4;
        else if (i + 9 <= n && memcmp(p + i, "<![CDATA[", 9) == 0)
            end = "]]>", from = i + 9;
        else if (i + 2 <= n && p[i + 1] == '?')
            end = "?>", from = i + 2;
        if (end) {
            /* Skip to the end marker, counting lines; an unclosed one is libxml2's to report. */
            size_t k = strlen(end), j = from;
            while (j + k <= n && memcmp(p + j, end, k) != 0)
                line += p[j++] == '\n';
            bool closed = j + k <= n, comment = end[0] == '-', instruction = end[0] == '?';
            if (closed && (comment || instruction) && s->record_depth &&
                ++s->record_elements > XML_RECORD_MAX_ELEMENTS) {
                /* Inside a record they are parsed with it: counted as its elements are. */
                st = ossa_fail_line(b, OSSA_ERR_RANGE, s->record_line, "an element with more "
                                    "than %u elements, comments or instructions inside",
                                    XML_RECORD_MAX_ELEMENTS);
                break;
            }
            if (closed && !s->record_depth &&
                (comment ? comment_ok(p + i, j + k - i, s->high)
                         : instruction && instruction_ok(p + i, j + k - i, s->high))) {
                st = decide(s, p, i);
                s->pending = true;
                s->pending_start = i;
                s->pending_end = j + k;
            } else if (comment || instruction) {
                st = end_text(s, p, i, j + k);
            } /* CDATA joins the text around it (XML_PARSE_NOCDATA) */
            i = j + k - 1;
            continue;
        }
        bool closing = i + 1 < n && p[i + 1] == '/';
        size_t name_at = i + 1 + closing, j = name_at;
        while (j < n && !is_space((char)p[j]) && p[j] != '>' && p[j] != '/')
            j++;
        int tag_line = line;
        uint32_t attributes = 0;
        char quote = 0;
        size_t k = j;
        for (; k < n; k++) {
            uint8_t c = p[k];
            if (c == '\n')
                line++;
            if (quote) {
                if (c == (uint8_t)quote)
                    quote = 0;
            } else if (c == '"' || c == '\'') {
                quote = (char)c;
            } else if (c == '>') {
                break;
            } else if (c == '=') {
                if (++attributes > XML_MAX_ATTRIBUTES) {
                    st = ossa_fail_line(b, OSSA_ERR_RANGE, tag_line, "an element with more than "
                                        "%u attributes", XML_MAX_ATTRIBUTES);
                    break;
                }
                if (s->record_depth && ++s->record_attributes > XML_RECORD_MAX_ATTRIBUTES) {
                    st = ossa_fail_line(b, OSSA_ERR_RANGE, s->record_line, "an element with "
                                        "more than %u attributes inside",
                                        XML_RECORD_MAX_ATTRIBUTES);
                    break;
                }
            }
        }
        if (st != OSSA_OK || k == n)
            break; /* an unclosed tag is libxml2's to report */
        st = end_text(s, p, i, k + 1);
        if (st != OSSA_OK)
            break;
        if (closing)
            scan_end(s);
        else
            st = scan_start(s, p + name_at, j - name_at, tag_line, p[k - 1] == '/');
        i = k;
    }
    if (st == OSSA_OK)
        st = decide(s, p, n);
    free(s);
    return st;
}

/* docs/FORMATS.md, "XML is text". A byte loop, as the file comes in (load.c) or over the whole
 * before the pre-scan. libxml2 without XML_PARSE_HUGE refuses a text node, comment, CDATA
 * section, attribute value or tag holding more than XML_MAX_TEXT_LENGTH bytes, so such a run of
 * white space after the first '<' can never load: refused at the byte that proves it, not after
 * the whole file was read and scanned (1 GiB took 10 s). White space before the first '<' is the
 * prolog, which libxml2 skips without a limit; a CR is not counted ("\r\n" is one byte). */
ossa_status ossa_xml_scan_text(ossa_build *b, void *state, const uint8_t *p, size_t from,
                               size_t to)
{
    ossa_xml_text_scan *s = state;
    if (!s->line)
        s->line = 1;
    const uint8_t *nul = memchr(p + from, 0, to - from);
    if (nul)
        return ossa_file_fail_nul(b, p, (size_t)(nul - p));
    for (size_t i = from; i < to; i++) {
        uint8_t c = p[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            if (s->run++ == 0)
                s->run_line = s->line;
            if (s->run > XML_MAX_TEXT_LENGTH && s->started)
                return ossa_fail_line(b, OSSA_ERR_RANGE, s->run_line, "XML: more than %d bytes "
                                      "of white space from this line on, past libxml2's limit "
                                      "for one text node or tag", XML_MAX_TEXT_LENGTH);
            s->line += c == '\n';
        } else if (c != '\r') {
            s->run = 0;
            s->started |= c == '<';
        }
    }
    return OSSA_OK;
}
