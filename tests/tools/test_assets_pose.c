/* The committed demo assets (assets/<format>/) pose like the in-memory demo: for each clip and
 * several times, every skinned vertex of the loaded file agrees with the demo's skinned vertex
 * that started the clip at the same place. Formats may reorder or split vertices (CFF cuts the
 * mesh into rigid parts), so vertices are matched by position, not index; in rigid formats the
 * demo's blended vertices (elbows, knees) are left out. A format whose assets are not committed yet is
 * reported and skipped. Times are multiples of 0.2 s, which are whole frames at 10, 25 and 30
 * frames per second, so formats that store frames are compared on their own frames. Vertex-frame
 * clips (C3S VFRM) are played from their frames (ossa_vertex_clip_eval) instead of skinned. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ossa/ossa.h"
#include "demo.h"
#include "test_common.h"

#define MATCH_TOL 2e-4f /* positions at a clip's start: CFF stores 16-bit coordinates */
#define POSE_TOL 2e-3   /* skinned positions, model units (the mannequin is 1.8 tall) */

typedef struct posed {
    size_t count;
    float *skinned;   /* 3 per vertex, every drawn submesh in order */
    bool *blended;    /* more than one influence */
} posed;

static size_t vertex_total(const ossa_model *m)
{
    size_t n = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        if (!(m->meshes[i].flags & OSSA_MESH_HIDDEN))
            for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++)
                n += m->meshes[i].submeshes[s].vertex_count;
    return n;
}

static void posed_init(posed *p, const ossa_model *m)
{
    p->count = vertex_total(m);
    p->skinned = calloc(3 * p->count + 1, sizeof(float));
    p->blended = calloc(p->count + 1, sizeof(bool));
    size_t at = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        if (m->meshes[i].flags & OSSA_MESH_HIDDEN)
            continue;
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                p->blended[at + v] = sm->influence_start[v + 1] - sm->influence_start[v] > 1;
            at += sm->vertex_count;
        }
    }
}

static void posed_free(posed *p)
{
    free(p->skinned);
    free(p->blended);
}

/* Skins every drawn submesh at time t of clip (a Cal3D cycle, as `ossa sample` plays it). */
static void pose(const ossa_model *m, const ossa_clip *clip, float t, posed *p)
{
    size_t nb = m->bone_count ? m->bone_count : 1;
    float *lt = calloc(3 * nb, sizeof(float)), *lr = calloc(4 * nb, sizeof(float));
    float *ls = calloc(3 * nb, sizeof(float)), *mt = calloc(3 * nb, sizeof(float));
    float *mr = calloc(4 * nb, sizeof(float)), *ms = calloc(3 * nb, sizeof(float));
    float *palette = calloc(12 * nb, sizeof(float));
    ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
    ossa_sample_clip(m, clip, t, OSSA_WRAP_LOOP, lt, lr, ls, m->bone_count, NULL);
    ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
    ossa_skin_palette(m, mt, mr, ms, palette, m->bone_count, NULL);
    size_t at = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        if (m->meshes[i].flags & OSSA_MESH_HIDDEN)
            continue;
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            float *normals = calloc(3 * (size_t)sm->vertex_count + 1, sizeof(float));
            /* A submesh with a vertex track in the clip plays its frames instead. */
            if (ossa_clip_vertex_track(clip, i, s))
                CHECK(ossa_vertex_clip_eval(m, clip, i, s, t, OSSA_WRAP_LOOP,
                                            p->skinned + 3 * at, normals, sm->vertex_count,
                                            NULL) == OSSA_OK);
            else
                ossa_skin_submesh_scalar(sm, palette, p->skinned + 3 * at, normals,
                                         sm->vertex_count, NULL);
            free(normals);
            at += sm->vertex_count;
        }
    }
    free(lt); free(lr); free(ls); free(mt); free(mr); free(ms); free(palette);
}

static float dist(const float *a, const float *b)
{
    float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

/* Which demo vertices each loaded vertex may be: those at the same place at the clip's start.
 * Formats store bind data differently (model space, bone space, pre-weighted offsets), so the
 * match uses where the vertices are, not what the file holds. */
typedef struct match {
    size_t *first;  /* file->count + 1 offsets into candidates */
    size_t *candidates;
} match;

static void match_vertices(const posed *demo, const posed *file, bool rigid, match *mt)
{
    mt->first = calloc(file->count + 1, sizeof(size_t));
    size_t cap = 16, n = 0;
    mt->candidates = malloc(cap * sizeof(size_t));
    for (size_t v = 0; v < file->count; v++) {
        mt->first[v] = n;
        for (size_t d = 0; d < demo->count; d++) {
            if ((rigid && demo->blended[d]) ||
                dist(file->skinned + 3 * v, demo->skinned + 3 * d) > MATCH_TOL)
                continue;
            if (n == cap)
                mt->candidates = realloc(mt->candidates, (cap *= 2) * sizeof(size_t));
            mt->candidates[n++] = d;
        }
    }
    mt->first[file->count] = n;
}

static void match_free(match *mt)
{
    free(mt->first);
    free(mt->candidates);
}

/* Largest distance between each matched loaded vertex and its best-agreeing candidate. In rigid
 * formats the vertices cut from the demo's blended ones have no candidate and are left out. */
static double compare_pose(const char *label, const posed *demo, const posed *file,
                           const match *mt, bool rigid)
{
    double worst = 0;
    size_t unmatched = 0, compared = 0;
    for (size_t v = 0; v < file->count; v++) {
        if (mt->first[v] == mt->first[v + 1]) {
            unmatched++;
            continue;
        }
        float best = INFINITY;
        for (size_t k = mt->first[v]; k < mt->first[v + 1]; k++) {
            float e = dist(file->skinned + 3 * v, demo->skinned + 3 * mt->candidates[k]);
            if (e < best)
                best = e;
        }
        compared++;
        if (best > worst)
            worst = best;
    }
    CHECKF(rigid || unmatched == 0, "%s: %zu vertices match no demo vertex at the clip's start",
           label, unmatched);
    CHECKF(compared > file->count / 2, "%s: only %zu of %zu vertices compared", label, compared,
           file->count);
    CHECKF(worst <= POSE_TOL, "%s: skinned vertices differ by up to %g", label, worst);
    return worst;
}

static int files_checked;

static void check_asset(const char *root, const ossa_model *demo, const char *fmt,
                        const char *name)
{
    char path[4096], text[1024];
    snprintf(path, sizeof path, "%s/assets/%s/%s", root, fmt, name);
    if (access(path, F_OK) != 0) {
        printf("skip: assets/%s/%s is not committed yet\n", fmt, name);
        return;
    }
    ossa_model *m = NULL;
    ossa_error err;
    ossa_status st = ossa_load_file(path, NULL, &m, &err);
    CHECKF(st == OSSA_OK, "%s: %s", path, ossa_error_format(&err, text, sizeof text));
    if (!m)
        return;
    files_checked++;
    const bool rigid = m->format == OSSA_FORMAT_CFF;
    posed want, got;
    posed_init(&want, demo);
    posed_init(&got, m);
    double worst = 0;
    int clips = 0;
    for (uint32_t c = 0; c < demo->clip_count; c++) {
        const ossa_clip *dc = &demo->clips[c];
        int32_t idx = ossa_model_find_clip(m, dc->name);
        if (idx < 0 && m->clip_count == 1 && c == 0)
            idx = 0; /* a format with one unnamed animation holds the first clip */
        if (idx < 0) {
            printf("note: assets/%s/%s has no clip '%s'\n", fmt, name, dc->name);
            continue;
        }
        clips++;
        match mt;
        pose(demo, dc, 0.0f, &want);
        pose(m, &m->clips[idx], 0.0f, &got);
        match_vertices(&want, &got, rigid, &mt);
        for (float t = 0.0f; t < dc->duration - 0.1f; t += 0.2f) {
            char label[512];
            snprintf(label, sizeof label, "assets/%s/%s clip '%s' at %.1f s", fmt, name, dc->name,
                     (double)t);
            pose(demo, dc, t, &want);
            pose(m, &m->clips[idx], t, &got);
            double e = compare_pose(label, &want, &got, &mt, rigid);
            if (e > worst)
                worst = e;
        }
        match_free(&mt);
    }
    CHECKF(clips > 0, "assets/%s/%s: none of the demo's clips", fmt, name);
    printf("ok: assets/%s/%s: %d clips, skinned vertices within %.3g of the demo%s\n", fmt, name,
           clips, worst, rigid ? " (rigid vertices)" : "");
    posed_free(&want);
    posed_free(&got);
    ossa_model_destroy(m);
}

int main(void)
{
    const char *root = getenv("OSSA_SOURCE_ROOT");
    if (!root)
        root = ".";
    ossa_model *demo = NULL;
    ossa_error err;
    if (ossa_demo_model(&demo, &err) != OSSA_OK) {
        fprintf(stderr, "demo model: %s\n", err.message);
        return 1;
    }
    static const char *const assets[][2] = {
        {"cal3d", "mannequin.cfg"}, {"cal3d-xml", "mannequin.cfg"}, {"skm", "mannequin.skm"},
        {"c3s", "mannequin.c3s"},   {"c3s", "mannequin_frames.c3s"}, {"cff", "mannequin.cff"},
    };
    for (size_t i = 0; i < sizeof assets / sizeof assets[0]; i++)
        check_asset(root, demo, assets[i][0], assets[i][1]);
    ossa_model_destroy(demo);
    if (files_checked == 0) {
        printf("no demo assets committed\n");
        return TEST_SKIP;
    }
    return test_finish("writers-assets-pose");
}
