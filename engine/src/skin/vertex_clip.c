/* Vertex-frame playback and surface mounts (vertex_anim.h). The lerp itself is the skinning
 * stage's frame-lerp job, so playback here and in the viewer run the same kernels. */
#include <math.h>
#include <string.h>
#include "core/error.h"
#include "core/quat.h"
#include "ossa/sample.h"
#include "ossa/skin.h"
#include "ossa/vertex_anim.h"

static const ossa_vertex_track *find_track(const ossa_vertex_track *tracks, uint32_t count,
                                           uint32_t mesh, uint32_t submesh)
{
    for (uint32_t i = 0; i < count; i++)
        if (tracks[i].mesh == mesh && tracks[i].submesh == submesh)
            return &tracks[i];
    return NULL;
}

const ossa_vertex_track *ossa_clip_vertex_track(const ossa_clip *clip, uint32_t mesh,
                                                uint32_t submesh)
{
    return clip ? find_track(clip->vertex_tracks, clip->vertex_track_count, mesh, submesh) : NULL;
}

const ossa_vertex_track *ossa_clip_uv_track(const ossa_clip *clip, uint32_t mesh, uint32_t submesh)
{
    return clip ? find_track(clip->uv_tracks, clip->uv_track_count, mesh, submesh) : NULL;
}

void ossa_vertex_track_locate(const ossa_vertex_track *tr, float duration, float time,
                              ossa_wrap wrap, uint32_t *frame_a, uint32_t *frame_b,
                              float *fraction)
{
    uint32_t n = tr->key_count;
    const float *times = tr->times;
    if (!isfinite(time))
        time = 0.0f;
    if (wrap == OSSA_WRAP_LOOP && duration > 0.0f) {
        time = fmodf(time, duration);
        if (time < 0.0f)
            time += duration;
        if (time >= duration)
            time = 0.0f;
        /* Before the first key and after the last one: between the last key and the first
         * key's copy at t = duration (the previous cycle's first key at times[0] - duration). */
        if (time >= times[n - 1] || time < times[0]) {
            float start = times[n - 1], span = times[0] + duration - times[n - 1];
            float at = time >= times[n - 1] ? time : time + duration;
            *frame_a = tr->frames[n - 1];
            *frame_b = tr->frames[0];
            *fraction = span > 0.0f ? (at - start) / span : 0.0f;
            if (*fraction > 1.0f)
                *fraction = 1.0f;
            return;
        }
    } else {
        if (time <= times[0]) {
            *frame_a = *frame_b = tr->frames[0];
            *fraction = 0.0f;
            return;
        }
        if (time >= times[n - 1]) {
            *frame_a = *frame_b = tr->frames[n - 1];
            *fraction = 0.0f;
            return;
        }
    }
    /* times[0] <= time < times[n - 1]: the last key at or before time. */
    uint32_t lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (times[mid] <= time)
            lo = mid;
        else
            hi = mid;
    }
    float span = times[hi] - times[lo];
    *frame_a = tr->frames[lo];
    *frame_b = tr->frames[hi];
    *fraction = span > 0.0f ? (time - times[lo]) / span : 0.0f;
}

static const ossa_submesh *submesh_of(const ossa_model *m, uint32_t mesh, uint32_t submesh)
{
    if (!m || mesh >= m->mesh_count || submesh >= m->meshes[mesh].submesh_count)
        return NULL;
    return &m->meshes[mesh].submeshes[submesh];
}

/* Why submesh_of gave NULL, into err. */
static ossa_status no_submesh(ossa_error *err, const char *call, const ossa_model *m,
                              uint32_t mesh, uint32_t submesh)
{
    if (!m)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "%s: model is NULL", call);
    if (mesh >= m->mesh_count)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "%s: mesh %u of %u", call, mesh,
                               m->mesh_count);
    return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "%s: submesh %u of %u in mesh %u",
                           call, submesh, m->meshes[mesh].submesh_count, mesh);
}

ossa_status ossa_vertex_clip_eval(const ossa_model *m, const ossa_clip *clip, uint32_t mesh,
                                  uint32_t submesh, float time, ossa_wrap wrap,
                                  float *out_positions, float *out_normals, uint32_t out_capacity,
                                  ossa_error *err)
{
    const ossa_submesh *sm = submesh_of(m, mesh, submesh);
    if (!sm)
        return no_submesh(err, "vertex clip eval", m, mesh, submesh);
    if (!out_positions)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "vertex clip eval: out_positions is NULL");
    if (out_capacity < sm->vertex_count)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "vertex clip eval: out_positions / out_normals hold %u vertices, "
                               "submesh %u of mesh %u has %u", out_capacity, submesh, mesh,
                               sm->vertex_count);
    size_t floats = 3 * (size_t)sm->vertex_count;
    const ossa_vertex_track *tr = ossa_clip_vertex_track(clip, mesh, submesh);
    if (!tr || !sm->frame_count) {
        if (floats) {
            memcpy(out_positions, sm->positions, floats * sizeof(float));
            if (out_normals)
                memcpy(out_normals, sm->normals, floats * sizeof(float));
        }
        return OSSA_OK;
    }
    uint32_t fa, fb;
    float f;
    ossa_vertex_track_locate(tr, clip->duration, time, wrap, &fa, &fb, &f);
    if (!sm->vertex_count)
        return OSSA_OK;
    ossa_frame_lerp_job job;
    memset(&job, 0, sizeof job);
    job.positions_a = sm->frame_positions + floats * fa;
    job.positions_b = sm->frame_positions + floats * fb;
    if (out_normals) {
        job.normals_a = sm->frame_normals + floats * fa;
        job.normals_b = sm->frame_normals + floats * fb;
        job.out_normals = out_normals;
    }
    job.t = f;
    job.count = sm->vertex_count;
    job.out_positions = out_positions;
    job.out_capacity = out_capacity;
    job.normalize = 1;
    job.kernel = OSSA_SKIN_KERNEL_AUTO;
    return ossa_frame_lerp_job_run(&job, err);
}

ossa_status ossa_uv_clip_eval(const ossa_model *m, const ossa_clip *clip, uint32_t mesh,
                              uint32_t submesh, float time, ossa_wrap wrap, float *out_uvs,
                              uint32_t out_capacity, ossa_error *err)
{
    const ossa_submesh *sm = submesh_of(m, mesh, submesh);
    if (!sm)
        return no_submesh(err, "uv clip eval", m, mesh, submesh);
    if (!out_uvs)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "uv clip eval: out_uvs is NULL");
    if (out_capacity < sm->vertex_count)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "uv clip eval: out_uvs holds %u vertices, submesh %u of mesh %u "
                               "has %u", out_capacity, submesh, mesh, sm->vertex_count);
    size_t nv = sm->vertex_count;
    const ossa_vertex_track *tr = ossa_clip_uv_track(clip, mesh, submesh);
    if (!tr || !sm->uv_frame_count) {
        for (size_t v = 0; v < nv; v++)
            for (int k = 0; k < 2; k++)
                out_uvs[2 * v + k] =
                    sm->uv_set_count ? sm->uvs[(v * sm->uv_set_count) * 2 + (size_t)k] : 0.0f;
        return OSSA_OK;
    }
    uint32_t fa, fb;
    float f;
    ossa_vertex_track_locate(tr, clip->duration, time, wrap, &fa, &fb, &f);
    const float *a = sm->frame_uvs + 2 * nv * fa, *b = sm->frame_uvs + 2 * nv * fb;
    for (size_t i = 0; i < 2 * nv; i++)
        out_uvs[i] = a[i] + f * (b[i] - a[i]);
    return OSSA_OK;
}

/* ---- mounts ---- */

static void cross(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static float normalize(float v[3])
{
    float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len > 0.0f)
        for (int k = 0; k < 3; k++)
            v[k] /= len;
    return len;
}

/* Unit quaternion (x, y, z, w) of an orthonormal basis given as matrix columns X, Y, Z. */
static void basis_to_quat(const float x[3], const float y[3], const float z[3], float q[4])
{
    float m00 = x[0], m11 = y[1], m22 = z[2];
    float trace = m00 + m11 + m22;
    if (trace > 0.0f) {
        float s = sqrtf(trace + 1.0f) * 2.0f;
        q[3] = 0.25f * s;
        q[0] = (y[2] - z[1]) / s;
        q[1] = (z[0] - x[2]) / s;
        q[2] = (x[1] - y[0]) / s;
    } else if (m00 > m11 && m00 > m22) {
        float s = sqrtf(1.0f + m00 - m11 - m22) * 2.0f;
        q[3] = (y[2] - z[1]) / s;
        q[0] = 0.25f * s;
        q[1] = (y[0] + x[1]) / s;
        q[2] = (z[0] + x[2]) / s;
    } else if (m11 > m22) {
        float s = sqrtf(1.0f + m11 - m00 - m22) * 2.0f;
        q[3] = (z[0] - x[2]) / s;
        q[0] = (y[0] + x[1]) / s;
        q[1] = 0.25f * s;
        q[2] = (z[1] + y[2]) / s;
    } else {
        float s = sqrtf(1.0f + m22 - m00 - m11) * 2.0f;
        q[3] = (x[1] - y[0]) / s;
        q[0] = (z[0] + x[2]) / s;
        q[1] = (z[1] + y[2]) / s;
        q[2] = 0.25f * s;
    }
    float n = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++)
        q[k] /= n;
}

ossa_status ossa_mount_transform(const ossa_model *m, uint32_t mount, const float *positions,
                                 uint32_t vertex_capacity, float t[3], float r[4], float s[3],
                                 ossa_error *err)
{
    const ossa_status bad = OSSA_ERR_INVALID_ARGUMENT;
    if (!m || !positions || !t || !r || !s)
        return ossa_error_fail(err, bad, "mount transform: %s is NULL",
                               !m ? "model" : !positions ? "positions" : !t ? "t" : !r ? "r" : "s");
    if (mount >= m->mount_count)
        return ossa_error_fail(err, bad, "mount transform: mount %u of %u", mount, m->mount_count);
    const ossa_mount *mt = &m->mounts[mount];
    const ossa_submesh *sm = submesh_of(m, mt->mesh, mt->submesh);
    if (!sm)
        return no_submesh(err, "mount transform", m, mt->mesh, mt->submesh);
    if (vertex_capacity < sm->vertex_count)
        return ossa_error_fail(err, bad,
                               "mount transform: positions hold %u vertices (vertex_capacity), "
                               "the submesh has %u", vertex_capacity, sm->vertex_count);
    if (mt->face >= sm->face_count)
        return ossa_error_fail(err, bad, "mount transform: mount %u on face %u of %u", mount,
                               mt->face, sm->face_count);
    const float *v[3];
    for (int i = 0; i < 3; i++)
        v[i] = positions + 3 * (size_t)sm->indices[3 * (size_t)mt->face + (size_t)i];
    float origin[3], e1[3], e2[3], y[3], z[3], x[3];
    for (int k = 0; k < 3; k++) {
        origin[k] = mt->barycentric[0] * v[0][k] + mt->barycentric[1] * v[1][k] +
                    mt->barycentric[2] * v[2][k];
        e1[k] = v[1][k] - v[0][k];
        e2[k] = v[2][k] - v[0][k];
        z[k] = v[0][k] - origin[k];
    }
    cross(e1, e2, y);
    if (!(normalize(y) > 0.0f))
        return ossa_error_fail(err, OSSA_ERR_VALUE,
                               "mount transform: mount %u: face %u is degenerate (no normal)",
                               mount, mt->face);
    /* Z must lie in the face plane; take out any normal part rounding left in. */
    float along = z[0] * y[0] + z[1] * y[1] + z[2] * y[2];
    for (int k = 0; k < 3; k++)
        z[k] -= along * y[k];
    if (!(normalize(z) > 1e-6f)) {
        memcpy(z, e1, sizeof z);
        if (!(normalize(z) > 0.0f))
            return ossa_error_fail(err, OSSA_ERR_VALUE,
                                   "mount transform: mount %u: face %u is degenerate", mount,
                                   mt->face);
    }
    cross(y, z, x);
    float frame_r[4];
    basis_to_quat(x, y, z, frame_r);
    /* frame (unit scale) composed with the offset: t = P + Rf offset_t, r = Rf offset_r. */
    float moved[3];
    ossa_quat_rotate(frame_r, mt->offset_t, moved);
    for (int k = 0; k < 3; k++) {
        t[k] = origin[k] + moved[k];
        s[k] = mt->offset_s[k];
    }
    const float *a = frame_r, *b = mt->offset_r;
    r[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    r[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    r[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    r[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    return OSSA_OK;
}
