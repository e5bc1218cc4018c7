/* The built-in demo model: skeleton, clips, bind-pose skinning and a moving walk. */
#include <math.h>
#include <string.h>

#include "ossa/reference.h"
#include "ossa/sample.h"
#include "demo.h"
#include "test_common.h"

/* Skins every vertex of the model at a pose into out (3 floats per vertex, submesh order). */
static void skin_pose(const ossa_model *m, const ossa_clip *clip, float time, float *out)
{
    float lt[3 * 64], lr[4 * 64], ls[3 * 64], mt[3 * 64], mr[4 * 64], ms[3 * 64], pal[12 * 64];
    ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
    if (clip)
        ossa_sample_clip(m, clip, time, OSSA_WRAP_EXTRAPOLATE, lt, lr, ls, m->bone_count, NULL);
    ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
    ossa_skin_palette(m, mt, mr, ms, pal, m->bone_count, NULL);
    size_t off = 0;
    const ossa_mesh *mesh = &m->meshes[0];
    for (uint32_t s = 0; s < mesh->submesh_count; s++) {
        ossa_skin_submesh_scalar(&mesh->submeshes[s], pal, out + off, NULL,
                                 mesh->submeshes[s].vertex_count, NULL);
        off += 3 * (size_t)mesh->submeshes[s].vertex_count;
    }
}

/* Lowest y of the vertices rigidly bound to one bone, and their mean position. */
static float bone_vertices_mean(const ossa_model *m, const float *pos, uint32_t bone, float mean[3])
{
    size_t off = 0, count = 0;
    float min_y = 1e9f;
    mean[0] = mean[1] = mean[2] = 0;
    const ossa_mesh *mesh = &m->meshes[0];
    for (uint32_t s = 0; s < mesh->submesh_count; s++) {
        const ossa_submesh *sm = &mesh->submeshes[s];
        for (uint32_t v = 0; v < sm->vertex_count; v++) {
            const ossa_influence *in = &sm->influences[sm->influence_start[v]];
            if (sm->influence_start[v + 1] - sm->influence_start[v] == 1 && in->bone == bone) {
                const float *p = pos + off + 3 * v;
                for (int k = 0; k < 3; k++)
                    mean[k] += p[k];
                min_y = p[1] < min_y ? p[1] : min_y;
                count++;
            }
        }
        off += 3 * (size_t)sm->vertex_count;
    }
    for (int k = 0; k < 3 && count; k++)
        mean[k] /= (float)count;
    return min_y;
}

int main(void)
{
    ossa_error err;
    ossa_model *m = NULL;
    CHECK(ossa_demo_model(NULL, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(ossa_demo_model(&m, &err) == OSSA_OK, "%s", err.message);
    if (!m)
        return test_finish("demo");
    CHECK(ossa_model_validate(m, &err) == OSSA_OK);
    CHECK(m->format == OSSA_FORMAT_DEMO);
    CHECK(m->bone_count == 19);
    CHECK(m->bones[0].parent == -1);
    for (uint32_t i = 1; i < m->bone_count; i++)
        CHECK(m->bones[i].parent >= 0 && m->bones[i].parent < (int32_t)i);
    uint32_t foot_l = ossa_model_find_bone(m, "foot_l"), head = ossa_model_find_bone(m, "head");
    uint32_t hand_r = ossa_model_find_bone(m, "hand_r");
    CHECK(foot_l > 0 && head > 0 && hand_r > 0);
    CHECK(foot_l != OSSA_NOT_FOUND && head != OSSA_NOT_FOUND && hand_r != OSSA_NOT_FOUND);
    CHECK(ossa_model_find_bone(m, "pelvis") == 0);
    CHECK(m->material_count >= 2);
    if (m->material_count >= 2)
        CHECK(memcmp(m->materials[0].diffuse, m->materials[1].diffuse, 3 * sizeof(float)) != 0);

    CHECK(m->clip_count == 3);
    uint32_t walk = ossa_model_find_clip(m, "walk"), wave = ossa_model_find_clip(m, "wave");
    CHECK(walk == 0 && wave != OSSA_NOT_FOUND &&
          ossa_model_find_clip(m, "idle") != OSSA_NOT_FOUND);
    if (walk != OSSA_NOT_FOUND)
        CHECK_NEAR(m->clips[walk].duration, 1.0, 1e-6);
    if (wave != OSSA_NOT_FOUND)
        CHECK_NEAR(m->clips[wave].duration, 2.0, 1e-6);

    CHECK(m->mesh_count == 1);
    size_t nv = 0;
    uint32_t max_inf = 0;
    for (uint32_t s = 0; s < m->meshes[0].submesh_count; s++) {
        const ossa_submesh *sm = &m->meshes[0].submeshes[s];
        nv += sm->vertex_count;
        max_inf = sm->max_influences > max_inf ? sm->max_influences : max_inf;
        CHECK(sm->material >= 0 && sm->material < (int32_t)m->material_count);
        for (uint32_t v = 0; v < sm->vertex_count; v++) {
            float sum = 0;
            for (uint32_t k = sm->influence_start[v]; k < sm->influence_start[v + 1]; k++)
                sum += sm->influences[k].weight;
            CHECK_NEAR(sum, 1.0, 1e-6);
        }
    }
    CHECK(nv == 19 * 24);
    CHECK(max_inf == 2); /* elbows and knees blend two bones */

    float *bind = calloc(3 * nv, sizeof(float)), *pose = calloc(3 * nv, sizeof(float));
    float *pose2 = calloc(3 * nv, sizeof(float));
    CHECK(bind && pose && pose2);
    if (bind && pose && pose2) {
        /* Rest pose skinning leaves every vertex where the mesh stores it. */
        skin_pose(m, NULL, 0, pose);
        size_t off = 0;
        float min_y = 1e9f, max_y = -1e9f, worst = 0;
        for (uint32_t s = 0; s < m->meshes[0].submesh_count; s++) {
            const ossa_submesh *sm = &m->meshes[0].submeshes[s];
            memcpy(bind + off, sm->positions, 3 * sm->vertex_count * sizeof(float));
            off += 3 * (size_t)sm->vertex_count;
        }
        for (size_t i = 0; i < 3 * nv; i++) {
            float d = fabsf(pose[i] - bind[i]);
            worst = d > worst ? d : worst;
            if (i % 3 == 1) {
                min_y = bind[i] < min_y ? bind[i] : min_y;
                max_y = bind[i] > max_y ? bind[i] : max_y;
            }
        }
        CHECK_NEAR(worst, 0.0, 1e-5);
        CHECK_NEAR(min_y, 0.0, 1e-5); /* feet on the ground */
        CHECK_NEAR(max_y, 1.8, 0.05);

        /* Walk at 0.25 s: the left leg swings, so the left foot moves. */
        float rest_foot[3], walk_foot[3];
        bone_vertices_mean(m, bind, foot_l, rest_foot);
        skin_pose(m, &m->clips[0], 0.25f, pose);
        bone_vertices_mean(m, pose, foot_l, walk_foot);
        float dz = walk_foot[2] - rest_foot[2], dy = walk_foot[1] - rest_foot[1];
        float moved = sqrtf(dz * dz + dy * dy);
        CHECKF(moved > 0.1f, "foot moved by %g", (double)moved);

        /* Looping: the end of the walk is its beginning. */
        skin_pose(m, &m->clips[0], 0.0f, pose);
        skin_pose(m, &m->clips[0], 1.0f, pose2);
        worst = 0;
        for (size_t i = 0; i < 3 * nv; i++)
            worst = fabsf(pose[i] - pose2[i]) > worst ? fabsf(pose[i] - pose2[i]) : worst;
        CHECK_NEAR(worst, 0.0, 1e-4);

        /* Wave: the right hand is above the head. */
        if (wave != OSSA_NOT_FOUND) {
            float hand[3], top[3];
            skin_pose(m, &m->clips[wave], 0.5f, pose);
            bone_vertices_mean(m, pose, hand_r, hand);
            bone_vertices_mean(m, pose, head, top);
            CHECKF(hand[1] > top[1], "hand y %g, head y %g", (double)hand[1], (double)top[1]);
        }
    }
    free(bind);
    free(pose);
    free(pose2);
    ossa_model_destroy(m);
    return test_finish("demo");
}
