/* Cal3D XML readers: XSF skeletons, XAF animations, XMF meshes, XRF materials and XPF morph
 * animations (FORMAT-NOTES section C; Decisions 3, 5, 6, 7). Element and attribute names are
 * case-insensitive; children are found by name, so their order does not matter; every count
 * attribute is only a hint checked against the elements actually present. */
#include <stdio.h>
#include <string.h>

#include "core/checked.h"
#include "core/limits.h"
#include "formats/cal3d/cal3d_xml_util.h"

/* Runs the reader body with the document open and always closes it. */
typedef ossa_status (*xml_body)(ossa_xml *x);

static ossa_status with_document(ossa_build *b, const uint8_t *data, size_t size,
                                 const char *magic, const char *root, xml_body body)
{
    ossa_xml x;
    ossa_status st = ossa_xml_open(&x, b, data, size, magic, root);
    if (st == OSSA_OK)
        st = body(&x);
    ossa_xml_close(&x);
    return st;
}

static ossa_status dup_str(ossa_build *b, const char **out, const char *s)
{
    size_t n = strnlen(s, OSSA_MAX_STRING);
    return ossa_build_strndup(b, out, s, n);
}

/* Counts children with a name and checks the count against a cap before anything is allocated
 * for them. */
static ossa_status count_children(ossa_xml *x, const xmlNode *parent, const char *name,
                                  uint32_t cap, uint32_t *out)
{
    uint32_t n = ossa_xml_count(parent, name);
    *out = n;
    if (n > cap)
        return ossa_fail_line(x->b, OSSA_ERR_RANGE, ossa_xml_line(parent),
                              "<%s> has %u <%s> elements, more than the limit of %u",
                              (const char *)parent->name, n, name, cap);
    return OSSA_OK;
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

static ossa_status read_bone(ossa_xml *x, const xmlNode *e, uint32_t index, uint32_t count,
                             ossa_bone *bone)
{
    ossa_build *b = x->b;
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

    uint32_t nchild;
    OSSA_TRY(count_children(x, e, "CHILDID", OSSA_MAX_CHILDREN, &nchild));
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

static ossa_status xsf_body(ossa_xml *x)
{
    ossa_build *b = x->b;
    ossa_model *m = b->model;
    const xmlNode *root = x->root;
    uint32_t n;
    OSSA_TRY(count_children(x, root, "BONE", OSSA_MAX_BONES, &n));
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
    uint32_t i = 0;
    for (xmlNode *e = ossa_xml_first(root, "BONE"); e; e = ossa_xml_next(e, "BONE"), i++)
        OSSA_TRY(read_bone(x, e, i, n, &bones[i]));
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
    return with_document(b, data, size, "XSF", "SKELETON", xsf_body);
}

/* ---- XAF ---- */

static ossa_status read_track(ossa_xml *x, const xmlNode *e, const char *clip_name,
                              ossa_track *t, uint32_t *filled)
{
    ossa_build *b = x->b;
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

    uint32_t nk;
    OSSA_TRY(count_children(x, e, "KEYFRAME", OSSA_MAX_KEYS, &nk));
    if (nk == 0)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, line, "%s has no KEYFRAME", what);
    OSSA_TRY(check_hint(x, e, "NUMKEYFRAMES", nk, "KEYFRAME"));
    float *times, *tr, *rot;
    OSSA_TRY(ossa_build_array(b, &times, nk, sizeof *times));
    OSSA_TRY(ossa_build_array(b, &tr, (size_t)nk * 3, sizeof *tr));
    OSSA_TRY(ossa_build_array(b, &rot, (size_t)nk * 4, sizeof *rot));

    /* Decision 5: a key without TRANSLATION takes the previous key's when the track says the
     * translation is required but static, else the bone's rest translation, else 0. */
    const float *rest = NULL;
    if (b->bone_from_file && t->bone < b->model->bone_count)
        rest = b->model->bones[t->bone].rest_t;
    bool copy_previous = (t->flags & OSSA_TRACK_TRANSLATION_REQUIRED) &&
                         !(t->flags & OSSA_TRACK_TRANSLATION_DYNAMIC);
    uint32_t k = 0;
    for (xmlNode *kf = ossa_xml_first(e, "KEYFRAME"); kf; kf = ossa_xml_next(kf, "KEYFRAME"), k++) {
        char kwhat[140];
        snprintf(kwhat, sizeof kwhat, "%s KEYFRAME %u", what, k);
        OSSA_TRY(ossa_xml_attr_float(x, kf, "TIME", true, 0, &times[k]));
        OSSA_TRY(ossa_xml_child_floats(x, kf, "ROTATION", kwhat, &rot[4 * k], 4));
        ossa_cal3d_quat_to_hamilton(&rot[4 * k]);
        if (ossa_xml_first(kf, "TRANSLATION")) {
            OSSA_TRY(ossa_xml_child_floats(x, kf, "TRANSLATION", kwhat, &tr[3 * k], 3));
        } else {
            const float *src = copy_previous && k > 0 ? &tr[3 * (k - 1)] : rest;
            if (src)
                memcpy(&tr[3 * k], src, 3 * sizeof(float));
            (*filled)++;
        }
    }
    t->key_count = nk;
    t->times = times;
    t->translations = tr;
    t->rotations = rot;
    return ossa_build_sort_track(b, t, clip_name);
}

static ossa_status xaf_body(ossa_xml *x)
{
    ossa_build *b = x->b;
    const xmlNode *root = x->root;
    float duration;
    OSSA_TRY(ossa_xml_attr_float(x, root, "DURATION", true, 0, &duration));
    if (!(duration > 0.0f))
        return ossa_fail_line(b, OSSA_ERR_VALUE, ossa_xml_line(root),
                              "ANIMATION DURATION %g is not positive", (double)duration);
    uint32_t nt;
    OSSA_TRY(count_children(x, root, "TRACK", OSSA_MAX_TRACKS, &nt));
    OSSA_TRY(check_hint(x, root, "NUMTRACKS", nt, "TRACK"));
    ossa_track *tracks = NULL;
    if (nt)
        OSSA_TRY(ossa_build_array(b, &tracks, nt, sizeof *tracks));
    uint32_t i = 0, filled = 0;
    for (xmlNode *e = ossa_xml_first(root, "TRACK"); e; e = ossa_xml_next(e, "TRACK"), i++)
        OSSA_TRY(read_track(x, e, b->stem, &tracks[i], &filled));
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
    return with_document(b, data, size, "XAF", "ANIMATION", xaf_body);
}

/* ---- XMF ---- */

typedef struct submesh_counts {
    uint32_t vertices, springs, morphs, faces, influences;
} submesh_counts;

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

static ossa_status read_vertex(ossa_xml *x, const xmlNode *e, ossa_submesh *s, uint32_t v,
                               float **colors, ossa_influence *influences, uint32_t *next_influence)
{
    ossa_build *b = x->b;
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

    uint32_t first = *next_influence, count = 0;
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
    *next_influence = first + count;
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

static ossa_status read_morph(ossa_xml *x, const xmlNode *e, uint32_t index,
                              const ossa_submesh *s, ossa_morph_target *mt)
{
    ossa_build *b = x->b;
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
    uint32_t n;
    OSSA_TRY(count_children(x, e, "BLENDVERTEX", s->vertex_count, &n));
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
    uint32_t k = 0;
    for (xmlNode *bv = ossa_xml_first(e, "BLENDVERTEX"); bv;
         bv = ossa_xml_next(bv, "BLENDVERTEX"), k++) {
        int line = ossa_xml_line(bv);
        const char *vid = ossa_xml_attr(x, bv, "VERTEXID");
        if (!vid)
            return ossa_fail_line(b, OSSA_ERR_FORMAT, line, "%s: BLENDVERTEX has no VERTEXID",
                                  what);
        uint32_t v = 0;
        OSSA_TRY(read_vertex_id(x, line, what, vid, 1, s->vertex_count, &v));
        if (k && v <= ids[k - 1])
            return ossa_fail_line(b, OSSA_ERR_FORMAT, line,
                                  "%s: BLENDVERTEX VERTEXID %u after %u: ids must ascend", what, v,
                                  ids[k - 1]);
        ids[k] = v;
        /* The file stores absolute values; the model keeps deltas from the base vertex. */
        float abs_v[3];
        OSSA_TRY(ossa_xml_child_floats(x, bv, "POSITION", what, abs_v, 3));
        for (int c = 0; c < 3; c++)
            dp[3 * k + c] = abs_v[c] - s->positions[3 * (size_t)v + c];
        OSSA_TRY(ossa_xml_child_floats(x, bv, "NORMAL", what, abs_v, 3));
        for (int c = 0; c < 3; c++)
            dn[3 * k + c] = abs_v[c] - s->normals[3 * (size_t)v + c];
        uint32_t set = 0;
        for (xmlNode *t = ossa_xml_first(bv, "TEXCOORD"); t && set < sets;
             t = ossa_xml_next(t, "TEXCOORD"), set++) {
            float uv[2];
            OSSA_TRY(ossa_xml_parse_floats(x, ossa_xml_line(t), what, ossa_xml_text(x, t), uv, 2));
            if (b->opt.invert_v)
                uv[1] = 1.0f - uv[1];
            const float *base = s->uvs + (2 * (size_t)sets * v) + 2 * set;
            duv[(2 * (size_t)sets * k) + 2 * set] = uv[0] - base[0];
            duv[(2 * (size_t)sets * k) + 2 * set + 1] = uv[1] - base[1];
        }
    }
    mt->vertex = ids;
    mt->d_position = dp;
    mt->d_normal = dn;
    mt->d_uv = duv;
    return OSSA_OK;
}

static ossa_status read_submesh(ossa_xml *x, const xmlNode *e, uint32_t index, ossa_submesh *s)
{
    ossa_build *b = x->b;
    int line = ossa_xml_line(e);
    int64_t material, nv_attr, nf_attr, lods, ns_attr, uv_sets;
    OSSA_TRY(ossa_xml_attr_int(x, e, "MATERIAL", true, 0, -1, INT32_MAX, &material));
    OSSA_TRY(ossa_xml_attr_int(x, e, "NUMVERTICES", true, 0, 0, INT64_MAX, &nv_attr));
    OSSA_TRY(ossa_xml_attr_int(x, e, "NUMFACES", true, 0, 0, INT64_MAX, &nf_attr));
    OSSA_TRY(ossa_xml_attr_int(x, e, "NUMLODSTEPS", false, 0, 0, INT32_MAX, &lods));
    OSSA_TRY(ossa_xml_attr_int(x, e, "NUMSPRINGS", false, 0, 0, INT64_MAX, &ns_attr));
    OSSA_TRY(ossa_xml_attr_int(x, e, "NUMTEXCOORDS", true, 0, 0, OSSA_MAX_UV_SETS, &uv_sets));

    /* Counts are checked against the caps and the elements present before any allocation. */
    submesh_counts c = {0, 0, 0, 0, 0};
    OSSA_TRY(count_children(x, e, "VERTEX", OSSA_MAX_VERTICES, &c.vertices));
    OSSA_TRY(count_children(x, e, "SPRING", OSSA_MAX_SPRINGS, &c.springs));
    OSSA_TRY(count_children(x, e, "MORPH", OSSA_MAX_MORPHS, &c.morphs));
    OSSA_TRY(count_children(x, e, "FACE", OSSA_MAX_FACES, &c.faces));
    if (nv_attr > OSSA_MAX_VERTICES)
        return ossa_fail_line(b, OSSA_ERR_RANGE, line,
                              "SUBMESH %u: NUMVERTICES %lld exceeds the limit of %u", index,
                              (long long)nv_attr, OSSA_MAX_VERTICES);
    if (nv_attr != (int64_t)c.vertices)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, line,
                              "SUBMESH %u: NUMVERTICES %lld but %u VERTEX elements", index,
                              (long long)nv_attr, c.vertices);
    if (nf_attr != (int64_t)c.faces)
        ossa_warn(b, "line %d: SUBMESH %u: NUMFACES %lld but %u FACE elements (those read)", line,
                  index, (long long)nf_attr, c.faces);
    if (ns_attr != (int64_t)c.springs)
        ossa_warn(b, "line %d: SUBMESH %u: NUMSPRINGS %lld but %u SPRING elements (those read)",
                  line, index, (long long)ns_attr, c.springs);
    OSSA_TRY(check_hint(x, e, "NUMMORPHS", c.morphs, "MORPH"));
    for (xmlNode *v = ossa_xml_first(e, "VERTEX"); v; v = ossa_xml_next(v, "VERTEX")) {
        uint32_t n = ossa_xml_count(v, "INFLUENCE");
        if (n > OSSA_MAX_INFLUENCES)
            return ossa_fail_line(b, OSSA_ERR_RANGE, ossa_xml_line(v),
                                  "VERTEX has %u INFLUENCE elements, more than the limit of %u", n,
                                  OSSA_MAX_INFLUENCES);
        c.influences += n;
    }

    uint32_t nv = c.vertices;
    s->material = (int32_t)material;
    s->vertex_count = nv;
    s->face_count = c.faces;
    s->uv_set_count = (uint32_t)uv_sets;
    s->lod_count = (uint32_t)lods;
    s->spring_count = c.springs;
    s->morph_count = c.morphs;
    float *pos, *nrm, *uvs = NULL, *physique = NULL;
    int32_t *collapse;
    uint32_t *collapse_count, *inf_start;
    ossa_influence *influences = NULL;
    OSSA_TRY(ossa_build_array(b, &pos, (size_t)nv * 3, sizeof *pos));
    OSSA_TRY(ossa_build_array(b, &nrm, (size_t)nv * 3, sizeof *nrm));
    if (uv_sets)
        OSSA_TRY(ossa_build_array(b, &uvs, (size_t)nv * 2 * (size_t)uv_sets, sizeof *uvs));
    OSSA_TRY(ossa_build_array(b, &collapse, nv ? nv : 1, sizeof *collapse));
    OSSA_TRY(ossa_build_array(b, &collapse_count, nv ? nv : 1, sizeof *collapse_count));
    OSSA_TRY(ossa_build_array(b, &inf_start, (size_t)nv + 1, sizeof *inf_start));
    if (c.influences)
        OSSA_TRY(ossa_build_array(b, &influences, c.influences, sizeof *influences));
    if (c.springs)
        OSSA_TRY(ossa_build_array(b, &physique, nv ? nv : 1, sizeof *physique));
    s->positions = pos;
    s->normals = nrm;
    s->uvs = uvs;
    s->collapse_id = collapse;
    s->face_collapse_count = collapse_count;
    s->influence_start = inf_start;
    s->influences = influences;
    s->physique_weights = physique;

    float *colors = NULL;
    uint32_t v = 0, next_influence = 0;
    for (xmlNode *ve = ossa_xml_first(e, "VERTEX"); ve; ve = ossa_xml_next(ve, "VERTEX"), v++)
        OSSA_TRY(read_vertex(x, ve, s, v, &colors, influences, &next_influence));

    if (c.springs) {
        ossa_spring *springs;
        OSSA_TRY(ossa_build_array(b, &springs, c.springs, sizeof *springs));
        uint32_t k = 0;
        for (xmlNode *se = ossa_xml_first(e, "SPRING"); se; se = ossa_xml_next(se, "SPRING"), k++) {
            int sl = ossa_xml_line(se);
            const char *ids = ossa_xml_attr(x, se, "VERTEXID");
            if (!ids)
                return ossa_fail_line(b, OSSA_ERR_FORMAT, sl, "SPRING has no VERTEXID");
            OSSA_TRY(read_vertex_id(x, sl, "SPRING VERTEXID", ids, 2, nv, springs[k].vertex));
            OSSA_TRY(ossa_xml_attr_float(x, se, "COEF", true, 0, &springs[k].coefficient));
            OSSA_TRY(ossa_xml_attr_float(x, se, "LENGTH", true, 0, &springs[k].idle_length));
        }
        s->springs = springs;
    }
    if (c.morphs) {
        ossa_morph_target *morphs;
        OSSA_TRY(ossa_build_array(b, &morphs, c.morphs, sizeof *morphs));
        uint32_t k = 0;
        for (xmlNode *me = ossa_xml_first(e, "MORPH"); me; me = ossa_xml_next(me, "MORPH"), k++)
            OSSA_TRY(read_morph(x, me, k, s, &morphs[k]));
        s->morphs = morphs;
    }
    if (c.faces) {
        uint32_t *indices;
        OSSA_TRY(ossa_build_array(b, &indices, (size_t)c.faces * 3, sizeof *indices));
        uint32_t k = 0;
        for (xmlNode *fe = ossa_xml_first(e, "FACE"); fe; fe = ossa_xml_next(fe, "FACE"), k++) {
            int fl = ossa_xml_line(fe);
            const char *ids = ossa_xml_attr(x, fe, "VERTEXID");
            if (!ids)
                return ossa_fail_line(b, OSSA_ERR_FORMAT, fl, "FACE has no VERTEXID");
            /* Decision 7: XML faces keep their winding (no CMF auto-flip). */
            OSSA_TRY(read_vertex_id(x, fl, "FACE VERTEXID", ids, 3, nv, indices + 3 * (size_t)k));
        }
        s->indices = indices;
    }
    return OSSA_OK;
}

static ossa_status xmf_body(ossa_xml *x)
{
    ossa_build *b = x->b;
    const xmlNode *root = x->root;
    uint32_t n;
    OSSA_TRY(count_children(x, root, "SUBMESH", OSSA_MAX_SUBMESHES, &n));
    OSSA_TRY(check_hint(x, root, "NUMSUBMESH", n, "SUBMESH"));
    if (n == 0)
        ossa_warn(b, "MESH has no SUBMESH");
    ossa_submesh *subs = NULL;
    if (n)
        OSSA_TRY(ossa_build_array(b, &subs, n, sizeof *subs));
    uint32_t i = 0;
    for (xmlNode *e = ossa_xml_first(root, "SUBMESH"); e; e = ossa_xml_next(e, "SUBMESH"), i++)
        OSSA_TRY(read_submesh(x, e, i, &subs[i]));
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
    return with_document(b, data, size, "XMF", "MESH", xmf_body);
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

static ossa_status xrf_body(ossa_xml *x)
{
    ossa_build *b = x->b;
    const xmlNode *root = x->root;
    float ambient[4], diffuse[4], specular[4], shininess;
    OSSA_TRY(read_color(x, root, "AMBIENT", ambient));
    OSSA_TRY(read_color(x, root, "DIFFUSE", diffuse));
    OSSA_TRY(read_color(x, root, "SPECULAR", specular));
    OSSA_TRY(ossa_xml_child_floats(x, root, "SHININESS", "MATERIAL", &shininess, 1));
    uint32_t n;
    OSSA_TRY(count_children(x, root, "MAP", OSSA_MAX_MAPS, &n));
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
    return with_document(b, data, size, "XRF", "MATERIAL", xrf_body);
}

/* ---- XPF ---- */

static ossa_status read_morph_track(ossa_xml *x, const xmlNode *e, uint32_t index,
                                    ossa_morph_track *t)
{
    ossa_build *b = x->b;
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
    uint32_t nk;
    OSSA_TRY(count_children(x, e, "KEYFRAME", OSSA_MAX_KEYS, &nk));
    OSSA_TRY(check_hint(x, e, "NUMKEYFRAMES", nk, "KEYFRAME"));
    t->key_count = nk;
    if (nk == 0)
        return OSSA_OK; /* IMVU files have empty tracks */
    float *times, *weights;
    OSSA_TRY(ossa_build_array(b, &times, nk, sizeof *times));
    OSSA_TRY(ossa_build_array(b, &weights, nk, sizeof *weights));
    uint32_t k = 0;
    for (xmlNode *kf = ossa_xml_first(e, "KEYFRAME"); kf; kf = ossa_xml_next(kf, "KEYFRAME"), k++) {
        OSSA_TRY(ossa_xml_attr_float(x, kf, "TIME", true, 0, &times[k]));
        if (ossa_xml_first(kf, "WEIGHT"))
            OSSA_TRY(ossa_xml_child_floats(x, kf, "WEIGHT", what, &weights[k], 1));
        else
            OSSA_TRY(ossa_xml_attr_float(x, kf, "WEIGHT", true, 0, &weights[k]));
    }
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

static ossa_status xpf_body(ossa_xml *x)
{
    ossa_build *b = x->b;
    const xmlNode *root = x->root;
    float duration;
    OSSA_TRY(ossa_xml_attr_float(x, root, "DURATION", true, 0, &duration));
    if (!(duration > 0.0f))
        return ossa_fail_line(b, OSSA_ERR_VALUE, ossa_xml_line(root),
                              "ANIMATION DURATION %g is not positive", (double)duration);
    uint32_t nt;
    OSSA_TRY(count_children(x, root, "TRACK", OSSA_MAX_TRACKS, &nt));
    OSSA_TRY(check_hint(x, root, "NUMTRACKS", nt, "TRACK"));
    ossa_morph_track *tracks = NULL;
    if (nt)
        OSSA_TRY(ossa_build_array(b, &tracks, nt, sizeof *tracks));
    uint32_t i = 0;
    for (xmlNode *e = ossa_xml_first(root, "TRACK"); e; e = ossa_xml_next(e, "TRACK"), i++)
        OSSA_TRY(read_morph_track(x, e, i, &tracks[i]));
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
    return with_document(b, data, size, "XPF", "ANIMATION", xpf_body);
}
