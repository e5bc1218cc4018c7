/* Cal3D binary mesh (CMF), docs/FORMATS.md, CMF layout: one ossa_mesh per file, one submesh per
 * material thread. Every count is checked against the bytes left before anything is allocated; bone
 * ids go through the skeleton's file-id mapping; the classic/upstream winding auto-flip is applied
 * (D7; the mp3butcher fork kept it) but not for IMVU files, whose reader never flipped. A 1300/1301
 * file is read in the layout that fits it (cal3d_version.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "core/checked.h"
#include "ossa/limits.h"
#include "core/reader.h"
#include "formats/formats.h"

/* What the file's version says about the layout of one submesh. */
typedef struct cmf_layout {
    bool morphs;          /* IMVU >= 911 / upstream and mp3butcher >= 1300: a morph count */
    bool colors;          /* IMVU >= 911 / upstream >= 1300 (not mp3butcher): vertex colours */
    bool auto_flip;       /* classic, 1200 and upstream readers flip the winding; IMVU does not */
    uint32_t uv_sets;
    uint32_t vertex_count;
    bool springs;         /* springCount > 0: each vertex carries a physique weight */
    bool counted_morphs;  /* mp3butcher's current loader: a blend-vertex count, no sentinel */
    bool *met_morphs;     /* set once a submesh has morph targets */
    uint32_t dropped_lod; /* out-of-range LOD fields replaced, reported once per submesh */
    size_t first_dropped_at;
} cmf_layout;

/* Bytes of one vertex before its influence list. */
static size_t vertex_head_bytes(const cmf_layout *l)
{
    return 6 * 4 + (l->colors ? 3 * 4 : 0) + 2 * 4 + (size_t)l->uv_sets * 8;
}

/* First pass over the vertices: the total number of influences, so that the CSR arrays can be
 * allocated exactly. Only structure is checked here; values are checked by the real pass. */
static ossa_status count_influences(ossa_reader scan, const cmf_layout *l, uint32_t *total)
{
    size_t head = vertex_head_bytes(l);
    uint32_t sum = 0;
    for (uint32_t v = 0; v < l->vertex_count; v++) {
        uint32_t n = 0;
        ossa_status st = ossa_rd_skip(&scan, head, "vertex");
        if (st == OSSA_OK)
            st = ossa_rd_count(&scan, &n, OSSA_MAX_INFLUENCES, 8, "influence count");
        if (st == OSSA_OK)
            st = ossa_rd_skip(&scan, (size_t)n * 8 + (l->springs ? 4 : 0), "influences");
        if (st != OSSA_OK)
            return ossa_fail_context(scan.b, st, "vertex %u", v);
        sum += n; /* at most OSSA_MAX_VERTICES * OSSA_MAX_INFLUENCES: no overflow */
    }
    *total = sum;
    return OSSA_OK;
}

static ossa_status read_vertex(ossa_reader *r, cmf_layout *l, ossa_submesh *sm, uint32_t v,
                               uint32_t *next_influence)
{
    ossa_build *b = r->b;
    float *pos = (float *)sm->positions + 3 * (size_t)v;
    float *nrm = (float *)sm->normals + 3 * (size_t)v;
    OSSA_TRY(ossa_rd_f32v(r, pos, 3, "position"));
    OSSA_TRY(ossa_rd_f32v(r, nrm, 3, "normal"));
    if (l->colors)
        OSSA_TRY(ossa_rd_f32v(r, (float *)sm->colors + 3 * (size_t)v, 3, "colour"));

    size_t at = r->pos;
    int32_t collapse, face_collapse;
    OSSA_TRY(ossa_rd_i32(r, &collapse, "collapse id"));
    OSSA_TRY(ossa_rd_i32(r, &face_collapse, "face collapse count"));
    /* LOD data is informative only (some exporters wrote negative ids): a bad value is
     * dropped, not fatal, and reported once per submesh. */
    if (collapse < -1 || collapse >= (int32_t)l->vertex_count || face_collapse < 0) {
        if (l->dropped_lod++ == 0)
            l->first_dropped_at = at;
        if (collapse < -1 || collapse >= (int32_t)l->vertex_count)
            collapse = -1;
        if (face_collapse < 0)
            face_collapse = 0;
    }
    ((int32_t *)sm->collapse_id)[v] = collapse;
    ((uint32_t *)sm->face_collapse_count)[v] = (uint32_t)face_collapse;

    /* No UV sets means no UV array: only form the pointer when there is one. */
    float *uv = l->uv_sets ? (float *)sm->uvs + 2 * (size_t)l->uv_sets * v : NULL;
    for (uint32_t s = 0; s < l->uv_sets; s++) {
        OSSA_TRY(ossa_rd_f32v(r, uv + 2 * s, 2, "texture coordinate"));
        if (r->b->opt.invert_v)
            uv[2 * s + 1] = 1.0f - uv[2 * s + 1];
    }

    uint32_t n;
    OSSA_TRY(ossa_rd_count(r, &n, OSSA_MAX_INFLUENCES, 8, "influence count"));
    ossa_influence *inf = (ossa_influence *)sm->influences + *next_influence;
    for (uint32_t k = 0; k < n; k++) {
        at = r->pos;
        int32_t id;
        OSSA_TRY(ossa_rd_i32(r, &id, "influence bone id"));
        OSSA_TRY(ossa_fail_context(b, ossa_build_map_bone(b, id, (int64_t)at, 0, &inf[k].bone),
                                   "influence %u", k));
        OSSA_TRY(ossa_rd_f32(r, &inf[k].weight, "influence weight"));
    }
    *next_influence += n;
    ((uint32_t *)sm->influence_start)[v + 1] = *next_influence;
    if (n > sm->max_influences)
        sm->max_influences = n;
    if (l->springs)
        OSSA_TRY(ossa_rd_f32(r, (float *)sm->physique_weights + v, "physique weight"));
    return OSSA_OK;
}

static ossa_status read_spring(ossa_reader *r, const cmf_layout *l, ossa_spring *sp)
{
    for (int k = 0; k < 2; k++) {
        size_t at = r->pos;
        int32_t id;
        OSSA_TRY(ossa_rd_i32(r, &id, "spring vertex id"));
        if (id < 0 || id >= (int32_t)l->vertex_count)
            return ossa_fail(r->b, OSSA_ERR_RANGE, (int64_t)at,
                             "vertex id %d not in the submesh's 0..%d", id,
                             (int)l->vertex_count - 1);
        sp->vertex[k] = (uint32_t)id;
    }
    OSSA_TRY(ossa_rd_f32(r, &sp->coefficient, "spring coefficient"));
    return ossa_rd_f32(r, &sp->idle_length, "spring idle length");
}

/* Reads a blend-vertex id and checks it continues the ascending list (any id >= the vertex
 * count ends it). */
static ossa_status read_blend_id(ossa_reader *r, int32_t previous, int32_t *id)
{
    size_t at = r->pos;
    OSSA_TRY(ossa_rd_i32(r, id, "blend vertex id"));
    if (*id < 0 || *id <= previous)
        return ossa_fail(r->b, OSSA_ERR_FORMAT, (int64_t)at,
                         "blend vertex id %d after %d: ids must ascend from 0", *id, previous);
    return OSSA_OK;
}

/* Blend vertex k, for vertex v: absolute in the file, stored as deltas from the base vertex. */
static ossa_status read_blend_vertex(ossa_reader *r, const cmf_layout *l, const ossa_submesh *sm,
                                     uint32_t v, uint32_t k, float *dp, float *dn, float *duv)
{
    OSSA_TRY(ossa_rd_f32v(r, dp + 3 * (size_t)k, 3, "blend vertex position"));
    OSSA_TRY(ossa_rd_f32v(r, dn + 3 * (size_t)k, 3, "blend vertex normal"));
    for (int c = 0; c < 3; c++) {
        dp[3 * (size_t)k + c] -= sm->positions[3 * (size_t)v + c];
        dn[3 * (size_t)k + c] -= sm->normals[3 * (size_t)v + c];
    }
    for (uint32_t s = 0; s < l->uv_sets; s++) {
        float *d = duv + 2 * ((size_t)l->uv_sets * k + s);
        const float *base = sm->uvs + 2 * ((size_t)l->uv_sets * v + s);
        OSSA_TRY(ossa_rd_f32v(r, d, 2, "blend vertex texture coordinate"));
        if (r->b->opt.invert_v)
            d[1] = 1.0f - d[1];
        d[0] -= base[0];
        d[1] -= base[1];
    }
    return OSSA_OK;
}

/* A morph target's arrays for count blend vertices (at least one, so that none is NULL). */
typedef struct blend_arrays {
    uint32_t *vertex;
    float *dp, *dn, *duv;
} blend_arrays;

static ossa_status alloc_blends(ossa_build *b, const cmf_layout *l, uint32_t count,
                                blend_arrays *a)
{
    size_t cap = count ? count : 1;
    a->duv = NULL;
    OSSA_TRY(ossa_build_array(b, &a->vertex, cap, sizeof *a->vertex));
    OSSA_TRY(ossa_build_array(b, &a->dp, 3 * cap, sizeof *a->dp));
    OSSA_TRY(ossa_build_array(b, &a->dn, 3 * cap, sizeof *a->dn));
    if (l->uv_sets)
        OSSA_TRY(ossa_build_array(b, &a->duv, 2 * (size_t)l->uv_sets * cap, sizeof *a->duv));
    return OSSA_OK;
}

static void set_blends(ossa_morph_target *mt, uint32_t count, const blend_arrays *a)
{
    mt->count = count;
    mt->vertex = a->vertex;
    mt->d_position = a->dp;
    mt->d_normal = a->dn;
    mt->d_uv = a->duv;
}

/* One morph target. The file lists absolute blend vertices for an ascending sparse set of
 * vertex ids; they are stored as deltas from the base vertex. */
static ossa_status read_morph(ossa_reader *r, const cmf_layout *l, const ossa_submesh *sm,
                              ossa_morph_target *mt)
{
    ossa_build *b = r->b;
    size_t blend_bytes = 6 * 4 + (size_t)l->uv_sets * 8;
    int32_t vcount = (int32_t)l->vertex_count;

    /* First pass: how many blend vertices. */
    ossa_reader scan = *r;
    uint32_t name_len, count = 0;
    OSSA_TRY(ossa_rd_count(&scan, &name_len, OSSA_MAX_STRING, 1, "morph name"));
    OSSA_TRY(ossa_rd_skip(&scan, name_len, "morph name"));
    int32_t id, previous = -1;
    OSSA_TRY(read_blend_id(&scan, previous, &id));
    while (id < vcount) {
        OSSA_TRY(ossa_rd_skip(&scan, blend_bytes, "blend vertex"));
        count++;
        previous = id;
        OSSA_TRY(read_blend_id(&scan, previous, &id));
    }

    OSSA_TRY(ossa_rd_cal3d_string(r, &mt->name, "morph name"));
    blend_arrays a;
    OSSA_TRY(alloc_blends(b, l, count, &a));
    previous = -1;
    OSSA_TRY(read_blend_id(r, previous, &id));
    for (uint32_t k = 0; k < count; k++) {
        a.vertex[k] = (uint32_t)id;
        OSSA_TRY(read_blend_vertex(r, l, sm, (uint32_t)id, k, a.dp, a.dn, a.duv));
        previous = id;
        OSSA_TRY(read_blend_id(r, previous, &id));
    }
    set_blends(mt, count, &a);
    return OSSA_OK;
}

/* The mp3butcher fork's current morph list (docs/FORMATS.md D1b): name, blend-vertex count,
 * first id, then its loadCoreSubmesh loop: for each vertex index i below the vertex count, i
 * takes the next blend vertex when i >= id, after which the next id is read while the count
 * is not used up (no sentinel follows the last). An id at or below an index already passed
 * therefore gives its blend vertex to the next index, and a list still owed blend vertices
 * when i reaches the end simply stops, as in the fork. */
typedef struct blend_walk {
    int32_t declared; /* the count field */
    int32_t id;       /* the id read last */
    uint32_t next;    /* the next vertex index the loop looks at */
    uint32_t read;    /* blend vertices read */
    bool out_of_order;
} blend_walk;

static ossa_status walk_start(ossa_reader *r, blend_walk *w)
{
    *w = (blend_walk){0};
    OSSA_TRY(ossa_rd_i32(r, &w->declared, "blend vertex count"));
    return ossa_rd_i32(r, &w->id, "blend vertex id");
}

/* The vertex the next blend vertex belongs to; false once the loop has passed the last one. */
static bool walk_next(blend_walk *w, uint32_t vcount, uint32_t *vertex)
{
    uint32_t v = w->next;
    if (w->id > 0 && (uint32_t)w->id > v)
        v = (uint32_t)w->id;
    if (v >= vcount) {
        w->next = vcount;
        return false;
    }
    *vertex = v;
    w->next = v + 1;
    return true;
}

static ossa_status walk_advance(ossa_reader *r, blend_walk *w, uint32_t vcount)
{
    w->read++;
    if ((int64_t)w->read >= (int64_t)w->declared) {
        w->id = (int32_t)vcount; /* the fork's `else blendVertId = vertexCount` */
        return OSSA_OK;
    }
    OSSA_TRY(ossa_rd_i32(r, &w->id, "blend vertex id"));
    if (w->id < (int32_t)w->next && w->next < vcount)
        w->out_of_order = true;
    return OSSA_OK;
}

static ossa_status read_counted_morph(ossa_reader *r, const cmf_layout *l, const ossa_submesh *sm,
                                      uint32_t index, ossa_morph_target *mt)
{
    ossa_build *b = r->b;
    size_t blend_bytes = 6 * 4 + (size_t)l->uv_sets * 8;
    uint32_t vcount = l->vertex_count, v;

    /* First pass: how many blend vertices the loop takes. */
    ossa_reader scan = *r;
    uint32_t name_len;
    OSSA_TRY(ossa_rd_count(&scan, &name_len, OSSA_MAX_STRING, 1, "morph name"));
    OSSA_TRY(ossa_rd_skip(&scan, name_len, "morph name"));
    blend_walk w;
    OSSA_TRY(walk_start(&scan, &w));
    while (walk_next(&w, vcount, &v)) {
        OSSA_TRY(ossa_rd_skip(&scan, blend_bytes, "blend vertex"));
        OSSA_TRY(walk_advance(&scan, &w, vcount));
    }
    uint32_t count = w.read;

    OSSA_TRY(ossa_rd_cal3d_string(r, &mt->name, "morph name"));
    blend_arrays a;
    OSSA_TRY(alloc_blends(b, l, count, &a));
    OSSA_TRY(walk_start(r, &w));
    for (uint32_t k = 0; k < count && walk_next(&w, vcount, &v); k++) {
        a.vertex[k] = v;
        OSSA_TRY(read_blend_vertex(r, l, sm, v, k, a.dp, a.dn, a.duv));
        OSSA_TRY(walk_advance(r, &w, vcount));
    }
    if (w.declared <= 0)
        ossa_warn(b, "morph target %u ('%s'): blend vertex count %d; read as the fork's loader "
                  "does without its assertion (%u blend vertex)", index, mt->name, w.declared,
                  count);
    else if ((int64_t)count < (int64_t)w.declared)
        ossa_warn(b, "morph target %u ('%s'): the vertices ended after %u of the %d blend "
                  "vertices its count gives; the rest is read as what follows, as the fork's "
                  "loader does", index, mt->name, count, w.declared);
    if (w.out_of_order)
        ossa_warn(b, "morph target %u ('%s'): blend vertex ids out of order, each given to the "
                  "next vertex as the fork's loader does", index, mt->name);
    set_blends(mt, count, &a);
    return OSSA_OK;
}

static ossa_status read_face(ossa_reader *r, const cmf_layout *l, uint32_t *tri)
{
    for (int k = 0; k < 3; k++) {
        size_t at = r->pos;
        int32_t index;
        OSSA_TRY(ossa_rd_i32(r, &index, "face index"));
        if (index < 0 || index >= (int32_t)l->vertex_count)
            return ossa_fail(r->b, OSSA_ERR_RANGE, (int64_t)at,
                             "index %d not in the submesh's vertices 0..%d", index,
                             (int)l->vertex_count - 1);
        tri[k] = (uint32_t)index;
    }
    return OSSA_OK;
}

/* Cal3D's auto-flip (D7, CMF layout): the first face's geometric normal, n = (p1 - p2) x (p3 - p2),
 * is compared with the normal of its first vertex; when they agree the whole submesh is flipped. */
static void apply_winding_rule(ossa_build *b, const cmf_layout *l, ossa_submesh *sm,
                               uint32_t index)
{
    if (!l->auto_flip || sm->face_count == 0)
        return;
    uint32_t *idx = (uint32_t *)sm->indices;
    const float *p1 = sm->positions + 3 * (size_t)idx[0];
    const float *p2 = sm->positions + 3 * (size_t)idx[1];
    const float *p3 = sm->positions + 3 * (size_t)idx[2];
    const float *vn = sm->normals + 3 * (size_t)idx[0];
    double a[3], c[3];
    for (int k = 0; k < 3; k++) {
        a[k] = (double)p1[k] - p2[k];
        c[k] = (double)p3[k] - p2[k];
    }
    double n[3] = {a[1] * c[2] - a[2] * c[1], a[2] * c[0] - a[0] * c[2],
                   a[0] * c[1] - a[1] * c[0]};
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 0.0)) {
        ossa_warn(b, "submesh %u: first face has zero area, winding left as stored", index);
        return;
    }
    double dot = (n[0] * vn[0] + n[1] * vn[1] + n[2] * vn[2]) / len;
    bool flip = dot > 0.0;
    if (b->opt.flip_winding)
        flip = !flip;
    if (!flip)
        return;
    for (size_t f = 0; f < sm->face_count; f++) {
        uint32_t t = idx[3 * f + 1];
        idx[3 * f + 1] = idx[3 * f + 2];
        idx[3 * f + 2] = t;
    }
    sm->winding_flipped = 1;
}

/* Allocates a submesh's arrays once its counts are known and checked. */
static ossa_status alloc_submesh(ossa_build *b, const cmf_layout *l, ossa_submesh *sm,
                                 uint32_t influences)
{
    size_t nv = l->vertex_count ? l->vertex_count : 1;
    float *pos, *nrm, *col = NULL, *uv = NULL, *phys = NULL;
    int32_t *collapse;
    uint32_t *face_collapse, *start, *indices = NULL;
    ossa_influence *inf = NULL;
    ossa_spring *springs = NULL;
    OSSA_TRY(ossa_build_array(b, &pos, 3 * nv, sizeof *pos));
    OSSA_TRY(ossa_build_array(b, &nrm, 3 * nv, sizeof *nrm));
    if (l->colors)
        OSSA_TRY(ossa_build_array(b, &col, 3 * nv, sizeof *col));
    if (l->uv_sets)
        OSSA_TRY(ossa_build_array(b, &uv, 2 * (size_t)l->uv_sets * nv, sizeof *uv));
    OSSA_TRY(ossa_build_array(b, &collapse, nv, sizeof *collapse));
    OSSA_TRY(ossa_build_array(b, &face_collapse, nv, sizeof *face_collapse));
    OSSA_TRY(ossa_build_array(b, &start, nv + 1, sizeof *start));
    OSSA_TRY(ossa_build_array(b, &inf, influences ? influences : 1, sizeof *inf));
    if (l->springs) {
        OSSA_TRY(ossa_build_array(b, &phys, nv, sizeof *phys));
        OSSA_TRY(ossa_build_array(b, &springs, sm->spring_count, sizeof *springs));
    }
    if (sm->face_count)
        OSSA_TRY(ossa_build_array(b, &indices, 3 * (size_t)sm->face_count, sizeof *indices));
    sm->positions = pos;
    sm->normals = nrm;
    sm->colors = col;
    sm->uvs = uv;
    sm->collapse_id = collapse;
    sm->face_collapse_count = face_collapse;
    sm->influence_start = start;
    sm->influences = inf;
    sm->physique_weights = phys;
    sm->springs = springs;
    sm->indices = indices;
    return OSSA_OK;
}

static ossa_status read_submesh(ossa_reader *r, cmf_layout l, ossa_submesh *sm, uint32_t index)
{
    ossa_build *b = r->b;
    size_t at = r->pos;
    int32_t material;
    OSSA_TRY(ossa_rd_i32(r, &material, "material thread id"));
    if (material < -1)
        return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)at, "material thread id %d is below -1",
                         material);
    sm->material = material;
    size_t counts_at = r->pos;
    uint32_t vcount, fcount, lods, scount, uv_sets, morphs = 0;
    OSSA_TRY(ossa_rd_count(r, &vcount, OSSA_MAX_VERTICES, 0, "vertex count"));
    OSSA_TRY(ossa_rd_count(r, &fcount, OSSA_MAX_FACES, 0, "face count"));
    OSSA_TRY(ossa_rd_count(r, &lods, OSSA_MAX_VERTICES, 0, "LOD count"));
    OSSA_TRY(ossa_rd_count(r, &scount, OSSA_MAX_SPRINGS, 0, "spring count"));
    OSSA_TRY(ossa_rd_count(r, &uv_sets, OSSA_MAX_UV_SETS, 0, "texture coordinate count"));
    if (l.morphs)
        OSSA_TRY(ossa_rd_count(r, &morphs, OSSA_MAX_MORPHS, 0, "morph count"));
    l.vertex_count = vcount;
    l.uv_sets = uv_sets;
    l.springs = scount > 0;
    sm->vertex_count = vcount;
    sm->face_count = fcount;
    sm->lod_count = lods;
    sm->spring_count = scount;
    sm->uv_set_count = uv_sets;
    sm->morph_count = morphs;

    /* The smallest file these counts could describe: empty influence lists and morph names. */
    size_t vertex_min = vertex_head_bytes(&l) + 4 + (l.springs ? 4 : 0);
    size_t vb, fb, sb, need = 0;
    if (!ossa_mul_size(vcount, vertex_min, &vb) || !ossa_mul_size(fcount, 12, &fb) ||
        !ossa_mul_size(scount, 16, &sb) || !ossa_add_size(vb, fb, &need) ||
        !ossa_add_size(need, sb, &need) || !ossa_add_size(need, (size_t)morphs * 8, &need) ||
        need > ossa_rd_left(r))
        return ossa_fail(b, OSSA_ERR_TRUNCATED, (int64_t)counts_at,
                         "%u vertices, %u faces, %u springs and %u morphs need at least %zu bytes, "
                         "only %zu left",
                         vcount, fcount, scount, morphs, need, ossa_rd_left(r));

    uint32_t influences = 0;
    OSSA_TRY(count_influences(*r, &l, &influences));
    OSSA_TRY(alloc_submesh(b, &l, sm, influences));

    uint32_t next_influence = 0;
    for (uint32_t v = 0; v < vcount; v++)
        OSSA_TRY(ossa_fail_context(b, read_vertex(r, &l, sm, v, &next_influence), "vertex %u",
                                   v));
    if (l.dropped_lod)
        ossa_warn(b, "submesh %u: %u vertices have a collapse id outside -1..%d or a negative "
                  "face collapse count (first at offset %zu); their LOD data is ignored",
                  index, l.dropped_lod, (int)vcount - 1, l.first_dropped_at);
    for (uint32_t s = 0; s < scount; s++)
        OSSA_TRY(ossa_fail_context(b, read_spring(r, &l, (ossa_spring *)&sm->springs[s]),
                                   "spring %u", s));
    if (morphs) {
        *l.met_morphs = true;
        ossa_morph_target *targets;
        OSSA_TRY(ossa_build_array(b, &targets, morphs, sizeof *targets));
        for (uint32_t t = 0; t < morphs; t++)
            OSSA_TRY(ossa_fail_context(b, l.counted_morphs
                                              ? read_counted_morph(r, &l, sm, t, &targets[t])
                                              : read_morph(r, &l, sm, &targets[t]),
                                       "morph target %u", t));
        sm->morphs = targets;
    }
    for (uint32_t f = 0; f < fcount; f++)
        OSSA_TRY(ossa_fail_context(b, read_face(r, &l, (uint32_t *)sm->indices + 3 * (size_t)f),
                                   "face %u", f));
    apply_winding_rule(b, &l, sm, index);
    return OSSA_OK;
}

/* The whole file in one layout (how: upstream or mp3butcher for 1300/1301). The mesh joins the
 * model only once every submesh is read and, in exact mode, the file has ended. */
static ossa_status read_cmf_layout(ossa_build *b, const uint8_t *data, size_t size,
                                   ossa_cal3d_attempt *how)
{
    ossa_reader r;
    ossa_reader_init(&r, b, data, size);
    char magic[4];
    OSSA_TRY(ossa_rd_bytes(&r, magic, 4, "CMF magic"));
    if (memcmp(magic, "CMF\0", 4) != 0)
        return ossa_fail(b, OSSA_ERR_FORMAT, 0, "not a Cal3D mesh: magic is not \"CMF\"");
    int32_t version;
    OSSA_TRY(ossa_rd_i32(&r, &version, "CMF version"));
    ossa_cal3d_lineage lineage;
    OSSA_TRY(ossa_cal3d_check_version(b, version, 4, 0, &lineage));
    lineage = ossa_cal3d_attempt_lineage(lineage, how);
    b->last_version = (uint32_t)version;

    cmf_layout layout = {0};
    layout.morphs = lineage == OSSA_CAL3D_IMVU || lineage == OSSA_CAL3D_UPSTREAM ||
                    lineage == OSSA_CAL3D_MP3BUTCHER;
    layout.colors = lineage == OSSA_CAL3D_IMVU || lineage == OSSA_CAL3D_UPSTREAM;
    layout.auto_flip = lineage != OSSA_CAL3D_IMVU;
    layout.counted_morphs = lineage == OSSA_CAL3D_MP3BUTCHER && !how->terminated_morphs;
    layout.met_morphs = &how->had_morphs;

    uint32_t count;
    OSSA_TRY(ossa_rd_count(&r, &count, OSSA_MAX_SUBMESHES, layout.morphs ? 28 : 24,
                           "submesh count"));
    ossa_submesh *submeshes;
    OSSA_TRY(ossa_build_array(b, &submeshes, count ? count : 1, sizeof *submeshes));
    for (uint32_t i = 0; i < count; i++)
        OSSA_TRY(ossa_fail_context(b, read_submesh(&r, layout, &submeshes[i], i), "submesh %u",
                                   i));
    if (ossa_rd_left(&r)) {
        if (how->exact) {
            how->trailing = ossa_rd_left(&r);
            return ossa_fail(b, OSSA_ERR_FORMAT, (int64_t)r.pos,
                             "%zu bytes after the last submesh", ossa_rd_left(&r));
        }
        ossa_warn(b, "%zu bytes after the last submesh ignored", ossa_rd_left(&r));
    }
    if (count == 0)
        ossa_warn(b, "mesh has no submeshes");

    ossa_mesh *mesh = ossa_build_push_mesh(b);
    if (!mesh)
        return OSSA_ERR_NOMEM;
    mesh->name = b->stem;
    mesh->submesh_count = count;
    mesh->submeshes = submeshes;
    mesh->format = OSSA_FORMAT_CMF;
    mesh->version = (uint32_t)version;
    mesh->lineage = lineage;
    return OSSA_OK;
}

ossa_status ossa_read_cmf(ossa_build *b, const uint8_t *data, size_t size)
{
    return ossa_cal3d_read_lineage(b, data, size, "CMF", read_cmf_layout);
}
