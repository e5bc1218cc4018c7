/* Cal3D XML forms (docs/FORMATS.md, Cal3D XML layouts): <HEADER MAGIC VERSION/> followed by the
 * root element, with children in the order the strictest loaders consume them. Numbers are written
 * in the C locale with the fewest digits that read back to the same float, so files are exact and
 * stable. */
#define _GNU_SOURCE /* newlocale, uselocale, strtof_l */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cal3d/cal3d_write_common.h"

typedef struct cw_xml {
    ossa_wbuf *b;
    locale_t c_locale, previous;
} cw_xml;

/* Numbers must not depend on the caller's locale: switch this thread to "C" while writing. */
static bool xml_begin(cw_xml *x, ossa_wbuf *b, const char *magic, uint32_t version)
{
    x->b = b;
    x->c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (x->c_locale == (locale_t)0)
        return false;
    x->previous = uselocale(x->c_locale);
    char head[80];
    snprintf(head, sizeof head, "<HEADER MAGIC=\"%s\" VERSION=\"%u\" />\n", magic, version);
    ossa_cw_puts(b, head);
    return true;
}

static bool xml_end(cw_xml *x)
{
    uselocale(x->previous);
    freelocale(x->c_locale);
    return true;
}

static void put_float(cw_xml *x, float v)
{
    char s[40];
    for (int digits = 6; digits <= 9; digits++) {
        snprintf(s, sizeof s, "%.*g", digits, (double)v);
        if (strtof_l(s, NULL, x->c_locale) == v)
            break;
    }
    if (strcmp(s, "-0") == 0)
        s[0] = '0', s[1] = '\0';
    ossa_cw_puts(x->b, s);
}

static void put_floats(cw_xml *x, const float *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            ossa_cw_puts(x->b, " ");
        put_float(x, v[i]);
    }
}

static void put_int(cw_xml *x, long long v)
{
    char s[32];
    snprintf(s, sizeof s, "%lld", v);
    ossa_cw_puts(x->b, s);
}

/* Text with the characters XML reserves escaped (attribute values and element text alike). */
static void put_text(cw_xml *x, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': ossa_cw_puts(x->b, "&amp;"); break;
        case '<': ossa_cw_puts(x->b, "&lt;"); break;
        case '>': ossa_cw_puts(x->b, "&gt;"); break;
        case '"': ossa_cw_puts(x->b, "&quot;"); break;
        case '\t': ossa_cw_puts(x->b, "&#9;"); break;
        case '\n': ossa_cw_puts(x->b, "&#10;"); break;
        case '\r': ossa_cw_puts(x->b, "&#13;"); break;
        default: ossa_wbuf_put(x->b, s, 1); break;
        }
    }
}

/* <NAME>v0 v1 ...</NAME> on its own line. */
static void element_floats(cw_xml *x, const char *indent, const char *name, const float *v, int n)
{
    ossa_cw_puts(x->b, indent);
    ossa_cw_puts(x->b, "<");
    ossa_cw_puts(x->b, name);
    ossa_cw_puts(x->b, ">");
    put_floats(x, v, n);
    ossa_cw_puts(x->b, "</");
    ossa_cw_puts(x->b, name);
    ossa_cw_puts(x->b, ">\n");
}

static void element_int(cw_xml *x, const char *indent, const char *name, long long v)
{
    ossa_cw_puts(x->b, indent);
    ossa_cw_puts(x->b, "<");
    ossa_cw_puts(x->b, name);
    ossa_cw_puts(x->b, ">");
    put_int(x, v);
    ossa_cw_puts(x->b, "</");
    ossa_cw_puts(x->b, name);
    ossa_cw_puts(x->b, ">\n");
}

/* ' NAME="value"' */
static void attr_int(cw_xml *x, const char *name, long long v)
{
    ossa_cw_puts(x->b, " ");
    ossa_cw_puts(x->b, name);
    ossa_cw_puts(x->b, "=\"");
    put_int(x, v);
    ossa_cw_puts(x->b, "\"");
}

static void attr_floats(cw_xml *x, const char *name, const float *v, int n)
{
    ossa_cw_puts(x->b, " ");
    ossa_cw_puts(x->b, name);
    ossa_cw_puts(x->b, "=\"");
    put_floats(x, v, n);
    ossa_cw_puts(x->b, "\"");
}

static void attr_text(cw_xml *x, const char *name, const char *v)
{
    ossa_cw_puts(x->b, " ");
    ossa_cw_puts(x->b, name);
    ossa_cw_puts(x->b, "=\"");
    put_text(x, v);
    ossa_cw_puts(x->b, "\"");
}

static void cal3d_quat(cw_xml *x, const char *indent, const char *name, const float q[4])
{
    float c[4];
    ossa_cw_cal3d_quat(q, c);
    element_floats(x, indent, name, c, 4);
}

/* ---- XSF ---- */

bool ossa_cw_xml_skeleton(ossa_wbuf *b, const ossa_model *m, const ossa_cw_layout *l)
{
    uint32_t *ids = malloc((m->bone_count ? m->bone_count : 1) * sizeof *ids);
    if (!ids) {
        b->failed = true; /* reported as out of memory by the caller */
        return true;
    }
    cw_xml x;
    if (!xml_begin(&x, b, "XSF", l->version)) {
        free(ids);
        return false;
    }
    ossa_cw_puts(b, "<SKELETON");
    attr_int(&x, "NUMBONES", m->bone_count);
    if (m->has_scene_ambient)
        attr_floats(&x, "SCENEAMBIENTCOLOR", m->scene_ambient, 3);
    ossa_cw_puts(b, ">\n");
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const ossa_bone *bone = &m->bones[i];
        uint32_t n = ossa_cw_children(m, i, ids);
        ossa_cw_puts(b, "    <BONE");
        attr_int(&x, "ID", i);
        attr_text(&x, "NAME", bone->name);
        attr_int(&x, "NUMCHILDS", n);
        if (bone->light_type != 0 || bone->light_color[0] != 0.0f ||
            bone->light_color[1] != 0.0f || bone->light_color[2] != 0.0f) {
            attr_int(&x, "LIGHTTYPE", bone->light_type);
            attr_floats(&x, "LIGHTCOLOR", bone->light_color, 3);
        }
        ossa_cw_puts(b, ">\n");
        element_floats(&x, "        ", "TRANSLATION", bone->rest_t, 3);
        cal3d_quat(&x, "        ", "ROTATION", bone->rest_r);
        element_floats(&x, "        ", "LOCALTRANSLATION", bone->inv_bind_t, 3);
        cal3d_quat(&x, "        ", "LOCALROTATION", bone->inv_bind_r);
        element_int(&x, "        ", "PARENTID", bone->parent);
        for (uint32_t c = 0; c < n; c++)
            element_int(&x, "        ", "CHILDID", ids[c]);
        ossa_cw_puts(b, "    </BONE>\n");
    }
    ossa_cw_puts(b, "</SKELETON>\n");
    free(ids);
    return xml_end(&x);
}

/* ---- XMF ---- */

static void xml_vertex(cw_xml *x, const ossa_submesh *sm, uint32_t v, bool colors)
{
    ossa_wbuf *b = x->b;
    uint32_t first = sm->influence_start[v], end = sm->influence_start[v + 1];
    ossa_cw_puts(b, "        <VERTEX");
    attr_int(x, "ID", v);
    attr_int(x, "NUMINFLUENCES", end - first);
    ossa_cw_puts(b, ">\n");
    element_floats(x, "            ", "POS", sm->positions + 3 * (size_t)v, 3);
    element_floats(x, "            ", "NORM", sm->normals + 3 * (size_t)v, 3);
    if (colors)
        element_floats(x, "            ", "COLOR", ossa_cw_color(sm, v), 3);
    int32_t collapse = sm->collapse_id ? sm->collapse_id[v] : -1;
    uint32_t collapse_count = sm->face_collapse_count ? sm->face_collapse_count[v] : 0;
    /* Upstream wants at least one element after NORM/COLOR: LOD data fills in when nothing else
     * would follow. */
    bool nothing_after = sm->uv_set_count == 0 && end == first && !sm->spring_count;
    if (collapse != -1 || collapse_count != 0 || nothing_after) {
        element_int(x, "            ", "COLLAPSEID", collapse);
        element_int(x, "            ", "COLLAPSECOUNT", collapse_count);
    }
    for (uint32_t s = 0; s < sm->uv_set_count; s++)
        element_floats(x, "            ", "TEXCOORD",
                       sm->uvs + 2 * ((size_t)sm->uv_set_count * v + s), 2);
    for (uint32_t k = first; k < end; k++) {
        ossa_cw_puts(b, "            <INFLUENCE");
        attr_int(x, "ID", sm->influences[k].bone);
        ossa_cw_puts(b, ">");
        put_float(x, sm->influences[k].weight);
        ossa_cw_puts(b, "</INFLUENCE>\n");
    }
    if (sm->spring_count) {
        float w = sm->physique_weights ? sm->physique_weights[v] : 0.0f;
        element_floats(x, "            ", "PHYSIQUE", &w, 1);
    }
    ossa_cw_puts(b, "        </VERTEX>\n");
}

/* Blend vertices hold absolute values; the model keeps deltas. */
static void xml_morph(cw_xml *x, const ossa_submesh *sm, const ossa_morph_target *mt)
{
    ossa_wbuf *b = x->b;
    ossa_cw_puts(b, "        <MORPH");
    attr_text(x, "NAME", mt->name);
    attr_int(x, "NUMBLENDVERTS", mt->count);
    ossa_cw_puts(b, ">\n");
    uint32_t sets = sm->uv_set_count;
    for (uint32_t k = 0; k < mt->count; k++) {
        size_t v = mt->vertex[k];
        const float *d = mt->d_position + 3 * (size_t)k;
        float pos[3], nrm[3];
        for (int c = 0; c < 3; c++) {
            pos[c] = sm->positions[3 * v + c] + d[c];
            nrm[c] = sm->normals[3 * v + c] + mt->d_normal[3 * (size_t)k + c];
        }
        float diff = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        ossa_cw_puts(b, "            <BLENDVERTEX");
        attr_int(x, "VERTEXID", (long long)v);
        attr_floats(x, "POSDIFF", &diff, 1);
        ossa_cw_puts(b, ">\n");
        element_floats(x, "                ", "POSITION", pos, 3);
        element_floats(x, "                ", "NORMAL", nrm, 3);
        for (uint32_t s = 0; s < sets; s++) {
            float uv[2];
            for (int c = 0; c < 2; c++) {
                float base = sm->uvs[2 * ((size_t)sets * v + s) + c];
                uv[c] = base + (mt->d_uv ? mt->d_uv[2 * ((size_t)sets * k + s) + c] : 0.0f);
            }
            element_floats(x, "                ", "TEXCOORD", uv, 2);
        }
        ossa_cw_puts(b, "            </BLENDVERTEX>\n");
    }
    ossa_cw_puts(b, "        </MORPH>\n");
}

bool ossa_cw_xml_mesh(ossa_wbuf *b, const ossa_mesh *mesh, const ossa_cw_layout *l)
{
    cw_xml x;
    if (!xml_begin(&x, b, "XMF", l->version))
        return false;
    /* IMVU (911..919) and upstream (>= 1300) loaders require COLOR on every vertex. */
    const bool colors_required = l->colors;
    ossa_cw_puts(b, "<MESH");
    attr_int(&x, "NUMSUBMESH", mesh->submesh_count);
    ossa_cw_puts(b, ">\n");
    for (uint32_t s = 0; s < mesh->submesh_count; s++) {
        const ossa_submesh *sm = &mesh->submeshes[s];
        ossa_cw_puts(b, "    <SUBMESH");
        attr_int(&x, "NUMVERTICES", sm->vertex_count);
        attr_int(&x, "NUMFACES", sm->face_count);
        attr_int(&x, "MATERIAL", sm->material);
        attr_int(&x, "NUMLODSTEPS", sm->lod_count);
        attr_int(&x, "NUMSPRINGS", sm->spring_count);
        if (sm->morph_count)
            attr_int(&x, "NUMMORPHS", sm->morph_count);
        attr_int(&x, "NUMTEXCOORDS", sm->uv_set_count);
        ossa_cw_puts(b, ">\n");
        bool colors = colors_required || sm->colors;
        for (uint32_t v = 0; v < sm->vertex_count; v++)
            xml_vertex(&x, sm, v, colors);
        for (uint32_t k = 0; k < sm->spring_count; k++) {
            const ossa_spring *sp = &sm->springs[k];
            ossa_cw_puts(b, "        <SPRING VERTEXID=\"");
            put_int(&x, sp->vertex[0]);
            ossa_cw_puts(b, " ");
            put_int(&x, sp->vertex[1]);
            ossa_cw_puts(b, "\"");
            attr_floats(&x, "COEF", &sp->coefficient, 1);
            attr_floats(&x, "LENGTH", &sp->idle_length, 1);
            ossa_cw_puts(b, " />\n");
        }
        for (uint32_t t = 0; t < sm->morph_count; t++)
            xml_morph(&x, sm, &sm->morphs[t]);
        for (uint32_t f = 0; f < sm->face_count; f++) {
            const uint32_t *tri = sm->indices + 3 * (size_t)f;
            ossa_cw_puts(b, "        <FACE VERTEXID=\"");
            for (int k = 0; k < 3; k++) {
                if (k)
                    ossa_cw_puts(b, " ");
                put_int(&x, tri[k]);
            }
            ossa_cw_puts(b, "\" />\n");
        }
        ossa_cw_puts(b, "    </SUBMESH>\n");
    }
    ossa_cw_puts(b, "</MESH>\n");
    return xml_end(&x);
}

/* ---- XAF ---- */

bool ossa_cw_xml_clip(ossa_wbuf *b, const ossa_clip *clip, const ossa_cw_layout *l)
{
    cw_xml x;
    if (!xml_begin(&x, b, "XAF", l->version))
        return false;
    ossa_cw_puts(b, "<ANIMATION");
    attr_floats(&x, "DURATION", &clip->duration, 1);
    attr_int(&x, "NUMTRACKS", clip->track_count);
    ossa_cw_puts(b, ">\n");
    for (uint32_t t = 0; t < clip->track_count; t++) {
        const ossa_track *tr = &clip->tracks[t];
        ossa_cw_puts(b, "    <TRACK");
        attr_int(&x, "BONEID", tr->bone);
        attr_int(&x, "NUMKEYFRAMES", tr->key_count);
        /* The IMVU compression hints, as the model holds them (absent reads as 1). */
        attr_int(&x, "TRANSLATIONREQUIRED", !!(tr->flags & OSSA_TRACK_TRANSLATION_REQUIRED));
        attr_int(&x, "TRANSLATIONISDYNAMIC", !!(tr->flags & OSSA_TRACK_TRANSLATION_DYNAMIC));
        attr_int(&x, "HIGHRANGEREQUIRED", !!(tr->flags & OSSA_TRACK_HIGH_RANGE));
        ossa_cw_puts(b, ">\n");
        for (uint32_t k = 0; k < tr->key_count; k++) {
            ossa_cw_puts(b, "        <KEYFRAME");
            attr_floats(&x, "TIME", &tr->times[k], 1);
            ossa_cw_puts(b, ">\n");
            element_floats(&x, "            ", "TRANSLATION", tr->translations + 3 * (size_t)k, 3);
            cal3d_quat(&x, "            ", "ROTATION", tr->rotations + 4 * (size_t)k);
            ossa_cw_puts(b, "        </KEYFRAME>\n");
        }
        ossa_cw_puts(b, "    </TRACK>\n");
    }
    ossa_cw_puts(b, "</ANIMATION>\n");
    return xml_end(&x);
}

/* ---- XPF ---- */

bool ossa_cw_xml_morph_clip(ossa_wbuf *b, const ossa_morph_clip *clip, const ossa_cw_layout *l)
{
    cw_xml x;
    if (!xml_begin(&x, b, "XPF", l->version))
        return false;
    ossa_cw_puts(b, "<ANIMATION");
    attr_floats(&x, "DURATION", &clip->duration, 1);
    attr_int(&x, "NUMTRACKS", clip->track_count);
    ossa_cw_puts(b, ">\n");
    for (uint32_t t = 0; t < clip->track_count; t++) {
        const ossa_morph_track *tr = &clip->tracks[t];
        ossa_cw_puts(b, "    <TRACK");
        attr_text(&x, "MORPHNAME", tr->morph_name);
        attr_int(&x, "NUMKEYFRAMES", tr->key_count);
        ossa_cw_puts(b, ">\n");
        for (uint32_t k = 0; k < tr->key_count; k++) {
            ossa_cw_puts(b, "        <KEYFRAME");
            attr_floats(&x, "TIME", &tr->times[k], 1);
            ossa_cw_puts(b, ">\n");
            element_floats(&x, "            ", "WEIGHT", &tr->weights[k], 1);
            ossa_cw_puts(b, "        </KEYFRAME>\n");
        }
        ossa_cw_puts(b, "    </TRACK>\n");
    }
    ossa_cw_puts(b, "</ANIMATION>\n");
    return xml_end(&x);
}

/* ---- XRF ---- */

static void xml_color(cw_xml *x, const char *name, const float c[4])
{
    ossa_cw_puts(x->b, "    <");
    ossa_cw_puts(x->b, name);
    ossa_cw_puts(x->b, ">");
    for (int k = 0; k < 4; k++) {
        float v = c[k] < 0.0f ? 0.0f : c[k] > 1.0f ? 1.0f : c[k];
        if (k)
            ossa_cw_puts(x->b, " ");
        put_int(x, lrintf(v * 255.0f));
    }
    ossa_cw_puts(x->b, "</");
    ossa_cw_puts(x->b, name);
    ossa_cw_puts(x->b, ">\n");
}

bool ossa_cw_xml_material(ossa_wbuf *b, const ossa_material *mat, const ossa_cw_layout *l)
{
    cw_xml x;
    if (!xml_begin(&x, b, "XRF", l->version))
        return false;
    ossa_cw_puts(b, "<MATERIAL");
    attr_int(&x, "NUMMAPS", mat->property_count + mat->map_count);
    ossa_cw_puts(b, ">\n");
    xml_color(&x, "AMBIENT", mat->ambient);
    xml_color(&x, "DIFFUSE", mat->diffuse);
    xml_color(&x, "SPECULAR", mat->specular);
    element_floats(&x, "    ", "SHININESS", &mat->shininess, 1);
    for (uint32_t i = 0; i < mat->property_count; i++) { /* "Key:value" */
        ossa_cw_puts(b, "    <MAP>");
        put_text(&x, mat->properties[i].key);
        ossa_cw_puts(b, ":");
        put_text(&x, mat->properties[i].value);
        ossa_cw_puts(b, "</MAP>\n");
    }
    for (uint32_t i = 0; i < mat->map_count; i++) {
        const ossa_texture_map *map = &mat->maps[i];
        const char *type = ossa_cw_map_type(map);
        ossa_cw_puts(b, "    <MAP");
        if (type[0])
            attr_text(&x, "TYPE", type);
        ossa_cw_puts(b, ">");
        put_text(&x, map->file);
        ossa_cw_puts(b, "</MAP>\n");
    }
    ossa_cw_puts(b, "</MATERIAL>\n");
    return xml_end(&x);
}
