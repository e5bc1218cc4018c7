/* Writers and the file export under the fuzz harnesses: every writer of write.h and
 * ossa_export_gltf run on a loaded model inside a fresh scratch folder, each output read back
 * with Ossa's own loader (or, for glTF, parsed and its buffer ranges checked). */
#include "fuzz_write_check.h"

#include <dirent.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "test_wbuf.h"
#include <unistd.h>

#include "ossa/export.h"
#include "ossa/load.h"
#include "ossa/write.h"

/* Models past these are skipped: every writer samples every clip, and the fuzzer should stay
 * well above 100 inputs a second. Real characters of the assets fit. */
#define WRITE_MAX_VERTICES 20000u /* all submeshes together */
#define WRITE_MAX_KEYS 50000u     /* all tracks of all clips together */
#define WRITE_MAX_BONES 512u
#define WRITE_MAX_CLIPS 64u
/* Frames per clip the writers are asked to sample at most: a clip of 1e9 s is written at a
 * rate that gives this many frames instead of 30 a second (the writers' own caps are far above
 * what a fuzzer can wait for). */
#define WRITE_FRAMES_PER_CLIP 48.0

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(char *why, size_t why_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_size, fmt, ap);
    va_end(ap);
    return 1;
}

static bool too_big(const ossa_model *m)
{
    size_t vertices = 0, keys = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++)
            vertices += m->meshes[i].submeshes[j].vertex_count;
    for (uint32_t c = 0; c < m->clip_count; c++)
        for (uint32_t t = 0; t < m->clips[c].track_count; t++)
            keys += m->clips[c].tracks[t].key_count;
    for (uint32_t c = 0; c < m->morph_clip_count; c++)
        for (uint32_t t = 0; t < m->morph_clips[c].track_count; t++)
            keys += m->morph_clips[c].tracks[t].key_count;
    return vertices > WRITE_MAX_VERTICES || keys > WRITE_MAX_KEYS ||
           m->bone_count > WRITE_MAX_BONES || m->clip_count > WRITE_MAX_CLIPS ||
           m->morph_clip_count > WRITE_MAX_CLIPS;
}

/* The writers' frame rate: the default unless the longest clip would take more frames. */
static float write_rate(const ossa_model *m, double default_rate)
{
    double longest = 0.0;
    for (uint32_t c = 0; c < m->clip_count; c++)
        if (m->clips[c].duration > longest)
            longest = m->clips[c].duration;
    double rate = default_rate;
    if (longest * rate > WRITE_FRAMES_PER_CLIP)
        rate = WRITE_FRAMES_PER_CLIP / longest;
    return rate > 0.0 ? (float)rate : (float)default_rate;
}

/* ---- scratch folders ---- */

static int make_scratch(char *dir, size_t size)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, size, "%s/ossa-fuzzw-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkdtemp(dir) != NULL;
}

/* Removes dir and what is in it (the writers write flat files, this harness one level of
 * folders); depth bounds the walk. */
static void remove_tree(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char path[4400];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            struct stat st;
            if (depth > 0 && lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
                remove_tree(path, depth - 1);
            else
                remove(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* The number of entries in a folder (0 when it cannot be read). */
static size_t entries_in(const char *dir)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* ---- the writers ---- */

typedef enum writer_kind {
    W_CAL3D_BINARY,
    W_CAL3D_XML,
    W_SKM,
    W_C3S_BONES,
    W_C3S_FRAMES,
    W_CFF,
    W_COUNT
} writer_kind;

static const char *const writer_names[W_COUNT] = {
    "Cal3D binary", "Cal3D XML", "SKM/SKP", "C3S (bones)", "C3S (vertex frames)", "CFF"};

/* Runs one writer into sub (an empty folder); *read_path gets what to load back. */
static ossa_status run_writer(const ossa_model *m, writer_kind k, const char *sub, char *read_path,
                              size_t read_size, ossa_error *err)
{
    switch (k) {
    case W_CAL3D_BINARY:
    case W_CAL3D_XML: {
        ossa_cal3d_write_options opt = {.xml = k == W_CAL3D_XML};
        snprintf(read_path, read_size, "%s/model.cfg", sub);
        return ossa_write_cal3d(m, sub, "model", &opt, err);
    }
    case W_SKM: {
        /* The .skm when a mesh was written (its .skp beside it is found by name), else the .skp
         * alone. */
        ossa_skm_write_options so = {.frame_rate = write_rate(m, 10.0)};
        ossa_status st = ossa_write_skm(m, sub, "model", &so, err);
        snprintf(read_path, read_size, "%s/model.skm", sub);
        if (access(read_path, F_OK) != 0)
            snprintf(read_path, read_size, "%s/model.skp", sub);
        return st;
    }
    case W_C3S_BONES:
    case W_C3S_FRAMES: {
        ossa_c3s_write_options opt = {.vertex_frames = k == W_C3S_FRAMES,
                                      .frame_rate = write_rate(m, 30.0)};
        snprintf(read_path, read_size, "%s/model.c3s", sub);
        return ossa_write_c3s(m, read_path, &opt, err);
    }
    case W_CFF:
    default:
        snprintf(read_path, read_size, "%s/model.cff", sub);
        ossa_cff_write_options co = {.frame_rate = write_rate(m, 25.0)};
        return ossa_write_cff(m, read_path, &co, err);
    }
}

/* What the written files must give back. Every format keeps the clips as clips; Cal3D writes
 * one file per part, so its set comes back part for part. */
static int check_reread(const ossa_model *m, const ossa_model *back, writer_kind k, char *why,
                        size_t why_size)
{
    if (k == W_CAL3D_BINARY || k == W_CAL3D_XML) {
        uint32_t clips = 0; /* a clip of vertex-frame tracks alone has no Cal3D file */
        for (uint32_t c = 0; c < m->clip_count; c++)
            clips += m->clips[c].track_count || !m->clips[c].vertex_track_count;
        if (back->bone_count != m->bone_count || back->mesh_count != m->mesh_count ||
            back->clip_count != clips || back->morph_clip_count != m->morph_clip_count ||
            back->material_count != m->material_count)
            return fail(why, why_size, "%s: read back with %u bones, %u meshes, %u clips, %u "
                        "morph clips, %u materials; written from %u, %u, %u, %u, %u",
                        writer_names[k], back->bone_count, back->mesh_count, back->clip_count,
                        back->morph_clip_count, back->material_count, m->bone_count,
                        m->mesh_count, clips, m->morph_clip_count, m->material_count);
    }
    return 0;
}

static int check_writer(const ossa_model *m, writer_kind k, const char *dir, char *why,
                        size_t why_size)
{
    char sub[4200], read_path[4400];
    snprintf(sub, sizeof sub, "%s/w%d", dir, (int)k);
    if (mkdir(sub, 0700) != 0)
        return fail(why, why_size, "cannot create the scratch folder %s", sub);
    ossa_error err;
    memset(&err, 0, sizeof err);
    ossa_status st = run_writer(m, k, sub, read_path, sizeof read_path, &err);
    if (st != OSSA_OK) {
        /* A refusal is fine; it must say why and leave nothing behind. */
        if (err.status != st || !err.message[0])
            return fail(why, why_size, "%s: returned %s but the error record says %s (\"%s\")",
                        writer_names[k], ossa_status_name(st), ossa_status_name(err.status),
                        err.message);
        if (entries_in(sub))
            return fail(why, why_size, "%s: refused (%s: %s) but left %zu file(s) behind",
                        writer_names[k], ossa_status_name(st), err.message, entries_in(sub));
        return 0;
    }
    ossa_model *back = NULL;
    ossa_error rerr;
    memset(&rerr, 0, sizeof rerr);
    ossa_load_options opt;
    memset(&opt, 0, sizeof opt);
    ossa_status rst = ossa_load_file(read_path, &opt, &back, &rerr);
    int bad = 0;
    if (rst == OSSA_ERR_NOMEM)
        bad = 0; /* the reader's memory, not a finding */
    else if (rst != OSSA_OK)
        bad = fail(why, why_size, "%s wrote OK but its output does not load back: %s: %s: %s",
                   writer_names[k], ossa_status_name(rst), rerr.file, rerr.message);
    else
        bad = check_reread(m, back, k, why, why_size);
    ossa_model_destroy(back);
    return bad;
}

int fuzz_check_writers(const ossa_model *m, char *why, size_t why_size)
{
    if (too_big(m))
        return 0;
    char dir[4096];
    if (!make_scratch(dir, sizeof dir))
        return fail(why, why_size, "cannot create a scratch folder");
    int bad = 0;
    for (int k = 0; k < W_COUNT && !bad; k++)
        bad = check_writer(m, (writer_kind)k, dir, why, why_size);
    remove_tree(dir, 2);
    return bad;
}

/* ---- the export ---- */

/* The export's bytes, kept whole in a test buffer (a fuzzed model is small; past the cap the
 * stream stops). */
#define EXPORT_CAP ((size_t)1 << 28)

static bool mem_append(void *user, const void *data, size_t size)
{
    return put_bytes_capped(user, data, size, EXPORT_CAP);
}

/* The JSON chunk of a well-formed GLB, and the length of its BIN chunk (0 when none). */
static json_t *glb_json(const wbuf *b, size_t *bin_size, char *why, size_t why_size)
{
    if (b->size < 20 || get_le32(b->data) != 0x46546C67u || get_le32(b->data + 4) != 2 ||
        get_le32(b->data + 8) != b->size || get_le32(b->data + 16) != 0x4E4F534Au ||
        get_le32(b->data + 12) > b->size - 20 || get_le32(b->data + 12) % 4) {
        fail(why, why_size, "the .glb stream is not one well-formed GLB (%zu bytes)", b->size);
        return NULL;
    }
    size_t json_len = get_le32(b->data + 12), rest = b->size - 20 - json_len;
    *bin_size = 0;
    if (rest) {
        if (rest < 8 || get_le32(b->data + 20 + json_len) != rest - 8 ||
            get_le32(b->data + 24 + json_len) != 0x004E4942u) {
            fail(why, why_size, "the .glb's binary chunk does not fill the file");
            return NULL;
        }
        *bin_size = rest - 8;
    }
    json_error_t jerr;
    json_t *doc = json_loadb((const char *)b->data + 20, json_len, 0, &jerr);
    if (!doc)
        fail(why, why_size, "the .glb's JSON does not parse: %s", jerr.text);
    return doc;
}

static size_t array_size(const json_t *doc, const char *key)
{
    return json_array_size(json_object_get(doc, key));
}

/* Components and bytes of an accessor's element (0 when the type is unknown). */
static size_t element_bytes(const json_t *acc)
{
    static const struct { const char *type; size_t n; } types[] = {
        {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT2", 4}, {"MAT3", 9},
        {"MAT4", 16}};
    const char *type = json_string_value(json_object_get(acc, "type"));
    json_int_t ct = json_integer_value(json_object_get(acc, "componentType"));
    size_t size = ct == 5120 || ct == 5121 ? 1 : ct == 5122 || ct == 5123 ? 2
                : ct == 5125 || ct == 5126 ? 4 : 0;
    for (size_t i = 0; type && i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(type, types[i].type))
            return types[i].n * size;
    return 0;
}

/* The document is glTF 2.0 and every view lies in its buffer, every accessor in its view. */
static int check_gltf_doc(const json_t *doc, const char *what, char *why, size_t why_size)
{
    const char *version = json_string_value(json_object_get(json_object_get(doc, "asset"),
                                                            "version"));
    if (!version || strcmp(version, "2.0"))
        return fail(why, why_size, "%s: no asset.version 2.0", what);
    const json_t *buffers = json_object_get(doc, "buffers"), *views =
        json_object_get(doc, "bufferViews");
    for (size_t i = 0; i < json_array_size(views); i++) {
        const json_t *v = json_array_get(views, i);
        json_int_t b = json_integer_value(json_object_get(v, "buffer"));
        json_int_t off = json_integer_value(json_object_get(v, "byteOffset"));
        json_int_t len = json_integer_value(json_object_get(v, "byteLength"));
        const json_t *buf = json_array_get(buffers, (size_t)b);
        json_int_t blen = json_integer_value(json_object_get(buf, "byteLength"));
        if (b < 0 || !buf || off < 0 || len <= 0 || off > blen || len > blen - off)
            return fail(why, why_size, "%s: bufferView %zu (buffer %lld, %lld + %lld bytes) is "
                        "not inside a buffer", what, i, (long long)b, (long long)off,
                        (long long)len);
    }
    const json_t *accessors = json_object_get(doc, "accessors");
    for (size_t i = 0; i < json_array_size(accessors); i++) {
        const json_t *a = json_array_get(accessors, i);
        json_int_t count = json_integer_value(json_object_get(a, "count"));
        size_t elem = element_bytes(a);
        if (count <= 0 || !elem)
            return fail(why, why_size, "%s: accessor %zu has count %lld or an unknown type",
                        what, i, (long long)count);
        const json_t *vi = json_object_get(a, "bufferView");
        if (!vi)
            continue; /* all zeros, or sparse over zeros */
        const json_t *v = json_array_get(views, (size_t)json_integer_value(vi));
        json_int_t off = json_integer_value(json_object_get(a, "byteOffset"));
        json_int_t len = json_integer_value(json_object_get(v, "byteLength"));
        json_int_t stride = json_integer_value(json_object_get(v, "byteStride"));
        json_int_t span = (count - 1) * (stride ? stride : (json_int_t)elem) + (json_int_t)elem;
        if (!v || off < 0 || off > len || span > len - off)
            return fail(why, why_size, "%s: accessor %zu (%lld elements) does not fit its view",
                        what, i, (long long)count);
    }
    return 0;
}

/* The .gltf beside the .glb: the same document, its .bin as long as the buffer says. */
static int check_gltf_file(const json_t *glb, const char *path, const char *bin_path, char *why,
                           size_t why_size)
{
    json_error_t jerr;
    json_t *doc = json_load_file(path, 0, &jerr);
    if (!doc)
        return fail(why, why_size, ".gltf export does not parse: %s", jerr.text);
    int bad = check_gltf_doc(doc, ".gltf", why, why_size);
    static const char *const parts[] = {"nodes", "meshes", "accessors", "animations", "skins",
                                        "materials", "scenes"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0] && !bad; i++)
        if (array_size(doc, parts[i]) != array_size(glb, parts[i]))
            bad = fail(why, why_size, "the .gltf has %zu %s, the .glb stream %zu", array_size(doc,
                       parts[i]), parts[i], array_size(glb, parts[i]));
    const json_t *buf = json_array_get(json_object_get(doc, "buffers"), 0);
    if (!bad && buf) {
        json_int_t len = json_integer_value(json_object_get(buf, "byteLength"));
        struct stat st;
        if (stat(bin_path, &st) != 0 || (json_int_t)st.st_size != len)
            bad = fail(why, why_size, "the .gltf's buffer says %lld bytes, %s has %lld",
                       (long long)len, bin_path, stat(bin_path, &st) ? -1LL : (long long)st.st_size);
    }
    json_decref(doc);
    return bad;
}

int fuzz_check_export_file(const ossa_model *m, char *why, size_t why_size)
{
    wbuf b = {0};
    ossa_error err;
    memset(&err, 0, sizeof err);
    ossa_status st = ossa_export_glb_stream(m, NULL, mem_append, &b, &err);
    if (st != OSSA_OK) {
        free(b.data);
        /* A model that validated exports; only memory may run out (not a finding). */
        if (st == OSSA_ERR_NOMEM || (st == OSSA_ERR_IO && b.size + 1 > EXPORT_CAP / 2))
            return 0;
        return fail(why, why_size, ".glb stream export of a valid model failed: %s: %s",
                    ossa_status_name(st), err.message);
    }
    size_t bin_size = 0;
    json_t *glb = glb_json(&b, &bin_size, why, why_size);
    free(b.data);
    if (!glb)
        return 1;
    int bad = check_gltf_doc(glb, ".glb", why, why_size);
    const json_t *buf = json_array_get(json_object_get(glb, "buffers"), 0);
    if (!bad && buf && json_integer_value(json_object_get(buf, "byteLength")) > (json_int_t)bin_size)
        bad = fail(why, why_size, "the .glb's buffer is longer than its BIN chunk");

    char dir[4096], path[4200], bin_path[4200];
    if (!bad && !make_scratch(dir, sizeof dir))
        bad = fail(why, why_size, "cannot create a scratch folder");
    else if (!bad) {
        snprintf(path, sizeof path, "%s/model.gltf", dir);
        snprintf(bin_path, sizeof bin_path, "%s/model.bin", dir);
        memset(&err, 0, sizeof err);
        st = ossa_export_gltf(m, path, NULL, &err);
        if (st == OSSA_OK)
            bad = check_gltf_file(glb, path, bin_path, why, why_size);
        else if (entries_in(dir))
            bad = fail(why, why_size, ".gltf export failed (%s) but left files behind",
                       err.message);
        else if (st != OSSA_ERR_NOMEM)
            bad = fail(why, why_size, ".gltf export failed where the stream did not: %s: %s",
                       ossa_status_name(st), err.message);
        remove_tree(dir, 1);
    }
    json_decref(glb);
    return bad;
}
