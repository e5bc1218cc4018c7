/* Skeletal clips as glTF animations. The keys are written as they are (LINEAR; rotations unit,
 * each key's sign chosen so that consecutive keys are on the shorter arc, as Cal3D's blend
 * takes it). A clip plays as a Cal3D cycle (ossa_sample_clip, OSSA_WRAP_LOOP), so:
 *   - after the last key, the loop key (the first key again at t = duration) is one more key;
 *   - before a track's first key Cal3D extrapolates along the first pair, and after the last key
 *     (when the clip gets no loop key) along the last pair; glTF holds instead, so those
 *     stretches are resampled at opt.fps (with a warning), within OSSA_EXPORT_MAX_TRACK_SAMPLES
 *     a track and OSSA_EXPORT_MAX_SAMPLES an export (past them evenly and more coarsely, so
 *     a clip with keys at 1e9 s ends, and the stretch's ends stay exact);
 *   - keys at the same time (a step in Cal3D) are moved one float step apart (glTF needs
 *     increasing times). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/quat.h"
#include "gltf_internal.h"
#include "ossa/limits.h"
#include "ossa/reference.h"
#include "ossa/sample.h"

typedef struct key_list {
    float *time, *t, *r, *s;
    size_t n, cap;
    bool failed;
} key_list;

static void keys_free(key_list *k)
{
    free(k->time);
    free(k->t);
    free(k->r);
    free(k->s);
}

static void keys_add(key_list *k, float time, const float *t, const float *r, const float *s)
{
    if (k->failed)
        return;
    if (k->n == k->cap) {
        size_t cap = k->cap ? 2 * k->cap : 64;
        float *a = realloc(k->time, cap * sizeof(float));
        if (a)
            k->time = a;
        float *b = realloc(k->t, 3 * cap * sizeof(float));
        if (b)
            k->t = b;
        float *c = realloc(k->r, 4 * cap * sizeof(float));
        if (c)
            k->r = c;
        float *d = realloc(k->s, 3 * cap * sizeof(float));
        if (d)
            k->s = d;
        if (!a || !b || !c || !d) {
            k->failed = true;
            return;
        }
        k->cap = cap;
    }
    k->time[k->n] = time;
    memcpy(k->t + 3 * k->n, t, 3 * sizeof(float));
    memcpy(k->r + 4 * k->n, r, 4 * sizeof(float));
    memcpy(k->s + 3 * k->n, s, 3 * sizeof(float));
    k->n++;
}

/* One track's value at a time as Cal3D's sampler gives it outside the loop tail. The pose
 * arrays (bone_count entries, scratch) hold the rest pose, set once per track: sampling the
 * track alone rewrites only its bone (the scale only when the track has scales). */
typedef struct track_eval {
    const ossa_model *m;
    ossa_clip one;           /* a clip of this track alone */
    float *t, *r, *s;
} track_eval;

static void eval_at(track_eval *e, float time, float *t, float *r, float *s)
{
    uint32_t b = e->one.tracks[0].bone;
    ossa_sample_clip(e->m, &e->one, time, OSSA_WRAP_EXTRAPOLATE, e->t, e->r, e->s,
                     e->m->bone_count, NULL);
    memcpy(t, e->t + 3 * b, 3 * sizeof(float));
    memcpy(r, e->r + 4 * b, 4 * sizeof(float));
    memcpy(s, e->s + 3 * b, 3 * sizeof(float));
}

static void add_key(key_list *k, const ossa_track *tr, uint32_t i, const float *rest_s)
{
    keys_add(k, tr->times[i], tr->translations + 3 * i, tr->rotations + 4 * i,
             tr->scales ? tr->scales + 3 * i : rest_s);
}

/* A sample at time; skipped where float times no longer tell it from the key before. */
static void add_eval(key_list *k, track_eval *e, double time)
{
    float x = (float)time, t[3], r[4], s[3];
    if (k->n && !(x > k->time[k->n - 1]))
        return;
    eval_at(e, x, t, r, s);
    keys_add(k, x, t, r, s);
}

/* How the stretches of one clip were sampled (for its warnings). */
typedef struct stretch_count {
    uint32_t resampled, coarse;
} stretch_count;

/* Samples the open stretch (lo, hi) (from lo itself when with_lo) on the export's grid i / fps,
 * from integer frame numbers (no float running sum: x += 1/30 stops moving past 2^19 s). A
 * stretch that needs more than budget samples gets budget evenly spaced ones instead. Returns
 * how many it took. */
static size_t sample_stretch(const gltf_ctx *c, track_eval *e, key_list *k, double lo, double hi,
                             bool with_lo, size_t budget, stretch_count *count)
{
    double fps = c->opt.fps, end = hi - 1e-6;
    /* Grid frames i with lo < i / fps < end (lo <= i / fps with with_lo). */
    double first = with_lo ? ceil(lo * fps) : floor(lo * fps) + 1.0;
    double frames = ceil(end * fps) - first; /* i / fps < end for i < ceil(end * fps) */
    if (!(frames > 0.0))
        return 0;
    count->resampled++;
    /* Samples that float times put on hi itself would move the key there. */
    float below = (float)hi;
    if (frames <= (double)budget) {
        for (size_t i = 0; i < (size_t)frames; i++)
            if ((float)((first + (double)i) / fps) < below)
                add_eval(k, e, (first + (double)i) / fps);
        return (size_t)frames;
    }
    count->coarse++;
    size_t n = budget;
    for (size_t i = 0; i < n; i++) { /* from lo itself, or n evenly inside (lo, hi) */
        double x = with_lo ? lo + (hi - lo) * (double)i / (double)n
                           : lo + (hi - lo) * (double)(i + 1) / (double)(n + 1);
        if ((float)x < below)
            add_eval(k, e, x);
    }
    return n;
}

/* What is left of the export's budget, at most want. */
static size_t export_budget(const gltf_ctx *c, size_t want)
{
    size_t left = c->resampled < OSSA_EXPORT_MAX_SAMPLES ? OSSA_EXPORT_MAX_SAMPLES - c->resampled
                                                         : 0;
    return want < left ? want : left;
}

/* Fills k with the track's keys over [0, duration] as glTF must hold them; *bumped counts keys
 * moved apart. The stretches Cal3D extrapolates share the track's sample budget, half of it
 * before the first key; once the export's budget is spent they get their end points only (the
 * value at 0 before the first key, at the duration after the last). */
static void track_keys(gltf_ctx *c, track_eval *e, const ossa_clip *clip, bool loop_key,
                       key_list *k, uint32_t *bumped, stretch_count *count)
{
    const ossa_track *tr = e->one.tracks;
    const float *rest_s = c->m->bones[tr->bone].rest_s;
    float d = clip->duration;
    uint32_t n = tr->key_count;
    if (n == 1) { /* constant in every mode */
        add_key(k, tr, 0, rest_s);
        if (k->n)
            k->time[0] = 0.0f;
        return;
    }
    size_t used = 0;
    float t0 = tr->times[0];
    if (t0 > 0.0f) { /* Cal3D extrapolates before the first key */
        size_t budget = export_budget(c, OSSA_EXPORT_MAX_TRACK_SAMPLES / 2);
        used = sample_stretch(c, e, k, 0.0, fmin(t0, d), true, budget ? budget : 1, count);
        c->resampled += used;
    }
    for (uint32_t i = 0; i < n; i++) {
        float ti = tr->times[i];
        if (ti < 0.0f)
            continue;
        if (ti > d) { /* keys past the duration are never reached: cut at the duration */
            if (!k->n || k->time[k->n - 1] < d)
                add_eval(k, e, d);
            break;
        }
        if (k->n == 0 && ti > 0.0f && t0 < 0.0f)
            add_eval(k, e, 0.0);
        add_key(k, tr, i, rest_s);
        if (k->n >= 2 && !(k->time[k->n - 1] > k->time[k->n - 2])) {
            k->time[k->n - 1] = nextafterf(k->time[k->n - 2], INFINITY);
            (*bumped)++;
        }
    }
    float last = tr->times[n - 1];
    if (last < d) {
        if (loop_key) {
            add_key(k, tr, 0, rest_s);
            if (k->n)
                k->time[k->n - 1] = d;
        } else { /* Cal3D extrapolates after the last key */
            size_t budget = export_budget(c, OSSA_EXPORT_MAX_TRACK_SAMPLES - used);
            c->resampled += sample_stretch(c, e, k, last, d, false, budget, count);
            if (!k->n || k->time[k->n - 1] < d) {
                float t[3], r[4], s[3];
                eval_at(e, d, t, r, s);
                keys_add(k, d, t, r, s);
            }
        }
        if (k->n >= 2 && !(k->time[k->n - 1] > k->time[k->n - 2]))
            k->time[k->n - 1] = nextafterf(k->time[k->n - 2], INFINITY);
    }
}

/* Root bones take the axis change; rotations unit and on the shorter arc from key to key. */
static uint32_t finish_keys(const gltf_ctx *c, bool root, key_list *k)
{
    uint32_t non_unit = 0;
    for (size_t i = 0; i < k->n; i++) {
        float *t = k->t + 3 * i, *r = k->r + 4 * i;
        float n2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3];
        non_unit += fabsf(n2 - 1.0f) > 1e-3f;
        if (root) {
            ossa_gltf_axis_vec(c, t, t);
            float q[4];
            ossa_gltf_axis_quat(c, r, q);
            memcpy(r, q, sizeof q);
        }
        ossa_quat_normalize(r);
        if (i > 0) {
            const float *p = r - 4;
            if (p[0] * r[0] + p[1] * r[1] + p[2] * r[2] + p[3] * r[3] < 0.0f)
                for (int j = 0; j < 4; j++)
                    r[j] = -r[j];
        }
    }
    return non_unit;
}

static void channel(gltf_ctx *c, json_t *channels, json_t *samplers, int input, int output,
                    int node, const char *path)
{
    int s = ossa_gltf_push(c, samplers, json_pack("{s:i, s:i, s:s}", "input", input, "output", output,
                                             "interpolation", "LINEAR"));
    ossa_gltf_push(c, channels, json_pack("{s:i, s:{s:i, s:s}}", "sampler", s, "target", "node", node,
                                     "path", path));
}

static json_t *triggers_extras(gltf_ctx *c, const ossa_clip *clip)
{
    json_t *list = json_array();
    for (uint32_t i = 0; i < clip->trigger_count; i++)
        ossa_gltf_push(c, list, json_pack("{s:f, s:o}", "time", (double)clip->triggers[i].time,
                                     "name", ossa_gltf_text(clip->triggers[i].name)));
    return json_pack("{s:o}", "triggers", list);
}

/* Which bones any clip scales, or that rest at a scale other than 1: every clip keys their
 * scale, so that switching clips never keeps another clip's scale. */
static bool *scaled_bones(const ossa_model *m)
{
    bool *scaled = calloc(m->bone_count ? m->bone_count : 1, sizeof *scaled);
    if (!scaled)
        return NULL;
    for (uint32_t b = 0; b < m->bone_count; b++) {
        const float *s = m->bones[b].rest_s;
        scaled[b] = s[0] != 1.0f || s[1] != 1.0f || s[2] != 1.0f;
    }
    for (uint32_t i = 0; i < m->clip_count; i++)
        for (uint32_t k = 0; k < m->clips[i].track_count; k++) {
            const ossa_track *tr = &m->clips[i].tracks[k];
            if (tr->scales && tr->bone < m->bone_count)
                scaled[tr->bone] = true;
        }
    return scaled;
}

/* A channel that holds the bone's rest value (translation, rotation or scale) for the whole
 * clip: two keys at 0 and the duration (one when it has none) on the shared input. Root bones
 * take the axis change, as their nodes do. */
static void rest_channel(gltf_ctx *c, json_t *channels, json_t *samplers, int input,
                         size_t keys, uint32_t bone, const char *path)
{
    const ossa_bone *bn = &c->m->bones[bone];
    float v[8];
    int comps = path[0] == 'r' ? 4 : 3;
    if (path[0] == 't') {
        if (bn->parent < 0)
            ossa_gltf_axis_vec(c, bn->rest_t, v);
        else
            memcpy(v, bn->rest_t, sizeof bn->rest_t);
    } else if (path[0] == 'r') {
        if (bn->parent < 0)
            ossa_gltf_axis_quat(c, bn->rest_r, v);
        else
            memcpy(v, bn->rest_r, sizeof bn->rest_r);
        ossa_quat_normalize(v);
    } else {
        memcpy(v, bn->rest_s, sizeof bn->rest_s);
    }
    memcpy(v + comps, v, (size_t)comps * sizeof(float));
    channel(c, channels, samplers, input, ossa_gltf_accessor_f32(c, v, keys, comps, 0, false),
            (int)bone, path);
}

/* glTF consumers keep a node's last animated value when the next animation does not target it
 * (Blender's actions, three.js's mixer): every clip keys every bone, the ones its tracks do not
 * move at their rest pose (docs/FORMATS.md, "glTF export"). */
static void rest_channels(gltf_ctx *c, const ossa_clip *clip, const bool *scaled,
                          json_t *channels, json_t *samplers)
{
    const ossa_model *m = c->m;
    uint8_t *keyed = calloc(m->bone_count ? m->bone_count : 1, 1); /* 1 moved, 2 scaled too */
    if (!keyed) {
        c->failed = true;
        return;
    }
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const ossa_track *tr = &clip->tracks[i];
        if (tr->bone < m->bone_count)
            keyed[tr->bone] |= (uint8_t)(1 | (tr->scales ? 2 : 0));
    }
    float times[2] = {0.0f, clip->duration > 0.0f ? clip->duration : 0.0f};
    size_t keys = times[1] > 0.0f ? 2 : 1;
    int input = -1;
    for (uint32_t b = 0; b < m->bone_count && !c->failed; b++) {
        bool need_s = scaled[b] && !(keyed[b] & 2);
        if ((keyed[b] & 1) && !need_s)
            continue;
        if (input < 0)
            input = ossa_gltf_accessor_f32(c, times, keys, 1, 0, true);
        if (!(keyed[b] & 1)) {
            rest_channel(c, channels, samplers, input, keys, b, "translation");
            rest_channel(c, channels, samplers, input, keys, b, "rotation");
        }
        if (need_s)
            rest_channel(c, channels, samplers, input, keys, b, "scale");
    }
    free(keyed);
}

static void clip_animation(gltf_ctx *c, const ossa_clip *clip, track_eval *e, const bool *scaled)
{
    const ossa_model *m = c->m;
    const char *name = clip->name ? clip->name : "";
    json_t *channels = json_array(), *samplers = json_array();
    if (!channels || !samplers) {
        json_decref(channels);
        json_decref(samplers);
        c->failed = true;
        return;
    }
    /* Cal3D decides on the loop key from the first track alone (ossa_sample_clip). */
    bool loop_key = clip->track_count &&
                    clip->tracks[0].times[clip->tracks[0].key_count - 1] < clip->duration;
    uint32_t bumped = 0, non_unit = 0, skipped = 0;
    stretch_count stretches = {0, 0};
    for (uint32_t i = 0; i < clip->track_count && !c->failed; i++) {
        const ossa_track *tr = &clip->tracks[i];
        if (tr->bone >= m->bone_count) {
            skipped++;
            continue;
        }
        e->one.tracks = tr;
        e->one.duration = clip->duration;
        ossa_pose_rest(m, e->t, e->r, e->s, m->bone_count, NULL);
        key_list k = {0};
        track_keys(c, e, clip, loop_key, &k, &bumped, &stretches);
        if (k.failed) {
            keys_free(&k);
            c->failed = true;
            break;
        }
        non_unit += finish_keys(c, m->bones[tr->bone].parent < 0, &k);
        int input = ossa_gltf_accessor_f32(c, k.time, k.n, 1, 0, true);
        channel(c, channels, samplers, input, ossa_gltf_accessor_f32(c, k.t, k.n, 3, 0, false),
                (int)tr->bone, "translation");
        channel(c, channels, samplers, input, ossa_gltf_accessor_f32(c, k.r, k.n, 4, 0, false),
                (int)tr->bone, "rotation");
        if (tr->scales)
            channel(c, channels, samplers, input, ossa_gltf_accessor_f32(c, k.s, k.n, 3, 0, false),
                    (int)tr->bone, "scale");
        keys_free(&k);
    }
    if (json_array_size(channels) > 0 && !c->failed) /* a clip that moves bones moves them all */
        rest_channels(c, clip, scaled, channels, samplers);
    ossa_gltf_vertex_frame_channel(c, channels, samplers, clip);
    if (skipped)
        ossa_gltf_warn(c, "clip %s: %u tracks name bones the model does not have (no skeleton "
                  "loaded?): not exported", name, skipped);
    if (stretches.resampled)
        ossa_gltf_warn(c, "clip %s: %u track stretches before a first key or after a last key (where "
                  "Cal3D extrapolates and glTF would hold) resampled at %g frames per second",
                  name, stretches.resampled, (double)c->opt.fps);
    if (stretches.coarse)
        ossa_gltf_warn(c, "clip %s: %u of those stretches sampled more coarsely, evenly over the "
                  "stretch: a track takes at most %u samples (OSSA_EXPORT_MAX_TRACK_SAMPLES), "
                  "an export %u (OSSA_EXPORT_MAX_SAMPLES)", name, stretches.coarse,
                  OSSA_EXPORT_MAX_TRACK_SAMPLES, OSSA_EXPORT_MAX_SAMPLES);
    if (bumped)
        ossa_gltf_warn(c, "clip %s: %u keys at the same time as the key before moved one float step "
                  "later (glTF needs increasing times)", name, bumped);
    if (non_unit)
        ossa_gltf_warn(c, "clip %s: %u rotation keys are not unit quaternions: normalised (Cal3D "
                  "would also scale child translations by |q|^2)", name, non_unit);
    if (clip->uv_track_count)
        ossa_gltf_warn(c, "clip %s: %u texture-coordinate frame tracks not exported (glTF cannot "
                  "animate texture coordinates)", name, clip->uv_track_count);
    if (json_array_size(channels) == 0) {
        ossa_gltf_warn(c, "clip %s animates nothing the export holds: not exported", name);
        json_decref(channels);
        json_decref(samplers);
        return;
    }
    json_t *anim = json_pack("{s:o, s:o, s:o}", "name", ossa_gltf_text(name), "channels", channels,
                             "samplers", samplers);
    if (anim && clip->trigger_count)
        ossa_gltf_set(c, anim, "extras", triggers_extras(c, clip));
    ossa_gltf_push(c, c->animations, anim);
}

void ossa_gltf_animations(gltf_ctx *c)
{
    const ossa_model *m = c->m;
    size_t nb = m->bone_count ? m->bone_count : 1;
    track_eval e = {.m = m};
    e.one.track_count = 1;
    e.t = malloc(nb * 3 * sizeof(float));
    e.r = malloc(nb * 4 * sizeof(float));
    e.s = malloc(nb * 3 * sizeof(float));
    bool *scaled = scaled_bones(m);
    if (!e.t || !e.r || !e.s || !scaled)
        c->failed = true;
    for (uint32_t i = 0; i < m->clip_count && !c->failed; i++)
        clip_animation(c, &m->clips[i], &e, scaled);
    free(scaled);
    free(e.t);
    free(e.r);
    free(e.s);
}
