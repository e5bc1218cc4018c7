/* Weighted vertices follow D9 (docs/FORMATS.md) exactly: a vertex is the sum over its weights of
 * weightFactor x (bone world transform applied to offsetPos), with no division by the weights'
 * total and each weight its own offset. A hand-made chain of three bones carries vertices whose
 * weights sum to 0.7, 1.3 and 1 with offsets that disagree; the test evaluates the formula
 * itself, in double, by applying each bone's OCS chain (t + R(q)(s p), animOCS first, then
 * baseOCS, then the parent's) and compares at the bind pose and at every key of a sequence:
 * the scalar reference, every runtime kernel, the thread pool and `ossa sample` (the CLI binary
 * is argv[1]). Offsets that agree take the blend path and still match; offsets that agree under
 * a bone with a non-unit base scale (which the inverse binds leave out) take the exact path.
 * A control shows the old reading (one weighted-mean bind vertex) is visibly off here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "c3s_test_util.h"
#include "ossa/write.h"
#include "exact_check.h"
#include "test_common.h"

#define BONES 3
#define VERTS 4
#define KEYS 3
#define RATE 2.0f

typedef struct ocs {
    float s[3], q[4], t[3];
} ocs;

static const uint32_t parent_of[BONES] = {0, 1, 2}; /* 1-based, 0 = root */
static const uint32_t weight_count[VERTS] = {2, 3, 1, 2};
static const float factors[VERTS][3] = {{0.4f, 0.3f}, {0.5f, 0.5f, 0.3f}, {1.0f}, {0.6f, 0.4f}};
static const uint32_t weight_bone[VERTS][3] = {{1, 2}, {1, 2, 3}, {3}, {2, 3}};
/* disagreeing offsets */
static const float odd_offsets[VERTS][3][3] = {
    {{0.1f, 0.2f, 0.3f}, {0.5f, -0.2f, 0.1f}},
    {{1, 0, 0}, {0, 0.3f, 0.2f}, {0.2f, 0.1f, -0.4f}},
    {{0.3f, 0.5f, 0}},
    {{0.2f, 0.2f, 0.2f}, {-0.3f, 0, 0.1f}}};
/* bind positions the agreeing offsets are made from */
static const double targets[VERTS][3] = {
    {0.5, 0.4, 0.1}, {1.2, 1.1, 0.3}, {0.8, 2.0, -0.2}, {1.0, 1.5, 0.4}};

static void axis_quat(double angle_deg, int axis, float q[4])
{
    double h = angle_deg * 3.14159265358979323846 / 360.0;
    q[0] = q[1] = q[2] = 0.0f;
    q[axis] = (float)sin(h);
    q[3] = (float)cos(h);
}

static void base_ocs(uint32_t j, float upper_scale, ocs *o)
{
    static const int axes[BONES] = {2, 0, 1};
    static const double angles[BONES] = {30, 20, -15};
    static const float t[BONES][3] = {{0.2f, 0, 0}, {1, 0.5f, 0}, {0, 1, 0}};
    float s = j == 1 ? upper_scale : 1.0f;
    for (int c = 0; c < 3; c++) {
        o->s[c] = s;
        o->t[c] = t[j][c];
    }
    axis_quat(angles[j], axes[j], o->q);
}

static void anim_ocs(uint32_t j, uint32_t key, ocs *o)
{
    double k = key;
    memset(o, 0, sizeof *o);
    for (int c = 0; c < 3; c++)
        o->s[c] = 1.0f;
    if (j == 0) {
        axis_quat(10 * k, 2, o->q);
        o->t[1] = (float)(0.1 * k);
    } else if (j == 1) {
        axis_quat(25 * k, 1, o->q);
        o->t[0] = (float)(0.05 * k);
    } else {
        axis_quat(-30 * k, 0, o->q);
        for (int c = 0; c < 3; c++)
            o->s[c] = (float)(1.0 + 0.1 * k);
    }
}

/* p -> t + R(q)(s p), in double (q normalised as the reader does). */
static void ocs_apply(const ocs *o, const double p[3], double out[3])
{
    double n = sqrt((double)o->q[0] * o->q[0] + (double)o->q[1] * o->q[1] +
                    (double)o->q[2] * o->q[2] + (double)o->q[3] * o->q[3]);
    double x = o->q[0] / n, y = o->q[1] / n, z = o->q[2] / n, w = o->q[3] / n;
    double v[3] = {o->s[0] * p[0], o->s[1] * p[1], o->s[2] * p[2]};
    double uv[3] = {y * v[2] - z * v[1], z * v[0] - x * v[2], x * v[1] - y * v[0]};
    double uuv[3] = {y * uv[2] - z * uv[1], z * uv[0] - x * uv[2], x * uv[1] - y * uv[0]};
    for (int c = 0; c < 3; c++)
        out[c] = v[c] + 2.0 * (w * uv[c] + uuv[c]) + o->t[c];
}

/* Bone j's world transform applied to p (key < 0: the base pose). */
static void world_apply(uint32_t j, int key, float upper_scale, const double p[3], double out[3])
{
    double cur[3] = {p[0], p[1], p[2]};
    for (uint32_t b = j + 1; b; b = parent_of[b - 1]) {
        ocs o;
        if (key >= 0) {
            anim_ocs(b - 1, (uint32_t)key, &o);
            ocs_apply(&o, cur, cur);
        }
        base_ocs(b - 1, upper_scale, &o);
        ocs_apply(&o, cur, cur);
    }
    memcpy(out, cur, sizeof cur);
}

/* The inverse of the base-pose world transform: offsets that land on a target. */
static void world_unapply(uint32_t j, float upper_scale, const double p[3], float out[3])
{
    uint32_t chain[BONES], n = 0;
    for (uint32_t b = j + 1; b; b = parent_of[b - 1])
        chain[n++] = b - 1;
    double cur[3] = {p[0], p[1], p[2]};
    while (n--) { /* root first */
        ocs o;
        base_ocs(chain[n], upper_scale, &o);
        float inv[4] = {-o.q[0], -o.q[1], -o.q[2], o.q[3]};
        ocs r = {{1, 1, 1}, {inv[0], inv[1], inv[2], inv[3]}, {0, 0, 0}};
        double d[3] = {cur[0] - o.t[0], cur[1] - o.t[1], cur[2] - o.t[2]};
        ocs_apply(&r, d, cur);
        for (int c = 0; c < 3; c++)
            cur[c] /= o.s[c];
    }
    for (int c = 0; c < 3; c++)
        out[c] = (float)cur[c];
}

typedef struct fixture {
    float upper_scale;
    int agree;
    float offsets[VERTS][3][3];
} fixture;

static void make_offsets(fixture *f)
{
    for (uint32_t v = 0; v < VERTS; v++)
        for (uint32_t k = 0; k < weight_count[v]; k++) {
            if (f->agree)
                world_unapply(weight_bone[v][k] - 1, f->upper_scale, targets[v], f->offsets[v][k]);
            else
                memcpy(f->offsets[v][k], odd_offsets[v][k], sizeof f->offsets[v][k]);
        }
}

/* D9's vertex v at a key (-1: the base pose), and the weighted mean of its terms. */
static void expected_vertex(const fixture *f, uint32_t v, int key, double out[3], double mean[3])
{
    double total = 0;
    for (int c = 0; c < 3; c++)
        out[c] = 0;
    for (uint32_t k = 0; k < weight_count[v]; k++) {
        double off[3] = {f->offsets[v][k][0], f->offsets[v][k][1], f->offsets[v][k][2]}, p[3];
        world_apply(weight_bone[v][k] - 1, key, f->upper_scale, off, p);
        for (int c = 0; c < 3; c++)
            out[c] += factors[v][k] * p[c];
        total += factors[v][k];
    }
    for (int c = 0; mean && c < 3; c++)
        mean[c] = out[c] / total;
}

static void put_scene(ct_buf *b, const fixture *f)
{
    ct_start_scene(b);
    size_t model = ct_begin_model(b, "chain");
    for (uint32_t v = 0; v < VERTS; v++) {
        size_t c = ct_sub(b, "VRTX", "", 0);
        ct_f32(b, 0.0f);
        ct_cdw(b, 0);
        ct_cdw(b, 0);
        ct_cdw(b, weight_count[v]);
        for (uint32_t k = 0; k < weight_count[v]; k++) {
            ct_f32(b, factors[v][k]);
            ct_f32v(b, f->offsets[v][k], 3);
            ct_cdw(b, weight_bone[v][k]);
        }
        ct_end(b, c);
    }
    /* two triangles (1 2 3) and (1 3 4) as edge rings: edge 3i + k + 1 from ring vertex k */
    static const uint32_t rings[2][3] = {{1, 2, 3}, {1, 3, 4}};
    for (uint32_t i = 0; i < 2; i++)
        for (uint32_t k = 0; k < 3; k++) {
            size_t c = ct_sub(b, "EDGE", "", 0);
            ct_f32(b, 0.0f);
            ct_cdw(b, rings[i][(k + 1) % 3]);
            ct_cdw(b, rings[i][k]);
            ct_cdw(b, 0);
            ct_cdw(b, 1);
            ct_cdw(b, i + 1);
            ct_end(b, c);
        }
    for (uint32_t i = 0; i < 2; i++) {
        size_t c = ct_sub(b, "TRIF", "", 0);
        ct_f32(b, 0.0f);
        ct_cdw(b, 0);
        for (uint32_t k = 0; k < 3; k++)
            ct_cdw(b, 3 * i + k + 1);
        for (uint32_t k = 0; k < 3; k++)
            ct_cdw(b, 0);
        ct_cdw(b, 0);
        ct_end(b, c);
    }
    static const char *const names[BONES] = {"root", "upper", "lower"};
    for (uint32_t j = 0; j < BONES; j++) {
        ocs o;
        base_ocs(j, f->upper_scale, &o);
        size_t c = ct_sub(b, "BONE", names[j], 0);
        ct_ocs(b, o.s, o.q, o.t);
        ct_cdw(b, parent_of[j]);
        ct_cdw(b, j + 1 < BONES ? 1u : 0u);
        if (j + 1 < BONES)
            ct_cdw(b, j + 2);
        ct_end(b, c);
    }
    size_t c = ct_sub(b, "ASEQ", "wave", 0);
    ct_f32(b, RATE);
    ct_str(b, "");
    ct_cdw(b, KEYS);
    for (uint32_t key = 0; key < KEYS; key++) {
        ct_cdw(b, 0);
        ct_cdw(b, BONES);
        for (uint32_t j = 0; j < BONES; j++) {
            ocs o;
            anim_ocs(j, key, &o);
            ct_cdw(b, j + 1);
            ct_ocs(b, o.s, o.q, o.t);
        }
        ct_cdw(b, 0);
    }
    ct_cdw(b, 0);
    ct_cdw(b, 0);
    ct_end(b, c);
    ct_end(b, model);
    ct_finish(b);
}

static double model_size(double (*bind)[3])
{
    double s = 0;
    for (uint32_t v = 0; v < VERTS; v++)
        for (int c = 0; c < 3; c++)
            s = fmax(s, fabs(bind[v][c]));
    return s;
}

/* A model written from the fixture and read back: its submesh 0 matches the formula at the
 * bind pose and at keys [0, keys) of "wave" (vertices matched by their bind positions). */
static void verify_copy(const ossa_model *m, const fixture *f, const char *what, int want_exact,
                        double tol, int keys)
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
    uint32_t vrtx[VERTS];
    for (uint32_t r = 0; r < VERTS; r++) {
        vrtx[r] = VERTS;
        for (uint32_t v = 0; v < VERTS; v++) {
            double e[3];
            expected_vertex(f, v, -1, e, NULL);
            const float *p = sm->positions + 3 * r;
            if (fabs(p[0] - e[0]) + fabs(p[1] - e[1]) + fabs(p[2] - e[2]) <= 3 * tol)
                vrtx[r] = v;
        }
        CHECKF(vrtx[r] < VERTS, "%s: vertex %u's bind position matches no vertex", what, r);
        if (vrtx[r] == VERTS)
            return;
    }
    for (int key = -1; key < keys; key++) {
        double expect[VERTS][3];
        for (uint32_t r = 0; r < VERTS; r++)
            expected_vertex(f, vrtx[r], key, expect[r], NULL);
        float *pal = ex_palette(m, key < 0 ? NULL : &m->clips[wave],
                                key < 0 ? 0.0f : (float)key / RATE);
        char label[200];
        snprintf(label, sizeof label, "%s, key %d", what, key);
        ex_check_submesh(sm, m->bone_count, pal, &expect[0][0], tol, want_exact, label);
        free(pal);
    }
}

/* Written as C3S (and, without bone scale, which SKM cannot hold, as SKM) and read back: each
 * weight keeps its own offset, so the vertices stay exact. */
static void round_trips(const ossa_model *m, const fixture *f, const char *what, int want_exact,
                        double tol)
{
    char path[512], label[200];
    ossa_error err;
    CHECK(ct_temp_path(path, sizeof path, "copy.c3s"));
    ossa_c3s_write_options opt = {.vertex_frames = false, .frame_rate = RATE};
    CHECKF(ossa_write_c3s(m, path, &opt, &err) == OSSA_OK, "%s: %s", what, err.message);
    ossa_model *back = NULL;
    CHECKF(ossa_load_file(path, NULL, &back, &err) == OSSA_OK, "%s: %s", what, err.message);
    snprintf(label, sizeof label, "%s, C3S copy", what);
    if (back)
        verify_copy(back, f, label, want_exact, tol, KEYS);
    ossa_model_destroy(back);
    ct_remove_temp(path);
    if (f->upper_scale != 1.0f)
        return;
    char dir[400];
    CHECK(ct_temp_path(dir, sizeof dir, "skm"));
    CHECK(mkdir(dir, 0700) == 0);
    CHECKF(ossa_write_skm(m, dir, "copy", &(ossa_skm_write_options){.frame_rate = 10.0f}, &err) == OSSA_OK, "%s: %s", what, err.message);
    snprintf(path, sizeof path, "%s/copy.skm", dir);
    back = NULL;
    CHECKF(ossa_load_file(path, NULL, &back, &err) == OSSA_OK, "%s: %s", what, err.message);
    snprintf(label, sizeof label, "%s, SKM copy", what);
    if (back) /* key 0 only: later keys scale the bone "lower", which SKM cannot hold */
        verify_copy(back, f, label, want_exact, tol, 1);
    ossa_model_destroy(back);
    remove(path);
    snprintf(path, sizeof path, "%s/copy.skp", dir);
    remove(path);
    ct_remove_temp(dir);
}

static void run_fixture(const char *cli, float upper_scale, int agree, int want_exact)
{
    fixture f = {upper_scale, agree, {{{0}}}};
    make_offsets(&f);
    char what[160];
    snprintf(what, sizeof what, "scale %g, offsets %s", (double)upper_scale,
             agree ? "agreeing" : "disagreeing");
    ct_buf b;
    ct_init(&b);
    put_scene(&b, &f);
    ossa_model *m = NULL;
    ossa_error err;
    CHECKF(ct_load(&b, &m, &err) == OSSA_OK, "%s: %s", what, err.message);
    if (!m) {
        ct_free(&b);
        return;
    }
    CHECK(m->bone_count == BONES && m->clip_count == 1 && m->mesh_count == 1);
    const ossa_submesh *sm = &m->meshes[0].submeshes[0];
    CHECK(sm->vertex_count == VERTS && sm->influence_points != NULL);
    double bind[VERTS][3], mean[VERTS][3];
    for (uint32_t v = 0; v < VERTS; v++)
        expected_vertex(&f, v, -1, bind[v], mean[v]);
    double size = model_size(bind), tol = 2e-6 * size;

    /* render vertex -> VRTX, by its bind position (the sum, not the mean) */
    uint32_t vrtx[VERTS];
    for (uint32_t r = 0; r < sm->vertex_count && r < VERTS; r++) {
        vrtx[r] = VERTS;
        for (uint32_t v = 0; v < VERTS; v++) {
            const float *p = sm->positions + 3 * r;
            if (fabs(p[0] - bind[v][0]) + fabs(p[1] - bind[v][1]) + fabs(p[2] - bind[v][2]) <=
                3 * tol)
                vrtx[r] = v;
        }
        CHECKF(vrtx[r] < VERTS, "%s: render vertex %u's bind position matches no vertex's sum",
               what, r);
    }
    if (test_failures) {
        ossa_model_destroy(m);
        ct_free(&b);
        return;
    }
    char path[512];
    CHECK(ct_temp_path(path, sizeof path, "exact.c3s"));
    FILE *out = fopen(path, "wb");
    CHECK(out && fwrite(b.data, 1, b.size, out) == b.size);
    if (out)
        fclose(out);

    double worst_old = 0;
    for (int key = -1; key < KEYS; key++) {
        double expect[VERTS][3], old_expect[VERTS][3];
        for (uint32_t r = 0; r < VERTS; r++)
            expected_vertex(&f, vrtx[r], key, expect[r], NULL);
        const ossa_clip *clip = key < 0 ? NULL : &m->clips[0];
        float t = key < 0 ? 0.0f : (float)key / RATE;
        float *pal = ex_palette(m, clip, t);
        char label[200];
        snprintf(label, sizeof label, "%s, key %d", what, key);
        ex_check_submesh(sm, m->bone_count, pal, &expect[0][0], tol, want_exact, label);

        /* the old reading: the weighted mean skinned by the weights */
        ossa_submesh old = *sm;
        float mean_pos[3 * VERTS];
        for (uint32_t r = 0; r < VERTS; r++)
            for (int c = 0; c < 3; c++)
                mean_pos[3 * r + c] = (float)mean[vrtx[r]][c];
        old.positions = mean_pos;
        old.influence_points = NULL;
        float old_p[3 * VERTS];
        ossa_skin_submesh_scalar(&old, pal, old_p, NULL, old.vertex_count, NULL);
        for (uint32_t r = 0; r < VERTS; r++)
            for (int c = 0; c < 3; c++) {
                old_expect[r][c] = old_p[3 * r + c];
                worst_old = fmax(worst_old, fabs(old_expect[r][c] - expect[r][c]));
            }

        float cli_p[3 * VERTS];
        uint32_t got = ex_cli_sample(cli, path, key < 0 ? NULL : "wave", t, 0, 0, VERTS, cli_p);
        CHECKF(got == VERTS, "%s: ossa sample printed %u of %u vertices", label, got, VERTS);
        snprintf(label, sizeof label, "%s, key %d: ossa sample", what, key);
        CHECKF(ex_compare(cli_p, NULL, &expect[0][0], VERTS, tol + 1e-7 * size, label) == 0, "%s",
               label);
        free(pal);
    }
    /* disagreeing offsets, or a scale the inverse binds leave out: one bind vertex is off by
     * a visible fraction of the model; otherwise it was already right */
    if (want_exact)
        CHECKF(worst_old > 0.01 * size, "%s: the old reading is only %g off", what, worst_old);
    else
        CHECKF(worst_old <= tol, "%s: agreeing offsets, old reading %g off", what, worst_old);
    round_trips(m, &f, what, want_exact, tol);

    /* ossa bench skins the file through the same path and says which */
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' bench --model '%s' --runs 1 --threads 2 --json", cli, path);
    FILE *pipe = popen(cmd, "r");
    char text[1 << 14];
    size_t len = pipe ? fread(text, 1, sizeof text - 1, pipe) : 0;
    text[len] = 0;
    CHECKF(pipe && pclose(pipe) == 0, "%s: %s failed", what, cmd);
    char want[64];
    snprintf(want, sizeof want, "\"skinning\": \"%s\"", want_exact ? "exact" : "blend");
    CHECKF(strstr(text, want) != NULL, "%s: bench output lacks %s", what, want);
    uint32_t errors = 0;
    for (const char *at = strstr(text, "\"max_error_vs_scalar\": "); at;
         at = strstr(at + 1, "\"max_error_vs_scalar\": ")) {
        double e = strtod(at + strlen("\"max_error_vs_scalar\": "), NULL);
        CHECKF(e <= 1e-5, "%s: bench kernel error %g", what, e);
        errors++;
    }
    CHECKF(errors >= 2, "%s: bench reported %u kernels", what, errors);
    ct_remove_temp(path);
    ossa_model_destroy(m);
    ct_free(&b);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-c3s-exact OSSA_CLI\n");
        return 1;
    }
    run_fixture(argv[1], 1.0f, 0, 1);  /* weights 0.7 / 1.3 / 1, disagreeing offsets */
    run_fixture(argv[1], 1.0f, 1, 0);  /* the same weights, offsets agreeing: blend path */
    run_fixture(argv[1], 1.5f, 1, 1);  /* agreeing, under a bone of base scale 1.5 */
    run_fixture(argv[1], 1.5f, 0, 1);
    return test_finish("c3s-exact");
}
