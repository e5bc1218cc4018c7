/* `ossa bench --json` on a small synthetic mesh: the output is one well-formed JSON document
 * with every figure present, finite and positive (errors: finite and >= 0). No timing is
 * asserted: only that the numbers exist and are sane. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_common.h"

/* ---- a small strict JSON parser (RFC 8259 subset: no \u surrogate checks) ---- */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct jval {
    int type;
    double num;            /* J_NUM, J_BOOL */
    char *str;             /* J_STR */
    size_t count;          /* J_ARR / J_OBJ */
    char **keys;           /* J_OBJ */
    struct jval **items;
} jval;

typedef struct jparser {
    const char *p, *end;
    int depth;
    const char *error;
} jparser;

static void jfree(jval *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->count; i++) {
        if (v->keys)
            free(v->keys[i]);
        jfree(v->items[i]);
    }
    free(v->keys);
    free(v->items);
    free(v->str);
    free(v);
}

static void skip_ws(jparser *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t'))
        j->p++;
}

static jval *jfail(jparser *j, const char *msg)
{
    if (!j->error)
        j->error = msg;
    return NULL;
}

static char *parse_string(jparser *j)
{
    if (j->p >= j->end || *j->p != '"')
        return (char *)jfail(j, "expected a string");
    j->p++;
    size_t cap = 16, n = 0;
    char *s = malloc(cap);
    while (s && j->p < j->end && *j->p != '"') {
        unsigned char c = (unsigned char)*j->p++;
        if (c < 0x20) {
            free(s);
            return (char *)jfail(j, "control character in a string");
        }
        if (c == '\\') {
            if (j->p >= j->end)
                break;
            char e = *j->p++;
            if (e == 'u') {
                for (int k = 0; k < 4; k++, j->p++)
                    if (j->p >= j->end || !strchr("0123456789abcdefABCDEF", *j->p) || !*j->p) {
                        free(s);
                        return (char *)jfail(j, "bad \\u escape");
                    }
                c = '?';
            } else if (strchr("\"\\/bfnrt", e) && e) {
                c = (unsigned char)(e == 'n' ? '\n' : e == 't' ? '\t' : e);
            } else {
                free(s);
                return (char *)jfail(j, "bad escape");
            }
        }
        if (n + 2 > cap) {
            char *grown = realloc(s, cap *= 2);
            if (!grown)
                break;
            s = grown;
        }
        s[n++] = (char)c;
    }
    if (!s || j->p >= j->end) {
        free(s);
        return (char *)jfail(j, "unterminated string");
    }
    j->p++;
    s[n] = 0;
    return s;
}

static jval *parse_value(jparser *j);

static int push_item(jval *v, char *key, jval *item)
{
    char **keys = v->keys;
    if (v->type == J_OBJ) {
        keys = realloc(v->keys, (v->count + 1) * sizeof *keys);
        if (!keys)
            return 0;
        v->keys = keys;
        keys[v->count] = key;
    }
    jval **items = realloc(v->items, (v->count + 1) * sizeof *items);
    if (!items)
        return 0;
    v->items = items;
    items[v->count++] = item;
    return 1;
}

static jval *parse_container(jparser *j, jval *v, char close)
{
    j->p++;
    skip_ws(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        return v;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(j);
        if (v->type == J_OBJ) {
            key = parse_string(j);
            skip_ws(j);
            if (!key || j->p >= j->end || *j->p != ':') {
                free(key);
                jfree(v);
                return jfail(j, "expected \"key\":");
            }
            j->p++;
        }
        jval *item = parse_value(j);
        if (!item || !push_item(v, key, item)) {
            free(key);
            jfree(item);
            jfree(v);
            return jfail(j, "bad member");
        }
        skip_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == close) {
            j->p++;
            return v;
        }
        jfree(v);
        return jfail(j, "expected ',' or a closing bracket");
    }
}

static jval *parse_value(jparser *j)
{
    skip_ws(j);
    if (j->p >= j->end)
        return jfail(j, "unexpected end");
    if (++j->depth > 64)
        return jfail(j, "nested too deep");
    jval *v = calloc(1, sizeof *v);
    if (!v)
        return jfail(j, "out of memory");
    char c = *j->p;
    jval *out = v;
    if (c == '{' || c == '[') {
        v->type = c == '{' ? J_OBJ : J_ARR;
        out = parse_container(j, v, c == '{' ? '}' : ']');
    } else if (c == '"') {
        v->type = J_STR;
        v->str = parse_string(j);
        if (!v->str) {
            jfree(v);
            out = NULL;
        }
    } else if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "null", 4)) {
        v->type = c == 't' ? J_BOOL : J_NULL;
        v->num = c == 't';
        j->p += 4;
    } else if (!strncmp(j->p, "false", 5)) {
        v->type = J_BOOL;
        j->p += 5;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        /* JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
        const char *s = j->p;
        if (*s == '-')
            s++;
        int ok = s < j->end && *s >= '0' && *s <= '9' && !(s[0] == '0' && s[1] >= '0' && s[1] <= '9');
        char *after;
        v->type = J_NUM;
        v->num = strtod(j->p, &after);
        if (!ok || after == j->p || after > j->end || after[-1] == '.') {
            jfree(v);
            out = jfail(j, "bad number");
        } else {
            j->p = after;
        }
    } else {
        jfree(v);
        out = jfail(j, "unexpected character");
    }
    j->depth--;
    return out;
}

static const jval *get(const jval *obj, const char *key)
{
    if (!obj || obj->type != J_OBJ)
        return NULL;
    for (size_t i = 0; i < obj->count; i++)
        if (!strcmp(obj->keys[i], key))
            return obj->items[i];
    return NULL;
}

/* ---- checks ---- */

/* A number that must be finite and > 0 (or >= 0 when zero_ok). */
static void check_num(const jval *obj, const char *where, const char *key, int zero_ok)
{
    const jval *v = get(obj, key);
    CHECKF(v && v->type == J_NUM, "%s.%s missing or not a number", where, key);
    if (v && v->type == J_NUM)
        CHECKF(isfinite(v->num) && (zero_ok ? v->num >= 0.0 : v->num > 0.0),
               "%s.%s = %g", where, key, v->num);
}

static void check_str(const jval *obj, const char *where, const char *key)
{
    const jval *v = get(obj, key);
    CHECKF(v && v->type == J_STR && v->str[0], "%s.%s missing or empty", where, key);
}

/* Every number anywhere in the document must be finite (NaN/Inf cannot even be written in
 * JSON, but a bench that printed "nan" fails the parse above instead). */
static void check_all_finite(const jval *v, int *numbers)
{
    if (v->type == J_NUM) {
        CHECKF(isfinite(v->num), "non-finite number %g", v->num);
        (*numbers)++;
    }
    for (size_t i = 0; i < v->count; i++)
        check_all_finite(v->items[i], numbers);
}

/* Each CPU's speed: null where not probed (one thread, or no affinity to set), else every CPU
 * the process may use with a rate, the fastest at 1, and a bound between 1 and the threads. */
static void check_cpu_speeds(const jval *doc)
{
    const jval *s = get(doc, "cpu_speeds");
    CHECKF(s && (s->type == J_NULL || s->type == J_OBJ), "cpu_speeds missing");
    if (!s || s->type != J_OBJ)
        return;
    check_str(s, "cpu_speeds", "kernel");
    const jval *cpus = get(s, "cpus"), *threads = get(s, "threads"), *bound = get(s, "bound");
    CHECK(cpus && cpus->type == J_ARR && cpus->count >= 1);
    CHECK(threads && threads->type == J_NUM && threads->num >= 2);
    int fastest = 0;
    for (size_t i = 0; cpus && cpus->type == J_ARR && i < cpus->count; i++) {
        const jval *c = cpus->items[i], *x = get(c, "x_fastest"), *id = get(c, "cpu");
        check_num(c, "cpu_speeds.cpus[]", "vertices_per_second", 0);
        CHECK(id && id->type == J_NUM && id->num >= 0);
        CHECK(x && x->type == J_NUM && x->num > 0 && x->num <= 1);
        fastest += x && x->type == J_NUM && x->num == 1;
    }
    CHECK(fastest >= 1);
    if (bound && bound->type == J_NUM && threads && threads->type == J_NUM && cpus)
        CHECKF(bound->num >= 1 && bound->num <= threads->num &&
                   bound->num <= (double)cpus->count + 1e-9,
               "cpu_speeds.bound %g", bound->num);
    else
        CHECK(!"cpu_speeds.bound is a number");
}

static void check_document(const jval *doc)
{
    CHECK(doc->type == J_OBJ);
    const jval *machine = get(doc, "machine");
    CHECK(machine && machine->type == J_OBJ);
    check_str(machine, "machine", "cpu");
    check_num(machine, "machine", "cores", 0);
    check_str(machine, "machine", "build_type");
    check_str(doc, "", "date");

    const jval *opt = get(doc, "options");
    CHECK(opt && opt->type == J_OBJ);
    const char *opt_keys[] = {"vertices", "influences", "bones", "threads", "runs"};
    for (size_t i = 0; i < sizeof opt_keys / sizeof opt_keys[0]; i++)
        check_num(opt, "options", opt_keys[i], 0);
    const jval *n = get(opt, "vertices");
    CHECK(n && n->type == J_NUM && n->num == 2000.0);
    n = get(opt, "bones");
    CHECK(n && n->type == J_NUM && n->num == 64.0);
    n = get(opt, "runs");
    CHECK(n && n->type == J_NUM && n->num == 2.0);

    const jval *mesh = get(doc, "mesh");
    check_num(mesh, "mesh", "vertices", 0);
    check_num(mesh, "mesh", "stream_bytes", 0);
    /* a synthetic mesh has one bind vertex per vertex: linear blend skinning */
    const jval *exact = get(mesh, "exact_submeshes"), *how = get(mesh, "skinning");
    CHECK(exact && exact->type == J_NUM && exact->num == 0.0);
    CHECK(how && how->type == J_STR && !strcmp(how->str, "blend"));

    const jval *kernels = get(doc, "kernels");
    CHECK(kernels && kernels->type == J_ARR && kernels->count >= 1);
    int has_scalar = 0;
    for (size_t i = 0; kernels && kernels->type == J_ARR && i < kernels->count; i++) {
        CHECK(kernels->items[i]->type == J_STR);
        if (kernels->items[i]->type == J_STR && !strcmp(kernels->items[i]->str, "scalar"))
            has_scalar = 1;
    }
    CHECK(has_scalar);

    const jval *bw = get(doc, "bandwidth");
    CHECK(bw && bw->type == J_OBJ);
    check_num(bw, "bandwidth", "array_bytes", 0);
    check_num(bw, "bandwidth", "triad_gbps", 0);
    check_num(bw, "bandwidth", "bytes_per_element", 0);

    const jval *skin = get(doc, "skinning");
    CHECK(skin && skin->type == J_ARR && kernels && skin->count >= kernels->count);
    for (size_t i = 0; skin && skin->type == J_ARR && i < skin->count; i++) {
        const jval *r = skin->items[i];
        check_str(r, "skinning[]", "kernel");
        const char *keys[] = {"threads", "vertices_per_second", "ns_per_vertex",
                              "bytes_per_vertex", "triad_gbps", "memory_bound_vertices_per_second",
                              "fraction_of_memory_bound"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            check_num(r, "skinning[]", keys[k], 0);
        check_num(r, "skinning[]", "max_error_vs_scalar", 1);
        /* CPU time beside wall time: a run on a pool's threads may use more CPU than wall */
        const jval *secs = get(r, "seconds");
        CHECK(secs && secs->type == J_OBJ);
        if (secs && secs->type == J_OBJ) {
            check_num(secs, "skinning[].seconds", "median", 0);
            check_num(secs, "skinning[].seconds", "cpu_median", 0);
        }
        const jval *e = get(r, "max_error_vs_scalar");
        CHECKF(e && e->type == J_NUM && e->num < 1e-3, "kernel output differs from scalar");
    }

    const jval *pose = get(doc, "pose");
    CHECK(pose && pose->type == J_ARR && pose->count == 2);
    for (size_t i = 0; pose && pose->type == J_ARR && i < pose->count; i++) {
        check_num(pose->items[i], "pose[]", "bones", 0);
        check_num(pose->items[i], "pose[]", "ossa_seconds", 0);
    }

    /* The machine's load: rounds counted (2 kernels-or-more x runs at least), contended ones no
     * more than all, and a warning exactly when some round was contended. */
    const jval *load = get(doc, "load");
    CHECK(load && load->type == J_OBJ);
    if (load && load->type == J_OBJ) {
        const jval *rounds = get(load, "rounds"), *busy = get(load, "contended_rounds");
        const jval *share = get(load, "min_cpu_share"), *warn = get(doc, "warnings");
        const jval *avg = get(load, "load_average_start");
        CHECK(avg && (avg->type == J_NULL || (avg->type == J_ARR && avg->count == 3)));
        CHECK(rounds && rounds->type == J_NUM && rounds->num >= 2 * 2);
        CHECK(busy && busy->type == J_NUM && rounds && busy->num <= rounds->num);
        CHECK(share && share->type == J_NUM && share->num > 0.0);
        CHECK(warn && warn->type == J_ARR && busy && busy->type == J_NUM &&
              (warn->count > 0) == (busy->num > 0));
    }

    /* the kernel and store chosen by measurement, timed beside each forced one */
    check_cpu_speeds(doc);
    const jval *choice = get(doc, "choice");
    CHECK(choice && choice->type == J_OBJ);
    check_str(choice, "choice", "kernel");
    check_str(choice, "choice", "store");
    check_str(choice, "choice", "why");
    check_num(choice, "choice", "vertices_per_second", 0);
    check_num(choice, "choice", "vs_fastest_forced", 0);
    const jval *cerr = get(choice, "max_error_vs_scalar");
    CHECKF(cerr && cerr->type == J_NUM && cerr->num < 1e-3, "the choice's output differs");
    const jval *calib = get(choice, "calibration"), *sizes = get(calib, "sizes");
    check_num(calib, "choice.calibration", "seconds", 0);
    check_num(calib, "choice.calibration", "large_vertices", 0);
    CHECK(sizes && sizes->type == J_ARR && sizes->count == 2);
    for (size_t i = 0; sizes && sizes->type == J_ARR && i < sizes->count; i++) {
        check_str(sizes->items[i], "choice.calibration.sizes[]", "kernel");
        check_str(sizes->items[i], "choice.calibration.sizes[]", "store");
    }
    /* the large class's store, timed on a mesh out of the L2 unless a store was forced */
    const jval *large = get(calib, "large_store_mesh");
    CHECKF(large && (large->type == J_NULL || large->type == J_OBJ), "large_store_mesh missing");
    if (large && large->type == J_OBJ) {
        check_num(large, "choice.calibration.large_store_mesh", "vertices", 0);
        check_num(large, "choice.calibration.large_store_mesh", "rounds", 1);
        for (int i = 0; i < 2; i++) {
            const jval *r = get(large, i ? "stream_vertices_per_second"
                                         : "cached_vertices_per_second");
            CHECK(r && (r->type == J_NULL || (r->type == J_NUM && r->num > 0.0)));
        }
    }
    const jval *rates = get(calib, "cached_vertices_per_second");
    CHECK(rates && rates->type == J_OBJ && rates->count >= 1);
    rates = get(calib, "stream_vertices_per_second");
    CHECK(rates && rates->type == J_OBJ);
    const jval *forced = get(choice, "forced");
    CHECK(forced && forced->type == J_ARR && kernels && forced->count == 2 * kernels->count);
    for (size_t i = 0; forced && forced->type == J_ARR && i < forced->count; i++) {
        check_str(forced->items[i], "choice.forced[]", "kernel");
        check_str(forced->items[i], "choice.forced[]", "store");
        check_num(forced->items[i], "choice.forced[]", "vertices_per_second", 0);
    }
    const jval *cal = get(doc, "cal3d");
    CHECK(cal && cal->type == J_OBJ);
    const jval *avail = get(cal, "available");
    CHECK(avail && avail->type == J_BOOL);
    if (avail && avail->type == J_BOOL && avail->num != 0.0) {
        check_num(cal, "cal3d", "vertices_per_second", 0);
        check_num(cal, "cal3d", "best_kernel_ratio", 0);
        check_num(cal, "cal3d", "max_error_vs_ossa", 1);
        const jval *e = get(cal, "max_error_vs_ossa");
        CHECKF(e && e->type == J_NUM && e->num < 1e-3, "libcal3d's mesh differs from Ossa's");
        for (size_t i = 0; pose && pose->type == J_ARR && i < pose->count; i++) {
            check_num(pose->items[i], "pose[]", "cal3d_seconds", 0);
            check_num(pose->items[i], "pose[]", "speedup_vs_cal3d", 0);
        }
    } else {
        printf("libcal3d not built in: its figures are not checked\n");
    }
    int numbers = 0;
    check_all_finite(doc, &numbers);
    CHECK(numbers > 20);
}

/* The crowd report: every size measured on 1 and 2 threads, frame times ordered, rates that
 * agree with them, and libcal3d's pose equal to Ossa's when it is built in. */
static void check_crowd(const jval *doc)
{
    CHECK(doc->type == J_OBJ);
    const jval *model = get(doc, "model");
    CHECK(model && model->type == J_OBJ);
    if (model && model->type == J_OBJ) {
        const jval *v = get(model, "vertices_per_character");
        CHECK(v && v->type == J_NUM && v->num == 500.0);
        check_num(model, "model", "clips", 0);
    }
    /* the characters' kernel: the calibration's, a concrete one */
    const jval *kernel = get(doc, "kernel");
    CHECKF(kernel && kernel->type == J_STR &&
               (!strcmp(kernel->str, "scalar") || !strcmp(kernel->str, "sse2") ||
                !strcmp(kernel->str, "avx2") || !strcmp(kernel->str, "avx512")),
           "crowd kernel %s", kernel && kernel->type == J_STR ? kernel->str : "missing");
    const jval *crowds = get(doc, "crowds");
    CHECK(crowds && crowds->type == J_ARR && crowds->count == 2);
    const double sizes[2] = {1.0, 12.0}; /* 12: 4 characters past the memory probe's 8 */
    for (size_t i = 0; crowds && crowds->type == J_ARR && i < crowds->count && i < 2; i++) {
        const jval *c = crowds->items[i], *n = get(c, "characters"), *ok = get(c, "measured");
        CHECK(n && n->type == J_NUM && n->num == sizes[i]);
        CHECK(ok && ok->type == J_BOOL && ok->num != 0.0);
        const jval *vpf = get(c, "vertices_per_frame");
        CHECK(vpf && vpf->type == J_NUM && vpf->num == 500.0 * sizes[i]);
        const jval *ossa = get(c, "ossa");
        CHECK(ossa && ossa->type == J_ARR && ossa->count == 2);
        for (size_t k = 0; ossa && ossa->type == J_ARR && k < ossa->count; k++) {
            const jval *f = ossa->items[k], *t = get(f, "threads");
            CHECK(t && t->type == J_NUM && t->num == (double)(k + 1));
            const jval *secs = get(f, "frame_seconds");
            CHECK(secs && secs->type == J_OBJ);
            if (!secs || secs->type != J_OBJ)
                continue;
            const jval *med = get(secs, "median"), *p95 = get(secs, "p95"), *lo = get(secs, "min");
            check_num(secs, "frame_seconds", "cpu_median", 0);
            CHECK(med && p95 && lo && med->type == J_NUM && p95->type == J_NUM &&
                  lo->type == J_NUM && lo->num > 0 && lo->num <= med->num && med->num <= p95->num);
            const jval *cps = get(f, "characters_per_second");
            CHECK(cps && cps->type == J_NUM && med && med->type == J_NUM &&
                  fabs(cps->num * med->num - sizes[i]) < 1e-3 * sizes[i]);
        }
    }
    const jval *err = get(doc, "max_error_vs_cal3d");
    CHECK(err && (err->type == J_NULL || (err->type == J_NUM && err->num < 1e-5)));
    const jval *load = get(doc, "load"), *warn = get(doc, "warnings");
    CHECK(load && load->type == J_OBJ && warn && warn->type == J_ARR);
    check_cpu_speeds(doc);
    int numbers = 0;
    check_all_finite(doc, &numbers);
    CHECK(numbers > 20);
}

int main(int argc, char **argv)
{
    const char *root = getenv("OSSA_BUILD_ROOT");
    if (!root) {
        fprintf(stderr, "OSSA_BUILD_ROOT is not set\n");
        return 1;
    }
    bool crowd = argc > 1 && !strcmp(argv[1], "crowd");
    const char *name = crowd ? "bench-crowd-json" : "bench-json";
    char cmd[4096];
    if (crowd)
        snprintf(cmd, sizeof cmd,
                 "'%s/tools/ossa' bench --crowd 1,12 --vertices 500 --threads 2 --runs 2 "
                 "--frames 3 --json", root);
    else
        snprintf(cmd, sizeof cmd,
                 "'%s/tools/ossa' bench --vertices 2000 --bones 64 --runs 2 --json", root);
    FILE *pipe = popen(cmd, "r");
    CHECK(pipe != NULL);
    if (!pipe)
        return test_finish(name);
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    size_t got;
    while (text && (got = fread(text + len, 1, cap - len, pipe)) > 0) {
        len += got;
        if (len == cap) {
            char *grown = realloc(text, cap *= 2);
            if (!grown) {
                free(text);
                text = NULL;
            }
            text = grown;
        }
    }
    int status = pclose(pipe);
    CHECKF(status == 0, "ossa bench exited with status %d", status);
    CHECK(text != NULL);
    if (!text)
        return test_finish(name);
    jparser j = {text, text + len, 0, NULL};
    jval *doc = parse_value(&j);
    skip_ws(&j);
    CHECKF(doc && j.p == j.end, "not one JSON document: %s at byte %ld", j.error ? j.error : "trailing data",
           (long)(j.p - text));
    if (doc && crowd)
        check_crowd(doc);
    else if (doc)
        check_document(doc);
    else
        fprintf(stderr, "output was:\n%.*s\n", (int)len, text);
    jfree(doc);
    free(text);
    return test_finish(name);
}
