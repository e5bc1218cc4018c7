/* Parsing helpers shared by the Cal3D XML readers (cal3d_xml.c): a libxml2 document opened with
 * no network, no DTD and no entity substitution, the HEADER / inline-VERSION conventions, and
 * strict C-locale numbers whose errors name the XML line. */
#ifndef OSSA_CAL3D_XML_UTIL_H
#define OSSA_CAL3D_XML_UTIL_H

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libxml/tree.h>

#include "formats/formats.h"

typedef struct ossa_xml {
    ossa_build *b;
    xmlDocPtr doc;
    xmlNodePtr root;           /* the Cal3D root element (SKELETON, ANIMATION, MESH, MATERIAL) */
    uint32_t version;          /* effective file version (1000 when the file gives none) */
    ossa_cal3d_lineage lineage;
    locale_t c_locale;         /* "C" numbers whatever the process locale is */
    xmlChar **owned;           /* strings libxml2 allocated for us, freed by ossa_xml_close */
    size_t owned_count, owned_cap;
    bool warned_stray_dot;
} ossa_xml;

/* Parses data as a Cal3D XML file whose HEADER MAGIC must be magic ("XSF", ...) and whose root
 * element must be root_name. On success x->root and x->version are set and b->last_version is
 * stored; ossa_xml_close must be called whatever the result. */
ossa_status ossa_xml_open(ossa_xml *x, ossa_build *b, const uint8_t *data, size_t size,
                          const char *magic, const char *root_name);
void ossa_xml_close(ossa_xml *x);

int ossa_xml_line(const xmlNode *n);
/* Element with this name, compared case-insensitively. */
bool ossa_xml_is(const xmlNode *n, const char *name);
/* Element children: the first one (optionally with a name), the next sibling element. */
xmlNode *ossa_xml_first(const xmlNode *parent, const char *name);
xmlNode *ossa_xml_next(const xmlNode *n, const char *name);
uint32_t ossa_xml_count(const xmlNode *parent, const char *name);

/* Attribute value (name case-insensitive) or NULL; the string lives until ossa_xml_close. */
const char *ossa_xml_attr(ossa_xml *x, const xmlNode *n, const char *name);
/* Concatenated text content of an element ("" when empty); lives until ossa_xml_close. */
const char *ossa_xml_text(ossa_xml *x, const xmlNode *n);

/* Exactly count numbers separated by white space in s, nothing else. what names the value in
 * messages ("BONE 'Bip01' TRANSLATION"). Floats must be finite. */
ossa_status ossa_xml_parse_floats(ossa_xml *x, int line, const char *what, const char *s,
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

#endif
