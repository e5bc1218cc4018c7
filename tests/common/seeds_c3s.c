/* C3S seeds written by the engine's own writer from a tiny model made here: one file with bone
 * weights and ASEQ bone keys, one with the clips baked into vertex frames (VFRM). Both carry the
 * sequence triggers of "bend" (a TRIG string and a raw command) and a surface mount (SMNT) on
 * the quad, so the fuzzers start inside those parsers too. The model is
 * small on purpose (two bones, a four-vertex quad, a few keys at 4 frames per second) so that
 * the malformed suite's truncations and flips over every byte stay quick. */
#include "seeds_c3s.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ossa/load.h"
#include "ossa/write.h"

static const float quad_positions[12] = {-1, 0, 0, 1, 0, 0, 1, 1, 0, -1, 1, 0};
static const float quad_normals[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
static const float quad_uvs[8] = {0, 0, 1, 0, 1, 1, 0, 1};
static const uint32_t quad_indices[6] = {0, 1, 2, 0, 2, 3};
/* Vertices 0 and 3 follow the root only; 1 and 2 are shared with the arm. */
static const uint32_t quad_influence_start[5] = {0, 1, 3, 5, 6};

static const float still_times[1] = {0};
static const float still_t[3] = {0, 0, 0};
static const float still_r[4] = {0, 0, 0, 1};
static const float bend_times[2] = {0, 0.5f};
static const float bend_t[6] = {1, 0, 0, 1, 0, 0};
/* Identity, then about 37 degrees around Z. */
static const float bend_r[8] = {0, 0, 0, 1, 0, 0, 0.316228f, 0.948683f};
static const float lift_times[2] = {0, 0.25f};
static const float lift_t[6] = {0, 0, 0, 0, 0.5f, 0};
static const float lift_r[8] = {0, 0, 0, 1, 0, 0, 0, 1};
/* Parameters of the raw trigger: not a TRIG, so kept as bytes. */
static const uint8_t thud_params[2] = {7, 0};

void fuzz_tiny_model_make(fuzz_tiny_model *t, bool with_clips)
{
    memset(t, 0, sizeof *t);
    for (int b = 0; b < 2; b++) {
        ossa_bone *bone = &t->bones[b];
        bone->name = b ? "arm" : "hips";
        bone->parent = b ? 0 : -1;
        bone->source_index = (uint32_t)b;
        bone->rest_t[0] = b ? 1.0f : 0.0f;
        bone->rest_r[3] = 1.0f;
        bone->inv_bind_r[3] = 1.0f;
        bone->inv_bind_t[0] = b ? -1.0f : 0.0f;
        for (int k = 0; k < 3; k++)
            bone->rest_s[k] = 1.0f;
    }
    t->root_children[0] = 1;
    t->bones[0].child_count = 1;
    t->bones[0].children = t->root_children;

    static const ossa_influence influences[6] = {{0, 1.0f}, {0, 0.25f}, {1, 0.75f},
                                                 {0, 0.25f}, {1, 0.75f}, {0, 1.0f}};
    memcpy(t->influences, influences, sizeof influences);
    ossa_submesh *sm = &t->submesh;
    sm->material = 0;
    sm->vertex_count = 4;
    sm->face_count = 2;
    sm->uv_set_count = 1;
    sm->lod_count = 1;
    sm->max_influences = 2;
    sm->positions = quad_positions;
    sm->normals = quad_normals;
    sm->uvs = quad_uvs;
    sm->influence_start = quad_influence_start;
    sm->influences = t->influences;
    sm->indices = quad_indices;
    t->mesh.name = "flag";
    t->mesh.submesh_count = 1;
    t->mesh.submeshes = sm;

    t->map.file = "flag.tga";
    t->map.path = "flag.tga";
    t->map.type = "";
    ossa_material *mat = &t->material;
    mat->name = "cloth";
    for (int k = 0; k < 4; k++) {
        mat->ambient[k] = k == 3 ? 1.0f : 0.2f;
        mat->diffuse[k] = k == 3 ? 1.0f : 0.8f;
        mat->specular[k] = k == 3 ? 1.0f : 0.1f;
    }
    mat->shininess = 10.0f;
    mat->map_count = 1;
    mat->maps = &t->map;

    const ossa_track tracks[3] = {
        {.bone = 0, .key_count = 1, .times = still_times, .translations = still_t,
         .rotations = still_r},
        {.bone = 1, .key_count = 2, .times = bend_times, .translations = bend_t,
         .rotations = bend_r},
        {.bone = 0, .key_count = 2, .times = lift_times, .translations = lift_t,
         .rotations = lift_r}};
    memcpy(t->tracks, tracks, sizeof tracks);
    /* Times at a quarter and three quarters of the clip: exact in the file's 0..1 fractions. */
    t->triggers[0] = (ossa_clip_trigger){.time = 0.125f, .name = "step"};
    t->triggers[1] = (ossa_clip_trigger){.time = 0.375f, .command = FUZZ_C3S_RAW_COMMAND,
                                         .name = "", .param_size = sizeof thud_params,
                                         .params = thud_params};
    t->clips[0] = (ossa_clip){.name = "bend", .duration = 0.5f, .track_count = 2,
                              .tracks = t->tracks, .trigger_count = 2,
                              .triggers = t->triggers};
    t->clips[1] = (ossa_clip){.name = "lift", .duration = 0.25f, .track_count = 1,
                              .tracks = t->tracks + 2};

    /* On the second triangle (vertices 0 2 3), lifted 0.1 along the mount's Z and turned a
     * quarter turn around its Y (the face normal). */
    t->mount = (ossa_mount){.name = "pin", .face = 1, .barycentric = {0.5f, 0.25f, 0.25f},
                            .offset_t = {0, 0, 0.1f}, .offset_r = {0, 0.70710678f, 0, 0.70710678f},
                            .offset_s = {1, 1, 1}};

    ossa_model *m = &t->model;
    m->source = "tiny";
    m->format = OSSA_FORMAT_DEMO;
    m->scale = 1.0f;
    m->bone_count = 2;
    m->bones = t->bones;
    m->mesh_count = 1;
    m->meshes = &t->mesh;
    m->clip_count = with_clips ? 2 : 0;
    m->clips = with_clips ? t->clips : NULL;
    m->material_count = 1;
    m->materials = &t->material;
    m->mount_count = 1;
    m->mounts = &t->mount;
}

static bool read_whole(const char *path, fuzz_seed *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    bool ok = fseek(f, 0, SEEK_END) == 0;
    long size = ok ? ftell(f) : -1;
    ok = ok && size > 0 && fseek(f, 0, SEEK_SET) == 0;
    uint8_t *data = ok ? malloc((size_t)size) : NULL;
    ok = data && fread(data, 1, (size_t)size, f) == (size_t)size;
    fclose(f);
    if (!ok) {
        free(data);
        return false;
    }
    out->data = data;
    out->size = (size_t)size;
    return true;
}

bool fuzz_seed_from_writer(const ossa_model *m, fuzz_seed_writer write, const void *ctx,
                           fuzz_seed *out)
{
    char dir[] = "/tmp/ossa-seeds-XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "%s: cannot make a temporary folder\n", out->name);
        return false;
    }
    char path[sizeof dir + 64];
    snprintf(path, sizeof path, "%s/%s", dir, out->name);
    ossa_error err;
    bool ok = write(m, path, ctx, &err) == OSSA_OK;
    char text[1024];
    if (!ok)
        fprintf(stderr, "%s: writer failed: %s\n", out->name,
                ossa_error_format(&err, text, sizeof text));
    ok = ok && read_whole(path, out);
    remove(path);
    rmdir(dir);
    if (!ok)
        return false;

    /* A seed that does not load would only exercise the first error path. */
    ossa_load_options opt;
    memset(&opt, 0, sizeof opt);
    opt.format = out->format;
    ossa_model *loaded = NULL;
    if (ossa_load_memory(out->data, out->size, out->name, &opt, &loaded, &err) != OSSA_OK) {
        fprintf(stderr, "%s: seed does not load: %s\n", out->name,
                ossa_error_format(&err, text, sizeof text));
        return false;
    }
    ossa_model_destroy(loaded);
    return true;
}

static ossa_status write_c3s(const ossa_model *m, const char *path, const void *ctx,
                             ossa_error *err)
{
    return ossa_write_c3s(m, path, ctx, err);
}

bool fuzz_seeds_c3s(fuzz_seed *out)
{
    static const char *const names[FUZZ_C3S_SEED_COUNT] = {"seed_bones.c3s", "seed_frames.c3s"};
    fuzz_tiny_model *tiny = malloc(sizeof *tiny);
    if (!tiny)
        return false;
    fuzz_tiny_model_make(tiny, true);
    bool ok = true;
    for (int i = 0; i < FUZZ_C3S_SEED_COUNT && ok; i++) {
        ossa_c3s_write_options opt = {.vertex_frames = i == 1, .frame_rate = 4.0f};
        out[i].name = names[i];
        out[i].format = OSSA_FORMAT_C3S;
        ok = fuzz_seed_from_writer(&tiny->model, write_c3s, &opt, &out[i]);
    }
    free(tiny);
    return ok;
}
