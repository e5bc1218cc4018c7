/* Cal3D XML readers: XSF skeletons, XAF animations, XMF meshes, XRF materials and XPF morph
 * animations (FORMAT-NOTES section C; Decisions 3, 5, 6, 7). Element and attribute names are
 * case-insensitive; children are found by name, so their order does not matter; every count
 * attribute is only a hint checked against the elements actually present. Each reader is a table
 * of element kinds (the *_kinds arrays) walked by ossa_xml_each: containers (SKELETON, TRACK,
 * SUBMESH, MORPH...) are streamed, records (BONE, KEYFRAME, VERTEX, FACE...) come parsed whole,
 * and every count used to allocate was pre-scanned and is checked against its cap first. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/checked.h"
#include "core/limits.h"
#include "formats/cal3d_xml_util.h"

static ossa_status dup_str(ossa_build *b, const char **out, const char *s)
{
    size_t n = strnlen(s, OSSA_MAX_STRING);
    return ossa_build_strndup(b, out, s, n);
}

/* Warns when an optional count attribute disagrees with the elements present. */
static ossa_status check_hint(ossa_xml *x, const xmlNode *n, const char *attr, uint32_t actual,
                              const char *child)
{
    int64_t hint;
    OSSA_TRY(ossa_xml_attr_int(x, n, attr, false, actual, INT32_MIN, INT32_MAX, &hint));
    if (hint != (int64_t)actual)
        ossa_warn(x->b, "line %d: %s=\"%lld\" but %u <%s> element%s", ossa_xml_line(n), attr,
                  (long long)hint, actual, child, actual == 1 ? "" : "s");
    return OSSA_OK;
}

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
    OSSA_TRY(dup_str(b, &bone->name, name));
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

    int64_t light;
    OSSA_TRY(ossa_xml_attr_int(x, e, "LIGHTTYPE", false, 0, 0, 4, &light));
    bone->light_type = (int32_t)light;
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
            if (v < 0 || v >= (int64_t)count)
                return ossa_fail_line(b, OSSA_ERR_RANGE, ossa_xml_line(c),
                                      "%s: CHILDID %lld not in 0..%u", what, (long long)v,
                                      count - 1);
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
    OSSA_TRY(check_hint(x, root, "NUMBONES", n, "BONE"));
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
    OSSA_TRY(check_hint(x, e, "NUMKEYFRAMES", nk, "KEYFRAME"));
    xaf_track_state ts = {t, NULL, NULL, NULL, NULL, false, &as->filled, what};
    OSSA_TRY(ossa_build_array(b, &ts.times, nk, sizeof *ts.times));
    OSSA_TRY(ossa_build_array(b, &ts.tr, (size_t)nk * 3, sizeof *ts.tr));
    OSSA_TRY(ossa_build_array(b, &ts.rot, (size_t)nk * 4, sizeof *ts.rot));

    /* Decision 5: a key without TRANSLATION takes the previous key's when the track says the
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
    OSSA_TRY(check_hint(x, root, "NUMTRACKS", nt, "TRACK"));
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

/* ---- XMF ---- */

/* One submesh as it streams. Influences grow as vertices come (each vertex's checked against
 * its cap first); morph targets keep absolute values until every vertex is read. */
typedef struct submesh_state {
    ossa_submesh *s;
    float *colors;
    ossa_influence *influences;
    uint32_t influence_count, influence_cap;
    ossa_spring *springs;
    ossa_morph_target *morphs;
    uint32_t *indices;
} submesh_state;

static ossa_status read_vertex_id(ossa_xml *x, int line, const char *what, const char *s,
                                  int count, uint32_t nv, uint32_t *out)
{
    int64_t v[3];
    OSSA_TRY(ossa_xml_parse_ints(x, line, what, s, v, count, INT32_MIN, INT32_MAX));
    for (int i = 0; i < count; i++) {
        if (v[i] < 0 || v[i] >= (int64_t)nv)
            return ossa_fail_line(x->b, OSSA_ERR_RANGE, line, "%s: vertex %lld not in 0..%lld",
                                  what, (long long)v[i], (long long)nv - 1);
        out[i] = (uint32_t)v[i];
    }
    return OSSA_OK;
}

static ossa_status read_vertex(ossa_xml *x, void *ctx, const xmlNode *e, uint32_t v,
                               const uint32_t *counts)
{
    (void)counts;
    ossa_build *b = x->b;
    submesh_state *ss = ctx;
    ossa_submesh *s = ss->s;
    float **colors = &ss->colors;
    int line = ossa_xml_line(e);
    char what[64];
    snprintf(what, sizeof what, "VERTEX %u", v);
    int64_t id;
    OSSA_TRY(ossa_xml_attr_int(x, e, "ID", false, v, INT32_MIN, INT32_MAX, &id));
    if (id < 0 || id >= (int64_t)s->vertex_count)
        return ossa_fail_line(b, OSSA_ERR_RANGE, line, "%s: ID %lld not in 0..%u", what,
                              (long long)id, s->vertex_count - 1);
    if (id != (int64_t)v)
        ossa_warn(b, "line %d: %s has ID %lld (file order used)", line, what, (long long)id);

    float *pos = (float *)s->positions + 3 * (size_t)v;
    float *nrm = (float *)s->normals + 3 * (size_t)v;
    OSSA_TRY(ossa_xml_child_floats(x, e, "POS", what, pos, 3));
    OSSA_TRY(ossa_xml_child_floats(x, e, "NORM", what, nrm, 3));
    if (ossa_xml_first(e, "COLOR")) {
        if (!*colors) {
            /* Colours appear with the first vertex that has one; earlier ones stay white. */
            OSSA_TRY(ossa_build_array(b, colors, (size_t)s->vertex_count * 3, sizeof **colors));
            for (size_t i = 0; i < (size_t)s->vertex_count * 3; i++)
                (*colors)[i] = 1.0f;
            s->colors = *colors;
        }
        OSSA_TRY(ossa_xml_child_floats(x, e, "COLOR", what, *colors + 3 * (size_t)v, 3));
    }
    int32_t *collapse = (int32_t *)s->collapse_id;
    uint32_t *collapse_count = (uint32_t *)s->face_collapse_count;
    collapse[v] = -1;
    xmlNode *ce = ossa_xml_first(e, "COLLAPSEID");
    if (ce) {
        int64_t cid, cnt = 0;
        OSSA_TRY(ossa_xml_parse_ints(x, ossa_xml_line(ce), what, ossa_xml_text(x, ce), &cid, 1,
                                     -1, (int64_t)s->vertex_count - 1));
        xmlNode *cc = ossa_xml_first(e, "COLLAPSECOUNT");
        if (cc)
            OSSA_TRY(ossa_xml_parse_ints(x, ossa_xml_line(cc), what, ossa_xml_text(x, cc), &cnt,
                                         1, 0, INT32_MAX));
        collapse[v] = (int32_t)cid;
        collapse_count[v] = (uint32_t)cnt;
    }

    uint32_t uv_sets = s->uv_set_count, uv = 0;
    float *uvs = uv_sets ? (float *)s->uvs + 2 * (size_t)uv_sets * v : NULL;
    for (xmlNode *t = ossa_xml_first(e, "TEXCOORD"); t; t = ossa_xml_next(t, "TEXCOORD"), uv++) {
        if (uv >= uv_sets) {
            ossa_warn(b, "line %d: %s has more TEXCOORD than NUMTEXCOORDS=%u (ignored)",
                      ossa_xml_line(t), what, uv_sets);
            break;
        }
        char tw[96];
        snprintf(tw, sizeof tw, "%s TEXCOORD", what);
        OSSA_TRY(ossa_xml_parse_floats(x, ossa_xml_line(t), tw, ossa_xml_text(x, t),
                                       uvs + 2 * uv, 2));
        if (b->opt.invert_v)
            uvs[2 * uv + 1] = 1.0f - uvs[2 * uv + 1];
    }
    if (uv < uv_sets)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, line, "%s has %u TEXCOORD of NUMTEXCOORDS=%u",
                              what, uv, uv_sets);

    uint32_t n = ossa_xml_count(e, "INFLUENCE");
    if (n > OSSA_MAX_INFLUENCES)
        return ossa_fail_line(b, OSSA_ERR_RANGE, line,
                              "VERTEX has %u INFLUENCE elements, more than the limit of %u", n,
                              OSSA_MAX_INFLUENCES);
    if (ss->influence_count + n > ss->influence_cap) {
        uint32_t cap = ss->influence_cap ? ss->influence_cap : 64;
        while (cap < ss->influence_count + n)
            cap *= 2; /* at most 64 per vertex of at most 2^22: no overflow */
        ossa_influence *grown = realloc(ss->influences, (size_t)cap * sizeof *grown);
        if (!grown)
            return ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot allocate %u influences", cap);
        ss->influences = grown;
        ss->influence_cap = cap;
    }
    ossa_influence *influences = ss->influences;
    uint32_t first = ss->influence_count, count = 0;
    for (xmlNode *in = ossa_xml_first(e, "INFLUENCE"); in; in = ossa_xml_next(in, "INFLUENCE")) {
        int il = ossa_xml_line(in);
        int64_t bone;
        OSSA_TRY(ossa_xml_attr_int(x, in, "ID", true, 0, INT32_MIN, INT32_MAX, &bone));
        ossa_influence *inf = &influences[first + count];
        OSSA_TRY(ossa_build_map_bone(b, bone, -1, il, &inf->bone));
        char iw[96];
        snprintf(iw, sizeof iw, "%s INFLUENCE", what);
        OSSA_TRY(ossa_xml_parse_floats(x, il, iw, ossa_xml_text(x, in), &inf->weight, 1));
        count++;
    }
    OSSA_TRY(check_hint(x, e, "NUMINFLUENCES", count, "INFLUENCE"));
    ss->influence_count = first + count;
    ((uint32_t *)s->influence_start)[v + 1] = first + count;
    if (count > s->max_influences)
        s->max_influences = count;

    if (s->physique_weights) {
        xmlNode *ph = ossa_xml_first(e, "PHYSIQUE");
        if (ph) {
            char pw[96];
            snprintf(pw, sizeof pw, "%s PHYSIQUE", what);
            OSSA_TRY(ossa_xml_parse_floats(x, ossa_xml_line(ph), pw, ossa_xml_text(x, ph),
                                           (float *)s->physique_weights + v, 1));
        } else {
            ossa_warn(b, "line %d: %s has no PHYSIQUE though the submesh has springs (0: rigid)",
                      line, what);
        }
    }
    return OSSA_OK;
}

typedef struct morph_state {
    const ossa_submesh *s;
    ossa_morph_target *mt;
    uint32_t *ids;
    float *dp, *dn, *duv;
    const char *what;
} morph_state;

/* Absolute values for now: the base vertex may come later in the file (children are found by
 * name whatever their order); finish_morphs turns them into deltas. */
static ossa_status read_blend_vertex(ossa_xml *x, void *ctx, const xmlNode *bv, uint32_t k,
                                     const uint32_t *counts)
{
    (void)counts;
    ossa_build *b = x->b;
    morph_state *ms = ctx;
    const ossa_submesh *s = ms->s;
    const char *what = ms->what;
    uint32_t *ids = ms->ids, sets = s->uv_set_count;
    int line = ossa_xml_line(bv);
    const char *vid = ossa_xml_attr(x, bv, "VERTEXID");
    if (!vid)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, line, "%s: BLENDVERTEX has no VERTEXID", what);
    uint32_t v = 0;
    OSSA_TRY(read_vertex_id(x, line, what, vid, 1, s->vertex_count, &v));
    if (k && v <= ids[k - 1])
        return ossa_fail_line(b, OSSA_ERR_FORMAT, line,
                              "%s: BLENDVERTEX VERTEXID %u after %u: ids must ascend", what, v,
                              ids[k - 1]);
    ids[k] = v;
    OSSA_TRY(ossa_xml_child_floats(x, bv, "POSITION", what, ms->dp + 3 * (size_t)k, 3));
    OSSA_TRY(ossa_xml_child_floats(x, bv, "NORMAL", what, ms->dn + 3 * (size_t)k, 3));
    uint32_t set = 0;
    for (xmlNode *t = ossa_xml_first(bv, "TEXCOORD"); t && set < sets;
         t = ossa_xml_next(t, "TEXCOORD"), set++) {
        float *uv = ms->duv + (2 * (size_t)sets * k) + 2 * set;
        OSSA_TRY(ossa_xml_parse_floats(x, ossa_xml_line(t), what, ossa_xml_text(x, t), uv, 2));
        if (b->opt.invert_v)
            uv[1] = 1.0f - uv[1];
    }
    /* A missing TEXCOORD has a zero delta: NaN (never a value read) marks it until then. */
    for (; set < sets; set++)
        ms->duv[(2 * (size_t)sets * k) + 2 * set] = ms->duv[(2 * (size_t)sets * k) + 2 * set + 1] =
            NAN;
    return OSSA_OK;
}

/* The file stores absolute values; the model keeps deltas from the base vertex. */
static void finish_morphs(ossa_submesh *s)
{
    uint32_t sets = s->uv_set_count;
    for (uint32_t m = 0; m < s->morph_count; m++) {
        ossa_morph_target *mt = (ossa_morph_target *)&s->morphs[m];
        float *dp = (float *)mt->d_position, *dn = (float *)mt->d_normal, *duv = (float *)mt->d_uv;
        for (uint32_t k = 0; k < mt->count; k++) {
            uint32_t v = mt->vertex[k];
            for (int c = 0; c < 3; c++) {
                dp[3 * (size_t)k + c] -= s->positions[3 * (size_t)v + c];
                dn[3 * (size_t)k + c] -= s->normals[3 * (size_t)v + c];
            }
            for (size_t c = 0; duv && c < 2 * (size_t)sets; c++) {
                float *d = &duv[2 * (size_t)sets * k + c];
                *d = isnan(*d) ? 0.0f : *d - s->uvs[2 * (size_t)sets * v + c];
            }
        }
    }
}

enum { SUB_VERTEX, SUB_SPRING, SUB_MORPH, SUB_FACE };
static const ossa_xml_kind xmf_submesh_kinds[4];
static const ossa_xml_kind xmf_blend_kinds[] = {
    {"BLENDVERTEX", OSSA_MAX_VERTICES, read_blend_vertex, NULL, 0}};

static ossa_status read_morph(ossa_xml *x, void *ctx, const xmlNode *e, uint32_t index,
                              const uint32_t *counts)
{
    ossa_build *b = x->b;
    submesh_state *ss = ctx;
    const ossa_submesh *s = ss->s;
    ossa_morph_target *mt = &ss->morphs[index];
    const char *name = ossa_xml_attr(x, e, "NAME");
    char fallback[32];
    if (!name) {
        snprintf(fallback, sizeof fallback, "morph%u", index);
        name = fallback;
        ossa_warn(b, "line %d: MORPH %u has no NAME (called %s)", ossa_xml_line(e), index, name);
    }
    OSSA_TRY(dup_str(b, &mt->name, name));
    char what[160];
    snprintf(what, sizeof what, "MORPH '%.100s'", mt->name);
    uint32_t n = counts[0];
    OSSA_TRY(ossa_xml_check_count(x, e, "BLENDVERTEX", n, s->vertex_count));
    OSSA_TRY(check_hint(x, e, "NUMBLENDVERTS", n, "BLENDVERTEX"));
    mt->count = n;
    if (n == 0)
        return OSSA_OK;
    uint32_t *ids;
    float *dp, *dn, *duv = NULL;
    uint32_t sets = s->uv_set_count;
    OSSA_TRY(ossa_build_array(b, &ids, n, sizeof *ids));
    OSSA_TRY(ossa_build_array(b, &dp, (size_t)n * 3, sizeof *dp));
    OSSA_TRY(ossa_build_array(b, &dn, (size_t)n * 3, sizeof *dn));
    if (sets)
        OSSA_TRY(ossa_build_array(b, &duv, (size_t)n * 2 * sets, sizeof *duv));
    morph_state ms = {s, mt, ids, dp, dn, duv, what};
    OSSA_TRY(ossa_xml_each(x, e, &xmf_submesh_kinds[SUB_MORPH], counts, &ms));
    mt->vertex = ids;
    mt->d_position = dp;
    mt->d_normal = dn;
    mt->d_uv = duv;
    return OSSA_OK;
}

static ossa_status read_spring(ossa_xml *x, void *ctx, const xmlNode *se, uint32_t k,
                               const uint32_t *counts)
{
    (void)counts;
    submesh_state *ss = ctx;
    int sl = ossa_xml_line(se);
    const char *ids = ossa_xml_attr(x, se, "VERTEXID");
    if (!ids)
        return ossa_fail_line(x->b, OSSA_ERR_FORMAT, sl, "SPRING has no VERTEXID");
    ossa_spring *sp = &ss->springs[k];
    OSSA_TRY(read_vertex_id(x, sl, "SPRING VERTEXID", ids, 2, ss->s->vertex_count, sp->vertex));
    OSSA_TRY(ossa_xml_attr_float(x, se, "COEF", true, 0, &sp->coefficient));
    return ossa_xml_attr_float(x, se, "LENGTH", true, 0, &sp->idle_length);
}

static ossa_status read_face(ossa_xml *x, void *ctx, const xmlNode *fe, uint32_t k,
                             const uint32_t *counts)
{
    (void)counts;
    submesh_state *ss = ctx;
    int fl = ossa_xml_line(fe);
    const char *ids = ossa_xml_attr(x, fe, "VERTEXID");
    if (!ids)
        return ossa_fail_line(x->b, OSSA_ERR_FORMAT, fl, "FACE has no VERTEXID");
    /* Decision 7: XML faces keep their winding (no CMF auto-flip). */
    return read_vertex_id(x, fl, "FACE VERTEXID", ids, 3, ss->s->vertex_count,
                          ss->indices + 3 * (size_t)k);
}

static ossa_status read_submesh(ossa_xml *x, void *ctx, const xmlNode *e, uint32_t index,
                                const uint32_t *counts);
static const ossa_xml_kind xmf_submesh_kinds[4] = {
    {"VERTEX", OSSA_MAX_VERTICES, read_vertex, NULL, 0},
    {"SPRING", OSSA_MAX_SPRINGS, read_spring, NULL, 0},
    {"MORPH", OSSA_MAX_MORPHS, read_morph, xmf_blend_kinds, 1},
    {"FACE", OSSA_MAX_FACES, read_face, NULL, 0}};
static const ossa_xml_kind xmf_mesh_kinds[] = {
    {"SUBMESH", OSSA_MAX_SUBMESHES, read_submesh, xmf_submesh_kinds, 4}};

static ossa_status stream_submesh(ossa_xml *x, const xmlNode *e, const uint32_t *counts,
                                  submesh_state *ss)
{
    ossa_build *b = x->b;
    ossa_submesh *s = ss->s;
    if (s->spring_count)
        OSSA_TRY(ossa_build_array(b, &ss->springs, s->spring_count, sizeof *ss->springs));
    if (s->morph_count)
        OSSA_TRY(ossa_build_array(b, &ss->morphs, s->morph_count, sizeof *ss->morphs));
    if (s->face_count)
        OSSA_TRY(ossa_build_array(b, &ss->indices, (size_t)s->face_count * 3,
                                  sizeof *ss->indices));
    s->springs = ss->springs;
    s->morphs = ss->morphs;
    s->indices = ss->indices;
    OSSA_TRY(ossa_xml_each(x, e, &xmf_mesh_kinds[0], counts, ss));
    finish_morphs(s);
    if (ss->influence_count) {
        ossa_influence *influences;
        OSSA_TRY(ossa_build_array(b, &influences, ss->influence_count, sizeof *influences));
        memcpy(influences, ss->influences, ss->influence_count * sizeof *influences);
        s->influences = influences;
    }
    return OSSA_OK;
}

static ossa_status read_submesh(ossa_xml *x, void *ctx, const xmlNode *e, uint32_t index,
                                const uint32_t *counts)
{
    ossa_build *b = x->b;
    ossa_submesh *s = &((ossa_submesh *)ctx)[index];
    int line = ossa_xml_line(e);
    int64_t material, nv_attr, nf_attr, lods, ns_attr, uv_sets;
    OSSA_TRY(ossa_xml_attr_int(x, e, "MATERIAL", true, 0, -1, INT32_MAX, &material));
    OSSA_TRY(ossa_xml_attr_int(x, e, "NUMVERTICES", true, 0, 0, INT64_MAX, &nv_attr));
    OSSA_TRY(ossa_xml_attr_int(x, e, "NUMFACES", true, 0, 0, INT64_MAX, &nf_attr));
    OSSA_TRY(ossa_xml_attr_int(x, e, "NUMLODSTEPS", false, 0, 0, INT32_MAX, &lods));
    OSSA_TRY(ossa_xml_attr_int(x, e, "NUMSPRINGS", false, 0, 0, INT64_MAX, &ns_attr));
    OSSA_TRY(ossa_xml_attr_int(x, e, "NUMTEXCOORDS", true, 0, 0, OSSA_MAX_UV_SETS, &uv_sets));

    /* Counts are checked against the caps and the elements present before any allocation. */
    for (int k = SUB_VERTEX; k <= SUB_FACE; k++)
        OSSA_TRY(ossa_xml_check_count(x, e, xmf_submesh_kinds[k].name, counts[k],
                                      xmf_submesh_kinds[k].cap));
    uint32_t nv = counts[SUB_VERTEX];
    if (nv_attr > OSSA_MAX_VERTICES)
        return ossa_fail_line(b, OSSA_ERR_RANGE, line,
                              "SUBMESH %u: NUMVERTICES %lld exceeds the limit of %u", index,
                              (long long)nv_attr, OSSA_MAX_VERTICES);
    if (nv_attr != (int64_t)nv)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, line,
                              "SUBMESH %u: NUMVERTICES %lld but %u VERTEX elements", index,
                              (long long)nv_attr, nv);
    if (nf_attr != (int64_t)counts[SUB_FACE])
        ossa_warn(b, "line %d: SUBMESH %u: NUMFACES %lld but %u FACE elements (those read)", line,
                  index, (long long)nf_attr, counts[SUB_FACE]);
    if (ns_attr != (int64_t)counts[SUB_SPRING])
        ossa_warn(b, "line %d: SUBMESH %u: NUMSPRINGS %lld but %u SPRING elements (those read)",
                  line, index, (long long)ns_attr, counts[SUB_SPRING]);
    OSSA_TRY(check_hint(x, e, "NUMMORPHS", counts[SUB_MORPH], "MORPH"));

    s->material = (int32_t)material;
    s->vertex_count = nv;
    s->face_count = counts[SUB_FACE];
    s->uv_set_count = (uint32_t)uv_sets;
    s->lod_count = (uint32_t)lods;
    s->spring_count = counts[SUB_SPRING];
    s->morph_count = counts[SUB_MORPH];
    float *pos, *nrm, *uvs = NULL, *physique = NULL;
    int32_t *collapse;
    uint32_t *collapse_count, *inf_start;
    OSSA_TRY(ossa_build_array(b, &pos, (size_t)nv * 3, sizeof *pos));
    OSSA_TRY(ossa_build_array(b, &nrm, (size_t)nv * 3, sizeof *nrm));
    if (uv_sets)
        OSSA_TRY(ossa_build_array(b, &uvs, (size_t)nv * 2 * (size_t)uv_sets, sizeof *uvs));
    OSSA_TRY(ossa_build_array(b, &collapse, nv ? nv : 1, sizeof *collapse));
    OSSA_TRY(ossa_build_array(b, &collapse_count, nv ? nv : 1, sizeof *collapse_count));
    OSSA_TRY(ossa_build_array(b, &inf_start, (size_t)nv + 1, sizeof *inf_start));
    if (s->spring_count)
        OSSA_TRY(ossa_build_array(b, &physique, nv ? nv : 1, sizeof *physique));
    s->positions = pos;
    s->normals = nrm;
    s->uvs = uvs;
    s->collapse_id = collapse;
    s->face_collapse_count = collapse_count;
    s->influence_start = inf_start;
    s->physique_weights = physique;

    submesh_state ss;
    memset(&ss, 0, sizeof ss);
    ss.s = s;
    ossa_status st = stream_submesh(x, e, counts, &ss);
    free(ss.influences);
    return st;
}

static ossa_status read_mesh(ossa_xml *x, void *ctx, const xmlNode *root, uint32_t index,
                             const uint32_t *counts);
static const ossa_xml_kind xmf_root = {"MESH", 1, read_mesh, xmf_mesh_kinds, 1};

static ossa_status read_mesh(ossa_xml *x, void *ctx, const xmlNode *root, uint32_t index,
                             const uint32_t *counts)
{
    (void)ctx;
    (void)index;
    ossa_build *b = x->b;
    uint32_t n = counts[0];
    OSSA_TRY(ossa_xml_check_count(x, root, "SUBMESH", n, OSSA_MAX_SUBMESHES));
    OSSA_TRY(check_hint(x, root, "NUMSUBMESH", n, "SUBMESH"));
    if (n == 0)
        ossa_warn(b, "MESH has no SUBMESH");
    ossa_submesh *subs = NULL;
    if (n)
        OSSA_TRY(ossa_build_array(b, &subs, n, sizeof *subs));
    OSSA_TRY(ossa_xml_each(x, root, &xmf_root, counts, subs));
    ossa_mesh *mesh = ossa_build_push_mesh(b);
    if (!mesh)
        return OSSA_ERR_NOMEM;
    mesh->name = b->stem;
    mesh->submesh_count = n;
    mesh->submeshes = subs;
    mesh->format = OSSA_FORMAT_XMF;
    mesh->version = x->version;
    mesh->lineage = x->lineage;
    return OSSA_OK;
}

ossa_status ossa_read_xmf(ossa_build *b, const uint8_t *data, size_t size)
{
    return ossa_xml_read(b, data, size, "XMF", &xmf_root, NULL);
}

/* ---- XRF ---- */

static ossa_status read_color(ossa_xml *x, const xmlNode *root, const char *name, float out[4])
{
    xmlNode *e = ossa_xml_first(root, name);
    if (!e)
        return ossa_fail_line(x->b, OSSA_ERR_FORMAT, ossa_xml_line(root),
                              "MATERIAL has no <%s> element", name);
    int64_t v[4];
    OSSA_TRY(ossa_xml_parse_ints(x, ossa_xml_line(e), name, ossa_xml_text(x, e), v, 4, 0, 255));
    for (int i = 0; i < 4; i++)
        out[i] = (float)v[i] / 255.0f;
    return OSSA_OK;
}

/* Text of a MAP without the white space around it. */
static const char *trimmed(const char *s, size_t *len)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    size_t n = strnlen(s, OSSA_MAX_STRING);
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
    OSSA_TRY(read_color(x, root, "AMBIENT", ambient));
    OSSA_TRY(read_color(x, root, "DIFFUSE", diffuse));
    OSSA_TRY(read_color(x, root, "SPECULAR", specular));
    OSSA_TRY(ossa_xml_child_floats(x, root, "SHININESS", "MATERIAL", &shininess, 1));
    uint32_t n = ossa_xml_count(root, "MAP");
    OSSA_TRY(ossa_xml_check_count(x, root, "MAP", n, OSSA_MAX_MAPS));
    OSSA_TRY(check_hint(x, root, "NUMMAPS", n, "MAP"));
    ossa_texture_map *maps = NULL;
    if (n)
        OSSA_TRY(ossa_build_array(b, &maps, n, sizeof *maps));
    uint32_t i = 0;
    size_t dir_len = strlen(b->dir);
    for (xmlNode *e = ossa_xml_first(root, "MAP"); e; e = ossa_xml_next(e, "MAP"), i++) {
        size_t len;
        const char *file = trimmed(ossa_xml_text(x, e), &len);
        if (len == 0)
            ossa_warn(b, "line %d: MAP %u names no file", ossa_xml_line(e), i);
        OSSA_TRY(ossa_build_strndup(b, &maps[i].file, file, len));
        size_t plen;
        if (!ossa_add_size(dir_len, len, &plen))
            return ossa_fail(b, OSSA_ERR_RANGE, -1, "texture path too long");
        char *path;
        OSSA_TRY(ossa_build_array(b, &path, plen + 1, 1));
        memcpy(path, b->dir, dir_len);
        memcpy(path + dir_len, file, len);
        maps[i].path = path;
        const char *type = ossa_xml_attr(x, e, "TYPE");
        OSSA_TRY(dup_str(b, &maps[i].type, type ? type : ""));
    }
    ossa_material *mat = ossa_build_push_material(b);
    if (!mat)
        return OSSA_ERR_NOMEM;
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
    OSSA_TRY(dup_str(b, &t->morph_name, name));
    char what[160];
    snprintf(what, sizeof what, "TRACK '%.100s'", t->morph_name);
    uint32_t nk = counts[0];
    OSSA_TRY(ossa_xml_check_count(x, e, "KEYFRAME", nk, OSSA_MAX_KEYS));
    OSSA_TRY(check_hint(x, e, "NUMKEYFRAMES", nk, "KEYFRAME"));
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
    OSSA_TRY(check_hint(x, root, "NUMTRACKS", nt, "TRACK"));
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
