/* Reference test: Ossa's Cal3D springs (cloth) against libcal3d 0.11's CalSpringSystem on the
 * real spring submeshes (cally's ponytail; paladin's cape and loincloth, loaded without the
 * cfg's scale, which would make 0.11 drop the springs). Both sides play the same clips with the
 * same dt sequence from the bind pose: libcal3d through CalModel::update (mixer, skeleton,
 * physique, then CalSpringSystem::update, which owns the vertices of physique weight > 0 and
 * keeps them in the submesh's own vertex vector, read back through CalRenderer); Ossa through a
 * character instance (ossa_instance_update: ossa_mixer pose, full skin job of the submesh, then
 * ossa_spring_update with the same dt; ossa_instance_skin reads the cloth back). After every
 * step every vertex of the spring submeshes is compared: the spring-owned ones and, as a
 * control, the rigid ones.
 *
 * Tolerance (SPRING_TOL x model size, size = largest |coordinate| of the model). The rigid
 * vertices differ by float rounding only (measured <= 4.3e-7 x size). Ossa's spring step uses
 * Cal3D's association, p + ((p - old) * 0.99 + a * dt * dt), and matched 0.11 bit for bit with
 * libcal3d's rigid positions fed to it; the skinned rigid vertices' rounding is what the cloth
 * amplifies: measured worst 3.3e-5 x size (cally, jog with dt up to 0.1 s, step 97), 1.5e-5
 * (paladin), at most 3e-6 in the 1/30 s walks. Semantic changes, measured by editing
 * skin_spring.c, land far above the tolerance: 1 or 3 relaxation passes >= 0.024 x size, damping
 * 0.995 instead of 0.99 >= 0.0047, a half move where a full one is due (rigid v1) >= 0.024;
 * gravity 98.0 instead of 98.1 gives up to 6.9e-4.
 * The test checks that the tolerance still catches a wrong constant by running the walk again
 * with libcal3d's gravity 20% off and with its constant force removed: both must exceed it
 * (measured 2.7e-3 / 0.027 x size on cally, 0.089 / 0.35 on paladin). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mixer_harness.h"
#include "ossa/pose.h"
#include "ossa/mixer.h"
#include "ossa/skin.h"
#include "ossa/cloth.h"
#include "test_common.h"

/* Worst allowed difference of a spring-owned vertex, x model size. */
#define SPRING_TOL 2e-4
/* Rigid vertices of the same submeshes: skinning only, as the mixer reference test. */
#define RIGID_TOL 1e-4

typedef struct spring_part {
    const ossa_submesh *sm;
    uint32_t part;       /* the instance's part */
    const ossa_skin_mesh *skin;
    size_t at;           /* first vertex in libcal3d's concatenated (mesh, submesh) order */
    float *pos, *nrm;    /* output order */
} spring_part;

typedef struct spring_run {
    spring_part parts[8];
    int part_count;
    double spring_err, rigid_err, motion; /* x size; motion: cloth away from its skinned pose */
    int worst_step;
    long spring_values, rigid_values, steps;
} spring_run;

typedef struct spring_scenario {
    const char *name;
    mix_op ops[12];
} spring_scenario;

/* Clip ids: 0 walk, 1 jog, 2 wave. */
static const spring_scenario scenarios[] = {
    {"walk, 60 x 1/30 s", {MIX_CYCLE(0, 1, 0), MIX_STEPS(60, 1.0f / 30.0f), MIX_END}},
    {"jog, varied dt", {MIX_CYCLE(1, 1, 0), MIX_STEPS(30, 1.0f / 60.0f), MIX_STEPS(20, 0.05f),
                        MIX_STEPS(20, 0.01f), MIX_STEPS(10, 0.1f), MIX_STEPS(20, 1.0f / 30.0f),
                        MIX_END}},
    {"walk + wave action", {MIX_CYCLE(0, 1, 0), MIX_STEPS(20, 1.0f / 30.0f),
                            MIX_ACTION(2, 0.3f, 0.3f, 1.0f, 0), MIX_STEPS(40, 0.04f),
                            MIX_CYCLE(1, 0.5f, 0.3f), MIX_STEPS(30, 1.0f / 30.0f), MIX_END}},
};

static double worse(double acc, double d)
{
    return d == d ? fmax(acc, d) : INFINITY;
}

/* The instance's parts with a cloth, and output buffers for them. */
static int parts_open(spring_run *run, const ossa_instance *inst)
{
    const ossa_model *m = ossa_instance_model(inst);
    size_t at = 0;
    for (uint32_t i = 0; i < ossa_instance_part_count(inst); i++) {
        ossa_instance_part info;
        ossa_instance_part_info(inst, i, &info, NULL);
        if (info.source->spring_count && run->part_count < 8) {
            CHECKF(info.spring != NULL, "mesh %u submesh %u: no cloth (%s)", info.mesh,
                   info.submesh, ossa_status_name(info.skin_status));
            if (!info.spring)
                return 0;
            spring_part *p = &run->parts[run->part_count++];
            p->sm = info.source;
            p->part = i;
            p->skin = info.skin;
            p->at = at;
            size_t n = 3 * (size_t)info.output_count;
            p->pos = calloc(n + 1, sizeof(float));
            p->nrm = calloc(n + 1, sizeof(float));
            if (!p->pos || !p->nrm)
                return 0;
        }
        at += info.vertex_count;
    }
    (void)m;
    return run->part_count > 0;
}

static void parts_close(spring_run *run)
{
    for (int i = 0; i < run->part_count; i++) {
        free(run->parts[i].pos);
        free(run->parts[i].nrm);
    }
    run->part_count = 0;
}

/* One step of both sides, then the comparison. Returns the worst spring difference x size. */
static double step(mix_runner *r, spring_run *run, float dt, const char *label, int quiet)
{
    const ossa_model *m = r->m;
    ossa_instance_update(r->inst, dt);
    cal3d_mix_update(r->ref, dt);
    CHECK(cal3d_mix_vertices(r->ref, r->ref_pos, r->vertex_total) == (long)r->vertex_total);
    double es = 0, er = 0;
    for (int i = 0; i < run->part_count; i++) {
        spring_part *p = &run->parts[i];
        const uint32_t *remap = ossa_skin_mesh_remap(p->skin);
        /* The skinned positions the cloth is pulled away from (motion measure only). */
        ossa_skin_job job = {.mesh = p->skin, .palette = ossa_instance_palette(r->inst),
                             .palette_size = m->bone_count, .out_positions = p->pos,
                             .out_normals = p->nrm,
                             .out_capacity = ossa_skin_mesh_output_count(p->skin),
                             .end = ossa_skin_mesh_output_count(p->skin)};
        CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
        for (uint32_t v = 0; v < p->sm->vertex_count; v++)
            memcpy(r->pos + 3 * (p->at + v), p->pos + 3 * (size_t)remap[v], 3 * sizeof(float));
        ossa_instance_span span = {p->pos, p->nrm, ossa_skin_mesh_output_count(p->skin)};
        CHECK(ossa_instance_skin(r->inst, p->part, 1, &span, NULL) == OSSA_OK);
        for (uint32_t v = 0; v < p->sm->vertex_count; v++) {
            const float *mine = p->pos + 3 * (size_t)remap[v];
            const float *ref = r->ref_pos + 3 * (p->at + v);
            const float *skinned = r->pos + 3 * (p->at + v);
            int owned = p->sm->physique_weights && p->sm->physique_weights[v] > 0.0f;
            double d = 0, motion = 0;
            for (int k = 0; k < 3; k++) {
                d = worse(d, fabs((double)mine[k] - ref[k]));
                motion = worse(motion, fabs((double)mine[k] - skinned[k]));
            }
            if (owned) {
                es = worse(es, d);
                run->motion = worse(run->motion, motion / r->size);
                run->spring_values++;
            } else {
                er = worse(er, d);
                run->rigid_values++;
            }
        }
    }
    es /= r->size;
    er /= r->size;
    if (!quiet) {
        CHECKF(es <= SPRING_TOL, "%s %s step %ld: spring vertices differ by %.3g x size", r->name,
               label, run->steps, es);
        CHECKF(er <= RIGID_TOL, "%s %s step %ld: rigid vertices differ by %.3g x size", r->name,
               label, run->steps, er);
    }
    if (es > run->spring_err || es != es)
        run->worst_step = (int)run->steps;
    run->spring_err = worse(run->spring_err, es);
    run->rigid_err = worse(run->rigid_err, er);
    run->steps++;
    return es;
}

/* Runs a scenario on a fresh character instance and a fresh CalModel (whose spring
 * system uses gravity/force when given). quiet: differences are measured, not failures. */
static spring_run run_scenario(mix_runner *r, const spring_scenario *sc, const float *gravity,
                               const float *force, int quiet)
{
    spring_run run;
    memset(&run, 0, sizeof run);
    char msg[1024];
    ossa_error err;
    r->ref = cal3d_mix_new(r->files[0], r->anims, 3, r->meshes, r->mesh_count, msg, sizeof msg);
    CHECKF(r->ref != NULL, "libcal3d: %s", msg);
    /* Ossa's side is a character instance: mixer, pose, skin and cloth wired as one. Its cloth
     * starts at rest where the rest pose skins it, libcal3d's at the bind vertices: the same
     * points up to float rounding. */
    ossa_instance_desc desc = {.spring_max_dt = 1.0f}; /* every dt here is stepped as given */
    CHECK(ossa_instance_create(r->m, &desc, &r->inst, &err) == OSSA_OK);
    r->mx = r->inst ? ossa_instance_mixer(r->inst) : NULL;
    if (r->ref && gravity)
        CHECK(cal3d_mix_set_spring_forces(r->ref, gravity, force));
    int ok = r->ref && r->mx && parts_open(&run, r->inst);
    for (size_t i = 0; ok && i < 12 && sc->ops[i].kind != MIX_OP_END; i++) {
        const mix_op *o = &sc->ops[i];
        switch (o->kind) {
        case MIX_OP_CYCLE:
            CHECK((ossa_mixer_blend_cycle(r->mx, (uint32_t)o->id, o->a, o->b, NULL) == OSSA_OK) ==
                  cal3d_mix_blend_cycle(r->ref, o->id, o->a, o->b));
            break;
        case MIX_OP_ACTION:
            CHECK((ossa_mixer_execute_action(r->mx, (uint32_t)o->id, o->a, o->b, o->c,
                                             o->lock, NULL) == OSSA_OK) ==
                  cal3d_mix_execute_action(r->ref, o->id, o->a, o->b, o->c, o->lock));
            break;
        case MIX_OP_STEPS:
            for (int s = 0; s < o->id; s++)
                step(r, &run, o->a, sc->name, quiet);
            break;
        default:
            CHECKF(0, "op kind %d not used here", o->kind);
        }
    }
    parts_close(&run);
    ossa_instance_destroy(r->inst);
    cal3d_mix_free(r->ref);
    r->inst = NULL;
    r->mx = NULL;
    r->ref = NULL;
    return run;
}

int main(void)
{
    const char *assets = test_assets_dir();
    if (!assets) {
        printf("assets absent: skipped\n");
        return TEST_SKIP;
    }
    static const float gravity_off[3] = {0.0f, 0.0f, -98.1f * 0.8f},
                       force_0[3] = {0.0f, 0.5f, 0.0f}, no_force[3] = {0.0f, 0.0f, 0.0f},
                       gravity_0[3] = {0.0f, 0.0f, -98.1f};
    for (size_t c = 0; c < sizeof mix_cases / sizeof mix_cases[0]; c++) {
        mix_runner *r = calloc(1, sizeof *r);
        if (r && mix_runner_open(r, assets, &mix_cases[c])) {
            for (size_t s = 0; s < sizeof scenarios / sizeof scenarios[0]; s++) {
                spring_run run = run_scenario(r, &scenarios[s], NULL, NULL, 0);
                printf("%s, %s: %ld steps, %ld spring / %ld rigid vertex values; worst spring "
                       "%.3g x size (step %d), rigid %.3g x size; cloth motion up to %.3g x "
                       "size\n", r->name, scenarios[s].name, run.steps, run.spring_values,
                       run.rigid_values, run.spring_err, run.worst_step, run.rigid_err,
                       run.motion);
                CHECKF(run.spring_values > 0, "%s: no spring vertices compared", r->name);
            }
            /* The tolerance must catch wrong constants (set on libcal3d's side). */
            spring_run g = run_scenario(r, &scenarios[0], gravity_off, force_0, 1);
            spring_run f = run_scenario(r, &scenarios[0], gravity_0, no_force, 1);
            printf("%s, controls: gravity 20%% off -> %.3g x size, no constant force -> %.3g x "
                   "size (tolerance %g)\n", r->name, g.spring_err, f.spring_err, SPRING_TOL);
            CHECKF(g.spring_err > SPRING_TOL && f.spring_err > SPRING_TOL,
                   "%s: a wrong spring constant is not caught by the tolerance", r->name);
        }
        if (r)
            mix_runner_close(r);
        free(r);
    }
    return test_finish("reference-springs");
}
