/* The mixer's morph channels (Cal3D's CalMorphTargetMixer as the mixer drives it): one channel
 * per distinct morph target name of the model's submeshes, blended from the morph clips that play
 * as cycles and actions with the bone blend's layer rules, evaluated lazily. */
#include <stdlib.h>
#include <string.h>
#include "core/error.h"
#include "ossa/limits.h"
#include "extrap.h"
#include "interp.h"
#include "mixer_internal.h"

static int32_t find_channel(const ossa_mixer *mx, const char *name)
{
    for (uint32_t c = 0; c < mx->channel_count; c++)
        if (strcmp(mx->channel_name[c], name) == 0)
            return (int32_t)c;
    return -1;
}

ossa_status ossa_mixer_build_morphs(ossa_mixer *mx, const ossa_model *m)
{
    uint64_t targets = 0, subs = 0, tracks = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        subs += m->meshes[i].submesh_count;
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++)
            targets += m->meshes[i].submeshes[j].morph_count;
    }
    for (uint32_t i = 0; i < m->morph_clip_count; i++)
        tracks += m->morph_clips[i].track_count;
    if (targets > (1u << 24) || subs > (1u << 24) || tracks > (1u << 24))
        return OSSA_ERR_RANGE;
    mx->channel_name = calloc(targets + 1, sizeof *mx->channel_name);
    mx->sub_channel = calloc(targets + 1, sizeof *mx->sub_channel);
    mx->sub_map = calloc(subs + 1, sizeof *mx->sub_map);
    mx->mesh_first = calloc((size_t)m->mesh_count + 1, sizeof *mx->mesh_first);
    mx->track_channel = calloc(tracks + 1, sizeof *mx->track_channel);
    mx->track_first = calloc((size_t)m->morph_clip_count + 1, sizeof *mx->track_first);
    size_t nch = targets + 1;
    mx->ch_layer = calloc(nch, sizeof(float));
    mx->ch_acc_layer = calloc(nch, sizeof(float));
    mx->ch_value = calloc(nch, sizeof(float));
    mx->ch_acc = calloc(nch, sizeof(float));
    if (!mx->channel_name || !mx->sub_channel || !mx->sub_map || !mx->mesh_first ||
        !mx->track_channel || !mx->track_first || !mx->ch_layer || !mx->ch_acc_layer ||
        !mx->ch_value || !mx->ch_acc)
        return OSSA_ERR_NOMEM;
    uint32_t t = 0, s = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        mx->mesh_first[i] = s;
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++, s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            mx->sub_map[s].first = t;
            mx->sub_map[s].count = sm->morph_count;
            for (uint32_t k = 0; k < sm->morph_count; k++, t++) {
                const char *name = sm->morphs[k].name ? sm->morphs[k].name : "";
                int32_t c = find_channel(mx, name);
                if (c < 0) {
                    c = (int32_t)mx->channel_count++;
                    mx->channel_name[c] = name;
                }
                mx->sub_channel[t] = c;
            }
        }
    }
    mx->mesh_first[m->mesh_count] = s;
    mx->submesh_total = s;
    uint32_t k = 0;
    for (uint32_t i = 0; i < m->morph_clip_count; i++) {
        mx->track_first[i] = k;
        for (uint32_t j = 0; j < m->morph_clips[i].track_count; j++, k++) {
            const char *name = m->morph_clips[i].tracks[j].morph_name;
            mx->track_channel[k] = name ? find_channel(mx, name) : -1;
        }
    }
    mx->track_first[m->morph_clip_count] = k;
    return OSSA_OK;
}

/* Keyed morph weight of one track at a time, with the sampler's key search and time modes. */
static float sample_morph(const ossa_morph_track *tr, float time, ossa_wrap mode)
{
    uint32_t n = tr->key_count;
    if (n == 0 || !tr->times || !tr->weights)
        return 0.0f;
    if (n == 1 || (mode == OSSA_WRAP_CLAMP && time <= tr->times[0]))
        return tr->weights[0];
    if (mode == OSSA_WRAP_CLAMP && time >= tr->times[n - 1])
        return tr->weights[n - 1];
    uint32_t a = ossa_key_search(tr->times, n, time);
    float f = ossa_key_factor(time, tr->times[a], tr->times[a + 1]);
    if (ossa_factor_extrapolates(f)) /* held within validation's weight bound (extrap.h) */
        f = ossa_extrap_factor_lerp(tr->weights[a], tr->weights[a + 1], OSSA_MAX_WEIGHT, f);
    return tr->weights[a] + f * (tr->weights[a + 1] - tr->weights[a]);
}

static void morph_blend(ossa_mixer *mx, uint32_t morph_clip, float time, ossa_wrap mode,
                        float w)
{
    const ossa_morph_clip *mc = &mx->model->morph_clips[morph_clip];
    for (uint32_t j = 0; j < mc->track_count; j++) {
        int32_t c = mx->track_channel[mx->track_first[morph_clip] + j];
        if (c < 0)
            continue;
        float v = sample_morph(&mc->tracks[j], time, mode);
        if (mx->ch_acc_layer[c] == 0.0f) {
            mx->ch_layer[c] = v;
            mx->ch_acc_layer[c] = w;
        } else {
            float f = w / (mx->ch_acc_layer[c] + w);
            mx->ch_layer[c] += f * (v - mx->ch_layer[c]);
            mx->ch_acc_layer[c] += w;
        }
    }
}

static void morph_lock(ossa_mixer *mx)
{
    for (uint32_t c = 0; c < mx->channel_count; c++) {
        float al = mx->ch_acc_layer[c], a = mx->ch_acc[c];
        if (al > 1.0f - a)
            al = 1.0f - a;
        if (al > 0.0f) {
            if (a == 0.0f)
                mx->ch_value[c] = mx->ch_layer[c];
            else
                mx->ch_value[c] += al / (a + al) * (mx->ch_layer[c] - mx->ch_value[c]);
            mx->ch_acc[c] = a + al;
            al = 0.0f;
        }
        mx->ch_acc_layer[c] = al;
    }
}

static void evaluate_morphs(ossa_mixer *mx)
{
    size_t n = mx->channel_count;
    memset(mx->ch_acc_layer, 0, n * sizeof(float));
    memset(mx->ch_acc, 0, n * sizeof(float));
    memset(mx->ch_value, 0, n * sizeof(float));
    for (uint32_t i = 0; i < mx->action_count; i++) {
        const mix_slot *a = &mx->actions[i];
        if (a->id >= mx->clip_count)
            morph_blend(mx, a->id - mx->clip_count, a->time, mx->desc.wrap, a->weight);
    }
    morph_lock(mx);
    for (uint32_t i = 0; i < mx->cycle_count; i++) {
        const mix_slot *c = &mx->cycles[i];
        if (c->id >= mx->clip_count)
            morph_blend(mx, c->id - mx->clip_count, ossa_mixer_cycle_time(mx, c), OSSA_WRAP_EXTRAPOLATE,
                        c->weight);
    }
    morph_lock(mx);
    for (uint32_t c = 0; c < mx->channel_count; c++)
        if (mx->ch_acc[c] == 0.0f)
            mx->ch_value[c] = 0.0f;
    mx->morph_dirty = 0;
}

static int mixer_morph_weights_impl(ossa_mixer *mx, uint32_t mesh, uint32_t submesh, float *out)
{
    if (!mx || mesh >= mx->model->mesh_count ||
        submesh >= mx->model->meshes[mesh].submesh_count || !out)
        return 0;
    if (mx->morph_dirty)
        evaluate_morphs(mx);
    const morph_map *map = &mx->sub_map[mx->mesh_first[mesh] + submesh];
    for (uint32_t k = 0; k < map->count; k++)
        out[k] = mx->ch_value[mx->sub_channel[map->first + k]];
    return 1;
}

uint32_t ossa_mixer_morph_id(const ossa_mixer *mx, uint32_t morph_clip)
{
    return mx->clip_count + morph_clip;
}

ossa_status ossa_mixer_morph_weights(ossa_mixer *mx, uint32_t mesh, uint32_t submesh, float *out,
                                     uint32_t out_capacity, ossa_error *err)
{
    const ossa_status bad = OSSA_ERR_INVALID_ARGUMENT;
    if (!mx || !out)
        return ossa_error_fail(err, bad, "mixer morph_weights: %s is NULL", !mx ? "mixer" : "out");
    const ossa_model *m = mx->model;
    if (mesh >= m->mesh_count)
        return ossa_error_fail(err, bad, "mixer morph_weights: mesh %u of %u", mesh,
                               m->mesh_count);
    if (submesh >= m->meshes[mesh].submesh_count)
        return ossa_error_fail(err, bad, "mixer morph_weights: submesh %u of %u in mesh %u",
                               submesh, m->meshes[mesh].submesh_count, mesh);
    uint32_t targets = m->meshes[mesh].submeshes[submesh].morph_count;
    if (out_capacity < targets)
        return ossa_error_fail(err, bad, "mixer morph_weights: out holds %u weights, submesh %u "
                               "of mesh %u has %u morph targets", out_capacity, submesh, mesh,
                               targets);
    return mixer_morph_weights_impl(mx, mesh, submesh, out) ? OSSA_OK
           : ossa_error_fail(err, bad, "mixer morph_weights: refused");
}
