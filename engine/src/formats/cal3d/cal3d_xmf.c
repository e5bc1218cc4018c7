/* The Cal3D XML mesh reader (.xmf, docs/FORMATS.md, Cal3D XML layouts): MESH and SUBMESH are
 * streamed containers; VERTEX, FACE, SPRING and each MORPH's BLENDVERTEX records come parsed whole,
 * and every count used to allocate was pre-scanned and is checked against its cap first. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/limits.h"
#include "formats/cal3d/cal3d_xml_util.h"

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
    OSSA_TRY(ossa_xml_check_hint(x, e, "NUMINFLUENCES", count, "INFLUENCE"));
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
    OSSA_TRY(ossa_xml_dup_str(x, ossa_xml_line(e), "MORPH NAME", &mt->name, name));
    char what[160];
    snprintf(what, sizeof what, "MORPH '%.100s'", mt->name);
    uint32_t n = counts[0];
    OSSA_TRY(ossa_xml_check_count(x, e, "BLENDVERTEX", n, s->vertex_count));
    OSSA_TRY(ossa_xml_check_hint(x, e, "NUMBLENDVERTS", n, "BLENDVERTEX"));
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
    /* D7: XML faces keep their winding (no CMF auto-flip). */
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
    OSSA_TRY(ossa_xml_check_hint(x, e, "NUMMORPHS", counts[SUB_MORPH], "MORPH"));

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
    OSSA_TRY(ossa_xml_check_hint(x, root, "NUMSUBMESH", n, "SUBMESH"));
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
