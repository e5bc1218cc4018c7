/* Textured materials in ossa-view. A tiny Cal3D XML model (one bone, a cube with UVs on every face,
 * so it shows whatever the camera's up axis) is written with a PNG texture, half red and half
 * green, into the scratch folder: its screenshot shows both colours. A second model has two
 * materials naming one missing file: exactly one warning, and the cube in the material's blue.
 * Textures the library's reading refuses (docs/FORMATS.md, "Texture files"): a FIFO (opening it
 * used to block the viewer forever), /dev/urandom (outside the model's folders; with
 * --allow-outside, a device) and images whose header declares more than 8192 x 8192 pixels (a
 * small RLE TGA declaring 16384 x 16384 took 9.9 s and 3.6 GB): each is left out at once with a
 * warning naming it, and the cube shows its colour. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "test_common.h"
#include "view_harness.h"

static bool write_text(const harness *h, const char *name, const char *text)
{
    char path[600];
    FILE *f = fopen(harness_file(h, name, path, sizeof path), "w");
    bool ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        ok = false;
    CHECKF(ok, "cannot write %s", path);
    return ok;
}

static bool write_bytes(const harness *h, const char *name, const void *data, size_t size)
{
    char path[600];
    FILE *f = fopen(harness_file(h, name, path, sizeof path), "wb");
    bool ok = f && fwrite(data, 1, size, f) == size;
    if (f && fclose(f) != 0)
        ok = false;
    CHECKF(ok, "cannot write %s", path);
    return ok;
}

/* A run-length TGA (32 bits) declaring 16384 x 16384 pixels in a few kilobytes. */
static bool write_huge_tga(const harness *h, const char *name)
{
    static uint8_t tga[18 + 5 * 2000];
    memset(tga, 0, sizeof tga);
    tga[2] = 10;
    tga[13] = tga[15] = 0x40; /* width and height 0x4000 */
    tga[16] = 32;
    tga[17] = 8;
    for (size_t i = 18; i + 5 <= sizeof tga; i += 5)
        tga[i] = 0xFF;
    return write_bytes(h, name, tga, sizeof tga);
}

/* A PNG signature and IHDR (with its CRC, so libpng takes it) declaring 100000 x 100000
 * pixels. */
static bool write_huge_png(const harness *h, const char *name)
{
    static const uint8_t png[33] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13,
                                    'I', 'H', 'D', 'R', 0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0,
                                    8, 6, 0, 0, 0, 0xA8, 0x52, 0x0B, 0xC8};
    return write_bytes(h, name, png, sizeof png);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Appends formatted text at *at in buf (size bytes). */
static void add(char *buf, size_t size, size_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *at, size - *at, fmt, ap);
    va_end(ap);
    if (n > 0 && (size_t)n < size - *at)
        *at += (size_t)n;
}

/* cubes cubes of side 2, one per submesh (material i), side by side along x. */
static bool write_mesh(const harness *h, const char *name, int cubes)
{
    static char xml[64 * 1024];
    size_t at = 0;
    add(xml, sizeof xml, &at, "<HEADER MAGIC=\"XMF\" VERSION=\"910\"/>\n<MESH NUMSUBMESH=\"%d\">\n",
        cubes);
    static const float uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (int c = 0; c < cubes; c++) {
        add(xml, sizeof xml, &at,
            "  <SUBMESH NUMVERTICES=\"24\" NUMFACES=\"12\" NUMLODSTEPS=\"0\" NUMSPRINGS=\"0\" "
            "NUMTEXCOORDS=\"1\" MATERIAL=\"%d\">\n", c);
        for (int face = 0; face < 6; face++) {
            int axis = face / 2, u = (axis + 1) % 3, v = (axis + 2) % 3;
            float side = face % 2 ? 1.0f : -1.0f;
            for (int corner = 0; corner < 4; corner++) {
                float p[3], n[3] = {0, 0, 0};
                p[axis] = side;
                p[u] = uv[corner][0] ? 1.0f : -1.0f;
                p[v] = uv[corner][1] ? 1.0f : -1.0f;
                n[axis] = side;
                p[0] += 3.0f * (float)c;
                add(xml, sizeof xml, &at,
                    "    <VERTEX ID=\"%d\" NUMINFLUENCES=\"1\"><POS>%g %g %g</POS>"
                    "<NORM>%g %g %g</NORM><TEXCOORD>%g %g</TEXCOORD>"
                    "<INFLUENCE ID=\"0\">1</INFLUENCE></VERTEX>\n",
                    4 * face + corner, (double)p[0], (double)p[1], (double)p[2], (double)n[0],
                    (double)n[1], (double)n[2], (double)uv[corner][0], (double)uv[corner][1]);
            }
        }
        for (int face = 0; face < 6; face++)
            add(xml, sizeof xml, &at,
                "    <FACE VERTEXID=\"%d %d %d\"/>\n    <FACE VERTEXID=\"%d %d %d\"/>\n",
                4 * face, 4 * face + 1, 4 * face + 2, 4 * face, 4 * face + 2, 4 * face + 3);
        add(xml, sizeof xml, &at, "  </SUBMESH>\n");
    }
    add(xml, sizeof xml, &at, "</MESH>\n");
    return write_text(h, name, xml);
}

static bool write_material(const harness *h, const char *name, const char *diffuse,
                           const char *map)
{
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<HEADER MAGIC=\"XRF\" VERSION=\"910\"/>\n<MATERIAL NUMMAPS=\"1\">\n"
             "  <AMBIENT>%s 0</AMBIENT>\n  <DIFFUSE>%s 0</DIFFUSE>\n"
             "  <SPECULAR>0 0 0 0</SPECULAR>\n  <SHININESS>0</SHININESS>\n"
             "  <MAP TYPE=\"Diffuse Color\">%s</MAP>\n</MATERIAL>\n",
             diffuse, diffuse, map);
    return write_text(h, name, xml);
}

/* 16 x 16, left half red, right half green. */
static bool write_texture(const harness *h, const char *name)
{
    uint8_t pixels[16 * 16 * 3];
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            uint8_t *p = pixels + 3 * (16 * y + x);
            p[0] = x < 8 ? 230 : 30;
            p[1] = x < 8 ? 30 : 200;
            p[2] = 30;
        }
    char path[600];
    bool ok = harness_write_png(h, name, 16, 16, pixels, path, sizeof path);
    CHECK(ok);
    return ok;
}

typedef enum hue { HUE_RED, HUE_GREEN, HUE_BLUE } hue;

/* Pixels where one channel clearly dominates the other two. */
static size_t count_hue(const harness_image *img, hue which)
{
    size_t n = (size_t)img->width * (size_t)img->height, count = 0;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = img->rgb + 3 * i;
        int top = p[which], a = p[(which + 1) % 3], b = p[(which + 2) % 3];
        count += top > 40 && top > 2 * a && top > 2 * b;
    }
    return count;
}

static size_t occurrences(const char *text, const char *word)
{
    size_t n = 0;
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
        n++;
    return n;
}

static bool shoot(harness *h, const char *cfg_name, const char *png_name, harness_image *img,
                  char *out, size_t out_size)
{
    char cfg[600], png[600];
    harness_file(h, cfg_name, cfg, sizeof cfg);
    harness_file(h, png_name, png, sizeof png);
    const char *args[] = {"--screenshot", png, "--size", "200x200", cfg, NULL, NULL};
    if (strstr(cfg_name, "allow"))
        args[4] = "--allow-outside", args[5] = cfg;
    int rc = harness_run(h, args, out, out_size);
    CHECKF(rc == 0, "%s: exit %d: %s", cfg_name, rc, out);
    return rc == 0 && harness_read_png(png, img);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-view-texture OSSA-VIEW\n");
        return 1;
    }
    harness h;
    int open_status = harness_open(&h, argv[1]);
    if (open_status != 0)
        return open_status;
    static const char skeleton[] =
        "<HEADER MAGIC=\"XSF\" VERSION=\"910\"/>\n<SKELETON NUMBONES=\"1\">\n"
        "  <BONE ID=\"0\" NAME=\"root\" NUMCHILD=\"0\">\n"
        "    <TRANSLATION>0 0 0</TRANSLATION><ROTATION>0 0 0 1</ROTATION>\n"
        "    <LOCALTRANSLATION>0 0 0</LOCALTRANSLATION><LOCALROTATION>0 0 0 1</LOCALROTATION>\n"
        "    <PARENTID>-1</PARENTID>\n  </BONE>\n</SKELETON>\n";
    bool ok = write_text(&h, "cube.xsf", skeleton) && write_mesh(&h, "one.xmf", 1) &&
              write_mesh(&h, "two.xmf", 2) && write_texture(&h, "halves.png") &&
              write_material(&h, "textured.xrf", "255 255 255", "halves.png") &&
              write_material(&h, "gone_a.xrf", "0 0 255", "gone.png") &&
              write_material(&h, "gone_b.xrf", "0 0 255", "gone.png") &&
              write_text(&h, "textured.cfg",
                         "skeleton=cube.xsf\nmesh=one.xmf\nmaterial=textured.xrf\n") &&
              write_text(&h, "missing.cfg",
                         "skeleton=cube.xsf\nmesh=two.xmf\nmaterial=gone_a.xrf\n"
                         "material=gone_b.xrf\n");
    char out[4096];
    harness_image img = {0};
    if (ok && shoot(&h, "textured.cfg", "textured.png", &img, out, sizeof out)) {
        size_t total = (size_t)img.width * (size_t)img.height;
        size_t red = count_hue(&img, HUE_RED), green = count_hue(&img, HUE_GREEN);
        fprintf(stderr, "textured: %zu red and %zu green pixels of %zu\n", red, green, total);
        CHECKF(red > total / 100 && green > total / 100, "red %zu green %zu", red, green);
        CHECKF(strstr(out, "warning") == NULL, "%s", out);
    }
    harness_image_free(&img);
    if (ok && shoot(&h, "missing.cfg", "missing.png", &img, out, sizeof out)) {
        size_t total = (size_t)img.width * (size_t)img.height;
        size_t blue = count_hue(&img, HUE_BLUE), red = count_hue(&img, HUE_RED);
        fprintf(stderr, "missing texture: %zu blue pixels of %zu; output:\n%s", blue, total, out);
        CHECKF(blue > total / 50, "blue %zu", blue);
        CHECK(red == 0);
        /* Two materials name the file: one warning. */
        CHECKF(occurrences(out, "gone.png") == 1, "%s", out);
        CHECK(occurrences(out, "warning: texture") == 1);
    }
    harness_image_free(&img);

    /* Refused textures: at once (the harness kills a viewer that runs 60 s), with a warning
     * naming the file and why, and the cube in the material's blue. */
    static const struct {
        const char *cfg, *texture, *why;
    } refused[] = {
        {"fifo.cfg", "pipe.png", "a FIFO"},
        {"urandom.cfg", "/dev/urandom", "outside the model's folders"},
        {"urandom_allow.cfg", "/dev/urandom", "a device"},
        {"huge_tga.cfg", "huge.tga", "16384 x 16384 pixels"},
        {"huge_png.cfg", "huge.png", "100000 x 100000 pixels"},
    };
    char fifo[600];
    ok = ok && mkfifo(harness_file(&h, "pipe.png", fifo, sizeof fifo), 0600) == 0 &&
         write_huge_tga(&h, "huge.tga") && write_huge_png(&h, "huge.png");
    CHECK(ok);
    h.time_limit_s = 60;
    for (size_t i = 0; ok && i < sizeof refused / sizeof refused[0]; i++) {
        char mat[64], cfg[256];
        snprintf(mat, sizeof mat, "refused_%zu.xrf", i);
        snprintf(cfg, sizeof cfg, "skeleton=cube.xsf\nmesh=one.xmf\nmaterial=%s\n", mat);
        if (!write_material(&h, mat, "0 0 255", refused[i].texture) ||
            !write_text(&h, refused[i].cfg, cfg))
            break;
        double t0 = now();
        bool shot = shoot(&h, refused[i].cfg, "refused.png", &img, out, sizeof out);
        double took = now() - t0;
        fprintf(stderr, "%s: %.2f s; output:\n%s", refused[i].cfg, took, out);
        CHECKF(shot, "%s: no screenshot", refused[i].cfg);
        CHECKF(strstr(out, refused[i].texture) && strstr(out, refused[i].why), "%s: %s",
               refused[i].cfg, out);
        if (strstr(refused[i].cfg, "huge"))
            CHECKF(strstr(out, "8192 x 8192") != NULL, "%s: the cap is not named: %s",
                   refused[i].cfg, out);
        CHECKF(took < 20.0 * test_time_factor(), "%s: %.1f s", refused[i].cfg, took);
        if (shot) {
            size_t total = (size_t)img.width * (size_t)img.height;
            CHECKF(count_hue(&img, HUE_BLUE) > total / 50, "%s: no blue cube", refused[i].cfg);
        }
        harness_image_free(&img);
    }
    harness_end(&h);
    return test_finish("view-texture");
}
