/* Files named as text formats that are not text, found by a hostile-input probe: 1 GiB of NULs
 * named .cfg was read whole (3.8 s, 1.06 GB) before being refused, an all-zero .cff loaded as an
 * empty model, an XSF start followed by 1 GiB of NULs took 17.6 s (a string compare at every
 * byte before libxml2 refused the first NUL). Each is refused from its first bytes, or from the
 * piece of the file that shows what is wrong, with a message naming the file and the offset or
 * line. The assertions are on status, message, position and peak memory (a whole read of a
 * 1 GiB sparse file would grow it by 1 GB), never on time. */
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ossa/ossa.h"
#include "test_common.h"

static char dir[256];

static const char *in_dir(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", dir, name);
    return buf;
}

/* Writes size bytes of data as name, then makes the file total bytes long (a sparse tail of
 * NULs when total is larger). */
static void write_file(const char *name, const void *data, size_t size, off_t total)
{
    char p[512];
    FILE *f = fopen(in_dir(p, sizeof p, name), "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(fwrite(data, 1, size, f) == size);
    fflush(f);
    if (total > (off_t)size)
        CHECK(ftruncate(fileno(f), total) == 0);
    fclose(f);
}

/* Loads name and expects status, a message holding needle, the error's line and offset (-2:
 * not checked) and the file named. */
static void expect(const char *name, ossa_status status, int line, int64_t offset,
                   const char *needle)
{
    char p[512];
    ossa_model *m = (ossa_model *)1;
    ossa_error err;
    ossa_status st = ossa_load_file(in_dir(p, sizeof p, name), NULL, &m, &err);
    CHECKF(st == status && m == NULL, "%s: status %s (%s)", name, ossa_status_name(st),
           err.message);
    CHECKF(strstr(err.message, needle) != NULL, "%s: '%s' lacks '%s'", name, err.message, needle);
    CHECKF(err.line == line, "%s: line %d, expected %d", name, err.line, line);
    if (offset != -2)
        CHECKF(err.offset == offset, "%s: offset %lld, expected %lld", name,
               (long long)err.offset, (long long)offset);
    CHECKF(strcmp(err.file, p) == 0, "%s: the error names '%s'", name, err.file);
}

static long peak_kb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

int main(void)
{
    const char *root = getenv("OSSA_SOURCE_ROOT");
    if (!root)
        return TEST_SKIP;
    snprintf(dir, sizeof dir, "/tmp/ossa-text-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    const off_t gib = (off_t)1 << 30;
    char p[512];
    long before = peak_kb();

    /* .cfg: text, and small. */
    write_file("zero.cfg", "", 0, gib);
    expect("zero.cfg", OSSA_ERR_FORMAT, 1, -1, "a NUL byte at offset 0");
    static const char control[] = "skeleton=a.csf\n\x01\n";
    write_file("control.cfg", control, sizeof control - 1, 0);
    expect("control.cfg", OSSA_ERR_FORMAT, 2, -1, "byte 0x01 at offset 15");
    char text[5000];
    memset(text, '#', sizeof text);
    text[sizeof text - 1] = '\n';
    write_file("long.cfg", text, sizeof text, 2 << 20); /* text, then NULs past the head */
    expect("long.cfg", OSSA_ERR_RANGE, 0, -1, "more than the 1048576 bytes");

    /* CFF: the header checked against the file's size before the file is read. */
    write_file("zero.cff", "", 0, gib);
    expect("zero.cff", OSSA_ERR_FORMAT, 0, 24, "no textures and no LODs");
    uint8_t header[44] = {0};
    header[24] = 0xE8, header[25] = 0x03; /* 1000 textures, one length byte each at least */
    write_file("lying.cff", header, sizeof header, 100);
    expect("lying.cff", OSSA_ERR_TRUNCATED, 0, 24, "texture count 1000 needs at least");

    /* XML: a NUL in the first bytes, a NUL after them, white space past libxml2's limit. */
    static const char start[] = "<HEADER MAGIC=\"XSF\" VERSION=\"1000\"/>\n"
                                "<SKELETON NUMBONES=\"0\">";
    write_file("start.xsf", start, sizeof start - 1, gib);
    expect("start.xsf", OSSA_ERR_FORMAT, 2, -1, "a NUL byte at offset 60");
    write_file("utf32.xsf", "\xFF\xFE\0\0<\0\0\0", 8, 0); /* not UTF-16, as it was called */
    expect("utf32.xsf", OSSA_ERR_UNSUPPORTED, 1, -1, "UTF-32 Cal3D XML is not supported");
    size_t size = 0;
    uint8_t *xsf = test_read_file(test_path(p, sizeof p, root, "assets/cal3d-xml/mannequin.xsf"),
                                  &size);
    CHECK(xsf != NULL && size > 512);
    if (xsf) {
        int lines = 1;
        for (size_t i = 0; i < size; i++)
            lines += xsf[i] == '\n';
        char needle[64];
        snprintf(needle, sizeof needle, "a NUL byte at offset %zu", size);
        write_file("tail.xsf", xsf, size, gib);
        expect("tail.xsf", OSSA_ERR_FORMAT, lines, -1, needle);
        /* 16 MB of spaces, then NULs: the spaces are refused before the read reaches a NUL. */
        size_t spaces = 16u << 20;
        uint8_t *ws = malloc(size + spaces);
        CHECK(ws != NULL);
        if (ws) {
            memcpy(ws, xsf, size);
            memset(ws + size, ' ', spaces);
            write_file("spaces.xsf", ws, size + spaces, gib);
            free(ws);
            expect("spaces.xsf", OSSA_ERR_RANGE, lines - 1, -1,
                   "more than 10000000 bytes of white space");
        }
        free(xsf);
    }
    long grew = peak_kb() - before;
    CHECKF(grew < 64 * 1024, "peak memory grew by %ld KB", grew);

    /* A CFF whose one LOD has no meshes passes the head checks and reads as nothing: an empty
     * model is the loader's error, naming the file. */
    uint8_t lod0[52] = {0};
    lod0[32] = 1; /* one LOD: a mesh count of 0 and the reserved word */
    write_file("lod0.cff", lod0, sizeof lod0, 0);
    expect("lod0.cff", OSSA_ERR_FORMAT, 0, -1, "nothing to show or export");

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    return test_finish("hostile-text");
}
