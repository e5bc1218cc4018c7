/* The mixer's bone blending (mixer_internal.h): CalMixer::updateSkeleton over the runtime
 * clips, CalBone's blendState / lockState / calculateState per bone over SoA arrays, and the
 * single-cycle fast path. docs/FORMATS.md, Mixer. */
#include "interp.h"
#include "mixer_internal.h"
#include "rt_internal.h"

/* CalBone::blendState for the bones one sampled clip animates. */
static void blend_layer(ossa_mixer *mx, const ossa_rt_clip *clip, float w)
{
    ossa_soa_pose *s = &mx->sample, *l = &mx->layer;
    for (uint32_t k = 0; k < clip->track_count; k++) {
        uint32_t b = clip->tracks[k].bone;
        if (mx->acc_layer[b] == 0.0f) {
            l->tx[b] = s->tx[b]; l->ty[b] = s->ty[b]; l->tz[b] = s->tz[b];
            l->qx[b] = s->qx[b]; l->qy[b] = s->qy[b]; l->qz[b] = s->qz[b]; l->qw[b] = s->qw[b];
            l->sx[b] = s->sx[b]; l->sy[b] = s->sy[b]; l->sz[b] = s->sz[b];
            mx->acc_layer[b] = w;
            continue;
        }
        float f = w / (mx->acc_layer[b] + w);
        float ta[3] = {l->tx[b], l->ty[b], l->tz[b]}, tb[3] = {s->tx[b], s->ty[b], s->tz[b]};
        float ra[4] = {l->qx[b], l->qy[b], l->qz[b], l->qw[b]};
        float rb[4] = {s->qx[b], s->qy[b], s->qz[b], s->qw[b]};
        float sa[3] = {l->sx[b], l->sy[b], l->sz[b]}, sb[3] = {s->sx[b], s->sy[b], s->sz[b]};
        float t[3], r[4], sc[3];
        ossa_interp_pair(ta, tb, ra, rb, sa, sb, f, mx->desc.rot == OSSA_ROT_NLERP, t, r, sc);
        l->tx[b] = t[0]; l->ty[b] = t[1]; l->tz[b] = t[2];
        l->qx[b] = r[0]; l->qy[b] = r[1]; l->qz[b] = r[2]; l->qw[b] = r[3];
        l->sx[b] = sc[0]; l->sy[b] = sc[1]; l->sz[b] = sc[2];
        mx->acc_layer[b] += w;
    }
}

/* CalBone::lockState for every bone: the layer joins the output with at most the weight left. */
static void lock_layer(ossa_mixer *mx, ossa_soa_pose *o)
{
    ossa_soa_pose *l = &mx->layer;
    for (uint32_t b = 0; b < o->bone_count; b++) {
        float al = mx->acc_layer[b], a = mx->acc[b];
        if (al > 1.0f - a)
            al = 1.0f - a;
        if (al > 0.0f) {
            if (a == 0.0f) {
                o->tx[b] = l->tx[b]; o->ty[b] = l->ty[b]; o->tz[b] = l->tz[b];
                o->qx[b] = l->qx[b]; o->qy[b] = l->qy[b]; o->qz[b] = l->qz[b];
                o->qw[b] = l->qw[b];
                o->sx[b] = l->sx[b]; o->sy[b] = l->sy[b]; o->sz[b] = l->sz[b];
                mx->acc[b] = al;
            } else {
                float f = al / (a + al);
                float ta[3] = {o->tx[b], o->ty[b], o->tz[b]};
                float tb[3] = {l->tx[b], l->ty[b], l->tz[b]};
                float ra[4] = {o->qx[b], o->qy[b], o->qz[b], o->qw[b]};
                float rb[4] = {l->qx[b], l->qy[b], l->qz[b], l->qw[b]};
                float sa[3] = {o->sx[b], o->sy[b], o->sz[b]};
                float sb[3] = {l->sx[b], l->sy[b], l->sz[b]};
                float t[3], r[4], sc[3];
                ossa_interp_pair(ta, tb, ra, rb, sa, sb, f, mx->desc.rot == OSSA_ROT_NLERP, t,
                                 r, sc);
                o->tx[b] = t[0]; o->ty[b] = t[1]; o->tz[b] = t[2];
                o->qx[b] = r[0]; o->qy[b] = r[1]; o->qz[b] = r[2]; o->qw[b] = r[3];
                o->sx[b] = sc[0]; o->sy[b] = sc[1]; o->sz[b] = sc[2];
                mx->acc[b] = a + al;
            }
            al = 0.0f;
        }
        mx->acc_layer[b] = al;
    }
}

static void sample_into(ossa_mixer *mx, mix_slot *slot, float time, ossa_wrap mode)
{
    ossa_sample_job job = {
        .clip = mx->clips[slot->id], .cache = slot->cache, .time = time, .wrap = mode,
        .rot = mx->desc.rot, .output = &mx->sample,
    };
    ossa_sample_job_run(&job, NULL);
}

/* The common case of one skeletal cycle, no skeletal action: a lone animation shows at 100%
 * (blendState copies it into the layer, lockState copies the layer into the pose), so the clip
 * is sampled straight into the pose. Bones it does not animate take the rest pose; the scales
 * of a clip without scale keys are the sample pose's, as the general path copies them. Returns
 * 0 (nothing written) when the general path is needed. */
static int evaluate_single_cycle(ossa_mixer *mx, ossa_soa_pose *pose)
{
    mix_slot *cycle = NULL;
    for (uint32_t i = 0; i < mx->action_count; i++)
        if (mx->actions[i].id < mx->clip_count)
            return 0;
    for (uint32_t i = 0; i < mx->cycle_count; i++) {
        if (mx->cycles[i].id >= mx->clip_count)
            continue;
        if (cycle)
            return 0;
        cycle = &mx->cycles[i];
    }
    if (!cycle || !(cycle->weight > 0.0f))
        return 0;
    const ossa_rt_clip *clip = mx->clips[cycle->id];
    if (!clip->unique_bones || clip->has_scales)
        return 0;
    const ossa_soa_pose *s = &mx->sample;
    size_t bytes = (size_t)pose->capacity * sizeof(float);
    if (clip->all_bones) {
        memcpy(pose->sx, s->sx, bytes);
        memcpy(pose->sy, s->sy, bytes);
        memcpy(pose->sz, s->sz, bytes);
    } else {
        ossa_rt_skeleton_rest(mx->skel, pose, NULL);
        for (uint32_t k = 0; k < clip->track_count; k++) {
            uint32_t b = clip->tracks[k].bone;
            pose->sx[b] = s->sx[b];
            pose->sy[b] = s->sy[b];
            pose->sz[b] = s->sz[b];
        }
    }
    ossa_sample_job job = {
        .clip = clip, .cache = cycle->cache, .time = ossa_mixer_cycle_time(mx, cycle),
        .wrap = OSSA_WRAP_LOOP, .rot = mx->desc.rot, .output = pose,
    };
    ossa_sample_job_run(&job, NULL);
    return 1;
}

int ossa_mixer_evaluate_pose(ossa_mixer *mx, ossa_soa_pose *pose)
{
    if (!mx || !pose || !pose->block || pose->bone_count != mx->skel->bone_count)
        return 0;
    if (evaluate_single_cycle(mx, pose))
        return 1;
    uint32_t n = mx->skel->bone_count;
    memset(mx->acc_layer, 0, (size_t)n * sizeof(float));
    memset(mx->acc, 0, (size_t)n * sizeof(float));
    for (uint32_t i = 0; i < mx->action_count; i++) {
        mix_slot *a = &mx->actions[i];
        if (a->id >= mx->clip_count)
            continue;
        /* An animation once played as a cycle carries 0.11's loop key for good. */
        ossa_wrap mode = mx->looped[a->id] ? OSSA_WRAP_LOOP : mx->desc.wrap;
        sample_into(mx, a, a->time, mode);
        blend_layer(mx, mx->clips[a->id], a->weight);
    }
    lock_layer(mx, pose);
    for (uint32_t i = 0; i < mx->cycle_count; i++) {
        mix_slot *c = &mx->cycles[i];
        if (c->id >= mx->clip_count)
            continue;
        sample_into(mx, c, ossa_mixer_cycle_time(mx, c), OSSA_WRAP_LOOP);
        blend_layer(mx, mx->clips[c->id], c->weight);
    }
    lock_layer(mx, pose);
    /* CalBone::calculateState: untouched bones take the rest pose. */
    const ossa_soa_pose *rest = &mx->skel->rest;
    for (uint32_t b = 0; b < n; b++) {
        if (mx->acc[b] != 0.0f)
            continue;
        pose->tx[b] = rest->tx[b]; pose->ty[b] = rest->ty[b]; pose->tz[b] = rest->tz[b];
        pose->qx[b] = rest->qx[b]; pose->qy[b] = rest->qy[b]; pose->qz[b] = rest->qz[b];
        pose->qw[b] = rest->qw[b];
        pose->sx[b] = rest->sx[b]; pose->sy[b] = rest->sy[b]; pose->sz[b] = rest->sz[b];
    }
    return 1;
}
