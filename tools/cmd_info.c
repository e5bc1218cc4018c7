/* ossa info: what a model holds, as text or JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

ossa_model *ossa_cli_load(const char *const *files, size_t count)
{
    ossa_model *m = NULL;
    ossa_error err;
    if (ossa_load_files(files, count, NULL, &m, &err) != OSSA_OK) {
        char text[1024];
        fprintf(stderr, "ossa: %s\n", ossa_error_format(&err, text, sizeof text));
        return NULL;
    }
    return m;
}

int ossa_cli_take_file(const char *cmd, const char *arg, const char **files, size_t *count)
{
    if (arg[0] == '-' && arg[1]) {
        fprintf(stderr, "ossa %s: unknown or incomplete option '%s'\n", cmd, arg);
        return 2;
    }
    files[(*count)++] = arg;
    return 0;
}

ossa_model *ossa_cli_load_args(const char *usage, const char **files, size_t count, int *status)
{
    ossa_model *m = NULL;
    if (!count) {
        fprintf(stderr, "usage: %s\n", usage);
        *status = 2;
    } else {
        m = ossa_cli_load(files, count);
        *status = m ? 0 : 1;
    }
    free(files);
    return m;
}

void ossa_cli_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static uint64_t clip_keys(const ossa_clip *c)
{
    uint64_t keys = 0;
    for (uint32_t t = 0; t < c->track_count; t++)
        keys += c->tracks[t].key_count;
    return keys;
}

static void print_text(FILE *out, const ossa_model *m)
{
    fprintf(out, "file: %s\n", m->source ? m->source : "");
    fprintf(out, "format: %s\n", ossa_format_name(m->format));
    if (m->version)
        fprintf(out, "version: %u\n", m->version);
    if (m->scale != 1.0f)
        fprintf(out, "scale: %g\n", (double)m->scale);
    fprintf(out, "bones: %u", m->bone_count);
    if (m->bone_count)
        fprintf(out, " (%s v%u)", ossa_format_name(m->skeleton_format), m->skeleton_version);
    fputc('\n', out);
    if (m->has_scene_ambient)
        fprintf(out, "scene ambient: %g %g %g\n", (double)m->scene_ambient[0],
                (double)m->scene_ambient[1], (double)m->scene_ambient[2]);
    fprintf(out, "meshes: %u\n", m->mesh_count);
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const ossa_mesh *me = &m->meshes[i];
        fprintf(out, "  mesh %u '%s' (%s v%u): %u submeshes\n", i, me->name,
                ossa_format_name(me->format), me->version, me->submesh_count);
        for (uint32_t s = 0; s < me->submesh_count; s++) {
            const ossa_submesh *sm = &me->submeshes[s];
            fprintf(out, "    submesh %u: vertices %u, faces %u, max influences %u, material %d, "
                         "uv sets %u",
                    s, sm->vertex_count, sm->face_count, sm->max_influences, sm->material,
                    sm->uv_set_count);
            if (sm->spring_count)
                fprintf(out, ", springs %u", sm->spring_count);
            if (sm->morph_count)
                fprintf(out, ", morph targets %u", sm->morph_count);
            if (sm->colors)
                fprintf(out, ", vertex colours");
            fputc('\n', out);
        }
    }
    fprintf(out, "clips: %u\n", m->clip_count);
    for (uint32_t i = 0; i < m->clip_count; i++) {
        const ossa_clip *c = &m->clips[i];
        fprintf(out, "  clip %u '%s' (%s v%u%s): duration %.3f s, tracks %u, keys %llu\n", i,
                c->name, ossa_format_name(c->format), c->version, c->compressed ? ", compressed" : "",
                (double)c->duration, c->track_count, (unsigned long long)clip_keys(c));
    }
    if (m->morph_clip_count) {
        fprintf(out, "morph clips: %u\n", m->morph_clip_count);
        for (uint32_t i = 0; i < m->morph_clip_count; i++) {
            const ossa_morph_clip *c = &m->morph_clips[i];
            fprintf(out, "  morph clip %u '%s' (%s v%u): duration %.3f s, tracks %u\n", i, c->name,
                    ossa_format_name(c->format), c->version, (double)c->duration, c->track_count);
        }
    }
    fprintf(out, "materials: %u\n", m->material_count);
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ossa_material *mt = &m->materials[i];
        fprintf(out, "  material %u '%s' (%s v%u): diffuse %.3f %.3f %.3f %.3f, shininess %g, "
                     "maps %u",
                i, mt->name, ossa_format_name(mt->format), mt->version, (double)mt->diffuse[0],
                (double)mt->diffuse[1], (double)mt->diffuse[2], (double)mt->diffuse[3],
                (double)mt->shininess, mt->map_count);
        for (uint32_t k = 0; k < mt->map_count; k++)
            fprintf(out, "%s%s", k ? ", " : ": ", mt->maps[k].file);
        fputc('\n', out);
    }
    fprintf(out, "warnings: %u\n", m->warning_count);
    for (uint32_t i = 0; i < m->warning_count; i++)
        fprintf(out, "  %s\n", m->warnings[i]);
}

static void print_json(FILE *out, const ossa_model *m)
{
    fputs("{\"file\":", out);
    ossa_cli_json_string(out, m->source);
    fputs(",\"format\":", out);
    ossa_cli_json_string(out, ossa_format_name(m->format));
    fprintf(out, ",\"version\":%u,\"scale\":%.9g,\"bones\":%u", m->version, (double)m->scale,
            m->bone_count);
    fputs(",\"skeleton\":", out);
    if (m->bone_count) {
        fputs("{\"format\":", out);
        ossa_cli_json_string(out, ossa_format_name(m->skeleton_format));
        fprintf(out, ",\"version\":%u,\"names\":[", m->skeleton_version);
        for (uint32_t i = 0; i < m->bone_count; i++) {
            if (i)
                fputc(',', out);
            ossa_cli_json_string(out, m->bones[i].name);
        }
        fputs("]}", out);
    } else {
        fputs("null", out);
    }
    fputs(",\"meshes\":[", out);
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const ossa_mesh *me = &m->meshes[i];
        fputs(i ? ",{\"name\":" : "{\"name\":", out);
        ossa_cli_json_string(out, me->name);
        fputs(",\"format\":", out);
        ossa_cli_json_string(out, ossa_format_name(me->format));
        fprintf(out, ",\"version\":%u,\"submeshes\":[", me->version);
        for (uint32_t s = 0; s < me->submesh_count; s++) {
            const ossa_submesh *sm = &me->submeshes[s];
            fprintf(out, "%s{\"vertices\":%u,\"faces\":%u,\"max_influences\":%u,\"material\":%d,"
                         "\"uv_sets\":%u,\"springs\":%u,\"morph_targets\":%u,\"colors\":%s}",
                    s ? "," : "", sm->vertex_count, sm->face_count, sm->max_influences,
                    sm->material, sm->uv_set_count, sm->spring_count, sm->morph_count,
                    sm->colors ? "true" : "false");
        }
        fputs("]}", out);
    }
    fputs("],\"clips\":[", out);
    for (uint32_t i = 0; i < m->clip_count; i++) {
        const ossa_clip *c = &m->clips[i];
        fputs(i ? ",{\"name\":" : "{\"name\":", out);
        ossa_cli_json_string(out, c->name);
        fputs(",\"format\":", out);
        ossa_cli_json_string(out, ossa_format_name(c->format));
        fprintf(out, ",\"version\":%u,\"duration\":%.9g,\"tracks\":%u,\"keys\":%llu,"
                     "\"compressed\":%s}",
                c->version, (double)c->duration, c->track_count,
                (unsigned long long)clip_keys(c), c->compressed ? "true" : "false");
    }
    fputs("],\"morph_clips\":[", out);
    for (uint32_t i = 0; i < m->morph_clip_count; i++) {
        const ossa_morph_clip *c = &m->morph_clips[i];
        fputs(i ? ",{\"name\":" : "{\"name\":", out);
        ossa_cli_json_string(out, c->name);
        fputs(",\"format\":", out);
        ossa_cli_json_string(out, ossa_format_name(c->format));
        fprintf(out, ",\"version\":%u,\"duration\":%.9g,\"tracks\":%u}", c->version,
                (double)c->duration, c->track_count);
    }
    fputs("],\"materials\":[", out);
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ossa_material *mt = &m->materials[i];
        fputs(i ? ",{\"name\":" : "{\"name\":", out);
        ossa_cli_json_string(out, mt->name);
        fputs(",\"format\":", out);
        ossa_cli_json_string(out, ossa_format_name(mt->format));
        fprintf(out, ",\"version\":%u,\"diffuse\":[%.6g,%.6g,%.6g,%.6g],\"shininess\":%.9g,"
                     "\"maps\":[",
                mt->version, (double)mt->diffuse[0], (double)mt->diffuse[1],
                (double)mt->diffuse[2], (double)mt->diffuse[3], (double)mt->shininess);
        for (uint32_t k = 0; k < mt->map_count; k++) {
            if (k)
                fputc(',', out);
            ossa_cli_json_string(out, mt->maps[k].file);
        }
        fputs("]}", out);
    }
    fputs("],\"warnings\":[", out);
    for (uint32_t i = 0; i < m->warning_count; i++) {
        if (i)
            fputc(',', out);
        ossa_cli_json_string(out, m->warnings[i]);
    }
    fputs("]}\n", out);
}

int ossa_cmd_info(int argc, char **argv)
{
    int json = 0;
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t count = 0;
    if (!files)
        return 1;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (ossa_cli_take_file("info", argv[i], files, &count)) {
            free(files);
            return 2;
        }
    }
    int status;
    ossa_model *m = ossa_cli_load_args("ossa info FILE... [--json]", files, count, &status);
    if (!m)
        return status;
    if (json)
        print_json(stdout, m);
    else
        print_text(stdout, m);
    ossa_model_free(m);
    return 0;
}
