/* The Cal3D XML stream reader. The file is held once (the caller's bytes): DTDs and unknown
 * encodings are refused, a linear pre-scan (cal3d_xml_prescan.c) refuses what else libxml2
 * would choke on and counts every container's children by kind; then libxml2's xmlTextReader
 * reads the bytes through an input callback that inserts the wrapper element on the fly (no
 * wrapped copy) and blanks the comments and processing instructions found outside records.
 * Records are expanded one at a time and freed when the reader moves on, so memory stays near
 * the file's size whatever the file holds. The reader has its own parser context and per-parse
 * options only (no network, no DTD loading, no entity substitution, errors kept, not printed). */
#include "formats/cal3d/cal3d_xml_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

#include "ossa/limits.h"
#include "io/file_io.h"

/* Cal3D XML has two top-level elements (HEADER, then the root): the file is read inside this
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

/* Finds needle (ASCII, case-insensitive) in p[0..n). */
static const uint8_t *find_ci(const uint8_t *p, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (strncasecmp((const char *)p + i, needle, k) == 0)
            return p + i;
    return NULL;
}

/* The first "<!DOCTYPE" or "<!ENTITY" (any case) in p[0..n), in one pass that compares only
 * at "<!" (a string compare at every byte, twice, took seconds a gigabyte). */
static const uint8_t *find_dtd(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i + 8 <= n; i++) {
        if (p[i] != '<' || p[i + 1] != '!')
            continue;
        if ((i + 9 <= n && strncasecmp((const char *)p + i, "<!DOCTYPE", 9) == 0) ||
            strncasecmp((const char *)p + i, "<!ENTITY", 8) == 0)
            return p + i;
    }
    return NULL;
}

/* The encodings Cal3D exporters wrote (and libxml2 converts without printing): UTF-8, Latin-1
 * and its Windows superset, ASCII. Anything else (EBCDIC, say) is refused before libxml2 sees
 * it: its converters write to stderr whatever the parser options say. */
static ossa_status check_encoding(ossa_build *b, const uint8_t *decl, size_t len,
                                  ossa_xml_high_bytes *high)
{
    const uint8_t *at = find_ci(decl, len, "encoding");
    *high = OSSA_XML_HIGH_UTF8;
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
    static const struct {
        const char *name;
        ossa_xml_high_bytes high;
    } known[] = {{"UTF-8", OSSA_XML_HIGH_UTF8}, {"UTF8", OSSA_XML_HIGH_UTF8},
                 {"ISO-8859-1", OSSA_XML_HIGH_LATIN1}, {"ISO8859-1", OSSA_XML_HIGH_LATIN1},
                 {"ISO_8859-1", OSSA_XML_HIGH_LATIN1}, {"LATIN1", OSSA_XML_HIGH_LATIN1},
                 {"LATIN-1", OSSA_XML_HIGH_LATIN1}, {"US-ASCII", OSSA_XML_HIGH_NONE},
                 {"ASCII", OSSA_XML_HIGH_NONE}, {"WINDOWS-1252", OSSA_XML_HIGH_CP1252},
                 {"CP1252", OSSA_XML_HIGH_CP1252}};
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (strcasecmp(name, known[k].name) == 0 && i - start < sizeof name) {
            *high = known[k].high;
            return OSSA_OK;
        }
    return ossa_fail_line(b, OSSA_ERR_UNSUPPORTED, 1, "the XML declaration names the encoding "
                          "'%s'; Cal3D XML is UTF-8, Latin-1 or ASCII", name);
}

/* UTF-8 up to the first NUL (as xmlCheckUTF8 judged the wrapped copy before). */
static bool valid_utf8(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n && p[i]) {
        uint8_t c = p[i];
        size_t more = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2
                    : (c & 0xF8) == 0xF0 ? 3 : 4;
        if (more == 4 || i + more >= n + (more ? 0 : 1))
            return false;
        for (size_t k = 1; k <= more; k++)
            if ((p[i + k] & 0xC0) != 0x80)
                return false;
        i += more + 1;
    }
    return true;
}

/* ---- feeding libxml2: [declaration] [white space before it] <wrap> content </wrap> ---- */

#define CONTENT_PIECE 3 /* the file after its declaration, where blanks lie */

typedef struct ossa_xml_input {
    const uint8_t *piece[5];
    size_t length[5];
    int current;
    size_t offset;
    size_t content_base;          /* the content piece's offset in the pre-scanned bytes */
    const ossa_xml_blank *blanks; /* sorted, disjoint */
    uint32_t blank_count, next_blank;
} ossa_xml_input;

/* Spaces over the blanked ranges within buffer, which holds the pre-scanned bytes
 * [at, at + len); line breaks stay so that libxml2's line numbers are the file's. */
static void blank_out(ossa_xml_input *in, char *buffer, size_t at, size_t len)
{
    while (in->next_blank < in->blank_count && in->blanks[in->next_blank].end <= at)
        in->next_blank++;
    for (uint32_t i = in->next_blank; i < in->blank_count && in->blanks[i].start < at + len;
         i++) {
        size_t from = in->blanks[i].start > at ? in->blanks[i].start - at : 0;
        size_t to = in->blanks[i].end < at + len ? in->blanks[i].end - at : len;
        for (size_t k = from; k < to; k++)
            if (buffer[k] != '\n' && buffer[k] != '\r')
                buffer[k] = ' ';
    }
}

static int input_read(void *context, char *buffer, int len)
{
    ossa_xml_input *in = context;
    int done = 0;
    while (done < len && in->current < 5) {
        size_t left = in->length[in->current] - in->offset;
        size_t take = left < (size_t)(len - done) ? left : (size_t)(len - done);
        if (take) {
            memcpy(buffer + done, in->piece[in->current] + in->offset, take);
            if (in->current == CONTENT_PIECE)
                blank_out(in, buffer + done, in->content_base + in->offset, take);
        }
        done += (int)take;
        in->offset += take;
        if (in->offset == in->length[in->current]) {
            in->current++;
            in->offset = 0;
        }
    }
    return done;
}

static int input_close(void *context)
{
    (void)context;
    return 0;
}

/* Checks the file's head and prepares the pieces; a UTF-8 BOM is dropped. */
static ossa_status prepare(ossa_xml *x, const ossa_xml_kind *root_kind, const uint8_t *data,
                           size_t size, ossa_xml_input *in, bool *latin1)
{
    ossa_build *b = x->b;
    const uint8_t *p = data;
    size_t n = size;
    bool has_decl = false;
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
        p += 3;
        n -= 3;
    }
    const char *bom = ossa_text_bom_name(p, n);
    if (bom)
        return ossa_fail_line(b, OSSA_ERR_UNSUPPORTED, 1, "%s Cal3D XML is not supported (its "
                              "byte order mark says so): Cal3D XML is UTF-8, Latin-1 or ASCII",
                              bom);
    /* XML never holds a NUL (in the encodings above), nor white space past libxml2's limit:
     * refused before the scans below walk the whole (a file read by path was checked as it
     * was read; docs/FORMATS.md, "XML is text"). */
    ossa_xml_text_scan text = {0};
    OSSA_TRY(ossa_xml_scan_text(b, &text, data, 0, size));
    /* Cal3D files never have a DTD; refusing one here keeps entity tricks out entirely. */
    const uint8_t *dtd = find_dtd(p, n);
    if (dtd)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, line_at(p, (size_t)(dtd - p)),
                              "a DTD or entity declaration is not allowed in Cal3D XML");
    size_t lead = 0;
    while (lead < n && is_space((char)p[lead]))
        lead++;
    size_t decl_len = 0;
    ossa_xml_high_bytes high = OSSA_XML_HIGH_UTF8;
    if (n - lead >= 6 && memcmp(p + lead, "<?xml", 5) == 0 && is_space((char)p[lead + 5])) {
        const uint8_t *q = find_ci(p + lead, n - lead, "?>");
        if (!q)
            return ossa_fail_line(b, OSSA_ERR_FORMAT, line_at(p, lead),
                                  "the XML declaration is not closed");
        decl_len = (size_t)(q + 2 - (p + lead));
        has_decl = true;
        OSSA_TRY(check_encoding(b, p + lead, decl_len, &high));
    }
    /* Without a declaration the text must be UTF-8; old exporters wrote Latin-1 names. */
    *latin1 = !has_decl && !valid_utf8(p + lead, n - lead);
    if (*latin1)
        high = OSSA_XML_HIGH_LATIN1;
    OSSA_TRY(ossa_xml_prescan(x, root_kind, p, n, high));
    if (n + sizeof wrap_open + sizeof wrap_close > INT32_MAX)
        return ossa_fail(b, OSSA_ERR_RANGE, -1, "XML file of %zu bytes is too large", size);
    /* The declaration must come first, then the white space that preceded it. */
    const uint8_t *pieces[5] = {p + lead, p, (const uint8_t *)wrap_open, p + lead + decl_len,
                                (const uint8_t *)wrap_close};
    size_t lengths[5] = {decl_len, lead, sizeof wrap_open - 1, n - lead - decl_len,
                         sizeof wrap_close - 1};
    memcpy(in->piece, pieces, sizeof pieces);
    memcpy(in->length, lengths, sizeof lengths);
    in->content_base = lead + decl_len;
    in->blanks = x->blanks;
    in->blank_count = x->blank_count;
    return OSSA_OK;
}

/* ---- errors ---- */

/* The first parse error (libxml2 keeps only the last one, often a consequence of the first). */
typedef struct ossa_xml_first_error {
    bool set;
    int line, code;
    char message[300];
} ossa_xml_first_error;

static void record_error(void *data, xmlErrorPtr e)
{
    ossa_xml_first_error *fe = data;
    if (!e || e->level < XML_ERR_ERROR || fe->set)
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

/* The reader stopped (ret -1, or 0 before the end expected): report the first parse error. */
static ossa_status parse_failure(ossa_xml *x)
{
    ossa_xml_first_error *fe = x->first_error;
    if (!fe->set) {
        fe->line = xmlTextReaderGetParserLineNumber(x->reader);
        fe->code = 0;
        snprintf(fe->message, sizeof fe->message, "malformed XML");
    }
    size_t m = strlen(fe->message);
    while (m && is_space(fe->message[m - 1]))
        fe->message[--m] = 0;
    reword_wrapper(fe->message, sizeof fe->message);
    /* libxml2 raises its text limit as a memory error; nothing ran out, a text node grew past
     * XML_MAX_TEXT_LENGTH without XML_PARSE_HUGE, which Ossa never sets (docs/FORMATS.md, "XML
     * is text"; runs of white space that long are refused before libxml2 starts). */
    if (fe->code == XML_ERR_NO_MEMORY && strstr(fe->message, "huge text node"))
        return ossa_fail_line(x->b, OSSA_ERR_RANGE, fe->line, "XML: a text node grows past "
                              "libxml2's limit of %d bytes by this line", XML_MAX_TEXT_LENGTH);
    return ossa_fail_line(x->b, fe->code == XML_ERR_NO_MEMORY ? OSSA_ERR_NOMEM : OSSA_ERR_FORMAT,
                          fe->line, "XML: %s", fe->message);
}

/* ---- walking ---- */

static bool reader_is(ossa_xml *x, const char *name)
{
    const xmlChar *n = xmlTextReaderConstName(x->reader);
    return n && strcasecmp((const char *)n, name) == 0;
}

/* Moves on from the current node: past its subtree when skip, else into it. */
static ossa_status advance(ossa_xml *x, bool skip)
{
    int ret = skip ? xmlTextReaderNext(x->reader) : xmlTextReaderRead(x->reader);
    return ret == 1 ? OSSA_OK : parse_failure(x); /* the wrapper's end tag comes last */
}

ossa_status ossa_xml_check_count(ossa_xml *x, const xmlNode *parent, const char *name, uint32_t n,
                                 uint32_t cap)
{
    if (n > cap)
        return ossa_fail_line(x->b, OSSA_ERR_RANGE, ossa_xml_line(parent),
                              "<%s> has %u <%s> elements, more than the limit of %u",
                              (const char *)parent->name, n, name, cap);
    return OSSA_OK;
}

/* Calls kind's reader for the element at the reader's position and leaves the reader there or
 * on the element's end tag. */
static ossa_status visit(ossa_xml *x, const ossa_xml_kind *kind, void *ctx, uint32_t index)
{
    if (!kind->children) {
        xmlNode *e = xmlTextReaderExpand(x->reader);
        if (!e)
            return parse_failure(x);
        ossa_status st = kind->read(x, ctx, e, index, NULL);
        ossa_xml_release_strings(x);
        return st;
    }
    if (x->next_occurrence >= x->occurrence_count)
        return ossa_fail_line(x->b, OSSA_ERR_FORMAT, xmlTextReaderGetParserLineNumber(x->reader),
                              "XML: <%s> was not seen by the pre-scan", kind->name);
    const ossa_xml_occurrence *o = &x->occurrences[x->next_occurrence++];
    uint32_t counts[OSSA_XML_MAX_KINDS];
    memcpy(counts, o->counts, sizeof counts);
    uint32_t end = o->end;
    ossa_status st = kind->read(x, ctx, xmlTextReaderCurrentNode(x->reader), index, counts);
    x->next_occurrence = end; /* nested containers a reader did not stream are skipped */
    return st;
}

ossa_status ossa_xml_each(ossa_xml *x, const xmlNode *e, const ossa_xml_kind *kind,
                          const uint32_t *expected, void *ctx)
{
    uint32_t seen[OSSA_XML_MAX_KINDS] = {0};
    int depth = xmlTextReaderDepth(x->reader);
    if (xmlTextReaderCurrentNode(x->reader) != e)
        return ossa_fail(x->b, OSSA_ERR_FORMAT, -1, "XML: <%s> read out of order", kind->name);
    if (!xmlTextReaderIsEmptyElement(x->reader)) {
        OSSA_TRY(advance(x, false));
        for (;;) {
            int d = xmlTextReaderDepth(x->reader);
            int type = xmlTextReaderNodeType(x->reader);
            if (d <= depth)
                break; /* the container's end tag */
            if (type != XML_READER_TYPE_ELEMENT || d != depth + 1) {
                OSSA_TRY(advance(x, true));
                continue;
            }
            uint32_t i = 0;
            while (i < kind->child_count && !reader_is(x, kind->children[i].name))
                i++;
            bool skip = true;
            if (i < kind->child_count) {
                if (seen[i] >= expected[i])
                    return ossa_fail_line(x->b, OSSA_ERR_FORMAT,
                                          xmlTextReaderGetParserLineNumber(x->reader),
                                          "XML: more <%s> than the pre-scan counted",
                                          kind->children[i].name);
                OSSA_TRY(visit(x, &kind->children[i], ctx, seen[i]++));
                /* A streamed container leaves the reader on its end tag: step past it. */
                skip = xmlTextReaderNodeType(x->reader) != XML_READER_TYPE_END_ELEMENT;
            }
            OSSA_TRY(advance(x, skip));
        }
    }
    for (uint32_t i = 0; i < kind->child_count; i++)
        if (seen[i] != expected[i])
            return ossa_fail_line(x->b, OSSA_ERR_FORMAT, ossa_xml_line(e),
                                  "XML: %u <%s> where the pre-scan counted %u", seen[i],
                                  kind->children[i].name, expected[i]);
    return OSSA_OK;
}

/* ---- the file ---- */

typedef struct header_info {
    bool present;
    int line;
    char name[16];
    char *magic, *version; /* copies: the header is freed when the reader moves on */
} header_info;

static ossa_status read_header(ossa_xml *x, header_info *h)
{
    xmlNode *e = xmlTextReaderExpand(x->reader);
    if (!e)
        return parse_failure(x);
    h->present = true;
    h->line = ossa_xml_line(e);
    snprintf(h->name, sizeof h->name, "%s", (const char *)e->name);
    const char *magic = ossa_xml_attr(x, e, "MAGIC"), *version = ossa_xml_attr(x, e, "VERSION");
    h->magic = magic ? strdup(magic) : NULL;
    h->version = version ? strdup(version) : NULL;
    ossa_xml_release_strings(x);
    if ((magic && !h->magic) || (version && !h->version))
        return ossa_fail(x->b, OSSA_ERR_NOMEM, -1, "cannot copy the XML header");
    return OSSA_OK;
}

/* Moves to the next top-level element of the file; *found false at the end. */
static ossa_status next_top_level(ossa_xml *x, bool skip, bool *found)
{
    *found = false;
    for (;;) {
        OSSA_TRY(advance(x, skip));
        skip = false;
        int d = xmlTextReaderDepth(x->reader);
        if (d <= 0)
            return OSSA_OK; /* the wrapper's end (or the end of the input) */
        if (d == 1 && xmlTextReaderNodeType(x->reader) == XML_READER_TYPE_ELEMENT) {
            *found = true;
            return OSSA_OK;
        }
    }
}

/* The HEADER / inline MAGIC and VERSION conventions, then the root's reader. */
static ossa_status read_file(ossa_xml *x, const char *magic, const ossa_xml_kind *root_kind,
                             void *ctx, header_info *h)
{
    ossa_build *b = x->b;
    bool found;
    OSSA_TRY(advance(x, false)); /* the wrapper */
    if (xmlTextReaderDepth(x->reader) != 0 ||
        xmlTextReaderNodeType(x->reader) != XML_READER_TYPE_ELEMENT)
        return parse_failure(x);
    OSSA_TRY(next_top_level(x, false, &found));
    if (!found)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, 1, "no XML element: not a Cal3D %s file", magic);
    /* Either <HEADER MAGIC VERSION/> then the root, or a root carrying MAGIC/VERSION itself. */
    if (reader_is(x, "HEADER")) {
        OSSA_TRY(read_header(x, h));
        OSSA_TRY(next_top_level(x, true, &found));
        if (!found)
            return ossa_fail_line(b, OSSA_ERR_FORMAT, h->line,
                                  "<HEADER> is not followed by a <%s> element", root_kind->name);
    }
    const xmlNode *root = xmlTextReaderCurrentNode(x->reader);
    const char *root_magic = ossa_xml_attr(x, root, "MAGIC");
    const char *file_magic = h->magic ? h->magic : root_magic;
    int magic_line = h->magic ? h->line : ossa_xml_line(root);
    if (file_magic) {
        if (strcasecmp(magic, "XSF") == 0 && strcasecmp(file_magic, "XFS") == 0)
            ossa_warn(b, "MAGIC \"XFS\" (the typo of the 0.9 format document) read as XSF");
        else if (strcasecmp(file_magic, magic) != 0)
            return ossa_fail_line(b, OSSA_ERR_FORMAT, magic_line,
                                  "MAGIC \"%.40s\": this is not a Cal3D %s file", file_magic,
                                  magic);
    }
    if (!reader_is(x, root_kind->name))
        return ossa_fail_line(b, OSSA_ERR_FORMAT, ossa_xml_line(root),
                              "root element <%.60s> where a Cal3D %s file has <%s>",
                              (const char *)root->name, magic, root_kind->name);

    /* The header's VERSION, or the root's; an XAF's ANIMATION VERSION overrides the header. */
    int64_t version = 1000;
    int version_line = 1;
    if (ossa_xml_attr(x, root, "VERSION") && (!h->version || strcasecmp(magic, "XAF") == 0)) {
        OSSA_TRY(ossa_xml_attr_int(x, root, "VERSION", true, 0, INT32_MIN, INT32_MAX, &version));
        version_line = ossa_xml_line(root);
    } else if (h->version) {
        char what[40];
        snprintf(what, sizeof what, "%s VERSION", h->name);
        OSSA_TRY(ossa_xml_parse_ints(x, h->line, what, h->version, &version, 1, INT32_MIN,
                                     INT32_MAX));
        version_line = h->line;
    } else {
        ossa_warn(b, "no VERSION: read as a version 1000 (classic) file");
    }
    OSSA_TRY(ossa_cal3d_check_version(b, version, -1, version_line, &x->lineage));
    x->root = root;
    x->version = (uint32_t)version;
    b->last_version = x->version;

    /* The root is pre-scanned occurrence 0 (or, without children, a record). */
    if (root_kind->children) {
        if (x->occurrence_count == 0)
            return ossa_fail_line(b, OSSA_ERR_FORMAT, ossa_xml_line(root),
                                  "XML: <%s> was not seen by the pre-scan", root_kind->name);
        x->next_occurrence = 1;
        uint32_t counts[OSSA_XML_MAX_KINDS];
        memcpy(counts, x->occurrences[0].counts, sizeof counts);
        OSSA_TRY(root_kind->read(x, ctx, root, 0, counts));
    } else {
        xmlNode *e = xmlTextReaderExpand(x->reader);
        if (!e)
            return parse_failure(x);
        x->root = e;
        ossa_status st = root_kind->read(x, ctx, e, 0, NULL);
        ossa_xml_release_strings(x);
        OSSA_TRY(st);
    }
    char root_name[64];
    snprintf(root_name, sizeof root_name, "%s", (const char *)x->root->name);
    bool streamed = xmlTextReaderNodeType(x->reader) == XML_READER_TYPE_END_ELEMENT;
    /* Read on to the end: the whole file must be well-formed, as it was for the tree reader. */
    OSSA_TRY(next_top_level(x, !streamed, &found));
    if (found)
        ossa_warn(b, "line %d: elements after </%s> ignored",
                  xmlTextReaderGetParserLineNumber(x->reader), root_name);
    while (found)
        OSSA_TRY(next_top_level(x, true, &found));
    return OSSA_OK;
}

ossa_status ossa_xml_read(ossa_build *b, const uint8_t *data, size_t size, const char *magic,
                          const ossa_xml_kind *root_kind, void *ctx)
{
    ossa_xml x;
    memset(&x, 0, sizeof x);
    x.b = b;
    if (size > OSSA_MAX_FILE_SIZE)
        return ossa_fail(b, OSSA_ERR_RANGE, -1, "file of %zu bytes exceeds the limit of %u", size,
                         OSSA_MAX_FILE_SIZE);
    x.c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (x.c_locale == (locale_t)0)
        return ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot create the C locale");
    ossa_xml_input in = {{NULL}, {0}, 0, 0, 0, NULL, 0, 0};
    ossa_xml_first_error fe = {false, 0, 0, ""};
    header_info h = {false, 0, "", NULL, NULL};
    x.input = &in;
    x.first_error = &fe;
    bool latin1 = false;
    ossa_status st = prepare(&x, root_kind, data, size, &in, &latin1);
    if (st == OSSA_OK) {
        const char *encoding = NULL;
        if (latin1) {
            encoding = "ISO-8859-1";
            ossa_warn(b, "not UTF-8 and no XML declaration: read as ISO-8859-1");
        }
        /* No XML_PARSE_NOENT / DTDLOAD / HUGE; NOERROR and NOWARNING keep libxml2 quiet. */
        int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                      XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES;
        x.reader = xmlReaderForIO(input_read, input_close, &in, NULL, encoding, options);
        if (!x.reader)
            st = ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot create an XML reader");
    }
    if (st == OSSA_OK) {
        xmlTextReaderSetStructuredErrorHandler(x.reader, record_error, &fe);
        st = read_file(&x, magic, root_kind, ctx, &h);
    }
    if (x.reader)
        xmlFreeTextReader(x.reader);
    ossa_xml_release_strings(&x);
    free(x.owned);
    free(x.occurrences);
    free(x.blanks);
    free(h.magic);
    free(h.version);
    freelocale(x.c_locale);
    return st;
}
