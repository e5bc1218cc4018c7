/* `ossa info` and `ossa sample` on SKM: the demo as the writer produces it (also opened through
 * a Qfusion demo.cfg) and the hand-made pair (whose bind disagreement is 1.5), run through the
 * command line (path in argv[1]) and compared with the same model posed in this process. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "ossa/load.h"
#include "ossa/write.h"
#include "skm_hand.h"

/* Runs a command and returns its standard output (malloc'ed), or NULL when it failed. */
static char *run(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t size = 0, cap = 4096;
    char *out = malloc(cap);
    size_t n;
    while (out && (n = fread(out + size, 1, cap - size - 1, p)) > 0) {
        size += n;
        if (cap - size < 2) {
            char *grown = realloc(out, cap * 2);
            if (!grown) {
                free(out);
                out = NULL;
                break;
            }
            out = grown;
            cap *= 2;
        }
    }
    int rc = pclose(p);
    if (!out)
        return NULL;
    out[size] = '\0';
    if (rc != 0) {
        fprintf(stderr, "'%s' exited with %d\n", cmd, rc);
        free(out);
        return NULL;
    }
    return out;
}

static void check_info(const char *ossa, const char *dir)
{
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "'%s' info '%s/demo.skm'", ossa, dir);
    char *out = run(cmd);
    CHECK(out != NULL);
    if (out) {
        CHECKF(strstr(out, "format: SKM\n") && strstr(out, "bones: 19 (SKP v2)") &&
                   strstr(out, "bind disagreement: ") && strstr(out, "clip 1 'wave' (SKP v2): "
                                                                  "duration 2.000 s, tracks 19") &&
                   strstr(out, "submesh 0: vertices 192") && strstr(out, "warnings: 0"),
               "%s", out);
        free(out);
    }
    snprintf(cmd, sizeof cmd, "'%s' info --json '%s/demo.skm'", ossa, dir);
    out = run(cmd);
    CHECK(out && strstr(out, "\"format\":\"SKM\"") && strstr(out, "\"bind_disagreement\":"));
    free(out);
    snprintf(cmd, sizeof cmd, "'%s' info '%s/hand.skm'", ossa, dir);
    out = run(cmd);
    CHECKF(out && strstr(out, "bind disagreement: 1.5 "), "%s", out ? out : "");
    free(out);
    /* A Qfusion cfg opened on its own is its .skm. */
    CHECK(skt_write(dir, "demo.cfg", "import demo.skp\n", 16));
    snprintf(cmd, sizeof cmd, "'%s' info '%s/demo.cfg'", ossa, dir);
    out = run(cmd);
    CHECKF(out && strstr(out, "format: SKM\n") && strstr(out, "bones: 19 (SKP v2)"), "%s",
           out ? out : "");
    free(out);
}

/* Parses CSV rows of 9 (vertices) or the bone rows; returns the numbers after the leading
 * index columns, count in *n. */
static float *parse_csv(const char *text, size_t skip_cols, size_t values, size_t *rows)
{
    size_t cap = 1024, n = 0;
    float *v = malloc(cap * sizeof *v);
    const char *line = strchr(text, '\n'); /* past the header */
    while (v && line && line[1]) {
        line++;
        const char *p = line;
        for (size_t c = 0; c < skip_cols && p; c++) {
            p = strchr(p, ',');
            if (p)
                p++;
        }
        for (size_t k = 0; k < values && p; k++) {
            if (n == cap) {
                float *grown = realloc(v, 2 * cap * sizeof *v);
                if (!grown) {
                    free(v);
                    return NULL;
                }
                v = grown;
                cap *= 2;
            }
            char *end;
            v[n++] = strtof(p, &end);
            p = *end == ',' ? end + 1 : NULL;
        }
        line = strchr(line, '\n');
    }
    *rows = n / values;
    return v;
}

static void check_sample(const char *ossa, const char *dir)
{
    char path[4200], cmd[9000];
    snprintf(path, sizeof path, "%s/demo.skm", dir);
    ossa_model *m = NULL;
    ossa_error err;
    CHECK(ossa_load_file(path, NULL, &m, &err) == OSSA_OK);
    if (!m)
        return;
    uint32_t wave = ossa_model_find_clip(m, "wave");
    CHECK(wave != OSSA_NOT_FOUND);
    skt_pose pose;
    skt_pose_at(m, &m->clips[wave], 0.55f, &pose);

    snprintf(cmd, sizeof cmd, "'%s' sample '%s' --clip wave --time 0.55", ossa, path);
    char *out = run(cmd);
    CHECK(out && strncmp(out, "mesh,submesh,vertex,px,py,pz,nx,ny,nz\n", 38) == 0);
    size_t rows = 0;
    float *v = out ? parse_csv(out, 3, 6, &rows) : NULL;
    CHECKF(rows == pose.vertices, "%zu rows for %zu vertices", rows, pose.vertices);
    for (size_t i = 0; v && i < rows && i < pose.vertices; i++) {
        CHECK_NEAR(v[6 * i], pose.pos[3 * i], 1e-6);
        CHECK_NEAR(v[6 * i + 4], pose.nrm[3 * i + 1], 1e-6);
    }
    free(v);
    free(out);

    snprintf(cmd, sizeof cmd, "'%s' sample '%s' --clip wave --time 0.55 --bones", ossa, path);
    out = run(cmd);
    CHECK(out && strncmp(out, "bone,name,tx,ty,tz,qx,qy,qz,qw\n", 31) == 0);
    v = out ? parse_csv(out, 2, 7, &rows) : NULL;
    CHECK(rows == m->bone_count);
    for (size_t i = 0; v && i < rows && i < m->bone_count; i++) {
        CHECK_NEAR(v[7 * i], pose.mt[3 * i], 1e-6);
        CHECK_NEAR(v[7 * i + 6], pose.mr[4 * i + 3], 1e-6);
    }
    free(v);
    free(out);
    skt_pose_free(&pose);
    ossa_model_destroy(m);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-skm-cli PATH-TO-OSSA\n");
        return 2;
    }
    ossa_model *demo = NULL;
    ossa_error err;
    char dir[4096];
    if (ossa_demo_model(&demo, &err) != OSSA_OK || !skt_make_dir(dir, sizeof dir))
        return 1;
    CHECK(ossa_write_skm(demo, dir, "demo", NULL, &err) == OSSA_OK);
    skt_bytes skp, skm;
    skm_hand_layout layout;
    skm_hand_build(&skp, &skm, &layout);
    CHECK(skt_write(dir, "hand.skp", skp.data, skp.size));
    CHECK(skt_write(dir, "hand.skm", skm.data, skm.size));
    check_info(argv[1], dir);
    check_sample(argv[1], dir);
    skt_free(&skp);
    skt_free(&skm);
    skt_remove_dir(dir);
    ossa_model_destroy(demo);
    return test_finish("skm-cli");
}
