/* The page's view of a character as JSON (engine_api.h: ossa_web_state, ossa_web_info). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine_internal.h"

/* Key marks of a clip's timeline: every track's key times, sorted, those closer than a
 * thousandth of the clip apart merged, at most MAX_TICKS (the rest dropped evenly). */
#define MAX_TICKS 1024u

static int by_value(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static json_t *clip_ticks(const ossa_clip *clip)
{
    size_t n = 0;
    for (uint32_t t = 0; t < clip->track_count; t++)
        n += clip->tracks[t].key_count;
    json_t *out = json_array();
    float *all = malloc((n ? n : 1) * sizeof(float));
    if (!out || !all) {
        free(all);
        return out;
    }
    n = 0;
    for (uint32_t t = 0; t < clip->track_count; t++)
        for (uint32_t k = 0; k < clip->tracks[t].key_count; k++)
            all[n++] = clip->tracks[t].times[k];
    qsort(all, n, sizeof(float), by_value);
    size_t unique = 0;
    float gap = clip->duration / 1000.0f;
    for (size_t i = 0; i < n; i++)
        if (!unique || all[i] - all[unique - 1] > gap)
            all[unique++] = all[i];
    size_t stride = unique > MAX_TICKS ? (unique + MAX_TICKS - 1) / MAX_TICKS : 1;
    for (size_t i = 0; i < unique; i += stride)
        json_array_append_new(out, json_real(all[i]));
    free(all);
    return out;
}

/* A name as a JSON string: legacy files often hold Latin-1 (ossa_name_utf8); NULL: null. */
static json_t *text(const char *name)
{
    if (!name)
        return json_null();
    size_t n = ossa_name_utf8(name, NULL, 0);
    char *buf = malloc(n + 1);
    if (!buf)
        return NULL;
    ossa_name_utf8(name, buf, n + 1);
    json_t *j = json_stringn(buf, n);
    free(buf);
    return j;
}

static json_t *floats(const float *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        json_array_append_new(a, json_real(v[i]));
    return a;
}

/* The model's name as ossa-view titles it: the file read (or folder) and its format. */
static void model_name(const ossa_model *m, char *out, size_t size)
{
    if (m->format == OSSA_FORMAT_DEMO) {
        snprintf(out, size, "built-in demo");
        return;
    }
    const char *src = m->source && m->source[0] ? m->source : "model";
    const char *slash = strrchr(src, '/');
    snprintf(out, size, "%s (%s)", slash && slash[1] ? slash + 1 : src,
             ossa_format_name(m->format));
}

/* The file of the map ossa-view draws the material with; NULL: none. */
static const char *diffuse_path(const ossa_material *mat)
{
    const ossa_texture_map *map = ossa_material_diffuse_map(mat);
    return map ? (map->path ? map->path : map->file) : NULL;
}

EMSCRIPTEN_KEEPALIVE const char *ossa_web_info(web_character *c)
{
    const ossa_model *m = c->model;
    char name[512];
    model_name(m, name, sizeof name);
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    bool any = false;
    uint64_t vertices = 0, faces = 0;
    for (uint32_t p = 0; p < c->parts; p++) {
        ossa_instance_part info;
        ossa_instance_part_info(c->inst, p, &info, NULL);
        vertices += info.vertex_count;
        faces += info.index_count / 3;
        for (uint32_t v = 0; v < info.vertex_count; v++)
            for (int k = 0; k < 3; k++) {
                float x = info.source->positions[3 * (size_t)v + k];
                lo[k] = any && lo[k] < x ? lo[k] : x;
                hi[k] = any && hi[k] > x ? hi[k] : x;
                any = any || k == 2;
            }
    }
    for (uint32_t b = 0; b < m->bone_count; b++)
        for (int k = 0; k < 3; k++) {
            float x = c->bind_joints[3 * b + k];
            lo[k] = any && lo[k] < x ? lo[k] : x;
            hi[k] = any && hi[k] > x ? hi[k] : x;
            any = any || k == 2;
        }
    ossa_export_up up = ossa_export_source_up(m, NULL);
    json_t *warnings = json_array(), *bones = json_array(), *clips = json_array(),
           *materials = json_array();
    for (uint32_t i = 0; i < m->warning_count; i++)
        json_array_append_new(warnings, text(m->warnings[i]));
    for (uint32_t i = 0; i < m->bone_count; i++)
        json_array_append_new(bones, json_pack("{s:o, s:I}", "name", text(m->bones[i].name),
                                               "parent", (json_int_t)m->bones[i].parent));
    for (uint32_t i = 0; i < m->clip_count; i++)
        json_array_append_new(clips, json_pack("{s:o, s:f, s:o}", "name",
                                               text(m->clips[i].name),
                                               "duration", (double)m->clips[i].duration,
                                               "ticks", clip_ticks(&m->clips[i])));
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ossa_material *mat = &m->materials[i];
        json_array_append_new(materials, json_pack(
            "{s:o, s:o, s:o, s:o, s:f, s:o}", "name", text(mat->name), "ambient",
            floats(mat->ambient, 4), "diffuse", floats(mat->diffuse, 4), "specular",
            floats(mat->specular, 4), "shininess", (double)mat->shininess, "map",
            text(diffuse_path(mat))));
    }
    json_t *root = json_pack(
        "{s:o, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:I}", "name", text(name),
        "format", ossa_format_name(m->format), "up", up == OSSA_EXPORT_UP_Z ? "z" : "y",
        "kernel", ossa_web_kernel(c), "warnings", warnings, "bones", bones, "clips", clips,
        "materials", materials, "bindMin", floats(lo, 3), "bindMax", floats(hi, 3),
        "vertexCount", (json_int_t)vertices, "faceCount", (json_int_t)faces);
    free(c->info_json);
    c->info_json = root ? json_dumps(root, JSON_COMPACT) : NULL;
    json_decref(root);
    if (!c->info_json)
        web_fail(OSSA_ERR_NOMEM, "out of memory for the model's description");
    return c->info_json;
}

static const char *mode_name(ossa_wrap w)
{
    return w == OSSA_WRAP_PINGPONG ? "ping-pong" : w == OSSA_WRAP_CLAMP ? "once" : "loop";
}

/* UTF-8 text as a JSON string's contents: quotes, backslashes and controls escaped. */
static void escape(const char *s, char *out, size_t size)
{
    size_t n = 0;
    for (; s && *s && n + 7 < size; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            n += (size_t)snprintf(out + n, size - n, "\\%c", ch);
        else if (ch < 0x20)
            n += (size_t)snprintf(out + n, size - n, "\\u%04x", ch);
        else
            out[n++] = (char)ch;
    }
    out[n] = 0;
}

EMSCRIPTEN_KEEPALIVE const char *ossa_web_state(web_character *c)
{
    ossa_clock *k = ossa_instance_clock(c->inst);
    bool clips = k->clip_count > 0;
    uint32_t from = OSSA_INSTANCE_NO_CLIP;
    bool fading = ossa_instance_fading(c->inst, &from);
    char utf8[256] = "", name[256] = "";
    if (clips) {
        ossa_name_utf8(c->model->clips[k->clip].name, utf8, sizeof utf8);
        escape(utf8, name, sizeof name);
    }
    snprintf(c->state_json, sizeof c->state_json,
             "{\"clip\":%d,\"clipName\":\"%s\",\"time\":%.9g,\"duration\":%.9g,\"frame\":%u,"
             "\"lastFrame\":%u,\"speed\":%.9g,\"playing\":%s,\"mode\":\"%s\",\"fading\":%s,"
             "\"fadeFrom\":%d,\"bind\":%s}",
             clips ? (int)k->clip : -1, name, (double)k->time, (double)k->duration,
             ossa_clock_frame(k), ossa_clock_last_frame(k), (double)k->speed,
             k->playing ? "true" : "false", mode_name(k->wrap), fading ? "true" : "false",
             fading && from != OSSA_INSTANCE_NO_CLIP ? (int)from : -1,
             c->bind ? "true" : "false");
    return c->state_json;
}
