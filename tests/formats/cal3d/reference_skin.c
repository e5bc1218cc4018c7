/* The reference test's skinned comparison (reference_cal3d.h): Ossa's skinned mesh, through the
 * engine and through `ossa sample`, against libcal3d's at several times of every animation,
 * the clip fed as 0.11 plays it; vertices libcal3d's cloth owns are left out and counted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference_cal3d.h"
#include "test_common.h"

/* Vertex v of the concatenated (mesh, submesh) order is owned by libcal3d's spring system. */
static unsigned char *spring_mask(const ossa_model *m, const cal3d_ref *ref, size_t total)
{
    unsigned char *mask = calloc(total ? total : 1, 1);
    size_t at = 0;
    if (!mask)
        return NULL;
    for (uint32_t mi = 0; mi < m->mesh_count; mi++)
        for (uint32_t si = 0; si < m->meshes[mi].submesh_count; si++) {
            const ossa_submesh *sm = &m->meshes[mi].submeshes[si];
            for (uint32_t v = 0; v < sm->vertex_count && at < total; v++, at++)
                mask[at] = sm->spring_count > 0 &&
                           cal3d_ref_physique_weight(ref, (int)mi, (int)si, (int)v) > 0.0f;
        }
    return mask;
}

/* Ossa's skinned mesh at one time of a clip (NULL: rest pose), concatenated like libcal3d's. */
static int ossa_skin(const ossa_model *m, const ossa_clip *c, float time, float *pos, float *nrm)
{
    size_t nb = m->bone_count ? m->bone_count : 1;
    float *lt = malloc(nb * 3 * sizeof(float)), *lr = malloc(nb * 4 * sizeof(float));
    float *ls = malloc(nb * 3 * sizeof(float)), *mt = malloc(nb * 3 * sizeof(float));
    float *mr = malloc(nb * 4 * sizeof(float)), *ms = malloc(nb * 3 * sizeof(float));
    float *pal = malloc(nb * 12 * sizeof(float));
    int ok = lt && lr && ls && mt && mr && ms && pal;
    if (ok) {
        ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
        if (c)
            ossa_sample_clip(m, c, ossa_clip_wrap_time(c, time), OSSA_WRAP_LOOP, lt, lr, ls,
                             m->bone_count, NULL);
        ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
        ossa_skin_palette(m, mt, mr, ms, pal, m->bone_count, NULL);
        size_t at = 0;
        for (uint32_t mi = 0; mi < m->mesh_count; mi++)
            for (uint32_t si = 0; si < m->meshes[mi].submesh_count; si++) {
                const ossa_submesh *sm = &m->meshes[mi].submeshes[si];
                ossa_skin_submesh_scalar(sm, pal, pos + 3 * at, nrm + 3 * at, sm->vertex_count,
                                         NULL);
                at += sm->vertex_count;
            }
    }
    free(lt); free(lr); free(ls); free(mt); free(mr); free(ms); free(pal);
    return ok;
}

/* A clip as libcal3d 0.11 plays it as a cycle: the tracks 0.11 read, each with the key its
 * blendCycle appended (checked to be a copy of the first key at t = duration). */
typedef struct played_clip {
    ossa_clip clip;
    ossa_track *tracks;
    float **blocks; /* one allocation per track, freed by played_free */
    uint32_t block_count;
    long appended;
} played_clip;

static void played_free(played_clip *p)
{
    for (uint32_t i = 0; i < p->block_count; i++)
        free(p->blocks[i]);
    free(p->blocks);
    free(p->tracks);
    memset(p, 0, sizeof *p);
}

static int played_build(const ossa_model *m, const ossa_clip *c, const cal3d_ref *ref, int a,
                        played_clip *p)
{
    memset(p, 0, sizeof *p);
    p->clip = *c;
    p->tracks = calloc(c->track_count ? c->track_count : 1, sizeof *p->tracks);
    p->blocks = calloc(c->track_count ? c->track_count : 1, sizeof *p->blocks);
    if (!p->tracks || !p->blocks)
        return 0;
    uint32_t kept = 0;
    for (uint32_t t = 0; t < c->track_count; t++) {
        const ossa_track *tr = &c->tracks[t];
        int bone = cal_bone(m, tr->bone);
        int keys = cal3d_ref_track_key_count(ref, a, bone);
        if (keys < 0)
            continue; /* past NUMTRACKS: 0.11 never read it */
        int extra = keys == (int)tr->key_count + 1;
        CHECKF(extra || keys == (int)tr->key_count,
               "clip '%s' bone %d: libcal3d plays %d keys, Ossa has %u", c->name, bone, keys,
               tr->key_count);
        uint32_t n = tr->key_count + (extra ? 1u : 0u);
        float *block = malloc((size_t)n * 13 * sizeof(float));
        if (!block)
            return 0;
        p->blocks[p->block_count++] = block;
        float *times = block, *tt = block + n, *rr = block + 4 * n, *ss = block + 8 * n;
        memcpy(times, tr->times, tr->key_count * sizeof(float));
        memcpy(tt, tr->translations, 3 * tr->key_count * sizeof(float));
        memcpy(rr, tr->rotations, 4 * tr->key_count * sizeof(float));
        for (uint32_t k = 0; k < tr->key_count; k++)
            for (int j = 0; j < 3; j++)
                ss[3 * k + j] = tr->scales ? tr->scales[3 * k + j] : 1.0f;
        if (extra) {
            uint32_t k = tr->key_count;
            float time, kt[3], kr[4];
            cal3d_ref_track_key(ref, a, bone, (int)k, &time, kt, kr);
            times[k] = c->duration;
            memcpy(tt + 3 * k, tr->translations, 3 * sizeof(float));
            memcpy(rr + 4 * k, tr->rotations, 4 * sizeof(float));
            memcpy(ss + 3 * k, ss, 3 * sizeof(float));
            CHECKF(fabs((double)time - (double)c->duration) <= 1e-6 &&
                       vec_diff(kt, tt, 3) <= 1e-6 * rel_scale(kt, 3) && quat_diff(rr, kr) <= 1e-6,
                   "clip '%s' bone %d: the key 0.11 appended (t=%g) is not the first key at the "
                   "duration %g", c->name, bone, (double)time, (double)c->duration);
            p->appended++;
        }
        p->tracks[kept] = *tr;
        p->tracks[kept].key_count = n;
        p->tracks[kept].times = times;
        p->tracks[kept].translations = tt;
        p->tracks[kept].rotations = rr;
        p->tracks[kept].scales = tr->scales ? ss : NULL;
        kept++;
    }
    p->clip.track_count = kept;
    p->clip.tracks = p->tracks;
    return 1;
}

/* `ossa sample CFG --clip N --time T`, parsed from its CSV into pos/nrm. */
static int cli_skin(const char *cfg_path, int clip, float time, float *pos, float *nrm,
                    size_t total)
{
    const char *root = getenv("OSSA_BUILD_ROOT");
    char cmd[PATH_MAX_LEN * 2];
    CHECKF(root != NULL, "OSSA_BUILD_ROOT is not set (run through meson test)");
    if (!root)
        return 0;
    snprintf(cmd, sizeof cmd, "'%s/tools/ossa' sample '%s' --clip %d --time %.9g", root, cfg_path,
             clip, (double)time);
    FILE *p = popen(cmd, "r");
    CHECKF(p != NULL, "cannot run %s", cmd);
    if (!p)
        return 0;
    char line[512];
    size_t rows = 0;
    int bad = 0;
    while (fgets(line, sizeof line, p)) {
        unsigned mi, si, v;
        float q[6];
        if (strncmp(line, "mesh,", 5) == 0)
            continue;
        if (sscanf(line, "%u,%u,%u,%f,%f,%f,%f,%f,%f", &mi, &si, &v, &q[0], &q[1], &q[2], &q[3],
                   &q[4], &q[5]) != 9 || rows >= total) {
            bad = 1;
            continue;
        }
        memcpy(pos + 3 * rows, q, 3 * sizeof(float));
        memcpy(nrm + 3 * rows, q + 3, 3 * sizeof(float));
        rows++;
    }
    int rc = pclose(p);
    CHECKF(rc == 0 && !bad && rows == total, "%s: exit %d, %zu rows for %zu vertices%s", cmd, rc,
           rows, total, bad ? ", unparsable lines" : "");
    return rc == 0 && !bad && rows == total;
}

/* Largest position (relative to size) and normal differences over the vertices not owned by
 * springs. */
static void diff_skin(const float *p0, const float *n0, const float *p1, const float *n1,
                      const unsigned char *mask, size_t total, double size, double *dp_max,
                      double *dn_max, long *worst)
{
    *dp_max = 0.0;
    *dn_max = 0.0;
    *worst = -1;
    for (size_t v = 0; v < total; v++) {
        if (mask[v])
            continue;
        double dp = vec_diff(p0 + 3 * v, p1 + 3 * v, 3) / size;
        double dn = vec_diff(n0 + 3 * v, n1 + 3 * v, 3);
        if (dp > *dp_max || (dp != dp)) {
            *dp_max = dp;
            *worst = (long)v;
        }
        *dn_max = maxd(*dn_max, dn);
    }
}

void compare_skinning(const ossa_model *m, cal3d_ref *ref, const char *cfg_path,
                             double size, errs *e)
{
    size_t total = 0;
    for (uint32_t mi = 0; mi < m->mesh_count; mi++)
        for (uint32_t si = 0; si < m->meshes[mi].submesh_count; si++)
            total += m->meshes[mi].submeshes[si].vertex_count;
    if (!total)
        return;
    float *cp = malloc(total * 3 * sizeof(float)), *cn = malloc(total * 3 * sizeof(float));
    float *op = malloc(total * 3 * sizeof(float)), *on = malloc(total * 3 * sizeof(float));
    unsigned char *mask = spring_mask(m, ref, total);
    if (!cp || !cn || !op || !on || !mask) {
        CHECK(!"out of memory");
        goto done;
    }
    for (size_t v = 0; v < total; v++)
        e->excluded += mask[v];
    for (int clip = -1; clip < (int)m->clip_count; clip++) {
        const ossa_clip *c = clip >= 0 ? &m->clips[clip] : NULL;
        float d = c ? c->duration : 0.0f;
        /* 0, mid, near the end (past the last key of most tracks), and beyond (wraps) */
        const float times[4] = {0.0f, 0.5f * d, 0.97f * d, 1.37f * d};
        int time_count = c ? 4 : 1;
        played_clip played = {0};
        int have_played = 0;
        for (int ti = 0; ti < time_count; ti++) {
            float mixer_time = 0.0f;
            long n = cal3d_ref_skin(ref, clip, times[ti], cp, cn, total, &mixer_time);
            CHECKF(n == (long)total, "libcal3d rendered %ld vertices, Ossa has %zu", n, total);
            if (n != (long)total)
                break;
            if (c && !have_played) { /* only now has 0.11 appended its loop keys */
                have_played = played_build(m, c, ref, clip, &played);
                CHECK(have_played);
                if (!have_played)
                    break;
                e->loop_keys += played.appended;
            }
            if (c) {
                float want = ossa_clip_wrap_time(c, times[ti]);
                CHECKF(fabs((double)mixer_time - (double)want) <= 1e-5 * maxd(1.0, d),
                       "clip '%s' at %g: libcal3d's mixer is at %g, ossa_clip_wrap_time says %g",
                       c->name, (double)times[ti], (double)mixer_time, (double)want);
            }
            double dp, dn;
            long worst;
            /* Ossa's own clip sampled as a cycle (OSSA_WRAP_LOOP) must match 0.11 past the
             * last key too, wherever 0.11 read the same tracks. */
            int same_tracks = c && played.clip.track_count == c->track_count;
            if (c && ti == 2 && ossa_skin(m, c, times[ti], op, on)) {
                diff_skin(op, on, cp, cn, mask, total, size, &dp, &dn, &worst);
                e->loop_p = maxd(e->loop_p, dp);
                e->loop_n = maxd(e->loop_n, dn);
                CHECKF(!same_tracks || (dp <= 1e-4 && dn <= 1e-4),
                       "clip '%s' past the last key: Ossa's cycle is %g x size (normals %g) from "
                       "0.11's", c->name, dp, dn);
            }
            /* the mid time and the time past the last key of every clip go through
             * `ossa sample`, which plays a clip as a cycle */
            int via_cli = c && (ti == 1 || (ti == 2 && same_tracks));
            int ok = via_cli ? cli_skin(cfg_path, clip, times[ti], op, on, total)
                             : ossa_skin(m, c ? &played.clip : NULL, times[ti], op, on);
            if (!ok)
                continue;
            diff_skin(op, on, cp, cn, mask, total, size, &dp, &dn, &worst);
            const float *wo = op + 3 * (worst >= 0 ? worst : 0);
            const float *wc = cp + 3 * (worst >= 0 ? worst : 0);
            CHECKF(dp <= 1e-4 && dn <= 1e-4,
                   "%s clip %d '%s' at t=%g: max position error %g x size (vertex %ld: Ossa "
                   "(%g %g %g) vs libcal3d (%g %g %g)), max normal error %g",
                   via_cli ? "CLI" : "API", clip, c ? c->name : "(rest)", (double)times[ti], dp,
                   worst, (double)wo[0], (double)wo[1], (double)wo[2], (double)wc[0],
                   (double)wc[1], (double)wc[2], dn);
            if (via_cli) {
                e->cli_p = maxd(e->cli_p, dp);
                e->cli_n = maxd(e->cli_n, dn);
            } else {
                e->skin_p = maxd(e->skin_p, dp);
                e->skin_n = maxd(e->skin_n, dn);
            }
            e->poses++;
            e->skinned += (long)total;
        }
        played_free(&played);
    }
done:
    free(cp); free(cn); free(op); free(on); free(mask);
}
