/* Weight animations: C3S vertex-frame tracks (inside their clip's animation) and morph clips
 * (one animation each). Both are piecewise linear in time with breaks at their keys, so keys at
 * the union of the times (plus 0 and the duration) say exactly the same thing in glTF. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gltf_internal.h"
#include "anim/interp.h"
#include "ossa/vertex_anim.h"

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Sorted, distinct times in [0, duration], always holding 0 and duration. */
static size_t unique_times(float *t, size_t n)
{
    qsort(t, n, sizeof *t, cmp_float);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || t[i] > t[k - 1])
            t[k++] = t[i];
    return k;
}

static void weights_channel(gltf_ctx *c, json_t *channels, json_t *samplers, int node,
                            const float *times, size_t n, const float *weights, uint32_t targets)
{
    int in = ossa_gltf_accessor_f32(c, times, n, 1, 0, true);
    int out = ossa_gltf_accessor_f32(c, weights, n * targets, 1, 0, false);
    int s = ossa_gltf_push(c, samplers, json_pack("{s:i, s:i, s:s}", "input", in, "output", out,
                                             "interpolation", "LINEAR"));
    ossa_gltf_push(c, channels, json_pack("{s:i, s:{s:i, s:s}}", "sampler", s, "target", "node", node,
                                     "path", "weights"));
}

/* Where a vertex track is at time t (t == duration: the limit from below, which the loop wraps
 * away). */
static void locate(const ossa_vertex_track *tr, float duration, float t, uint32_t *fa,
                   uint32_t *fb, float *f)
{
    uint32_t n = tr->key_count;
    if (t >= duration && tr->times[n - 1] <= duration) {
        float last = tr->times[n - 1], span = tr->times[0] + duration - last;
        *fa = tr->frames[n - 1];
        *fb = tr->frames[0];
        *f = span > 0.0f ? (duration - last) / span : 0.0f;
        *f = *f > 1.0f ? 1.0f : *f;
        return;
    }
    ossa_vertex_track_locate(tr, duration, t, OSSA_WRAP_LOOP, fa, fb, f);
}

int ossa_gltf_vertex_frame_channel(gltf_ctx *c, json_t *channels, json_t *samplers,
                              const ossa_clip *clip)
{
    const ossa_model *m = c->m;
    int added = 0;
    for (uint32_t i = 0; i < m->mesh_count && !c->failed; i++) {
        const gltf_mesh_targets *tg = &c->targets[i];
        if (c->mesh_node[i] < 0 || tg->total == tg->named_count)
            continue;
        size_t nt = 2;
        for (uint32_t k = 0; k < clip->vertex_track_count; k++)
            if (clip->vertex_tracks[k].mesh == i)
                nt += clip->vertex_tracks[k].key_count;
        if (nt == 2)
            continue;
        float *times = malloc(nt * sizeof *times);
        float *w = times ? calloc(nt * tg->total, sizeof *w) : NULL;
        if (!w) {
            free(times);
            c->failed = true;
            return added;
        }
        nt = 0;
        times[nt++] = 0.0f;
        times[nt++] = clip->duration;
        for (uint32_t k = 0; k < clip->vertex_track_count; k++) {
            const ossa_vertex_track *vt = &clip->vertex_tracks[k];
            if (vt->mesh == i)
                for (uint32_t j = 0; j < vt->key_count; j++)
                    if (vt->times[j] >= 0.0f && vt->times[j] <= clip->duration)
                        times[nt++] = vt->times[j];
        }
        nt = unique_times(times, nt);
        for (uint32_t k = 0; k < clip->vertex_track_count; k++) {
            const ossa_vertex_track *vt = &clip->vertex_tracks[k];
            if (vt->mesh != i || vt->submesh >= m->meshes[i].submesh_count ||
                !m->meshes[i].submeshes[vt->submesh].vertex_count ||
                !m->meshes[i].submeshes[vt->submesh].face_count)
                continue;
            uint32_t first = tg->frame_first[vt->submesh];
            for (size_t j = 0; j < nt; j++) {
                uint32_t fa, fb;
                float f;
                locate(vt, clip->duration, times[j], &fa, &fb, &f);
                w[j * tg->total + first + fa] += 1.0f - f;
                w[j * tg->total + first + fb] += f;
            }
        }
        weights_channel(c, channels, samplers, c->mesh_node[i], times, nt, w, tg->total);
        free(times);
        free(w);
        added++;
    }
    return added;
}

/* A morph track's weight at a time: linear, extrapolated outside the keys (a morph clip plays
 * as a cycle with Cal3D's sampler, as ossa_mixer does). */
static float morph_weight(const ossa_morph_track *tr, float time)
{
    uint32_t n = tr->key_count;
    if (n == 0)
        return 0.0f;
    if (n == 1)
        return tr->weights[0];
    uint32_t a = ossa_key_search(tr->times, n, time);
    float f = ossa_key_factor(time, tr->times[a], tr->times[a + 1]);
    return tr->weights[a] + f * (tr->weights[a + 1] - tr->weights[a]);
}

static void morph_clip(gltf_ctx *c, const ossa_morph_clip *mc)
{
    const ossa_model *m = c->m;
    json_t *channels = json_array(), *samplers = json_array();
    if (!channels || !samplers) {
        json_decref(channels);
        json_decref(samplers);
        c->failed = true;
        return;
    }
    uint32_t used = 0;
    for (uint32_t i = 0; i < m->mesh_count && !c->failed; i++) {
        const gltf_mesh_targets *tg = &c->targets[i];
        if (c->mesh_node[i] < 0 || tg->named_count == 0)
            continue;
        size_t nt = 2;
        for (uint32_t k = 0; k < mc->track_count; k++)
            nt += mc->tracks[k].key_count;
        float *times = malloc(nt * sizeof *times);
        float *w = times ? calloc(nt * tg->total, sizeof *w) : NULL;
        if (!w) {
            free(times);
            c->failed = true;
            break;
        }
        nt = 0;
        times[nt++] = 0.0f;
        times[nt++] = mc->duration;
        bool any = false;
        for (uint32_t k = 0; k < mc->track_count; k++) {
            const ossa_morph_track *tr = &mc->tracks[k];
            for (uint32_t t = 0; t < tg->named_count; t++)
                if (!strcmp(tg->names[t], tr->morph_name ? tr->morph_name : "")) {
                    any = true;
                    for (uint32_t j = 0; j < tr->key_count; j++)
                        if (tr->times[j] >= 0.0f && tr->times[j] <= mc->duration)
                            times[nt++] = tr->times[j];
                }
        }
        if (any) {
            nt = unique_times(times, nt);
            for (uint32_t k = 0; k < mc->track_count; k++) {
                const ossa_morph_track *tr = &mc->tracks[k];
                for (uint32_t t = 0; t < tg->named_count; t++)
                    if (!strcmp(tg->names[t], tr->morph_name ? tr->morph_name : "")) {
                        used++;
                        for (size_t j = 0; j < nt; j++)
                            w[j * tg->total + t] = morph_weight(tr, times[j]);
                    }
            }
            weights_channel(c, channels, samplers, c->mesh_node[i], times, nt, w, tg->total);
        }
        free(times);
        free(w);
    }
    const char *name = mc->name ? mc->name : "";
    if (json_array_size(channels) == 0) {
        ossa_gltf_warn(c, "morph clip %s names no morph target of an exported mesh: not exported",
                  name);
        json_decref(channels);
        json_decref(samplers);
        return;
    }
    ossa_gltf_push(c, c->animations, json_pack("{s:o, s:o, s:o, s:{s:b}}", "name", ossa_gltf_text(name),
                                          "channels", channels, "samplers", samplers, "extras",
                                          "ossa_morph_clip", 1));
}

void ossa_gltf_morph_animations(gltf_ctx *c)
{
    for (uint32_t i = 0; i < c->m->morph_clip_count && !c->failed; i++)
        morph_clip(c, &c->m->morph_clips[i]);
}
