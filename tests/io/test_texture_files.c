/* Texture files (docs/FORMATS.md, "Texture files"), through the library alone:
 * - ossa_texture_read refuses a FIFO and /dev/urandom at once (an alarm turns a hang into a
 *   failure), finds NAME.png for NAME, and reads PNG, JPEG, BMP and TGA headers;
 * - ossa_image_check refuses headers declaring more than OSSA_MAX_TEXTURE_PIXELS (the message
 *   gives the size and the cap) or no pixels, and images of other types;
 * - ossa_file_read refuses what is not a regular file and files over its cap;
 * - loading a material keeps only texture paths inside the model's folders: '../', '..\',
 *   absolute names and links out are left out with a warning, unless allow_outside; a path=
 *   folder and the cfg's folder tree count as inside. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ossa/ossa.h"
#include "test_common.h"

static char dir[256];

static const char *in_dir(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", dir, name);
    return buf;
}

static void write_bytes(const char *name, const void *data, size_t size)
{
    char p[512];
    FILE *f = fopen(in_dir(p, sizeof p, name), "wb");
    CHECKF(f != NULL, "cannot write %s", p);
    if (f) {
        CHECK(fwrite(data, 1, size, f) == size);
        fclose(f);
    }
}

static void write_text(const char *name, const char *text)
{
    write_bytes(name, text, strlen(text));
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* The first 33 bytes of a PNG: signature and IHDR (the CRC is not checked by the header read). */
static void png_header(uint8_t out[33], uint32_t w, uint32_t h)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    memset(out, 0, 33);
    memcpy(out, sig, 8);
    be32(out + 8, 13);
    memcpy(out + 12, "IHDR", 4);
    be32(out + 16, w);
    be32(out + 20, h);
    out[24] = 8;
    out[25] = 6;
}

/* An 18-byte TGA header (run-length true colour, 32 bits) and a few runs. */
static size_t tga(uint8_t *out, size_t cap, uint16_t w, uint16_t h)
{
    memset(out, 0, cap);
    out[2] = 10;
    out[12] = (uint8_t)w;
    out[13] = (uint8_t)(w >> 8);
    out[14] = (uint8_t)h;
    out[15] = (uint8_t)(h >> 8);
    out[16] = 32;
    out[17] = 8;
    size_t n = 18;
    while (n + 5 <= cap) {
        out[n] = 0xFF;
        n += 5;
    }
    return n;
}

static void expect_image(const char *what, const void *data, size_t size, const char *name,
                         ossa_status want, ossa_image_type type, uint32_t w, uint32_t h,
                         const char *needle)
{
    ossa_image_info info;
    ossa_error err;
    ossa_status st = ossa_image_check(data, size, name, &info, &err);
    CHECKF(st == want, "%s: status %s (%s)", what, ossa_status_name(st), err.message);
    if (st == OSSA_OK)
        CHECKF(info.type == type && info.width == w && info.height == h,
               "%s: type %d %u x %u", what, (int)info.type, info.width, info.height);
    else if (needle)
        CHECKF(strstr(err.message, needle) != NULL, "%s: '%s' lacks '%s'", what, err.message,
               needle);
}

static void image_headers(void)
{
    uint8_t png[33];
    png_header(png, 16, 8);
    expect_image("png", png, sizeof png, "a.png", OSSA_OK, OSSA_IMAGE_PNG, 16, 8, NULL);
    png_header(png, 100000, 100000);
    expect_image("huge png", png, sizeof png, "a.png", OSSA_ERR_RANGE, 0, 0, 0,
                 "100000 x 100000 pixels");
    expect_image("huge png names the cap", png, sizeof png, "a.png", OSSA_ERR_RANGE, 0, 0, 0,
                 "8192 x 8192");
    png_header(png, 8192, 8192);
    expect_image("png at the cap", png, sizeof png, "a.png", OSSA_OK, OSSA_IMAGE_PNG, 8192, 8192,
                 NULL);
    png_header(png, 8193, 8192);
    expect_image("png past the cap", png, sizeof png, "a.png", OSSA_ERR_RANGE, 0, 0, 0, "cap");
    png_header(png, 0, 5);
    expect_image("png of no pixels", png, sizeof png, "a.png", OSSA_ERR_RANGE, 0, 0, 0, "none");
    expect_image("png cut", png, 20, "a.png", OSSA_ERR_FORMAT, 0, 0, 0, "cut short");

    static uint8_t big[9000];
    size_t n = tga(big, sizeof big, 16384, 16384);
    expect_image("huge tga", big, n, "x.TGA", OSSA_ERR_RANGE, 0, 0, 0, "16384 x 16384");
    n = tga(big, 64, 4, 2);
    expect_image("tga", big, n, "x.tga", OSSA_OK, OSSA_IMAGE_TGA, 4, 2, NULL);
    expect_image("tga not named so", big, n, "x.dat", OSSA_ERR_FORMAT, 0, 0, 0, "image type");
    big[2] = 7; /* no such image type */
    expect_image("tga of a bad type", big, n, "x.tga", OSSA_ERR_FORMAT, 0, 0, 0, "TGA");

    /* JPEG: SOI, an APP0 segment, then SOF0 (precision, height, width, components) */
    static const uint8_t jpeg[] = {0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00,
                                   0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x7F, 0xFF, 0xFF,
                                   0xFF, 0x01, 0x01, 0x11, 0x00};
    expect_image("huge jpeg", jpeg, sizeof jpeg, "a.jpg", OSSA_ERR_RANGE, 0, 0, 0,
                 "65535 x 32767");
    static const uint8_t jpeg_small[] = {0xFF, 0xD8, 0xFF, 0xC2, 0x00, 0x0B, 0x08, 0x00,
                                         0x10, 0x00, 0x20, 0x01, 0x01, 0x11, 0x00};
    expect_image("jpeg", jpeg_small, sizeof jpeg_small, "a.jpg", OSSA_OK, OSSA_IMAGE_JPEG, 32,
                 16, NULL);
    static const uint8_t jpeg_no_sof[] = {0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02};
    expect_image("jpeg without a frame header", jpeg_no_sof, sizeof jpeg_no_sof, "a.jpg",
                 OSSA_ERR_FORMAT, 0, 0, 0, "JPG");

    /* BMP: file header, then an info header of 40 bytes (top-down: negative height) */
    uint8_t bmp[54] = {'B', 'M'};
    bmp[14] = 40;
    bmp[18] = 0x00, bmp[19] = 0x40;                                   /* width 16384 */
    bmp[22] = 0x00, bmp[23] = 0xC0, bmp[24] = 0xFF, bmp[25] = 0xFF;   /* height -16384 */
    expect_image("huge bmp", bmp, sizeof bmp, "a.bmp", OSSA_ERR_RANGE, 0, 0, 0,
                 "16384 x 16384");
    bmp[19] = 0, bmp[18] = 3, bmp[23] = 0xFF, bmp[22] = 0xFE;          /* 3 x 2 */
    expect_image("bmp", bmp, sizeof bmp, "a.bmp", OSSA_OK, OSSA_IMAGE_BMP, 3, 2, NULL);

    expect_image("gif", "GIF89a\x10\x00\x10\x00", 10, "a.gif", OSSA_ERR_FORMAT, 0, 0, 0,
                 "not an image type");
}

/* What is not a regular file is refused at once, by the texture reader and the file reader. */
static void special_files(void)
{
    char p[512];
    CHECK(mkfifo(in_dir(p, sizeof p, "pipe.png"), 0600) == 0);
    static const char *const paths[] = {NULL, "/dev/urandom", "/dev/zero"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        const char *path = paths[i] ? paths[i] : p;
        ossa_texture_file tex;
        ossa_error err;
        double t0 = now();
        ossa_status st = ossa_texture_read(path, &tex, &err);
        double took = now() - t0;
        CHECKF(st == OSSA_ERR_IO && tex.data == NULL, "%s: %s", path, ossa_status_name(st));
        CHECKF(strstr(err.message, i ? "a device" : "a FIFO") != NULL, "%s: %s", path,
               err.message);
        CHECKF(took < 1.0, "%s: %.2f s", path, took);
        uint8_t *data = NULL;
        size_t size = 0;
        st = ossa_file_read(path, 0, &data, &size, &err);
        CHECKF(st == OSSA_ERR_IO && data == NULL, "%s: ossa_file_read %s", path,
               ossa_status_name(st));
    }
    /* a name without an extension is found with one; a found name must still be readable */
    uint8_t png[33];
    png_header(png, 2, 2);
    write_bytes("skin.png", png, sizeof png);
    ossa_texture_file tex;
    ossa_error err;
    ossa_status st = ossa_texture_read(in_dir(p, sizeof p, "skin"), &tex, &err);
    CHECKF(st == OSSA_OK && tex.info.type == OSSA_IMAGE_PNG && tex.size == sizeof png &&
               strstr(tex.path, "skin.png"), "skin: %s", err.message);
    ossa_texture_file_free(&tex);
    st = ossa_texture_read(in_dir(p, sizeof p, "gone"), &tex, &err);
    CHECKF(st == OSSA_ERR_IO && strstr(err.message, "No such file"), "gone: %s", err.message);
    /* ossa_file_read's cap */
    uint8_t *data = NULL;
    size_t size = 0;
    st = ossa_file_read(in_dir(p, sizeof p, "skin.png"), 10, &data, &size, &err);
    CHECKF(st == OSSA_ERR_RANGE && data == NULL, "cap: %s", err.message);
    st = ossa_file_read(p, 0, &data, &size, &err);
    CHECK(st == OSSA_OK && size == sizeof png && data && data[size] == 0);
    ossa_file_free(data);
}

static const char xsf[] =
    "<HEADER MAGIC=\"XSF\" VERSION=\"910\"/>\n<SKELETON NUMBONES=\"1\">\n"
    "  <BONE ID=\"0\" NAME=\"root\" NUMCHILD=\"0\">\n"
    "    <TRANSLATION>0 0 0</TRANSLATION><ROTATION>0 0 0 1</ROTATION>\n"
    "    <LOCALTRANSLATION>0 0 0</LOCALTRANSLATION><LOCALROTATION>0 0 0 1</LOCALROTATION>\n"
    "    <PARENTID>-1</PARENTID>\n  </BONE>\n</SKELETON>\n";

static void write_xrf(const char *name, const char *map)
{
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<HEADER MAGIC=\"XRF\" VERSION=\"910\"/>\n<MATERIAL NUMMAPS=\"2\">\n"
             "  <AMBIENT>0 0 0 0</AMBIENT><DIFFUSE>0 0 0 0</DIFFUSE>\n"
             "  <SPECULAR>0 0 0 0</SPECULAR><SHININESS>0</SHININESS>\n"
             "  <MAP>%s</MAP>\n  <MAP TYPE=\"bump\">kept.png</MAP>\n</MATERIAL>\n", map);
    write_text(name, xml);
}

/* Loads cfg (in the scratch folder) and expects its one material to keep the first map or not;
 * the second map (beside the material) is always kept. */
static void expect_map(const char *cfg, const char *what, bool kept, bool allow)
{
    char p[512];
    ossa_model *m = NULL;
    ossa_error err;
    ossa_load_options opt = {.allow_outside = allow};
    ossa_status st = ossa_load_file(in_dir(p, sizeof p, cfg), &opt, &m, &err);
    CHECKF(st == OSSA_OK, "%s: %s", what, err.message);
    if (st != OSSA_OK)
        return;
    const ossa_material *mat = m->material_count == 1 ? &m->materials[0] : NULL;
    CHECKF(mat && mat->map_count == (kept ? 2u : 1u), "%s: %u maps", what,
           mat ? mat->map_count : 0);
    if (mat && mat->map_count)
        CHECKF(strcmp(mat->maps[mat->map_count - 1].file, "kept.png") == 0, "%s: last map %s",
               what, mat->maps[mat->map_count - 1].file);
    bool warned = false;
    for (uint32_t i = 0; i < m->warning_count; i++)
        warned |= strstr(m->warnings[i], "outside the model's folders") != NULL;
    CHECKF(warned == !kept, "%s: warned %d", what, warned);
    ossa_model_destroy(m);
}

static void confinement(void)
{
    char p[512], q[512];
    CHECK(mkdir(in_dir(p, sizeof p, "model"), 0700) == 0);
    CHECK(mkdir(in_dir(p, sizeof p, "model/mats"), 0700) == 0);
    CHECK(mkdir(in_dir(p, sizeof p, "parts"), 0700) == 0);
    write_text("model/m.xsf", xsf);
    write_text("secret.png", "secret");
    write_text("model/inside.png", "inside");
    CHECK(symlink("../secret.png", in_dir(p, sizeof p, "model/out.png")) == 0);
    CHECK(symlink("inside.png", in_dir(p, sizeof p, "model/in.png")) == 0);
    CHECK(symlink("../secret.png", in_dir(p, sizeof p, "model/bare.png")) == 0);
    static const struct {
        const char *name, *map;
        bool kept;
    } cases[] = {
        {"dotdot", "../secret.png", false},
        {"backslash", "..\\secret.png", false},
        {"absolute", NULL, false}, /* the secret's absolute path */
        {"link-out", "out.png", false},
        {"link-out-no-extension", "bare", false},
        {"link-in", "in.png", true},
        {"plain", "inside.png", true},
        {"missing", "gone.png", true}, /* inside, not there: export will say so */
        {"dotdot-inside", "sub/../inside.png", true},
        {"up-the-tree", "../../secret.png", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[128], cfg[256];
        snprintf(name, sizeof name, "model/%s.xrf", cases[i].name);
        write_xrf(name, cases[i].map ? cases[i].map : in_dir(q, sizeof q, "secret.png"));
        snprintf(name, sizeof name, "model/%s.cfg", cases[i].name);
        snprintf(cfg, sizeof cfg, "skeleton=m.xsf\nmaterial=%s.xrf\n", cases[i].name);
        write_text(name, cfg);
        expect_map(name, cases[i].name, cases[i].kept, false);
        if (!cases[i].kept)
            expect_map(name, cases[i].name, true, true);
    }
    /* a material in a subfolder naming ../inside.png: inside the cfg's folder */
    write_xrf("model/mats/up.xrf", "../inside.png");
    write_text("model/up.cfg", "skeleton=m.xsf\nmaterial=mats/up.xrf\n");
    expect_map("model/up.cfg", "up from a subfolder", true, false);
    /* the same material loaded alone: its own folder is the only one */
    write_text("model/mats/kept.png", "kept");
    ossa_model *m = NULL;
    ossa_error err;
    CHECK(ossa_load_file(in_dir(p, sizeof p, "model/mats/up.xrf"), NULL, &m, &err) == OSSA_OK);
    CHECKF(m && m->materials[0].map_count == 1, "material alone: %u maps",
           m ? m->materials[0].map_count : 0);
    ossa_model_destroy(m);
    /* a path= folder outside the cfg's: textures in it are inside the model */
    CHECK(mkdir(in_dir(p, sizeof p, "parts/mats"), 0700) == 0);
    write_xrf("parts/mats/shared.xrf", "../tex.png");
    write_text("model/paths.cfg", "skeleton=m.xsf\npath=../parts\nmaterial=mats/shared.xrf\n");
    expect_map("model/paths.cfg", "path= folder", true, false);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/ossa-textures-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR")
                                                                          : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    alarm(60); /* a blocked open fails the test instead of hanging it */
    image_headers();
    special_files();
    confinement();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    int rc;
    free(test_run(cmd, &rc));
    return test_finish("texture-files");
}
