/* Qfusion SKM/SKP type 2 ("hierarchical skeletal pose"): docs/FORMATS.md, SKM/SKP and D10.
 *
 * The .skm holds meshes whose vertices store, per influence, a bone-space origin already
 * multiplied by its influence ("pre-weighted") and a bone-space normal. Posing them with frame 0
 * gives the bind vertex, p = sum(R0 o + w T0), and n = normalise(sum(R0 normal)). Each influence
 * on its own also implies a position, R0 (o / w) + T0; the largest distance between those and p
 * is the model's bind_disagreement (about 0 for a consistently made file): it is how far
 * skinning that one bind vertex would drift from what Qfusion draws. Each influence also keeps its
 * own term R0 o + w T0 (ossa_submesh.influence_points), so skinning evaluates Qfusion's
 * sum(R o + w T) exactly.
 *
 * Coordinates and texture coordinates are kept as stored (Qfusion models are Z up; no axes are
 * changed). One .skm becomes one ossa_mesh per run of records with the same mesh name (each
 * record one submesh); a "_lodN" suffix of the file or mesh name sets ossa_mesh.lod. Shader
 * names become materials, each with one texture map: the shader's last path part beside the
 * model. An .skm read with no .skp before it (ossa_load_memory) gets a stand-in
 * skeleton of unposed roots, with a warning, so that the mesh can still be inspected; load.c
 * finds the .skp for files. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/checked.h"
#include "ossa/limits.h"
#include "core/quat.h"
#include "core/reader.h"
#include "formats/formats.h"
#include "formats/skm/skm_format.h"
#include "formats/skm/skm_read.h"
#include "io/texture_path.h"

/* Model coordinates beyond this are rejected here, with the vertex's offset, before the
 * validation pass would reject them without one. */
#define SKM_MAX_COORD 1e15

typedef struct skm_record {
    char shader[SKM_NAME_BYTES + 1], name[SKM_NAME_BYTES + 1];
    uint32_t verts, tris, refs, ofs_verts, ofs_texcoords, ofs_indices, ofs_refs;
    size_t at;               /* offset of the record */
} skm_record;

typedef struct skm_pose0 {
    uint32_t bones;
    float t[SKM_MAX_BONES][3];
    float r[SKM_MAX_BONES][4];
    double disagreement;
} skm_pose0;

static ossa_status read_record(ossa_reader *r, skm_record *rec)
{
    rec->at = r->pos;
    OSSA_TRY(ossa_skm_read_name(r, rec->shader, "shader name"));
    OSSA_TRY(ossa_skm_read_name(r, rec->name, "mesh name"));
    OSSA_TRY(ossa_skm_read_count(r, &rec->verts, 1, SKM_MAX_VERTS, "vertex count"));
    OSSA_TRY(ossa_skm_read_count(r, &rec->tris, 1, SKM_MAX_TRIS, "triangle count"));
    OSSA_TRY(ossa_skm_read_count(r, &rec->refs, 1, SKM_MAX_REFERENCES, "bone reference count"));
    OSSA_TRY(ossa_rd_u32(r, &rec->ofs_verts, "vertex offset"));
    OSSA_TRY(ossa_rd_u32(r, &rec->ofs_texcoords, "texture coordinate offset"));
    OSSA_TRY(ossa_rd_u32(r, &rec->ofs_indices, "triangle offset"));
    return ossa_rd_u32(r, &rec->ofs_refs, "bone reference offset");
}

/* First pass over the variable-size vertices: the number of influences, so the CSR arrays are
 * allocated exactly. */
static ossa_status count_influences(ossa_reader scan, uint32_t verts, uint32_t *total)
{
    uint32_t sum = 0;
    for (uint32_t v = 0; v < verts; v++) {
        size_t at = scan.pos;
        uint32_t n = 0;
        ossa_status st = ossa_rd_u32(&scan, &n, "influence count");
        if (st == OSSA_OK && n == 0)
            st = ossa_fail(scan.b, OSSA_ERR_FORMAT, (int64_t)at, "vertex has no influences");
        if (st == OSSA_OK && n > OSSA_MAX_INFLUENCES)
            st = ossa_fail(scan.b, OSSA_ERR_RANGE, (int64_t)at,
                           "influence count %u exceeds the limit of %u", n, OSSA_MAX_INFLUENCES);
        if (st == OSSA_OK)
            st = ossa_rd_skip(&scan, (size_t)n * SKM_BONEVERT_BYTES, "influences");
        if (st != OSSA_OK)
            return ossa_fail_context(scan.b, st, "vertex %u", v);
        sum += n; /* at most SKM_MAX_VERTS * OSSA_MAX_INFLUENCES: no overflow */
    }
    *total = sum;
    return OSSA_OK;
}

/* One vertex: its influences, the bind position and normal they give in frame 0, and how far
 * each influence's own reading of the position lies from it. */
static ossa_status read_vertex(ossa_reader *r, skm_pose0 *p0, const bool *referenced,
                               ossa_submesh *sm, uint32_t v, uint32_t *next, uint32_t *unlisted)
{
    ossa_build *b = r->b;
    size_t vertex_at = r->pos;
    uint32_t n;
    OSSA_TRY(ossa_rd_u32(r, &n, "influence count")); /* checked by count_influences */
    ossa_influence *inf = (ossa_influence *)sm->influences + *next;
    float *points = (float *)sm->influence_points + 3 * (size_t)*next;
    float origin[OSSA_MAX_INFLUENCES][3];
    double pos[3] = {0, 0, 0}, nrm[3] = {0, 0, 0};
    for (uint32_t k = 0; k < n; k++) {
        float normal[3];
        OSSA_TRY(ossa_rd_f32v(r, origin[k], 3, "bone-space origin"));
        OSSA_TRY(ossa_rd_f32(r, &inf[k].weight, "influence"));
        OSSA_TRY(ossa_rd_f32v(r, normal, 3, "bone-space normal"));
        size_t at = r->pos;
        uint32_t bone;
        OSSA_TRY(ossa_rd_u32(r, &bone, "bone number"));
        if (bone >= p0->bones)
            return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)at,
                             "influence %u uses bone %u, the model has %u", k, bone, p0->bones);
        if (!referenced[bone])
            (*unlisted)++;
        OSSA_TRY(ossa_build_map_bone(b, bone, (int64_t)at, 0, &inf[k].bone));
        uint32_t j = inf[k].bone;
        double o[3] = {origin[k][0], origin[k][1], origin[k][2]}, ro[3];
        double nn[3] = {normal[0], normal[1], normal[2]}, rn[3];
        ossa_quat_rotate_d(p0->r[j], o, ro);
        ossa_quat_rotate_d(p0->r[j], nn, rn);
        for (int c = 0; c < 3; c++) {
            double term = ro[c] + (double)inf[k].weight * p0->t[j][c];
            if (!(fabs(term) <= SKM_MAX_COORD))
                return ossa_fail(b, OSSA_ERR_VALUE, (int64_t)vertex_at,
                                 "influence %u's bind term %g is beyond %g", k, term,
                                 SKM_MAX_COORD);
            points[3 * k + (uint32_t)c] = (float)term;
            pos[c] += term;
            nrm[c] += rn[c];
        }
    }
    for (int c = 0; c < 3; c++)
        if (!(fabs(pos[c]) <= SKM_MAX_COORD))
            return ossa_fail(b, OSSA_ERR_VALUE, (int64_t)vertex_at,
                             "bind position component %g is beyond %g", pos[c], SKM_MAX_COORD);
    double len = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    float *pv = (float *)sm->positions + 3 * (size_t)v, *nv = (float *)sm->normals + 3 * (size_t)v;
    for (int c = 0; c < 3; c++) {
        pv[c] = (float)pos[c];
        nv[c] = len > 0.0 && isfinite(len) ? (float)(nrm[c] / len) : 0.0f;
    }
    /* Influences whose weight is about 0 say nothing about the position. */
    for (uint32_t k = 0; k < n; k++) {
        double w = inf[k].weight;
        if (!(fabs(w) > 1e-6))
            continue;
        uint32_t j = inf[k].bone;
        double o[3] = {origin[k][0] / w, origin[k][1] / w, origin[k][2] / w}, q[3];
        ossa_quat_rotate_d(p0->r[j], o, q);
        double d2 = 0.0;
        for (int c = 0; c < 3; c++) {
            double d = q[c] + p0->t[j][c] - pos[c];
            d2 += d * d;
        }
        if (d2 > p0->disagreement * p0->disagreement)
            p0->disagreement = sqrt(d2);
    }
    *next += n;
    ((uint32_t *)sm->influence_start)[v + 1] = *next;
    if (n > sm->max_influences)
        sm->max_influences = n;
    return OSSA_OK;
}

/* The material of a shader name: one per distinct name across the model, -1 for no name. */
static ossa_status shader_material(ossa_build *b, const char *shader, int32_t *out)
{
    *out = -1;
    if (!shader[0])
        return OSSA_OK;
    ossa_model *m = b->model;
    for (uint32_t i = 0; i < m->material_count; i++)
        if (m->materials[i].format == OSSA_FORMAT_SKM && strcmp(m->materials[i].name, shader) == 0) {
            *out = (int32_t)i;
            return OSSA_OK;
        }
    ossa_material *mat = ossa_build_push_material(b);
    if (!mat)
        return OSSA_ERR_NOMEM;
    OSSA_TRY(ossa_build_strndup(b, &mat->name, shader, strlen(shader)));
    for (int k = 0; k < 4; k++)
        mat->ambient[k] = mat->diffuse[k] = 1.0f;
    mat->specular[3] = 1.0f;
    mat->format = OSSA_FORMAT_SKM;
    mat->version = SKM_MODELTYPE;
    /* Qfusion names a shader or texture by its path in the game's folders, without an
     * extension; beside the model is where a skin of its own lies, so the map looks there for
     * the path's last part (the viewer tries the usual image extensions). */
    ossa_texture_map *map;
    OSSA_TRY(ossa_build_array(b, &map, 1, sizeof *map));
    const char *last = shader;
    for (const char *p = shader; *p; p++)
        if (*p == '/' || *p == '\\')
            last = p + 1;
    OSSA_TRY(ossa_build_strndup(b, &map->file, shader, strlen(shader)));
    OSSA_TRY(ossa_texture_path(b, last, strlen(last), &map->path));
    map->type = "";
    mat->maps = map;
    mat->map_count = map->path ? 1 : 0; /* a link out of the model's folders: no map */
    *out = (int32_t)(m->material_count - 1);
    return OSSA_OK;
}

static ossa_status read_mesh_data(ossa_reader *r, const skm_record *rec, skm_pose0 *p0,
                                  ossa_submesh *sm, uint32_t *unlisted)
{
    ossa_build *b = r->b;
    bool referenced[SKM_MAX_BONES] = {false};
    OSSA_TRY(ossa_skm_seek_table(r, rec->ofs_refs, rec->refs, 4, "bone references", rec->at + 152));
    for (uint32_t k = 0; k < rec->refs; k++) {
        size_t at = r->pos;
        uint32_t bone;
        OSSA_TRY(ossa_rd_u32(r, &bone, "bone reference"));
        if (bone >= p0->bones)
            return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)at,
                             "bone reference %u names bone %u, the model has %u", k, bone,
                             p0->bones);
        referenced[bone] = true;
    }
    OSSA_TRY(ossa_skm_seek_table(r, rec->ofs_texcoords, rec->verts, 8, "texture coordinates",
                        rec->at + 144));
    OSSA_TRY(ossa_skm_seek_table(r, rec->ofs_indices, rec->tris, 12, "triangles", rec->at + 148));
    /* The smallest vertex is a count and one influence. */
    OSSA_TRY(ossa_skm_seek_table(r, rec->ofs_verts, rec->verts, 4 + SKM_BONEVERT_BYTES, "vertices",
                        rec->at + 140));
    uint32_t total = 0;
    OSSA_TRY(count_influences(*r, rec->verts, &total));

    size_t nv = rec->verts;
    float *pos, *nrm, *uv, *points;
    uint32_t *start, *indices;
    ossa_influence *inf;
    OSSA_TRY(ossa_build_array(b, &pos, 3 * nv, sizeof *pos));
    OSSA_TRY(ossa_build_array(b, &nrm, 3 * nv, sizeof *nrm));
    OSSA_TRY(ossa_build_array(b, &uv, 2 * nv, sizeof *uv));
    OSSA_TRY(ossa_build_array(b, &start, nv + 1, sizeof *start));
    OSSA_TRY(ossa_build_array(b, &inf, total, sizeof *inf));
    OSSA_TRY(ossa_build_array(b, &points, total, 3 * sizeof *points));
    OSSA_TRY(ossa_build_array(b, &indices, 3 * (size_t)rec->tris, sizeof *indices));
    sm->vertex_count = rec->verts;
    sm->face_count = rec->tris;
    sm->uv_set_count = 1;
    sm->positions = pos;
    sm->normals = nrm;
    sm->uvs = uv;
    sm->influence_start = start;
    sm->influences = inf;
    sm->influence_points = points;
    sm->indices = indices;

    uint32_t next = 0;
    for (uint32_t v = 0; v < rec->verts; v++)
        OSSA_TRY(ossa_fail_context(b, read_vertex(r, p0, referenced, sm, v, &next, unlisted),
                                   "vertex %u", v));
    r->pos = rec->ofs_texcoords;
    for (uint32_t v = 0; v < rec->verts; v++) {
        OSSA_TRY(ossa_rd_f32v(r, uv + 2 * (size_t)v, 2, "texture coordinate"));
        if (b->opt.invert_v)
            uv[2 * (size_t)v + 1] = 1.0f - uv[2 * (size_t)v + 1];
    }
    r->pos = rec->ofs_indices;
    for (size_t i = 0; i < 3 * (size_t)rec->tris; i++) {
        size_t at = r->pos;
        OSSA_TRY(ossa_rd_u32(r, &indices[i], "triangle index"));
        if (indices[i] >= rec->verts)
            return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)at,
                             "triangle %zu uses vertex %u, the mesh has %u", i / 3, indices[i],
                             rec->verts);
    }
    return OSSA_OK;
}

/* An .skm read without its pose file: unposed roots, so the mesh reads as stored. */
static ossa_status stand_in_skeleton(ossa_build *b, uint32_t n)
{
    ossa_bone *bones;
    OSSA_TRY(ossa_build_array(b, &bones, n, sizeof *bones));
    for (uint32_t j = 0; j < n; j++) {
        char name[32];
        int len = snprintf(name, sizeof name, "bone%u", j);
        OSSA_TRY(ossa_build_strndup(b, &bones[j].name, name, (size_t)len));
        bones[j].parent = -1;
        bones[j].source_index = j;
        bones[j].rest_r[3] = bones[j].inv_bind_r[3] = 1.0f;
        bones[j].rest_s[0] = bones[j].rest_s[1] = bones[j].rest_s[2] = 1.0f;
    }
    OSSA_TRY(ossa_build_set_skeleton(b, bones, n));
    b->model->skeleton_format = OSSA_FORMAT_SKM;
    b->model->skeleton_version = SKM_MODELTYPE;
    ossa_warn(b, "no pose file (.skp) was read: %u stand-in bones at the origin", n);
    return OSSA_OK;
}

ossa_status ossa_read_skm(ossa_build *b, const uint8_t *data, size_t size)
{
    ossa_reader r;
    ossa_reader_init(&r, b, data, size);
    OSSA_TRY(ossa_skm_read_file_header(&r, "SKM", SKM_HEADER_BYTES));
    uint32_t num_bones, num_meshes, ofs_meshes;
    OSSA_TRY(ossa_skm_read_count(&r, &num_bones, 1, SKM_MAX_BONES, "bone count"));
    OSSA_TRY(ossa_skm_read_count(&r, &num_meshes, 1, SKM_MAX_MESHES, "mesh count"));
    OSSA_TRY(ossa_rd_u32(&r, &ofs_meshes, "mesh table offset"));
    OSSA_TRY(ossa_skm_seek_table(&r, ofs_meshes, num_meshes, SKM_MESH_BYTES, "mesh records", 20));
    ossa_model *m = b->model;
    if (!m->bone_count)
        OSSA_TRY(stand_in_skeleton(b, num_bones));
    else if (m->bone_count != num_bones)
        return ossa_fail(b, OSSA_ERR_MISMATCH, 12, "the mesh has %u bones, its skeleton %u",
                         num_bones, m->bone_count);

    skm_pose0 *p0;
    OSSA_TRY(ossa_build_array(b, &p0, 1, sizeof *p0));
    p0->bones = num_bones;
    ossa_skm_bind_poses(m->bones, num_bones, p0->t, p0->r);

    /* LOD files share the base model's skeleton and frames (checked above: same bone count). */
    uint32_t file_lod = 0;
    size_t stem_len = strlen(b->stem);
    stem_len -= ossa_skm_lod_suffix(b->stem, stem_len, &file_lod);

    skm_record *recs;
    ossa_submesh *subs;
    OSSA_TRY(ossa_build_array(b, &recs, num_meshes, sizeof *recs));
    OSSA_TRY(ossa_build_array(b, &subs, num_meshes, sizeof *subs));
    for (uint32_t i = 0; i < num_meshes; i++) {
        r.pos = ofs_meshes + (size_t)i * SKM_MESH_BYTES;
        OSSA_TRY(ossa_fail_context(b, read_record(&r, &recs[i]), "mesh %u", i));
    }
    for (uint32_t i = 0; i < num_meshes; i++) {
        uint32_t unlisted = 0;
        OSSA_TRY(ossa_fail_context(b, read_mesh_data(&r, &recs[i], p0, &subs[i], &unlisted),
                                   "mesh %u ('%s')", i, recs[i].name));
        OSSA_TRY(shader_material(b, recs[i].shader, &subs[i].material));
        if (unlisted)
            ossa_warn(b, "mesh %u ('%s'): %u influences use bones its reference list does not "
                      "name (Qfusion leaves those unposed)", i, recs[i].name, unlisted);
    }

    /* Consecutive records of one mesh name are one mesh with a submesh each. */
    for (uint32_t i = 0; i < num_meshes;) {
        uint32_t lod = 0;
        size_t len = strlen(recs[i].name);
        len -= ossa_skm_lod_suffix(recs[i].name, len, &lod);
        uint32_t run = 1;
        while (i + run < num_meshes && strcmp(recs[i + run].name, recs[i].name) == 0)
            run++;
        ossa_mesh *mesh = ossa_build_push_mesh(b);
        if (!mesh)
            return OSSA_ERR_NOMEM;
        if (len)
            OSSA_TRY(ossa_build_strndup(b, &mesh->name, recs[i].name, len));
        else
            OSSA_TRY(ossa_build_strndup(b, &mesh->name, b->stem, stem_len));
        mesh->submesh_count = run;
        mesh->submeshes = subs + i;
        mesh->format = OSSA_FORMAT_SKM;
        mesh->version = SKM_MODELTYPE;
        mesh->lod = file_lod ? file_lod : lod;
        i += run;
    }
    float d = p0->disagreement < 3.0e38 ? (float)p0->disagreement : 3.0e38f;
    if (d > m->bind_disagreement)
        m->bind_disagreement = d;
    return OSSA_OK;
}
