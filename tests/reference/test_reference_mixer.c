/* Reference test: ossa_mixer against libcal3d 0.11's CalMixer on real assets (cally, paladin),
 * both driven by the same calls and the same dt sequence: two cycles at 0.3 / 0.7, blendCycle
 * with a delay checked in the middle of the fade, a cycle plus an action through its fade-in,
 * steady and fade-out phases, auto-lock and removeAction, clearCycle and a cycle blended again.
 * Compared at many times: the mixer clock, every bone's model-space transform and every skinned
 * vertex (within 1e-4 x the model size).
 *
 * What 0.11 does here, as this test checks it: blendCycle appends the loop key on the first
 * blend of an animation (the mixer plays cycles with OSSA_TIME_LOOP and, like the mutated core
 * animation, later actions of that animation too); blendCycle(id, 0, delay) on a running cycle
 * lets it fade out while still synchronised; removeAction removes the newest action of the id.
 * Vertices that 0.11 hands to the cloth simulation (physique weight > 0 with springs) are not
 * compared. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cal3d_mixer_oracle.h"
#include "ossa/ossa.h"
#include "ossa/runtime.h"
#include "test_common.h"

enum { OP_CYCLE, OP_CLEAR, OP_ACTION, OP_REMOVE, OP_STEPS, OP_END };

typedef struct op {
    int kind;
    int id;
    float a, b, c; /* weight/delay, in/out/weight, or dt (OP_STEPS: count in id) */
    int lock;
} op;

typedef struct scenario {
    const char *name;
    op ops[16];
} scenario;

/* Full initialisers for the script (every field named). */
#define CYCLE(id, w, d) {OP_CYCLE, id, w, d, 0, 0}
#define CLEAR(id, d) {OP_CLEAR, id, d, 0, 0, 0}
#define ACTION(id, in, out, w, lock) {OP_ACTION, id, in, out, w, lock}
#define REMOVE(id) {OP_REMOVE, id, 0, 0, 0, 0}
#define STEPS(n, dt) {OP_STEPS, n, dt, 0, 0, 0}
#define END {OP_END, 0, 0, 0, 0, 0}

/* Clip ids: 0 walk, 1 jog, 2 wave. STEPS compares after every step. */
static const scenario scenarios[] = {
    {"two cycles 0.3/0.7", {CYCLE(0, 0.3f, 0), CYCLE(1, 0.7f, 0), STEPS(30, 0.037f), END}},
    {"blendCycle with a delay", {CYCLE(0, 1, 0), STEPS(3, 0.1f), CYCLE(1, 1, 0.5f),
                                 STEPS(12, 0.07f), CYCLE(0, 0, 0.4f), STEPS(10, 0.05f), END}},
    {"cycle + action", {CYCLE(0, 1, 0), STEPS(2, 0.05f), ACTION(2, 0.3f, 0.4f, 1.0f, 0),
                        STEPS(80, 0.041f), END}},
    {"action at 0.6 over two cycles", {CYCLE(0, 0.4f, 0), CYCLE(1, 0.6f, 0.2f),
                                       ACTION(2, 0.2f, 0.2f, 0.6f, 0), STEPS(60, 0.05f), END}},
    {"auto-lock", {CYCLE(1, 1, 0), ACTION(2, 0.25f, 0.25f, 0.8f, 1), STEPS(70, 0.05f),
                   REMOVE(2), STEPS(3, 0.05f), END}},
    {"clearCycle", {CYCLE(0, 1, 0), CYCLE(1, 0.5f, 0), STEPS(7, 0.045f), CLEAR(1, 0.4f),
                    STEPS(12, 0.045f), CYCLE(1, 1, 0.3f), STEPS(10, 0.045f), END}},
};

typedef struct model_case {
    const char *dir, *skeleton;
    const char *anims[3];
    const char *meshes[20];
} model_case;

static const model_case cases[] = {
    {"cal3d/cally", "cally.csf", {"cally_walk.caf", "cally_jog.caf", "cally_wave.caf"},
     {"cally_calf_left.cmf", "cally_calf_right.cmf", "cally_chest.cmf", "cally_foot_left.cmf",
      "cally_foot_right.cmf", "cally_hand_left.cmf", "cally_hand_right.cmf", "cally_head.cmf",
      "cally_lowerarm_left.cmf", "cally_lowerarm_right.cmf", "cally_neck.cmf",
      "cally_pelvis.cmf", "cally_ponytail.cmf", "cally_thigh_left.cmf", "cally_thigh_right.cmf",
      "cally_upperarm_left.cmf", "cally_upperarm_right.cmf"}},
    {"cal3d/paladin", "paladin.csf", {"paladin_walk.caf", "paladin_jog.caf", "paladin_wave.caf"},
     {"paladin_body.cmf", "paladin_cape.cmf", "paladin_loincloth.cmf"}},
};

typedef struct runner {
    const ossa_model *m;
    ossa_mixer *mx;
    cal3d_mix *ref;
    ossa_soa_pose local, model;
    float *palette, *pos, *ref_pos;
    size_t vertex_total;
    double size;
    double err_t, err_r, err_v, err_clock;
    long compared_bones, compared_vertices, checks;
} runner;

static void compare(runner *r, const char *what, int step)
{
    const ossa_model *m = r->m;
    CHECK(ossa_mixer_evaluate(r->mx, &r->local));
    ossa_ltm_job lj = {.skeleton = ossa_mixer_skeleton(r->mx), .local = &r->local,
                       .model = &r->model};
    ossa_palette_job pj = {.skeleton = lj.skeleton, .model = &r->model, .palette = r->palette,
                           .palette_floats = 12 * (size_t)m->bone_count};
    CHECK(ossa_ltm_job_run(&lj) && ossa_palette_job_run(&pj));
    double clock = fabs((double)ossa_mixer_time(r->mx) - cal3d_mix_time(r->ref));
    r->err_clock = fmax(r->err_clock, clock);
    CHECKF(clock <= 1e-5, "%s step %d: mixer time %g vs %g", what, step,
           (double)ossa_mixer_time(r->mx), (double)cal3d_mix_time(r->ref));
    double et = 0, er = 0;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        float t[3], q[4];
        cal3d_mix_bone(r->ref, (int)m->bones[i].source_index, t, q);
        float mine[4] = {r->model.qx[i], r->model.qy[i], r->model.qz[i], r->model.qw[i]};
        float h[4] = {-q[0], -q[1], -q[2], q[3]}; /* Cal3D's conjugated convention */
        double dp = 0, dm = 0;
        for (int k = 0; k < 4; k++) {
            dp = fmax(dp, fabs((double)mine[k] - h[k]));
            dm = fmax(dm, fabs((double)mine[k] + h[k]));
        }
        er = fmax(er, fmin(dp, dm));
        et = fmax(et, fabs((double)r->model.tx[i] - t[0]));
        et = fmax(et, fabs((double)r->model.ty[i] - t[1]));
        et = fmax(et, fabs((double)r->model.tz[i] - t[2]));
        r->compared_bones++;
    }
    CHECKF(et <= 1e-4 * r->size && er <= 1e-4, "%s step %d: bones differ: t %g, r %g", what,
           step, et, er);
    r->err_t = fmax(r->err_t, et / r->size);
    r->err_r = fmax(r->err_r, er);
    long n = cal3d_mix_vertices(r->ref, r->ref_pos, r->vertex_total);
    CHECK(n == (long)r->vertex_total);
    size_t at = 0;
    double ev = 0;
    for (uint32_t mi = 0; mi < m->mesh_count; mi++)
        for (uint32_t si = 0; si < m->meshes[mi].submesh_count; si++) {
            const ossa_submesh *sm = &m->meshes[mi].submeshes[si];
            float *nrm = malloc(3 * (size_t)sm->vertex_count * sizeof(float) + 4);
            ossa_skin_submesh_scalar(sm, r->palette, r->pos + 3 * at, nrm);
            free(nrm);
            for (uint32_t v = 0; v < sm->vertex_count && n > 0; v++) {
                if (sm->spring_count && sm->physique_weights && sm->physique_weights[v] > 0)
                    continue;
                for (int k = 0; k < 3; k++)
                    ev = fmax(ev, fabs((double)r->pos[3 * (at + v) + k] -
                                       r->ref_pos[3 * (at + v) + k]));
                r->compared_vertices++;
            }
            at += sm->vertex_count;
        }
    CHECKF(ev <= 1e-4 * r->size, "%s step %d: vertices differ by %g (size %g)", what, step, ev,
           r->size);
    r->err_v = fmax(r->err_v, ev / r->size);
    r->checks++;
}

static void run_scenario(runner *r, const scenario *sc)
{
    for (const op *o = sc->ops; o->kind != OP_END; o++) {
        switch (o->kind) {
        case OP_CYCLE:
            CHECK(ossa_mixer_blend_cycle(r->mx, (uint32_t)o->id, o->a, o->b) ==
                  cal3d_mix_blend_cycle(r->ref, o->id, o->a, o->b));
            break;
        case OP_CLEAR:
            CHECK(ossa_mixer_clear_cycle(r->mx, (uint32_t)o->id, o->a) ==
                  cal3d_mix_clear_cycle(r->ref, o->id, o->a));
            break;
        case OP_ACTION:
            CHECK(ossa_mixer_execute_action(r->mx, (uint32_t)o->id, o->a, o->b, o->c, o->lock) ==
                  cal3d_mix_execute_action(r->ref, o->id, o->a, o->b, o->c, o->lock));
            break;
        case OP_REMOVE:
            CHECK(ossa_mixer_remove_action(r->mx, (uint32_t)o->id) ==
                  cal3d_mix_remove_action(r->ref, o->id));
            break;
        case OP_STEPS:
            for (int s = 0; s < o->id; s++) {
                ossa_mixer_update(r->mx, o->a);
                cal3d_mix_update(r->ref, o->a);
                compare(r, sc->name, s);
            }
            break;
        default:
            break;
        }
    }
}

static int run_case(const char *assets, const model_case *mc)
{
    char paths[24][2048];
    const char *files[24], *anims[3], *meshes[20];
    int nm = 0, nf = 0;
    snprintf(paths[nf], sizeof paths[nf], "%s/%s/%s", assets, mc->dir, mc->skeleton);
    files[nf] = paths[nf];
    nf++;
    for (int i = 0; i < 3; i++, nf++) {
        snprintf(paths[nf], sizeof paths[nf], "%s/%s/%s", assets, mc->dir, mc->anims[i]);
        files[nf] = anims[i] = paths[nf];
    }
    for (; nm < 20 && mc->meshes[nm]; nm++, nf++) {
        snprintf(paths[nf], sizeof paths[nf], "%s/%s/%s", assets, mc->dir, mc->meshes[nm]);
        files[nf] = meshes[nm] = paths[nf];
    }
    ossa_model *m = NULL;
    ossa_error err;
    if (ossa_load_files(files, (size_t)nf, NULL, &m, &err) != OSSA_OK) {
        CHECKF(0, "%s: %s", mc->dir, err.message);
        return 0;
    }
    CHECK(m->clip_count == 3 && m->mesh_count == (uint32_t)nm);
    runner r = {.m = m};
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            r.vertex_total += sm->vertex_count;
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                for (int k = 0; k < 3; k++)
                    r.size = fmax(r.size, fabs((double)sm->positions[3 * v + k]));
        }
    r.size = fmax(r.size, 1e-3);
    r.palette = malloc(12 * (size_t)m->bone_count * sizeof(float) + 4);
    r.pos = malloc(3 * r.vertex_total * sizeof(float) + 4);
    r.ref_pos = malloc(3 * r.vertex_total * sizeof(float) + 4);
    CHECK(ossa_soa_pose_init(&r.local, m->bone_count) == OSSA_OK);
    CHECK(ossa_soa_pose_init(&r.model, m->bone_count) == OSSA_OK);
    for (size_t s = 0; s < sizeof scenarios / sizeof scenarios[0]; s++) {
        char msg[1024];
        r.ref = cal3d_mix_new(files[0], anims, 3, meshes, nm, msg, sizeof msg);
        CHECKF(r.ref != NULL, "libcal3d: %s", msg);
        CHECK(ossa_mixer_create(m, NULL, &r.mx, &err) == OSSA_OK);
        if (r.ref && r.mx)
            run_scenario(&r, &scenarios[s]);
        ossa_mixer_free(r.mx);
        cal3d_mix_free(r.ref);
        r.mx = NULL;
        r.ref = NULL;
    }
    printf("%s: %ld comparisons, %ld bone and %ld vertex values; worst: bone t %.3g x size, "
           "bone r %.3g, vertex %.3g x size, clock %.3g s\n",
           mc->dir, r.checks, r.compared_bones, r.compared_vertices, r.err_t, r.err_r, r.err_v,
           r.err_clock);
    ossa_soa_pose_release(&r.local);
    ossa_soa_pose_release(&r.model);
    free(r.palette);
    free(r.pos);
    free(r.ref_pos);
    ossa_model_free(m);
    return 1;
}

int main(void)
{
    const char *assets = test_assets_dir();
    if (!assets) {
        printf("assets absent: skipped\n");
        return TEST_SKIP;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(assets, &cases[i]);
    return test_finish("reference-mixer");
}
