/* `ossa sample` time modes (the CLI binary is argv[1]): at times before a clip's start and past
 * its end, the cycle (default), --clamp and --extrapolate each print the model-space bones that
 * ossa_sample_clip gives in that mode (the cycle at the wrapped time, the others at the time as
 * given), and they differ from each other there; contradicting options are errors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"
#include "test_common.h"

/* The model-space translations the CLI printed (--bones CSV), bone_count rows. */
static bool parse_bones(const char *out, uint32_t bones, float *mt)
{
    const char *line = out ? strchr(out, '\n') : NULL;
    uint32_t rows = 0;
    while (line && line[1] && rows < bones) {
        unsigned i;
        char name[256];
        double t[3];
        if (sscanf(line + 1, "%u,%255[^,],%lf,%lf,%lf", &i, name, &t[0], &t[1], &t[2]) != 5 ||
            i != rows)
            return false;
        for (int k = 0; k < 3; k++)
            mt[3 * i + k] = (float)t[k];
        rows++;
        line = strchr(line + 1, '\n');
    }
    return rows == bones;
}

static double max_diff(const float *a, const float *b, size_t n)
{
    double worst = 0.0;
    for (size_t i = 0; i < n; i++)
        worst = fmax(worst, fabs((double)a[i] - b[i]));
    return worst;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-sample-cli OSSA\n");
        return 2;
    }
    const char *root = getenv("OSSA_SOURCE_ROOT");
    char model_path[4096];
    snprintf(model_path, sizeof model_path, "%s/assets/cal3d/mannequin.cfg", root ? root : ".");
    ossa_model *m = NULL;
    ossa_error err;
    CHECK(ossa_load_file(model_path, NULL, &m, &err) == OSSA_OK);
    if (!m)
        return test_finish("sample-cli");
    uint32_t nb = m->bone_count;
    const ossa_clip *c = &m->clips[0];
    float *lt = malloc(nb * 3 * sizeof(float)), *lr = malloc(nb * 4 * sizeof(float));
    float *ls = malloc(nb * 3 * sizeof(float)), *mt = malloc(nb * 3 * sizeof(float));
    float *mr = malloc(nb * 4 * sizeof(float)), *ms = malloc(nb * 3 * sizeof(float));
    float *cli[3], *lib = malloc(nb * 3 * sizeof(float));
    for (int k = 0; k < 3; k++)
        cli[k] = malloc(nb * 3 * sizeof(float));
    static const char *const flags[3] = {"", " --clamp", " --extrapolate"};
    static const ossa_wrap modes[3] = {OSSA_WRAP_LOOP, OSSA_WRAP_CLAMP, OSSA_WRAP_EXTRAPOLATE};
    const float times[] = {-0.4f, c->duration + 0.37f, 0.5f * c->duration};
    for (size_t ti = 0; ti < sizeof times / sizeof times[0]; ti++) {
        for (int k = 0; k < 3; k++) {
            char cmd[8192];
            snprintf(cmd, sizeof cmd, "'%s' sample '%s' --bones --clip 0 --time %.9g%s", argv[1],
                     model_path, (double)times[ti], flags[k]);
            int status = -1;
            char *out = test_run(cmd, &status);
            CHECKF(status == 0 && parse_bones(out, nb, cli[k]), "%s", cmd);
            free(out);
            float t = modes[k] == OSSA_WRAP_LOOP ? ossa_clip_wrap_time(c, times[ti]) : times[ti];
            ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
            ossa_sample_clip(m, c, t, modes[k], lt, lr, ls, m->bone_count, NULL);
            ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
            memcpy(lib, mt, nb * 3 * sizeof(float));
            double d = max_diff(cli[k], lib, 3 * (size_t)nb);
            CHECKF(d < 1e-5, "t=%g%s: the CLI is %g from ossa_sample_clip", (double)times[ti],
                   flags[k], d);
        }
        bool outside = times[ti] < 0.0f || times[ti] > c->duration;
        /* Outside the clip the three modes are three different poses; inside they agree. */
        double loop_clamp = max_diff(cli[0], cli[1], 3 * (size_t)nb);
        double clamp_extra = max_diff(cli[1], cli[2], 3 * (size_t)nb);
        double loop_extra = max_diff(cli[0], cli[2], 3 * (size_t)nb);
        if (outside)
            CHECKF(loop_clamp > 1e-3 && clamp_extra > 1e-3 && loop_extra > 1e-3,
                   "t=%g: modes too close (%g %g %g)", (double)times[ti], loop_clamp, clamp_extra,
                   loop_extra);
        else
            CHECKF(loop_clamp < 1e-6 && clamp_extra < 1e-6, "t=%g: modes differ inside the clip",
                   (double)times[ti]);
    }

    /* Contradicting or meaningless options: exit status 2 and a reason. */
    static const char *const bad[][2] = {
        {"--clip 0 --clamp --extrapolate", "contradict"},
        {"--time 0.5", "needs --clip"},
        {"--extrapolate", "needs --clip"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[8192];
        snprintf(cmd, sizeof cmd, "'%s' sample '%s' %s 2>&1", argv[1], model_path, bad[i][0]);
        int status = -1;
        char *out = test_run(cmd, &status);
        CHECKF(WIFEXITED(status) && WEXITSTATUS(status) == 2 && out && strstr(out, bad[i][1]),
               "%s: status %d: %s", bad[i][0], status, out ? out : "");
        free(out);
    }

    for (int k = 0; k < 3; k++)
        free(cli[k]);
    free(lib); free(lt); free(lr); free(ls); free(mt); free(mr); free(ms);
    ossa_model_destroy(m);
    return test_finish("sample-cli");
}
