/* Reference test: Ossa against Debian's libcal3d 0.11 on every real Cal3D asset (binary, and
 * the XML files 0.11 itself loads). Compared: rest poses (model space and bone space), every
 * keyframe, every vertex (position, normal, influences) and face, and the skinned mesh at
 * several times of every animation, through the engine API and through `ossa sample`.
 *
 * Conventions: Ossa quaternions are Hamilton, Cal3D's are conjugated, so q_ossa is compared
 * with +-(-x, -y, -z, w) of Cal3D's. Ossa reorders bones parents-first: bone i of Ossa is bone
 * source_index of Cal3D, and influences/tracks are compared through that map.
 *
 * What 0.11 does that matters here (checked at run time below, not assumed):
 * - CalMixer::blendCycle DOES append a loop keyframe, as docs/FORMATS.md (Mixer) says upstream
 *   does: the first time an animation is played as a cycle, every track gets a copy of its first
 *   key at t = duration (the core animation is mutated; the key totals grow by the track count, and
 *   each appended key is checked below). Between the last key and the duration 0.11 therefore
 *   interpolates back towards the first key; Ossa's OSSA_WRAP_LOOP mode (used by `ossa sample`)
 *   does the same without mutating the clip. The skinned comparison feeds Ossa's sampler the clip
 *   as 0.11 plays it (loop keys appended, tracks 0.11 did not read left out), and also checks
 *   Ossa's own clip in loop mode past the last key.
 * - The mixer's clock wraps with fmod(time, duration); its first update leaves the clock at 0
 *   (the cycle has no duration yet), so a pose at time t is update(0) then update(t).
 * - Submeshes with springs hand vertices of physique weight > 0 to the cloth simulation: those
 *   vertices are excluded from the skinned comparison (and counted). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reference_cal3d.h"
#include "test_common.h"

static void compare_skeleton(const ossa_model *m, const cal3d_ref *ref, double size, errs *e)
{
    int n = cal3d_ref_bone_count(ref);
    CHECKF((int)m->bone_count == n, "bone count: Ossa %u, libcal3d %d", m->bone_count, n);
    if ((int)m->bone_count != n || n == 0)
        return;
    size_t nb = (size_t)n;
    float *lt = malloc(nb * 3 * sizeof(float)), *lr = malloc(nb * 4 * sizeof(float));
    float *ls = malloc(nb * 3 * sizeof(float)), *mt = malloc(nb * 3 * sizeof(float));
    float *mr = malloc(nb * 4 * sizeof(float)), *ms = malloc(nb * 3 * sizeof(float));
    if (lt && lr && ls && mt && mr && ms) {
        ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
        ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
        for (uint32_t i = 0; i < m->bone_count; i++) {
            const ossa_bone *b = &m->bones[i];
            int c = (int)b->source_index;
            float at[3], ar[4], st[3], sr[4];
            cal3d_ref_bone_rest(ref, c, at, ar, st, sr);
            CHECKF(strcmp(b->name, cal3d_ref_bone_name(ref, c)) == 0, "bone %u: name '%s' vs '%s'",
                   i, b->name, cal3d_ref_bone_name(ref, c));
            int cp = cal3d_ref_bone_parent(ref, c);
            int op = b->parent < 0 ? -1 : (int)m->bones[b->parent].source_index;
            CHECKF(cp == op, "bone '%s': parent %d vs libcal3d %d", b->name, op, cp);
            double dt = vec_diff(mt + 3 * i, at, 3), dr = quat_diff(mr + 4 * i, ar);
            double bt = vec_diff(b->inv_bind_t, st, 3), br = quat_diff(b->inv_bind_r, sr);
            CHECKF(dt <= 1e-5 * size && dr <= 1e-5,
                   "bone '%s' rest (model space): t (%g %g %g) vs (%g %g %g), r (%g %g %g %g) vs "
                   "cal3d (%g %g %g %g)", b->name, (double)mt[3 * i], (double)mt[3 * i + 1],
                   (double)mt[3 * i + 2], (double)at[0], (double)at[1], (double)at[2],
                   (double)mr[4 * i], (double)mr[4 * i + 1], (double)mr[4 * i + 2],
                   (double)mr[4 * i + 3], (double)ar[0], (double)ar[1], (double)ar[2], (double)ar[3]);
            CHECKF(bt <= 1e-6 * rel_scale(st, 3) && br <= 1e-6,
                   "bone '%s' inverse bind: dt %g dr %g", b->name, bt, br);
            e->rest_t = maxd(e->rest_t, dt);
            e->rest_r = maxd(e->rest_r, dr);
            e->bind_t = maxd(e->bind_t, bt);
            e->bind_r = maxd(e->bind_r, br);
            e->bones++;
        }
    } else {
        CHECK(!"out of memory");
    }
    free(lt); free(lr); free(ls); free(mt); free(mr); free(ms);
}

static void compare_clip(const ossa_model *m, const ossa_clip *c, const cal3d_ref *ref, int a,
                         errs *e)
{
    CHECKF(fabs((double)c->duration - (double)cal3d_ref_anim_duration(ref, a)) <= 1e-6,
           "clip '%s': duration %g vs %g", c->name, (double)c->duration,
           (double)cal3d_ref_anim_duration(ref, a));
    /* 0.11 reads exactly NUMTRACKS <TRACK> elements of an XAF; Ossa reads them all and warns
     * when the hint is wrong. The tracks past NUMTRACKS are then Ossa's alone. */
    int cal_tracks = cal3d_ref_anim_track_count(ref, a);
    char hint[96];
    snprintf(hint, sizeof hint, "NUMTRACKS=\"%d\" but %u <TRACK>", cal_tracks, c->track_count);
    int hint_wrong = 0;
    for (uint32_t w = 0; w < m->warning_count; w++)
        hint_wrong |= strstr(m->warnings[w], hint) != NULL;
    if (hint_wrong)
        printf("  note: clip '%s': %s; libcal3d 0.11 reads only the first %d, Ossa all %u\n",
               c->name, hint, cal_tracks, c->track_count);
    CHECKF((int)c->track_count == cal_tracks || hint_wrong, "clip '%s': %u tracks vs libcal3d %d",
           c->name, c->track_count, cal_tracks);
    for (uint32_t t = 0; t < c->track_count; t++) {
        const ossa_track *tr = &c->tracks[t];
        int bone = cal_bone(m, tr->bone);
        int keys = cal3d_ref_track_key_count(ref, a, bone);
        if (keys < 0 && hint_wrong) {
            printf("  note: clip '%s': track of bone %d is past NUMTRACKS (Ossa only)\n", c->name,
                   bone);
            continue;
        }
        CHECKF((int)tr->key_count == keys, "clip '%s' bone %d: %u keys vs libcal3d %d", c->name,
               bone, tr->key_count, keys);
        if ((int)tr->key_count != keys)
            continue;
        for (int k = 0; k < keys; k++) {
            float time, kt[3], kr[4];
            cal3d_ref_track_key(ref, a, bone, k, &time, kt, kr);
            double dtime = fabs((double)tr->times[k] - (double)time);
            double dt = vec_diff(tr->translations + 3 * k, kt, 3);
            double dr = quat_diff(tr->rotations + 4 * k, kr);
            CHECKF(dtime <= 1e-6 * maxd(1.0, fabs((double)time)) &&
                       dt <= 1e-6 * rel_scale(kt, 3) && dr <= 1e-6,
                   "clip '%s' bone %d key %d: time %.9g vs %.9g, t (%g %g %g) vs (%g %g %g), "
                   "dr %g", c->name, bone, k, (double)tr->times[k], (double)time,
                   (double)tr->translations[3 * k], (double)tr->translations[3 * k + 1],
                   (double)tr->translations[3 * k + 2], (double)kt[0], (double)kt[1],
                   (double)kt[2], dr);
            e->key_time = maxd(e->key_time, dtime);
            e->key_t = maxd(e->key_t, dt);
            e->key_r = maxd(e->key_r, dr);
            e->keys++;
        }
    }
}

static void compare_submesh(const ossa_model *m, const ossa_submesh *sm, const cal3d_ref *ref,
                            int mi, int si, int scaled, errs *e)
{
    int nv, nf, ns;
    cal3d_ref_submesh_info(ref, mi, si, &nv, &nf, &ns);
    /* 0.11's CalCoreSubmesh::scale drops the springs of a scaled model. */
    int springs_dropped = scaled && ns == 0 && sm->spring_count > 0;
    if (springs_dropped)
        printf("  note: mesh %d submesh %d: libcal3d 0.11 drops its %u springs when scaling "
               "(cloth off, all its vertices skinned)\n", mi, si, sm->spring_count);
    CHECKF((int)sm->vertex_count == nv && (int)sm->face_count == nf &&
               ((int)sm->spring_count == ns || springs_dropped),
           "mesh %d submesh %d: vertices/faces/springs %u/%u/%u vs libcal3d %d/%d/%d", mi, si,
           sm->vertex_count, sm->face_count, sm->spring_count, nv, nf, ns);
    if ((int)sm->vertex_count != nv)
        return;
    for (int k = 0; k < ns && (int)sm->spring_count == ns; k++) {
        int sv[2];
        float coef, idle;
        cal3d_ref_spring(ref, mi, si, k, sv, &coef, &idle);
        const ossa_spring *o = &sm->springs[k];
        CHECKF((int)o->vertex[0] == sv[0] && (int)o->vertex[1] == sv[1] &&
                   near_rel(o->coefficient, coef) && near_rel(o->idle_length, idle),
               "mesh %d submesh %d spring %d: %u-%u %g %g vs libcal3d %d-%d %g %g", mi, si, k,
               o->vertex[0], o->vertex[1], (double)o->coefficient, (double)o->idle_length, sv[0],
               sv[1], (double)coef, (double)idle);
        e->springs++;
    }
    for (int v = 0; v < nv; v++) {
        float p[3], n[3];
        int ni = cal3d_ref_vertex(ref, mi, si, v, p, n);
        double dp = vec_diff(sm->positions + 3 * v, p, 3), dn = vec_diff(sm->normals + 3 * v, n, 3);
        CHECKF(dp <= 1e-6 * rel_scale(p, 3) && dn <= 1e-6,
               "mesh %d submesh %d vertex %d: p (%g %g %g) vs (%g %g %g), n (%g %g %g) vs "
               "(%g %g %g)", mi, si, v, (double)sm->positions[3 * v],
               (double)sm->positions[3 * v + 1], (double)sm->positions[3 * v + 2], (double)p[0],
               (double)p[1], (double)p[2], (double)sm->normals[3 * v],
               (double)sm->normals[3 * v + 1], (double)sm->normals[3 * v + 2], (double)n[0],
               (double)n[1], (double)n[2]);
        e->vert_p = maxd(e->vert_p, dp);
        e->vert_n = maxd(e->vert_n, dn);
        uint32_t first = sm->influence_start[v], count = sm->influence_start[v + 1] - first;
        CHECKF((int)count == ni, "mesh %d submesh %d vertex %d: %u influences vs libcal3d %d", mi,
               si, v, count, ni);
        for (int i = 0; i < ni && (int)count == ni; i++) {
            int bone;
            float w;
            cal3d_ref_influence(ref, mi, si, v, i, &bone, &w);
            const ossa_influence *in = &sm->influences[first + (uint32_t)i];
            double dw = fabs((double)in->weight - (double)w);
            CHECKF(cal_bone(m, in->bone) == bone && dw <= 1e-6,
                   "mesh %d submesh %d vertex %d influence %d: bone %d weight %g vs libcal3d "
                   "bone %d weight %g", mi, si, v, i, cal_bone(m, in->bone), (double)in->weight,
                   bone, (double)w);
            e->weight = maxd(e->weight, dw);
        }
        if (ns > 0 && sm->physique_weights) {
            float pw = cal3d_ref_physique_weight(ref, mi, si, v);
            CHECKF(fabs((double)sm->physique_weights[v] - (double)pw) <= 1e-6,
                   "mesh %d submesh %d vertex %d: physique weight %g vs %g", mi, si, v,
                   (double)sm->physique_weights[v], (double)pw);
        }
        e->vertices++;
    }
    for (int f = 0; f < nf && (int)sm->face_count == nf; f++) {
        int idx[3];
        cal3d_ref_face(ref, mi, si, f, idx);
        const uint32_t *o = sm->indices + 3 * f;
        CHECKF((int)o[0] == idx[0] && (int)o[1] == idx[1] && (int)o[2] == idx[2],
               "mesh %d submesh %d face %d: %u %u %u vs libcal3d %d %d %d (winding flip?)", mi, si,
               f, o[0], o[1], o[2], idx[0], idx[1], idx[2]);
        e->faces++;
    }
}

static void run_case(const ref_case *rc, const char *assets, const char *tmpdir)
{
    char dir[PATH_MAX_LEN], skel[PATH_MAX_LEN], cfg_path[PATH_MAX_LEN];
    char raw[PATH_MAX_LEN * 2];
    snprintf(raw, sizeof raw, "%s/%s", assets, rc->dir);
    if (!realpath(raw, dir)) {
        CHECKF(0, "%s: no folder %s", rc->name, raw);
        return;
    }
    int xml = strncmp(rc->dir, "cal3d-xml", 9) == 0;
    printf("%s (%s)\n", rc->name, rc->dir);
    file_list l = {0};
    if (rc->enumerate) {
        list_dir(&l, dir);
        for (const char *const *s = rc->subdirs; s && *s; s++) {
            snprintf(raw, sizeof raw, "%s/%s", dir, *s);
            list_dir(&l, raw);
        }
    }
    for (const char *const *f = rc->files; f && *f; f++) {
        snprintf(raw, sizeof raw, "%s/%s", dir, *f);
        CHECKF(list_add(&l, raw), "%s: cannot list %s", rc->name, raw);
    }
    const char *skeleton = NULL;
    if (rc->skeleton) {
        snprintf(raw, sizeof raw, "%s/%s", dir, rc->skeleton);
        if (realpath(raw, skel))
            skeleton = skel;
        CHECKF(skeleton != NULL, "%s: no skeleton %s", rc->name, raw);
    }
    float scale = 1.0f;
    if (rc->cfg) {
        snprintf(raw, sizeof raw, "%s/%s", dir, rc->cfg);
        scale = cfg_scale(raw);
    }
    cal3d_ref *ref = cal3d_ref_new();
    ossa_model *m = NULL;
    if (load_reference(ref, skeleton, &l, xml) < 0) {
        printf("  skipped: libcal3d 0.11 does not load it\n");
        goto done;
    }
    if (!skeleton && !l.mesh_count && !l.anim_count) {
        printf("  skipped: nothing libcal3d 0.11 loads\n");
        goto done;
    }
    if (scale != 1.0f)
        cal3d_ref_scale(ref, scale);
    if (skeleton) {
        snprintf(cfg_path, sizeof cfg_path, "%s/%s.cfg", tmpdir, rc->name);
        CHECKF(write_cfg(cfg_path, skeleton, &l, scale), "cannot write %s", cfg_path);
        m = load_ossa(cfg_path, &l);
    } else {
        m = load_ossa(NULL, &l);
    }
    if (!m)
        goto done;
    errs e = {0};
    double size = model_size(ref);
    if (skeleton)
        compare_skeleton(m, ref, size, &e);
    CHECKF((int)m->clip_count == cal3d_ref_anim_count(ref), "%s: %u clips vs libcal3d %d",
           rc->name, m->clip_count, cal3d_ref_anim_count(ref));
    for (uint32_t c = 0; c < m->clip_count && (int)c < cal3d_ref_anim_count(ref); c++)
        compare_clip(m, &m->clips[c], ref, (int)c, &e);
    CHECKF((int)m->mesh_count == cal3d_ref_mesh_count(ref), "%s: %u meshes vs libcal3d %d",
           rc->name, m->mesh_count, cal3d_ref_mesh_count(ref));
    int meshes_match = (int)m->mesh_count == cal3d_ref_mesh_count(ref);
    for (uint32_t mi = 0; mi < m->mesh_count && meshes_match; mi++) {
        int ns = cal3d_ref_submesh_count(ref, (int)mi);
        CHECKF((int)m->meshes[mi].submesh_count == ns, "%s mesh %u: %u submeshes vs libcal3d %d",
               rc->name, mi, m->meshes[mi].submesh_count, ns);
        if ((int)m->meshes[mi].submesh_count != ns) {
            meshes_match = 0;
            break;
        }
        for (int si = 0; si < ns; si++)
            compare_submesh(m, &m->meshes[mi].submeshes[si], ref, (int)mi, si, scale != 1.0f, &e);
    }
    if (skeleton && meshes_match && m->bone_count)
        compare_skinning(m, ref, cfg_path, size, &e);
    printf("  %ld bones, %u clips (%ld keys), %u meshes (%ld vertices, %ld faces, %ld springs), "
           "scale %g, size %.6g\n", e.bones, m->clip_count, e.keys, m->mesh_count, e.vertices,
           e.faces, e.springs, (double)scale, size);
    printf("  max error: rest t %.3g r %.3g, inverse bind t %.3g r %.3g; keys time %.3g t %.3g "
           "r %.3g; vertices p %.3g n %.3g weight %.3g\n", e.rest_t, e.rest_r, e.bind_t, e.bind_r,
           e.key_time, e.key_t, e.key_r, e.vert_p, e.vert_n, e.weight);
    if (e.poses) {
        printf("  skinned: %ld poses; max position error %.3g x size (API), %.3g x size (CLI); "
               "max normal error %.3g (API), %.3g (CLI); %ld spring-driven vertices excluded\n",
               e.poses, e.skin_p, e.cli_p, e.skin_n, e.cli_n, e.excluded);
        printf("  0.11 blendCycle appended %ld loop keys; past the last key Ossa's own clip "
               "(OSSA_WRAP_LOOP) is %.3g x size / normals %.3g from 0.11's looped cycle\n",
               e.loop_keys, e.loop_p, e.loop_n);
    }
done:
    if (skeleton)
        unlink(cfg_path);
    ossa_model_destroy(m);
    cal3d_ref_free(ref);
    list_free(&l);
}

int main(void)
{
    const char *assets = test_assets_dir();
    if (!assets) {
        printf("no shared assets: skipped\n");
        return TEST_SKIP;
    }
    static const char *const young_sub[] = {"meshes", "animations", "poses", NULL};
    static const char *const v900_files[] = {"../paladin/paladin_walk.caf", NULL};
    static const char *const pc_head[] = {"test_head.xmf", NULL};
    static const char *const pc_marine[] = {"Helmet.xmf", "ERightIn.xaf", NULL};
    /* The IMVU test documents fit no skeleton here: compared as loose files, one by one. */
    static const char *const imvu_mesh1[] = {"mesh1.xmf", NULL};
    static const char *const imvu_mesh2[] = {"mesh2.xmf", NULL};
    static const char *const imvu_mesh3[] = {"mesh_with_empty_morph.xmf", NULL};
    static const char *const imvu_mesh4[] = {"xml_with_hash_mark_comments.xmf", NULL};
    static const char *const imvu_anim1[] = {"animation1.xaf", NULL};
    static const char *const imvu_anim2[] = {"animation2.xaf", NULL};
    static const char *const imvu_anim3[] = {"animation3.xaf", NULL};
    static const ref_case cases[] = {
        {"cally", "cal3d/cally", "cally.csf", "cally.cfg", 1, NULL, NULL},
        {"paladin", "cal3d/paladin", "paladin.csf", "paladin.cfg", 1, NULL, NULL},
        {"paladin-v900", "cal3d/paladin-v900", "../paladin/paladin.csf", "paladin.cfg", 1, NULL,
         v900_files},
        {"skeleton", "cal3d/skeleton", "skeleton.csf", "skeleton.cfg", 1, NULL, NULL},
        {"hero", "cal3d/hero", "hero.csf", "hero.cfg", 1, NULL, NULL},
        {"heroine", "cal3d/heroine", "heroine.csf", "heroine.cfg", 1, NULL, NULL},
        {"thug", "cal3d/thug", "thug.csf", "thug.cfg", 1, NULL, NULL},
        {"marine", "cal3d/marine", "Skeleton.csf", "cal3d.cfg", 1, NULL, NULL},
        {"PoseMeshMarine", "cal3d-xml/PoseMeshMarine", "Skeleton.XSF", NULL, 1, NULL, NULL},
        {"YoungMan", "cal3d-xml/YoungMan", "Skeleton_Male_Average.xsf", NULL, 1, young_sub, NULL},
        {"ProjectContext-head", "cal3d-xml/tests-ProjectContext", "Skeleton.xsf", NULL, 0, NULL,
         pc_head},
        {"ProjectContext-marine", "cal3d-xml/tests-ProjectContext", "../PoseMeshMarine/Skeleton.XSF",
         NULL, 0, NULL, pc_marine},
        {"imvu-skeleton1", "cal3d-xml/imvu-tests", "skeleton1.xsf", NULL, 0, NULL, NULL},
        {"imvu-skeleton2", "cal3d-xml/imvu-tests", "skeleton2.xsf", NULL, 0, NULL, NULL},
        {"imvu-mesh1", "cal3d-xml/imvu-tests", NULL, NULL, 0, NULL, imvu_mesh1},
        {"imvu-mesh2", "cal3d-xml/imvu-tests", NULL, NULL, 0, NULL, imvu_mesh2},
        {"imvu-mesh-empty-morph", "cal3d-xml/imvu-tests", NULL, NULL, 0, NULL, imvu_mesh3},
        {"imvu-mesh-hash-comments", "cal3d-xml/imvu-tests", NULL, NULL, 0, NULL, imvu_mesh4},
        {"imvu-animation1", "cal3d-xml/imvu-tests", NULL, NULL, 0, NULL, imvu_anim1},
        {"imvu-animation2", "cal3d-xml/imvu-tests", NULL, NULL, 0, NULL, imvu_anim2},
        {"imvu-animation3", "cal3d-xml/imvu-tests", NULL, NULL, 0, NULL, imvu_anim3},
    };
    char tmpl[] = "/tmp/ossa-ref-XXXXXX";
    char *tmpdir = mkdtemp(tmpl);
    CHECK(tmpdir != NULL);
    if (!tmpdir)
        return test_finish("reference-cal3d");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_case(&cases[i], assets, tmpdir);
        fflush(stdout);
    }
    rmdir(tmpdir);
    return test_finish("reference-cal3d");
}
