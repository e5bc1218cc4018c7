#include "fuzz_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ossa/limits.h"
#include "fuzz_seeds.h"
#include "fuzz_write_check.h"
#include "test_wbuf.h"
#include <jansson.h>
#include "ossa/export.h"
#include "ossa/instance.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/skin.h"
#include "ossa/cloth.h"
#include "ossa/load.h"

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

static int all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}


static int all_bounded(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(v[i]) <= OSSA_MAX_COORD)) /* also false for NaN */
            return 0;
    return 1;
}

/* The per-vertex data that no pose touches: texture coordinates, per-influence points, colours,
 * physique weights, springs, morph deltas and vertex frames. */
static int check_vertex_data(const ossa_submesh *sm, uint32_t mi, uint32_t si, char *why,
                             size_t why_size)
{
    size_t nv = sm->vertex_count;
    if (sm->uv_set_count && nv && (!sm->uvs || !all_bounded(sm->uvs, 2 * sm->uv_set_count * nv)))
        return fail(why, why_size, "mesh %u submesh %u: a texture coordinate is missing, not "
                    "finite or beyond %g", mi, si, (double)OSSA_MAX_COORD);
    size_t ninf = nv ? sm->influence_start[nv] : 0;
    if (sm->influence_points && !all_bounded(sm->influence_points, 3 * ninf))
        return fail(why, why_size, "mesh %u submesh %u: an influence point is not finite or "
                    "beyond %g", mi, si, (double)OSSA_MAX_COORD);
    if (sm->colors && !all_finite(sm->colors, 3 * nv))
        return fail(why, why_size, "mesh %u submesh %u: a vertex colour is not finite", mi, si);
    if (sm->physique_weights && !all_finite(sm->physique_weights, nv))
        return fail(why, why_size, "mesh %u submesh %u: a physique weight is not finite", mi, si);
    if (sm->spring_count && nv && !sm->physique_weights)
        return fail(why, why_size, "mesh %u submesh %u: springs without physique weights", mi,
                    si);
    for (uint32_t k = 0; k < sm->spring_count; k++)
        if (!isfinite(sm->springs[k].coefficient) || !isfinite(sm->springs[k].idle_length))
            return fail(why, why_size, "mesh %u submesh %u: spring %u is not finite", mi, si, k);
    for (uint32_t t = 0; t < sm->morph_count; t++) {
        const ossa_morph_target *mt = &sm->morphs[t];
        size_t n = mt->count;
        if (!all_bounded(mt->d_position, 3 * n) || !all_bounded(mt->d_normal, 3 * n))
            return fail(why, why_size, "mesh %u submesh %u: morph %u has a position or normal "
                        "delta not finite or beyond %g", mi, si, t, (double)OSSA_MAX_COORD);
        if (mt->d_uv && !all_bounded(mt->d_uv, 2 * sm->uv_set_count * n))
            return fail(why, why_size, "mesh %u submesh %u: morph %u has a texture coordinate "
                        "delta not finite or beyond %g", mi, si, t, (double)OSSA_MAX_COORD);
    }
    if (sm->frame_count && (!all_bounded(sm->frame_positions, 3 * nv * sm->frame_count) ||
                            !all_bounded(sm->frame_normals, 3 * nv * sm->frame_count)))
        return fail(why, why_size, "mesh %u submesh %u: a vertex frame is not finite or beyond %g",
                    mi, si, (double)OSSA_MAX_COORD);
    if (sm->uv_frame_count && !all_bounded(sm->frame_uvs, 2 * nv * sm->uv_frame_count))
        return fail(why, why_size, "mesh %u submesh %u: a uv frame is not finite or beyond %g", mi,
                    si, (double)OSSA_MAX_COORD);
    return 0;
}

/* Scratch buffers of one pose evaluation; palette covers every bone id a mesh uses. */
typedef struct pose_bufs {
    float *lt, *lr, *ls, *mt, *mr, *ms, *palette, *out_pos, *out_nrm;
    size_t palette_bones;
} pose_bufs;

static void free_bufs(pose_bufs *p)
{
    free(p->lt); free(p->lr); free(p->ls);
    free(p->mt); free(p->mr); free(p->ms);
    free(p->palette); free(p->out_pos); free(p->out_nrm);
}

/* Skins every submesh with the palette of the pose in p (rest or sampled) and checks that
 * everything it produced is finite. */
static int check_pose(const ossa_model *m, pose_bufs *p, const char *what, char *why,
                      size_t why_size)
{
    uint32_t n = m->bone_count;
    ossa_local_to_model(m, p->lt, p->lr, p->ls, p->mt, p->mr, p->ms, m->bone_count, NULL);
    if (!all_finite(p->mt, 3 * (size_t)n) || !all_finite(p->mr, 4 * (size_t)n) ||
        !all_finite(p->ms, 3 * (size_t)n))
        return fail(why, why_size, "%s: a model-space bone transform is not finite", what);
    ossa_skin_palette(m, p->mt, p->mr, p->ms, p->palette, m->bone_count, NULL);
    if (!all_finite(p->palette, 12 * (size_t)n))
        return fail(why, why_size, "%s: a skinning matrix is not finite", what);
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            ossa_skin_submesh_scalar(sm, p->palette, p->out_pos, p->out_nrm, sm->vertex_count,
                                     NULL);
            if (!all_finite(p->out_pos, 3 * (size_t)sm->vertex_count) ||
                !all_finite(p->out_nrm, 3 * (size_t)sm->vertex_count))
                return fail(why, why_size, "%s: mesh %u submesh %u skins to a non-finite vertex",
                            what, i, j);
        }
    return 0;
}

/* Steps the Cal3D cloth of every submesh with springs for one second from the pose whose
 * palette p holds, through the runtime mesh as the viewer does; every output must stay finite. */
static int check_springs(const ossa_model *m, const pose_bufs *p, char *why, size_t why_size)
{
    if (!p->palette_bones)
        return 0; /* no bone at all, not even an influence's: nothing is skinned */
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            if (!sm->spring_count)
                continue;
            ossa_skin_mesh *mesh = NULL;
            ossa_spring_state *st = NULL;
            if (ossa_skin_mesh_create(sm, (uint32_t)p->palette_bones, &mesh, NULL) != OSSA_OK ||
                ossa_spring_state_create(mesh, &st, NULL) != OSSA_OK) {
                ossa_skin_mesh_destroy(mesh);
                return fail(why, why_size, "mesh %u submesh %u: no runtime mesh or cloth", i, j);
            }
            size_t n = ossa_skin_mesh_output_count(mesh);
            float *pos = malloc((3 * n + 1) * sizeof(float));
            float *nrm = malloc((3 * n + 1) * sizeof(float));
            int bad = !pos || !nrm;
            for (int frame = 0; frame < 30 && !bad; frame++) {
                ossa_skin_job job = {.mesh = mesh, .palette = p->palette,
                                     .palette_size = (uint32_t)p->palette_bones,
                                     .out_positions = pos, .out_normals = nrm,
                                     .out_capacity = ossa_skin_mesh_output_count(mesh),
                                     .end = ossa_skin_mesh_output_count(mesh)};
                bad = ossa_skin_job_run(&job, NULL) != OSSA_OK ||
                      ossa_spring_update(st, 1.0f / 30.0f, pos, (uint32_t)n, NULL) != OSSA_OK ||
                      !all_finite(pos, 3 * n);
            }
            free(pos);
            free(nrm);
            ossa_spring_state_destroy(st);
            ossa_skin_mesh_destroy(mesh);
            if (bad)
                return fail(why, why_size, "mesh %u submesh %u: the cloth steps to a non-finite "
                            "vertex", i, j);
        }
    return 0;
}

/* Skins part i of inst into fresh buffers (3 floats a vertex each); 0 and a message on failure. */
static int skin_part_copy(ossa_instance *inst, uint32_t i, float **pos, float **nrm, char *why,
                          size_t why_size)
{
    ossa_error err;
    ossa_instance_part p;
    ossa_instance_part_info(inst, i, &p, NULL);
    size_t n = 3 * (size_t)p.output_count;
    ossa_instance_span span = {malloc((n + 1) * sizeof(float)), malloc((n + 1) * sizeof(float)),
                               p.output_count};
    *pos = span.positions;
    *nrm = span.normals;
    if (!span.positions || !span.normals)
        return !fail(why, why_size, "out of memory in the harness");
    if (ossa_instance_skin(inst, i, 1, &span, &err) != OSSA_OK)
        return !fail(why, why_size, "instance part %u: %s", i, err.message);
    if (!all_finite(span.positions, n) || !all_finite(span.normals, n))
        return !fail(why, why_size, "instance part %u (mesh %u submesh %u): a non-finite vertex",
                     i, p.mesh, p.submesh);
    return 1;
}

/* The character instance (instance.h) of the model: it must build, play each clip (a few),
 * update, seek and skin every part to finite numbers. Two instances sharing its runtime data go
 * through ossa_instance_update_many together (their cloth in SIMD lanes): the first plays the
 * same script and must come out with the same bytes, the second another clip order. */
static int check_instance(const ossa_model *m, char *why, size_t why_size)
{
    ossa_error err;
    ossa_instance *inst = NULL, *twin[2] = {NULL, NULL};
    ossa_status st = ossa_instance_create(m, NULL, &inst, &err);
    if (st == OSSA_ERR_NOMEM)
        return 0;
    if (st != OSSA_OK)
        return fail(why, why_size, "no instance of a loaded model: %s", err.message);
    for (int t = 0; t < 2; t++)
        if (ossa_instance_create_shared(inst, NULL, &twin[t], NULL) != OSSA_OK)
            twin[t] = NULL; /* out of memory: update_many skips NULL entries */
    int bad = 0;
    for (uint32_t c = 0; c < m->clip_count && c < 4; c++) {
        ossa_instance_play(inst, c, 0.1f, NULL);
        if (twin[0])
            ossa_instance_play(twin[0], c, 0.1f, NULL);
        if (twin[1])
            ossa_instance_play(twin[1], (c + 1) % m->clip_count, 0.1f, NULL);
        for (int k = 0; k < 4; k++) {
            ossa_instance_update(inst, 0.05f);
            ossa_instance_update_many(twin, 2, 0.05f);
        }
    }
    ossa_instance *all[3] = {inst, twin[0], twin[1]};
    for (int t = 0; t < 3; t++)
        if (all[t])
            ossa_instance_seek(all[t], 0.5f);
    ossa_instance_update(inst, 1.0f / 30.0f);
    ossa_instance_update_many(twin, 2, 1.0f / 30.0f);
    for (uint32_t i = 0; i < ossa_instance_part_count(inst) && !bad; i++) {
        ossa_instance_part p;
        ossa_instance_part_info(inst, i, &p, NULL);
        size_t bytes = 3 * (size_t)p.output_count * sizeof(float);
        float *pos[3] = {NULL, NULL, NULL}, *nrm[3] = {NULL, NULL, NULL};
        for (int t = 0; t < 3 && !bad; t++)
            if (all[t])
                bad = !skin_part_copy(all[t], i, &pos[t], &nrm[t], why, why_size);
        if (!bad && twin[0] && (memcmp(pos[0], pos[1], bytes) || memcmp(nrm[0], nrm[1], bytes)))
            bad = fail(why, why_size, "instance part %u: update_many wrote other bytes than "
                       "update", i);
        for (int t = 0; t < 3; t++) {
            free(pos[t]);
            free(nrm[t]);
        }
    }
    for (int t = 0; t < 3; t++)
        ossa_instance_destroy(all[t]);
    return bad;
}

static int check_model(const ossa_model *m, char *why, size_t why_size)
{
    ossa_error verr;
    ossa_error_clear(&verr);
    if (ossa_model_validate(m, &verr) != OSSA_OK)
        return fail(why, why_size, "loaded OK but fails validation: %s", verr.message);

    /* A mesh loaded without a skeleton keeps its file bone ids: skin those with identity
     * matrices. An id no skeleton could ever have (>= OSSA_MAX_BONES) is data the runtime cannot
     * use, and the loader should have refused it. */
    size_t palette_bones = m->bone_count, max_vertices = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            if (sm->vertex_count > max_vertices)
                max_vertices = sm->vertex_count;
            if (check_vertex_data(sm, i, j, why, why_size))
                return 1;
            uint32_t ninf = sm->vertex_count ? sm->influence_start[sm->vertex_count] : 0;
            for (uint32_t k = 0; k < ninf; k++) {
                uint32_t bone = sm->influences[k].bone;
                if (bone >= OSSA_MAX_BONES)
                    return fail(why, why_size,
                                "mesh %u submesh %u: influence bone id %u is beyond any skeleton "
                                "(limit %u)", i, j, bone, OSSA_MAX_BONES);
                if (bone >= palette_bones)
                    palette_bones = (size_t)bone + 1;
            }
        }

    size_t n = m->bone_count;
    pose_bufs p = {0};
    p.lt = malloc((3 * n + 1) * sizeof(float));
    p.lr = malloc((4 * n + 1) * sizeof(float));
    p.ls = malloc((3 * n + 1) * sizeof(float));
    p.mt = malloc((3 * n + 1) * sizeof(float));
    p.mr = malloc((4 * n + 1) * sizeof(float));
    p.ms = malloc((3 * n + 1) * sizeof(float));
    p.palette = calloc(12 * palette_bones + 1, sizeof(float));
    p.out_pos = malloc((3 * max_vertices + 1) * sizeof(float));
    p.out_nrm = malloc((3 * max_vertices + 1) * sizeof(float));
    p.palette_bones = palette_bones;
    if (!p.lt || !p.lr || !p.ls || !p.mt || !p.mr || !p.ms || !p.palette || !p.out_pos ||
        !p.out_nrm) {
        free_bufs(&p);
        return fail(why, why_size, "out of memory in the harness");
    }
    for (size_t b = n; b < palette_bones; b++) {
        p.palette[12 * b + 0] = 1.0f;
        p.palette[12 * b + 5] = 1.0f;
        p.palette[12 * b + 10] = 1.0f;
    }

    int bad = 0;
    ossa_pose_rest(m, p.lt, p.lr, p.ls, m->bone_count, NULL);
    bad = check_pose(m, &p, "rest pose", why, why_size);
    if (!bad)
        bad = check_springs(m, &p, why, why_size);
    if (!bad)
        bad = check_instance(m, why, why_size);
    for (uint32_t c = 0; c < m->clip_count && !bad; c++) {
        const ossa_clip *clip = &m->clips[c];
        float times[2] = {0.0f, clip->duration * 0.5f};
        for (int k = 0; k < 2 && !bad; k++) {
            char what[96];
            snprintf(what, sizeof what, "clip %u at t=%g", c, (double)times[k]);
            ossa_pose_rest(m, p.lt, p.lr, p.ls, m->bone_count, NULL);
            ossa_sample_clip(m, clip, times[k], OSSA_WRAP_EXTRAPOLATE, p.lt, p.lr, p.ls,
                             m->bone_count, NULL);
            if (!all_finite(p.lt, 3 * n) || !all_finite(p.lr, 4 * n) || !all_finite(p.ls, 3 * n))
                bad = fail(why, why_size, "%s: a sampled local transform is not finite", what);
            else
                bad = check_pose(m, &p, what, why, why_size);
        }
    }
    free_bufs(&p);
    return bad;
}

/* The error record's contract for a failed load. */
static int check_error(ossa_status st, const ossa_model *m, const ossa_error *err, char *why,
                       size_t why_size)
{
    if (m != NULL)
        return fail(why, why_size, "status %s but the model pointer is not NULL",
                    ossa_status_name(st));
    if ((unsigned)st > OSSA_ERR_UNSUPPORTED)
        return fail(why, why_size, "status %d is not a known status", (int)st);
    if (err->status != st)
        return fail(why, why_size, "returned %s but the error record says %s",
                    ossa_status_name(st), ossa_status_name(err->status));
    if (!err->message[0])
        return fail(why, why_size, "status %s with an empty message", ossa_status_name(st));
    if (!err->file[0])
        return fail(why, why_size, "status %s (\"%s\") without a file name",
                    ossa_status_name(st), err->message);
    return 0;
}

/* The companion files of fuzz_check.h, in load order, by seed name. */
static const struct {
    unsigned flag;
    const char *seed, *file;
} companions[] = {
    {FUZZ_WITH_SKELETON, "seed_v1000.csf", "skeleton.csf"},
    {FUZZ_WITH_MESH, "seed_v919.cmf", "mesh.cmf"},
    {FUZZ_WITH_CLIP, "seed_v1000.caf", "clip.caf"},
};
enum { COMPANION_COUNT = sizeof companions / sizeof companions[0] };

static int write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    int ok = !size || fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

/* Writes the companions and the input (named as the target) into a fresh scratch folder and
 * loads them together through the public multi-file API; the folder is removed again. Returns
 * 0 when the files could not be set up (why says so). */
static int load_with_companions(const uint8_t *data, size_t size, fuzz_harness h,
                                ossa_model **m, ossa_error *err, ossa_status *st, char *why,
                                size_t why_size)
{
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/ossa-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return !fail(why, why_size, "cannot create a scratch folder under %s",
                     tmp && *tmp ? tmp : "/tmp");
    char paths[COMPANION_COUNT + 1][4200];
    const char *list[COMPANION_COUNT + 1];
    size_t count = 0;
    int ok = 1;
    for (size_t i = 0; i < COMPANION_COUNT && ok; i++) {
        if (!(h.with & companions[i].flag))
            continue;
        fuzz_seed seed;
        ok = fuzz_seed_make_one(companions[i].seed, &seed);
        snprintf(paths[count], sizeof paths[count], "%s/%s", dir, companions[i].file);
        if (ok && !write_file(paths[count], seed.data, seed.size))
            ok = 0;
        free(seed.data);
        list[count] = paths[count];
        count++;
    }
    if (ok) {
        snprintf(paths[count], sizeof paths[count], "%s/%s", dir, h.target.name);
        list[count] = paths[count];
        ok = write_file(paths[count++], data, size);
    }
    if (ok) {
        ossa_load_options opt;
        memset(&opt, 0, sizeof opt);
        *st = ossa_load_files(list, count, &opt, m, err);
    } else {
        fail(why, why_size, "cannot write the scratch files in %s", dir);
    }
    for (size_t i = 0; i < count; i++)
        remove(paths[i]);
    rmdir(dir);
    return ok;
}

/* The export's bytes, kept whole in a test buffer (a fuzzed model is small; past the cap the
 * stream stops). */
#define GLB_STREAM_CAP ((size_t)1 << 28)

static bool glb_append(void *user, const void *data, size_t size)
{
    return put_bytes_capped(user, data, size, GLB_STREAM_CAP);
}

/* The pipeline's last stage: a loaded model exports to one well-formed .glb in memory. */
static int check_export(const ossa_model *m, char *why, size_t why_size)
{
    wbuf b = {0};
    ossa_error err;
    ossa_status st = ossa_export_glb_stream(m, NULL, glb_append, &b, &err);
    int bad = 0;
    if (st != OSSA_OK) {
        /* A model that validated exports; only memory may run out (and is not a finding). */
        if (st != OSSA_ERR_NOMEM && !(st == OSSA_ERR_IO && b.size + 1 > GLB_STREAM_CAP / 2))
            bad = fail(why, why_size, "export of a valid model failed: %s", err.message);
    } else if (b.size < 20 || get_le32(b.data) != 0x46546C67u || get_le32(b.data + 4) != 2 ||
               get_le32(b.data + 8) != b.size || get_le32(b.data + 16) != 0x4E4F534Au ||
               get_le32(b.data + 12) > b.size - 20 || get_le32(b.data + 12) % 4) {
        bad = fail(why, why_size, "the export is not one well-formed GLB (%zu bytes)", b.size);
    } else {
        size_t json_len = get_le32(b.data + 12), rest = b.size - 20 - json_len;
        json_error_t jerr;
        json_t *doc = json_loadb((const char *)b.data + 20, json_len, 0, &jerr);
        const char *version = json_string_value(json_object_get(json_object_get(doc, "asset"),
                                                                "version"));
        if (!doc || !version || strcmp(version, "2.0"))
            bad = fail(why, why_size, "the GLB's JSON chunk does not parse as glTF 2.0: %s",
                       doc ? "no asset.version 2.0" : jerr.text);
        else if (rest && (rest < 8 || get_le32(b.data + 20 + json_len) != rest - 8 ||
                          get_le32(b.data + 24 + json_len) != 0x004E4942u))
            bad = fail(why, why_size, "the GLB's binary chunk does not fill the file");
        json_decref(doc);
    }
    free(b.data);
    return bad;
}

int fuzz_check_harness(const uint8_t *data, size_t size, fuzz_harness h, ossa_status *status,
                       char *why, size_t why_size)
{
    /* An exact-size private copy, so that ASan reports any read past the end. */
    uint8_t *copy = malloc(size ? size : 1);
    *status = OSSA_ERR_IO;
    if (!copy)
        return fail(why, why_size, "out of memory in the harness");
    if (size)
        memcpy(copy, data, size);

    ossa_error err;
    memset(&err, 0, sizeof err);
    ossa_model sentinel;
    ossa_model *m = &sentinel; /* must come back NULL on error */
    ossa_status st;
    if (h.with) {
        if (!load_with_companions(copy, size, h, &m, &err, &st, why, why_size)) {
            free(copy);
            return 1;
        }
    } else {
        ossa_load_options opt;
        memset(&opt, 0, sizeof opt);
        opt.format = h.target.format;
        st = ossa_load_memory(copy, size, h.target.name, &opt, &m, &err);
    }
    *status = st;

    int bad = 0;
    if (st != OSSA_OK) {
        bad = check_error(st, m, &err, why, why_size);
        if (!bad)
            snprintf(why, why_size, "%s: %s", err.file, err.message); /* for the caller's log */
    } else if (!m || m == &sentinel) {
        bad = fail(why, why_size, "status OK without a model");
    } else {
        bad = check_model(m, why, why_size);
        if (!bad && (h.checks & FUZZ_CHECK_EXPORT))
            bad = check_export(m, why, why_size);
        if (!bad && (h.checks & FUZZ_CHECK_WRITE))
            bad = fuzz_check_writers(m, why, why_size);
        if (!bad && (h.checks & FUZZ_CHECK_EXPORT_FILE))
            bad = fuzz_check_export_file(m, why, why_size);
        ossa_model_destroy(m);
    }
    free(copy);
    return bad;
}

int fuzz_check_input(const uint8_t *data, size_t size, fuzz_target target, char *why,
                     size_t why_size)
{
    fuzz_harness h = {target, 0, 0};
    ossa_status st;
    return fuzz_check_harness(data, size, h, &st, why, why_size);
}

int fuzz_run_or_abort(const uint8_t *data, size_t size, fuzz_harness h)
{
    char why[768];
    ossa_status st;
    if (fuzz_check_harness(data, size, h, &st, why, sizeof why)) {
        fprintf(stderr, "ossa fuzz invariant violated (%s): %s\n", h.target.name, why);
        abort();
    }
    return 0;
}
