/* Cal3D XML readers: XSF skeletons, XAF animations, XRF materials and XPF morph
 * animations (docs/FORMATS.md: Cal3D XML layouts, D3, D5, D6, D7). Element and attribute names are
 * case-insensitive; children are found by name, so their order does not matter; every count
 * attribute is only a hint checked against the elements actually present. Each reader is a table
 * of element kinds (the *_kinds arrays) walked by ossa_xml_each: containers (SKELETON, TRACK,
 * SUBMESH, MORPH...) are streamed, records (BONE, KEYFRAME, VERTEX, FACE...) come parsed whole,
 * and every count used to allocate was pre-scanned and is checked against its cap first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/checked.h"
#include "ossa/limits.h"
#include "formats/cal3d/cal3d_xml_util.h"
#include "io/texture_path.h"

/* ---- XSF ---- */

typedef struct xsf_state {
    ossa_bone *bones;
    uint32_t count;
} xsf_state;

static ossa_status read_bone(ossa_xml *x, void *ctx, const xmlNode *e, uint32_t index,
                             const uint32_t *counts)
{
    (void)counts;
    ossa_build *b = x->b;
    xsf_state *xs = ctx;
    ossa_bone *bone = &xs->bones[index];
    uint32_t count = xs->count;
    const char *name = ossa_xml_attr(x, e, "NAME");
    if (!name)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, ossa_xml_line(e), "BONE %u has no NAME", index);
    OSSA_TRY(ossa_xml_dup_str(x, ossa_xml_line(e), "BONE NAME", &bone->name, name));
    char what[160];
    snprintf(what, sizeof what, "BONE '%.100s'", bone->name);

    int64_t id;
    OSSA_TRY(ossa_xml_attr_int(x, e, "ID", false, index, INT32_MIN, INT32_MAX, &id));
    if (id != (int64_t)index)
        ossa_warn(b, "line %d: %s has ID %lld but is bone %u in file order (file order used)",
                  ossa_xml_line(e), what, (long long)id, index);

    OSSA_TRY(ossa_xml_child_floats(x, e, "TRANSLATION", what, bone->rest_t, 3));
    OSSA_TRY(ossa_xml_child_floats(x, e, "ROTATION", what, bone->rest_r, 4));
    OSSA_TRY(ossa_xml_child_floats(x, e, "LOCALTRANSLATION", what, bone->inv_bind_t, 3));
    OSSA_TRY(ossa_xml_child_floats(x, e, "LOCALROTATION", what, bone->inv_bind_r, 4));
    ossa_cal3d_quat_to_hamilton(bone->rest_r);
    ossa_cal3d_quat_to_hamilton(bone->inv_bind_r);
    bone->rest_s[0] = bone->rest_s[1] = bone->rest_s[2] = 1.0f;

    xmlNode *pe = ossa_xml_first(e, "PARENTID");
    if (!pe)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, ossa_xml_line(e), "%s: no <PARENTID> element",
                              what);
    int64_t parent;
    OSSA_TRY(ossa_xml_parse_ints(x, ossa_xml_line(pe), what, ossa_xml_text(x, pe), &parent, 1,
                                 INT32_MIN, INT32_MAX));
    if (parent < -1 || parent >= (int64_t)count || parent == (int64_t)index)
        return ossa_fail_line(b, OSSA_ERR_RANGE, ossa_xml_line(pe),
                              "%s: PARENTID %lld not in -1..%u (and not itself)", what,
                              (long long)parent, count - 1);
    bone->parent = (int32_t)parent;

    /* As the binary CSF: an unknown light type is kept, with a warning (a set read from one
     * form and written to the other reads back either way). */
    int64_t light;
    OSSA_TRY(ossa_xml_attr_int(x, e, "LIGHTTYPE", false, 0, INT32_MIN, INT32_MAX, &light));
    bone->light_type = (int32_t)light;
    if (light < 0 || light > 4)
        ossa_warn(b, "line %d: %s: unknown light type %lld", ossa_xml_line(e), what,
                  (long long)light);
    if (ossa_xml_attr(x, e, "LIGHTCOLOR"))
        OSSA_TRY(ossa_xml_parse_floats(x, ossa_xml_line(e), what, ossa_xml_attr(x, e, "LIGHTCOLOR"),
                                       bone->light_color, 3));

    uint32_t nchild = ossa_xml_count(e, "CHILDID");
    OSSA_TRY(ossa_xml_check_count(x, e, "CHILDID", nchild, OSSA_MAX_CHILDREN));
    if (nchild) {
        uint32_t *kids;
        OSSA_TRY(ossa_build_array(b, &kids, nchild, sizeof *kids));
        uint32_t k = 0;
        for (xmlNode *c = ossa_xml_first(e, "CHILDID"); c; c = ossa_xml_next(c, "CHILDID")) {
            int64_t v;
            OSSA_TRY(ossa_xml_parse_ints(x, ossa_xml_line(c), what, ossa_xml_text(x, c), &v, 1,
                                         INT32_MIN, INT32_MAX));
            /* a bone its own child: refused as the binary reader refuses it (Cal3D's
             * calculateState would recurse into it forever) */
            if (v < 0 || v >= (int64_t)count || v == (int64_t)index)
                return ossa_fail_line(b, OSSA_ERR_RANGE, ossa_xml_line(c),
                                      "%s: CHILDID %lld is not another bone of 0..%u", what,
                                      (long long)v, count - 1);
            kids[k++] = (uint32_t)v;
        }
        bone->children = kids;
        bone->child_count = nchild;
    }
    return OSSA_OK;
}

static ossa_status read_skeleton(ossa_xml *x, void *ctx, const xmlNode *root, uint32_t index,
                                 const uint32_t *counts);
static const ossa_xml_kind xsf_bone_kinds[] = {{"BONE", OSSA_MAX_BONES, read_bone, NULL, 0}};
static const ossa_xml_kind xsf_root = {"SKELETON", 1, read_skeleton, xsf_bone_kinds, 1};

static ossa_status read_skeleton(ossa_xml *x, void *ctx, const xmlNode *root, uint32_t index,
                                 const uint32_t *counts)
{
    (void)ctx;
    (void)index;
    ossa_build *b = x->b;
    ossa_model *m = b->model;
    uint32_t n = counts[0];
    OSSA_TRY(ossa_xml_check_count(x, root, "BONE", n, OSSA_MAX_BONES));
    if (n == 0)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, ossa_xml_line(root), "SKELETON has no BONE");
    OSSA_TRY(ossa_xml_check_hint(x, root, "NUMBONES", n, "BONE"));
    const char *ambient = ossa_xml_attr(x, root, "SCENEAMBIENTCOLOR");
    float amb[3] = {0, 0, 0};
    if (ambient)
        OSSA_TRY(ossa_xml_parse_floats(x, ossa_xml_line(root), "SKELETON SCENEAMBIENTCOLOR",
                                       ambient, amb, 3));
    ossa_bone *bones;
    OSSA_TRY(ossa_build_array(b, &bones, n, sizeof *bones));
    xsf_state xs = {bones, n};
    OSSA_TRY(ossa_xml_each(x, root, &xsf_root, counts, &xs));
    OSSA_TRY(ossa_build_set_skeleton(b, bones, n));
    m->skeleton_format = OSSA_FORMAT_XSF;
    m->skeleton_version = x->version;
    m->skeleton_lineage = x->lineage; /* XML has one form per version: no fork to tell apart */
    if (ambient) {
        m->has_scene_ambient = 1;
        memcpy(m->scene_ambient, amb, sizeof amb);
    }
    return OSSA_OK;
}

ossa_status ossa_read_xsf(ossa_build *b, const uint8_t *data, size_t size)
{
    return ossa_xml_read(b, data, size, "XSF", &xsf_root, NULL);
}

/* ---- XAF ---- */

typedef struct xaf_state {
    ossa_track *tracks;
    uint32_t filled; /* keys without TRANSLATION, for one warning */
} xaf_state;

typedef struct xaf_track_state {
    ossa_track *t;
    float *times, *tr, *rot;
    const float *rest;
    bool copy_previous;
    uint32_t *filled;
    const char *what;
} xaf_track_state;

static ossa_status read_keyframe(ossa_xml *x, void *ctx, const xmlNode *kf, uint32_t k,
                                 const uint32_t *counts)
{
    (void)counts;
    xaf_track_state *ts = ctx;
    float *tr = ts->tr, *rot = ts->rot;
    char kwhat[140];
    snprintf(kwhat, sizeof kwhat, "%s KEYFRAME %u", ts->what, k);
    OSSA_TRY(ossa_xml_attr_float(x, kf, "TIME", true, 0, &ts->times[k]));
    OSSA_TRY(ossa_xml_child_floats(x, kf, "ROTATION", kwhat, &rot[4 * (size_t)k], 4));
    ossa_cal3d_quat_to_hamilton(&rot[4 * (size_t)k]);
    if (ossa_xml_first(kf, "TRANSLATION")) {
        OSSA_TRY(ossa_xml_child_floats(x, kf, "TRANSLATION", kwhat, &tr[3 * (size_t)k], 3));
    } else {
        const float *src = ts->copy_previous && k > 0 ? &tr[3 * ((size_t)k - 1)] : ts->rest;
        if (src)
            memcpy(&tr[3 * (size_t)k], src, 3 * sizeof(float));
        (*ts->filled)++;
    }
    return OSSA_OK;
}

static ossa_status read_track(ossa_xml *x, void *ctx, const xmlNode *e, uint32_t index,
                              const uint32_t *counts);
static const ossa_xml_kind xaf_key_kinds[] = {{"KEYFRAME", OSSA_MAX_KEYS, read_keyframe, NULL, 0}};
static const ossa_xml_kind xaf_track_kinds[] = {
    {"TRACK", OSSA_MAX_TRACKS, read_track, xaf_key_kinds, 1}};

static ossa_status read_track(ossa_xml *x, void *ctx, const xmlNode *e, uint32_t index,
                              const uint32_t *counts)
{
    ossa_build *b = x->b;
    xaf_state *as = ctx;
    ossa_track *t = &as->tracks[index];
    int line = ossa_xml_line(e);
    int64_t bone_id;
    OSSA_TRY(ossa_xml_attr_int(x, e, "BONEID", true, 0, INT32_MIN, INT32_MAX, &bone_id));
    OSSA_TRY(ossa_build_map_bone(b, bone_id, -1, line, &t->bone));
    char what[96];
    snprintf(what, sizeof what, "TRACK of bone %lld", (long long)bone_id);

    /* IMVU compression hints: atoi != 0, each defaulting to 1. */
    static const struct { const char *attr; uint32_t flag; } hints[] = {
        {"TRANSLATIONREQUIRED", OSSA_TRACK_TRANSLATION_REQUIRED},
        {"TRANSLATIONISDYNAMIC", OSSA_TRACK_TRANSLATION_DYNAMIC},
        {"HIGHRANGEREQUIRED", OSSA_TRACK_HIGH_RANGE}};
    for (size_t h = 0; h < sizeof hints / sizeof hints[0]; h++) {
        int64_t v;
        OSSA_TRY(ossa_xml_attr_int(x, e, hints[h].attr, false, 1, INT32_MIN, INT32_MAX, &v));
        if (v != 0)
            t->flags |= hints[h].flag;
    }

    uint32_t nk = counts[0];
    OSSA_TRY(ossa_xml_check_count(x, e, "KEYFRAME", nk, OSSA_MAX_KEYS));
    if (nk == 0)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, line, "%s has no KEYFRAME", what);
    OSSA_TRY(ossa_xml_check_hint(x, e, "NUMKEYFRAMES", nk, "KEYFRAME"));
    xaf_track_state ts = {t, NULL, NULL, NULL, NULL, false, &as->filled, what};
    OSSA_TRY(ossa_build_array(b, &ts.times, nk, sizeof *ts.times));
    OSSA_TRY(ossa_build_array(b, &ts.tr, (size_t)nk * 3, sizeof *ts.tr));
    OSSA_TRY(ossa_build_array(b, &ts.rot, (size_t)nk * 4, sizeof *ts.rot));

    /* D5: a key without TRANSLATION takes the previous key's when the track says the
     * translation is required but static, else the bone's rest translation, else 0. */
    if (b->bone_from_file && t->bone < b->model->bone_count)
        ts.rest = b->model->bones[t->bone].rest_t;
    ts.copy_previous = (t->flags & OSSA_TRACK_TRANSLATION_REQUIRED) &&
                       !(t->flags & OSSA_TRACK_TRANSLATION_DYNAMIC);
    OSSA_TRY(ossa_xml_each(x, e, &xaf_track_kinds[0], counts, &ts));
    t->key_count = nk;
    t->times = ts.times;
    t->translations = ts.tr;
    t->rotations = ts.rot;
    return ossa_build_sort_track(b, t, b->stem);
}

static ossa_status read_animation(ossa_xml *x, void *ctx, const xmlNode *root, uint32_t index,
                                  const uint32_t *counts);
static const ossa_xml_kind xaf_root = {"ANIMATION", 1, read_animation, xaf_track_kinds, 1};

static ossa_status read_animation(ossa_xml *x, void *ctx, const xmlNode *root, uint32_t index,
                                  const uint32_t *counts)
{
    (void)ctx;
    (void)index;
    ossa_build *b = x->b;
    float duration;
    OSSA_TRY(ossa_xml_attr_float(x, root, "DURATION", true, 0, &duration));
    if (!(duration > 0.0f))
        return ossa_fail_line(b, OSSA_ERR_VALUE, ossa_xml_line(root),
                              "ANIMATION DURATION %g is not positive", (double)duration);
    uint32_t nt = counts[0];
    OSSA_TRY(ossa_xml_check_count(x, root, "TRACK", nt, OSSA_MAX_TRACKS));
    OSSA_TRY(ossa_xml_check_hint(x, root, "NUMTRACKS", nt, "TRACK"));
    ossa_track *tracks = NULL;
    if (nt)
        OSSA_TRY(ossa_build_array(b, &tracks, nt, sizeof *tracks));
    xaf_state as = {tracks, 0};
    OSSA_TRY(ossa_xml_each(x, root, &xaf_root, counts, &as));
    uint32_t filled = as.filled;
    for (uint32_t a = 0; a < nt; a++)
        for (uint32_t c = a + 1; c < nt; c++)
            if (tracks[a].bone == tracks[c].bone) {
                ossa_warn(b, "two tracks animate bone %u; the later one wins", tracks[a].bone);
                a = c = nt; /* one warning is enough */
            }
    if (filled)
        ossa_warn(b, "%u keyframe%s without TRANSLATION filled in (rest or previous translation)",
                  filled, filled == 1 ? "" : "s");
    ossa_clip *clip = ossa_build_push_clip(b);
    if (!clip)
        return OSSA_ERR_NOMEM;
    clip->name = b->stem;
    clip->duration = duration;
    clip->track_count = nt;
    clip->tracks = tracks;
    clip->format = OSSA_FORMAT_XAF;
    clip->version = x->version;
    return OSSA_OK;
}

ossa_status ossa_read_xaf(ossa_build *b, const uint8_t *data, size_t size)
{
    return ossa_xml_read(b, data, size, "XAF", &xaf_root, NULL);
}
/* ---- XRF ---- */

/* AMBIENT, DIFFUSE and SPECULAR through one stream, as libcal3d 0.11 reads them
 * (cal3d_xml_colour.c); text in any other form than four integers in 0..255 is warned about
 * with what it was read as. */
static ossa_status read_color(ossa_xml *x, const xmlNode *root, const char *name,
                              ossa_xml_colour_stream *stream, float out[4])
{
    xmlNode *e = ossa_xml_first(root, name);
    if (!e)
        return ossa_fail_line(x->b, OSSA_ERR_FORMAT, ossa_xml_line(root),
                              "MATERIAL has no <%s> element", name);
    const char *text = ossa_xml_text(x, e);
    const char *p = text;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    if (!*p) /* 0.11: an element without text fails the load */
        return ossa_fail_line(x->b, OSSA_ERR_VALUE, ossa_xml_line(e), "%s has no text", name);
    uint8_t v[4];
    bool plain = ossa_xml_colour_read(stream, text, v);
    if (!plain)
        ossa_warn(x->b, "line %d: %s '%.40s' read as libcal3d 0.11 reads it: %u %u %u %u%s",
                  ossa_xml_line(e), name, p, v[0], v[1], v[2], v[3],
                  stream->truncated ? " (text past 1023 characters ignored)" : "");
    for (int i = 0; i < 4; i++)
        out[i] = (float)v[i] / 255.0f;
    return OSSA_OK;
}

/* Text of a MAP without the white space around it. */
static const char *trimmed(const char *s, size_t *len)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        n--;
    *len = n;
    return s;
}

/* A material is small: MATERIAL is one record, parsed whole (the pre-scan caps what it holds). */
static ossa_status read_material(ossa_xml *x, void *ctx, const xmlNode *root, uint32_t index,
                                 const uint32_t *counts)
{
    (void)ctx;
    (void)index;
    (void)counts;
    ossa_build *b = x->b;
    float ambient[4], diffuse[4], specular[4], shininess;
    ossa_xml_colour_stream stream = {0};
    OSSA_TRY(read_color(x, root, "AMBIENT", &stream, ambient));
    OSSA_TRY(read_color(x, root, "DIFFUSE", &stream, diffuse));
    OSSA_TRY(read_color(x, root, "SPECULAR", &stream, specular));
    OSSA_TRY(ossa_xml_child_floats(x, root, "SHININESS", "MATERIAL", &shininess, 1));
    uint32_t n = ossa_xml_count(root, "MAP");
    OSSA_TRY(ossa_xml_check_count(x, root, "MAP", n, OSSA_MAX_MAPS));
    OSSA_TRY(ossa_xml_check_hint(x, root, "NUMMAPS", n, "MAP"));
    ossa_texture_map *maps = NULL;
    if (n)
        OSSA_TRY(ossa_build_array(b, &maps, n, sizeof *maps));
    uint32_t i = 0;
    for (xmlNode *e = ossa_xml_first(root, "MAP"); e; e = ossa_xml_next(e, "MAP"), i++) {
        size_t len;
        const char *file = trimmed(ossa_xml_text(x, e), &len);
        OSSA_TRY(ossa_xml_check_length(x, ossa_xml_line(e), "MAP file name", len));
        if (len == 0)
            ossa_warn(b, "line %d: MAP %u names no file", ossa_xml_line(e), i);
        OSSA_TRY(ossa_build_strndup(b, &maps[i].file, file, len));
        const char *type = ossa_xml_attr(x, e, "TYPE");
        OSSA_TRY(ossa_xml_dup_str(x, ossa_xml_line(e), "MAP TYPE", &maps[i].type,
                                  type ? type : ""));
    }
    ossa_material sorted = {0}; /* settings out of the maps, before the part joins the model */
    OSSA_TRY(ossa_cal3d_material_maps(b, maps, &n, &sorted));
    ossa_material *mat = ossa_build_push_material(b);
    if (!mat)
        return OSSA_ERR_NOMEM;
    mat->property_count = sorted.property_count;
    mat->properties = sorted.properties;
    mat->name = b->stem;
    memcpy(mat->ambient, ambient, sizeof ambient);
    memcpy(mat->diffuse, diffuse, sizeof diffuse);
    memcpy(mat->specular, specular, sizeof specular);
    mat->shininess = shininess;
    mat->map_count = n;
    mat->maps = maps;
    mat->format = OSSA_FORMAT_XRF;
    mat->version = x->version;
    return OSSA_OK;
}

ossa_status ossa_read_xrf(ossa_build *b, const uint8_t *data, size_t size)
{
    static const ossa_xml_kind xrf_root = {"MATERIAL", 1, read_material, NULL, 0};
    return ossa_xml_read(b, data, size, "XRF", &xrf_root, NULL);
}

/* ---- XPF ---- */

typedef struct xpf_track_state {
    float *times, *weights;
    const char *what;
} xpf_track_state;

static ossa_status read_morph_key(ossa_xml *x, void *ctx, const xmlNode *kf, uint32_t k,
                                  const uint32_t *counts)
{
    (void)counts;
    xpf_track_state *ts = ctx;
    OSSA_TRY(ossa_xml_attr_float(x, kf, "TIME", true, 0, &ts->times[k]));
    if (ossa_xml_first(kf, "WEIGHT"))
        return ossa_xml_child_floats(x, kf, "WEIGHT", ts->what, &ts->weights[k], 1);
    return ossa_xml_attr_float(x, kf, "WEIGHT", true, 0, &ts->weights[k]);
}

static ossa_status read_morph_track(ossa_xml *x, void *ctx, const xmlNode *e, uint32_t index,
                                    const uint32_t *counts);
static const ossa_xml_kind xpf_key_kinds[] = {
    {"KEYFRAME", OSSA_MAX_KEYS, read_morph_key, NULL, 0}};
static const ossa_xml_kind xpf_track_kinds[] = {
    {"TRACK", OSSA_MAX_TRACKS, read_morph_track, xpf_key_kinds, 1}};

static ossa_status read_morph_track(ossa_xml *x, void *ctx, const xmlNode *e, uint32_t index,
                                    const uint32_t *counts)
{
    ossa_build *b = x->b;
    ossa_morph_track *t = &((ossa_morph_track *)ctx)[index];
    int line = ossa_xml_line(e);
    /* IMVU names the morph; upstream writes MORPHNAME (an id read with atoi) or MORPHID. */
    const char *name = ossa_xml_attr(x, e, "MORPHNAME");
    if (!name)
        name = ossa_xml_attr(x, e, "MORPHID");
    if (!name)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, line, "TRACK %u has no MORPHNAME", index);
    OSSA_TRY(ossa_xml_dup_str(x, line, "TRACK MORPHNAME", &t->morph_name, name));
    char what[160];
    snprintf(what, sizeof what, "TRACK '%.100s'", t->morph_name);
    uint32_t nk = counts[0];
    OSSA_TRY(ossa_xml_check_count(x, e, "KEYFRAME", nk, OSSA_MAX_KEYS));
    OSSA_TRY(ossa_xml_check_hint(x, e, "NUMKEYFRAMES", nk, "KEYFRAME"));
    t->key_count = nk;
    if (nk == 0)
        return OSSA_OK; /* IMVU files have empty tracks */
    float *times, *weights;
    OSSA_TRY(ossa_build_array(b, &times, nk, sizeof *times));
    OSSA_TRY(ossa_build_array(b, &weights, nk, sizeof *weights));
    xpf_track_state ts = {times, weights, what};
    OSSA_TRY(ossa_xml_each(x, e, &xpf_track_kinds[0], counts, &ts));
    /* Keys in time order, stably: a long track may come in reverse. */
    const ossa_sort_array arrays[] = {{times, sizeof *times}, {weights, sizeof *weights}};
    bool moved;
    OSSA_TRY(ossa_build_sort_by_time(b, times, sizeof *times, nk, arrays, 2, &moved));
    if (moved)
        ossa_warn(b, "%s: keys were out of time order and have been sorted", what);
    t->times = times;
    t->weights = weights;
    return OSSA_OK;
}

static ossa_status read_morph_animation(ossa_xml *x, void *ctx, const xmlNode *root,
                                        uint32_t index, const uint32_t *counts);
static const ossa_xml_kind xpf_root = {"ANIMATION", 1, read_morph_animation, xpf_track_kinds, 1};

static ossa_status read_morph_animation(ossa_xml *x, void *ctx, const xmlNode *root,
                                        uint32_t index, const uint32_t *counts)
{
    (void)ctx;
    (void)index;
    ossa_build *b = x->b;
    float duration;
    OSSA_TRY(ossa_xml_attr_float(x, root, "DURATION", true, 0, &duration));
    if (!(duration > 0.0f))
        return ossa_fail_line(b, OSSA_ERR_VALUE, ossa_xml_line(root),
                              "ANIMATION DURATION %g is not positive", (double)duration);
    uint32_t nt = counts[0];
    OSSA_TRY(ossa_xml_check_count(x, root, "TRACK", nt, OSSA_MAX_TRACKS));
    OSSA_TRY(ossa_xml_check_hint(x, root, "NUMTRACKS", nt, "TRACK"));
    ossa_morph_track *tracks = NULL;
    if (nt)
        OSSA_TRY(ossa_build_array(b, &tracks, nt, sizeof *tracks));
    OSSA_TRY(ossa_xml_each(x, root, &xpf_root, counts, tracks));
    ossa_morph_clip *clip = ossa_build_push_morph_clip(b);
    if (!clip)
        return OSSA_ERR_NOMEM;
    clip->name = b->stem;
    clip->duration = duration;
    clip->track_count = nt;
    clip->tracks = tracks;
    clip->format = OSSA_FORMAT_XPF;
    clip->version = x->version;
    return OSSA_OK;
}

ossa_status ossa_read_xpf(ossa_build *b, const uint8_t *data, size_t size)
{
    return ossa_xml_read(b, data, size, "XPF", &xpf_root, NULL);
}
