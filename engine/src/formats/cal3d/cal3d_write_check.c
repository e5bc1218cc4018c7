/* What a Cal3D layout can hold (docs/FORMATS.md, Cal3D binary layouts): the Cal3D writer's
 * refusals, made before anything is written, with the reason in the caller's buffer. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "core/build_context.h"
#include "formats/cal3d/cal3d_write_common.h"

static ossa_status OSSA_PRINTF(3, 4) refuse(char *msg, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
    return OSSA_ERR_UNSUPPORTED;
}

static bool is_unit_scale(const float *s)
{
    return fabsf(s[0] - 1.0f) <= 1e-6f && fabsf(s[1] - 1.0f) <= 1e-6f &&
           fabsf(s[2] - 1.0f) <= 1e-6f;
}

static bool has_lights(const ossa_model *m)
{
    if (m->has_scene_ambient &&
        (m->scene_ambient[0] != 0.0f || m->scene_ambient[1] != 0.0f || m->scene_ambient[2] != 0.0f))
        return true;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const ossa_bone *bn = &m->bones[i];
        if (bn->light_type != 0 || bn->light_color[0] != 0.0f || bn->light_color[1] != 0.0f ||
            bn->light_color[2] != 0.0f)
            return true;
    }
    return false;
}

static bool has_colors(const ossa_submesh *sm)
{
    if (!sm->colors)
        return false;
    for (size_t k = 0; k < 3 * (size_t)sm->vertex_count; k++)
        if (sm->colors[k] != 1.0f)
            return true;
    return false;
}

/* Everything the model holds must fit the chosen form: Cal3D has no scale, CAF/CPF need tracks
 * and keys, the classic and 1200 binary layouts have no lights, colours, morph targets or map
 * types, and the mp3butcher 1300/1301 one no lights or colours. */
ossa_status ossa_cw_check_representable(const ossa_model *m, const ossa_cw_layout *l, bool xml, char *msg,
                                   size_t cap)
{
    const bool plain = !xml && !l->extras;
    const bool fork = !xml && l->extras && !l->lights; /* mp3butcher */
    const char *why = "the classic and 1200 binary layouts cannot store it; write version 919 or "
                      "1300, or XML";
    const char *why_fork = "the mp3butcher 1300/1301 layout cannot store it; write the upstream "
                           "lineage, or XML";
    for (uint32_t i = 0; i < m->bone_count; i++)
        if (!is_unit_scale(m->bones[i].rest_s))
            return refuse(msg, cap,
                           "bone '%s' has a rest scale; Cal3D skeletons have none",
                           m->bones[i].name);
    if ((plain || fork) && has_lights(m))
        return refuse(msg, cap, "the skeleton has node lights: %s",
                       plain ? why : why_fork);
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            if (plain && sm->morph_count)
                return refuse(msg, cap,
                               "mesh '%s' submesh %u has morph targets: %s", m->meshes[i].name, s,
                               why);
            if ((plain || fork) && has_colors(sm))
                return refuse(msg, cap,
                               "mesh '%s' submesh %u has vertex colours: %s", m->meshes[i].name,
                               s, plain ? why : why_fork);
        }
    for (uint32_t i = 0; i < m->clip_count; i++) {
        const ossa_clip *c = &m->clips[i];
        if (!xml && c->track_count == 0 && ossa_cw_clip_written(c))
            return refuse(msg, cap,
                           "clip '%s' has no tracks; a CAF needs at least one", c->name);
        for (uint32_t t = 0; t < c->track_count; t++) {
            const ossa_track *tr = &c->tracks[t];
            for (uint32_t k = 0; tr->scales && k < tr->key_count; k++)
                if (!is_unit_scale(tr->scales + 3 * (size_t)k))
                    return refuse(msg, cap,
                                   "clip '%s' scales bone %u; Cal3D animations have no scale",
                                   c->name, tr->bone);
        }
    }
    for (uint32_t i = 0; i < m->morph_clip_count && !xml; i++) {
        const ossa_morph_clip *c = &m->morph_clips[i];
        if (c->track_count == 0)
            return refuse(msg, cap,
                           "morph clip '%s' has no tracks; a CPF needs at least one", c->name);
        /* A track without keys holds its weight at 0: the binary form leaves it out (a CPF track
         * needs a key), so only a clip of such tracks alone has nothing to write. */
        uint32_t keyed = 0;
        for (uint32_t t = 0; t < c->track_count; t++)
            keyed += c->tracks[t].key_count != 0;
        if (keyed == 0)
            return refuse(msg, cap, "morph clip '%s' has no track with keys; a CPF needs one",
                          c->name);
    }
    for (uint32_t i = 0; i < m->material_count && plain; i++)
        for (uint32_t k = 0; k < m->materials[i].map_count; k++) {
            const char *type = m->materials[i].maps[k].type;
            if (type && type[0])
                return refuse(msg, cap,
                               "material '%s' names a map type ('%s'): %s",
                               m->materials[i].name, type, why);
        }
    return OSSA_OK;
}

/* Control characters other than tab and line breaks cannot appear in XML 1.0. */
static bool xml_safe(const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return false;
    }
    return true;
}

ossa_status ossa_cw_check_xml_text(const ossa_model *m, char *msg, size_t cap)
{
    const char *bad = NULL;
    for (uint32_t i = 0; i < m->bone_count && !bad; i++)
        if (!xml_safe(m->bones[i].name))
            bad = m->bones[i].name;
    for (uint32_t i = 0; i < m->mesh_count && !bad; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count && !bad; s++)
            for (uint32_t t = 0; t < m->meshes[i].submeshes[s].morph_count && !bad; t++)
                if (!xml_safe(m->meshes[i].submeshes[s].morphs[t].name))
                    bad = m->meshes[i].submeshes[s].morphs[t].name;
    for (uint32_t i = 0; i < m->morph_clip_count && !bad; i++)
        for (uint32_t t = 0; t < m->morph_clips[i].track_count && !bad; t++)
            if (!xml_safe(m->morph_clips[i].tracks[t].morph_name))
                bad = m->morph_clips[i].tracks[t].morph_name;
    for (uint32_t i = 0; i < m->material_count && !bad; i++)
        for (uint32_t k = 0; k < m->materials[i].map_count && !bad; k++)
            if (!xml_safe(m->materials[i].maps[k].file) || !xml_safe(m->materials[i].maps[k].type))
                bad = m->materials[i].maps[k].file;
    for (uint32_t i = 0; i < m->material_count && !bad; i++)
        for (uint32_t k = 0; k < m->materials[i].property_count && !bad; k++)
            if (!xml_safe(m->materials[i].properties[k].key) ||
                !xml_safe(m->materials[i].properties[k].value))
                bad = m->materials[i].properties[k].key;
    if (bad)
        return refuse(msg, cap,
                       "the name '%.60s' holds control characters, which XML cannot carry", bad);
    return OSSA_OK;
}

/* Whether a classic binary layout (1100) holds what the model has: no node lights, vertex
 * colours, morph targets or map types. */
bool ossa_cw_fits_classic(const ossa_model *m)
{
    if (has_lights(m))
        return false;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++)
            if (m->meshes[i].submeshes[s].morph_count || has_colors(&m->meshes[i].submeshes[s]))
                return false;
    for (uint32_t i = 0; i < m->material_count; i++)
        for (uint32_t k = 0; k < m->materials[i].map_count; k++)
            if (m->materials[i].maps[k].type && m->materials[i].maps[k].type[0])
                return false;
    return true;
}
