/* C3S writer, animation side (c3s_write.h): the vertex groups and frames (the bone form's
 * "static" group, the frame form's groups and poses), texture vertices and their uv frames,
 * bones with their base OCS, and the sequences with their keys, triggers and links. What each
 * writes is described at the top of c3s_write.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/c3s/c3s_write.h"
#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/vertex_anim.h"

#include "core/quat.h"

static void put_frame(ossa_wbuf *o, uint32_t group, const float *pos, uint32_t count,
                      const char *name)
{
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (uint32_t v = 0; v < count; v++)
        for (int k = 0; k < 3; k++) {
            float x = pos[3 * (size_t)v + (size_t)k];
            lo[k] = v == 0 || x < lo[k] ? x : lo[k];
            hi[k] = v == 0 || x > hi[k] ? x : hi[k];
        }
    static const float one[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
    size_t c = begin_sub(o, "VFRM", name, 0);
    put_cdw(o, group);
    ossa_wbuf_f32v(o, lo, 3);
    ossa_wbuf_f32v(o, hi, 3);
    ossa_wbuf_f32v(o, one, 3);
    ossa_wbuf_f32v(o, zero, 3);
    put_cdw(o, 0); /* no compressed positions */
    put_cdw(o, count);
    ossa_wbuf_f32v(o, pos, 3 * (size_t)count);
    end_chunk(o, c);
}

/* Bone form: the group "static" of the vertices without influences, and their one frame. */
ossa_status ossa_c3s_put_static_group(c3s_writer *w)
{
    const ossa_model *m = w->m;
    ossa_wbuf *o = &w->o;
    if (!w->unweighted)
        return OSSA_OK;
    float *pos = malloc((size_t)w->unweighted * 3 * sizeof *pos);
    if (!pos)
        return ossa_write_fail(w->err, OSSA_ERR_NOMEM, w->path, "out of memory");
    size_t c = begin_sub(o, "VGRP", "static", 0);
    put_cdw(o, w->unweighted);
    uint32_t n = 0, s = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++, s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                if (sm->influence_start[v + 1] == sm->influence_start[v]) {
                    put_cdw(o, w->vertex_base[s] + v + 1);
                    memcpy(pos + 3 * (size_t)n++, sm->positions + 3 * (size_t)v,
                           3 * sizeof *pos);
                }
        }
    end_chunk(o, c);
    put_frame(o, 1, pos, n, "static");
    free(pos);
    return OSSA_OK;
}

/* Positions of one submesh at a time of a clip (NULL clip: the bind pose). */
static ossa_status pose_submesh(c3s_writer *w, const ossa_clip *clip, float time, uint32_t mesh,
                                uint32_t submesh)
{
    const ossa_model *m = w->m;
    const ossa_submesh *sm = &m->meshes[mesh].submeshes[submesh];
    if (!clip) {
        memcpy(w->positions, sm->positions, 3 * (size_t)sm->vertex_count * sizeof(float));
        return OSSA_OK;
    }
    if (ossa_clip_vertex_track(clip, mesh, submesh))
        return ossa_vertex_clip_eval(m, clip, mesh, submesh, time, OSSA_WRAP_LOOP, w->positions,
                                     NULL, sm->vertex_count, NULL);
    if (!m->bone_count) { /* nothing moves it; its influences name bones the palette lacks */
        memcpy(w->positions, sm->positions, 3 * (size_t)sm->vertex_count * sizeof(float));
        return OSSA_OK;
    }
    ossa_skin_submesh_scalar(sm, w->pose.palette, w->positions, w->normals, sm->vertex_count,
                             NULL);
    return OSSA_OK;
}

static void pose_at(c3s_writer *w, const ossa_clip *clip, float time)
{
    /* times in [0, duration): the cycle's wrap leaves them as they are */
    ossa_reference_pose_at(w->m, clip, time, OSSA_WRAP_LOOP, &w->pose, NULL);
}

/* Frame form: one group per submesh; frame 1 of each is the bind pose, then every clip's keys
 * in order (clip c, key k, submesh s is frame 1 + submeshes x (1 + keys before) + s). */
ossa_status ossa_c3s_put_frame_groups(c3s_writer *w)
{
    const ossa_model *m = w->m;
    ossa_wbuf *o = &w->o;
    uint32_t s = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++, s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            char name[600];
            snprintf(name, sizeof name, "%s/%u", m->meshes[i].name ? m->meshes[i].name : "", j);
            size_t c = begin_sub(o, "VGRP", name, 0);
            put_cdw(o, sm->vertex_count);
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                put_cdw(o, w->vertex_base[s] + v + 1);
            end_chunk(o, c);
        }
    for (int c = -1; c < (int)m->clip_count; c++) {
        const ossa_clip *clip = c < 0 ? NULL : &m->clips[c];
        uint32_t keys = clip ? w->keys[c] : 1;
        for (uint32_t k = 0; k < keys; k++) {
            float time = clip ? clip->duration * (float)k / (float)keys : 0.0f;
            if (clip)
                pose_at(w, clip, time);
            s = 0;
            for (uint32_t i = 0; i < m->mesh_count; i++)
                for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++, s++) {
                    OSSA_TRY(pose_submesh(w, clip, time, i, j));
                    put_frame(o, s + 1, w->positions, m->meshes[i].submeshes[j].vertex_count,
                              clip ? clip->name : "bind");
                }
        }
    }
    return OSSA_OK;
}

static void put_uv_frame(ossa_wbuf *o, uint32_t group, const float *uvs, uint32_t stride,
                         uint32_t count, const char *name)
{
    size_t c = begin_sub(o, "TFRM", name, 0);
    put_cdw(o, group);
    put_cdw(o, count);
    for (uint32_t v = 0; v < count; v++)
        ossa_wbuf_f32v(o, uvs + 2 * (size_t)v * stride, 2);
    end_chunk(o, c);
}

/* One TVRT per vertex of a textured submesh, one group per such submesh whose first frame is
 * its first UV set, then, for every clip with uv tracks, one frame per group per key (clip c's
 * key k, group g is frame G + G x (keys of earlier such clips + k) + g, G groups). */
ossa_status ossa_c3s_put_texture_vertices(c3s_writer *w)
{
    const ossa_model *m = w->m;
    ossa_wbuf *o = &w->o;
    for (uint32_t t = 0; t < w->tex_total; t++) {
        size_t c = begin_sub(o, "TVRT", "", 0);
        end_chunk(o, c);
    }
    uint32_t s = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++, s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            if (!sm->uv_set_count)
                continue;
            size_t c = begin_sub(o, "TGRP", "", 0);
            put_cdw(o, sm->vertex_count);
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                put_cdw(o, w->tex_base[s] + v + 1);
            end_chunk(o, c);
        }
    uint32_t group = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            if (sm->uv_set_count)
                put_uv_frame(o, ++group, sm->uvs, sm->uv_set_count, sm->vertex_count, "");
        }
    for (uint32_t c = 0; c < m->clip_count; c++) {
        const ossa_clip *clip = &m->clips[c];
        if (!clip->uv_track_count || !w->textured)
            continue;
        for (uint32_t k = 0; k < w->keys[c]; k++) {
            float time = clip->duration * (float)k / (float)w->keys[c];
            group = 0;
            for (uint32_t i = 0; i < m->mesh_count; i++)
                for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
                    const ossa_submesh *sm = &m->meshes[i].submeshes[j];
                    if (!sm->uv_set_count)
                        continue;
                    /* w->positions holds 3 floats per vertex: room for the 2 of a UV. */
                    OSSA_TRY(ossa_uv_clip_eval(m, clip, i, j, time, OSSA_WRAP_LOOP, w->positions,
                                               sm->vertex_count, NULL));
                    put_uv_frame(o, ++group, w->positions, 1, sm->vertex_count, clip->name);
                }
        }
    }
    return OSSA_OK;
}

void ossa_c3s_put_bones(c3s_writer *w)
{
    const ossa_model *m = w->m;
    ossa_wbuf *o = &w->o;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const ossa_bone *bn = &m->bones[i];
        float q[4];
        memcpy(q, bn->rest_r, sizeof q);
        ossa_quat_normalize(q);
        size_t c = begin_sub(o, "BONE", bn->name, 0);
        put_ocs(o, bn->rest_s, q, bn->rest_t);
        put_cdw(o, bn->parent >= 0 ? (uint32_t)bn->parent + 1 : 0);
        uint32_t kids = 0;
        for (uint32_t k = i + 1; k < m->bone_count; k++)
            kids += m->bones[k].parent == (int32_t)i;
        put_cdw(o, kids);
        for (uint32_t k = i + 1; k < m->bone_count; k++)
            if (m->bones[k].parent == (int32_t)i)
                put_cdw(o, k + 1);
        end_chunk(o, c);
    }
}

/* animOCS of a bone: base^-1 composed with the pose (so base x anim = pose). */
static ossa_status put_bone_key(c3s_writer *w, uint32_t bone)
{
    const ossa_bone *bn = &w->m->bones[bone];
    const float *t = w->pose.lt + 3 * bone, *s = w->pose.ls + 3 * bone;
    float r[4], base_q[4], inv[4], d[3], local[3], q[4], sc[3];
    memcpy(r, w->pose.lr + 4 * bone, sizeof r);
    memcpy(base_q, bn->rest_r, sizeof base_q);
    ossa_quat_normalize(base_q);
    ossa_quat_normalize(r);
    inv[0] = -base_q[0];
    inv[1] = -base_q[1];
    inv[2] = -base_q[2];
    inv[3] = base_q[3];
    for (int k = 0; k < 3; k++) {
        if (bn->rest_s[k] == 0.0f)
            return ossa_write_fail(w->err, OSSA_ERR_UNSUPPORTED, w->path,
                        "bone '%s' has a zero rest scale", bn->name);
        d[k] = t[k] - bn->rest_t[k];
    }
    ossa_quat_rotate(inv, d, local);
    for (int k = 0; k < 3; k++) {
        local[k] /= bn->rest_s[k];
        sc[k] = s[k] / bn->rest_s[k];
    }
    ossa_quat_mul(inv, r, q);
    /* The reader refuses an OCS whose rotation has no length or whose numbers are not finite
     * (c3s_records.c); a pose sampled far past a clip's keys can give either. */
    double n2 = 0.0;
    bool finite = true;
    for (int k = 0; k < 4; k++)
        n2 += (double)q[k] * q[k];
    for (int k = 0; k < 3; k++)
        finite = finite && isfinite(sc[k]) && isfinite(local[k]);
    if (!(n2 > 1e-12) || !isfinite(n2) || !finite)
        return ossa_write_fail(w->err, OSSA_ERR_UNSUPPORTED, w->path,
                    "bone '%s': a pose of this clip has a rotation of no length or a value "
                    "past float range, which C3S cannot hold", bn->name);
    put_cdw(&w->o, bone + 1);
    put_ocs(&w->o, sc, q, local);
    return OSSA_OK;
}

ossa_status ossa_c3s_put_sequences(c3s_writer *w)
{
    const ossa_model *m = w->m;
    ossa_wbuf *o = &w->o;
    uint32_t frames_before = 1; /* frame form: the bind frames come first */
    uint32_t uv_keys_before = 0;
    bool *animated = calloc(m->bone_count ? m->bone_count : 1, sizeof *animated);
    if (!animated)
        return ossa_write_fail(w->err, OSSA_ERR_NOMEM, w->path, "out of memory");
    ossa_status st = OSSA_OK;
    for (uint32_t c = 0; c < m->clip_count && st == OSSA_OK; c++) {
        const ossa_clip *clip = &m->clips[c];
        uint32_t keys = w->keys[c];
        memset(animated, 0, (m->bone_count ? m->bone_count : 1) * sizeof *animated);
        uint32_t animated_count = 0;
        for (uint32_t t = 0; t < clip->track_count && !w->frames; t++)
            if (clip->tracks[t].bone < m->bone_count && !animated[clip->tracks[t].bone]) {
                animated[clip->tracks[t].bone] = true;
                animated_count++;
            }
        size_t ch = begin_sub(o, "ASEQ", clip->name, 0);
        ossa_wbuf_f32(o, (float)keys / clip->duration);
        put_stringz(o, clip->group);
        put_cdw(o, keys);
        bool uv = clip->uv_track_count && w->textured;
        for (uint32_t k = 0; k < keys && st == OSSA_OK; k++) {
            put_cdw(o, uv ? w->textured : 0); /* texture vertex frames */
            for (uint32_t g = 0; g < w->textured && uv; g++)
                put_cdw(o, w->textured * (1 + uv_keys_before + k) + g + 1);
            if (w->frames) {
                put_cdw(o, 0);
                put_cdw(o, w->submesh_total);
                for (uint32_t s = 0; s < w->submesh_total; s++)
                    put_cdw(o, 1 + w->submesh_total * (frames_before + k) + s);
                continue;
            }
            pose_at(w, clip, clip->duration * (float)k / (float)keys);
            put_cdw(o, animated_count);
            for (uint32_t b = 0; b < m->bone_count && st == OSSA_OK; b++)
                if (animated[b])
                    st = put_bone_key(w, b);
            put_cdw(o, 0); /* vertex frames */
        }
        frames_before += keys;
        uv_keys_before += uv ? keys : 0;
        put_cdw(o, clip->trigger_count);
        for (uint32_t t = 0; t < clip->trigger_count; t++) {
            const ossa_clip_trigger *tg = &clip->triggers[t];
            uint32_t command = tg->command;
            if (!command && tg->name && tg->name[0])
                command = C3S_TRIG_COMMAND;
            ossa_wbuf_f32(o, tg->time / clip->duration);
            ossa_wbuf_u32(o, command);
            if (command == C3S_TRIG_COMMAND && !tg->param_size) {
                put_cdw(o, (uint32_t)strlen(tg->name) + 1);
                put_stringz(o, tg->name);
            } else {
                put_cdw(o, tg->param_size);
                ossa_wbuf_put(o, tg->params, tg->param_size);
            }
        }
        put_cdw(o, clip->link_count);
        for (uint32_t l = 0; l < clip->link_count; l++)
            put_cdw(o, clip->links[l] + 1);
        end_chunk(o, ch);
    }
    free(animated);
    return st;
}

