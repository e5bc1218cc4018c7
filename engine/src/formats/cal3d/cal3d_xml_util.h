/* Parsing helpers shared by the Cal3D XML readers (cal3d_xml.c, cal3d_xmf.c): a libxml2 stream
 * reader opened with no network, no DTD and no entity substitution (cal3d_xml_stream.c) after a
 * pre-scan (cal3d_xml_prescan.c), the HEADER / inline-VERSION conventions, and strict C-locale
 * numbers whose errors name the XML line. */
#ifndef OSSA_CAL3D_XML_UTIL_H
#define OSSA_CAL3D_XML_UTIL_H

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libxml/tree.h>

#include "formats/formats.h"

/* The element structure the stream reader follows. A container (children != NULL) is met at
 * its start tag (its attributes are readable, its children not yet parsed) and its children are
 * streamed by ossa_xml_each; a record (children == NULL) is handed over parsed whole, as a small
 * tree freed once its reader returns. The pre-scan counts each container's children by kind
 * before libxml2 sees the file, so that readers allocate once from counts checked against caps. */
#define OSSA_XML_MAX_KINDS 4
typedef struct ossa_xml ossa_xml;
typedef struct ossa_xml_kind ossa_xml_kind;
/* e: the element; index: its rank among the parent's children of that kind; counts: for a
 * container, how many children of each of its kinds it has (NULL for a record). */
typedef ossa_status (*ossa_xml_read_fn)(ossa_xml *x, void *ctx, const xmlNode *e, uint32_t index,
                                        const uint32_t *counts);
struct ossa_xml_kind {
    const char *name;              /* compared case-insensitively */
    uint32_t cap;                  /* containers past this count are not pre-scanned */
    ossa_xml_read_fn read;
    const ossa_xml_kind *children; /* NULL: a record */
    uint32_t child_count;          /* at most OSSA_XML_MAX_KINDS */
};

/* A range of the file (from the pre-scan's start, after any BOM) fed to libxml2 as spaces, its
 * line breaks kept: a comment or processing instruction outside records. */
typedef struct ossa_xml_blank {
    uint32_t start, end;
} ossa_xml_blank;

/* How the file's encoding reads bytes 0x80 and up, to judge a comment before it is blanked. */
typedef enum ossa_xml_high_bytes {
    OSSA_XML_HIGH_UTF8,
    OSSA_XML_HIGH_LATIN1, /* every byte is a character */
    OSSA_XML_HIGH_CP1252, /* all but five */
    OSSA_XML_HIGH_NONE    /* ASCII */
} ossa_xml_high_bytes;

typedef struct ossa_xml_occurrence {
    uint32_t counts[OSSA_XML_MAX_KINDS];
    uint32_t end; /* the first occurrence after this container's subtree */
} ossa_xml_occurrence;

struct ossa_xml {
    ossa_build *b;
    struct _xmlTextReader *reader;
    const xmlNode *root;       /* the Cal3D root element (SKELETON, ANIMATION, MESH, MATERIAL) */
    uint32_t version;          /* effective file version (1000 when the file gives none) */
    ossa_cal3d_lineage lineage;
    locale_t c_locale;         /* "C" numbers whatever the process locale is */
    xmlChar **owned;           /* strings libxml2 allocated for us, freed after each record */
    size_t owned_count, owned_cap;
    bool warned_stray_dot, warned_hex;
    ossa_xml_occurrence *occurrences; /* pre-scanned containers in document order */
    uint32_t occurrence_count, next_occurrence;
    ossa_xml_blank *blanks;           /* in file order, merged across white space */
    uint32_t blank_count;
    struct ossa_xml_input *input;
    struct ossa_xml_first_error *first_error;
};

/* Streams data, a Cal3D XML file whose HEADER MAGIC must be magic ("XSF", ...) and whose root
 * element is root_kind->name, calling root_kind->read(x, ctx, root, 0, counts) with x->version
 * set (and b->last_version stored). Always cleans up. */
ossa_status ossa_xml_read(ossa_build *b, const uint8_t *data, size_t size, const char *magic,
                          const ossa_xml_kind *root_kind, void *ctx);

/* The pre-scan (cal3d_xml_prescan.c) of the file's bytes p[0..n) (no BOM): refuses elements
 * with too many attributes, nesting too deep and records too big, fills x->occurrences (each
 * container's children counted by kind) and x->blanks. The caller frees both arrays. */
ossa_status ossa_xml_prescan(ossa_xml *x, const ossa_xml_kind *root_kind, const uint8_t *p,
                             size_t n, ossa_xml_high_bytes high);

/* Streams the children of container e (of kind), calling each known kind's reader in file order;
 * other elements are skipped unparsed. counts: the container's, as its reader was given them.
 * Call it at most once per container, from its reader. */
ossa_status ossa_xml_each(ossa_xml *x, const xmlNode *e, const ossa_xml_kind *kind,
                          const uint32_t *counts, void *ctx);

/* The error for a pre-scanned count over its cap, naming the parent's line. */
ossa_status ossa_xml_check_count(ossa_xml *x, const xmlNode *parent, const char *name, uint32_t n,
                                 uint32_t cap);

int ossa_xml_line(const xmlNode *n);
/* Element with this name, compared case-insensitively. */
bool ossa_xml_is(const xmlNode *n, const char *name);
/* Element children: the first one (optionally with a name), the next sibling element. */
xmlNode *ossa_xml_first(const xmlNode *parent, const char *name);
xmlNode *ossa_xml_next(const xmlNode *n, const char *name);
uint32_t ossa_xml_count(const xmlNode *parent, const char *name);

/* Attribute value (name case-insensitive) or NULL; the string lives as long as the element. */
const char *ossa_xml_attr(ossa_xml *x, const xmlNode *n, const char *name);
/* Concatenated text content of an element ("" when empty); lives as long as the element. */
const char *ossa_xml_text(ossa_xml *x, const xmlNode *n);
/* Frees the strings ossa_xml_attr / ossa_xml_text allocated (after each record). */
void ossa_xml_release_strings(ossa_xml *x);

/* Exactly count numbers separated by white space in s, nothing else. what names the value in
 * messages ("BONE 'Bip01' TRANSLATION"). Floats must be finite. Element text is read as
 * libcal3d's stream extraction reads it: a hexadecimal float ("0x10") is 0, with a warning;
 * attributes as its atof reads them (hexadecimal accepted). */
ossa_status ossa_xml_parse_floats(ossa_xml *x, int line, const char *what, const char *s,
                                  float *out, int count);
ossa_status ossa_xml_parse_attr_floats(ossa_xml *x, int line, const char *what, const char *s,
                                       float *out, int count);
ossa_status ossa_xml_parse_ints(ossa_xml *x, int line, const char *what, const char *s,
                                int64_t *out, int count, int64_t lo, int64_t hi);

/* Text of a child element (first with that name) as numbers; a missing child is an error. */
ossa_status ossa_xml_child_floats(ossa_xml *x, const xmlNode *parent, const char *child,
                                  const char *what, float *out, int count);

/* Attributes as numbers. required: a missing attribute is an error, else *out = def. */
ossa_status ossa_xml_attr_int(ossa_xml *x, const xmlNode *n, const char *attr, bool required,
                              int64_t def, int64_t lo, int64_t hi, int64_t *out);
ossa_status ossa_xml_attr_float(ossa_xml *x, const xmlNode *n, const char *attr, bool required,
                                float def, float *out);

/* Refuses a string of n bytes over OSSA_MAX_STRING, naming what, the length and the cap. */
ossa_status ossa_xml_check_length(ossa_xml *x, int line, const char *what, size_t n);
/* A copy of s owned by the build; longer than OSSA_MAX_STRING bytes is an error on line. */
ossa_status ossa_xml_dup_str(ossa_xml *x, int line, const char *what, const char **out,
                             const char *s);
/* Warns when an optional count attribute disagrees with the elements present. */
ossa_status ossa_xml_check_hint(ossa_xml *x, const xmlNode *n, const char *attr, uint32_t actual,
                                const char *child);

/* The one text stream libcal3d 0.11 reads a material's three colours from
 * (cal3d_xml_colour.c). Zero-initialise one per material. */
typedef struct ossa_xml_colour_stream {
    char buf[1024]; /* unread text, condensed as TinyXML hands it over */
    size_t len, pos;
    bool fail, eof, truncated;
    int value[4]; /* the ints as last read (0.11 declares them once, uninitialised: 0 here) */
} ossa_xml_colour_stream;

/* Pushes one colour element's text and reads its four components as 0.11 does. Returns true
 * when the text is four plain integers in 0..255 read without anything left from before. */
bool ossa_xml_colour_read(ossa_xml_colour_stream *s, const char *text, uint8_t rgba[4]);

#endif
