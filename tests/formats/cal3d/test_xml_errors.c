/* Cal3D XML whose errors were unclear or whose reading differed from libcal3d, found by a
 * hostile-input probe: a NUL after a valid start (every byte was compared before libxml2
 * refused it), more than 10 MB of white space or text ("out of memory: xmlSAX2Characters: huge
 * text node"), a UTF-32 byte order mark reported as UTF-16, hexadecimal floats read as 16 and 8
 * where libcal3d reads 0, names over 65,536 bytes cut silently. Each case checks status, line
 * and message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/load.h"
#include "test_common.h"

static ossa_model *load(const void *text, size_t size, const char *name, ossa_error *err)
{
    ossa_model *m = NULL;
    ossa_load_memory(text, size, name, NULL, &m, err);
    return m;
}

static void expect_fail(const void *text, size_t size, const char *name, ossa_status status,
                        int line, const char *needle)
{
    ossa_error err;
    ossa_model *m = load(text, size, name, &err);
    CHECKF(m == NULL, "%s loaded but should fail", name);
    ossa_model_destroy(m);
    CHECKF(err.status == status, "%s: status %s, expected %s (%s)", name,
           ossa_status_name(err.status), ossa_status_name(status), err.message);
    if (line >= 0)
        CHECKF(err.line == line, "%s: line %d, expected %d (%s)", name, err.line, line,
               err.message);
    CHECKF(strstr(err.message, needle) != NULL, "%s: message '%s' lacks '%s'", name,
           err.message, needle);
    CHECKF(strcmp(err.file, name) == 0, "%s: the error names '%s'", name, err.file);
}

static bool has_warning(const ossa_model *m, const char *needle)
{
    for (uint32_t i = 0; m && i < m->warning_count; i++)
        if (strstr(m->warnings[i], needle))
            return true;
    return false;
}

static const char head[] = "<HEADER MAGIC=\"XSF\" VERSION=\"1000\"/>\n<SKELETON NUMBONES=\"1\">\n";

/* A one-bone skeleton: name, TRANSLATION's text, and what goes between the bone and the end. */
static char *skeleton(const char *name, const char *translation, size_t pad, char pad_char,
                      size_t *size)
{
    size_t cap = strlen(name) + strlen(translation) + pad + 1024;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    int n = snprintf(s, cap, "%s  <BONE ID=\"0\" NAME=\"%s\" NUMCHILDS=\"0\">\n"
                     "    <TRANSLATION>%s</TRANSLATION>\n    <ROTATION>0 0 0 1</ROTATION>\n"
                     "    <LOCALTRANSLATION>0 0 0</LOCALTRANSLATION>\n"
                     "    <LOCALROTATION>0 0 0 1</LOCALROTATION>\n"
                     "    <PARENTID>-1</PARENTID>\n  </BONE>\n", head, name, translation);
    size_t at = (size_t)n;
    for (size_t i = 0; i < pad; i++)
        s[at++] = pad_char == '\r' ? (i % 2 ? '\n' : '\r') : pad_char;
    at += (size_t)snprintf(s + at, cap - at, "</SKELETON>\n");
    *size = at;
    return s;
}

static void nul_and_white_space(void)
{
    /* A NUL after a valid start: refused where it is, with its offset and line. */
    static const char nul[] = "<HEADER MAGIC=\"XSF\" VERSION=\"1000\"/>\n<SKELETON>\n\0  ";
    expect_fail(nul, sizeof nul - 1, "nul.xsf", OSSA_ERR_FORMAT, 3, "a NUL byte at offset 48");

    /* Byte order marks of encodings Cal3D XML never uses, named as they are. */
    static const char utf32le[] = "\xFF\xFE\0\0<\0\0\0";
    static const char utf32be[] = "\0\0\xFE\xFF\0\0\0<";
    static const char utf16[] = "\xFF\xFE<\0H\0";
    expect_fail(utf32le, sizeof utf32le - 1, "le.xsf", OSSA_ERR_UNSUPPORTED, 1, "UTF-32 Cal3D");
    expect_fail(utf32be, sizeof utf32be - 1, "be.xsf", OSSA_ERR_UNSUPPORTED, 1, "UTF-32 Cal3D");
    expect_fail(utf16, sizeof utf16 - 1, "16.xsf", OSSA_ERR_UNSUPPORTED, 1, "UTF-16 Cal3D");

    /* 11 MB of white space after the bone: past libxml2's limit wherever it stands, refused by
     * the scan before libxml2 starts, from the line where the run starts. */
    size_t size;
    char *s = skeleton("root", "1 2 3", 11000000, ' ', &size);
    CHECK(s != NULL);
    if (s)
        expect_fail(s, size, "spaces.xsf", OSSA_ERR_RANGE, 9,
                    "more than 10000000 bytes of white space");
    free(s);
    /* CR LF pairs reach libxml2's text node as one byte each: 12 MB of them is 6 MB of text,
     * which loads. */
    s = skeleton("root", "1 2 3", 12000000, '\r', &size);
    ossa_error err;
    ossa_model *m = s ? load(s, size, "crlf.xsf", &err) : NULL;
    CHECKF(m && m->bone_count == 1, "crlf.xsf: %s", m ? "" : err.message);
    ossa_model_destroy(m);
    free(s);

    /* 11 MB of text that is not white space: libxml2's own limit, said as what it is (it
     * raises it as a memory error). */
    size_t words = 5500000;
    char *text = malloc(2 * words + 8);
    CHECK(text != NULL);
    if (text) {
        for (size_t i = 0; i < words; i++)
            memcpy(text + 2 * i, "1 ", 2);
        text[2 * words] = 0;
        s = skeleton("root", text, 0, ' ', &size);
        if (s)
            expect_fail(s, size, "text.xsf", OSSA_ERR_RANGE, -1,
                        "a text node grows past libxml2's limit of 10000000 bytes");
        free(s);
        free(text);
    }
}

static void hex_floats(void)
{
    /* libcal3d's stream extraction stops at the 'x': 0, with a warning naming the line. */
    size_t size;
    char *s = skeleton("root", "0x10 -0x1p3 2", 0, ' ', &size);
    ossa_error err;
    ossa_model *m = s ? load(s, size, "hex.xsf", &err) : NULL;
    CHECKF(m && m->bone_count == 1, "hex.xsf: %s", m ? "" : err.message);
    if (m && m->bone_count == 1) {
        CHECKF(m->bones[0].rest_t[0] == 0.0f && m->bones[0].rest_t[1] == 0.0f &&
               m->bones[0].rest_t[2] == 2.0f, "%g %g %g", m->bones[0].rest_t[0],
               m->bones[0].rest_t[1], m->bones[0].rest_t[2]);
        CHECK(has_warning(m, "line 4: BONE 'root' TRANSLATION: '0x10' is hexadecimal"));
    }
    ossa_model_destroy(m);
    free(s);
    /* A hexadecimal float too large for a float is 0 as well, not an overflow. */
    s = skeleton("root", "1 0x1p999 2", 0, ' ', &size);
    m = s ? load(s, size, "hexbig.xsf", &err) : NULL;
    CHECKF(m && m->bone_count == 1 && m->bones[0].rest_t[1] == 0.0f, "hexbig.xsf: %s",
           m ? "" : err.message);
    ossa_model_destroy(m);
    free(s);
    /* NaN and Inf stay refused. */
    s = skeleton("root", "1 inf 2", 0, ' ', &size);
    if (s)
        expect_fail(s, size, "inf.xsf", OSSA_ERR_VALUE, 4, "'inf' is not a finite number");
    free(s);
    s = skeleton("root", "nan 1 2", 0, ' ', &size);
    if (s)
        expect_fail(s, size, "nan.xsf", OSSA_ERR_VALUE, 4, "'nan' is not a finite number");
    free(s);
}

static void long_names(void)
{
    size_t len = 70000, size;
    char *name = malloc(len + 1);
    CHECK(name != NULL);
    if (!name)
        return;
    memset(name, 'n', len);
    name[len] = 0;
    char *s = skeleton(name, "1 2 3", 0, ' ', &size);
    if (s)
        expect_fail(s, size, "name.xsf", OSSA_ERR_RANGE, 3,
                    "BONE NAME of 70000 bytes is longer than the limit of 65536 bytes");
    free(s);
    name[65536] = 0; /* at the limit: kept whole */
    s = skeleton(name, "1 2 3", 0, ' ', &size);
    ossa_error err;
    ossa_model *m = s ? load(s, size, "limit.xsf", &err) : NULL;
    CHECKF(m && m->bone_count == 1 && strlen(m->bones[0].name) == 65536, "limit.xsf: %s",
           m ? "" : err.message);
    ossa_model_destroy(m);
    free(s);
    free(name);
}

int main(void)
{
    nul_and_white_space();
    hex_floats();
    long_names();
    return test_finish("xml-errors");
}
