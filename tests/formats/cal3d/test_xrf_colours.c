/* XRF colours read as libcal3d 0.11 reads them (docs/FORMATS.md, "XRF colour components"):
 * one text stream for AMBIENT, DIFFUSE and SPECULAR, ints cast to unsigned char. Blender's Cal3D
 * exporter writes `<AMBIENT>255 255 255 127.5</AMBIENT>`, which was refused ("'127.5' is not an
 * integer") and so lost the whole character. The expected values below are what libcal3d 0.11
 * gives for each case; built with libcal3d (reference-xrf-colours) the test also asks it. */
#include <string.h>
#include <unistd.h>

#include "ossa/ossa.h"
#include "test_common.h"
#ifdef WITH_LIBCAL3D
#include "cal3d_oracle.h"
#endif

typedef struct colour_case {
    const char *ambient, *diffuse, *specular;
    unsigned char want[12];
    bool warns;
} colour_case;

static const colour_case cases[] = {
    {"255 255 255 127.5", "200 100 50 255", "10 20 30 40",
     {255, 255, 255, 127, 0, 255, 255, 127, 0, 255, 255, 127}, true},
    {"112 170 210 0", "255 255 255 0", "229 229 229 0",
     {112, 170, 210, 0, 255, 255, 255, 0, 229, 229, 229, 0}, false},
    {"256 -1 300 1000", "1 2 3 4", "5 6 7 8", {0, 255, 44, 232, 1, 2, 3, 4, 5, 6, 7, 8}, true},
    {"1 2 3 4 5", "6 7 8 9", "10 11 12 13", {1, 2, 3, 4, 56, 7, 8, 9, 10, 11, 12, 13}, true},
    {"  10\n 20\t30  40 ", "1 2 3 4", "5 6 7 8", {10, 20, 30, 40, 1, 2, 3, 4, 5, 6, 7, 8}, false},
    {"9 8 7 6", "0.5 0.5 0.5 1", "1 2 3 4", {9, 8, 7, 6, 0, 0, 7, 6, 0, 0, 7, 6}, true},
    {"9 8 7 6", "1 2 3 4", "+5 -0 99999999999 7", {9, 8, 7, 6, 1, 2, 3, 4, 5, 0, 255, 4}, true},
    {"1 2 3 4 ", " 5 6 7 8 9 ", "10 11 12 13", {1, 2, 3, 4, 5, 6, 7, 8, 142, 11, 12, 13}, true},
};

static bool has_warning(const ossa_model *m, const char *needle)
{
    for (uint32_t i = 0; i < m->warning_count; i++)
        if (strstr(m->warnings[i], needle))
            return true;
    return false;
}

int main(void)
{
    char dir[] = "/tmp/ossa-xrf-colours-XXXXXX", path[600], text[1024];
    CHECK(mkdtemp(dir) != NULL);
    test_path(path, sizeof path, dir, "skin.xrf");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const colour_case *c = &cases[i];
        FILE *f = fopen(path, "w");
        CHECK(f != NULL);
        if (!f)
            break;
        fprintf(f, "<HEADER MAGIC=\"XRF\" VERSION=\"1000\" />\n<MATERIAL NUMMAPS=\"0\">\n"
                   "<AMBIENT>%s</AMBIENT>\n<DIFFUSE>%s</DIFFUSE>\n<SPECULAR>%s</SPECULAR>\n"
                   "<SHININESS>1</SHININESS>\n</MATERIAL>\n",
                c->ambient, c->diffuse, c->specular);
        fclose(f);
        ossa_model *m = NULL;
        ossa_error err;
        ossa_status st = ossa_load_file(path, NULL, &m, &err);
        CHECKF(st == OSSA_OK && m && m->material_count == 1, "case %zu: %s", i,
               ossa_error_format(&err, text, sizeof text));
        if (!m || m->material_count != 1) {
            ossa_model_destroy(m);
            continue;
        }
        const ossa_material *mt = &m->materials[0];
        const float *col[3] = {mt->ambient, mt->diffuse, mt->specular};
        unsigned char got[12];
        for (int k = 0; k < 12; k++)
            got[k] = (unsigned char)(col[k / 4][k % 4] * 255.0f + 0.5f);
        for (int k = 0; k < 12; k++)
            CHECKF(got[k] == c->want[k], "case %zu: component %d is %u, libcal3d gives %u", i, k,
                   got[k], c->want[k]);
        CHECKF(has_warning(m, "as libcal3d 0.11 reads it") == c->warns,
               "case %zu: %u warnings, first: %s", i, m->warning_count,
               m->warning_count ? m->warnings[0] : "");
#ifdef WITH_LIBCAL3D
        unsigned char ref[12];
        CHECKF(cal3d_ref_material_colours(path, ref, text, sizeof text) == 0, "case %zu: %s", i,
               text);
        CHECKF(memcmp(ref, got, sizeof got) == 0, "case %zu: Ossa and libcal3d differ", i);
#endif
        ossa_model_destroy(m);
    }
    unlink(path);
    rmdir(dir);
    return test_finish("xrf-colours");
}
