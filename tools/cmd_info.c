/* ossa info: what a model holds, as text or JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "ossa/export.h"
#include "ossa/load.h"

ossa_model *ossa_cli_load(const char *const *files, size_t count, const ossa_load_options *opt)
{
    ossa_model *m = NULL;
    ossa_error err;
    if (ossa_load_files(files, count, opt, &m, &err) != OSSA_OK) {
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

int ossa_cli_load_option(const char *cmd, int argc, char **argv, int *i, ossa_load_options *opt)
{
    if (strcmp(argv[*i], "--allow-outside") == 0) {
        opt->allow_outside = true;
        return 1;
    }
    if (strcmp(argv[*i], "--frame-rate") != 0)
        return 0;
    char *end = NULL;
    float fps = *i + 1 < argc ? strtof(argv[*i + 1], &end) : 0.0f;
    if (!end || end == argv[*i + 1] || *end || !(fps >= 0.01f && fps <= 10000.0f)) {
        fprintf(stderr, "ossa %s: --frame-rate needs frames per second in 0.01..10000\n", cmd);
        return 2;
    }
    opt->frame_rate = fps;
    *i += 1;
    return 1;
}

int ossa_cli_scale_option(const char *cmd, int argc, char **argv, int *i, ossa_load_options *opt)
{
    static const struct { const char *name; double metres; } units[] = {
        {"m", 1.0}, {"cm", 0.01}, {"mm", 0.001}, {"in", 0.0254}, {"ft", 0.3048}};
    bool is_scale = strcmp(argv[*i], "--scale") == 0, is_units = strcmp(argv[*i], "--units") == 0;
    if (!is_scale && !is_units)
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "ossa %s: %s needs a value\n", cmd, argv[*i]);
        return 2;
    }
    const char *v = argv[++*i];
    double f = 0.0;
    if (is_scale) {
        char *end;
        f = strtod(v, &end);
        if (end == v || *end || !(f >= 1e-6 && f <= 1e6)) {
            fprintf(stderr, "ossa %s: --scale needs a factor in 0.000001..1000000, not '%s'\n",
                    cmd, v);
            return 2;
        }
    } else {
        for (size_t k = 0; k < sizeof units / sizeof units[0]; k++)
            if (strcmp(v, units[k].name) == 0)
                f = units[k].metres;
        if (f == 0.0) {
            fprintf(stderr, "ossa %s: --units takes m, cm, mm, in or ft (the source's unit; "
                            "the output is in metres), not '%s'\n", cmd, v);
            return 2;
        }
    }
    opt->scale = (float)((opt->scale > 0.0f ? opt->scale : 1.0) * f);
    return 1;
}

ossa_model *ossa_cli_load_args(const char *usage, const char **files, size_t count,
                               const ossa_load_options *opt, int *status)
{
    ossa_model *m = NULL;
    if (!count) {
        fprintf(stderr, "usage: %s\n", usage);
        *status = 2;
    } else {
        m = ossa_cli_load(files, count, opt);
        *status = m ? 0 : 1;
    }
    free(files);
    return m;
}

/* The bind pose's extent (the meshes as stored) and its height along the up axis export
 * assumes (ossa_export_source_up): what `--units` or `--scale` should bring to metres. False
 * when there is no vertex. */
static bool bind_extent(const ossa_model *m, double extent[3], double *height, char *up)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            for (size_t k = 0; k < 3 * (size_t)sm->vertex_count; k++) {
                double x = sm->positions[k];
                lo[k % 3] = x < lo[k % 3] ? x : lo[k % 3];
                hi[k % 3] = x > hi[k % 3] ? x : hi[k % 3];
            }
        }
    if (!(hi[0] >= lo[0]))
        return false;
    for (int k = 0; k < 3; k++)
        extent[k] = hi[k] - lo[k];
    bool z = ossa_export_source_up(m, NULL) == OSSA_EXPORT_UP_Z;
    *height = extent[z ? 2 : 1];
    *up = z ? 'z' : 'y';
    return true;
}

double ossa_cli_json_round6(double v)
{
    char text[32];
    snprintf(text, sizeof text, "%.6g", v);
    return strtod(text, NULL);
}

json_t *ossa_cli_json_num(double v)
{
    return isfinite(v) ? json_real(ossa_cli_json_round6(v)) : json_null();
}

void ossa_cli_json_print(FILE *out, json_t *doc, bool indent)
{
    if (doc) {
        json_dumpf(doc, out, (indent ? JSON_INDENT(2) : JSON_COMPACT) | JSON_REAL_PRECISION(9) |
                                 JSON_ENSURE_ASCII);
        fputc('\n', out);
    }
    json_decref(doc);
}

static uint64_t clip_keys(const ossa_clip *c)
{
    uint64_t keys = 0;
    for (uint32_t t = 0; t < c->track_count; t++)
        keys += c->tracks[t].key_count;
    return keys;
}

/* CFF: each frame's seventh value (docs/FORMATS.md, D11), the first few per track. */
static void print_frame_values(FILE *out, const ossa_model *m, const ossa_clip *c)
{
    for (uint32_t t = 0; t < c->track_count; t++) {
        const ossa_track *tr = &c->tracks[t];
        if (!tr->extra)
            continue;
        fprintf(out, "    frame values, bone '%s':", tr->bone < m->bone_count ?
                m->bones[tr->bone].name : "?");
        for (uint32_t k = 0; k < tr->key_count && k < 8; k++)
            fprintf(out, " %g", (double)tr->extra[k]);
        if (tr->key_count > 8)
            fprintf(out, " ... (%u in all)", tr->key_count);
        fputc('\n', out);
    }
}

/* --cff-half: a CFF file's vertex positions under both readings of docs/FORMATS.md, D8. */
static int print_cff_half(FILE *out, const char *path)
{
    /* The library's reading, as the loaders': a regular file only, at most 1 GiB. */
    uint8_t *data = NULL;
    size_t size = 0;
    ossa_error read_err;
    if (ossa_file_read(path, 0, &data, &size, &read_err) != OSSA_OK) {
        char text[1024];
        fprintf(stderr, "ossa: %s\n", ossa_error_format(&read_err, text, sizeof text));
        return 1;
    }
    ossa_cff_position_reading as_int, as_half;
    ossa_error err;
    if (ossa_cff_position_readings(data, size, path, &as_int, &as_half, &err)) {
        char text[1024];
        fprintf(stderr, "ossa: %s\n", ossa_error_format(&err, text, sizeof text));
        ossa_file_free(data);
        return 1;
    }
    ossa_file_free(data);
    const ossa_cff_position_reading *r[2] = {&as_int, &as_half};
    const char *how[2] = {"16-bit integers x scale + origin (used)", "half floats (not used)"};
    fprintf(out, "cff positions of %s, mesh-local:\n", path);
    for (int i = 0; i < 2; i++)
        fprintf(out, "  as %s: %llu vertices, %llu not finite, x %g..%g, y %g..%g, z %g..%g\n",
                how[i], (unsigned long long)r[i]->vertices, (unsigned long long)r[i]->non_finite,
                (double)r[i]->min[0], (double)r[i]->max[0], (double)r[i]->min[1],
                (double)r[i]->max[1], (double)r[i]->min[2], (double)r[i]->max[2]);
    return 0;
}

/* A C3S scene model's counts as in the file beside what is rendered: its visible mesh and the
 * hidden mesh the reader pushes right after it (same model), vertices split at texture seams. */
static void print_file_counts(FILE *out, const ossa_model *m, uint32_t i)
{
    uint64_t vertices = 0, faces = 0;
    uint32_t last = i;
    if (i + 1 < m->mesh_count && m->meshes[i + 1].flags & OSSA_MESH_HIDDEN &&
        m->meshes[i + 1].format == OSSA_FORMAT_C3S && !m->meshes[i + 1].file_vertex_count)
        last = i + 1;
    for (uint32_t j = i; j <= last; j++)
        for (uint32_t s = 0; s < m->meshes[j].submesh_count; s++) {
            vertices += m->meshes[j].submeshes[s].vertex_count;
            faces += m->meshes[j].submeshes[s].face_count;
        }
    fprintf(out, "    model in the file: vertices %u, faces %u; rendered: vertices %llu, faces %llu "
                 "(split at texture seams, disabled faces dropped)\n",
            m->meshes[i].file_vertex_count, m->meshes[i].file_face_count,
            (unsigned long long)vertices, (unsigned long long)faces);
}

/* The Cal3D lineage of a binary 1300/1301 skeleton or mesh (told from its data), else NULL. */
static const char *lineage_of(ossa_format format, uint32_t version, ossa_cal3d_lineage lineage)
{
    if ((format != OSSA_FORMAT_CSF && format != OSSA_FORMAT_CMF) || version < 1300)
        return NULL;
    return ossa_cal3d_lineage_name(lineage);
}

static json_t *json_lineage(const char *lineage)
{
    return lineage ? json_string(lineage) : json_null();
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
    if (m->bone_count) {
        const char *lineage = lineage_of(m->skeleton_format, m->skeleton_version,
                                         m->skeleton_lineage);
        fprintf(out, " (%s v%u", ossa_format_name(m->skeleton_format), m->skeleton_version);
        if (lineage)
            fprintf(out, ", %s %u", lineage, m->skeleton_version);
        fputc(')', out);
    }
    fputc('\n', out);
    if (m->format == OSSA_FORMAT_SKM || m->format == OSSA_FORMAT_C3S ||
        m->bind_disagreement > 0.0f)
        fprintf(out, "bind disagreement: %g (largest distance between the position one "
                     "influence implies and the vertex's one bind position: how far skinning one "
                     "bind vertex would be off; submeshes marked 'exact' avoid it)\n",
                (double)m->bind_disagreement);
    if (m->has_scene_ambient)
        fprintf(out, "scene ambient: %g %g %g\n", (double)m->scene_ambient[0],
                (double)m->scene_ambient[1], (double)m->scene_ambient[2]);
    fprintf(out, "meshes: %u\n", m->mesh_count);
    double extent[3], height;
    char up;
    if (bind_extent(m, extent, &height, &up))
        fprintf(out, "bind pose: height %.4g along %c (export's up axis), extent %.4g x %.4g x "
                     "%.4g\n", height, up, extent[0], extent[1], extent[2]);
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const ossa_mesh *me = &m->meshes[i];
        const char *lineage = lineage_of(me->format, me->version, me->lineage);
        fprintf(out, "  mesh %u '%s' (%s v%u", i, me->name, ossa_format_name(me->format),
                me->version);
        if (lineage)
            fprintf(out, ", %s %u", lineage, me->version);
        fprintf(out, "): %u submeshes%s\n", me->submesh_count,
                me->flags & OSSA_MESH_HIDDEN ? ", hidden" : "");
        if (me->file_vertex_count || me->file_face_count)
            print_file_counts(out, m, i);
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
            if (sm->frame_count) /* C3S extras: vertex and uv frames, sidedness */
                fprintf(out, ", vertex frames %u", sm->frame_count);
            if (sm->uv_frame_count)
                fprintf(out, ", uv frames %u", sm->uv_frame_count);
            if (sm->flags & OSSA_SUBMESH_TWO_SIDED)
                fprintf(out, ", two-sided");
            if (sm->influence_points) /* C3S, SKM: which skinning path the runtime takes */
                fprintf(out, ", %s", ossa_skin_submesh_exact(sm)
                                         ? "skinned exactly (per-influence points)"
                                         : "per-influence points agree (blend path)");
            fputc('\n', out);
        }
    }
    fprintf(out, "clips: %u\n", m->clip_count);
    for (uint32_t i = 0; i < m->clip_count; i++) {
        const ossa_clip *c = &m->clips[i];
        fprintf(out, "  clip %u '%s' (%s v%u%s): duration %.3f s, tracks %u, keys %llu\n", i,
                c->name, ossa_format_name(c->format), c->version, c->compressed ? ", compressed" : "",
                (double)c->duration, c->track_count, (unsigned long long)clip_keys(c));
        print_frame_values(out, m, c);
        if (c->frame_rate > 0.0f || c->vertex_track_count || c->uv_track_count ||
            c->trigger_count || c->link_count) { /* C3S sequences */
            fprintf(out, "    %g frames/s, vertex tracks %u, uv tracks %u, triggers %u",
                    (double)c->frame_rate, c->vertex_track_count, c->uv_track_count,
                    c->trigger_count);
            for (uint32_t t = 0; t < c->trigger_count; t++)
                fprintf(out, "%s%.3f s '%s'", t ? ", " : ": ", (double)c->triggers[t].time,
                        c->triggers[t].name);
            for (uint32_t l = 0; l < c->link_count; l++)
                fprintf(out, "%s%u", l ? ", " : "; linked clips ", c->links[l]);
            if (c->group && c->group[0])
                fprintf(out, "; group '%s'", c->group);
            fputc('\n', out);
        }
    }
    if (m->mount_count) {
        fprintf(out, "mounts: %u\n", m->mount_count);
        for (uint32_t i = 0; i < m->mount_count; i++) {
            const ossa_mount *mo = &m->mounts[i];
            fprintf(out, "  mount %u '%s': mesh %u submesh %u face %u, barycentric %g %g %g\n", i,
                    mo->name, mo->mesh, mo->submesh, mo->face, (double)mo->barycentric[0],
                    (double)mo->barycentric[1], (double)mo->barycentric[2]);
        }
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
        for (uint32_t k = 0; k < mt->property_count; k++) /* osgCal's settings */
            fprintf(out, "%s%s=%s", k ? ", " : "; properties: ", mt->properties[k].key,
                    mt->properties[k].value);
        fputc('\n', out);
    }
    fprintf(out, "warnings: %u\n", m->warning_count);
    for (uint32_t i = 0; i < m->warning_count; i++)
        fprintf(out, "  %s\n", m->warnings[i]);
}

/* The model as one JSON document, built with jansson (the CLI's one JSON writer). */
static void print_json(FILE *out, const ossa_model *m)
{
    json_t *doc = json_pack("{s:o, s:s, s:i, s:f, s:i}", "file", ossa_cli_json_text(m->source),
                            "format", ossa_format_name(m->format), "version",
                            (json_int_t)m->version, "scale", (double)m->scale, "bones",
                            (json_int_t)m->bone_count);
    if (!doc)
        return;
    json_t *skeleton = json_null();
    if (m->bone_count) {
        json_t *names = json_array();
        for (uint32_t i = 0; i < m->bone_count; i++)
            json_array_append_new(names, ossa_cli_json_text(m->bones[i].name));
        skeleton = json_pack("{s:s, s:i, s:o, s:o}", "format",
                             ossa_format_name(m->skeleton_format), "version",
                             (json_int_t)m->skeleton_version, "lineage",
                             json_lineage(lineage_of(m->skeleton_format, m->skeleton_version,
                                                     m->skeleton_lineage)),
                             "names", names);
    }
    json_object_set_new(doc, "skeleton", skeleton);
    json_object_set_new(doc, "bind_disagreement", json_real((double)m->bind_disagreement));
    json_t *meshes = json_array();
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const ossa_mesh *me = &m->meshes[i];
        json_t *mesh = json_pack("{s:o, s:s, s:i, s:o}", "name", ossa_cli_json_text(me->name),
                                 "format", ossa_format_name(me->format), "version",
                                 (json_int_t)me->version, "lineage",
                                 json_lineage(lineage_of(me->format, me->version, me->lineage)));
        if (me->file_vertex_count || me->file_face_count) {
            json_object_set_new(mesh, "file_vertices", json_integer(me->file_vertex_count));
            json_object_set_new(mesh, "file_faces", json_integer(me->file_face_count));
        }
        json_t *subs = json_array();
        for (uint32_t k = 0; k < me->submesh_count; k++) {
            const ossa_submesh *sm = &me->submeshes[k];
            json_array_append_new(subs, json_pack(
                "{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:b, s:b}", "vertices",
                (json_int_t)sm->vertex_count, "faces", (json_int_t)sm->face_count,
                "max_influences", (json_int_t)sm->max_influences, "material",
                (json_int_t)sm->material, "uv_sets", (json_int_t)sm->uv_set_count, "springs",
                (json_int_t)sm->spring_count, "morph_targets", (json_int_t)sm->morph_count,
                "colors", sm->colors != NULL, "exact_skinning", ossa_skin_submesh_exact(sm) != 0));
        }
        json_object_set_new(mesh, "submeshes", subs);
        json_array_append_new(meshes, mesh);
    }
    json_object_set_new(doc, "meshes", meshes);
    double extent[3], height;
    char up[2] = {0, 0};
    if (bind_extent(m, extent, &height, &up[0]))
        json_object_set_new(doc, "bind_pose", json_pack("{s:o, s:s, s:[o,o,o]}", "height",
                            ossa_cli_json_num(height), "up", up, "extent",
                            ossa_cli_json_num(extent[0]), ossa_cli_json_num(extent[1]),
                            ossa_cli_json_num(extent[2])));
    json_t *clips = json_array();
    for (uint32_t i = 0; i < m->clip_count; i++) {
        const ossa_clip *c = &m->clips[i];
        json_array_append_new(clips, json_pack(
            "{s:o, s:s, s:i, s:f, s:i, s:I, s:b}", "name", ossa_cli_json_text(c->name), "format",
            ossa_format_name(c->format), "version", (json_int_t)c->version, "duration",
            (double)c->duration, "tracks", (json_int_t)c->track_count, "keys",
            (json_int_t)clip_keys(c), "compressed", c->compressed != 0));
    }
    json_object_set_new(doc, "clips", clips);
    json_t *morph_clips = json_array();
    for (uint32_t i = 0; i < m->morph_clip_count; i++) {
        const ossa_morph_clip *c = &m->morph_clips[i];
        json_array_append_new(morph_clips, json_pack(
            "{s:o, s:s, s:i, s:f, s:i}", "name", ossa_cli_json_text(c->name), "format",
            ossa_format_name(c->format),
            "version", (json_int_t)c->version, "duration", (double)c->duration,
            "tracks", (json_int_t)c->track_count));
    }
    json_object_set_new(doc, "morph_clips", morph_clips);
    json_t *materials = json_array();
    for (uint32_t i = 0; i < m->material_count; i++) {
        const ossa_material *mt = &m->materials[i];
        json_t *maps = json_array();
        for (uint32_t k = 0; k < mt->map_count; k++)
            json_array_append_new(maps, ossa_cli_json_text(mt->maps[k].file));
        json_t *props = json_object();
        for (uint32_t k = 0; k < mt->property_count; k++)
            json_object_set_new(props, mt->properties[k].key,
                                ossa_cli_json_text(mt->properties[k].value));
        /* colours to 6 digits, as they always were printed */
        json_array_append_new(materials, json_pack(
            "{s:o, s:s, s:i, s:[f,f,f,f], s:f, s:o}", "name", ossa_cli_json_text(mt->name),
            "format",
            ossa_format_name(mt->format), "version", (json_int_t)mt->version, "diffuse",
            ossa_cli_json_round6(mt->diffuse[0]), ossa_cli_json_round6(mt->diffuse[1]),
            ossa_cli_json_round6(mt->diffuse[2]), ossa_cli_json_round6(mt->diffuse[3]),
            "shininess", (double)mt->shininess, "maps", maps));
        json_object_set_new(json_array_get(materials, json_array_size(materials) - 1),
                            "properties", props);
    }
    json_object_set_new(doc, "materials", materials);
    json_t *warnings = json_array();
    for (uint32_t i = 0; i < m->warning_count; i++)
        json_array_append_new(warnings, ossa_cli_json_text(m->warnings[i]));
    json_object_set_new(doc, "warnings", warnings);
    ossa_cli_json_print(out, doc, false);
}

int ossa_cmd_info(int argc, char **argv)
{
    int json = 0, cff_half = 0, taken;
    /* info shows what reads: a damaged file of a set is listed among the warnings. */
    ossa_load_options opt = {.skip_bad_files = true};
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t count = 0;
    if (!files)
        return 1;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--cff-half")) {
            cff_half = 1;
        } else if ((taken = ossa_cli_load_option("info", argc, argv, &i, &opt)) != 0) {
            if (taken == 2) {
                free(files);
                return 2;
            }
        } else if (ossa_cli_take_file("info", argv[i], files, &count)) {
            free(files);
            return 2;
        }
    }
    int status;
    ossa_model *m = ossa_cli_load_args("ossa info FILE... [--json] [--cff-half] " OSSA_CLI_LOAD_USAGE,
                                       files, count, &opt, &status);
    if (!m)
        return status;
    if (json) {
        print_json(stdout, m);
    } else {
        /* Through a buffer, so that names from the file reach the terminal made safe. */
        char *text = NULL;
        size_t size = 0;
        FILE *mem = open_memstream(&text, &size);
        if (mem) {
            print_text(mem, m);
            fclose(mem);
            ossa_cli_write_text(stdout, text, size);
            free(text);
        } else {
            fprintf(stderr, "ossa info: out of memory\n");
            status = 1;
        }
    }
    ossa_model_destroy(m);
    int half_status = status;
    for (int i = 0; i < argc && cff_half; i++) /* the files again: files[] is freed by now */
        if (argv[i][0] != '-' && ossa_sniff("", 0, argv[i]) == OSSA_FORMAT_CFF)
            half_status |= print_cff_half(json ? stderr : stdout, argv[i]);
    return half_status;
}
