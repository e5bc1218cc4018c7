/* SKM vertices follow Qfusion's formula exactly (docs/FORMATS.md, SKM/SKP):
 * v = sum_w [R_w origin_w + influence_w T_w], origins pre-weighted. A hand-made SKP/SKM pair (three bones in a chain, a
 * clip of three frames) carries vertices whose influences sum to 0.7, 1.3, 1 and 0.6 (one influence
 * of weight 0 with a non-zero origin, which still adds R origin), with origins that disagree or
 * agree on one point. The test evaluates the formula itself, in double, from the frames it wrote
 * (poses concatenated root first, q = qp qc, t = R(qp) tc + tp), and compares the bind pose and
 * every frame: the scalar reference, every runtime kernel, the thread pool and `ossa sample` (the
 * CLI binary is argv[1]). Agreeing origins take the blend path (the point sum u / sum w) and still
 * match; a control shows that skinning the frame-0 bind vertex by the weights, the old reading, is
 * visibly off for both. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exact_check.h"
#include "ossa/load.h"
#include "ossa/write.h"
#include "skm_test_util.h"

#define BONES 3
#define VERTS 4
#define FRAMES 4 /* bind, wave_1..3 */

static const int32_t parent_of[BONES] = {-1, 0, 1};
static const uint32_t infl_count[VERTS] = {2, 3, 1, 2};
static const float weights[VERTS][3] = {{0.4f, 0.3f}, {0.5f, 0.5f, 0.3f}, {1.0f}, {0.6f, 0.0f}};
static const uint32_t infl_bone[VERTS][3] = {{0, 1}, {0, 1, 2}, {2}, {1, 2}};
static const float odd_origins[VERTS][3][3] = {
    {{0.04f, 0.08f, 0.12f}, {0.15f, -0.06f, 0.03f}},
    {{0.5f, 0, 0}, {0, 0.15f, 0.1f}, {0.06f, 0.03f, -0.12f}},
    {{0.3f, 0.5f, 0}},
    {{0.12f, 0.12f, 0.12f}, {-0.3f, 0, 0.1f}}};
static const double targets[VERTS][3] = {
    {0.5, 0.4, 0.1}, {1.2, 1.1, 0.3}, {0.8, 2.0, -0.2}, {1.0, 1.5, 0.4}};

typedef struct pose {
    float q[4], t[3];
} pose;

static void axis_quat(double angle_deg, int axis, float q[4])
{
    double h = angle_deg * 3.14159265358979323846 / 360.0;
    q[0] = q[1] = q[2] = 0.0f;
    q[axis] = (float)sin(h);
    q[3] = (float)cos(h);
}

/* The parent-relative pose of bone j in frame f (0: bind). */
static void local_pose(uint32_t j, uint32_t f, pose *p)
{
    memset(p, 0, sizeof *p);
    if (j == 0) {
        axis_quat(30 + 10.0 * f, 2, p->q);
        p->t[0] = 0.2f;
        p->t[1] = 0.1f * (float)f;
    } else if (j == 1) {
        axis_quat(20 + 25.0 * f, 0, p->q);
        p->t[0] = 1;
        p->t[1] = 0.5f;
    } else {
        axis_quat(-15 - 30.0 * f, 1, p->q);
        p->t[0] = 0.05f * (float)f;
        p->t[1] = 1;
    }
}

static void qrot(const double q[4], const double v[3], double out[3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double uv[3] = {y * v[2] - z * v[1], z * v[0] - x * v[2], x * v[1] - y * v[0]};
    double uuv[3] = {y * uv[2] - z * uv[1], z * uv[0] - x * uv[2], x * uv[1] - y * uv[0]};
    for (int c = 0; c < 3; c++)
        out[c] = v[c] + 2.0 * (w * uv[c] + uuv[c]);
}

/* Absolute poses of frame f, in double: q = qp qc, t = R(qp) tc + tp (stored quaternions
 * normalised, as the reader does). */
static void absolute(uint32_t f, double q[BONES][4], double t[BONES][3])
{
    for (uint32_t j = 0; j < BONES; j++) {
        pose p;
        local_pose(j, f, &p);
        double n = sqrt((double)p.q[0] * p.q[0] + (double)p.q[1] * p.q[1] +
                        (double)p.q[2] * p.q[2] + (double)p.q[3] * p.q[3]);
        double lq[4] = {p.q[0] / n, p.q[1] / n, p.q[2] / n, p.q[3] / n};
        double lt[3] = {p.t[0], p.t[1], p.t[2]};
        if (parent_of[j] < 0) {
            memcpy(q[j], lq, sizeof lq);
            memcpy(t[j], lt, sizeof lt);
            continue;
        }
        const double *a = q[parent_of[j]];
        q[j][0] = a[3] * lq[0] + a[0] * lq[3] + a[1] * lq[2] - a[2] * lq[1];
        q[j][1] = a[3] * lq[1] - a[0] * lq[2] + a[1] * lq[3] + a[2] * lq[0];
        q[j][2] = a[3] * lq[2] + a[0] * lq[1] - a[1] * lq[0] + a[2] * lq[3];
        q[j][3] = a[3] * lq[3] - a[0] * lq[0] - a[1] * lq[1] - a[2] * lq[2];
        double moved[3];
        qrot(a, lt, moved);
        for (int c = 0; c < 3; c++)
            t[j][c] = moved[c] + t[parent_of[j]][c];
    }
}

typedef struct fixture {
    int agree;
    float origins[VERTS][3][3];
} fixture;

static void make_origins(fixture *fx)
{
    double q[BONES][4], t[BONES][3];
    absolute(0, q, t);
    for (uint32_t v = 0; v < VERTS; v++)
        for (uint32_t k = 0; k < infl_count[v]; k++) {
            if (!fx->agree) {
                memcpy(fx->origins[v][k], odd_origins[v][k], sizeof fx->origins[v][k]);
                continue;
            }
            /* w R0^-1 (p - T0): every influence says p */
            uint32_t j = infl_bone[v][k];
            double inv[4] = {-q[j][0], -q[j][1], -q[j][2], q[j][3]};
            double d[3] = {targets[v][0] - t[j][0], targets[v][1] - t[j][1],
                           targets[v][2] - t[j][2]};
            double o[3];
            qrot(inv, d, o);
            for (int c = 0; c < 3; c++)
                fx->origins[v][k][c] = (float)(weights[v][k] * o[c]);
        }
}

/* Qfusion's vertex v in frame f. */
static void expected_vertex(const fixture *fx, uint32_t v, uint32_t f, double out[3])
{
    double q[BONES][4], t[BONES][3];
    absolute(f, q, t);
    out[0] = out[1] = out[2] = 0;
    for (uint32_t k = 0; k < infl_count[v]; k++) {
        uint32_t j = infl_bone[v][k];
        double o[3] = {fx->origins[v][k][0], fx->origins[v][k][1], fx->origins[v][k][2]}, r[3];
        qrot(q[j], o, r);
        for (int c = 0; c < 3; c++)
            out[c] += r[c] + weights[v][k] * t[j][c];
    }
}

static void build_skp(skt_bytes *b)
{
    static const char *const names[BONES] = {"root", "upper", "lower"};
    static const char *const frames[FRAMES] = {"bind", "wave_1", "wave_2", "wave_3"};
    skt_u32(b, 0x314D4B53u); /* "SKM1" */
    skt_u32(b, 2);
    skt_u32(b, 0);
    skt_u32(b, BONES);
    skt_u32(b, FRAMES);
    skt_u32(b, 28);
    skt_u32(b, 28 + BONES * 72);
    for (uint32_t j = 0; j < BONES; j++) {
        skt_name(b, names[j]);
        skt_u32(b, (uint32_t)parent_of[j]);
        skt_u32(b, 0);
    }
    size_t poses = b->size + FRAMES * 68;
    for (uint32_t f = 0; f < FRAMES; f++) {
        skt_name(b, frames[f]);
        skt_u32(b, (uint32_t)(poses + f * BONES * 28));
    }
    for (uint32_t f = 0; f < FRAMES; f++)
        for (uint32_t j = 0; j < BONES; j++) {
            pose p;
            local_pose(j, f, &p);
            skt_floats(b, p.q, 4);
            skt_floats(b, p.t, 3);
        }
    skt_patch_u32(b, 8, (uint32_t)b->size);
}

static void build_skm(skt_bytes *b, const fixture *fx)
{
    skt_u32(b, 0x314D4B53u);
    skt_u32(b, 2);
    skt_u32(b, 0);
    skt_u32(b, BONES);
    skt_u32(b, 1);
    skt_u32(b, 24);
    size_t verts = 24 + 156, vbytes = 0;
    for (uint32_t v = 0; v < VERTS; v++)
        vbytes += 4 + 32 * (size_t)infl_count[v];
    size_t uvs = verts + vbytes, indices = uvs + 8 * VERTS, refs = indices + 2 * 12;
    skt_name(b, "skin");
    skt_name(b, "body");
    skt_u32(b, VERTS);
    skt_u32(b, 2);
    skt_u32(b, BONES);
    skt_u32(b, (uint32_t)verts);
    skt_u32(b, (uint32_t)uvs);
    skt_u32(b, (uint32_t)indices);
    skt_u32(b, (uint32_t)refs);
    for (uint32_t v = 0; v < VERTS; v++) {
        skt_u32(b, infl_count[v]);
        for (uint32_t k = 0; k < infl_count[v]; k++) {
            const float n[3] = {0, 0, 1};
            skt_floats(b, fx->origins[v][k], 3);
            skt_f32(b, weights[v][k]);
            skt_floats(b, n, 3);
            skt_u32(b, infl_bone[v][k]);
        }
    }
    for (uint32_t v = 0; v < 2 * VERTS; v++)
        skt_f32(b, 0.0f);
    static const uint32_t tris[6] = {0, 1, 2, 0, 2, 3};
    for (int i = 0; i < 6; i++)
        skt_u32(b, tris[i]);
    for (uint32_t j = 0; j < BONES; j++)
        skt_u32(b, j);
    skt_patch_u32(b, 8, (uint32_t)b->size);
}

/* A copy written by a writer and read back: submesh 0 against the formula at the rest pose and
 * every frame of "wave" (same vertex order). */
static void verify_copy(const ossa_model *m, const fixture *fx, const char *what, int want_exact)
{
    uint32_t wave = ossa_model_find_clip(m, "wave");
    CHECKF(wave != OSSA_NOT_FOUND && m->mesh_count >= 1, "%s: no clip 'wave' or no mesh", what);
    if (wave == OSSA_NOT_FOUND || !m->mesh_count)
        return;
    const ossa_submesh *sm = &m->meshes[0].submeshes[0];
    CHECKF(sm->vertex_count == VERTS && sm->influence_points, "%s: %u vertices", what,
           sm->vertex_count);
    if (sm->vertex_count != VERTS)
        return;
    double size = 0;
    for (uint32_t v = 0; v < VERTS; v++) {
        double e[3];
        expected_vertex(fx, v, 0, e);
        for (int c = 0; c < 3; c++)
            size = fmax(size, fabs(e[c]));
    }
    for (uint32_t f = 0; f < FRAMES; f++) {
        double expect[VERTS][3];
        for (uint32_t v = 0; v < VERTS; v++)
            expected_vertex(fx, v, f, expect[v]);
        float *pal = ex_palette(m, f ? &m->clips[wave] : NULL, f ? (float)(f - 1) / 10.0f : 0.0f);
        char label[200];
        snprintf(label, sizeof label, "%s, frame %u", what, f);
        ex_check_submesh(sm, m->bone_count, pal, &expect[0][0], 2e-6 * size, want_exact, label);
        free(pal);
    }
}

/* Written as SKM (and, where no influence of weight 0 has an origin, which C3S cannot hold, as
 * C3S) and read back: every influence keeps its own origin. */
static void round_trips(const ossa_model *m, const fixture *fx, const char *what)
{
    char dir[512], path[1100], label[200];
    if (!skt_make_dir(dir, sizeof dir)) {
        CHECK(!"temporary folder");
        return;
    }
    ossa_error err;
    CHECKF(ossa_write_skm(m, dir, "copy", &(ossa_skm_write_options){.frame_rate = 10.0f}, &err) == OSSA_OK, "%s: %s", what, err.message);
    ossa_model *back = NULL;
    CHECKF(ossa_load_file(test_path(path, sizeof path, dir, "copy.skm"), NULL, &back, &err) ==
           OSSA_OK, "%s: %s", what, err.message);
    snprintf(label, sizeof label, "%s, SKM copy", what);
    if (back)
        verify_copy(back, fx, label, !fx->agree);
    ossa_model_destroy(back);
    if (fx->agree) {
        ossa_c3s_write_options opt = {.vertex_frames = false, .frame_rate = 10.0f};
        test_path(path, sizeof path, dir, "copy.c3s");
        CHECKF(ossa_write_c3s(m, path, &opt, &err) == OSSA_OK, "%s: %s", what, err.message);
        back = NULL;
        CHECKF(ossa_load_file(path, NULL, &back, &err) == OSSA_OK, "%s: %s", what, err.message);
        snprintf(label, sizeof label, "%s, C3S copy", what);
        if (back)
            verify_copy(back, fx, label, 0);
        ossa_model_destroy(back);
    }
    skt_remove_dir(dir);
}

static void run_fixture(const char *cli, int agree)
{
    fixture fx = {agree, {{{0}}}};
    make_origins(&fx);
    const char *what = agree ? "agreeing origins" : "disagreeing origins";
    char dir[512], path[1024];
    if (!skt_make_dir(dir, sizeof dir)) {
        CHECK(!"temporary folder");
        return;
    }
    skt_bytes skp = {0}, skm = {0};
    build_skp(&skp);
    build_skm(&skm, &fx);
    CHECK(skt_write(dir, "exact.skp", skp.data, skp.size));
    CHECK(skt_write(dir, "exact.skm", skm.data, skm.size));
    test_path(path, sizeof path, dir, "exact.skm");
    ossa_model *m = NULL;
    ossa_error err;
    CHECKF(ossa_load_file(path, NULL, &m, &err) == OSSA_OK, "%s: %s", what, err.message);
    uint32_t wave = m ? ossa_model_find_clip(m, "wave") : OSSA_NOT_FOUND;
    CHECK(wave != OSSA_NOT_FOUND);
    if (!m || wave == OSSA_NOT_FOUND) {
        ossa_model_destroy(m);
        skt_free(&skp);
        skt_free(&skm);
        skt_remove_dir(dir);
        return;
    }
    const ossa_submesh *sm = &m->meshes[0].submeshes[0];
    CHECK(sm->vertex_count == VERTS && sm->influence_points != NULL);
    double bind[VERTS][3], size = 0;
    for (uint32_t v = 0; v < VERTS; v++) {
        expected_vertex(&fx, v, 0, bind[v]);
        for (int c = 0; c < 3; c++)
            size = fmax(size, fabs(bind[v][c]));
    }
    double tol = 2e-6 * size;
    /* the bind vertex is the frame-0 sum */
    for (uint32_t v = 0; v < VERTS; v++)
        for (int c = 0; c < 3; c++)
            CHECK_NEAR(sm->positions[3 * v + c], bind[v][c], tol);

    double worst_old = 0;
    for (uint32_t f = 0; f < FRAMES; f++) {
        /* f = 0: the rest pose; f >= 1: frame wave_f at (f - 1) / 10 s */
        double expect[VERTS][3];
        for (uint32_t v = 0; v < VERTS; v++)
            expected_vertex(&fx, v, f, expect[v]);
        const ossa_clip *clip = f ? &m->clips[wave] : NULL;
        float t = f ? (float)(f - 1) / 10.0f : 0.0f;
        float *pal = ex_palette(m, clip, t);
        char label[160];
        snprintf(label, sizeof label, "%s, frame %u", what, f);
        ex_check_submesh(sm, m->bone_count, pal, &expect[0][0], tol, !agree, label);

        ossa_submesh old = *sm;
        old.influence_points = NULL;
        float old_p[3 * VERTS];
        ossa_skin_submesh_scalar(&old, pal, old_p, NULL, old.vertex_count, NULL);
        for (uint32_t v = 0; v < VERTS; v++)
            for (int c = 0; c < 3; c++)
                worst_old = fmax(worst_old, fabs(old_p[3 * v + c] - expect[v][c]));

        float cli_p[3 * VERTS];
        uint32_t got = ex_cli_sample(cli, path, f ? "wave" : NULL, t, 0, 0, VERTS, cli_p);
        CHECKF(got == VERTS, "%s: ossa sample printed %u of %u vertices", label, got, VERTS);
        snprintf(label, sizeof label, "%s, frame %u: ossa sample", what, f);
        CHECKF(ex_compare(cli_p, NULL, &expect[0][0], VERTS, tol + 1e-7 * size, label) == 0, "%s",
               label);
        free(pal);
    }
    CHECKF(worst_old > 0.01 * size, "%s: the old reading is only %g off", what, worst_old);
    round_trips(m, &fx, what);
    ossa_model_destroy(m);
    skt_free(&skp);
    skt_free(&skm);
    skt_remove_dir(dir);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-skm-exact OSSA_CLI\n");
        return 1;
    }
    run_fixture(argv[1], 0);
    run_fixture(argv[1], 1);
    return test_finish("skm-exact");
}
