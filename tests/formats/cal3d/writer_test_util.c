#include "writer_test_util.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_common.h"

typedef struct wt_cmp {
    const char *label;
    int differences;
} wt_cmp;

/* Reports at most a few differences per model, so one systematic error does not flood. */
static void differ(wt_cmp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void differ(wt_cmp *c, const char *fmt, ...)
{
    if (c->differences++ < 12) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "%s: ", c->label);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
    test_failures++;
}

/* Written floats are exact (binary) or shortest round-trip text (XML); the tolerance only
 * covers values rebuilt by arithmetic (morph deltas from absolute blend vertices). */
static bool near(float a, float b, float tol)
{
    float scale = fmaxf(1.0f, fmaxf(fabsf(a), fabsf(b)));
    return fabsf(a - b) <= tol * scale;
}

static void floats(wt_cmp *c, const char *what, const float *a, const float *b, size_t n,
                   float tol)
{
    for (size_t i = 0; i < n; i++)
        if (!near(a[i], b[i], tol)) {
            differ(c, "%s[%zu]: %.9g vs %.9g", what, i, (double)a[i], (double)b[i]);
            return;
        }
}

static void names(wt_cmp *c, const char *what, const char *a, const char *b)
{
    if (strcmp(a ? a : "", b ? b : "") != 0)
        differ(c, "%s: '%s' vs '%s'", what, a ? a : "", b ? b : "");
}

static void counts(wt_cmp *c, const char *what, long long a, long long b)
{
    if (a != b)
        differ(c, "%s: %lld vs %lld", what, a, b);
}

/* The name a written file gives back: the writer's file-name rule. */
static void file_name(const char *name, char *out, size_t size)
{
    size_t n = 0;
    for (const char *s = name ? name : ""; *s && n + 1 < size && n < 100; s++) {
        unsigned char ch = (unsigned char)*s;
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                  (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || (ch == '.' && n > 0);
        out[n++] = ok ? (char)ch : '_';
    }
    out[n] = '\0';
}

static void object_name(wt_cmp *c, const char *what, const char *original, const char *read)
{
    char expect[128];
    file_name(original, expect, sizeof expect);
    if (!expect[0])
        return; /* a fallback name was made up */
    /* A duplicate gets a numeric suffix: accept "<name>" or "<name>_<n>". */
    size_t n = strlen(expect);
    if (strncmp(read, expect, n) == 0 && (read[n] == '\0' || read[n] == '_'))
        return;
    differ(c, "%s: '%s' read back as '%s'", what, original, read);
}

static void compare_bones(wt_cmp *c, const ossa_model *a, const ossa_model *b,
                          const wt_compare_options *opt)
{
    counts(c, "bone count", a->bone_count, b->bone_count);
    if (a->bone_count != b->bone_count)
        return;
    char what[160];
    for (uint32_t i = 0; i < a->bone_count; i++) {
        const ossa_bone *x = &a->bones[i], *y = &b->bones[i];
        snprintf(what, sizeof what, "bone %u name", i);
        names(c, what, x->name, y->name);
        snprintf(what, sizeof what, "bone %u parent", i);
        counts(c, what, x->parent, y->parent);
        snprintf(what, sizeof what, "bone %u rest translation", i);
        floats(c, what, x->rest_t, y->rest_t, 3, 1e-7f);
        snprintf(what, sizeof what, "bone %u rest rotation", i);
        floats(c, what, x->rest_r, y->rest_r, 4, 1e-7f);
        snprintf(what, sizeof what, "bone %u rest scale", i);
        floats(c, what, x->rest_s, y->rest_s, 3, 1e-7f);
        snprintf(what, sizeof what, "bone %u inverse bind translation", i);
        floats(c, what, x->inv_bind_t, y->inv_bind_t, 3, 1e-7f);
        snprintf(what, sizeof what, "bone %u inverse bind rotation", i);
        floats(c, what, x->inv_bind_r, y->inv_bind_r, 4, 1e-7f);
        if (opt->lights) {
            snprintf(what, sizeof what, "bone %u light type", i);
            counts(c, what, x->light_type, y->light_type);
            snprintf(what, sizeof what, "bone %u light colour", i);
            floats(c, what, x->light_color, y->light_color, 3, 1e-7f);
        }
        /* Children as written: the model's lists, or derived from the parents. */
        if (x->child_count) {
            snprintf(what, sizeof what, "bone %u child count", i);
            counts(c, what, x->child_count, y->child_count);
            for (uint32_t k = 0; k < x->child_count && x->child_count == y->child_count; k++)
                if (x->children[k] != y->children[k]) {
                    differ(c, "bone %u child %u: %u vs %u", i, k, x->children[k], y->children[k]);
                    break;
                }
        }
    }
    if (opt->lights) {
        float ax[3] = {0, 0, 0}, bx[3] = {0, 0, 0};
        if (a->has_scene_ambient)
            memcpy(ax, a->scene_ambient, sizeof ax);
        if (b->has_scene_ambient)
            memcpy(bx, b->scene_ambient, sizeof bx);
        floats(c, "scene ambient colour", ax, bx, 3, 1e-7f);
    }
}

/* Would a classic/upstream CMF reader flip this submesh (docs/FORMATS.md, CMF layout)? */
static bool reader_flips(const ossa_submesh *sm)
{
    if (sm->face_count == 0)
        return false;
    const uint32_t *idx = sm->indices;
    const float *p1 = sm->positions + 3 * (size_t)idx[0];
    const float *p2 = sm->positions + 3 * (size_t)idx[1];
    const float *p3 = sm->positions + 3 * (size_t)idx[2];
    const float *vn = sm->normals + 3 * (size_t)idx[0];
    double u[3], v[3];
    for (int k = 0; k < 3; k++) {
        u[k] = (double)p1[k] - p2[k];
        v[k] = (double)p3[k] - p2[k];
    }
    double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    return len > 0.0 && (n[0] * vn[0] + n[1] * vn[1] + n[2] * vn[2]) / len > 0.0;
}

static void compare_submesh(wt_cmp *c, const char *where, const ossa_submesh *x,
                            const ossa_submesh *y, const wt_compare_options *opt)
{
    char what[256];
#define SUB(field) (snprintf(what, sizeof what, "%s %s", where, field), what)
    counts(c, SUB("material"), x->material, y->material);
    counts(c, SUB("vertex count"), x->vertex_count, y->vertex_count);
    counts(c, SUB("face count"), x->face_count, y->face_count);
    counts(c, SUB("uv sets"), x->uv_set_count, y->uv_set_count);
    counts(c, SUB("lod count"), x->lod_count, y->lod_count);
    counts(c, SUB("spring count"), x->spring_count, y->spring_count);
    counts(c, SUB("morph count"), x->morph_count, y->morph_count);
    counts(c, SUB("max influences"), x->max_influences, y->max_influences);
    if (x->vertex_count != y->vertex_count || x->face_count != y->face_count ||
        x->uv_set_count != y->uv_set_count || x->spring_count != y->spring_count ||
        x->morph_count != y->morph_count)
        return;
    size_t nv = x->vertex_count;
    floats(c, SUB("positions"), x->positions, y->positions, 3 * nv, 1e-7f);
    floats(c, SUB("normals"), x->normals, y->normals, 3 * nv, 1e-7f);
    if (x->uv_set_count)
        floats(c, SUB("uvs"), x->uvs, y->uvs, 2 * nv * x->uv_set_count, 1e-7f);
    for (size_t v = 0; v < nv; v++) {
        const float white[3] = {1, 1, 1};
        const float *ca = x->colors ? x->colors + 3 * v : white;
        const float *cb = y->colors ? y->colors + 3 * v : white;
        if (memcmp(ca, cb, sizeof white) != 0) {
            differ(c, "%s vertex %zu colour differs", where, v);
            break;
        }
        int32_t ka = x->collapse_id ? x->collapse_id[v] : -1;
        int32_t kb = y->collapse_id ? y->collapse_id[v] : -1;
        uint32_t fa = x->face_collapse_count ? x->face_collapse_count[v] : 0;
        uint32_t fb = y->face_collapse_count ? y->face_collapse_count[v] : 0;
        if (ka != kb || fa != fb) {
            differ(c, "%s vertex %zu LOD data: %d/%u vs %d/%u", where, v, ka, fa, kb, fb);
            break;
        }
        if (x->influence_start[v + 1] != y->influence_start[v + 1]) {
            differ(c, "%s vertex %zu influence start differs", where, v);
            break;
        }
    }
    for (uint32_t k = 0; k < x->influence_start[nv] && x->influence_start[nv] == y->influence_start[nv];
         k++)
        if (x->influences[k].bone != y->influences[k].bone ||
            !near(x->influences[k].weight, y->influences[k].weight, 1e-7f)) {
            differ(c, "%s influence %u: bone %u weight %g vs bone %u weight %g", where, k,
                   x->influences[k].bone, (double)x->influences[k].weight, y->influences[k].bone,
                   (double)y->influences[k].weight);
            break;
        }
    if (x->spring_count) {
        for (size_t v = 0; v < nv; v++) {
            float pa = x->physique_weights ? x->physique_weights[v] : 0.0f;
            float pb = y->physique_weights ? y->physique_weights[v] : 0.0f;
            if (!near(pa, pb, 1e-7f)) {
                differ(c, "%s vertex %zu physique weight %g vs %g", where, v, (double)pa,
                       (double)pb);
                break;
            }
        }
        for (uint32_t s = 0; s < x->spring_count; s++) {
            const ossa_spring *sa = &x->springs[s], *sb = &y->springs[s];
            if (sa->vertex[0] != sb->vertex[0] || sa->vertex[1] != sb->vertex[1] ||
                !near(sa->coefficient, sb->coefficient, 1e-7f) ||
                !near(sa->idle_length, sb->idle_length, 1e-7f)) {
                differ(c, "%s spring %u differs", where, s);
                break;
            }
        }
    }
    /* A classic/upstream CMF reader flips a submesh whose first face agrees with its normal;
     * no file can avoid that, so such a submesh comes back flipped. */
    bool flipped = opt->binary && !opt->imvu_binary && reader_flips(x);
    for (size_t f = 0; f < x->face_count; f++) {
        const uint32_t *ta = x->indices + 3 * f, *tb = y->indices + 3 * f;
        uint32_t e1 = flipped ? ta[2] : ta[1], e2 = flipped ? ta[1] : ta[2];
        if (ta[0] != tb[0] || e1 != tb[1] || e2 != tb[2]) {
            differ(c, "%s face %zu: %u %u %u vs %u %u %u%s", where, f, ta[0], ta[1], ta[2], tb[0],
                   tb[1], tb[2], flipped ? " (flip expected)" : "");
            break;
        }
    }
    for (uint32_t t = 0; t < x->morph_count; t++) {
        const ossa_morph_target *ma = &x->morphs[t], *mb = &y->morphs[t];
        snprintf(what, sizeof what, "%s morph %u name", where, t);
        names(c, what, ma->name, mb->name);
        snprintf(what, sizeof what, "%s morph %u count", where, t);
        counts(c, what, ma->count, mb->count);
        if (ma->count != mb->count)
            continue;
        for (uint32_t k = 0; k < ma->count; k++)
            if (ma->vertex[k] != mb->vertex[k]) {
                differ(c, "%s morph %u vertex %u: %u vs %u", where, t, k, ma->vertex[k],
                       mb->vertex[k]);
                break;
            }
        snprintf(what, sizeof what, "%s morph %u position deltas", where, t);
        floats(c, what, ma->d_position, mb->d_position, 3 * (size_t)ma->count, 1e-5f);
        snprintf(what, sizeof what, "%s morph %u normal deltas", where, t);
        floats(c, what, ma->d_normal, mb->d_normal, 3 * (size_t)ma->count, 1e-5f);
        size_t nuv = 2 * (size_t)x->uv_set_count * ma->count;
        for (size_t k = 0; k < nuv; k++) {
            float da = ma->d_uv ? ma->d_uv[k] : 0.0f, db = mb->d_uv ? mb->d_uv[k] : 0.0f;
            if (!near(da, db, 1e-5f)) {
                differ(c, "%s morph %u uv delta %zu: %g vs %g", where, t, k, (double)da,
                       (double)db);
                break;
            }
        }
    }
#undef SUB
}

static void compare_clips(wt_cmp *c, const ossa_model *a, const ossa_model *b,
                          const wt_compare_options *opt)
{
    counts(c, "clip count", a->clip_count, b->clip_count);
    char what[256];
    for (uint32_t i = 0; i < a->clip_count && a->clip_count == b->clip_count; i++) {
        const ossa_clip *x = &a->clips[i], *y = &b->clips[i];
        snprintf(what, sizeof what, "clip %u name", i);
        object_name(c, what, x->name, y->name);
        snprintf(what, sizeof what, "clip '%s' duration", x->name);
        floats(c, what, &x->duration, &y->duration, 1, 1e-7f);
        snprintf(what, sizeof what, "clip '%s' track count", x->name);
        counts(c, what, x->track_count, y->track_count);
        for (uint32_t t = 0; t < x->track_count && x->track_count == y->track_count; t++) {
            const ossa_track *p = &x->tracks[t], *q = &y->tracks[t];
            snprintf(what, sizeof what, "clip '%s' track %u", x->name, t);
            counts(c, what, p->bone, q->bone);
            counts(c, what, p->key_count, q->key_count);
            if (opt->track_flags)
                counts(c, what, p->flags, q->flags);
            if (p->key_count != q->key_count)
                continue;
            size_t n = p->key_count;
            floats(c, what, p->times, q->times, n, 1e-7f);
            floats(c, what, p->translations, q->translations, 3 * n, 1e-7f);
            floats(c, what, p->rotations, q->rotations, 4 * n, 1e-7f);
            for (size_t k = 0; k < 3 * n; k++) {
                float sa = p->scales ? p->scales[k] : 1.0f, sb = q->scales ? q->scales[k] : 1.0f;
                if (!near(sa, sb, 1e-6f)) {
                    differ(c, "%s scale %zu: %g vs %g", what, k, (double)sa, (double)sb);
                    break;
                }
            }
        }
    }
    counts(c, "morph clip count", a->morph_clip_count, b->morph_clip_count);
    for (uint32_t i = 0; i < a->morph_clip_count && a->morph_clip_count == b->morph_clip_count;
         i++) {
        const ossa_morph_clip *x = &a->morph_clips[i], *y = &b->morph_clips[i];
        snprintf(what, sizeof what, "morph clip %u name", i);
        object_name(c, what, x->name, y->name);
        snprintf(what, sizeof what, "morph clip '%s'", x->name);
        floats(c, what, &x->duration, &y->duration, 1, 1e-7f);
        /* The binary form leaves out tracks without keys (a CPF track needs one). */
        uint32_t kept = 0;
        for (uint32_t t = 0; t < x->track_count; t++)
            kept += !opt->binary || x->tracks[t].key_count;
        counts(c, what, kept, y->track_count);
        for (uint32_t t = 0, u = 0; t < x->track_count && kept == y->track_count; t++) {
            if (opt->binary && !x->tracks[t].key_count)
                continue;
            const ossa_morph_track *p = &x->tracks[t], *q = &y->tracks[u++];
            snprintf(what, sizeof what, "morph clip '%s' track %u", x->name, t);
            names(c, what, p->morph_name, q->morph_name);
            counts(c, what, p->key_count, q->key_count);
            if (p->key_count == q->key_count && p->key_count) {
                floats(c, what, p->times, q->times, p->key_count, 1e-7f);
                floats(c, what, p->weights, q->weights, p->key_count, 1e-7f);
            }
        }
    }
}

static void compare_materials(wt_cmp *c, const ossa_model *a, const ossa_model *b,
                              const wt_compare_options *opt)
{
    counts(c, "material count", a->material_count, b->material_count);
    char what[256];
    for (uint32_t i = 0; i < a->material_count && a->material_count == b->material_count; i++) {
        const ossa_material *x = &a->materials[i], *y = &b->materials[i];
        snprintf(what, sizeof what, "material %u name", i);
        object_name(c, what, x->name, y->name);
        snprintf(what, sizeof what, "material '%s' colours", x->name);
        /* Stored as bytes: within half a step of 1/255. */
        for (int k = 0; k < 4; k++)
            if (fabsf(x->ambient[k] - y->ambient[k]) > 0.5f / 255 + 1e-6f ||
                fabsf(x->diffuse[k] - y->diffuse[k]) > 0.5f / 255 + 1e-6f ||
                fabsf(x->specular[k] - y->specular[k]) > 0.5f / 255 + 1e-6f) {
                differ(c, "%s: component %d differs", what, k);
                break;
            }
        snprintf(what, sizeof what, "material '%s' shininess", x->name);
        floats(c, what, &x->shininess, &y->shininess, 1, 1e-7f);
        snprintf(what, sizeof what, "material '%s' map count", x->name);
        counts(c, what, x->map_count, y->map_count);
        for (uint32_t k = 0; k < x->map_count && x->map_count == y->map_count; k++) {
            snprintf(what, sizeof what, "material '%s' map %u", x->name, k);
            names(c, what, x->maps[k].file, y->maps[k].file);
            if (opt->map_types)
                names(c, what, x->maps[k].type, y->maps[k].type);
        }
    }
}

int wt_compare_models(const char *label, const ossa_model *a, const ossa_model *b,
                      const wt_compare_options *opt)
{
    wt_cmp c = {label, 0};
    compare_bones(&c, a, b, opt);
    counts(&c, "mesh count", a->mesh_count, b->mesh_count);
    for (uint32_t i = 0; i < a->mesh_count && a->mesh_count == b->mesh_count; i++) {
        const ossa_mesh *x = &a->meshes[i], *y = &b->meshes[i];
        char where[160];
        snprintf(where, sizeof where, "mesh %u name", i);
        object_name(&c, where, x->name, y->name);
        snprintf(where, sizeof where, "mesh '%s' submesh count", x->name);
        counts(&c, where, x->submesh_count, y->submesh_count);
        for (uint32_t s = 0; s < x->submesh_count && x->submesh_count == y->submesh_count; s++) {
            snprintf(where, sizeof where, "mesh '%s' submesh %u", x->name, s);
            compare_submesh(&c, where, &x->submeshes[s], &y->submeshes[s], opt);
        }
    }
    compare_clips(&c, a, b, opt);
    compare_materials(&c, a, b, opt);
    if (c.differences > 12)
        fprintf(stderr, "%s: %d differences in all\n", label, c.differences);
    return c.differences;
}

bool wt_make_temp_dir(char *out, size_t size, const char *prefix)
{
    snprintf(out, size, "/tmp/%s-XXXXXX", prefix);
    return mkdtemp(out) != NULL;
}

void wt_remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[4096];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

int wt_count_files(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}
