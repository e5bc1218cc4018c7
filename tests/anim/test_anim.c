/* Scalar sampling (Cal3D extrapolation, clamping, wrap), local-to-model, palette and skinning on
 * a hand-built two-bone model. */
#include <math.h>
#include <string.h>

#include "core/build_context.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "test_common.h"

static void set_bone(ossa_bone *bn, const char *name, int32_t parent, float tx, float ty, float tz)
{
    memset(bn, 0, sizeof *bn);
    bn->name = name;
    bn->parent = parent;
    bn->rest_t[0] = tx; bn->rest_t[1] = ty; bn->rest_t[2] = tz;
    bn->rest_r[3] = 1;
    bn->rest_s[0] = bn->rest_s[1] = bn->rest_s[2] = 1;
    bn->inv_bind_r[3] = 1;
}

/* root at (0,1,0); child 1 unit up the root's y axis; inverse binds undo the rest pose. */
static ossa_model *make_model(void)
{
    ossa_error err;
    ossa_error_clear(&err);
    ossa_build b;
    if (!ossa_build_init(&b, &err, NULL))
        return NULL;
    ossa_bone bones[2];
    set_bone(&bones[0], "root", -1, 0, 1, 0);
    set_bone(&bones[1], "tip", 0, 0, 1, 0);
    bones[0].inv_bind_t[1] = -1;
    bones[1].inv_bind_t[1] = -2;
    ossa_status st = ossa_build_set_skeleton(&b, bones, 2);

    /* Clip: the tip rotates about z from 0 to 90 degrees between t = 0.25 and 0.75. */
    ossa_clip *c = st ? NULL : ossa_build_push_clip(&b);
    ossa_track *tr = NULL;
    float *times = NULL, *trans = NULL, *rot = NULL;
    if (c && !ossa_build_array(&b, &tr, 1, sizeof *tr) && !ossa_build_array(&b, &times, 2, 4) &&
        !ossa_build_array(&b, &trans, 6, 4) && !ossa_build_array(&b, &rot, 8, 4)) {
        c->name = "bend";
        c->duration = 1.0f;
        c->track_count = 1;
        c->tracks = tr;
        tr->bone = 1;
        tr->key_count = 2;
        times[0] = 0.25f; times[1] = 0.75f;
        trans[1] = 1; trans[4] = 1;
        rot[3] = 1;
        rot[6] = sinf((float)M_PI / 4); rot[7] = cosf((float)M_PI / 4);
        tr->times = times; tr->translations = trans; tr->rotations = rot;
    } else {
        st = OSSA_ERR_NOMEM;
    }
    /* Mesh: vertex 0 on the tip bone at (1,2,0); vertex 1 without influences; vertex 2 with
     * weights summing to 0.5 (kept as stored, like Cal3D). */
    ossa_mesh *mesh = st ? NULL : ossa_build_push_mesh(&b);
    ossa_submesh *sm = NULL;
    float *pos = NULL, *nrm = NULL;
    uint32_t *start = NULL;
    ossa_influence *inf = NULL;
    if (mesh && !ossa_build_array(&b, &sm, 1, sizeof *sm) && !ossa_build_array(&b, &pos, 9, 4) &&
        !ossa_build_array(&b, &nrm, 9, 4) && !ossa_build_array(&b, &start, 4, 4) &&
        !ossa_build_array(&b, &inf, 3, sizeof *inf)) {
        mesh->name = "m";
        mesh->submesh_count = 1;
        mesh->submeshes = sm;
        sm->vertex_count = 3;
        sm->material = -1;
        float p[9] = {1, 2, 0, 5, 5, 5, 0, 2, 0};
        float n[9] = {1, 0, 0, 0, 1, 0, 1, 0, 0};
        memcpy(pos, p, sizeof p);
        memcpy(nrm, n, sizeof n);
        start[0] = 0; start[1] = 1; start[2] = 1; start[3] = 3;
        inf[0] = (ossa_influence){1, 1.0f};
        inf[1] = (ossa_influence){1, 0.25f};
        inf[2] = (ossa_influence){0, 0.25f};
        sm->positions = pos; sm->normals = nrm;
        sm->influence_start = start; sm->influences = inf;
        sm->max_influences = 2;
    } else if (!st) {
        st = OSSA_ERR_NOMEM;
    }
    ossa_model *m;
    ossa_build_finish(&b, st, &m);
    return m;
}

static void pose_at(const ossa_model *m, float time, ossa_wrap mode, float *mt, float *mr,
                    float *pal)
{
    float lt[6], lr[8], ls[6], ms[6];
    ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
    ossa_sample_clip(m, &m->clips[0], time, mode, lt, lr, ls, m->bone_count, NULL);
    ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
    ossa_skin_palette(m, mt, mr, ms, pal, m->bone_count, NULL);
}

int main(void)
{
    ossa_model *m = make_model();
    CHECK(m != NULL);
    if (!m)
        return test_finish("unit-anim");
    float mt[6], mr[8], pal[24], pos[9], nrm[9];

    /* Rest pose: identity palette, skinning returns the bind vertices. */
    float lt[6], lr[8], ls[6], ms[6];
    ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
    ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
    CHECK_NEAR(mt[4], 2.0f, 1e-6);
    ossa_skin_palette(m, mt, mr, ms, pal, m->bone_count, NULL);
    ossa_skin_submesh_scalar(&m->meshes[0].submeshes[0], pal, pos, nrm,
                             m->meshes[0].submeshes[0].vertex_count, NULL);
    CHECK_NEAR(pos[0], 1.0f, 1e-6);
    CHECK_NEAR(pos[1], 2.0f, 1e-6);
    CHECK_NEAR(pos[3], 5.0f, 0); /* no influences: passes through */
    CHECK_NEAR(pos[7], 1.0f, 1e-6); /* weights sum to 0.5: Cal3D does not renormalise */

    /* Middle of the keys: 45 degrees. */
    pose_at(m, 0.5f, OSSA_WRAP_EXTRAPOLATE, mt, mr, pal);
    CHECK_NEAR(mr[4 + 2], sinf((float)M_PI / 8), 1e-6);
    /* Past the last key: Cal3D extrapolates along the last pair (factor 1.5 -> 135 degrees)... */
    pose_at(m, 1.0f, OSSA_WRAP_EXTRAPOLATE, mt, mr, pal);
    ossa_skin_submesh_scalar(&m->meshes[0].submeshes[0], pal, pos, nrm,
                             m->meshes[0].submeshes[0].vertex_count, NULL);
    float angle = 2.0f * atan2f(mr[4 + 2], mr[4 + 3]);
    CHECK_NEAR(angle, 3.0f * (float)M_PI / 4.0f, 1e-4);
    /* ...and the vertex at (1,2,0), one unit along the tip's x, turns with it. */
    CHECK_NEAR(pos[0], cosf(angle), 1e-5);
    CHECK_NEAR(pos[1], 2.0f + sinf(angle), 1e-5);
    CHECK_NEAR(nrm[0], cosf(angle), 1e-5);
    /* Before the first key: extrapolation backwards (factor -0.5 -> -45 degrees). */
    pose_at(m, 0.0f, OSSA_WRAP_EXTRAPOLATE, mt, mr, pal);
    CHECK_NEAR(2.0f * atan2f(mr[4 + 2], mr[4 + 3]), -(float)M_PI / 4.0f, 1e-4);
    /* Clamping holds the first and last keys. */
    pose_at(m, 0.0f, OSSA_WRAP_CLAMP, mt, mr, pal);
    CHECK_NEAR(mr[4 + 2], 0.0f, 1e-7);
    pose_at(m, 1.0f, OSSA_WRAP_CLAMP, mt, mr, pal);
    CHECK_NEAR(mr[4 + 2], sinf((float)M_PI / 4), 1e-6);

    /* Wrapping as a looping cycle. */
    CHECK_NEAR(ossa_clip_wrap_time(&m->clips[0], 2.25f), 0.25f, 1e-6);
    CHECK_NEAR(ossa_clip_wrap_time(&m->clips[0], -0.25f), 0.75f, 1e-6);
    CHECK_NEAR(ossa_clip_wrap_time(&m->clips[0], 1.0f), 0.0f, 0);
    CHECK(ossa_model_find_clip(m, "BEND") == 0 && ossa_model_find_bone(m, "tip") == 1);
    ossa_model_destroy(m);
    return test_finish("unit-anim");
}
