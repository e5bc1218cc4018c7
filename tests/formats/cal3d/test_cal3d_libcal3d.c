/* The written demo sets as Debian's libcal3d 0.11 reads them (the oracle shim,
 * tests/common/cal3d_oracle.cpp): the binary set and the XML set load, the bind pose matches the
 * demo's (model-space rest and bone-space "local" transforms, in Cal3D's conjugated convention),
 * faces keep their winding, and the skinned mesh at several times of every clip played as a cycle
 * matches Ossa's skinning of the in-memory demo. This checks the quaternion conversion and the
 * inverse-bind transforms against an independent reader, not just against Ossa's own. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cal3d_oracle.h"
#include "ossa/ossa.h"
#include "demo.h"
#include "test_common.h"
#include "writer_test_util.h"

static double worst_pose, worst_skin;

/* q and the Cal3D quaternion c describe the same rotation: c = +-(-x, -y, -z, w). */
static double quat_error(const float q[4], const float c[4])
{
    double plus = 0, minus = 0;
    const double conj[4] = {-q[0], -q[1], -q[2], q[3]};
    for (int k = 0; k < 4; k++) {
        plus = fmax(plus, fabs(conj[k] - c[k]));
        minus = fmax(minus, fabs(conj[k] + c[k]));
    }
    return fmin(plus, minus);
}

static void check_bind_pose(const char *label, const ossa_model *m, cal3d_ref *ref)
{
    size_t n = m->bone_count;
    float *lt = calloc(3 * n, sizeof(float)), *lr = calloc(4 * n, sizeof(float));
    float *ls = calloc(3 * n, sizeof(float)), *mt = calloc(3 * n, sizeof(float));
    float *mr = calloc(4 * n, sizeof(float)), *ms = calloc(3 * n, sizeof(float));
    ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
    ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
    CHECKF(cal3d_ref_bone_count(ref) == (int)n, "%s: %d bones", label, cal3d_ref_bone_count(ref));
    for (int i = 0; i < cal3d_ref_bone_count(ref) && i < (int)n; i++) {
        float at[3], ar[4], st[3], sr[4];
        cal3d_ref_bone_rest(ref, i, at, ar, st, sr);
        CHECK(strcmp(cal3d_ref_bone_name(ref, i), m->bones[i].name) == 0);
        CHECK(cal3d_ref_bone_parent(ref, i) == m->bones[i].parent);
        double e = 0;
        for (int k = 0; k < 3; k++) {
            e = fmax(e, fabs(at[k] - mt[3 * i + k]));
            e = fmax(e, fabs(st[k] - m->bones[i].inv_bind_t[k]));
        }
        e = fmax(e, quat_error(mr + 4 * i, ar));
        e = fmax(e, quat_error(m->bones[i].inv_bind_r, sr));
        worst_pose = fmax(worst_pose, e);
        CHECKF(e < 1e-5, "%s: bone %d '%s' rest differs by %g", label, i, m->bones[i].name, e);
    }
    free(lt); free(lr); free(ls); free(mt); free(mr); free(ms);
}

/* Ossa's skinned demo, every submesh in order, at time t of clip c played as a cycle. */
static size_t skin_demo(const ossa_model *m, int c, float t, float *out)
{
    size_t n = m->bone_count;
    float *lt = calloc(3 * n, sizeof(float)), *lr = calloc(4 * n, sizeof(float));
    float *ls = calloc(3 * n, sizeof(float)), *mt = calloc(3 * n, sizeof(float));
    float *mr = calloc(4 * n, sizeof(float)), *ms = calloc(3 * n, sizeof(float));
    float *palette = calloc(12 * n, sizeof(float));
    ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
    ossa_sample_clip(m, &m->clips[c], t, OSSA_WRAP_LOOP, lt, lr, ls, m->bone_count, NULL);
    ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
    ossa_skin_palette(m, mt, mr, ms, palette, m->bone_count, NULL);
    size_t at = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            float *normals = calloc(3 * (size_t)sm->vertex_count, sizeof(float));
            ossa_skin_submesh_scalar(sm, palette, out + 3 * at, normals, sm->vertex_count, NULL);
            free(normals);
            at += sm->vertex_count;
        }
    free(lt); free(lr); free(ls); free(mt); free(mr); free(ms); free(palette);
    return at;
}

static void check_set(const ossa_model *m, bool xml)
{
    const char *label = xml ? "XML set" : "binary set";
    char dir[256], path[512], msg[512];
    CHECK(wt_make_temp_dir(dir, sizeof dir, "ossa-write-cal3d"));
    ossa_error err;
    CHECK(ossa_write_cal3d(m, dir, "demo", &(ossa_cal3d_write_options){.xml = xml}, &err) ==
          OSSA_OK);
    const char *ext_s = xml ? "xsf" : "csf", *ext_m = xml ? "xmf" : "cmf";
    const char *ext_a = xml ? "xaf" : "caf";

    cal3d_ref *ref = cal3d_ref_new();
    snprintf(path, sizeof path, "%s/demo.%s", dir, ext_s);
    CHECKF(cal3d_ref_load_skeleton(ref, path, msg, sizeof msg) >= 0, "%s: %s", path, msg);
    snprintf(path, sizeof path, "%s/%s.%s", dir, m->meshes[0].name, ext_m);
    CHECKF(cal3d_ref_load_mesh(ref, path, msg, sizeof msg) >= 0, "%s: %s", path, msg);
    for (uint32_t c = 0; c < m->clip_count; c++) {
        snprintf(path, sizeof path, "%s/%s.%s", dir, m->clips[c].name, ext_a);
        CHECKF(cal3d_ref_load_anim(ref, path, msg, sizeof msg) == (int)c, "%s: %s", path, msg);
    }
    check_bind_pose(label, m, ref);

    /* Faces as written, winding included (the demo's is what the CMF auto-flip keeps). */
    const ossa_submesh *subs = m->meshes[0].submeshes;
    CHECK(cal3d_ref_submesh_count(ref, 0) == (int)m->meshes[0].submesh_count);
    for (uint32_t s = 0; s < m->meshes[0].submesh_count; s++) {
        int nv = 0, nf = 0, ns = 0;
        cal3d_ref_submesh_info(ref, 0, (int)s, &nv, &nf, &ns);
        CHECK(nv == (int)subs[s].vertex_count && nf == (int)subs[s].face_count && ns == 0);
        for (int f = 0; f < nf && f < (int)subs[s].face_count; f++) {
            int idx[3];
            cal3d_ref_face(ref, 0, (int)s, f, idx);
            const uint32_t *tri = subs[s].indices + 3 * (size_t)f;
            if (idx[0] != (int)tri[0] || idx[1] != (int)tri[1] || idx[2] != (int)tri[2]) {
                CHECKF(false, "%s: submesh %u face %d differs", label, s, f);
                break;
            }
        }
    }

    size_t total = 0;
    for (uint32_t s = 0; s < m->meshes[0].submesh_count; s++)
        total += subs[s].vertex_count;
    float *theirs = calloc(3 * total, sizeof(float)), *normals = calloc(3 * total, sizeof(float));
    float *ours = calloc(3 * total, sizeof(float));
    for (uint32_t c = 0; c < m->clip_count; c++) {
        for (float t = 0.1f; t < m->clips[c].duration; t += 0.3f) {
            float mixer_time = 0;
            long n = cal3d_ref_skin(ref, (int)c, t, theirs, normals, total, &mixer_time);
            CHECKF(n == (long)total, "%s: libcal3d skinned %ld of %zu vertices", label, n, total);
            CHECK_NEAR(mixer_time, t, 1e-5);
            skin_demo(m, (int)c, t, ours);
            double e = 0;
            for (size_t k = 0; k < 3 * total && n == (long)total; k++)
                e = fmax(e, fabs(ours[k] - theirs[k]));
            worst_skin = fmax(worst_skin, e);
            CHECKF(e < 1e-4, "%s: clip '%s' at %.2f s: libcal3d's vertices differ by %g", label,
                   m->clips[c].name, (double)t, e);
        }
    }
    free(theirs);
    free(normals);
    free(ours);
    cal3d_ref_free(ref);
    wt_remove_dir(dir);
}

int main(void)
{
    ossa_model *m = NULL;
    ossa_error err;
    if (ossa_demo_model(&m, &err) != OSSA_OK) {
        fprintf(stderr, "demo model: %s\n", err.message);
        return 1;
    }
    check_set(m, false);
    check_set(m, true);
    printf("libcal3d reads the written demo: bind pose within %.3g, skinned vertices within %.3g\n",
           worst_pose, worst_skin);
    ossa_model_destroy(m);
    return test_finish("writers-cal3d-libcal3d");
}
