// libcal3d 0.11 core model assembled from an ossa_model in memory (cal3d_synth_oracle.h).
// Cal3D's quaternions are the conjugates of Ossa's: (x, y, z, w) <-> (-x, -y, -z, w).
#include "cal3d_synth_oracle.h"

#include <cal3d/cal3d.h>
#include <cal3d/corekeyframe.h>
#include <cal3d/coretrack.h>

#include <cstdio>
#include <memory>
#include <new>
#include <vector>

struct cal3d_synth {
    CalCoreModel core;
    std::unique_ptr<CalModel> model;
    // The core animations do not own their tracks in 0.11; destroy() frees a track's keys,
    // the loop keys blendCycle appends included.
    std::vector<CalCoreTrack *> tracks;
    std::vector<std::vector<CalCoreTrack *>> clip_tracks;
    cal3d_synth() : core("sampler-reference") {}
    ~cal3d_synth()
    {
        model.reset();
        for (CalCoreTrack *t : tracks) {
            t->destroy();
            delete t;
        }
    }
};

static CalQuaternion to_cal(const float *q)
{
    return CalQuaternion(-q[0], -q[1], -q[2], q[3]);
}

static CalVector vec(const float *v)
{
    return CalVector(v[0], v[1], v[2]);
}

static bool add_skeleton(cal3d_synth *s, const ossa_model *m)
{
    CalCoreSkeleton *skel = new CalCoreSkeleton();
    s->core.setCoreSkeleton(skel); // owned by the core model's reference from here on
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const ossa_bone &b = m->bones[i];
        char name[32];
        std::snprintf(name, sizeof name, "bone%u", i);
        CalCoreBone *cb = new CalCoreBone(name);
        cb->setParentId(b.parent);
        cb->setTranslation(vec(b.rest_t));
        cb->setRotation(to_cal(b.rest_r));
        cb->setTranslationBoneSpace(vec(b.inv_bind_t));
        cb->setRotationBoneSpace(to_cal(b.inv_bind_r));
        cb->setCoreSkeleton(skel);
        if (skel->addCoreBone(cb) != (int)i) {
            delete cb;
            return false;
        }
        skel->mapCoreBoneName((int)i, name);
        if (b.parent >= 0)
            skel->getCoreBone(b.parent)->addChildId((int)i);
    }
    skel->calculateState();
    return true;
}

static bool add_clip(cal3d_synth *s, const ossa_clip &clip)
{
    CalCoreAnimation *anim = new CalCoreAnimation();
    if (s->core.addCoreAnimation(anim) < 0)
        return false;
    anim->setDuration(clip.duration);
    s->clip_tracks.emplace_back();
    for (uint32_t t = 0; t < clip.track_count; t++) {
        const ossa_track &tr = clip.tracks[t];
        CalCoreTrack *ct = new CalCoreTrack();
        s->tracks.push_back(ct);
        s->clip_tracks.back().push_back(ct);
        if (!ct->create() || !ct->setCoreBoneId((int)tr.bone))
            return false;
        for (uint32_t k = 0; k < tr.key_count; k++) {
            CalCoreKeyframe *key = new CalCoreKeyframe();
            key->create();
            key->setTime(tr.times[k]);
            key->setTranslation(vec(tr.translations + 3 * (size_t)k));
            key->setRotation(to_cal(tr.rotations + 4 * (size_t)k));
            if (!ct->addCoreKeyframe(key)) {
                delete key;
                return false;
            }
        }
        if (!anim->addCoreTrack(ct))
            return false;
    }
    return true;
}

extern "C" {

cal3d_synth *cal3d_synth_new(const ossa_model *m, char *msg, size_t msg_size)
{
    std::unique_ptr<cal3d_synth> s(new (std::nothrow) cal3d_synth());
    const char *what = nullptr;
    try {
        if (!s)
            what = "allocation";
        else if (!add_skeleton(s.get(), m))
            what = "the skeleton";
        for (uint32_t c = 0; !what && c < m->clip_count; c++)
            if (!add_clip(s.get(), m->clips[c]))
                what = "a clip";
        if (!what && !cal3d_synth_reset(s.get()))
            what = "the model";
    } catch (const std::bad_alloc &) {
        what = "allocation";
    }
    if (what) {
        if (msg && msg_size)
            std::snprintf(msg, msg_size, "libcal3d: building %s failed: %s", what,
                          CalError::getLastErrorDescription().c_str());
        return nullptr;
    }
    return s.release();
}

void cal3d_synth_free(cal3d_synth *s)
{
    delete s;
}

int cal3d_synth_reset(cal3d_synth *s)
{
    s->model.reset();
    s->model.reset(new CalModel(&s->core));
    return 1;
}

int cal3d_synth_blend_cycle(cal3d_synth *s, int id, float weight, float delay)
{
    return s->model->getMixer()->blendCycle(id, weight, delay) ? 1 : 0;
}

void cal3d_synth_set_time(cal3d_synth *s, float time)
{
    s->model->getMixer()->setAnimationTime(time);
}

void cal3d_synth_update(cal3d_synth *s, float dt)
{
    s->model->update(dt);
}

float cal3d_synth_time(cal3d_synth *s)
{
    return s->model->getMixer()->getAnimationTime();
}

float cal3d_synth_duration(cal3d_synth *s)
{
    return s->model->getMixer()->getAnimationDuration();
}

void cal3d_synth_bone(cal3d_synth *s, int bone, float t[3], float r[4])
{
    CalBone *b = s->model->getSkeleton()->getBone(bone);
    const CalVector &v = b->getTranslationAbsolute();
    const CalQuaternion &q = b->getRotationAbsolute();
    t[0] = v.x;
    t[1] = v.y;
    t[2] = v.z;
    r[0] = -q.x;
    r[1] = -q.y;
    r[2] = -q.z;
    r[3] = q.w;
}

int cal3d_synth_key_count(cal3d_synth *s, int clip, int track)
{
    return s->clip_tracks[(size_t)clip][(size_t)track]->getCoreKeyframeCount();
}

int cal3d_synth_track_state(cal3d_synth *s, int clip, int track, float time, float t[3],
                            float r[4])
{
    CalVector v;
    CalQuaternion q;
    if (!s->clip_tracks[(size_t)clip][(size_t)track]->getState(time, v, q))
        return 0;
    t[0] = v.x;
    t[1] = v.y;
    t[2] = v.z;
    r[0] = -q.x;
    r[1] = -q.y;
    r[2] = -q.z;
    r[3] = q.w;
    return 1;
}

} // extern "C"
