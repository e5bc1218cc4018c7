/* The mixer reference tests' shared driver (mixer_harness.h). Vertices that 0.11 hands to the
 * cloth simulation (physique weight > 0 with springs) are not compared. */
#include "mixer_harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_common.h"

const mix_model_case mix_cases[2] = {
    {"cal3d/cally", "cally.csf", {"cally_walk.caf", "cally_jog.caf", "cally_wave.caf"},
     {"cally_calf_left.cmf", "cally_calf_right.cmf", "cally_chest.cmf", "cally_foot_left.cmf",
      "cally_foot_right.cmf", "cally_hand_left.cmf", "cally_hand_right.cmf", "cally_head.cmf",
      "cally_lowerarm_left.cmf", "cally_lowerarm_right.cmf", "cally_neck.cmf",
      "cally_pelvis.cmf", "cally_ponytail.cmf", "cally_thigh_left.cmf", "cally_thigh_right.cmf",
      "cally_upperarm_left.cmf", "cally_upperarm_right.cmf"}},
    {"cal3d/paladin", "paladin.csf", {"paladin_walk.caf", "paladin_jog.caf", "paladin_wave.caf"},
     {"paladin_body.cmf", "paladin_cape.cmf", "paladin_loincloth.cmf"}},
};

/* A disagreement: counted always, reported as a failed check unless the runner is quiet. */
#define EXPECT(r, cond, ...)                                                     \
    do {                                                                         \
        if (!(cond)) {                                                           \
            (r)->mismatches++;                                                   \
            if (!(r)->quiet)                                                     \
                CHECKF(cond, __VA_ARGS__);                                       \
        }                                                                        \
    } while (0)

int mix_runner_open(mix_runner *r, const char *assets, const mix_model_case *mc)
{
    memset(r, 0, sizeof *r);
    r->name = mc->dir;
    int nf = 0;
    snprintf(r->paths[nf], sizeof r->paths[nf], "%s/%s/%s", assets, mc->dir, mc->skeleton);
    r->files[nf] = r->paths[nf];
    nf++;
    for (int i = 0; i < 3; i++, nf++) {
        snprintf(r->paths[nf], sizeof r->paths[nf], "%s/%s/%s", assets, mc->dir, mc->anims[i]);
        r->files[nf] = r->anims[i] = r->paths[nf];
    }
    int nm = 0;
    for (; nm < 20 && mc->meshes[nm]; nm++, nf++) {
        snprintf(r->paths[nf], sizeof r->paths[nf], "%s/%s/%s", assets, mc->dir, mc->meshes[nm]);
        r->files[nf] = r->meshes[nm] = r->paths[nf];
    }
    r->mesh_count = nm;
    ossa_error err;
    if (ossa_load_files(r->files, (size_t)nf, NULL, &r->m, &err) != OSSA_OK) {
        CHECKF(0, "%s: %s", mc->dir, err.message);
        return 0;
    }
    const ossa_model *m = r->m;
    CHECK(m->clip_count == 3 && m->mesh_count == (uint32_t)nm);
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            r->vertex_total += sm->vertex_count;
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                for (int k = 0; k < 3; k++)
                    r->size = fmax(r->size, fabs((double)sm->positions[3 * v + k]));
        }
    r->size = fmax(r->size, 1e-3);
    r->palette = malloc(12 * (size_t)m->bone_count * sizeof(float) + 4);
    r->pos = malloc(3 * r->vertex_total * sizeof(float) + 4);
    r->ref_pos = malloc(3 * r->vertex_total * sizeof(float) + 4);
    r->nrm = malloc(3 * r->vertex_total * sizeof(float) + 4);
    CHECK(r->palette && r->pos && r->ref_pos && r->nrm);
    CHECK(ossa_soa_pose_create(m->bone_count, &r->local, NULL) == OSSA_OK);
    CHECK(ossa_soa_pose_create(m->bone_count, &r->model, NULL) == OSSA_OK);
    return r->palette && r->pos && r->ref_pos && r->nrm;
}

void mix_runner_close(mix_runner *r)
{
    ossa_soa_pose_destroy(&r->local);
    ossa_soa_pose_destroy(&r->model);
    free(r->palette);
    free(r->pos);
    free(r->ref_pos);
    free(r->nrm);
    ossa_model_destroy(r->m);
    r->m = NULL;
}

/* The running maximum of differences; a NaN difference is the worst. */
static double worse(double acc, double d)
{
    return d == d ? fmax(acc, d) : INFINITY;
}

static void compare(mix_runner *r, const char *what, int op, int step)
{
    const ossa_model *m = r->m;
    /* The instance's update evaluated the mixer: its model pose and palette are compared. */
    const ossa_soa_pose *pose = ossa_instance_model_pose(r->inst);
    const float *palette = ossa_instance_palette(r->inst);
    double clock = worse(0, fabs((double)ossa_mixer_time(r->mx) - cal3d_mix_time(r->ref)));
    double dur =
        worse(0, fabs((double)ossa_mixer_duration(r->mx) - cal3d_mix_duration(r->ref)));
    r->err_clock = fmax(r->err_clock, fmax(clock, dur));
    EXPECT(r, clock <= 1e-5 && dur <= 1e-5,
           "%s op %d step %d: mixer time %.9g vs %.9g, duration %.9g vs %.9g", what, op, step,
           (double)ossa_mixer_time(r->mx), (double)cal3d_mix_time(r->ref),
           (double)ossa_mixer_duration(r->mx), (double)cal3d_mix_duration(r->ref));
    double et = 0, er = 0;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        float t[3], q[4];
        cal3d_mix_bone(r->ref, (int)m->bones[i].source_index, t, q);
        float mine[4] = {pose->qx[i], pose->qy[i], pose->qz[i], pose->qw[i]};
        float h[4] = {-q[0], -q[1], -q[2], q[3]}; /* Cal3D's conjugated convention */
        double dp = 0, dm = 0;
        for (int k = 0; k < 4; k++) {
            dp = worse(dp, fabs((double)mine[k] - h[k]));
            dm = worse(dm, fabs((double)mine[k] + h[k]));
        }
        er = worse(er, fmin(dp, dm));
        et = worse(et, fabs((double)pose->tx[i] - t[0]));
        et = worse(et, fabs((double)pose->ty[i] - t[1]));
        et = worse(et, fabs((double)pose->tz[i] - t[2]));
        r->compared_bones++;
    }
    EXPECT(r, et <= 1e-4 * r->size && er <= 1e-4, "%s op %d step %d: bones differ: t %g, r %g",
           what, op, step, et, er);
    r->err_t = fmax(r->err_t, et / r->size);
    r->err_r = fmax(r->err_r, er);
    long n = cal3d_mix_vertices(r->ref, r->ref_pos, r->vertex_total);
    CHECK(n == (long)r->vertex_total);
    size_t at = 0;
    double ev = 0;
    for (uint32_t mi = 0; mi < m->mesh_count; mi++)
        for (uint32_t si = 0; si < m->meshes[mi].submesh_count; si++) {
            const ossa_submesh *sm = &m->meshes[mi].submeshes[si];
            ossa_skin_submesh_scalar(sm, palette, r->pos + 3 * at, r->nrm + 3 * at,
                                     sm->vertex_count, NULL);
            for (uint32_t v = 0; v < sm->vertex_count && n > 0; v++) {
                if (sm->spring_count && sm->physique_weights && sm->physique_weights[v] > 0)
                    continue;
                for (int k = 0; k < 3; k++)
                    ev = worse(ev, fabs((double)r->pos[3 * (at + v) + k] -
                                        r->ref_pos[3 * (at + v) + k]));
                r->compared_vertices++;
            }
            at += sm->vertex_count;
        }
    EXPECT(r, ev <= 1e-4 * r->size, "%s op %d step %d: vertices differ by %g (size %g)", what,
           op, step, ev, r->size);
    r->err_v = fmax(r->err_v, ev / r->size);
    r->checks++;
}

/* One call on both mixers; the results must agree. */
static void call(mix_runner *r, const char *what, int i, const mix_op *o)
{
    int mine = -1, ref = -1;
    switch (o->kind) {
    case MIX_OP_CYCLE:
        mine = (ossa_mixer_blend_cycle(r->mx, (uint32_t)o->id, o->a, o->b, NULL) == OSSA_OK);
        ref = cal3d_mix_blend_cycle(r->ref, o->id, o->a, o->b);
        break;
    case MIX_OP_CLEAR:
        mine = (ossa_mixer_clear_cycle(r->mx, (uint32_t)o->id, o->a, NULL) == OSSA_OK);
        ref = cal3d_mix_clear_cycle(r->ref, o->id, o->a);
        break;
    case MIX_OP_ACTION:
        mine = (ossa_mixer_execute_action(r->mx, (uint32_t)o->id, o->a, o->b, o->c,
                                          o->lock, NULL) == OSSA_OK);
        ref = cal3d_mix_execute_action(r->ref, o->id, o->a, o->b, o->c, o->lock);
        break;
    case MIX_OP_REMOVE:
        mine = (ossa_mixer_remove_action(r->mx, (uint32_t)o->id, NULL) == OSSA_OK);
        ref = cal3d_mix_remove_action(r->ref, o->id);
        break;
    default:
        return;
    }
    r->calls++;
    r->refusals += ref == 0;
    EXPECT(r, mine == ref, "%s op %d (kind %d, id %d): returned %d, libcal3d %d", what, i,
           o->kind, o->id, mine, ref);
}

long mix_run(mix_runner *r, const ossa_mixer_desc *desc, const char *label, const mix_op *ops,
             size_t n)
{
    long before = r->mismatches;
    char msg[1024];
    ossa_error err;
    r->ref = cal3d_mix_new(r->files[0], r->anims, 3, r->meshes, r->mesh_count, msg, sizeof msg);
    CHECKF(r->ref != NULL, "libcal3d: %s", msg);
    /* A character instance wires the mixer to the pose jobs; its mixer takes the calls. */
    ossa_instance_desc idesc = {.mixer = desc ? *desc : (ossa_mixer_desc){0}};
    CHECK(ossa_instance_create(r->m, &idesc, &r->inst, &err) == OSSA_OK);
    r->mx = r->inst ? ossa_instance_mixer(r->inst) : NULL;
    for (size_t i = 0; r->ref && r->mx && i < n && ops[i].kind != MIX_OP_END; i++) {
        const mix_op *o = &ops[i];
        if (o->kind != MIX_OP_STEPS) {
            call(r, label, (int)i, o);
            continue;
        }
        for (int s = 0; s < o->id; s++) {
            ossa_instance_update(r->inst, o->a);
            cal3d_mix_update(r->ref, o->a);
            compare(r, label, (int)i, s);
        }
    }
    ossa_instance_destroy(r->inst);
    cal3d_mix_free(r->ref);
    r->inst = NULL;
    r->mx = NULL;
    r->ref = NULL;
    return r->mismatches - before;
}

void mix_runner_report(const mix_runner *r)
{
    printf("%s: %ld calls (%ld refused), %ld comparisons, %ld bone and %ld vertex values; worst: "
           "bone t %.3g x size, bone r %.3g, vertex %.3g x size, clock/duration %.3g s\n",
           r->name, r->calls, r->refusals, r->checks, r->compared_bones, r->compared_vertices,
           r->err_t, r->err_r, r->err_v, r->err_clock);
}

/* %.9g round-trips a float; a literal needs a '.' or exponent before its f suffix. */
static void print_float(FILE *f, float x)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.9g", (double)x);
    fprintf(f, strpbrk(buf, ".e") ? "%sf" : "%s.0f", buf);
}

void mix_print_ops(FILE *f, const mix_op *ops, size_t n)
{
    static const char *const names[] = {"MIX_CYCLE", "MIX_CLEAR", "MIX_ACTION", "MIX_REMOVE",
                                        "MIX_STEPS"};
    for (size_t i = 0; i < n && ops[i].kind != MIX_OP_END; i++) {
        const mix_op *o = &ops[i];
        fprintf(f, "%s%s(%d", i ? ", " : "", names[o->kind], o->id);
        if (o->kind != MIX_OP_REMOVE) {
            fputs(", ", f);
            print_float(f, o->a);
        }
        if (o->kind == MIX_OP_CYCLE || o->kind == MIX_OP_ACTION) {
            fputs(", ", f);
            print_float(f, o->b);
        }
        if (o->kind == MIX_OP_ACTION) {
            fputs(", ", f);
            print_float(f, o->c);
            fprintf(f, ", %d", o->lock);
        }
        fputc(')', f);
    }
    fputs(", MIX_END\n", f);
}
