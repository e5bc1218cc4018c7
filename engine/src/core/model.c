#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>
#include "core/arena.h"
#include "ossa/limits.h"
#include "core/validate.h"
#include "ossa/model.h"

const char *ossa_format_name(ossa_format f)
{
    static const char *const names[OSSA_FORMAT_COUNT] = {
        "unknown", "CSF", "CAF", "CMF", "CRF", "CPF", "XSF", "XAF", "XMF", "XRF", "XPF",
        "Cal3D cfg", "SKM", "SKP", "C3S", "CFF", "demo"};
    return (unsigned)f < OSSA_FORMAT_COUNT ? names[f] : "unknown";
}

const char *ossa_cal3d_lineage_name(ossa_cal3d_lineage lineage)
{
    static const char *const names[] = {"classic", "imvu", "1200", "upstream", "mp3butcher"};
    return (unsigned)lineage < sizeof names / sizeof names[0] ? names[lineage] : "unknown";
}

void ossa_model_destroy(ossa_model *model)
{
    if (model)
        ossa_arena_destroy(model->arena);
}

uint32_t ossa_model_find_bone(const ossa_model *m, const char *name)
{
    for (uint32_t i = 0; i < m->bone_count; i++)
        if (strcmp(m->bones[i].name, name) == 0)
            return i;
    for (uint32_t i = 0; i < m->bone_count; i++)
        if (strcasecmp(m->bones[i].name, name) == 0)
            return i;
    return OSSA_NOT_FOUND;
}

const ossa_texture_map *ossa_material_diffuse_map(const ossa_material *mat)
{
    for (uint32_t i = 0; mat && i < mat->map_count; i++) {
        const ossa_texture_map *map = &mat->maps[i];
        if (!map->path && !map->file)
            continue;
        if (!map->type || !map->type[0])
            return map;
        for (const char *p = map->type; *p; p++)
            if (!strncasecmp(p, "diffuse", 7))
                return map;
    }
    return NULL;
}

/* Length of the valid UTF-8 sequence at p (n bytes left), 0 when there is none. */
static size_t utf8_sequence(const unsigned char *p, size_t n)
{
    size_t len = p[0] < 0x80 ? 1 : (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3
                 : (p[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (!len || len > n)
        return 0;
    for (size_t j = 1; j < len; j++)
        if ((p[j] & 0xC0) != 0x80)
            return 0;
    if (len == 1)
        return 1;
    /* no overlong forms, surrogates or code points past U+10FFFF */
    uint32_t cp = p[0] & (0x7Fu >> len);
    for (size_t j = 1; j < len; j++)
        cp = cp << 6 | (p[j] & 0x3Fu);
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    return cp >= min[len] && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF) ? len : 0;
}

size_t ossa_name_utf8(const char *name, char *out, size_t capacity)
{
    const unsigned char *p = (const unsigned char *)(name ? name : "");
    size_t n = strlen((const char *)p), total = 0, written = 0;
    for (size_t i = 0; i < n;) {
        unsigned char latin[2] = {(unsigned char)(0xC0 | (p[i] >> 6)),
                                  (unsigned char)(0x80 | (p[i] & 0x3F))};
        size_t len = utf8_sequence(p + i, n - i);
        const unsigned char *from = len ? p + i : latin;
        size_t bytes = len ? len : 2;
        if (capacity && written == total && written + bytes < capacity) {
            memcpy(out + written, from, bytes);
            written += bytes;
        }
        total += bytes;
        i += len ? len : 1;
    }
    if (capacity)
        out[written] = 0;
    return total;
}

uint32_t ossa_model_find_clip(const ossa_model *m, const char *name)
{
    for (uint32_t i = 0; i < m->clip_count; i++)
        if (strcmp(m->clips[i].name, name) == 0)
            return i;
    for (uint32_t i = 0; i < m->clip_count; i++)
        if (strcasecmp(m->clips[i].name, name) == 0)
            return i;
    return OSSA_NOT_FOUND;
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
#define MAX_COORD OSSA_MAX_COORD /* positions, translations, normals, uvs (core/limits.h) */
#define MAX_WEIGHT OSSA_MAX_WEIGHT /* influence and morph weights (core/limits.h) */

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
    return n >= OSSA_MIN_ROTATION_NORM2 && n <= OSSA_MAX_ROTATION_NORM2; /* core/limits.h */
}

/* Neither the pose nor the palette renormalises (Cal3D does not), so each bone's model-space
 * rotation carries the product of the rotation norms along its chain of parents, and its matrix
 * the square of that times the scales. One bone's values are bounded above, but a chain of 64
 * rotations of norm 2 makes every matrix below it Inf; this bounds the products instead (squared
 * norm, scale and both together). With them the pose, palette and skinned vertices of bounded
 * inputs stay inside float range. */
#define MAX_CHAIN_GAIN 1e6

static double quat_norm(const float *q)
{
    return sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                (double)q[3] * q[3]);
}

static double max_abs3(const float *v)
{
    double a = fabs((double)v[0]), b = fabs((double)v[1]), c = fabs((double)v[2]);
    return a > b ? (a > c ? a : c) : (b > c ? b : c);
}

/* Runs after bones and clips were checked: parents come first and every track's bone exists. */
static ossa_status validate_chains(const ossa_model *m, ossa_error *err)
{
    uint32_t n = m->bone_count;
    if (!n)
        return OSSA_OK;
    double *rot = malloc(2 * (size_t)n * sizeof *rot);
    if (!rot) {
        if (err && err->status == OSSA_OK) {
            err->status = OSSA_ERR_NOMEM;
            err->offset = -1;
            err->line = 0;
            snprintf(err->message, sizeof err->message, "cannot allocate %u bone bounds", n);
        }
        return OSSA_ERR_NOMEM;
    }
    double *scale = rot + n;
    /* Per bone, the largest rotation norm and scale it can take: at rest or in any key. */
    for (uint32_t i = 0; i < n; i++) {
        rot[i] = quat_norm(m->bones[i].rest_r);
        scale[i] = max_abs3(m->bones[i].rest_s);
    }
    for (uint32_t c = 0; c < m->clip_count; c++)
        for (uint32_t t = 0; t < m->clips[c].track_count; t++) {
            const ossa_track *tr = &m->clips[c].tracks[t];
            if (tr->bone >= n)
                continue;
            for (uint32_t k = 0; k < tr->key_count; k++) {
                double r = quat_norm(tr->rotations + 4 * k);
                if (r > rot[tr->bone])
                    rot[tr->bone] = r;
                if (tr->scales) {
                    double s = max_abs3(tr->scales + 3 * k);
                    if (s > scale[tr->bone])
                        scale[tr->bone] = s;
                }
            }
        }
    ossa_status st = OSSA_OK;
    for (uint32_t i = 0; i < n && st == OSSA_OK; i++) {
        int32_t p = m->bones[i].parent;
        if (p >= 0) {
            rot[i] *= rot[p];
            scale[i] *= scale[p];
        }
        /* The squared norm alone builds the palette's rotation, before any scale applies. */
        double r2 = rot[i] * rot[i];
        if (!(r2 <= MAX_CHAIN_GAIN) || !(scale[i] <= MAX_CHAIN_GAIN) ||
            !(r2 * scale[i] <= MAX_CHAIN_GAIN))
            st = invalid(err, "bone %u ('%s'): along its chain of parents the rotation norms "
                         "multiply to %g and the scales to %g, beyond %g", i, m->bones[i].name,
                         rot[i], scale[i], MAX_CHAIN_GAIN);
    }
    free(rot);
    return st;
}

/* Bone ids must name a bone of the skeleton. A mesh or clip loaded without one keeps its file's
 * ids (what a lone CMF or CAF holds, written back as it was): those must still be ids some
 * skeleton could have. Writers that place them on bones refuse such a model themselves. */
static uint32_t bone_limit(const ossa_model *m)
{
    return m->bone_count ? m->bone_count : OSSA_MAX_BONES;
}

static const char *bone_limit_text(const ossa_model *m)
{
    return m->bone_count ? "the skeleton has" : "no skeleton loaded, and a skeleton has at most";
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
    if (s->uv_set_count && !all_bounded(s->uvs, 2 * (size_t)s->uv_set_count * nv, MAX_COORD))
        return invalid(err, "mesh '%s' submesh %u: a texture coordinate is not finite or beyond "
                       "%g", mn, si, (double)MAX_COORD);
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
            if (in->bone >= bone_limit(m))
                return invalid(err, "mesh '%s' submesh %u: vertex %zu uses bone %u, %s %u", mn,
                               si, v, in->bone, bone_limit_text(m), bone_limit(m));
            if (!(fabsf(in->weight) <= MAX_WEIGHT))
                return invalid(err, "mesh '%s' submesh %u: vertex %zu has weight %g", mn, si, v,
                               (double)in->weight);
        }
    }
    /* Exact per-influence points (C3S, SKM): bounded like positions. */
    size_t total_inf = nv ? s->influence_start[nv] : 0;
    if (s->influence_points && !all_bounded(s->influence_points, 3 * total_inf, MAX_COORD))
        return invalid(err, "mesh '%s' submesh %u: an influence point is not finite or beyond %g",
                       mn, si, (double)MAX_COORD);
    if (max_inf != s->max_influences)
        return invalid(err, "mesh '%s' submesh %u: max_influences %u, data has %u", mn, si,
                       s->max_influences, max_inf);
    for (uint32_t k = 0; k < s->spring_count; k++) {
        const ossa_spring *sp = &s->springs[k];
        if (sp->vertex[0] >= nv || sp->vertex[1] >= nv)
            return invalid(err, "mesh '%s' submesh %u: spring %u uses a vertex out of range", mn,
                           si, k);
        /* The cloth step divides by the spring's length and subtracts its idle length: an
         * idle length beyond coordinates (3e38, say) makes the first step NaN. */
        if (!(fabsf(sp->idle_length) <= MAX_COORD) || !(fabsf(sp->coefficient) <= MAX_WEIGHT))
            return invalid(err, "mesh '%s' submesh %u: spring %u has idle length %g and "
                           "coefficient %g, beyond %g and %g", mn, si, k,
                           (double)sp->idle_length, (double)sp->coefficient, (double)MAX_COORD,
                           (double)MAX_WEIGHT);
    }
    /* Gravity is scaled by the physique weight and the forces divided by it. */
    if (s->spring_count && s->physique_weights && !all_bounded(s->physique_weights, nv, MAX_WEIGHT))
        return invalid(err, "mesh '%s' submesh %u: a physique weight is not finite or beyond %g",
                       mn, si, (double)MAX_WEIGHT);
    if (s->frame_count &&
        (!s->frame_positions || !s->frame_normals ||
         !all_bounded(s->frame_positions, 3 * nv * s->frame_count, MAX_COORD) ||
         !all_bounded(s->frame_normals, 3 * nv * s->frame_count, MAX_COORD)))
        return invalid(err, "mesh '%s' submesh %u: a vertex frame is missing or not finite", mn,
                       si);
    if (s->uv_frame_count &&
        (!s->frame_uvs || !all_bounded(s->frame_uvs, 2 * nv * s->uv_frame_count, MAX_COORD)))
        return invalid(err, "mesh '%s' submesh %u: a uv frame is missing or not finite", mn, si);
    for (uint32_t t = 0; t < s->morph_count; t++) {
        const ossa_morph_target *mt = &s->morphs[t];
        for (uint32_t k = 0; k < mt->count; k++) {
            if (mt->vertex[k] >= nv || (k && mt->vertex[k] <= mt->vertex[k - 1]))
                return invalid(err, "mesh '%s' submesh %u: morph '%s' vertex list is bad", mn, si,
                               mt->name ? mt->name : "");
        }
        /* A delta is the file's absolute value minus the base one: two bounded floats of
         * opposite signs can still differ by Inf. */
        if (!all_bounded(mt->d_position, 3 * (size_t)mt->count, MAX_COORD) ||
            !all_bounded(mt->d_normal, 3 * (size_t)mt->count, MAX_COORD) ||
            (mt->d_uv && !all_bounded(mt->d_uv, 2 * (size_t)s->uv_set_count * mt->count,
                                      MAX_COORD)))
            return invalid(err, "mesh '%s' submesh %u: morph '%s' has a non-finite value", mn, si,
                           mt->name ? mt->name : "");
    }
    return OSSA_OK;
}

/* Vertex and uv tracks: the submesh exists, keys ascend within the clip, frames exist. */
static ossa_status validate_vertex_tracks(const ossa_model *m, const ossa_clip *c,
                                          const ossa_vertex_track *tracks, uint32_t count, int uv,
                                          ossa_error *err)
{
    const char *cn = c->name ? c->name : "", *kind = uv ? "uv" : "vertex";
    if (count && !tracks)
        return invalid(err, "clip '%s': %s tracks missing", cn, kind);
    for (uint32_t i = 0; i < count; i++) {
        const ossa_vertex_track *tr = &tracks[i];
        if (tr->mesh >= m->mesh_count || tr->submesh >= m->meshes[tr->mesh].submesh_count)
            return invalid(err, "clip '%s': %s track %u animates mesh %u submesh %u, which does "
                           "not exist", cn, kind, i, tr->mesh, tr->submesh);
        for (uint32_t j = 0; j < i; j++)
            if (tracks[j].mesh == tr->mesh && tracks[j].submesh == tr->submesh)
                return invalid(err, "clip '%s': two %s tracks animate mesh %u submesh %u", cn,
                               kind, tr->mesh, tr->submesh);
        const ossa_submesh *sm = &m->meshes[tr->mesh].submeshes[tr->submesh];
        uint32_t frames = uv ? sm->uv_frame_count : sm->frame_count;
        if (tr->key_count == 0 || !tr->times || !tr->frames)
            return invalid(err, "clip '%s': %s track %u has no keys", cn, kind, i);
        for (uint32_t k = 0; k < tr->key_count; k++) {
            if (!(tr->times[k] >= 0.0f && tr->times[k] <= c->duration) ||
                (k && tr->times[k] < tr->times[k - 1]))
                return invalid(err, "clip '%s': %s track %u key times not ascending in 0..%g",
                               cn, kind, i, (double)c->duration);
            if (tr->frames[k] >= frames)
                return invalid(err, "clip '%s': %s track %u key %u uses frame %u of %u", cn, kind,
                               i, k, tr->frames[k], frames);
        }
    }
    return OSSA_OK;
}

static ossa_status validate_clip_extras(const ossa_model *m, const ossa_clip *c, ossa_error *err)
{
    const char *cn = c->name ? c->name : "";
    if (!isfinite(c->frame_rate) || c->frame_rate < 0.0f)
        return invalid(err, "clip '%s': frame rate %g is not a rate", cn, (double)c->frame_rate);
    ossa_status st = validate_vertex_tracks(m, c, c->vertex_tracks, c->vertex_track_count, 0, err);
    if (st)
        return st;
    st = validate_vertex_tracks(m, c, c->uv_tracks, c->uv_track_count, 1, err);
    if (st)
        return st;
    if (c->trigger_count && !c->triggers)
        return invalid(err, "clip '%s': triggers missing", cn);
    for (uint32_t i = 0; i < c->trigger_count; i++) {
        const ossa_clip_trigger *tg = &c->triggers[i];
        if (!(tg->time >= 0.0f && tg->time <= c->duration) ||
            (i && tg->time < c->triggers[i - 1].time))
            return invalid(err, "clip '%s': trigger %u time %g not ascending in 0..%g", cn, i,
                           (double)tg->time, (double)c->duration);
        if (!tg->name || (tg->param_size && !tg->params))
            return invalid(err, "clip '%s': trigger %u has no name or parameters", cn, i);
    }
    if (c->link_count && !c->links)
        return invalid(err, "clip '%s': linked clips missing", cn);
    for (uint32_t i = 0; i < c->link_count; i++)
        if (c->links[i] >= m->clip_count || &m->clips[c->links[i]] == c)
            return invalid(err, "clip '%s': linked clip %u is not another clip of %u", cn,
                           c->links[i], m->clip_count);
    return OSSA_OK;
}

static ossa_status validate_mount(const ossa_model *m, uint32_t i, ossa_error *err)
{
    const ossa_mount *mt = &m->mounts[i];
    const char *name = mt->name ? mt->name : "";
    if (mt->mesh >= m->mesh_count || mt->submesh >= m->meshes[mt->mesh].submesh_count ||
        mt->face >= m->meshes[mt->mesh].submeshes[mt->submesh].face_count)
        return invalid(err, "mount %u ('%s'): mesh %u submesh %u face %u does not exist", i, name,
                       mt->mesh, mt->submesh, mt->face);
    if (!all_bounded(mt->barycentric, 3, MAX_WEIGHT) || !all_bounded(mt->offset_t, 3, MAX_COORD) ||
        !all_bounded(mt->offset_s, 3, MAX_COORD) || !is_rotation(mt->offset_r))
        return invalid(err, "mount %u ('%s'): a value is not finite, too large or not a rotation",
                       i, name);
    return OSSA_OK;
}

static ossa_status validate_clip(const ossa_model *m, const ossa_clip *c, ossa_error *err)
{
    const char *cn = c->name ? c->name : "";
    if (!(c->duration > 0.0f) || !isfinite(c->duration))
        return invalid(err, "clip '%s': duration %g is not positive", cn, (double)c->duration);
    ossa_status extras = validate_clip_extras(m, c, err);
    if (extras)
        return extras;
    for (uint32_t t = 0; t < c->track_count; t++) {
        const ossa_track *tr = &c->tracks[t];
        if (tr->bone >= bone_limit(m))
            return invalid(err, "clip '%s': track %u animates bone %u, %s %u", cn, t, tr->bone,
                           bone_limit_text(m), bone_limit(m));
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

static ossa_status validate_bone(const ossa_model *m, uint32_t i, ossa_error *err)
{
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
    return OSSA_OK;
}

/* Records where validation failed and passes the status on. */
static ossa_status at_part(ossa_model_part *part, ossa_model_part_kind kind, uint32_t index,
                           ossa_status st)
{
    if (st != OSSA_OK && part)
        *part = (ossa_model_part){kind, index};
    return st;
}

ossa_status ossa_model_validate_part(const ossa_model *m, ossa_error *err, ossa_model_part *part)
{
    if (part)
        *part = (ossa_model_part){OSSA_PART_WHOLE, 0};
    if (!m)
        return invalid(err, "no model");
    for (uint32_t i = 0; i < m->bone_count; i++) {
        ossa_status st = validate_bone(m, i, err);
        if (st)
            return at_part(part, OSSA_PART_BONE, i, st);
    }
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
            ossa_status st = validate_submesh(m, &m->meshes[i], s, err);
            if (st)
                return at_part(part, OSSA_PART_MESH, i, st);
        }
    for (uint32_t i = 0; i < m->clip_count; i++) {
        ossa_status st = validate_clip(m, &m->clips[i], err);
        if (st)
            return at_part(part, OSSA_PART_CLIP, i, st);
    }
    ossa_status chains = validate_chains(m, err);
    if (chains)
        return chains;
    if (m->mount_count && !m->mounts)
        return invalid(err, "mounts missing");
    for (uint32_t i = 0; i < m->mount_count; i++) {
        ossa_status st = validate_mount(m, i, err);
        if (st)
            return st;
    }
    for (uint32_t i = 0; i < m->morph_clip_count; i++) {
        const ossa_morph_clip *c = &m->morph_clips[i];
        if (!(c->duration > 0.0f) || !isfinite(c->duration))
            return at_part(part, OSSA_PART_MORPH_CLIP, i,
                           invalid(err, "morph clip '%s': duration is not positive", c->name));
        for (uint32_t t = 0; t < c->track_count; t++) {
            const ossa_morph_track *tr = &c->tracks[t];
            for (uint32_t k = 0; k < tr->key_count; k++)
                if (!isfinite(tr->times[k]) || !(fabsf(tr->weights[k]) <= MAX_WEIGHT) ||
                    (k && tr->times[k] < tr->times[k - 1]))
                    return at_part(part, OSSA_PART_MORPH_CLIP, i,
                                   invalid(err, "morph clip '%s': track %u keys are bad", c->name,
                                           t));
        }
    }
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ossa_material *mt = &m->materials[i];
        if (!all_finite(mt->ambient, 4) || !all_finite(mt->diffuse, 4) ||
            !all_finite(mt->specular, 4) || !isfinite(mt->shininess))
            return at_part(part, OSSA_PART_MATERIAL, i,
                           invalid(err, "material %u has a non-finite value", i));
    }
    return OSSA_OK;
}

ossa_status ossa_model_validate(const ossa_model *m, ossa_error *err)
{
    return ossa_model_validate_part(m, err, NULL);
}
