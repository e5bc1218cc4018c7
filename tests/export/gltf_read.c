/* See gltf_read.h. Written from the glTF 2.0 specification for the tests only. */
#include "gltf_read.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(gr_doc *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->error, sizeof d->error, fmt, ap);
    va_end(ap);
    return -1;
}

static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *data = NULL;
    long n;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        data = malloc((size_t)n + 1);
        if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
            free(data);
            data = NULL;
        }
        *size = (size_t)n;
    }
    fclose(f);
    return data;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int b64(int c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

static uint8_t *data_uri(const char *uri, size_t *size)
{
    const char *comma = strstr(uri, ";base64,");
    if (!comma)
        return NULL;
    const char *s = comma + 8;
    size_t n = strlen(s);
    uint8_t *out = malloc(n / 4 * 3 + 3);
    if (!out)
        return NULL;
    size_t k = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (; *s && *s != '='; s++) {
        int v = b64((unsigned char)*s);
        if (v < 0) {
            free(out);
            return NULL;
        }
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[k++] = (uint8_t)(acc >> bits);
        }
    }
    *size = k;
    return out;
}

int gr_open(gr_doc *d, const char *path)
{
    memset(d, 0, sizeof *d);
    size_t size = 0;
    uint8_t *file = slurp(path, &size);
    if (!file)
        return fail(d, "%s: cannot read", path);
    uint8_t *bin = NULL;
    size_t bin_size = 0;
    json_error_t je;
    if (size >= 12 && !memcmp(file, "glTF", 4)) {
        if (le32(file + 4) != 2 || le32(file + 8) != size || size < 20 ||
            le32(file + 16) != 0x4E4F534Au || 20 + (size_t)le32(file + 12) > size) {
            free(file);
            return fail(d, "%s: bad GLB header", path);
        }
        size_t jlen = le32(file + 12), at = 20 + jlen;
        d->json = json_loadb((const char *)file + 20, jlen, 0, &je);
        if (at + 8 <= size && le32(file + at + 4) == 0x004E4942u &&
            at + 8 + (size_t)le32(file + at) <= size) {
            bin_size = le32(file + at);
            bin = malloc(bin_size + 1);
            if (bin)
                memcpy(bin, file + at + 8, bin_size);
        }
    } else {
        d->json = json_loadb((const char *)file, size, 0, &je);
    }
    free(file);
    if (!d->json) {
        free(bin);
        return fail(d, "%s: JSON: %s (line %d)", path, je.text, je.line);
    }
    json_t *buffers = json_object_get(d->json, "buffers");
    d->buffer_count = json_array_size(buffers);
    d->buffers = calloc(d->buffer_count + 1, sizeof *d->buffers);
    d->buffer_sizes = calloc(d->buffer_count + 1, sizeof *d->buffer_sizes);
    if (!d->buffers || !d->buffer_sizes) {
        free(bin);
        return fail(d, "out of memory");
    }
    for (size_t i = 0; i < d->buffer_count; i++) {
        json_t *b = json_array_get(buffers, i);
        const char *uri = json_string_value(json_object_get(b, "uri"));
        if (!uri) {
            d->buffers[i] = bin;
            d->buffer_sizes[i] = bin_size;
            bin = NULL;
        } else if (!strncmp(uri, "data:", 5)) {
            d->buffers[i] = data_uri(uri, &d->buffer_sizes[i]);
        } else {
            char full[4096];
            const char *slash = strrchr(path, '/');
            snprintf(full, sizeof full, "%.*s%s", slash ? (int)(slash - path + 1) : 0, path, uri);
            d->buffers[i] = slurp(full, &d->buffer_sizes[i]);
        }
        json_int_t want = json_integer_value(json_object_get(b, "byteLength"));
        if (!d->buffers[i] || (json_int_t)d->buffer_sizes[i] < want) {
            free(bin);
            return fail(d, "%s: buffer %zu missing or short", path, i);
        }
    }
    free(bin);
    return 0;
}

void gr_close(gr_doc *d)
{
    for (size_t i = 0; i < d->buffer_count; i++)
        free(d->buffers[i]);
    free(d->buffers);
    free(d->buffer_sizes);
    json_decref(d->json);
    memset(d, 0, sizeof *d);
}

static int components_of(const char *type)
{
    static const struct { const char *name; int n; } t[] = {
        {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT2", 4}, {"MAT3", 9}, {"MAT4", 16}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (type && !strcmp(type, t[i].name))
            return t[i].n;
    return 0;
}

static int component_size(int type)
{
    switch (type) {
    case 5120: case 5121: return 1;
    case 5122: case 5123: return 2;
    case 5125: case 5126: return 4;
    default: return 0;
    }
}

static float read_component(const uint8_t *p, int type)
{
    switch (type) {
    case 5120: return (float)(int8_t)p[0];
    case 5121: return (float)p[0];
    case 5122: return (float)(int16_t)(p[0] | p[1] << 8);
    case 5123: return (float)(uint16_t)(p[0] | p[1] << 8);
    case 5125: return (float)le32(p);
    default: {
        uint32_t u = le32(p);
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    }
}

/* Pointer to count elements of elem_size bytes in a bufferView at offset, stride out. */
static const uint8_t *view_data(gr_doc *d, int view, size_t offset, size_t count,
                                size_t elem_size, size_t *stride)
{
    json_t *v = json_array_get(json_object_get(d->json, "bufferViews"), (size_t)view);
    if (!v)
        return NULL;
    size_t buf = (size_t)json_integer_value(json_object_get(v, "buffer"));
    size_t vo = (size_t)json_integer_value(json_object_get(v, "byteOffset"));
    size_t vl = (size_t)json_integer_value(json_object_get(v, "byteLength"));
    size_t st = (size_t)json_integer_value(json_object_get(v, "byteStride"));
    *stride = st ? st : elem_size;
    if (buf >= d->buffer_count || vo + vl > d->buffer_sizes[buf] ||
        (count && offset + (count - 1) * *stride + elem_size > vl))
        return NULL;
    return d->buffers[buf] + vo + offset;
}

float *gr_accessor(gr_doc *d, int index, size_t *count, int *comps)
{
    json_t *a = json_array_get(json_object_get(d->json, "accessors"), (size_t)index);
    if (!a) {
        fail(d, "no accessor %d", index);
        return NULL;
    }
    int ct = (int)json_integer_value(json_object_get(a, "componentType"));
    int nc = components_of(json_string_value(json_object_get(a, "type")));
    size_t n = (size_t)json_integer_value(json_object_get(a, "count"));
    int cs = component_size(ct);
    if (!nc || !cs) {
        fail(d, "accessor %d: bad type", index);
        return NULL;
    }
    float *out = calloc(n * (size_t)nc + 1, sizeof *out);
    if (!out)
        return NULL;
    json_t *bv = json_object_get(a, "bufferView");
    if (bv) {
        size_t stride;
        const uint8_t *p = view_data(d, (int)json_integer_value(bv),
                                     (size_t)json_integer_value(json_object_get(a, "byteOffset")),
                                     n, (size_t)(nc * cs), &stride);
        if (!p) {
            free(out);
            fail(d, "accessor %d: outside its buffer", index);
            return NULL;
        }
        for (size_t i = 0; i < n; i++)
            for (int k = 0; k < nc; k++)
                out[i * (size_t)nc + (size_t)k] = read_component(p + i * stride + (size_t)(k * cs), ct);
    }
    json_t *sp = json_object_get(a, "sparse");
    if (sp) {
        size_t sn = (size_t)json_integer_value(json_object_get(sp, "count"));
        json_t *si = json_object_get(sp, "indices"), *sv = json_object_get(sp, "values");
        int ict = (int)json_integer_value(json_object_get(si, "componentType"));
        size_t is, vs;
        const uint8_t *ip = view_data(d, (int)json_integer_value(json_object_get(si, "bufferView")),
                                      (size_t)json_integer_value(json_object_get(si, "byteOffset")),
                                      sn, (size_t)component_size(ict), &is);
        const uint8_t *vp = view_data(d, (int)json_integer_value(json_object_get(sv, "bufferView")),
                                      (size_t)json_integer_value(json_object_get(sv, "byteOffset")),
                                      sn, (size_t)(nc * cs), &vs);
        if (!ip || !vp || !component_size(ict)) {
            free(out);
            fail(d, "accessor %d: bad sparse part", index);
            return NULL;
        }
        /* sparse views are tightly packed */
        is = (size_t)component_size(ict);
        vs = (size_t)(nc * cs);
        for (size_t i = 0; i < sn; i++) {
            size_t at = (size_t)read_component(ip + i * is, ict);
            if (at >= n) {
                free(out);
                fail(d, "accessor %d: sparse index %zu out of range", index, at);
                return NULL;
            }
            for (int k = 0; k < nc; k++)
                out[at * (size_t)nc + (size_t)k] = read_component(vp + i * vs + (size_t)(k * cs), ct);
        }
    }
    *count = n;
    *comps = nc;
    return out;
}

/* ---- evaluation (double precision) ---- */

typedef struct node_state {
    double t[3], r[4], s[3];
    double m[16];       /* local matrix when the node gives one */
    int has_matrix;
    double global[16];
    int done;
    int parent;
} node_state;

static void mat_mul(const double *a, const double *b, double *out) /* column-major */
{
    double r[16];
    for (int c = 0; c < 4; c++)
        for (int rr = 0; rr < 4; rr++)
            r[4 * c + rr] = a[rr] * b[4 * c] + a[4 + rr] * b[4 * c + 1] + a[8 + rr] * b[4 * c + 2] +
                            a[12 + rr] * b[4 * c + 3];
    memcpy(out, r, sizeof r);
}

static void trs_matrix(const node_state *n, double *m)
{
    double x = n->r[0], y = n->r[1], z = n->r[2], w = n->r[3];
    double rot[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                     2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                     2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)};
    memset(m, 0, 16 * sizeof *m);
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            m[4 * c + r] = rot[3 * c + r] * n->s[c];
    for (int r = 0; r < 3; r++)
        m[12 + r] = n->t[r];
    m[15] = 1;
}

static void global_of(node_state *ns, int i)
{
    node_state *n = &ns[i];
    if (n->done)
        return;
    double local[16];
    if (n->has_matrix)
        memcpy(local, n->m, sizeof local);
    else
        trs_matrix(n, local);
    if (n->parent >= 0) {
        global_of(ns, n->parent);
        mat_mul(ns[n->parent].global, local, n->global);
    } else {
        memcpy(n->global, local, sizeof local);
    }
    n->done = 1;
}

static void read_vec(json_t *arr, double *out, int n, const double *dflt)
{
    for (int k = 0; k < n; k++) {
        json_t *v = json_array_get(arr, (size_t)k);
        out[k] = v ? json_number_value(v) : dflt[k];
    }
}

/* glTF's slerp (specification, Appendix: interpolation): the shorter arc. */
static void slerp(const double *a, const double *b, double u, double *out)
{
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    double s = d < 0 ? -1 : 1, ang = acos(fmin(1.0, fabs(d)));
    double wa, wb;
    if (ang < 1e-9) {
        wa = 1 - u;
        wb = u;
    } else {
        wa = sin(ang * (1 - u)) / sin(ang);
        wb = sin(ang * u) / sin(ang);
    }
    double len = 0;
    for (int k = 0; k < 4; k++) {
        out[k] = wa * a[k] + s * wb * b[k];
        len += out[k] * out[k];
    }
    len = sqrt(len);
    for (int k = 0; k < 4; k++)
        out[k] /= len;
}

/* Samples one channel's sampler at t into out (n values per key). */
static int sample(gr_doc *d, json_t *sampler, double t, int rotation, size_t n, double *out)
{
    size_t ic, oc;
    int inc, onc;
    float *in = gr_accessor(d, (int)json_integer_value(json_object_get(sampler, "input")), &ic, &inc);
    float *ov = gr_accessor(d, (int)json_integer_value(json_object_get(sampler, "output")), &oc, &onc);
    const char *interp = json_string_value(json_object_get(sampler, "interpolation"));
    int step = interp && !strcmp(interp, "STEP");
    if (!in || !ov || !ic || oc * (size_t)onc != ic * n ||
        (interp && strcmp(interp, "LINEAR") && !step)) {
        free(in);
        free(ov);
        return fail(d, "bad sampler (counts, or interpolation %s)", interp ? interp : "?");
    }
    size_t k = 0;
    double u = 0;
    if (t <= in[0]) {
        k = 0;
    } else if (t >= in[ic - 1]) {
        k = ic - 1;
    } else {
        while (k + 1 < ic && in[k + 1] <= t)
            k++;
        u = (t - in[k]) / ((double)in[k + 1] - in[k]);
    }
    const float *a = ov + k * n, *b = ov + (k + 1 < ic ? k + 1 : k) * n;
    if (step || u == 0) {
        for (size_t j = 0; j < n; j++)
            out[j] = a[j];
    } else if (rotation) {
        double qa[4] = {a[0], a[1], a[2], a[3]}, qb[4] = {b[0], b[1], b[2], b[3]};
        slerp(qa, qb, u, out);
    } else {
        for (size_t j = 0; j < n; j++)
            out[j] = a[j] + u * ((double)b[j] - a[j]);
    }
    free(in);
    free(ov);
    return 0;
}

size_t gr_mesh_nodes(gr_doc *d, int **nodes)
{
    json_t *list = json_object_get(d->json, "nodes");
    size_t n = 0;
    *nodes = malloc((json_array_size(list) + 1) * sizeof **nodes);
    for (size_t i = 0; *nodes && i < json_array_size(list); i++)
        if (json_object_get(json_array_get(list, i), "mesh"))
            (*nodes)[n++] = (int)i;
    return n;
}

int gr_find_animation(gr_doc *d, const char *name)
{
    json_t *list = json_object_get(d->json, "animations");
    for (size_t i = 0; i < json_array_size(list); i++) {
        json_t *a = json_array_get(list, i);
        const char *an = json_string_value(json_object_get(a, "name"));
        if (an && !strcmp(an, name) &&
            !json_is_true(json_object_get(json_object_get(a, "extras"), "ossa_morph_clip")))
            return (int)i;
    }
    return -1;
}

long gr_pose_primitive(gr_doc *d, int node, int primitive, int anim, float time, float **out)
{
    json_t *nodes = json_object_get(d->json, "nodes");
    size_t nn = json_array_size(nodes);
    json_t *jn = json_array_get(nodes, (size_t)node);
    json_t *mesh = json_array_get(json_object_get(d->json, "meshes"),
                                  (size_t)json_integer_value(json_object_get(jn, "mesh")));
    json_t *prim = json_array_get(json_object_get(mesh, "primitives"), (size_t)primitive);
    if (!prim)
        return fail(d, "node %d: no primitive %d", node, primitive);
    node_state *ns = calloc(nn + 1, sizeof *ns);
    size_t targets = json_array_size(json_object_get(prim, "targets"));
    double *weights = calloc(targets + 1, sizeof *weights);
    if (!ns || !weights) {
        free(ns);
        free(weights);
        return fail(d, "out of memory");
    }
    static const double zero[4] = {0, 0, 0, 1}, one[3] = {1, 1, 1};
    for (size_t i = 0; i < nn; i++) {
        json_t *j = json_array_get(nodes, i);
        ns[i].parent = -1;
        read_vec(json_object_get(j, "translation"), ns[i].t, 3, zero);
        read_vec(json_object_get(j, "rotation"), ns[i].r, 4, zero);
        read_vec(json_object_get(j, "scale"), ns[i].s, 3, one);
        json_t *mat = json_object_get(j, "matrix");
        if (mat) {
            ns[i].has_matrix = 1;
            for (int k = 0; k < 16; k++)
                ns[i].m[k] = json_number_value(json_array_get(mat, (size_t)k));
        }
    }
    for (size_t i = 0; i < nn; i++) {
        json_t *kids = json_object_get(json_array_get(nodes, i), "children");
        for (size_t k = 0; k < json_array_size(kids); k++) {
            size_t c = (size_t)json_integer_value(json_array_get(kids, k));
            if (c < nn)
                ns[c].parent = (int)i;
        }
    }
    json_t *mw = json_object_get(mesh, "weights");
    for (size_t k = 0; k < targets; k++)
        weights[k] = json_number_value(json_array_get(mw, k));
    int rc = 0;
    json_t *an = anim >= 0 ? json_array_get(json_object_get(d->json, "animations"), (size_t)anim) : NULL;
    json_t *channels = json_object_get(an, "channels"), *samplers = json_object_get(an, "samplers");
    for (size_t c = 0; c < json_array_size(channels) && !rc; c++) {
        json_t *ch = json_array_get(channels, c), *tg = json_object_get(ch, "target");
        size_t tn = (size_t)json_integer_value(json_object_get(tg, "node"));
        const char *path = json_string_value(json_object_get(tg, "path"));
        json_t *smp = json_array_get(samplers, (size_t)json_integer_value(json_object_get(ch, "sampler")));
        if (tn >= nn || !path || !smp) {
            rc = fail(d, "animation %d: bad channel %zu", anim, c);
        } else if (!strcmp(path, "translation")) {
            rc = sample(d, smp, time, 0, 3, ns[tn].t);
        } else if (!strcmp(path, "rotation")) {
            rc = sample(d, smp, time, 1, 4, ns[tn].r);
        } else if (!strcmp(path, "scale")) {
            rc = sample(d, smp, time, 0, 3, ns[tn].s);
        } else if (!strcmp(path, "weights") && (int)tn == node && targets) {
            rc = sample(d, smp, time, 0, targets, weights);
        }
    }
    size_t vc = 0, mc = 0;
    int comps, mcomps;
    json_t *attrs = json_object_get(prim, "attributes");
    float *pos = rc ? NULL : gr_accessor(d, (int)json_integer_value(json_object_get(attrs, "POSITION")), &vc, &comps);
    if (!rc && (!pos || comps != 3))
        rc = fail(d, "node %d: no POSITION", node);
    for (size_t k = 0; k < targets && !rc; k++) {
        if (weights[k] == 0)
            continue;
        json_t *tgt = json_array_get(json_object_get(prim, "targets"), k);
        float *dp = gr_accessor(d, (int)json_integer_value(json_object_get(tgt, "POSITION")), &mc, &mcomps);
        if (!dp || mc != vc || mcomps != 3) {
            free(dp);
            rc = fail(d, "node %d: bad morph target %zu", node, k);
            break;
        }
        for (size_t i = 0; i < 3 * vc; i++)
            pos[i] += (float)(weights[k] * dp[i]);
        free(dp);
    }
    double *res = rc ? NULL : calloc(3 * vc + 1, sizeof *res);
    json_t *skin = json_array_get(json_object_get(d->json, "skins"),
                                  (size_t)json_integer_value(json_object_get(jn, "skin")));
    if (!rc && json_object_get(jn, "skin")) {
        json_t *joints = json_object_get(skin, "joints");
        size_t jc = json_array_size(joints), ic = 0;
        int icomps;
        float *ibm = gr_accessor(d, (int)json_integer_value(json_object_get(skin, "inverseBindMatrices")), &ic, &icomps);
        double *jm = calloc(16 * jc + 1, sizeof *jm);
        if (!ibm || ic != jc || icomps != 16 || !jm) {
            rc = fail(d, "skin: bad inverse binds");
        } else {
            for (size_t j = 0; j < jc; j++) {
                size_t jnode = (size_t)json_integer_value(json_array_get(joints, j));
                double ib[16];
                for (int k = 0; k < 16; k++)
                    ib[k] = ibm[16 * j + (size_t)k];
                global_of(ns, (int)jnode);
                mat_mul(ns[jnode].global, ib, jm + 16 * j);
            }
            for (int set = 0; !rc; set++) {
                char jname[24], wname[24];
                snprintf(jname, sizeof jname, "JOINTS_%d", set);
                snprintf(wname, sizeof wname, "WEIGHTS_%d", set);
                json_t *ja = json_object_get(attrs, jname), *wa = json_object_get(attrs, wname);
                if (!ja || !wa)
                    break;
                size_t jcount, wcount;
                int jcomp, wcomp;
                float *jv = gr_accessor(d, (int)json_integer_value(ja), &jcount, &jcomp);
                float *wv = gr_accessor(d, (int)json_integer_value(wa), &wcount, &wcomp);
                if (!jv || !wv || jcount != vc || wcount != vc || jcomp != 4 || wcomp != 4) {
                    rc = fail(d, "bad %s / %s", jname, wname);
                } else {
                    for (size_t v = 0; v < vc; v++)
                        for (int k = 0; k < 4; k++) {
                            double w = wv[4 * v + (size_t)k];
                            size_t j = (size_t)jv[4 * v + (size_t)k];
                            if (w == 0)
                                continue;
                            if (j >= jc) {
                                rc = fail(d, "joint %zu out of range", j);
                                break;
                            }
                            const double *m = jm + 16 * j;
                            const float *p = pos + 3 * v;
                            for (int r = 0; r < 3; r++)
                                res[3 * v + (size_t)r] += w * (m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
                        }
                }
                free(jv);
                free(wv);
            }
        }
        free(ibm);
        free(jm);
    } else if (!rc) {
        global_of(ns, node);
        const double *m = ns[node].global;
        for (size_t v = 0; v < vc; v++)
            for (int r = 0; r < 3; r++)
                res[3 * v + (size_t)r] = m[r] * pos[3 * v] + m[4 + r] * pos[3 * v + 1] + m[8 + r] * pos[3 * v + 2] + m[12 + r];
    }
    long result = -1;
    if (!rc && res) {
        *out = malloc(3 * vc * sizeof **out + 1);
        for (size_t i = 0; *out && i < 3 * vc; i++)
            (*out)[i] = (float)res[i];
        result = *out ? (long)vc : -1;
    }
    free(res);
    free(pos);
    free(ns);
    free(weights);
    return result;
}
