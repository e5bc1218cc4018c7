/* Cal3D writer: a model as a Cal3D set (skeleton, one mesh file per mesh, one animation per clip,
 * one morph animation per morph clip, one material per material) plus a .cfg listing them, in the
 * binary forms (docs/FORMATS.md, Cal3D binary layouts) or the XML ones (Cal3D XML layouts, in
 * cal3d_write_xml.c). Binary files use plain (uncompressed) tracks in any layout that allows them:
 * classic, IMVU 911/912/919, 1200, and 1300/1301 of either lineage (upstream, or the mp3butcher
 * fork without node lights and vertex colours).
 *
 * Files are named after what they hold (mesh, clip, material names), because the readers name
 * meshes, clips and materials after their files; the skeleton and the .cfg take the base name.
 * Bones are written in model order (already parents-first), so file bone ids are model indices
 * and a read-back model has the same bone order. Data a layout cannot hold is refused with
 * OSSA_ERR_UNSUPPORTED rather than dropped. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/build_context.h"
#include "core/checked.h"
#include "formats/cal3d/cal3d_write_common.h"
#include "io/out_file.h"
#include "ossa/write.h"

#define CW_DEFAULT_BINARY 1100u
#define CW_DEFAULT_XML 1000u
#define CW_DEFAULT_MP3BUTCHER 1301u /* the fork's LIBRARY_VERSION */
#define CW_DEFAULT_EXTRAS 1300u     /* the lowest upstream version with colours and morphs */
#define CW_PATH_MAX 4096
#define CW_NAME_MAX 100

/* ---- buffer ---- */

static void put_i32(ossa_wbuf *b, int32_t v)
{
    ossa_wbuf_u32(b, (uint32_t)v);
}

/* docs/FORMATS.md, Cal3D strings: length including the NUL, then the bytes and the NUL. */
static void put_string(ossa_wbuf *b, const char *s)
{
    size_t n = strlen(s);
    ossa_wbuf_u32(b, (uint32_t)(n + 1));
    ossa_wbuf_put(b, s, n + 1);
}

static void put_cal3d_quat(ossa_wbuf *b, const float q[4])
{
    float c[4];
    ossa_cw_cal3d_quat(q, c);
    ossa_wbuf_f32v(b, c, 4);
}

/* ---- binary forms ---- */

static void put_magic(ossa_wbuf *b, const char *magic, const ossa_cw_layout *l)
{
    ossa_wbuf_put(b, magic, 4); /* three letters and the NUL */
    ossa_wbuf_u32(b, l->version);
}

static void bin_skeleton(ossa_wbuf *b, const ossa_model *m, const ossa_cw_layout *l, uint32_t *ids)
{
    put_magic(b, "CSF", l);
    ossa_wbuf_u32(b, m->bone_count);
    if (l->lights)
        ossa_wbuf_f32v(b, m->scene_ambient, 3);
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const ossa_bone *bone = &m->bones[i];
        put_string(b, bone->name);
        ossa_wbuf_f32v(b, bone->rest_t, 3);
        put_cal3d_quat(b, bone->rest_r);
        ossa_wbuf_f32v(b, bone->inv_bind_t, 3);
        put_cal3d_quat(b, bone->inv_bind_r);
        put_i32(b, bone->parent);
        if (l->lights) {
            put_i32(b, bone->light_type);
            ossa_wbuf_f32v(b, bone->light_color, 3);
        }
        uint32_t n = ossa_cw_children(m, i, ids);
        ossa_wbuf_u32(b, n);
        for (uint32_t c = 0; c < n; c++)
            ossa_wbuf_u32(b, ids[c]);
    }
}

/* Absolute blend vertices with ascending ids: ended by vertex_count + 1 as Cal3D's saver does,
 * or, for the mp3butcher fork, preceded by their count (docs/FORMATS.md D1b; an empty target
 * gets the first id vertex_count, which the fork's loop never reaches). */
static void bin_morph(ossa_wbuf *b, const ossa_submesh *sm, const ossa_morph_target *mt,
                      const ossa_cw_layout *l)
{
    put_string(b, mt->name);
    if (l->counted_morphs) {
        ossa_wbuf_u32(b, mt->count);
        if (mt->count == 0)
            ossa_wbuf_u32(b, sm->vertex_count);
    }
    for (uint32_t k = 0; k < mt->count; k++) {
        size_t v = mt->vertex[k];
        ossa_wbuf_u32(b, (uint32_t)v);
        for (int c = 0; c < 3; c++)
            ossa_wbuf_f32(b, sm->positions[3 * v + c] + mt->d_position[3 * k + c]);
        for (int c = 0; c < 3; c++)
            ossa_wbuf_f32(b, sm->normals[3 * v + c] + mt->d_normal[3 * k + c]);
        for (uint32_t s = 0; s < sm->uv_set_count; s++)
            for (int c = 0; c < 2; c++) {
                float base = sm->uvs[2 * ((size_t)sm->uv_set_count * v + s) + c];
                float d = mt->d_uv ? mt->d_uv[2 * ((size_t)sm->uv_set_count * k + s) + c] : 0.0f;
                ossa_wbuf_f32(b, base + d);
            }
    }
    if (!l->counted_morphs)
        ossa_wbuf_u32(b, sm->vertex_count + 1);
}

static void bin_submesh(ossa_wbuf *b, const ossa_submesh *sm, const ossa_cw_layout *l)
{
    put_i32(b, sm->material);
    ossa_wbuf_u32(b, sm->vertex_count);
    ossa_wbuf_u32(b, sm->face_count);
    ossa_wbuf_u32(b, sm->lod_count);
    ossa_wbuf_u32(b, sm->spring_count);
    ossa_wbuf_u32(b, sm->uv_set_count);
    if (l->extras)
        ossa_wbuf_u32(b, sm->morph_count);
    for (uint32_t v = 0; v < sm->vertex_count; v++) {
        ossa_wbuf_f32v(b, sm->positions + 3 * (size_t)v, 3);
        ossa_wbuf_f32v(b, sm->normals + 3 * (size_t)v, 3);
        if (l->colors)
            ossa_wbuf_f32v(b, ossa_cw_color(sm, v), 3);
        put_i32(b, sm->collapse_id ? sm->collapse_id[v] : -1);
        ossa_wbuf_u32(b, sm->face_collapse_count ? sm->face_collapse_count[v] : 0);
        if (sm->uv_set_count)
            ossa_wbuf_f32v(b, sm->uvs + 2 * (size_t)sm->uv_set_count * v, 2 * (size_t)sm->uv_set_count);
        uint32_t first = sm->influence_start[v], end = sm->influence_start[v + 1];
        ossa_wbuf_u32(b, end - first);
        for (uint32_t k = first; k < end; k++) {
            ossa_wbuf_u32(b, sm->influences[k].bone);
            ossa_wbuf_f32(b, sm->influences[k].weight);
        }
        if (sm->spring_count)
            ossa_wbuf_f32(b, sm->physique_weights ? sm->physique_weights[v] : 0.0f);
    }
    for (uint32_t s = 0; s < sm->spring_count; s++) {
        const ossa_spring *sp = &sm->springs[s];
        ossa_wbuf_u32(b, sp->vertex[0]);
        ossa_wbuf_u32(b, sp->vertex[1]);
        ossa_wbuf_f32(b, sp->coefficient);
        ossa_wbuf_f32(b, sp->idle_length);
    }
    if (l->extras)
        for (uint32_t t = 0; t < sm->morph_count; t++)
            bin_morph(b, sm, &sm->morphs[t], l);
    for (size_t f = 0; f < 3 * (size_t)sm->face_count; f++)
        ossa_wbuf_u32(b, sm->indices[f]);
}

static void bin_mesh(ossa_wbuf *b, const ossa_mesh *mesh, const ossa_cw_layout *l)
{
    put_magic(b, "CMF", l);
    ossa_wbuf_u32(b, mesh->submesh_count);
    for (uint32_t s = 0; s < mesh->submesh_count; s++)
        bin_submesh(b, &mesh->submeshes[s], l);
}

static void bin_clip(ossa_wbuf *b, const ossa_clip *clip, const ossa_cw_layout *l)
{
    put_magic(b, "CAF", l);
    if (l->caf_flag_word)
        ossa_wbuf_u32(b, 0); /* not compressed */
    ossa_wbuf_f32(b, clip->duration);
    ossa_wbuf_u32(b, clip->track_count);
    if (l->caf_flags)
        ossa_wbuf_u32(b, 0); /* plain keyframes */
    for (uint32_t t = 0; t < clip->track_count; t++) {
        const ossa_track *tr = &clip->tracks[t];
        ossa_wbuf_u32(b, tr->bone);
        ossa_wbuf_u32(b, tr->key_count);
        for (uint32_t k = 0; k < tr->key_count; k++) {
            ossa_wbuf_f32(b, tr->times[k]);
            ossa_wbuf_f32v(b, tr->translations + 3 * (size_t)k, 3);
            put_cal3d_quat(b, tr->rotations + 4 * (size_t)k);
        }
    }
}

static void bin_morph_clip(ossa_wbuf *b, const ossa_morph_clip *clip, const ossa_cw_layout *l)
{
    put_magic(b, "CPF", l);
    ossa_wbuf_f32(b, clip->duration);
    uint32_t keyed = 0; /* tracks without keys are left out (cal3d_write_check.c) */
    for (uint32_t t = 0; t < clip->track_count; t++)
        keyed += clip->tracks[t].key_count != 0;
    ossa_wbuf_u32(b, keyed);
    for (uint32_t t = 0; t < clip->track_count; t++) {
        const ossa_morph_track *tr = &clip->tracks[t];
        if (!tr->key_count)
            continue;
        put_string(b, tr->morph_name);
        ossa_wbuf_u32(b, tr->key_count);
        for (uint32_t k = 0; k < tr->key_count; k++) {
            ossa_wbuf_f32(b, tr->times[k]);
            ossa_wbuf_f32(b, tr->weights[k]);
        }
    }
}

/* Colours are stored as bytes 0..255 (the readers divide by 255). */
static void put_color_bytes(ossa_wbuf *b, const float c[4])
{
    uint8_t rgba[4];
    for (int k = 0; k < 4; k++) {
        float v = c[k] < 0.0f ? 0.0f : c[k] > 1.0f ? 1.0f : c[k];
        rgba[k] = (uint8_t)lrintf(v * 255.0f);
    }
    ossa_wbuf_put(b, rgba, 4);
}

static void bin_material(ossa_wbuf *b, const ossa_material *mat, const ossa_cw_layout *l)
{
    put_magic(b, "CRF", l);
    put_color_bytes(b, mat->ambient);
    put_color_bytes(b, mat->diffuse);
    put_color_bytes(b, mat->specular);
    ossa_wbuf_f32(b, mat->shininess);
    ossa_wbuf_u32(b, mat->property_count + mat->map_count);
    for (uint32_t i = 0; i < mat->property_count; i++) { /* "Key:value", one string */
        const ossa_material_property *p = &mat->properties[i];
        size_t k = strlen(p->key), v = strlen(p->value);
        ossa_wbuf_u32(b, (uint32_t)(k + v + 2));
        ossa_wbuf_put(b, p->key, k);
        ossa_wbuf_put(b, ":", 1);
        ossa_wbuf_put(b, p->value, v + 1);
        if (l->extras)
            put_string(b, "");
    }
    for (uint32_t i = 0; i < mat->map_count; i++) {
        put_string(b, mat->maps[i].file);
        if (l->extras)
            put_string(b, ossa_cw_map_type(&mat->maps[i]));
    }
}

/* ---- the writer's state ---- */

typedef struct cw_file {
    char *path;      /* full path */
    const char *key; /* cfg key: skeleton, mesh, animation, morphanimation, material */
} cw_file;

typedef struct cw_writer {
    const ossa_model *m;
    ossa_error *err;
    const char *dir;
    const char *base;
    bool xml;
    ossa_cw_layout layout;
    cw_file *files;      /* planned files, in cfg order */
    size_t file_count;
    ossa_out_set out;    /* every file, renamed into place only when all are complete */
} cw_writer;

/* Fills the caller's error (the first failure wins) and returns s. */
static ossa_status OSSA_PRINTF(4, 5) cw_fail(cw_writer *w, ossa_status s, const char *file,
                                             const char *fmt, ...)
{
    ossa_error *err = w->err;
    if (!err || err->status != OSSA_OK)
        return s;
    err->status = s;
    err->offset = -1;
    err->line = 0;
    /* Model-level refusals name the set being written. */
    if (file)
        snprintf(err->file, sizeof err->file, "%s", file);
    else
        snprintf(err->file, sizeof err->file, "%s%s%s.cfg", w->dir,
                 w->dir[0] && w->dir[strlen(w->dir) - 1] != '/' ? "/" : "", w->base);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return s;
}

/* ---- file names ---- */

/* A file name from an object's name: letters, digits, '-', '_' and '.' kept, anything else
 * '_'; empty or hidden names get a fallback; a name already taken (letter case ignored, as on
 * the file systems Cal3D sets come from) gets a numeric suffix. */
static ossa_status plan_file(cw_writer *w, const char *key, const char *name,
                             const char *fallback, uint32_t index, const char *ext)
{
    char stem[CW_NAME_MAX + 16];
    size_t n = 0;
    for (const char *s = name ? name : ""; *s && n < CW_NAME_MAX; s++) {
        unsigned char c = (unsigned char)*s;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '-' || c == '_' || (c == '.' && n > 0);
        stem[n++] = ok ? (char)c : '_';
    }
    stem[n] = '\0';
    if (n == 0)
        snprintf(stem, sizeof stem, "%s%u", fallback, index);

    char path[CW_PATH_MAX];
    const char *sep = w->dir[0] && w->dir[strlen(w->dir) - 1] != '/' ? "/" : "";
    for (uint32_t attempt = 0;; attempt++) {
        int len = attempt == 0 ? snprintf(path, sizeof path, "%s%s%s.%s", w->dir, sep, stem, ext)
                               : snprintf(path, sizeof path, "%s%s%s_%u.%s", w->dir, sep, stem,
                                          attempt + 1, ext);
        if (len < 0 || (size_t)len >= sizeof path)
            return cw_fail(w, OSSA_ERR_INVALID_ARGUMENT, NULL, "path too long in folder '%.200s'",
                           w->dir);
        bool taken = false;
        for (size_t f = 0; f < w->file_count && !taken; f++)
            taken = strcasecmp(w->files[f].path, path) == 0;
        if (!taken)
            break;
    }
    char *copy = strdup(path);
    if (!copy)
        return cw_fail(w, OSSA_ERR_NOMEM, NULL, "out of memory");
    w->files[w->file_count].path = copy;
    w->files[w->file_count].key = key;
    w->file_count++;
    return OSSA_OK;
}

/* ---- output ---- */

static const char *file_name_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static ossa_status write_file(cw_writer *w, const char *path, const ossa_wbuf *b)
{
    if (b->failed)
        return cw_fail(w, OSSA_ERR_NOMEM, path, "out of memory while serialising");
    return ossa_out_add(&w->out, path, b->data, b->size, NULL, 0);
}

/* The .cfg: one key=file line per file, relative to the .cfg's folder. Data is already scaled,
 * so no scale= line is written. */
static void put_cfg(ossa_wbuf *b, const cw_writer *w)
{
    ossa_cw_puts(b, "# Cal3D model set written by Ossa\n");
    for (size_t f = 0; f < w->file_count; f++) {
        if (strcmp(w->files[f].key, "cfg") == 0)
            continue;
        ossa_cw_puts(b, w->files[f].key);
        ossa_cw_puts(b, "=");
        ossa_cw_puts(b, file_name_of(w->files[f].path));
        ossa_cw_puts(b, "\n");
    }
}

uint32_t ossa_cal3d_default_version(const ossa_model *m, const ossa_cal3d_write_options *opt)
{
    if (opt && opt->version)
        return opt->version;
    if (opt && opt->mp3butcher)
        return CW_DEFAULT_MP3BUTCHER;
    if (opt && opt->xml)
        return CW_DEFAULT_XML;
    /* 1100 for libcal3d 0.11 and older tools; the lowest upstream version when the model holds
     * what 1100 cannot (node lights, vertex colours, morph targets, map types). */
    return !m || ossa_cw_fits_classic(m) ? CW_DEFAULT_BINARY : CW_DEFAULT_EXTRAS;
}

static ossa_status layout_for(cw_writer *w, uint32_t version, bool mp3butcher)
{
    ossa_cw_layout *l = &w->layout;
    if (version == 0) {
        ossa_cal3d_write_options o = {.xml = w->xml, .mp3butcher = mp3butcher};
        version = ossa_cal3d_default_version(w->m, &o);
    }
    if (version < 699 || version > 1301)
        return cw_fail(w, OSSA_ERR_VERSION, NULL,
                       "Cal3D version %u is not in the supported range 699..1301", version);
    /* The fork differs from upstream only in binary CSF and CMF files of its own versions. */
    if (mp3butcher && (w->xml || version < 1300))
        return cw_fail(w, OSSA_ERR_INVALID_ARGUMENT, NULL,
                       "the mp3butcher lineage has a layout of its own only for binary 1300 and "
                       "1301 files, not %s %u",
                       w->xml ? "XML" : "binary", version);
    if (!w->xml && version >= 913 && version <= 918)
        return cw_fail(w, OSSA_ERR_UNSUPPORTED, NULL,
                       "Cal3D %u animations are always bit-packed, which this writer does not "
                       "produce; use 912, 919 or another version",
                       version);
    /* 1300/1301 (both lineages): compression flag word after the CAF version and the flags
     * word after the track count (docs/FORMATS.md, CAF layout), morph targets, map types. */
    bool imvu = version >= 911 && version <= 919, v1300 = version >= 1300;
    l->version = version;
    l->extras = imvu || v1300;
    l->lights = l->colors = imvu || (v1300 && !mp3butcher);
    l->caf_flag_word = version == 919 || v1300;
    l->caf_flags = version >= 1200;
    l->counted_morphs = mp3butcher;
    return OSSA_OK;
}

static ossa_status serialise(cw_writer *w, size_t f, ossa_wbuf *b, uint32_t *ids, size_t *next_mesh,
                             size_t *next_clip, size_t *next_morph, size_t *next_mat)
{
    const ossa_model *m = w->m;
    const char *key = w->files[f].key;
    const ossa_cw_layout *l = &w->layout;
    bool ok = true;
    if (strcmp(key, "skeleton") == 0) {
        if (w->xml)
            ok = ossa_cw_xml_skeleton(b, m, l);
        else
            bin_skeleton(b, m, l, ids);
    } else if (strcmp(key, "mesh") == 0) {
        const ossa_mesh *mesh = &m->meshes[(*next_mesh)++];
        if (w->xml)
            ok = ossa_cw_xml_mesh(b, mesh, l);
        else
            bin_mesh(b, mesh, l);
    } else if (strcmp(key, "animation") == 0) {
        while (!ossa_cw_clip_written(&m->clips[*next_clip]))
            (*next_clip)++;
        const ossa_clip *clip = &m->clips[(*next_clip)++];
        if (w->xml)
            ok = ossa_cw_xml_clip(b, clip, l);
        else
            bin_clip(b, clip, l);
    } else if (strcmp(key, "morphanimation") == 0) {
        const ossa_morph_clip *clip = &m->morph_clips[(*next_morph)++];
        if (w->xml)
            ok = ossa_cw_xml_morph_clip(b, clip, l);
        else
            bin_morph_clip(b, clip, l);
    } else if (strcmp(key, "material") == 0) {
        const ossa_material *mat = &m->materials[(*next_mat)++];
        if (w->xml)
            ok = ossa_cw_xml_material(b, mat, l);
        else
            bin_material(b, mat, l);
    } else {
        put_cfg(b, w);
    }
    if (!ok)
        return cw_fail(w, OSSA_ERR_NOMEM, w->files[f].path, "cannot set up the C locale");
    return OSSA_OK;
}

static ossa_status plan_all(cw_writer *w, const char *base)
{
    const ossa_model *m = w->m;
    const bool xml = w->xml;
    if (m->bone_count)
        OSSA_TRY(plan_file(w, "skeleton", base, "skeleton", 0, xml ? "xsf" : "csf"));
    for (uint32_t i = 0; i < m->mesh_count; i++)
        OSSA_TRY(plan_file(w, "mesh", m->meshes[i].name, "mesh", i, xml ? "xmf" : "cmf"));
    for (uint32_t i = 0; i < m->clip_count; i++)
        if (ossa_cw_clip_written(&m->clips[i]))
            OSSA_TRY(plan_file(w, "animation", m->clips[i].name, "clip", i, xml ? "xaf" : "caf"));
    for (uint32_t i = 0; i < m->morph_clip_count; i++)
        OSSA_TRY(plan_file(w, "morphanimation", m->morph_clips[i].name, "morph", i,
                           xml ? "xpf" : "cpf"));
    for (uint32_t i = 0; i < m->material_count; i++)
        OSSA_TRY(plan_file(w, "material", m->materials[i].name, "material", i,
                           xml ? "xrf" : "crf"));
    return plan_file(w, "cfg", base, "model", 0, "cfg");
}

ossa_status ossa_write_cal3d(const ossa_model *m, const char *dir, const char *base,
                             const ossa_cal3d_write_options *opt, ossa_error *err)
{
    static const ossa_cal3d_write_options defaults = {0};
    if (!opt)
        opt = &defaults;
    const bool xml = opt->xml;
    ossa_error_clear(err);
    cw_writer w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.err = err;
    w.dir = dir ? dir : "";
    w.base = base && !strchr(base, '/') ? base : "";
    w.xml = xml;
    if (!m || !base || !base[0] || strchr(base, '/'))
        return cw_fail(&w, OSSA_ERR_INVALID_ARGUMENT, NULL,
                       "a model and a base name without '/' are required");
    ossa_error verr;
    ossa_error_clear(&verr); /* validation fills only a clear record */
    ossa_status valid = ossa_model_validate(m, &verr);
    if (valid != OSSA_OK)
        return cw_fail(&w, valid == OSSA_ERR_NOMEM ? OSSA_ERR_NOMEM : OSSA_ERR_INVALID_ARGUMENT,
                       NULL, "the model is not valid: %s", verr.message);
    /* A .cfg listing no file reads as no Cal3D set at all (nor a Qfusion one). */
    if (!m->bone_count && !m->mesh_count && !m->clip_count && !m->morph_clip_count &&
        !m->material_count)
        return cw_fail(&w, OSSA_ERR_UNSUPPORTED, NULL,
                       "the model holds no bone, mesh, clip or material: a Cal3D set lists at "
                       "least one file");
    OSSA_TRY(layout_for(&w, opt->version, opt->mp3butcher));
    char why[sizeof err->message];
    if (ossa_cw_check_representable(m, &w.layout, xml, why, sizeof why) != OSSA_OK ||
        (xml && ossa_cw_check_xml_text(m, why, sizeof why) != OSSA_OK))
        return cw_fail(&w, OSSA_ERR_UNSUPPORTED, NULL, "%s", why);

    /* Counts are validated, so this sum cannot overflow in practice; checked anyway. */
    size_t total = 2, ids_count = m->bone_count ? m->bone_count : 1;
    if (!ossa_add_size(total, m->mesh_count, &total) ||
        !ossa_add_size(total, m->clip_count, &total) ||
        !ossa_add_size(total, m->morph_clip_count, &total) ||
        !ossa_add_size(total, m->material_count, &total))
        return cw_fail(&w, OSSA_ERR_RANGE, NULL, "too many files");
    w.files = calloc(total, sizeof *w.files);
    uint32_t *ids = calloc(ids_count, sizeof *ids);
    ossa_wbuf b = {NULL, 0, 0, false};
    ossa_out_init(&w.out, &opt->guard, err);
    ossa_status st = w.files && ids ? OSSA_OK : cw_fail(&w, OSSA_ERR_NOMEM, NULL, "out of memory");
    if (st == OSSA_OK)
        st = plan_all(&w, base);
    /* every name is put to the guard before any file is serialised */
    for (size_t f = 0; f < w.file_count && st == OSSA_OK; f++)
        st = ossa_out_claim(&w.out, w.files[f].path);

    size_t next_mesh = 0, next_clip = 0, next_morph = 0, next_mat = 0;
    for (size_t f = 0; f < w.file_count && st == OSSA_OK; f++) {
        b.size = 0;
        st = serialise(&w, f, &b, ids, &next_mesh, &next_clip, &next_morph, &next_mat);
        if (st == OSSA_OK)
            st = write_file(&w, w.files[f].path, &b);
    }
    /* No partial sets: the files replace their targets only once all are written. */
    if (st == OSSA_OK)
        st = ossa_out_commit(&w.out);
    ossa_out_free(&w.out);
    for (size_t f = 0; f < w.file_count; f++)
        free(w.files[f].path);
    free(w.files);
    free(ids);
    free(b.data);
    return st;
}
