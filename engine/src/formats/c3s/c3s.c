/* Cannibal scene (C3S) reader, part 1: RIFF chunks, the SHDR header and every SMDL subchunk,
 * read into the records of c3s_records.h with every count checked against the bytes left and
 * a cap and every 1-based index checked against the number of subchunks of its kind (the
 * checked reads are c3s_read.h's; BONE and ASEQ are read in c3s_read_anim.c). Chunks and
 * subchunks of unknown types are skipped; odd lengths are followed by a pad byte. c3s_build.c
 * then makes the model. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "core/checked.h"
#include "ossa/limits.h"
#include "formats/c3s/c3s_read.h"
#include "formats/formats.h"

/* ---- subchunks ---- */

static const char kind_ids[C3S_KIND_COUNT][5] = {
    "TXTR", "WAVE", "MATR", "VRTX", "VGRP", "VFRM", "EDGE", "TRIF", "TVRT", "TGRP", "TFRM",
    "BONE", "ASEQ", "SMNT"};
/* Caps on how many of each a model may hold (each costs a record of a few dozen bytes while
 * reading, so no single table passes a couple of hundred MiB). */
static const uint32_t kind_caps[C3S_KIND_COUNT] = {
    4096, 4096, 4096, OSSA_MAX_VERTICES, 65536, 1u << 20, 1u << 22, 1u << 22,
    OSSA_MAX_VERTICES, 65536, 1u << 20, OSSA_MAX_BONES, OSSA_MAX_TRACKS, 65536};
/* Kinds whose names the model keeps. */
static const bool kind_named[C3S_KIND_COUNT] = {
    [C3S_MATR] = true, [C3S_BONE] = true, [C3S_ASEQ] = true, [C3S_SMNT] = true};

static int kind_of(const uint8_t id[4])
{
    for (int k = 0; k < C3S_KIND_COUNT; k++)
        if (memcmp(id, kind_ids[k], 4) == 0)
            return k;
    return -1;
}

/* One RIFF chunk header at r->pos inside [.., end): its id, data range and the next chunk. */
static ossa_status rd_chunk(ossa_reader *r, size_t end, uint8_t id[4], size_t *data_at,
                            size_t *data_end, const char *what)
{
    size_t at = r->pos;
    if (end - at < 8)
        return ossa_fail(r->b, OSSA_ERR_TRUNCATED, (int64_t)at,
                         "%s header needs 8 bytes, only %zu left", what, end - at);
    memcpy(id, r->data + at, 4);
    r->pos += 4;
    uint32_t len;
    OSSA_TRY(ossa_rd_u32(r, &len, what));
    size_t pad = len & 1u;
    if ((size_t)len > end - r->pos || pad > end - r->pos - len)
        return ossa_fail(r->b, OSSA_ERR_TRUNCATED, (int64_t)at,
                         "%s '%.4s' of %u bytes (+%zu pad) runs past its container (%zu left)",
                         what, (const char *)id, len, pad, end - r->pos);
    *data_at = r->pos;
    *data_end = r->pos + len;
    r->pos = *data_end + pad;
    return OSSA_OK;
}

static ossa_status parse_texture(parse_ctx *p)
{
    ossa_reader *r = &p->r;
    uint32_t w, h;
    OSSA_TRY(ossa_c3s_rd_compdword(r, &w, "texture width"));
    OSSA_TRY(ossa_c3s_rd_compdword(r, &h, "texture height"));
    OSSA_TRY(rd_stringz(r, &p->md->textures[p->index].file, "texture image file"));
    if ((w & (w - 1)) || (h & (h - 1)))
        ossa_warn(r->b, "model '%s' texture %u: %ux%u is not a power of two", p->md->name,
                  p->index + 1, w, h);
    return OSSA_OK;
}

static ossa_status parse_wave(parse_ctx *p)
{
    return rd_stringz(&p->r, NULL, "wave file");
}

static ossa_status parse_material(parse_ctx *p)
{
    ossa_reader *r = &p->r;
    c3s_material *mt = &p->md->materials[p->index];
    OSSA_TRY(ossa_rd_f32(r, &mt->transparency, "material transparency"));
    OSSA_TRY(rd_index_list(r, p->md->count[C3S_TXTR], 0, OSSA_MAX_MAPS, &mt->texture_count,
                           &mt->textures, "material texture"));
    uint32_t n;
    return rd_index_list(r, p->md->count[C3S_WAVE], 0, 65536, &n, NULL, "material sound");
}

static ossa_status parse_vertex(parse_ctx *p, size_t *weights_at)
{
    ossa_reader *r = &p->r;
    c3s_smdl *md = p->md;
    c3s_vertex *v = &md->vertices[p->index];
    float lod;
    OSSA_TRY(ossa_rd_f32(r, &lod, "vertex lodDeathLevel"));
    v->active = !(md->subs[C3S_VRTX][p->index].flags & C3S_VF_DISABLED) && 1.0f >= lod;
    uint32_t n;
    OSSA_TRY(rd_index_list(r, md->count[C3S_EDGE], 0, UINT32_MAX, &n, NULL, "vertex edge link"));
    OSSA_TRY(rd_index_list(r, md->count[C3S_TRIF], 0, UINT32_MAX, &n, NULL,
                           "vertex triface link"));
    OSSA_TRY(rd_count(r, &v->weight_count, OSSA_MAX_INFLUENCES, 17, "vertex weight count"));
    *weights_at = r->pos;
    for (uint32_t i = 0; i < v->weight_count; i++) {
        float f[4];
        OSSA_TRY(ossa_rd_f32v(r, f, 4, "vertex weight"));
        uint32_t bone;
        OSSA_TRY(rd_index(r, md->count[C3S_BONE], 1, &bone, "vertex weight bone"));
    }
    if (md->weight_count > UINT32_MAX - v->weight_count)
        return ossa_fail(r->b, OSSA_ERR_RANGE, (int64_t)r->pos, "too many vertex weights");
    v->weight_start = md->weight_count;
    md->weight_count += v->weight_count;
    return OSSA_OK;
}

/* Second pass over the weights, once their total is known. */
static ossa_status load_weights(c3s_scene *sc, c3s_smdl *md, const size_t *weights_at)
{
    if (!md->weight_count)
        return OSSA_OK;
    OSSA_TRY(ossa_build_array(sc->b, &md->weights, md->weight_count, sizeof *md->weights));
    for (uint32_t i = 0; i < md->count[C3S_VRTX]; i++) {
        ossa_reader r;
        ossa_reader_init(&r, sc->b, sc->data, md->subs[C3S_VRTX][i].end);
        r.pos = weights_at[i];
        for (uint32_t k = 0; k < md->vertices[i].weight_count; k++) {
            c3s_weight *w = &md->weights[md->vertices[i].weight_start + k];
            OSSA_TRY(ossa_rd_f32(&r, &w->factor, "vertex weight factor"));
            OSSA_TRY(ossa_rd_f32v(&r, w->offset, 3, "vertex weight offset"));
            OSSA_TRY(ossa_c3s_rd_compdword(&r, &w->bone, "vertex weight bone"));
        }
    }
    return OSSA_OK;
}

static ossa_status parse_group(parse_ctx *p, c3s_kind member, c3s_group *g, const char *what)
{
    return rd_index_list(&p->r, p->md->count[member], 0, OSSA_MAX_VERTICES, &g->count, &g->items,
                         what);
}

static ossa_status parse_vertex_frame(parse_ctx *p)
{
    ossa_reader *r = &p->r;
    c3s_smdl *md = p->md;
    c3s_frame *f = &md->vframes[p->index];
    size_t at = r->pos;
    OSSA_TRY(rd_index(r, md->count[C3S_VGRP], 1, &f->group, "vertex frame group"));
    float box[6], scale[3], translate[3];
    OSSA_TRY(ossa_rd_f32v(r, box, 6, "vertex frame bounding box"));
    OSSA_TRY(ossa_rd_f32v(r, scale, 3, "vertex frame scale"));
    OSSA_TRY(ossa_rd_f32v(r, translate, 3, "vertex frame translate"));
    uint32_t byte_count, raw_count;
    OSSA_TRY(rd_count(r, &byte_count, OSSA_MAX_VERTICES, 3, "compressed vertex count"));
    size_t bytes_at = r->pos;
    OSSA_TRY(ossa_rd_skip(r, 3 * (size_t)byte_count, "compressed vertices"));
    OSSA_TRY(rd_count(r, &raw_count, OSSA_MAX_VERTICES, 12, "raw vertex count"));
    bool compressed = md->subs[C3S_VFRM][p->index].flags & C3S_VFF_COMPRESSED;
    f->count = compressed ? byte_count : raw_count;
    uint32_t expect = f->group ? md->vgroups[f->group - 1].count : f->count;
    if (f->count != expect)
        return ossa_fail(r->b, OSSA_ERR_FORMAT, (int64_t)at,
                         "vertex frame has %u positions, its group %u has %u vertices", f->count,
                         f->group, expect);
    if (f->count)
        OSSA_TRY(ossa_build_array(r->b, &f->data, f->count, 3 * sizeof(float)));
    if (compressed) {
        for (size_t i = 0; i < 3 * (size_t)f->count; i++) {
            f->data[i] = (float)r->data[bytes_at + i] * scale[i % 3] + translate[i % 3];
            if (!isfinite(f->data[i]))
                return ossa_fail(r->b, OSSA_ERR_VALUE, (int64_t)(bytes_at + i),
                                 "compressed vertex %zu decodes to a non-finite value", i / 3);
        }
        OSSA_TRY(ossa_rd_skip(r, 12 * (size_t)raw_count, "raw vertices"));
    } else {
        OSSA_TRY(ossa_rd_f32v(r, f->data, 3 * (size_t)f->count, "raw vertex position"));
    }
    return OSSA_OK;
}

static ossa_status parse_edge(parse_ctx *p)
{
    ossa_reader *r = &p->r;
    c3s_smdl *md = p->md;
    c3s_edge *e = &md->edges[p->index];
    float reserved;
    OSSA_TRY(ossa_rd_f32_raw(r, &reserved, "edge reserved field"));
    OSSA_TRY(rd_index(r, md->count[C3S_VRTX], 0, &e->head, "edge head vertex"));
    OSSA_TRY(rd_index(r, md->count[C3S_VRTX], 0, &e->tail, "edge tail vertex"));
    uint32_t inverted, n;
    OSSA_TRY(rd_index(r, md->count[C3S_EDGE], 1, &inverted, "inverted edge"));
    OSSA_TRY(rd_index_list(r, md->count[C3S_TRIF], 0, UINT32_MAX, &n, NULL, "edge triface link"));
    e->active = !(md->subs[C3S_EDGE][p->index].flags & C3S_EF_DISABLED);
    return OSSA_OK;
}

/* material, edgeRing[3], texVertRing[3] */
static ossa_status rd_ring(ossa_reader *r, const c3s_smdl *md, uint32_t *material,
                           uint32_t edge[3], uint32_t tex[3])
{
    OSSA_TRY(rd_index(r, md->count[C3S_MATR], 1, material, "triface material"));
    for (int i = 0; i < 3; i++)
        OSSA_TRY(rd_index(r, md->count[C3S_EDGE], 1, &edge[i], "triface edge"));
    for (int i = 0; i < 3; i++)
        OSSA_TRY(rd_index(r, md->count[C3S_TVRT], 1, &tex[i], "triface texture vertex"));
    return OSSA_OK;
}

static ossa_status parse_face(parse_ctx *p)
{
    ossa_reader *r = &p->r;
    c3s_smdl *md = p->md;
    c3s_face *f = &md->faces[p->index];
    float lod;
    OSSA_TRY(ossa_rd_f32(r, &lod, "triface lodDeathLevel"));
    OSSA_TRY(rd_ring(r, md, &f->material, f->edge, f->tex));
    uint32_t ranges;
    OSSA_TRY(rd_count(r, &ranges, 65536, 11, "triface LOD range count"));
    for (uint32_t i = 0; i < ranges; i++) {
        float start;
        uint32_t material, edge[3], tex[3];
        OSSA_TRY(ossa_rd_f32(r, &start, "LOD range start"));
        OSSA_TRY(rd_ring(r, md, &material, edge, tex));
        /* Full detail is level 1.0: the last range starting at or below it replaces the base. */
        if (1.0f >= start) {
            f->material = material;
            memcpy(f->edge, edge, sizeof edge);
            memcpy(f->tex, tex, sizeof tex);
        }
    }
    f->flags = md->subs[C3S_TRIF][p->index].flags;
    f->active = !(f->flags & C3S_TFF_DISABLED) && 1.0f >= lod;
    return OSSA_OK;
}

static ossa_status parse_tex_frame(parse_ctx *p)
{
    ossa_reader *r = &p->r;
    c3s_smdl *md = p->md;
    c3s_frame *f = &md->tframes[p->index];
    size_t at = r->pos;
    OSSA_TRY(rd_index(r, md->count[C3S_TGRP], 1, &f->group, "texture vertex frame group"));
    OSSA_TRY(rd_count(r, &f->count, OSSA_MAX_VERTICES, 8, "texture vertex frame UV count"));
    uint32_t expect = f->group ? md->tgroups[f->group - 1].count : f->count;
    if (f->count != expect)
        return ossa_fail(r->b, OSSA_ERR_FORMAT, (int64_t)at,
                         "texture vertex frame has %u UVs, its group %u has %u texture vertices",
                         f->count, f->group, expect);
    if (f->count)
        OSSA_TRY(ossa_build_array(r->b, &f->data, f->count, 2 * sizeof(float)));
    return ossa_rd_f32v(r, f->data, 2 * (size_t)f->count, "texture vertex UV");
}

static ossa_status parse_mount(parse_ctx *p)
{
    ossa_reader *r = &p->r;
    c3s_mount *mt = &p->md->mounts[p->index];
    OSSA_TRY(ossa_c3s_rd_ocs(r, &mt->base, "mount base OCS"));
    OSSA_TRY(rd_index(r, p->md->count[C3S_TRIF], 1, &mt->face, "mount triface"));
    return ossa_rd_f32v(r, mt->bary, 3, "mount barycentric coordinates");
}

/* ---- SMDL ---- */

/* Walks the subchunks of [at, end): counts them by kind (fill == false) or records where each
 * one's fields start (fill == true). */
static ossa_status walk_subchunks(c3s_scene *sc, c3s_smdl *md, size_t at, size_t end, bool fill)
{
    ossa_reader r;
    ossa_reader_init(&r, sc->b, sc->data, end);
    r.pos = at;
    uint32_t seen[C3S_KIND_COUNT] = {0};
    while (r.pos < end) {
        uint8_t id[4];
        size_t data_at, data_end;
        OSSA_TRY(rd_chunk(&r, end, id, &data_at, &data_end, "subchunk"));
        int kind = kind_of(id);
        if (kind < 0)
            continue; /* an extension this reader does not know */
        if (!fill) {
            if (md->count[kind] >= kind_caps[kind])
                return ossa_fail(sc->b, OSSA_ERR_RANGE, (int64_t)data_at - 8,
                                 "model '%s' has more than %u %s subchunks", md->name,
                                 kind_caps[kind], kind_ids[kind]);
            md->count[kind]++;
            continue;
        }
        c3s_sub *s = &md->subs[kind][seen[kind]++];
        ossa_reader sr;
        ossa_reader_init(&sr, sc->b, sc->data, data_end);
        sr.pos = data_at;
        OSSA_TRY(ossa_c3s_rd_compdword(&sr, &s->version, "subchunk version"));
        OSSA_TRY(rd_stringz(&sr, kind_named[kind] ? &s->name : NULL, "subchunk name"));
        OSSA_TRY(ossa_c3s_rd_compdword(&sr, &s->flags, "subchunk flags"));
        if (s->version != 1 && seen[kind] == 1)
            ossa_warn(sc->b, "model '%s': %s version %u read as version 1", md->name,
                      kind_ids[kind], s->version);
        if (!s->name)
            s->name = "";
        s->at = sr.pos;
        s->end = data_end;
    }
    return OSSA_OK;
}

typedef ossa_status (*parse_fn)(parse_ctx *p);

static ossa_status parse_vgroup(parse_ctx *p)
{
    return parse_group(p, C3S_VRTX, &p->md->vgroups[p->index], "vertex group member");
}

static ossa_status parse_tgroup(parse_ctx *p)
{
    return parse_group(p, C3S_TVRT, &p->md->tgroups[p->index], "texture vertex group member");
}

static ossa_status parse_texvert(parse_ctx *p)
{
    p->md->texvert_active[p->index] =
        !(p->md->subs[C3S_TVRT][p->index].flags & C3S_TVF_DISABLED);
    return OSSA_OK;
}

static ossa_status parse_smdl(c3s_scene *sc, c3s_smdl *md, size_t at, size_t end)
{
    ossa_build *b = sc->b;
    ossa_reader r;
    ossa_reader_init(&r, b, sc->data, end);
    r.pos = at;
    md->at = at;
    OSSA_TRY(ossa_rd_u32(&r, &md->version, "model version"));
    if (md->version >> 16 != 1)
        return ossa_fail(b, OSSA_ERR_VERSION, (int64_t)at,
                         "model version %u.%u is not 1.x", md->version >> 16,
                         md->version & 0xFFFFu);
    size_t name_at = r.pos;
    OSSA_TRY(rd_stringz(&r, &md->name, "model name"));
    if ((r.pos - name_at) & 1u)
        OSSA_TRY(ossa_rd_skip(&r, 1, "model name pad byte"));

    OSSA_TRY(walk_subchunks(sc, md, r.pos, end, false));
    for (int k = 0; k < C3S_KIND_COUNT; k++)
        if (md->count[k])
            OSSA_TRY(ossa_build_array(b, &md->subs[k], md->count[k], sizeof(c3s_sub)));
    OSSA_TRY(walk_subchunks(sc, md, r.pos, end, true));

#define ALLOC(field, kind) \
    if (md->count[kind])   \
        OSSA_TRY(ossa_build_array(b, &md->field, md->count[kind], sizeof *md->field))
    ALLOC(textures, C3S_TXTR);
    ALLOC(materials, C3S_MATR);
    ALLOC(vertices, C3S_VRTX);
    ALLOC(vgroups, C3S_VGRP);
    ALLOC(vframes, C3S_VFRM);
    ALLOC(edges, C3S_EDGE);
    ALLOC(faces, C3S_TRIF);
    ALLOC(texvert_active, C3S_TVRT);
    ALLOC(tgroups, C3S_TGRP);
    ALLOC(tframes, C3S_TFRM);
    ALLOC(bones, C3S_BONE);
    ALLOC(sequences, C3S_ASEQ);
    ALLOC(mounts, C3S_SMNT);
#undef ALLOC

    /* Groups before frames (a frame's size is its group's), everything else in any order. */
    static const struct { c3s_kind kind; parse_fn fn; } order[] = {
        {C3S_TXTR, parse_texture}, {C3S_WAVE, parse_wave}, {C3S_MATR, parse_material},
        {C3S_VGRP, parse_vgroup}, {C3S_VFRM, parse_vertex_frame}, {C3S_EDGE, parse_edge},
        {C3S_TRIF, parse_face}, {C3S_TVRT, parse_texvert}, {C3S_TGRP, parse_tgroup},
        {C3S_TFRM, parse_tex_frame}, {C3S_BONE, ossa_c3s_parse_bone},
        {C3S_ASEQ, ossa_c3s_parse_sequence}, {C3S_SMNT, parse_mount}};
    parse_ctx p = {sc, md, {0}, 0};
    for (size_t o = 0; o < sizeof order / sizeof order[0]; o++) {
        c3s_kind kind = order[o].kind;
        for (uint32_t i = 0; i < md->count[kind]; i++) {
            ossa_reader_init(&p.r, b, sc->data, md->subs[kind][i].end);
            p.r.pos = md->subs[kind][i].at;
            p.index = i;
            /* The message names the subchunk: "model 'x' VRTX 3: ...". */
            OSSA_TRY(ossa_fail_context(b, order[o].fn(&p), "model '%.60s' %s %u", md->name,
                                       kind_ids[kind], i + 1));
        }
    }
    size_t *weights_at = NULL;
    if (md->count[C3S_VRTX])
        OSSA_TRY(ossa_build_array(b, &weights_at, md->count[C3S_VRTX], sizeof *weights_at));
    for (uint32_t i = 0; i < md->count[C3S_VRTX]; i++) {
        ossa_reader_init(&p.r, b, sc->data, md->subs[C3S_VRTX][i].end);
        p.r.pos = md->subs[C3S_VRTX][i].at;
        p.index = i;
        OSSA_TRY(ossa_fail_context(b, parse_vertex(&p, &weights_at[i]), "model '%.60s' %s %u",
                                   md->name, kind_ids[C3S_VRTX], i + 1));
    }
    return load_weights(sc, md, weights_at);
}

/* ---- RIFF ---- */

static ossa_status read_header(c3s_scene *sc, size_t at, size_t end)
{
    ossa_reader r;
    ossa_reader_init(&r, sc->b, sc->data, end);
    r.pos = at;
    uint32_t version;
    OSSA_TRY(ossa_rd_u32(&r, &version, "scene version"));
    if (version >> 16 != 1)
        return ossa_fail(sc->b, OSSA_ERR_VERSION, (int64_t)at, "scene version %u.%u is not 1.x",
                         version >> 16, version & 0xFFFFu);
    sc->b->last_version = version;
    OSSA_TRY(rd_stringz(&r, NULL, "scene name"));
    OSSA_TRY(rd_stringz(&r, NULL, "scene author"));
    return rd_stringz(&r, NULL, "scene description");
}

ossa_status ossa_read_c3s(ossa_build *b, const uint8_t *data, size_t size)
{
    if (b->model->mesh_count || b->model->bone_count || b->model->clip_count)
        return ossa_fail(b, OSSA_ERR_MISMATCH, 0,
                         "a C3S scene is a whole model and cannot join other files");
    ossa_reader r;
    ossa_reader_init(&r, b, data, size);
    uint8_t magic[4];
    uint32_t riff_size;
    OSSA_TRY(ossa_rd_bytes(&r, magic, 4, "RIFF marker"));
    if (memcmp(magic, "RIFF", 4) != 0)
        return ossa_fail(b, OSSA_ERR_FORMAT, 0, "not a RIFF file");
    OSSA_TRY(ossa_rd_u32(&r, &riff_size, "RIFF length"));
    OSSA_TRY(ossa_rd_bytes(&r, magic, 4, "RIFF type"));
    if (memcmp(magic, "C3SB", 4) != 0)
        return ossa_fail(b, OSSA_ERR_FORMAT, 8, "RIFF type is not \"C3SB\"");
    if (riff_size < 4 || riff_size > size - 8)
        return ossa_fail(b, riff_size < 4 ? OSSA_ERR_FORMAT : OSSA_ERR_TRUNCATED, 4,
                         "RIFF length %u does not fit the file's %zu bytes", riff_size, size);
    size_t end = 8 + (size_t)riff_size;
    if (end < size)
        ossa_warn(b, "%zu bytes after the RIFF data ignored", size - end);

    c3s_scene sc = {b, data, size, 0, NULL};
    /* First pass: the header and how many models. */
    size_t header_at = 0, header_end = 0;
    while (r.pos < end) {
        uint8_t id[4];
        size_t at, cend;
        OSSA_TRY(rd_chunk(&r, end, id, &at, &cend, "chunk"));
        if (memcmp(id, "SHDR", 4) == 0) {
            if (header_at)
                return ossa_fail(b, OSSA_ERR_FORMAT, (int64_t)at - 8, "a second SHDR chunk");
            header_at = at;
            header_end = cend;
        } else if (memcmp(id, "SMDL", 4) == 0) {
            if (sc.model_count >= OSSA_MAX_SUBMESHES)
                return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)at - 8, "more than %u models",
                                 OSSA_MAX_SUBMESHES);
            sc.model_count++;
        }
    }
    if (!header_at)
        return ossa_fail(b, OSSA_ERR_FORMAT, 12, "no SHDR scene header chunk");
    OSSA_TRY(read_header(&sc, header_at, header_end));
    if (sc.model_count)
        OSSA_TRY(ossa_build_array(b, &sc.models, sc.model_count, sizeof *sc.models));
    r.pos = 12;
    uint32_t model = 0;
    while (r.pos < end) {
        uint8_t id[4];
        size_t at, cend;
        OSSA_TRY(rd_chunk(&r, end, id, &at, &cend, "chunk"));
        if (memcmp(id, "SMDL", 4) == 0)
            OSSA_TRY(parse_smdl(&sc, &sc.models[model++], at, cend));
    }
    return ossa_c3s_build_model(&sc);
}
