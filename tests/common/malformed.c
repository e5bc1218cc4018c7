#include "malformed.h"

#include <dirent.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fuzz_seeds.h"

static ossa_format format_of(const char *path, bool *xml)
{
    static const struct { const char *ext; ossa_format f; bool xml; } kinds[] = {
        {"csf", OSSA_FORMAT_CSF, false}, {"caf", OSSA_FORMAT_CAF, false},
        {"cmf", OSSA_FORMAT_CMF, false}, {"crf", OSSA_FORMAT_CRF, false},
        {"cpf", OSSA_FORMAT_CPF, false}, {"xsf", OSSA_FORMAT_XSF, true},
        {"xaf", OSSA_FORMAT_XAF, true},  {"xmf", OSSA_FORMAT_XMF, true},
        {"xrf", OSSA_FORMAT_XRF, true},  {"xpf", OSSA_FORMAT_XPF, true}};
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    if (!dot)
        return OSSA_FORMAT_UNKNOWN;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcasecmp(dot + 1, kinds[i].ext) == 0) {
            *xml = kinds[i].xml;
            return kinds[i].f;
        }
    return OSSA_FORMAT_UNKNOWN;
}

static bool push(mf_files *out, size_t *cap, mf_file *f)
{
    if (out->count == *cap) {
        size_t ncap = *cap ? 2 * *cap : 64;
        mf_file *grown = realloc(out->items, ncap * sizeof *grown);
        if (!grown)
            return false;
        out->items = grown;
        *cap = ncap;
    }
    out->items[out->count++] = *f;
    return true;
}

static void file_free(mf_file *f)
{
    free(f->path);
    free(f->data);
    free(f->skeleton);
}

static bool same_content_seen(const mf_files *out, const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < out->count; i++)
        if (out->items[i].size == size && memcmp(out->items[i].data, data, size) == 0)
            return true;
    return false;
}

/* Adds f unless its bytes are already in the set (owned fields are freed then). */
static bool add_unique(mf_files *out, size_t *cap, mf_file *f)
{
    if (same_content_seen(out, f->data, f->size)) {
        file_free(f);
        return true;
    }
    if (!push(out, cap, f)) {
        file_free(f);
        return false;
    }
    return true;
}

static char *find_skeleton(const char *dir, const char *ext)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char *found = NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && !found) {
        const char *dot = strrchr(e->d_name, '.');
        if (dot && strcasecmp(dot, ext) == 0) {
            size_t n = strlen(dir) + strlen(e->d_name) + 2;
            found = malloc(n);
            if (found)
                snprintf(found, n, "%s/%s", dir, e->d_name);
        }
    }
    closedir(d);
    return found;
}

static bool walk(const char *root, const char *dir, mf_files *out, size_t *cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return true;
    bool ok = true;
    struct dirent *e;
    while (ok && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            ok = walk(root, path, out, cap);
            continue;
        }
        mf_file f = {0};
        f.format = format_of(path, &f.xml);
        if (!S_ISREG(st.st_mode) || f.format == OSSA_FORMAT_UNKNOWN)
            continue;
        f.path = strdup(path);
        f.data = test_read_file(path, &f.size);
        if (!f.path || !f.data) {
            file_free(&f);
            continue;
        }
        f.label = f.path + strlen(root) + 1;
        f.name = strrchr(f.path, '/') + 1;
        if (f.format != OSSA_FORMAT_CSF && f.format != OSSA_FORMAT_XSF)
            f.skeleton = find_skeleton(dir, f.xml ? ".xsf" : ".csf");
        ok = add_unique(out, cap, &f);
    }
    closedir(d);
    return ok;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const mf_file *)a)->path, ((const mf_file *)b)->path);
}

bool mf_collect(const char *assets_dir, bool seeds, mf_files *out)
{
    out->items = NULL;
    out->count = 0;
    size_t cap = 0;
    if (assets_dir && !walk(assets_dir, assets_dir, out, &cap)) {
        mf_files_free(out);
        return false;
    }
    if (seeds) {
        fuzz_seed *s;
        size_t n = fuzz_seeds_make(&s);
        if (!n) {
            mf_files_free(out);
            return false;
        }
        bool ok = true;
        for (size_t i = 0; i < n && ok; i++) {
            mf_file f = {0};
            size_t len = strlen(s[i].name) + 6;
            f.path = malloc(len);
            if (!f.path) {
                ok = false;
                break;
            }
            snprintf(f.path, len, "seed:%s", s[i].name);
            f.label = f.path;
            f.name = f.path + 5;
            f.format = s[i].format;
            f.xml = f.format >= OSSA_FORMAT_XSF && f.format <= OSSA_FORMAT_XPF;
            f.data = s[i].data;
            f.size = s[i].size;
            s[i].data = NULL;
            ok = add_unique(out, &cap, &f);
        }
        fuzz_seeds_free(s, n);
        if (!ok) {
            mf_files_free(out);
            return false;
        }
    }
    /* OSSA_MALFORMED_ONLY=text keeps the files whose label contains text (to reproduce one). */
    const char *only = getenv("OSSA_MALFORMED_ONLY");
    if (only && *only) {
        size_t kept = 0;
        for (size_t i = 0; i < out->count; i++) {
            if (strstr(out->items[i].label, only))
                out->items[kept++] = out->items[i];
            else
                file_free(&out->items[i]);
        }
        out->count = kept;
    }
    if (out->count)
        qsort(out->items, out->count, sizeof *out->items, by_path);
    return true;
}

void mf_files_free(mf_files *files)
{
    for (size_t i = 0; i < files->count; i++)
        file_free(&files->items[i]);
    free(files->items);
    files->items = NULL;
    files->count = 0;
}

ossa_status mf_load(const mf_file *f, const uint8_t *data, size_t size, ossa_model **out,
                    ossa_error *err)
{
    ossa_load_options opt;
    memset(&opt, 0, sizeof opt);
    opt.format = f->format;
    return ossa_load_memory(data, size, f->name, &opt, out, err);
}

ossa_status mf_load_with_skeleton(const mf_file *f, const uint8_t *data, size_t size,
                                  ossa_model **out, ossa_error *err)
{
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/ossa-malformed-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    *out = NULL;
    memset(err, 0, sizeof *err);
    if (!f->skeleton || !mkdtemp(dir)) {
        err->status = OSSA_ERR_IO;
        snprintf(err->message, sizeof err->message, "test: no skeleton or no temporary folder");
        return OSSA_ERR_IO;
    }
    char path[4096 + 256];
    snprintf(path, sizeof path, "%s/%s", dir, f->name);
    FILE *fp = fopen(path, "wb");
    bool written = fp && fwrite(data, 1, size, fp) == size;
    if (fp && fclose(fp) != 0)
        written = false;
    ossa_status st = OSSA_ERR_IO;
    if (written) {
        const char *paths[2] = {f->skeleton, path};
        st = ossa_load_files(paths, 2, NULL, out, err);
    } else {
        err->status = OSSA_ERR_IO;
        snprintf(err->message, sizeof err->message, "test: cannot write a temporary file");
    }
    unlink(path);
    rmdir(dir);
    return st;
}

void mf_fail(mf_tally *t, const char *fmt, ...)
{
    test_failures++;
    t->failures++;
    if (t->printed >= (t->limit ? t->limit : 10))
        return;
    t->printed++;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s: ", t->label);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void mf_tally_end(mf_tally *t)
{
    if (t->failures > t->printed)
        fprintf(stderr, "FAIL %s: ... %u more failure(s) not shown\n", t->label,
                t->failures - t->printed);
}

bool mf_check_error(mf_tally *t, const char *what, ossa_status st, const ossa_model *m,
                    const ossa_error *err)
{
    if (st == OSSA_OK) {
        mf_fail(t, "%s: loaded OK, an error was expected", what);
        return false;
    }
    if (m) {
        mf_fail(t, "%s: status %s but the model pointer is not NULL", what, ossa_status_name(st));
        return false;
    }
    if (err->status != st) {
        mf_fail(t, "%s: returned %s, error record says %s", what, ossa_status_name(st),
                ossa_status_name(err->status));
        return false;
    }
    if (!err->message[0]) {
        mf_fail(t, "%s: %s with an empty message", what, ossa_status_name(st));
        return false;
    }
    if (!err->file[0]) {
        mf_fail(t, "%s: %s (\"%s\") without a file name", what, ossa_status_name(st),
                err->message);
        return false;
    }
    return true;
}

bool mf_check_any(mf_tally *t, const char *what, ossa_status st, ossa_model *m,
                  const ossa_error *err)
{
    if (st != OSSA_OK)
        return mf_check_error(t, what, st, m, err);
    bool ok = true;
    ossa_error verr;
    ossa_error_clear(&verr);
    if (!m) {
        mf_fail(t, "%s: OK without a model", what);
        ok = false;
    } else if (ossa_model_validate(m, &verr) != OSSA_OK) {
        mf_fail(t, "%s: loaded OK but fails validation: %s", what, verr.message);
        ok = false;
    }
    ossa_model_destroy(m);
    return ok;
}

void mf_rng_seed(mf_rng *r, uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    r->state = (z ^ (z >> 31)) | 1u;
}

uint64_t mf_rng_next(mf_rng *r)
{
    uint64_t x = r->state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

uint32_t mf_rng_below(mf_rng *r, uint32_t n)
{
    return (uint32_t)((mf_rng_next(r) >> 32) % n);
}

bool mf_contains(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = haystack; *p; p++)
        if (strncasecmp(p, needle, n) == 0)
            return true;
    return n == 0;
}

uint64_t mf_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
    return h;
}

void mf_put_i32(uint8_t *p, int32_t v)
{
    uint32_t u = (uint32_t)v;
    p[0] = (uint8_t)u;
    p[1] = (uint8_t)(u >> 8);
    p[2] = (uint8_t)(u >> 16);
    p[3] = (uint8_t)(u >> 24);
}

int32_t mf_get_i32(const uint8_t *p)
{
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                 (uint32_t)p[3] << 24;
    int32_t v;
    memcpy(&v, &u, 4);
    return v;
}

void mf_put_f32(uint8_t *p, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    mf_put_i32(p, (int32_t)u);
}

/* Offset of the occurrence-th "<element" (followed by a delimiter), or n. */
static size_t element_at(const uint8_t *d, size_t n, const char *element, size_t occurrence)
{
    size_t len = strlen(element), seen = 0;
    for (size_t i = 0; i + len + 1 < n; i++) {
        if (d[i] != '<' || memcmp(d + i + 1, element, len) != 0)
            continue;
        uint8_t next = d[i + 1 + len];
        if (next != ' ' && next != '\t' && next != '\r' && next != '\n' && next != '>' &&
            next != '/')
            continue;
        if (seen++ == occurrence)
            return i;
    }
    return n;
}

size_t mf_xml_count(const uint8_t *d, size_t n, const char *element)
{
    size_t count = 0, len = strlen(element);
    for (size_t i = 0; i + len + 1 < n; i++) {
        if (d[i] != '<' || memcmp(d + i + 1, element, len) != 0)
            continue;
        uint8_t next = d[i + 1 + len];
        count += next == ' ' || next == '\t' || next == '\r' || next == '\n' || next == '>' ||
                 next == '/';
    }
    return count;
}

static bool is_ws(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* The first token starting at or after i, stopping at whitespace or any of stops. */
static bool token(const uint8_t *d, size_t n, size_t i, const char *stops, size_t *a, size_t *b)
{
    while (i < n && is_ws(d[i]))
        i++;
    size_t s = i;
    while (i < n && !is_ws(d[i]) && !strchr(stops, d[i]))
        i++;
    if (i == s)
        return false;
    *a = s;
    *b = i;
    return true;
}

/* Offset of the value of attribute attr in the tag starting at tag (just after its quote). */
static size_t attr_value_at(const uint8_t *d, size_t n, size_t tag, const char *attr)
{
    size_t len = strlen(attr);
    for (size_t i = tag; i < n && d[i] != '>'; i++) {
        if (!is_ws(d[i - 1]) || i + len + 2 > n || memcmp(d + i, attr, len) != 0)
            continue;
        size_t j = i + len;
        while (j < n && is_ws(d[j]))
            j++;
        if (j >= n || d[j] != '=')
            continue;
        j++;
        while (j < n && is_ws(d[j]))
            j++;
        if (j < n && (d[j] == '"' || d[j] == '\''))
            return j + 1;
    }
    return n;
}

bool mf_xml_find(const uint8_t *d, size_t n, const char *element, const char *attr,
                 size_t occurrence, size_t *a, size_t *b)
{
    size_t at = element_at(d, n, element, occurrence);
    if (at >= n)
        return false;
    if (attr) {
        size_t v = attr_value_at(d, n, at + 1, attr);
        return v < n && token(d, n, v, "\"'", a, b);
    }
    size_t i = at;
    while (i < n && d[i] != '>')
        i++;
    if (i >= n || d[i - 1] == '/')
        return false;
    return token(d, n, i + 1, "<", a, b);
}

long mf_xml_enclosing_attr(const uint8_t *d, size_t n, size_t pos, const char *element,
                           const char *attr)
{
    size_t best = n;
    for (size_t k = 0;; k++) {
        size_t at = element_at(d, n, element, k);
        if (at >= pos || at >= n)
            break;
        best = at;
    }
    if (best >= n)
        return -1;
    size_t v = attr_value_at(d, n, best + 1, attr);
    if (v >= n)
        return -1;
    return strtol((const char *)d + v, NULL, 10);
}

uint8_t *mf_splice(const uint8_t *d, size_t n, size_t a, size_t b, const char *text,
                   size_t *out_n)
{
    size_t tl = strlen(text);
    size_t total = n - (b - a) + tl;
    uint8_t *out = malloc(total ? total : 1);
    if (!out)
        return NULL;
    memcpy(out, d, a);
    memcpy(out + a, text, tl);
    memcpy(out + a + tl, d + b, n - b);
    *out_n = total;
    return out;
}

int mf_run(mf_file_fn binary, mf_file_fn xml, const char *what, const char *name)
{
    const char *assets = test_assets_dir();
    mf_files files;
    if (!mf_collect(assets, true, &files)) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    clock_t start = clock();
    unsigned tried = 0;
    for (size_t i = 0; i < files.count; i++) {
        mf_file_fn fn = files.items[i].xml ? xml : binary;
        if (fn)
            fn(&files.items[i], &tried);
    }
    printf("%u %s in %.1f s CPU\n", tried, what, (double)(clock() - start) / CLOCKS_PER_SEC);
    CHECK(tried > 0);
    mf_files_free(&files);
    int rc = test_finish(name);
    return rc == 0 && !assets ? TEST_SKIP : rc;
}
