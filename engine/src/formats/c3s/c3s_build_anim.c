/* Cannibal scene (C3S) model building, part 3 (c3s_build_state.h): vertex and texture-vertex frames
 * (one submesh frame per distinct key shape) and sequences as clips (bone tracks from key OCSs
 * composed with the base, vertex and UV tracks, triggers, links). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/checked.h"
#include "core/quat.h"
#include "formats/c3s/c3s_build_state.h"

/* OCS a composed with OCS b (b acts first), in the engine's TRS composition. */
static void ocs_compose(const c3s_ocs *a, const c3s_ocs *b, c3s_ocs *out)
{
    float scaled[3] = {a->s[0] * b->t[0], a->s[1] * b->t[1], a->s[2] * b->t[2]}, moved[3];
    ossa_quat_rotate(a->q, scaled, moved);
    c3s_ocs r;
    for (int k = 0; k < 3; k++) {
        r.t[k] = a->t[k] + moved[k];
        r.s[k] = a->s[k] * b->s[k];
    }
    ossa_quat_mul(a->q, b->q, r.q);
    *out = r;
}

/* ---- vertex and texture-vertex frames ---- */

static uint32_t hash_tuple(const uint32_t *t, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++) {
        h ^= t[i];
        h *= 16777619u;
    }
    return h;
}

/* Distinct key shapes of the sequences: per key, the frame (1-based, 0 = base) of every
 * vertex group (uv: texture vertex group). Keys share a shape index when their frames agree. */
ossa_status ossa_c3s_collect_tuples(model_state *st, bool uv)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    uint32_t groups = md->count[uv ? C3S_TGRP : C3S_VGRP];
    uint32_t nseq = md->count[C3S_ASEQ];
    uint32_t ***seq_frame = uv ? &st->seq_tframe : &st->seq_vframe;
    if (!groups || !nseq)
        return OSSA_OK;
    size_t keys = 1; /* + the all-base shape */
    for (uint32_t s = 0; s < nseq; s++)
        keys += md->sequences[s].key_count;
    size_t cells;
    if (!ossa_mul_size(keys, groups, &cells) || cells > C3S_MAX_FRAME_FLOATS)
        return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)md->at,
                         "model '%s': %zu key frames of %u groups exceed the frame limit",
                         md->name, keys, groups);
    uint32_t *tuples;
    OSSA_TRY(ossa_build_array(b, &tuples, cells, sizeof *tuples));
    size_t slots = 16;
    while (slots < 2 * keys)
        slots *= 2;
    int32_t *table;
    OSSA_TRY(ossa_build_array(b, &table, slots, sizeof *table));
    for (size_t i = 0; i < slots; i++)
        table[i] = -1;
    OSSA_TRY(ossa_build_array(b, seq_frame, nseq, sizeof **seq_frame));
    uint32_t count = 0;
    const c3s_frame *frames = uv ? md->tframes : md->vframes;
    for (uint32_t s = 0; s < nseq; s++) {
        const c3s_sequence *sq = &md->sequences[s];
        bool used = false;
        for (uint32_t k = 0; k < sq->key_count && !used; k++) {
            const c3s_key *key = &sq->keys[k];
            used = uv ? key->tex_frames.count > 0
                      : key->vertex_frames.count > 0 && key->bone_keys.count == 0;
        }
        if (!used)
            continue;
        uint32_t *per_key;
        OSSA_TRY(ossa_build_array(b, &per_key, sq->key_count, sizeof *per_key));
        (*seq_frame)[s] = per_key;
        for (uint32_t k = 0; k < sq->key_count; k++) {
            const c3s_key *key = &sq->keys[k];
            uint32_t *t = tuples + (size_t)count * groups;
            memset(t, 0, groups * sizeof *t);
            /* Vertex frames are ignored on keys that move bones (the spec). */
            const c3s_list *list = uv ? &key->tex_frames
                                      : key->bone_keys.count ? NULL : &key->vertex_frames;
            if (list && list->count) {
                ossa_reader r;
                c3s_list_reader(st->sc, list, &r);
                for (uint32_t g = 0; g < list->count; g++) {
                    size_t at = r.pos;
                    OSSA_TRY(ossa_c3s_rd_compdword(&r, &t[g], "key frame"));
                    if (t[g] && frames[t[g] - 1].group != g + 1)
                        return ossa_fail(b, OSSA_ERR_FORMAT, (int64_t)at,
                                         "model '%s' sequence %u key %u: %s frame %u belongs to "
                                         "group %u, not group %u",
                                         md->name, s + 1, k + 1, uv ? "texture vertex" : "vertex",
                                         t[g], frames[t[g] - 1].group, g + 1);
                }
            }
            uint32_t h = hash_tuple(t, groups);
            size_t slot = h & (slots - 1);
            while (table[slot] >= 0 &&
                   memcmp(tuples + (size_t)table[slot] * groups, t, groups * sizeof *t) != 0)
                slot = (slot + 1) & (slots - 1);
            if (table[slot] < 0)
                table[slot] = (int32_t)count++;
            per_key[k] = (uint32_t)table[slot];
        }
    }
    if (uv) {
        st->ttuples = tuples;
        st->ttuple_count = count;
    } else {
        st->vtuples = tuples;
        st->vtuple_count = count;
    }
    return OSSA_OK;
}

ossa_status ossa_c3s_build_vertex_frames(model_state *st)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    uint32_t groups = md->count[C3S_VGRP], nv = md->count[C3S_VRTX], n = st->vtuple_count;
    if (!n)
        return OSSA_OK;
    size_t floats = 0;
    for (uint32_t g = 0; g < st->group_count; g++) {
        built_submesh *bs = &st->subs[g];
        bool moves = false;
        for (uint32_t r = 0; r < bs->sm->vertex_count && !moves; r++)
            moves = st->vgroup_of[bs->vrtx[r]] != 0;
        if (moves)
            floats += 6 * (size_t)bs->sm->vertex_count;
        bs->sm->frame_count = moves ? n : 0;
    }
    if (floats && (floats > C3S_MAX_FRAME_FLOATS / n))
        return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)md->at,
                         "model '%s': %u vertex frames of this mesh exceed the frame limit",
                         md->name, n);
    for (uint32_t g = 0; g < st->group_count; g++) {
        ossa_submesh *sm = st->subs[g].sm;
        if (!sm->frame_count)
            continue;
        float *p, *q;
        OSSA_TRY(ossa_build_array(b, &p, (size_t)n * sm->vertex_count, 3 * sizeof(float)));
        OSSA_TRY(ossa_build_array(b, &q, (size_t)n * sm->vertex_count, 3 * sizeof(float)));
        sm->frame_positions = p;
        sm->frame_normals = q;
    }
    float *pos, *nrm;
    OSSA_TRY(ossa_build_array(b, &pos, nv, 3 * sizeof(float)));
    OSSA_TRY(ossa_build_array(b, &nrm, nv, 3 * sizeof(float)));
    for (uint32_t f = 0; f < n; f++) {
        const uint32_t *t = st->vtuples + (size_t)f * groups;
        if (nv) /* a submesh without vertices has no base positions (NULL) to copy */
            memcpy(pos, st->base_pos, 3 * (size_t)nv * sizeof(float));
        for (uint32_t x = 0; x < nv; x++) {
            uint32_t g = st->vgroup_of[x];
            if (g && t[g - 1])
                memcpy(pos + 3 * (size_t)x,
                       md->vframes[t[g - 1] - 1].data + 3 * (size_t)st->vgroup_slot[x],
                       3 * sizeof(float));
        }
        ossa_c3s_vertex_normals(st, pos, nrm);
        for (uint32_t g = 0; g < st->group_count; g++) {
            built_submesh *bs = &st->subs[g];
            ossa_submesh *sm = bs->sm;
            if (!sm->frame_count)
                continue;
            size_t at = 3 * (size_t)sm->vertex_count * f;
            float *fp = (float *)sm->frame_positions + at, *fn = (float *)sm->frame_normals + at;
            for (uint32_t r = 0; r < sm->vertex_count; r++) {
                memcpy(fp + 3 * (size_t)r, pos + 3 * (size_t)bs->vrtx[r], 3 * sizeof(float));
                memcpy(fn + 3 * (size_t)r, nrm + 3 * (size_t)bs->vrtx[r], 3 * sizeof(float));
            }
        }
    }
    return OSSA_OK;
}

ossa_status ossa_c3s_build_uv_frames(model_state *st)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    uint32_t groups = md->count[C3S_TGRP], n = st->ttuple_count;
    if (!n)
        return OSSA_OK;
    size_t floats = 0;
    for (uint32_t g = 0; g < st->group_count; g++) {
        built_submesh *bs = &st->subs[g];
        bool moves = false;
        for (uint32_t r = 0; r < bs->sm->vertex_count && !moves; r++)
            moves = bs->tex[r] && st->tgroup_of[bs->tex[r] - 1] != 0;
        if (moves)
            floats += 2 * (size_t)bs->sm->vertex_count;
        bs->sm->uv_frame_count = moves ? n : 0;
    }
    if (floats && (floats > C3S_MAX_FRAME_FLOATS / n))
        return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)md->at,
                         "model '%s': %u texture frames exceed the frame limit", md->name, n);
    for (uint32_t g = 0; g < st->group_count; g++) {
        built_submesh *bs = &st->subs[g];
        ossa_submesh *sm = bs->sm;
        if (!sm->uv_frame_count)
            continue;
        float *uvs;
        OSSA_TRY(ossa_build_array(b, &uvs, (size_t)n * sm->vertex_count, 2 * sizeof(float)));
        sm->frame_uvs = uvs;
        for (uint32_t f = 0; f < n; f++) {
            const uint32_t *t = st->ttuples + (size_t)f * groups;
            float *out = uvs + 2 * (size_t)sm->vertex_count * f;
            for (uint32_t r = 0; r < sm->vertex_count; r++) {
                uint32_t tv = bs->tex[r];
                if (!tv)
                    continue;
                uint32_t g2 = st->tgroup_of[tv - 1];
                const float *src = st->base_uv + 2 * (size_t)(tv - 1);
                if (g2 && t[g2 - 1])
                    src = md->tframes[t[g2 - 1] - 1].data + 2 * (size_t)st->tgroup_slot[tv - 1];
                memcpy(out + 2 * (size_t)r, src, 2 * sizeof(float));
            }
        }
    }
    return OSSA_OK;
}

/* ---- sequences ---- */

static ossa_status frame_tracks(model_state *st, const uint32_t *per_key, uint32_t key_count,
                                const float *times, bool uv, const ossa_vertex_track **out,
                                uint32_t *out_count)
{
    uint32_t n = 0;
    for (uint32_t g = 0; g < st->group_count; g++)
        n += (uv ? st->subs[g].sm->uv_frame_count : st->subs[g].sm->frame_count) != 0;
    if (!n || !per_key || !key_count)
        return OSSA_OK;
    ossa_vertex_track *tracks;
    OSSA_TRY(ossa_build_array(st->b, &tracks, n, sizeof *tracks));
    uint32_t at = 0;
    for (uint32_t g = 0; g < st->group_count; g++) {
        if (!(uv ? st->subs[g].sm->uv_frame_count : st->subs[g].sm->frame_count))
            continue;
        ossa_vertex_track *tr = &tracks[at++];
        tr->mesh = st->groups[g].mesh;
        tr->submesh = st->groups[g].submesh;
        tr->key_count = key_count;
        tr->times = times;
        tr->frames = per_key;
    }
    *out = tracks;
    *out_count = n;
    return OSSA_OK;
}

static ossa_status bone_tracks(model_state *st, const c3s_sequence *sq, const float *times,
                               int32_t *track_of, uint64_t *track_keys, ossa_clip *clip)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    uint32_t nb = md->count[C3S_BONE], n = sq->key_count;
    if (!nb || !n)
        return OSSA_OK;
    for (uint32_t i = 0; i < nb; i++)
        track_of[i] = -1;
    uint32_t count = 0;
    for (int pass = 0; pass < 2; pass++) {
        ossa_track *tracks = (ossa_track *)clip->tracks;
        for (uint32_t k = 0; k < n; k++) {
            ossa_reader r;
            c3s_list_reader(st->sc, &sq->keys[k].bone_keys, &r);
            for (uint32_t i = 0; i < sq->keys[k].bone_keys.count; i++) {
                uint32_t bone;
                c3s_ocs anim;
                OSSA_TRY(ossa_c3s_rd_compdword(&r, &bone, "key bone"));
                OSSA_TRY(ossa_c3s_rd_ocs(&r, &anim, "bone key OCS"));
                if (!bone)
                    continue;
                if (pass == 0) {
                    if (track_of[bone - 1] < 0)
                        track_of[bone - 1] = (int32_t)count++;
                    continue;
                }
                /* The key's local transform: the base OCS composed with the key (key first). */
                ossa_track *tr = &tracks[track_of[bone - 1]];
                c3s_ocs local;
                ocs_compose(&md->bones[bone - 1].base, &anim, &local);
                memcpy((float *)tr->translations + 3 * k, local.t, sizeof local.t);
                memcpy((float *)tr->rotations + 4 * k, local.q, sizeof local.q);
                memcpy((float *)tr->scales + 3 * k, local.s, sizeof local.s);
            }
        }
        if (pass == 1 || !count)
            break;
        *track_keys += (uint64_t)count * n;
        if (*track_keys > C3S_MAX_TRACK_KEYS)
            return ossa_fail(b, OSSA_ERR_RANGE, (int64_t)md->at,
                             "model '%s': sequence '%s' makes the bone tracks exceed %u keys",
                             md->name, clip->name, C3S_MAX_TRACK_KEYS);
        ossa_track *made;
        OSSA_TRY(ossa_build_array(b, &made, count, sizeof *made));
        for (uint32_t i = 0; i < nb; i++) {
            if (track_of[i] < 0)
                continue;
            ossa_track *tr = &made[track_of[i]];
            float *t, *q, *s;
            OSSA_TRY(ossa_build_array(b, &t, n, 3 * sizeof(float)));
            OSSA_TRY(ossa_build_array(b, &q, n, 4 * sizeof(float)));
            OSSA_TRY(ossa_build_array(b, &s, n, 3 * sizeof(float)));
            const c3s_ocs *base = &md->bones[i].base;
            for (uint32_t k = 0; k < n; k++) { /* keys without this bone keep the base */
                memcpy(t + 3 * k, base->t, sizeof base->t);
                memcpy(q + 4 * k, base->q, sizeof base->q);
                memcpy(s + 3 * k, base->s, sizeof base->s);
            }
            tr->bone = c3s_model_bone(st, i + 1);
            tr->key_count = n;
            tr->times = times;
            tr->translations = t;
            tr->rotations = q;
            tr->scales = s;
        }
        clip->tracks = made;
        clip->track_count = count;
    }
    /* Scales that never leave the rest scale need no channel. */
    for (uint32_t i = 0; i < clip->track_count; i++) {
        ossa_track *tr = (ossa_track *)&clip->tracks[i];
        const float *rest = b->model->bones[tr->bone].rest_s;
        bool same = true;
        for (uint32_t k = 0; k < n && same; k++)
            same = memcmp(tr->scales + 3 * k, rest, 3 * sizeof(float)) == 0;
        if (same)
            tr->scales = NULL;
    }
    return OSSA_OK;
}

static ossa_status sequence_extras(model_state *st, uint32_t s, ossa_clip *clip)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    const c3s_sequence *sq = &md->sequences[s];
    if (sq->trigger_count) {
        ossa_clip_trigger *tg;
        OSSA_TRY(ossa_build_array(b, &tg, sq->trigger_count, sizeof *tg));
        uint32_t clamped = 0;
        for (uint32_t i = 0; i < sq->trigger_count; i++) {
            const c3s_trigger *src = &sq->triggers[i];
            float at = src->time;
            if (!(at >= 0.0f && at <= 1.0f)) {
                clamped++;
                at = at < 0.0f ? 0.0f : 1.0f;
            }
            ossa_clip_trigger t = {at * clip->duration, src->command, "", src->param_size,
                                   src->params};
            if (src->command == C3S_TRIG_COMMAND && src->param_size) {
                size_t len = strnlen((const char *)src->params, src->param_size);
                OSSA_TRY(ossa_build_strndup(b, &t.name, (const char *)src->params, len));
            }
            tg[i] = t;
        }
        /* Time order, stably (a sequence may list 65536 triggers in reverse). */
        const ossa_sort_array triggers = {tg, sizeof *tg};
        bool moved;
        OSSA_TRY(ossa_build_sort_by_time(b, &tg->time, sizeof *tg, sq->trigger_count,
                                         &triggers, 1, &moved));
        if (clamped)
            ossa_warn(b, "sequence '%s': %u trigger times outside 0..1 clamped", clip->name,
                      clamped);
        clip->triggers = tg;
        clip->trigger_count = sq->trigger_count;
    }
    if (sq->links.count) {
        uint32_t *links;
        OSSA_TRY(ossa_build_array(b, &links, sq->links.count, sizeof *links));
        ossa_reader r;
        c3s_list_reader(st->sc, &sq->links, &r);
        uint32_t n = 0;
        for (uint32_t i = 0; i < sq->links.count; i++) {
            uint32_t v;
            OSSA_TRY(ossa_c3s_rd_compdword(&r, &v, "linked sequence"));
            if (v && v - 1 != s)
                links[n++] = md->clip_base + v - 1;
        }
        if (n < sq->links.count)
            ossa_warn(b, "sequence '%s': %u empty or self links dropped", clip->name,
                      sq->links.count - n);
        clip->links = links;
        clip->link_count = n;
    }
    return OSSA_OK;
}

ossa_status ossa_c3s_build_clips(model_state *st)
{
    c3s_smdl *md = st->md;
    ossa_build *b = st->b;
    int32_t *track_of = NULL; /* per bone of the model: its track in the clip being built */
    uint64_t track_keys = 0;
    if (md->count[C3S_BONE])
        OSSA_TRY(ossa_build_array(b, &track_of, md->count[C3S_BONE], sizeof *track_of));
    for (uint32_t s = 0; s < md->count[C3S_ASEQ]; s++) {
        const c3s_sequence *sq = &md->sequences[s];
        ossa_clip *clip = ossa_build_push_clip(b);
        if (!clip)
            return OSSA_ERR_NOMEM;
        const char *name = md->subs[C3S_ASEQ][s].name;
        if (name[0])
            OSSA_TRY(ossa_build_strndup(b, &clip->name, name, strlen(name)));
        else {
            char made[64];
            snprintf(made, sizeof made, "sequence%u", s + 1);
            OSSA_TRY(ossa_build_strndup(b, &clip->name, made, strlen(made)));
        }
        clip->group = sq->group;
        clip->format = OSSA_FORMAT_C3S;
        clip->version = md->subs[C3S_ASEQ][s].version;
        clip->frame_rate = sq->rate;
        /* Key frames every 1/rate seconds; the sequence loops back to its first key. */
        clip->duration = (float)(sq->key_count ? sq->key_count : 1) / sq->rate;
        float *times = NULL;
        if (sq->key_count) {
            OSSA_TRY(ossa_build_array(b, &times, sq->key_count, sizeof *times));
            for (uint32_t k = 0; k < sq->key_count; k++)
                times[k] = (float)k / sq->rate;
        }
        OSSA_TRY(bone_tracks(st, sq, times, track_of, &track_keys, clip));
        OSSA_TRY(frame_tracks(st, st->seq_vframe ? st->seq_vframe[s] : NULL, sq->key_count,
                              times, false, &clip->vertex_tracks, &clip->vertex_track_count));
        OSSA_TRY(frame_tracks(st, st->seq_tframe ? st->seq_tframe[s] : NULL, sq->key_count,
                              times, true, &clip->uv_tracks, &clip->uv_track_count));
        OSSA_TRY(sequence_extras(st, s, clip));
    }
    return OSSA_OK;
}
