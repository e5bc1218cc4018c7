#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <strings.h>
#include <string.h>
#include "core/arena.h"
#include "ossa/model.h"

const char *ossa_format_name(ossa_format f)
{
    static const char *const names[OSSA_FORMAT_COUNT] = {
        "unknown", "CSF", "CAF", "CMF", "CRF", "CPF", "XSF", "XAF", "XMF", "XRF", "XPF",
        "Cal3D cfg", "SKM", "SKP", "C3S", "CFF", "demo"};
    return (unsigned)f < OSSA_FORMAT_COUNT ? names[f] : "unknown";
}

void ossa_model_free(ossa_model *model)
{
    if (model)
        ossa_arena_destroy(model->arena);
}

int32_t ossa_model_find_bone(const ossa_model *m, const char *name)
{
    for (uint32_t i = 0; i < m->bone_count; i++)
        if (strcmp(m->bones[i].name, name) == 0)
            return (int32_t)i;
    for (uint32_t i = 0; i < m->bone_count; i++)
        if (strcasecmp(m->bones[i].name, name) == 0)
            return (int32_t)i;
    return -1;
}

int32_t ossa_model_find_clip(const ossa_model *m, const char *name)
{
    for (uint32_t i = 0; i < m->clip_count; i++)
        if (strcmp(m->clips[i].name, name) == 0)
            return (int32_t)i;
    for (uint32_t i = 0; i < m->clip_count; i++)
        if (strcasecmp(m->clips[i].name, name) == 0)
            return (int32_t)i;
    return -1;
}

/* Validation: a separate pass over the finished model, so that no consumer has to re-check
 * indices. It reports the first problem found. */
static ossa_status invalid(ossa_error *err, const char *fmt, ...)
{
    if (err && err->status == OSSA_OK) {
        err->status = OSSA_ERR_VALUE;
        err->offset = -1;
        err->line = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return OSSA_ERR_VALUE;
}

/* Magnitudes beyond these are not data anyone authored, and products of them overflow to Inf in
 * the pose and skinning stages. */
#define MAX_COORD 1e15f  /* positions, translations, normals, uvs */
#define MAX_WEIGHT 1e6f  /* influence and morph weights */

static int all_bounded(const float *v, size_t n, float limit)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(v[i]) <= limit)) /* also false for NaN */
            return 0;
    return 1;
}

/* A rotation must be close enough to a unit quaternion to be one: Cal3D never renormalises, and
 * a component of 1e38 turns every matrix built from it into Inf. */
static int is_rotation(const float *q)
{
    double n = (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3];
    return n >= 0.25 && n <= 4.0;
}

static int all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

static ossa_status validate_submesh(const ossa_model *m, const ossa_mesh *mesh, uint32_t si,
                                    ossa_error *err)
{
    const ossa_submesh *s = &mesh->submeshes[si];
    const char *mn = mesh->name ? mesh->name : "";
    size_t nv = s->vertex_count;
    if (nv && (!s->positions || !s->normals || !s->influence_start))
        return invalid(err, "mesh '%s' submesh %u: vertex arrays missing", mn, si);
    if (s->face_count && !s->indices)
        return invalid(err, "mesh '%s' submesh %u: index array missing", mn, si);
    if (s->material < -1 || (m->material_count && s->material >= (int32_t)m->material_count))
        return invalid(err, "mesh '%s' submesh %u: material %d not in -1..%u", mn, si,
                       s->material, m->material_count ? m->material_count - 1 : 0);
    if (!all_bounded(s->positions, 3 * nv, MAX_COORD) || !all_bounded(s->normals, 3 * nv, MAX_COORD))
        return invalid(err, "mesh '%s' submesh %u: a position or normal is not finite or beyond "
                       "%g", mn, si, (double)MAX_COORD);
    if (s->uv_set_count && !s->uvs && nv)
        return invalid(err, "mesh '%s' submesh %u: texture coordinates missing", mn, si);
    for (size_t i = 0; i < 3 * (size_t)s->face_count; i++)
        if (s->indices[i] >= nv)
            return invalid(err, "mesh '%s' submesh %u: face %zu uses vertex %u of %zu", mn, si,
                           i / 3, s->indices[i], nv);
    uint32_t max_inf = 0;
    for (size_t v = 0; v < nv; v++) {
        uint32_t a = s->influence_start[v], e = s->influence_start[v + 1];
        if (e < a)
            return invalid(err, "mesh '%s' submesh %u: influence table not ascending", mn, si);
        if (e - a > max_inf)
            max_inf = e - a;
        for (uint32_t k = a; k < e; k++) {
            const ossa_influence *in = &s->influences[k];
            if (m->bone_count && in->bone >= m->bone_count)
                return invalid(err, "mesh '%s' submesh %u: vertex %zu uses bone %u of %u", mn, si,
                               v, in->bone, m->bone_count);
            if (!(fabsf(in->weight) <= MAX_WEIGHT))
                return invalid(err, "mesh '%s' submesh %u: vertex %zu has weight %g", mn, si, v,
                               (double)in->weight);
        }
    }
    if (max_inf != s->max_influences)
        return invalid(err, "mesh '%s' submesh %u: max_influences %u, data has %u", mn, si,
                       s->max_influences, max_inf);
    for (uint32_t k = 0; k < s->spring_count; k++)
        if (s->springs[k].vertex[0] >= nv || s->springs[k].vertex[1] >= nv)
            return invalid(err, "mesh '%s' submesh %u: spring %u uses a vertex out of range", mn,
                           si, k);
    for (uint32_t t = 0; t < s->morph_count; t++) {
        const ossa_morph_target *mt = &s->morphs[t];
        for (uint32_t k = 0; k < mt->count; k++) {
            if (mt->vertex[k] >= nv || (k && mt->vertex[k] <= mt->vertex[k - 1]))
                return invalid(err, "mesh '%s' submesh %u: morph '%s' vertex list is bad", mn, si,
                               mt->name ? mt->name : "");
        }
        if (!all_bounded(mt->d_position, 3 * (size_t)mt->count, MAX_COORD) ||
            !all_bounded(mt->d_normal, 3 * (size_t)mt->count, MAX_COORD))
            return invalid(err, "mesh '%s' submesh %u: morph '%s' has a non-finite value", mn, si,
                           mt->name ? mt->name : "");
    }
    return OSSA_OK;
}

static ossa_status validate_clip(const ossa_model *m, const ossa_clip *c, ossa_error *err)
{
    const char *cn = c->name ? c->name : "";
    if (!(c->duration > 0.0f) || !isfinite(c->duration))
        return invalid(err, "clip '%s': duration %g is not positive", cn, (double)c->duration);
    for (uint32_t t = 0; t < c->track_count; t++) {
        const ossa_track *tr = &c->tracks[t];
        if (m->bone_count && tr->bone >= m->bone_count)
            return invalid(err, "clip '%s': track %u animates bone %u, the skeleton has %u", cn, t,
                           tr->bone, m->bone_count);
        if (tr->key_count == 0)
            return invalid(err, "clip '%s': track %u has no keys", cn, t);
        for (uint32_t k = 0; k < tr->key_count; k++) {
            if (!isfinite(tr->times[k]) || (k && tr->times[k] < tr->times[k - 1]))
                return invalid(err, "clip '%s': track %u key times not ascending", cn, t);
        }
        if (!all_bounded(tr->translations, 3 * (size_t)tr->key_count, MAX_COORD) ||
            (tr->scales && !all_bounded(tr->scales, 3 * (size_t)tr->key_count, MAX_COORD)))
            return invalid(err, "clip '%s': track %u has a key value that is not finite or beyond "
                           "%g", cn, t, (double)MAX_COORD);
        for (uint32_t k = 0; k < tr->key_count; k++)
            if (!is_rotation(tr->rotations + 4 * k))
                return invalid(err, "clip '%s': track %u key %u rotation is not a unit quaternion",
                               cn, t, k);
    }
    return OSSA_OK;
}

ossa_status ossa_model_validate(const ossa_model *m, ossa_error *err)
{
    if (!m)
        return invalid(err, "no model");
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const ossa_bone *bn = &m->bones[i];
        if (!bn->name)
            return invalid(err, "bone %u has no name", i);
        if (bn->parent < -1 || bn->parent >= (int32_t)i)
            return invalid(err, "bone %u ('%s'): parent %d does not come before it", i, bn->name,
                           bn->parent);
        if (!all_bounded(bn->rest_t, 3, MAX_COORD) || !all_bounded(bn->rest_s, 3, MAX_COORD) ||
            !all_bounded(bn->inv_bind_t, 3, MAX_COORD))
            return invalid(err, "bone %u ('%s'): a rest value is not finite or beyond %g", i,
                           bn->name, (double)MAX_COORD);
        if (!is_rotation(bn->rest_r) || !is_rotation(bn->inv_bind_r))
            return invalid(err, "bone %u ('%s'): a rest rotation is not a unit quaternion", i,
                           bn->name);
        for (uint32_t c = 0; c < bn->child_count; c++)
            if (bn->children[c] >= m->bone_count)
                return invalid(err, "bone %u ('%s'): child out of range", i, bn->name);
    }
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
            ossa_status st = validate_submesh(m, &m->meshes[i], s, err);
            if (st)
                return st;
        }
    for (uint32_t i = 0; i < m->clip_count; i++) {
        ossa_status st = validate_clip(m, &m->clips[i], err);
        if (st)
            return st;
    }
    for (uint32_t i = 0; i < m->morph_clip_count; i++) {
        const ossa_morph_clip *c = &m->morph_clips[i];
        if (!(c->duration > 0.0f) || !isfinite(c->duration))
            return invalid(err, "morph clip '%s': duration is not positive", c->name);
        for (uint32_t t = 0; t < c->track_count; t++) {
            const ossa_morph_track *tr = &c->tracks[t];
            for (uint32_t k = 0; k < tr->key_count; k++)
                if (!isfinite(tr->times[k]) || !(fabsf(tr->weights[k]) <= MAX_WEIGHT) ||
                    (k && tr->times[k] < tr->times[k - 1]))
                    return invalid(err, "morph clip '%s': track %u keys are bad", c->name, t);
        }
    }
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ossa_material *mt = &m->materials[i];
        if (!all_finite(mt->ambient, 4) || !all_finite(mt->diffuse, 4) ||
            !all_finite(mt->specular, 4) || !isfinite(mt->shininess))
            return invalid(err, "material %u has a non-finite value", i);
    }
    return OSSA_OK;
}
