/* `ossa convert MODEL -o OUT.cfg` (Cal3D binary, the default version 1100) on the demo and on
 * every real .cfg model of ../shared/assets, read by Debian's libcal3d 0.11 (the oracle shim,
 * tests/common/cal3d_oracle.cpp): it loads every file, and its renderer's vertices at several
 * times of every animation played as a cycle equal `ossa sample` of the source model (the same
 * library calls), within 1e-4 of the model's size. Cloth vertices (physique weight > 0) are left
 * out: Ossa's sample has springs off, libcal3d's model steps them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cal3d_oracle.h"
#include "ossa/ossa.h"
#include "pose_match.h"
#include "test_common.h"

static int models_checked, poses_checked;
static double worst_ratio;

/* Loads the written set's files into the oracle, as its .cfg lists them. */
static int load_set(cal3d_ref *ref, const char *dir, const char *cfg, const char *label)
{
    FILE *f = fopen(cfg, "r");
    if (!f)
        return -1;
    char line[1024], path[2048], msg[512];
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *eq = strchr(line, '=');
        if (!eq)
            continue;
        *eq = '\0';
        snprintf(path, sizeof path, "%s/%s", dir, eq + 1);
        int got = 0;
        if (!strcmp(line, "skeleton"))
            got = cal3d_ref_load_skeleton(ref, path, msg, sizeof msg);
        else if (!strcmp(line, "mesh"))
            got = cal3d_ref_load_mesh(ref, path, msg, sizeof msg);
        else if (!strcmp(line, "animation"))
            got = cal3d_ref_load_anim(ref, path, msg, sizeof msg);
        CHECKF(got >= 0, "%s: libcal3d cannot load %s: %s", label, path, msg);
        rc = got < 0 ? -1 : 0;
    }
    fclose(f);
    return rc;
}

/* Ossa's sample of the source: every submesh in order, clip c as a cycle at time t. */
static size_t ossa_skin(const ossa_model *m, int c, float t, float *pos, float *phys)
{
    size_t nb = m->bone_count ? m->bone_count : 1, n = 0;
    float *lt = malloc(nb * 3 * sizeof(float)), *lr = malloc(nb * 4 * sizeof(float));
    float *ls = malloc(nb * 3 * sizeof(float)), *mt = malloc(nb * 3 * sizeof(float));
    float *mr = malloc(nb * 4 * sizeof(float)), *ms = malloc(nb * 3 * sizeof(float));
    float *pal = malloc(nb * 12 * sizeof(float));
    ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
    if (c >= 0)
        ossa_sample_clip(m, &m->clips[c], ossa_clip_wrap_time(&m->clips[c], t), OSSA_WRAP_LOOP,
                         lt, lr, ls, m->bone_count, NULL);
    ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
    ossa_skin_palette(m, mt, mr, ms, pal, m->bone_count, NULL);
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            float *nrm = malloc(3 * sizeof(float) * (sm->vertex_count + 1));
            ossa_skin_submesh_scalar(sm, pal, pos + 3 * n, nrm, sm->vertex_count, NULL);
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                phys[n + v] = sm->physique_weights ? sm->physique_weights[v] : 0.0f;
            n += sm->vertex_count;
            free(nrm);
        }
    free(lt); free(lr); free(ls); free(mt); free(mr); free(ms); free(pal);
    return n;
}

static void check_model(const char *ossa_cli, const char *src, const char *tmp)
{
    ossa_model *m = NULL;
    ossa_error err;
    if (ossa_load_file(src, NULL, &m, &err) != OSSA_OK) {
        char text[1024];
        CHECKF(0, "%s: %s", src, ossa_error_format(&err, text, sizeof text));
        return;
    }
    char dir[1024], cfg[1100], cmd[4096];
    snprintf(dir, sizeof dir, "%s/m%d", tmp, models_checked);
    snprintf(cfg, sizeof cfg, "%s/model.cfg", dir);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && '%s' convert '%s' -o '%s' 2>/dev/null", dir,
             ossa_cli, src, cfg);
    int rc = system(cmd);
    CHECKF(rc == 0, "%s: ossa convert to a version 1100 set failed", src);
    cal3d_ref *ref = cal3d_ref_new();
    if (rc != 0 || !ref || load_set(ref, dir, cfg, src) != 0) {
        cal3d_ref_free(ref);
        ossa_model_destroy(m);
        return;
    }
    size_t total = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++)
            total += m->meshes[i].submeshes[s].vertex_count;
    float *want = malloc(3 * sizeof(float) * (total + 1)), *phys = malloc(sizeof(float) * (total + 1));
    float *got = malloc(3 * sizeof(float) * (total + 1)), *gotn = malloc(3 * sizeof(float) * (total + 1));
    float size = pm_model_size(m);
    double tol = 1e-4 * (size > 0 ? size : 1.0), worst = 0;
    int poses = 0;
    CHECKF(cal3d_ref_anim_count(ref) == (int)m->clip_count, "%s: libcal3d has %d animations, "
           "the source %u clips", src, cal3d_ref_anim_count(ref), m->clip_count);
    for (int a = -1; a < cal3d_ref_anim_count(ref) && a < (int)m->clip_count; a++) {
        for (int k = 0; k < (a < 0 ? 1 : 5); k++) {
            float t = a < 0 ? 0.0f : m->clips[a].duration * ((float)k + 0.31f) / 5.0f, mixer_t = t;
            long n = cal3d_ref_skin(ref, a, t, got, gotn, total, &mixer_t);
            CHECKF(n == (long)total, "%s: libcal3d renders %ld vertices, the source has %zu", src,
                   n, total);
            if (n != (long)total)
                continue;
            ossa_skin(m, a, a < 0 ? 0.0f : mixer_t, want, phys);
            double e = 0;
            for (size_t v = 0; v < total; v++)
                if (!(phys[v] > 0.0f))
                    for (int j = 0; j < 3; j++)
                        e = fmax(e, fabs((double)got[3 * v + j] - want[3 * v + j]));
            CHECKF(e <= tol, "%s: animation %d at %g s: off by %g (size %g)", src, a,
                   (double)mixer_t, e, (double)size);
            worst = fmax(worst, e);
            poses++;
        }
    }
    printf("%-60s %3d poses, worst %.3g (%.2g x size)\n", src, poses, worst,
           size > 0 ? worst / size : 0.0);
    worst_ratio = fmax(worst_ratio, size > 0 ? worst / size : 0.0);
    poses_checked += poses;
    models_checked++;
    free(want); free(phys); free(got); free(gotn);
    cal3d_ref_free(ref);
    ossa_model_destroy(m);
}

int main(void)
{
    const char *root = getenv("OSSA_SOURCE_ROOT"), *build = getenv("OSSA_BUILD_ROOT");
    if (!root || !build)
        return TEST_SKIP;
    char cli[1024], tmp[] = "/tmp/ossa-convert-cal3d-XXXXXX", path[2048];
    snprintf(cli, sizeof cli, "%s/tools/ossa", build);
    if (!mkdtemp(tmp))
        return 1;
    snprintf(path, sizeof path, "%s/assets/cal3d-xml/mannequin.cfg", root);
    check_model(cli, path, tmp);
    const char *assets = test_assets_dir();
    static const char *const sets[] = {"cally/cally.cfg", "hero/hero.cfg", "heroine/heroine.cfg",
                                       "marine/cal3d.cfg", "paladin/paladin.cfg",
                                       "skeleton/skeleton.cfg", "thug/thug.cfg"};
    for (size_t i = 0; assets && i < sizeof sets / sizeof sets[0]; i++) {
        snprintf(path, sizeof path, "%s/cal3d/%s", assets, sets[i]);
        check_model(cli, path, tmp);
    }
    printf("%d models converted to 1100 sets and read by libcal3d; %d poses; worst %.3g x size\n",
           models_checked, poses_checked, worst_ratio);
    CHECK(models_checked >= 1);
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return test_finish("convert-libcal3d");
}
