/* The SKM/SKP reader on a hand-made pair (skm_hand.c) whose every expected value is worked out
 * by hand: Hamilton quaternions used as stored, frame 0 as rest and bind pose, pre-weighted
 * origins to bind vertices, the bind disagreement, attachment flags, frames grouped into clips
 * (D10) with the loop key, records grouped into meshes, "_lodN" names, shared
 * materials, reference-list warnings, a .skm read alone, and the header's file size. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ossa/load.h"
#include "skm_hand.h"

static bool has_warning(const ossa_model *m, const char *text)
{
    for (uint32_t i = 0; i < m->warning_count; i++)
        if (strstr(m->warnings[i], text))
            return true;
    return false;
}

static void check_vec(const float *v, float x, float y, float z, double tol, const char *what)
{
    CHECKF(fabs(v[0] - x) <= tol && fabs(v[1] - y) <= tol && fabs(v[2] - z) <= tol,
           "%s: (%g %g %g), expected (%g %g %g)", what, (double)v[0], (double)v[1],
           (double)v[2], (double)x, (double)y, (double)z);
}

static void check_pair(const ossa_model *m)
{
    CHECK(m->format == OSSA_FORMAT_SKM && m->version == 2);
    CHECK(m->skeleton_format == OSSA_FORMAT_SKP);
    CHECK(m->bone_count == 3);
    if (m->bone_count != 3)
        return;
    CHECK(strcmp(m->bones[2].name, "tag_weapon") == 0);
    CHECK(m->bones[0].parent == -1 && m->bones[1].parent == 0 && m->bones[2].parent == 1);
    CHECK(m->bones[2].flags == OSSA_BONE_ATTACH && m->bones[0].flags == 0);
    CHECK(ossa_model_find_bone(m, "TAG_WEAPON") == 2);

    /* Rest = frame 0; the tag ends up at (1,3,0): +90 degrees about Z takes x to +y. */
    skt_pose rest;
    skt_pose_at(m, NULL, 0.0f, &rest);
    check_vec(rest.mt + 3, 1, 2, 0, 1e-6, "arm in frame 0");
    check_vec(rest.mt + 6, 1, 3, 0, 1e-6, "tag in frame 0");
    /* The inverse bind takes the tag's model position back to its origin. */
    const ossa_bone *tag = &m->bones[2];
    check_vec(tag->inv_bind_t, -3, 1, 0, 1e-6, "tag inverse bind translation");

    /* Meshes: "body" (records 0 and 1) and "body" at LOD 2 (record 2); shaders as materials. */
    CHECK(m->mesh_count == 2);
    CHECK(m->material_count == 2);
    if (m->mesh_count != 2 || m->material_count != 2) {
        skt_pose_free(&rest);
        return;
    }
    CHECK(strcmp(m->materials[0].name, "skin") == 0 && strcmp(m->materials[1].name, "cloth") == 0);
    const ossa_mesh *body = &m->meshes[0], *lod = &m->meshes[1];
    CHECK(strcmp(body->name, "body") == 0 && body->lod == 0 && body->submesh_count == 2);
    CHECK(strcmp(lod->name, "body") == 0 && lod->lod == 2 && lod->submesh_count == 1);
    CHECK(body->submeshes[0].material == 0 && body->submeshes[1].material == 1);
    CHECK(lod->submeshes[0].material == 0);
    const ossa_submesh *sm = &body->submeshes[0];
    CHECK(sm->vertex_count == 3 && sm->face_count == 1 && sm->max_influences == 2);
    check_vec(sm->positions + 0, 1, 3, 0, 1e-6, "v0 bind");
    check_vec(sm->positions + 3, 2, 2, 0, 1e-6, "v1 bind");
    check_vec(sm->positions + 6, 1, 1.5f, 0, 1e-6, "v2 bind");
    check_vec(sm->normals + 0, 0, 1, 0, 1e-6, "v0 normal");
    check_vec(sm->normals + 3, 0, 0, 1, 1e-6, "v1 normal");
    CHECK(sm->uv_set_count == 1 && sm->uvs[2] == 0.75f && sm->uvs[5] == 1.0f);
    CHECK(sm->indices[0] == 0 && sm->indices[1] == 1 && sm->indices[2] == 2);
    CHECK(sm->influence_start[1] == 1 && sm->influence_start[3] == 5);
    CHECK(sm->influences[0].bone == 1 && sm->influences[0].weight == 1.0f);
    CHECK(sm->influences[4].bone == 2 && sm->influences[4].weight == 0.5f);
    /* v2's two influences each put it 1.5 away from the bind vertex. */
    CHECK_NEAR(m->bind_disagreement, 1.5, 1e-6);
    CHECK(has_warning(m, "reference list"));
    CHECK(has_warning(m, "not of unit length"));
    /* Skinned in frame 0, every vertex stays at its bind position. */
    check_vec(rest.pos + 3, 2, 2, 0, 1e-6, "v1 skinned at rest");
    skt_pose_free(&rest);

    /* Clips in order of first frame: idle (frames 0, 1, 4), run (2, 3), "hand" (frame "7"). */
    CHECK(m->clip_count == 3);
    if (m->clip_count != 3)
        return;
    const ossa_clip *idle = &m->clips[0], *run = &m->clips[1], *digits = &m->clips[2];
    CHECK(strcmp(idle->name, "idle") == 0 && strcmp(run->name, "run") == 0);
    CHECK(strcmp(digits->name, "hand") == 0);
    CHECK_NEAR(idle->duration, 0.3, 1e-6);
    CHECK_NEAR(run->duration, 0.2, 1e-6);
    CHECK_NEAR(digits->duration, 0.1, 1e-6);
    CHECK(idle->track_count == 3 && idle->tracks[0].key_count == 4);
    const ossa_track *root = &idle->tracks[0];
    CHECK(root->translations[0] == 1 && root->translations[3] == 2 && root->translations[6] == 5);
    CHECK(root->translations[9] == 1); /* the loop key repeats frame 0 */
    CHECK_NEAR(root->times[3], 0.3, 1e-6);
    /* Frame idle_2's arm rotation had length 2: stored normalised. */
    const float *q = idle->tracks[1].rotations + 4;
    CHECK_NEAR(q[2], 0.70710678, 1e-6);
    CHECK_NEAR(q[3], 0.70710678, 1e-6);
    skt_pose p;
    skt_pose_at(m, idle, 0.25f, &p); /* halfway from idle_3 (x = 5) back to idle_1 (x = 1) */
    check_vec(p.mt, 3, 0, 0, 1e-5, "root at idle 0.25 s");
    skt_pose_free(&p);
    skt_pose_at(m, run, 0.05f, &p);
    check_vec(p.mt, 3.5f, 0, 0, 1e-5, "root at run 0.05 s");
    skt_pose_free(&p);
}

/* The .skm alone, from memory: stand-in bones at the origin, so vertices are the sums of the
 * stored origins. */
static void check_alone(const skt_bytes *skm)
{
    ossa_model *m = NULL;
    ossa_error err;
    CHECKF(ossa_load_memory(skm->data, skm->size, "alone.skm", NULL, &m, &err) == OSSA_OK, "%s",
           err.message);
    if (!m)
        return;
    CHECK(m->bone_count == 3 && m->skeleton_format == OSSA_FORMAT_SKM);
    CHECK(has_warning(m, "no pose file"));
    CHECK(m->clip_count == 0);
    check_vec(m->meshes[0].submeshes[0].positions + 3, 0.5f, 0.5f, 0, 1e-6, "v1 unposed");
    ossa_model_destroy(m);
}

/* The header's file size: larger than the data is truncation; smaller leaves bytes unread. */
static void check_file_size(const skt_bytes *skm)
{
    ossa_model *m = NULL;
    ossa_error err;
    CHECK(ossa_load_memory(skm->data, skm->size - 1, "cut.skm", NULL, &m, &err) ==
          OSSA_ERR_TRUNCATED);
    CHECK(err.offset == 8 && !m);
    uint8_t *longer = calloc(skm->size + 16, 1);
    memcpy(longer, skm->data, skm->size);
    CHECK(ossa_load_memory(longer, skm->size + 16, "long.skm", NULL, &m, &err) == OSSA_OK);
    if (m)
        CHECK(has_warning(m, "16 bytes after the file size"));
    ossa_model_destroy(m);
    free(longer);
}

int main(void)
{
    skt_bytes skp, skm;
    skm_hand_layout layout;
    skm_hand_build(&skp, &skm, &layout);
    char dir[4096];
    if (!skt_make_dir(dir, sizeof dir)) {
        fprintf(stderr, "cannot make a temporary folder\n");
        return 1;
    }
    CHECK(skt_write(dir, "hand.skp", skp.data, skp.size));
    CHECK(skt_write(dir, "hand.skm", skm.data, skm.size));
    char path[4096];
    ossa_model *m = NULL;
    ossa_error err;
    CHECKF(ossa_load_file(test_path(path, sizeof path, dir, "hand.skm"), NULL, &m, &err) ==
           OSSA_OK, "%s", err.message);
    if (m)
        check_pair(m);
    ossa_model_destroy(m);
    /* Both files named, in either order, give the same model. */
    char skp_path[4096];
    test_path(skp_path, sizeof skp_path, dir, "hand.skp");
    const char *both[2] = {path, skp_path};
    CHECK(ossa_load_files(both, 2, NULL, &m, &err) == OSSA_OK);
    if (m)
        check_pair(m);
    ossa_model_destroy(m);
    check_alone(&skm);
    check_file_size(&skm);
    skt_remove_dir(dir);
    skt_free(&skp);
    skt_free(&skm);
    return test_finish("skm-reader");
}
