/* ossa_export_gltf: builds the document (scene.c, mesh.c, material.c, anim.c, anim_morph.c),
 * reports what glTF cannot hold, and writes the files (doc.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "gltf_internal.h"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcasecmp(s + n - k, suffix);
}

static float model_size(const ossa_model *m)
{
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                for (int k = 0; k < 3; k++) {
                    float x = sm->positions[3 * v + k];
                    lo[k] = x < lo[k] ? x : lo[k];
                    hi[k] = x > hi[k] ? x : hi[k];
                }
        }
    if (!(hi[0] >= lo[0]))
        return 0.0f;
    float d2 = 0.0f;
    for (int k = 0; k < 3; k++)
        d2 += (hi[k] - lo[k]) * (hi[k] - lo[k]);
    return sqrtf(d2);
}

/* What glTF's linear blend skinning cannot say exactly, with how far the export is off. */
static void model_checks(gltf_ctx *c)
{
    const ossa_model *m = c->m;
    double pct = c->model_size > 0.0f ? 100.0 / c->model_size : 0.0;
    bool points = false; /* per-influence points: gltf_mesh.c reports each mesh's exact figure */
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t k = 0; k < m->meshes[i].submesh_count; k++)
            points |= m->meshes[i].submeshes[k].influence_points != NULL;
    if (!points && m->bind_disagreement > 1e-5f * c->model_size) /* above float noise */
        ossa_gltf_warn(c, "the per-influence offsets of the %s file disagree with the single bind "
                  "vertex by up to %.3g (%.2g%% of the model's size): exported as linear blend "
                  "skinning of the bind vertex, as Ossa skins it",
                  ossa_format_name(m->format), (double)m->bind_disagreement,
                  (double)m->bind_disagreement * pct);
    uint32_t spring_vertices = 0, springs = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            if (!sm->spring_count)
                continue;
            springs += sm->spring_count;
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                spring_vertices += sm->physique_weights && sm->physique_weights[v] > 0.0f;
        }
    if (springs) {
        double gap = ossa_gltf_spring_gap(c);
        if (gap >= 0.0)
            ossa_gltf_warn(c, "%u Cal3D springs (cloth) not exported: their %u vertices follow the "
                      "skin (linear blend skinning); Cal3D's cloth takes them up to %.3g from it "
                      "(%.2g%% of the model's size; at rest and over each clip at %g fps)",
                      springs, spring_vertices, gap, gap * pct, (double)c->opt.fps);
        else
            ossa_gltf_warn(c, "%u Cal3D springs (cloth) not exported: their %u vertices follow the "
                      "skin (linear blend skinning)", springs, spring_vertices);
    }
}

static void ctx_free(gltf_ctx *c)
{
    json_decref(c->root);
    json_decref(c->texture_cache);
    ossa_wbuf_free(&c->bin);
    for (size_t i = 0; i < c->side_count; i++) {
        free(c->side[i].name);
        free(c->side[i].data);
    }
    free(c->side);
    free(c->mesh_node);
    free(c->mesh_rigid_bone);
    if (c->targets)
        for (uint32_t i = 0; i < c->m->mesh_count; i++) {
            free(c->targets[i].names);
            free(c->targets[i].frame_first);
        }
    free(c->targets);
    free(c->material_index);
}

/* Puts the non-empty arrays into the document (glTF forbids empty ones). */
static void attach(gltf_ctx *c, const char *key, json_t *array)
{
    if (json_array_size(array))
        ossa_gltf_set(c, c->root, key, json_incref(array));
}

static void buffer(gltf_ctx *c)
{
    if (c->glb || !c->bin.size)
        return; /* the GLB's buffer is added when it is written */
    json_t *b = json_pack("{s:I}", "byteLength", (json_int_t)c->bin.size);
    if (c->opt.embed) {
        char *uri = ossa_gltf_base64_uri("application/octet-stream", c->bin.data, c->bin.size);
        ossa_gltf_set(c, b, "uri", uri ? json_string(uri) : NULL);
        free(uri);
    } else {
        const char *base = strrchr(c->path, '/') ? strrchr(c->path, '/') + 1 : c->path;
        size_t n = strlen(base);
        char *name = malloc(n + 5);
        if (name) {
            memcpy(name, base, n + 1);
            char *dot = strrchr(name, '.');
            strcpy(dot && dot != name ? dot : name + n, ".bin");
            ossa_gltf_add_side_file(c, name, c->bin.data, c->bin.size);
            ossa_gltf_set(c, b, "uri", ossa_gltf_text(name));
        } else {
            c->failed = true;
        }
        free(name);
    }
    ossa_gltf_push(c, json_object_get(c->root, "buffers"), b);
}

/* One export: to path (a .glb or .gltf and its side files), or with sink to a .glb stream. */
static ossa_status export_model(const ossa_model *m, const char *path, bool glb,
                                ossa_export_write_fn sink, void *sink_user,
                                const ossa_export_options *opt, ossa_error *err)
{
    /* Every index the export follows is trusted only after validation. */
    ossa_error verr;
    ossa_error_clear(&verr);
    ossa_status valid = ossa_model_validate(m, &verr);
    if (valid != OSSA_OK)
        return ossa_write_fail(err, valid, path, "the model is not valid: %s", verr.message);
    gltf_ctx c = {.m = m, .err = err, .path = path, .sink = sink, .sink_user = sink_user,
                  .glb = glb, .skin = -1, .extra_joint = -1};
    if (opt)
        c.opt = *opt;
    if (!(c.opt.fps > 0.0f) || !isfinite(c.opt.fps))
        c.opt.fps = 30.0f;
    c.default_material[0] = c.default_material[1] = -1;
    c.model_size = model_size(m);
    c.root = json_object();
    c.texture_cache = json_object();
    c.nodes = json_array();
    c.meshes = json_array();
    c.accessors = json_array();
    c.views = json_array();
    c.animations = json_array();
    c.materials = json_array();
    c.textures = json_array();
    c.images = json_array();
    c.samplers = json_array();
    c.skins = json_array();
    c.scene_nodes = json_array();
    size_t meshes = m->mesh_count ? m->mesh_count : 1;
    c.mesh_node = malloc(meshes * sizeof *c.mesh_node);
    c.mesh_rigid_bone = malloc(meshes * sizeof *c.mesh_rigid_bone);
    c.targets = calloc(meshes, sizeof *c.targets);
    c.material_index = malloc(2 * (m->material_count ? m->material_count : 1) * sizeof(int32_t));
    json_t *arrays[] = {c.nodes, c.meshes, c.accessors, c.views, c.animations, c.materials,
                        c.textures, c.images, c.samplers, c.skins, c.scene_nodes};
    bool ok = c.root && c.texture_cache && c.mesh_node && c.mesh_rigid_bone && c.targets &&
              c.material_index;
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        ok = ok && arrays[i];
    ossa_status st = OSSA_OK;
    if (!ok) {
        st = ossa_write_fail(err, OSSA_ERR_NOMEM, path, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < m->mesh_count; i++)
        c.mesh_node[i] = c.mesh_rigid_bone[i] = -1;
    for (uint32_t i = 0; i < 2 * m->material_count; i++)
        c.material_index[i] = -1;

    ossa_gltf_set(&c, c.root, "asset",
             json_pack("{s:s, s:s, s:{s:s, s:s}}", "version", "2.0", "generator",
                       "Ossa (ossa_export_gltf)", "extras", "ossa_source_format",
                       ossa_format_name(m->format), "ossa_source_up",
                       ossa_export_source_up(m, &c.opt) == OSSA_EXPORT_UP_Z ? "z" : "y"));
    ossa_gltf_set(&c, c.root, "buffers", json_array());
    ossa_gltf_nodes(&c);
    ossa_gltf_meshes(&c);
    ossa_gltf_animations(&c);
    ossa_gltf_morph_animations(&c);
    model_checks(&c);
    buffer(&c);
    if (json_array_size(json_object_get(c.root, "buffers")) == 0 && (!glb || !c.bin.size))
        json_object_del(c.root, "buffers");
    ossa_gltf_set(&c, c.root, "scene", json_integer(0));
    const char *scene = m->source && *m->source ? m->source : "ossa";
    scene = strrchr(scene, '/') ? strrchr(scene, '/') + 1 : scene;
    ossa_gltf_set(&c, c.root, "scenes",
             json_pack("[{s:o, s:O}]", "name", ossa_gltf_text(scene), "nodes", c.scene_nodes));
    if (json_array_size(c.scene_nodes) == 0)
        json_object_del(json_array_get(json_object_get(c.root, "scenes"), 0), "nodes");
    attach(&c, "nodes", c.nodes);
    attach(&c, "meshes", c.meshes);
    attach(&c, "skins", c.skins);
    attach(&c, "animations", c.animations);
    attach(&c, "materials", c.materials);
    attach(&c, "textures", c.textures);
    attach(&c, "images", c.images);
    attach(&c, "samplers", c.samplers);
    attach(&c, "accessors", c.accessors);
    attach(&c, "bufferViews", c.views);
    st = ossa_gltf_write_files(&c);
done:
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        json_decref(arrays[i]);
    ctx_free(&c);
    return st;
}

ossa_status ossa_export_gltf(const ossa_model *m, const char *path,
                             const ossa_export_options *opt, ossa_error *err)
{
    ossa_error_clear(err);
    if (!m || !path)
        return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, path ? path : "",
                               "no model or no path");
    bool glb = ends_with(path, ".glb");
    if (!glb && !ends_with(path, ".gltf"))
        return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, path,
                               "the output must end in .glb or .gltf");
    return export_model(m, path, glb, NULL, NULL, opt, err);
}

ossa_status ossa_export_glb_stream(const ossa_model *m, const ossa_export_options *opt,
                                   ossa_export_write_fn write, void *user, ossa_error *err)
{
    ossa_error_clear(err);
    if (!m || !write)
        return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, "(stream)",
                               "no model or no write function");
    return export_model(m, "(stream)", true, write, user, opt, err);
}
