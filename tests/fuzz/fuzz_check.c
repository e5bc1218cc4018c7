#include "fuzz_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/limits.h"
#include "ossa/anim.h"
#include "ossa/load.h"

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(char *why, size_t why_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_size, fmt, ap);
    va_end(ap);
    return 1;
}

static int all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

/* Scratch buffers of one pose evaluation; palette covers every bone id a mesh uses. */
typedef struct pose_bufs {
    float *lt, *lr, *ls, *mt, *mr, *ms, *palette, *out_pos, *out_nrm;
    size_t palette_bones;
} pose_bufs;

static void free_bufs(pose_bufs *p)
{
    free(p->lt); free(p->lr); free(p->ls);
    free(p->mt); free(p->mr); free(p->ms);
    free(p->palette); free(p->out_pos); free(p->out_nrm);
}

/* Skins every submesh with the palette of the pose in p (rest or sampled) and checks that
 * everything it produced is finite. */
static int check_pose(const ossa_model *m, pose_bufs *p, const char *what, char *why,
                      size_t why_size)
{
    uint32_t n = m->bone_count;
    ossa_local_to_model(m, p->lt, p->lr, p->ls, p->mt, p->mr, p->ms);
    if (!all_finite(p->mt, 3 * (size_t)n) || !all_finite(p->mr, 4 * (size_t)n) ||
        !all_finite(p->ms, 3 * (size_t)n))
        return fail(why, why_size, "%s: a model-space bone transform is not finite", what);
    ossa_skin_palette(m, p->mt, p->mr, p->ms, p->palette);
    if (!all_finite(p->palette, 12 * (size_t)n))
        return fail(why, why_size, "%s: a skinning matrix is not finite", what);
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            ossa_skin_submesh_scalar(sm, p->palette, p->out_pos, p->out_nrm);
            if (!all_finite(p->out_pos, 3 * (size_t)sm->vertex_count) ||
                !all_finite(p->out_nrm, 3 * (size_t)sm->vertex_count))
                return fail(why, why_size, "%s: mesh %u submesh %u skins to a non-finite vertex",
                            what, i, j);
        }
    return 0;
}

static int check_model(const ossa_model *m, char *why, size_t why_size)
{
    ossa_error verr;
    ossa_error_clear(&verr);
    if (ossa_model_validate(m, &verr) != OSSA_OK)
        return fail(why, why_size, "loaded OK but fails validation: %s", verr.message);

    /* A mesh loaded without a skeleton keeps its file bone ids: skin those with identity
     * matrices. An id no skeleton could ever have (>= OSSA_MAX_BONES) is data the runtime cannot
     * use, and the loader should have refused it. */
    size_t palette_bones = m->bone_count, max_vertices = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            if (sm->vertex_count > max_vertices)
                max_vertices = sm->vertex_count;
            uint32_t ninf = sm->vertex_count ? sm->influence_start[sm->vertex_count] : 0;
            for (uint32_t k = 0; k < ninf; k++) {
                uint32_t bone = sm->influences[k].bone;
                if (bone >= OSSA_MAX_BONES)
                    return fail(why, why_size,
                                "mesh %u submesh %u: influence bone id %u is beyond any skeleton "
                                "(limit %u)", i, j, bone, OSSA_MAX_BONES);
                if (bone >= palette_bones)
                    palette_bones = (size_t)bone + 1;
            }
        }

    size_t n = m->bone_count;
    pose_bufs p = {0};
    p.lt = malloc((3 * n + 1) * sizeof(float));
    p.lr = malloc((4 * n + 1) * sizeof(float));
    p.ls = malloc((3 * n + 1) * sizeof(float));
    p.mt = malloc((3 * n + 1) * sizeof(float));
    p.mr = malloc((4 * n + 1) * sizeof(float));
    p.ms = malloc((3 * n + 1) * sizeof(float));
    p.palette = calloc(12 * palette_bones + 1, sizeof(float));
    p.out_pos = malloc((3 * max_vertices + 1) * sizeof(float));
    p.out_nrm = malloc((3 * max_vertices + 1) * sizeof(float));
    p.palette_bones = palette_bones;
    if (!p.lt || !p.lr || !p.ls || !p.mt || !p.mr || !p.ms || !p.palette || !p.out_pos ||
        !p.out_nrm) {
        free_bufs(&p);
        return fail(why, why_size, "out of memory in the harness");
    }
    for (size_t b = n; b < palette_bones; b++) {
        p.palette[12 * b + 0] = 1.0f;
        p.palette[12 * b + 5] = 1.0f;
        p.palette[12 * b + 10] = 1.0f;
    }

    int bad = 0;
    ossa_pose_rest(m, p.lt, p.lr, p.ls);
    bad = check_pose(m, &p, "rest pose", why, why_size);
    for (uint32_t c = 0; c < m->clip_count && !bad; c++) {
        const ossa_clip *clip = &m->clips[c];
        float times[2] = {0.0f, clip->duration * 0.5f};
        for (int k = 0; k < 2 && !bad; k++) {
            char what[96];
            snprintf(what, sizeof what, "clip %u at t=%g", c, (double)times[k]);
            ossa_pose_rest(m, p.lt, p.lr, p.ls);
            ossa_sample_clip(m, clip, times[k], OSSA_TIME_EXTRAPOLATE, p.lt, p.lr, p.ls);
            if (!all_finite(p.lt, 3 * n) || !all_finite(p.lr, 4 * n) || !all_finite(p.ls, 3 * n))
                bad = fail(why, why_size, "%s: a sampled local transform is not finite", what);
            else
                bad = check_pose(m, &p, what, why, why_size);
        }
    }
    free_bufs(&p);
    return bad;
}

int fuzz_check_input(const uint8_t *data, size_t size, fuzz_target target, char *why,
                     size_t why_size)
{
    /* An exact-size private copy, so that ASan reports any read past the end. */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return fail(why, why_size, "out of memory in the harness");
    if (size)
        memcpy(copy, data, size);

    ossa_load_options opt;
    memset(&opt, 0, sizeof opt);
    opt.format = target.format;
    ossa_error err;
    memset(&err, 0, sizeof err);
    ossa_model sentinel;
    ossa_model *m = &sentinel; /* must come back NULL on error */
    ossa_status st = ossa_load_memory(copy, size, target.name, &opt, &m, &err);

    int bad = 0;
    if (st != OSSA_OK) {
        if (m != NULL)
            bad = fail(why, why_size, "status %s but the model pointer is not NULL",
                       ossa_status_name(st));
        else if ((unsigned)st > OSSA_ERR_UNSUPPORTED)
            bad = fail(why, why_size, "status %d is not a known status", (int)st);
        else if (err.status != st)
            bad = fail(why, why_size, "returned %s but the error record says %s",
                       ossa_status_name(st), ossa_status_name(err.status));
        else if (!err.message[0])
            bad = fail(why, why_size, "status %s with an empty message", ossa_status_name(st));
        else if (!err.file[0])
            bad = fail(why, why_size, "status %s (\"%s\") without a file name",
                       ossa_status_name(st), err.message);
    } else if (!m || m == &sentinel) {
        bad = fail(why, why_size, "status OK without a model");
    } else {
        bad = check_model(m, why, why_size);
        ossa_model_free(m);
    }
    free(copy);
    return bad;
}

int fuzz_run_or_abort(const uint8_t *data, size_t size, fuzz_target target)
{
    char why[768];
    if (fuzz_check_input(data, size, target, why, sizeof why)) {
        fprintf(stderr, "ossa fuzz invariant violated (%s): %s\n", target.name, why);
        abort();
    }
    return 0;
}
