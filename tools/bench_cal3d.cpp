// libcal3d side of `ossa bench` (see bench_cal3d.h). Cal3D stores quaternions conjugated
// relative to Ossa's Hamilton convention: (x, y, z, w) -> (-x, -y, -z, w).
#include "bench_cal3d.h"

#include <cal3d/cal3d.h>
#include <cal3d/corekeyframe.h>
#include <cal3d/coretrack.h>

#include <cstdio>
#include <new>
#include <vector>

struct bench_cal3d {
    CalCoreModel core;
    CalModel *model = nullptr;
    uint32_t mesh_count = 0; // a crowd's core: meshes each actor attaches
    // ~CalCoreAnimation frees neither its tracks nor their keyframes: we do
    // (CalCoreTrack::destroy deletes a track's keyframes, ~CalCoreTrack asserts it was called).
    std::vector<CalCoreTrack *> tracks;
    bench_cal3d() : core("ossa-bench") {}
    ~bench_cal3d()
    {
        delete model;
        for (CalCoreTrack *t : tracks) {
            t->destroy();
            delete t;
        }
    }
};

static CalQuaternion cal_quat(const float q[4])
{
    return CalQuaternion(-q[0], -q[1], -q[2], q[3]);
}

static CalVector cal_vec(const float v[3])
{
    return CalVector(v[0], v[1], v[2]);
}

static bool build_skeleton(bench_cal3d *c, const ossa_model *m)
{
    CalCoreSkeleton *skel = new CalCoreSkeleton();
    c->core.setCoreSkeleton(skel); // the core model's RefPtr owns it from here
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const ossa_bone *b = &m->bones[i];
        CalCoreBone *cb = new CalCoreBone(b->name ? b->name : "");
        cb->setParentId(b->parent);
        cb->setTranslation(cal_vec(b->rest_t));
        cb->setRotation(cal_quat(b->rest_r));
        cb->setTranslationBoneSpace(cal_vec(b->inv_bind_t));
        cb->setRotationBoneSpace(cal_quat(b->inv_bind_r));
        cb->setCoreSkeleton(skel);
        if (skel->addCoreBone(cb) != (int)i) {
            delete cb;
            return false;
        }
        skel->mapCoreBoneName((int)i, cb->getName());
        if (b->parent >= 0)
            skel->getCoreBone(b->parent)->addChildId((int)i);
    }
    skel->calculateState();
    return true;
}

static bool build_mesh(bench_cal3d *c, const ossa_mesh *mesh)
{
    CalCoreMesh *cm = new CalCoreMesh();
    if (c->core.addCoreMesh(cm) < 0)
        return false;
    for (uint32_t s = 0; s < mesh->submesh_count; s++) {
        const ossa_submesh *sm = &mesh->submeshes[s];
        CalCoreSubmesh *cs = new CalCoreSubmesh();
        if (cm->addCoreSubmesh(cs) < 0) {
            delete cs;
            return false;
        }
        // Cloth as the instance runs it: springs and physique weights, both or neither.
        bool cloth = sm->spring_count && sm->physique_weights;
        if (!cs->reserve((int)sm->vertex_count, 0, (int)sm->face_count,
                         cloth ? (int)sm->spring_count : 0))
            return false;
        for (uint32_t i = 0; cloth && i < sm->spring_count; i++) {
            CalCoreSubmesh::Spring spring;
            spring.vertexId[0] = (int)sm->springs[i].vertex[0];
            spring.vertexId[1] = (int)sm->springs[i].vertex[1];
            spring.springCoefficient = sm->springs[i].coefficient;
            spring.idleLength = sm->springs[i].idle_length;
            if (!cs->setSpring((int)i, spring))
                return false;
        }
        for (uint32_t v = 0; cloth && v < sm->vertex_count; v++) {
            CalCoreSubmesh::PhysicalProperty prop;
            prop.weight = sm->physique_weights[v];
            if (!cs->setPhysicalProperty((int)v, prop))
                return false;
        }
        cs->setCoreMaterialThreadId(0);
        cs->setLodCount(0);
        for (uint32_t v = 0; v < sm->vertex_count; v++) {
            CalCoreSubmesh::Vertex vx;
            vx.position = cal_vec(sm->positions + 3 * (size_t)v);
            vx.normal = cal_vec(sm->normals + 3 * (size_t)v);
            vx.collapseId = -1;
            vx.faceCollapseCount = 0;
            for (uint32_t k = sm->influence_start[v]; k < sm->influence_start[v + 1]; k++) {
                CalCoreSubmesh::Influence in;
                in.boneId = (int)sm->influences[k].bone;
                in.weight = sm->influences[k].weight;
                vx.vectorInfluence.push_back(in);
            }
            cs->setVertex((int)v, vx);
        }
        for (uint32_t f = 0; f < sm->face_count; f++) {
            CalCoreSubmesh::Face face;
            for (int k = 0; k < 3; k++)
                face.vertexId[k] = (CalIndex)sm->indices[3 * (size_t)f + k];
            cs->setFace((int)f, face);
        }
    }
    return true;
}

static bool build_clip(bench_cal3d *c, const ossa_clip *clip)
{
    CalCoreAnimation *anim = new CalCoreAnimation();
    if (c->core.addCoreAnimation(anim) < 0)
        return false;
    anim->setName(clip->name ? clip->name : "");
    anim->setDuration(clip->duration);
    for (uint32_t t = 0; t < clip->track_count; t++) {
        const ossa_track *tr = &clip->tracks[t];
        CalCoreTrack *ct = new CalCoreTrack();
        c->tracks.push_back(ct);
        if (!ct->create() || !ct->setCoreBoneId((int)tr->bone))
            return false;
        for (uint32_t k = 0; k < tr->key_count; k++) {
            CalCoreKeyframe *key = new CalCoreKeyframe();
            key->create();
            key->setTime(tr->times[k]);
            key->setTranslation(cal_vec(tr->translations + 3 * (size_t)k));
            key->setRotation(cal_quat(tr->rotations + 4 * (size_t)k));
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

static bench_cal3d *fail(bench_cal3d *c, char *msg, size_t msg_size, const char *what)
{
    if (msg && msg_size)
        std::snprintf(msg, msg_size, "libcal3d: %s failed: %s", what,
                      CalError::getLastErrorDescription().c_str());
    delete c;
    return nullptr;
}

extern "C" {

bench_cal3d *bench_cal3d_new(const ossa_model *m, int clip, char *msg, size_t msg_size)
{
    bench_cal3d *c = new (std::nothrow) bench_cal3d();
    if (!c)
        return nullptr;
    try {
        if (!build_skeleton(c, m))
            return fail(c, msg, msg_size, "building the skeleton");
        for (uint32_t i = 0; i < m->mesh_count; i++)
            if (!build_mesh(c, &m->meshes[i]))
                return fail(c, msg, msg_size, "building a mesh");
        if (clip >= 0 && !build_clip(c, &m->clips[clip]))
            return fail(c, msg, msg_size, "building the animation");
        if (clip == BENCH_CAL3D_ALL_CLIPS) {
            for (uint32_t i = 0; i < m->clip_count; i++)
                if (!build_clip(c, &m->clips[i]))
                    return fail(c, msg, msg_size, "building the animations");
            c->mesh_count = m->mesh_count;
            return c;
        }
        c->model = new CalModel(&c->core);
        for (uint32_t i = 0; i < m->mesh_count; i++)
            if (!c->model->attachMesh((int)i))
                return fail(c, msg, msg_size, "attaching a mesh");
        if (clip >= 0 && !c->model->getMixer()->blendCycle(0, 1.0f, 0.0f))
            return fail(c, msg, msg_size, "blendCycle");
        // The first update brings the cycle to full weight (the mixer's clock stays at 0).
        c->model->update(0.0f);
    } catch (const std::bad_alloc &) {
        return fail(c, msg, msg_size, "allocation");
    }
    return c;
}

void bench_cal3d_free(bench_cal3d *c)
{
    delete c;
}

void bench_cal3d_pose(bench_cal3d *c, float dt)
{
    CalMixer *mixer = c->model->getMixer();
    mixer->updateAnimation(dt);
    mixer->updateSkeleton();
}

float bench_cal3d_time(const bench_cal3d *c)
{
    return c->model->getMixer()->getAnimationTime();
}

size_t bench_cal3d_skin(bench_cal3d *c, float *out)
{
    CalPhysique *phys = c->model->getPhysique();
    size_t total = 0;
    for (CalMesh *mesh : c->model->getVectorMesh()) {
        for (CalSubmesh *sub : mesh->getVectorSubmesh()) {
            int n = phys->calculateVerticesAndNormals(sub, out + 6 * total);
            if (n > 0)
                total += (size_t)n;
        }
    }
    return total;
}

struct bench_cal3d_actor {
    CalModel *model = nullptr;
    int playing = -1;
    ~bench_cal3d_actor() { delete model; }
};

bench_cal3d_actor *bench_cal3d_actor_new(bench_cal3d *core)
{
    bench_cal3d_actor *a = new (std::nothrow) bench_cal3d_actor();
    if (!a)
        return nullptr;
    try {
        a->model = new CalModel(&core->core);
        for (uint32_t i = 0; i < core->mesh_count; i++)
            if (!a->model->attachMesh((int)i)) {
                delete a;
                return nullptr;
            }
    } catch (const std::bad_alloc &) {
        delete a;
        return nullptr;
    }
    return a;
}

void bench_cal3d_actor_free(bench_cal3d_actor *a)
{
    delete a;
}

int bench_cal3d_actor_play(bench_cal3d_actor *a, int clip, float fade)
{
    CalMixer *mixer = a->model->getMixer();
    if (a->playing >= 0 && a->playing != clip && !mixer->clearCycle(a->playing, fade))
        return 0;
    a->playing = clip;
    return mixer->blendCycle(clip, 1.0f, fade) ? 1 : 0;
}

void bench_cal3d_actor_set_time(bench_cal3d_actor *a, float time)
{
    a->model->getMixer()->setAnimationTime(time);
}

void bench_cal3d_actor_set_speed(bench_cal3d_actor *a, float factor)
{
    a->model->getMixer()->setTimeFactor(factor);
}

// A submesh with springs keeps its vertices inside the CalSubmesh (CalPhysique::update skins
// the ones its springs do not own, CalSpringSystem::update moves the others): they are copied
// out, as CalRenderer::getVertices / getNormals would. The others are skinned here.
static size_t write_vertices(CalModel *model, float *out)
{
    CalPhysique *phys = model->getPhysique();
    size_t total = 0;
    for (CalMesh *mesh : model->getVectorMesh())
        for (CalSubmesh *sub : mesh->getVectorSubmesh()) {
            if (sub->getCoreSubmesh()->getSpringCount() > 0 && sub->hasInternalData()) {
                std::vector<CalVector> &pos = sub->getVectorVertex();
                std::vector<CalVector> &nrm = sub->getVectorNormal();
                for (size_t v = 0; v < pos.size(); v++) {
                    float *o = out + 6 * (total + v);
                    o[0] = pos[v].x, o[1] = pos[v].y, o[2] = pos[v].z;
                    o[3] = nrm[v].x, o[4] = nrm[v].y, o[5] = nrm[v].z;
                }
                total += pos.size();
                continue;
            }
            int n = phys->calculateVerticesAndNormals(sub, out + 6 * total);
            if (n > 0)
                total += (size_t)n;
        }
    return total;
}

size_t bench_cal3d_actor_frame(bench_cal3d_actor *a, float dt, float *out)
{
    // CalModel::update: updateAnimation, updateSkeleton, the morph mixer, CalPhysique::update
    // (the submeshes with springs) and CalSpringSystem::update.
    a->model->update(dt);
    return write_vertices(a->model, out);
}

void bench_cal3d_actor_reset_springs(bench_cal3d_actor *a)
{
    // 0.11 has no CalSpringSystem::resetPositions: the particles are set by hand where the
    // current pose skins them (what ossa_instance_seek does to the instance's cloth). CalPhysique
    // skips the vertices springs own, so they are skinned here, as it would skin them.
    a->model->getMixer()->updateSkeleton();
    std::vector<CalBone *> &bones = a->model->getSkeleton()->getVectorBone();
    for (CalMesh *mesh : a->model->getVectorMesh())
        for (CalSubmesh *sub : mesh->getVectorSubmesh()) {
            CalCoreSubmesh *core = sub->getCoreSubmesh();
            if (core->getSpringCount() <= 0 || !sub->hasInternalData())
                continue;
            std::vector<CalSubmesh::PhysicalProperty> &props = sub->getVectorPhysicalProperty();
            std::vector<CalCoreSubmesh::PhysicalProperty> &weights =
                core->getVectorPhysicalProperty();
            std::vector<CalCoreSubmesh::Vertex> &bind = core->getVectorVertex();
            std::vector<CalVector> &pos = sub->getVectorVertex();
            for (size_t v = 0; v < props.size() && v < pos.size(); v++) {
                if (weights[v].weight <= 0.0f)
                    continue;
                CalVector p(0.0f, 0.0f, 0.0f);
                for (const CalCoreSubmesh::Influence &in : bind[v].vectorInfluence) {
                    CalBone *bone = bones[(size_t)in.boneId];
                    CalVector q = bind[v].position;
                    q *= bone->getRotationBoneSpace();
                    q += bone->getTranslationBoneSpace();
                    p += in.weight * q;
                }
                props[v].position = p;
                props[v].positionOld = p;
                props[v].force = CalVector(0.0f, 0.0f, 0.0f);
                pos[v] = p;
            }
        }
}

} // extern "C"
