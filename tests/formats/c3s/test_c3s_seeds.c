/* The C3S fuzz seeds (tests/common/seeds_c3s.c) carry what the tiny model puts in them: both
 * seeds (bone keys, vertex frames) load with the two triggers of "bend" (a TRIG string and a
 * raw command, times kept) and the surface mount on the quad's second triangle, whose transform
 * is worked out by hand below. The seeds stay small so the malformed suite stays quick. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "c3s_test_util.h"
#include "seeds_c3s.h"
#include "test_common.h"

static char text[1024];

static void check_vec(const float *got, float x, float y, float z, double tol, const char *what)
{
    CHECKF(fabs(got[0] - x) <= tol && fabs(got[1] - y) <= tol && fabs(got[2] - z) <= tol,
           "%s: (%g %g %g), expected (%g %g %g)", what, (double)got[0], (double)got[1],
           (double)got[2], (double)x, (double)y, (double)z);
}

/* v rotated by the unit quaternion q (x, y, z, w). */
static void rotate(const float q[4], const float v[3], float out[3])
{
    float uv[3] = {q[1] * v[2] - q[2] * v[1], q[2] * v[0] - q[0] * v[2],
                   q[0] * v[1] - q[1] * v[0]};
    float uuv[3] = {q[1] * uv[2] - q[2] * uv[1], q[2] * uv[0] - q[0] * uv[2],
                    q[0] * uv[1] - q[1] * uv[0]};
    for (int k = 0; k < 3; k++)
        out[k] = v[k] + 2 * (q[3] * uv[k] + uuv[k]);
}

static const ossa_clip *clip_named(const ossa_model *m, const char *name)
{
    for (uint32_t i = 0; i < m->clip_count; i++)
        if (strcmp(m->clips[i].name, name) == 0)
            return &m->clips[i];
    return NULL;
}

static void check_triggers(const char *seed, const ossa_model *m)
{
    const ossa_clip *bend = clip_named(m, "bend"), *lift = clip_named(m, "lift");
    CHECKF(bend && lift, "%s: clips bend and lift", seed);
    if (!bend || !lift)
        return;
    CHECKF(lift->trigger_count == 0, "%s: lift has %u triggers", seed, lift->trigger_count);
    CHECKF(bend->trigger_count == 2, "%s: bend has %u triggers", seed, bend->trigger_count);
    if (bend->trigger_count != 2)
        return;
    CHECK_NEAR(bend->duration, 0.5, 1e-6);
    /* A quarter and three quarters of the clip, as stored (0.25, 0.75) times its duration. */
    const ossa_clip_trigger *step = &bend->triggers[0], *thud = &bend->triggers[1];
    CHECK_NEAR(step->time, 0.125, 1e-6);
    CHECKF(strcmp(step->name, "step") == 0, "%s: first trigger '%s'", seed, step->name);
    CHECK(memcmp(&step->command, "TRIG", 4) == 0);
    CHECK_NEAR(thud->time, 0.375, 1e-6);
    CHECK(thud->command == FUZZ_C3S_RAW_COMMAND && memcmp(&thud->command, "THUD", 4) == 0);
    CHECKF(thud->name[0] == 0, "%s: raw trigger named '%s'", seed, thud->name);
    CHECK(thud->param_size == 2 && thud->params && thud->params[0] == 7 && thud->params[1] == 0);
}

static void check_mount(const char *seed, const ossa_model *m)
{
    CHECKF(m->mount_count == 1, "%s: %u mounts", seed, m->mount_count);
    if (m->mount_count != 1)
        return;
    const ossa_mount *pin = &m->mounts[0];
    CHECK(strcmp(pin->name, "pin") == 0 && pin->mesh == 0 && pin->submesh == 0 && pin->face == 1);
    check_vec(pin->barycentric, 0.5f, 0.25f, 0.25f, 1e-6, "barycentric");
    check_vec(pin->offset_t, 0, 0, 0.1f, 1e-6, "offset translation");
    check_vec(pin->offset_s, 1, 1, 1, 1e-6, "offset scale");
    CHECK(m->mesh_count >= 1 && m->meshes[0].submesh_count >= 1);
    if (m->mesh_count < 1 || m->meshes[0].submesh_count < 1)
        return;
    const ossa_submesh *sm = &m->meshes[0].submeshes[0];
    CHECKF(sm->vertex_count == 4 && sm->face_count == 2, "%s: %u vertices, %u faces", seed,
           sm->vertex_count, sm->face_count);
    if (sm->vertex_count != 4 || sm->face_count != 2)
        return;
    /* The mount's triangle is the quad's vertices 0 2 3 in that order. */
    const float corners[3][3] = {{-1, 0, 0}, {1, 1, 0}, {-1, 1, 0}};
    for (int i = 0; i < 3; i++) {
        uint32_t v = sm->indices[3 + i];
        CHECK(v < 4);
        if (v < 4)
            check_vec(sm->positions + 3 * v, corners[i][0], corners[i][1], corners[i][2], 1e-6,
                      "mount triangle corner");
    }
    /* At rest: P = 0.5 V0 + 0.25 V2 + 0.25 V3 = (-0.5, 0.5, 0); Y the normal +Z; Z from P to V0,
     * (-1, -1, 0) / sqrt 2; X = Y x Z = (1, -1, 0) / sqrt 2. The offset lifts P by 0.1 along Z
     * and turns a quarter around Y, which takes X to -Z: X of the mount is (1, 1, 0) / sqrt 2. */
    float t[3], r[4], s[3];
    CHECK(ossa_mount_transform(m, 0, sm->positions, sm->vertex_count, t, r, s, NULL) == OSSA_OK);
    /* positions one vertex short are refused, naming vertex_capacity */
    ossa_error short_err = {0};
    CHECK(ossa_mount_transform(m, 0, sm->positions, sm->vertex_count - 1, t, r, s,
                               &short_err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(short_err.message, "vertex_capacity") != NULL, "%s", short_err.message);
    const float h = 0.70710678f, lift = 0.1f * h;
    check_vec(t, -0.5f - lift, 0.5f - lift, 0, 1e-5, "mount origin");
    check_vec(s, 1, 1, 1, 1e-6, "mount scale");
    const float ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0};
    float x[3], y[3];
    rotate(r, ex, x);
    rotate(r, ey, y);
    check_vec(x, h, h, 0, 1e-5, "mount X");
    check_vec(y, 0, 0, 1, 1e-5, "mount Y");
    /* Halfway through bend the arm has turned V2: the mount follows it. */
    const ossa_clip *bend = clip_named(m, "bend");
    float p[12], n[12], t2[3], r2[4], s2[3];
    CHECK(bend && ct_pose_submesh(m, bend, 0.25f, 0, 0, p, n));
    CHECK(ossa_mount_transform(m, 0, p, 4, t2, r2, s2, NULL) == OSSA_OK);
    CHECKF(fabsf(t2[0] - t[0]) + fabsf(t2[1] - t[1]) > 1e-3f, "%s: the mount stays put", seed);
}

int main(void)
{
    fuzz_seed seeds[FUZZ_C3S_SEED_COUNT];
    memset(seeds, 0, sizeof seeds);
    bool made = fuzz_seeds_c3s(seeds);
    CHECK(made);
    for (int i = 0; i < FUZZ_C3S_SEED_COUNT && made; i++) {
        const fuzz_seed *sd = &seeds[i];
        /* Tiny on purpose: every byte is cut and flipped by the malformed suite. */
        CHECKF(sd->size > 0 && sd->size <= 2048, "%s: %zu bytes", sd->name, sd->size);
        ossa_model *m = NULL;
        ossa_error err;
        ossa_status st = ct_load_bytes(sd->data, sd->size, &m, &err);
        CHECKF(st == OSSA_OK, "%s: %s", sd->name, ossa_error_format(&err, text, sizeof text));
        if (st != OSSA_OK)
            continue;
        CHECKF((m->bone_count == 2) == (i == 0), "%s: %u bones", sd->name, m->bone_count);
        check_triggers(sd->name, m);
        check_mount(sd->name, m);
        ossa_model_destroy(m);
    }
    for (int i = 0; i < FUZZ_C3S_SEED_COUNT; i++)
        free(seeds[i].data);
    return test_finish("c3s-seeds");
}
