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
#include "pose_match.h"
#include "test_common.h"

#define MATCH_TOL 2e-4f /* positions at a clip's start: CFF stores 16-bit coordinates */
#define POSE_TOL 2e-3   /* skinned positions, model units (the mannequin is 1.8 tall) */

/* Largest distance between each matched loaded vertex and its best-agreeing candidate. In rigid
 * formats the vertices cut from the demo's blended ones have no candidate and are left out. */
static double compare_pose(const char *label, const pm_posed *demo, const pm_posed *file,
                           const pm_match *mt, bool rigid)
{
    pm_result r = pm_compare(demo, file, mt);
    size_t unmatched = r.unmatched, compared = r.compared;
    double worst = r.worst;
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
    pm_posed want, got;
    CHECK(pm_posed_init(&want, demo) && pm_posed_init(&got, m));
    double worst = 0;
    int clips = 0;
    for (uint32_t c = 0; c < demo->clip_count; c++) {
        const ossa_clip *dc = &demo->clips[c];
        uint32_t idx = ossa_model_find_clip(m, dc->name);
        if (idx == OSSA_NOT_FOUND && m->clip_count == 1 && c == 0)
            idx = 0; /* a format with one unnamed animation holds the first clip */
        if (idx == OSSA_NOT_FOUND) {
            printf("note: assets/%s/%s has no clip '%s'\n", fmt, name, dc->name);
            continue;
        }
        clips++;
        pm_match mt;
        pm_pose(demo, dc, 0.0f, &want);
        pm_pose(m, &m->clips[idx], 0.0f, &got);
        CHECK(pm_match_build(&want, &got, rigid, MATCH_TOL, &mt));
        for (float t = 0.0f; t < dc->duration - 0.1f; t += 0.2f) {
            char label[512];
            snprintf(label, sizeof label, "assets/%s/%s clip '%s' at %.1f s", fmt, name, dc->name,
                     (double)t);
            pm_pose(demo, dc, t, &want);
            pm_pose(m, &m->clips[idx], t, &got);
            double e = compare_pose(label, &want, &got, &mt, rigid);
            if (e > worst)
                worst = e;
        }
        pm_match_free(&mt);
    }
    CHECKF(clips > 0, "assets/%s/%s: none of the demo's clips", fmt, name);
    printf("ok: assets/%s/%s: %d clips, skinned vertices within %.3g of the demo%s\n", fmt, name,
           clips, worst, rigid ? " (rigid vertices)" : "");
    pm_posed_free(&want);
    pm_posed_free(&got);
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
