/* Comments and processing instructions outside records are fed to libxml2 as spaces (its reader
 * kept every such node to the end of the file): what a file loads to, and every error with its
 * line, must stay what it was when libxml2 saw them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"
#include "test_common.h"

#define BONE(parent)                                                                           \
    "<BONE ID=\"0\" NAME=\"root\" NUMCHILDS=\"0\">\n<TRANSLATION>1 2 3</TRANSLATION>\n"        \
    "<ROTATION>0 0 0 1</ROTATION>\n<LOCALTRANSLATION>0 0 0</LOCALTRANSLATION>\n"               \
    "<LOCALROTATION>0 0 0 1</LOCALROTATION>\n<PARENTID>" parent "</PARENTID>\n</BONE>\n"

static ossa_status load(const char *text, const char *name, ossa_model **m, ossa_error *err)
{
    *m = NULL;
    return ossa_load_memory(text, strlen(text), name, NULL, m, err);
}

static void expect_ok(const char *text, const char *name)
{
    ossa_model *m;
    ossa_error err;
    CHECKF(load(text, name, &m, &err) == OSSA_OK, "%s: %s", name, err.message);
    if (m)
        CHECKF(m->bone_count == 1 && m->bones[0].parent == -1, "%s: %u bones", name,
               m->bone_count);
    ossa_model_destroy(m);
}

static void expect_fail(const char *text, const char *name, ossa_status status, int line,
                        const char *needle)
{
    ossa_model *m;
    ossa_error err;
    ossa_status st = load(text, name, &m, &err);
    CHECKF(st == status && !m, "%s: %s (%s)", name, ossa_status_name(st), err.message);
    CHECKF(err.line == line, "%s: line %d, expected %d (%s)", name, err.line, line, err.message);
    CHECKF(strstr(err.message, needle) != NULL, "%s: '%s' lacks '%s'", name, err.message, needle);
    ossa_model_destroy(m);
}

int main(void)
{
    /* Blanked everywhere outside records, line breaks kept: the bad parent is on line 13. */
    expect_ok("<?xml version=\"1.0\"?>\n<!-- exported -->\n<?app v=\"1\"?>\n"
              "<HEADER MAGIC=\"XSF\" VERSION=\"1000\"/>\n<!-- a\nb -->\n"
              "<SKELETON NUMBONES=\"1\"><!-- c --><?pi?>\n" BONE("-1")
              "<!-- caf\xc3\xa9 --></SKELETON>\n<!-- end -->\n", "blanked.xsf");
    expect_fail("<!-- one -->\n<HEADER MAGIC=\"XSF\" VERSION=\"1000\"/>\n<!--\n\n-->\n"
                "<SKELETON NUMBONES=\"1\"><?pi\n?>\n" BONE("x") "</SKELETON>\n", "line.xsf",
                OSSA_ERR_VALUE, 13, "'x'");

    /* Inside a record they stay: the text around one is read as libxml2 joins it. */
    expect_ok("<HEADER MAGIC=\"XSF\" VERSION=\"1000\"/>\n<SKELETON NUMBONES=\"1\">\n"
              BONE("-<!-- c -->1") "</SKELETON>\n", "record.xsf");

    /* What libxml2 refuses is left for it to report, on its own line. */
    static const char head[] = "<HEADER MAGIC=\"XSF\" VERSION=\"1000\"/>\n<SKELETON>\n";
    char text[2048];
    snprintf(text, sizeof text, "%s<!-- a -- b -->\n%s</SKELETON>\n", head, BONE("-1"));
    expect_fail(text, "hyphens.xsf", OSSA_ERR_FORMAT, 3, "omment");
    snprintf(text, sizeof text, "%s<!-- a --->\n%s</SKELETON>\n", head, BONE("-1"));
    expect_fail(text, "dash.xsf", OSSA_ERR_FORMAT, 3, "omment");
    snprintf(text, sizeof text, "%s\n<?xml version=\"1.0\"?>\n%s</SKELETON>\n", head, BONE("-1"));
    expect_fail(text, "declaration.xsf", OSSA_ERR_FORMAT, 4, "XML");
    snprintf(text, sizeof text, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n%s<!-- \xff -->\n"
             "%s</SKELETON>\n", head, BONE("-1"));
    expect_fail(text, "utf8.xsf", OSSA_ERR_FORMAT, 4, "");
    snprintf(text, sizeof text, "%s<!-- \x01 -->\n%s</SKELETON>\n", head, BONE("-1"));
    expect_fail(text, "control.xsf", OSSA_ERR_FORMAT, 3, "");
    snprintf(text, sizeof text, "%s%s</SKELETON>\n<!-- never closed\n", head, BONE("-1"));
    expect_fail(text, "unclosed.xsf", OSSA_ERR_FORMAT, 12, "omment");

    /* 12 MB of comments between records: blanked whole, they would make one text node past
     * libxml2's 10,000,000-byte limit; one is kept every few megabytes instead. */
    size_t cap = 12u << 20, n = 0;
    char *big = malloc(cap + 4096);
    CHECK(big != NULL);
    if (big) {
        n += (size_t)snprintf(big, 4096, "%s%s", head, BONE("-1"));
        while (n + 16 < cap) {
            memcpy(big + n, "<!-- xxxxxx -->\n", 16);
            n += 16;
        }
        snprintf(big + n, 4096, "</SKELETON>\n");
        expect_ok(big, "many.xsf");

        /* Inside a record they are counted with its elements. */
        n = (size_t)snprintf(big, 4096, "%s<BONE ID=\"0\">\n", head);
        for (int i = 0; i < 9000; i++) {
            memcpy(big + n, "<!---->", 7);
            n += 7;
        }
        snprintf(big + n, 4096, "</BONE></SKELETON>\n");
        expect_fail(big, "crowded.xsf", OSSA_ERR_RANGE, 3, "comments");
        free(big);
    }
    return test_finish("xml-comments");
}
