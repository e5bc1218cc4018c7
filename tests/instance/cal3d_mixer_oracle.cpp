// C shim over libcal3d 0.11's CalModel / CalMixer for the mixer reference test.
#include "cal3d_mixer_oracle.h"

#include <cal3d/cal3d.h>

#include <cstdio>
#include <memory>

struct cal3d_mix {
    CalCoreModel core;
    std::unique_ptr<CalModel> model;
    cal3d_mix() : core("mixer-reference") {}
};

static void last_error(char *msg, size_t n, const char *path)
{
    if (msg && n)
        std::snprintf(msg, n, "%s: %s (%s)", path, CalError::getLastErrorDescription().c_str(),
                      CalError::getLastErrorText().c_str());
}

extern "C" {

cal3d_mix *cal3d_mix_new(const char *skeleton, const char *const *anims, int anim_count,
                         const char *const *meshes, int mesh_count, char *msg, size_t msg_size)
{
    std::unique_ptr<cal3d_mix> mix(new cal3d_mix());
    if (!mix->core.loadCoreSkeleton(skeleton)) {
        last_error(msg, msg_size, skeleton);
        return nullptr;
    }
    for (int i = 0; i < anim_count; i++)
        if (mix->core.loadCoreAnimation(anims[i]) != i) {
            last_error(msg, msg_size, anims[i]);
            return nullptr;
        }
    for (int i = 0; i < mesh_count; i++)
        if (mix->core.loadCoreMesh(meshes[i]) != i) {
            last_error(msg, msg_size, meshes[i]);
            return nullptr;
        }
    mix->model.reset(new CalModel(&mix->core));
    for (int i = 0; i < mesh_count; i++)
        if (!mix->model->attachMesh(i)) {
            last_error(msg, msg_size, meshes[i]);
            return nullptr;
        }
    return mix.release();
}

void cal3d_mix_free(cal3d_mix *mix)
{
    delete mix;
}

int cal3d_mix_blend_cycle(cal3d_mix *mix, int id, float weight, float delay)
{
    return mix->model->getMixer()->blendCycle(id, weight, delay) ? 1 : 0;
}

int cal3d_mix_clear_cycle(cal3d_mix *mix, int id, float delay)
{
    return mix->model->getMixer()->clearCycle(id, delay) ? 1 : 0;
}

int cal3d_mix_execute_action(cal3d_mix *mix, int id, float in, float out, float weight,
                             int auto_lock)
{
    return mix->model->getMixer()->executeAction(id, in, out, weight, auto_lock != 0) ? 1 : 0;
}

int cal3d_mix_remove_action(cal3d_mix *mix, int id)
{
    return mix->model->getMixer()->removeAction(id) ? 1 : 0;
}

void cal3d_mix_update(cal3d_mix *mix, float dt)
{
    mix->model->update(dt);
}

float cal3d_mix_time(cal3d_mix *mix)
{
    return mix->model->getMixer()->getAnimationTime();
}

float cal3d_mix_duration(cal3d_mix *mix)
{
    return mix->model->getMixer()->getAnimationDuration();
}

int cal3d_mix_bone_count(cal3d_mix *mix)
{
    return (int)mix->model->getSkeleton()->getVectorBone().size();
}

void cal3d_mix_bone(cal3d_mix *mix, int bone, float t[3], float r[4])
{
    CalBone *b = mix->model->getSkeleton()->getBone(bone);
    const CalVector &v = b->getTranslationAbsolute();
    const CalQuaternion &q = b->getRotationAbsolute();
    t[0] = v.x; t[1] = v.y; t[2] = v.z;
    r[0] = q.x; r[1] = q.y; r[2] = q.z; r[3] = q.w;
}

int cal3d_mix_set_spring_forces(cal3d_mix *mix, const float gravity[3], const float force[3])
{
    CalSpringSystem *s = mix->model->getSpringSystem();
    if (!s)
        return 0;
    s->setGravityVector(CalVector(gravity[0], gravity[1], gravity[2]));
    s->setForceVector(CalVector(force[0], force[1], force[2]));
    return 1;
}

long cal3d_mix_vertices(cal3d_mix *mix, float *positions, size_t capacity)
{
    CalRenderer *r = mix->model->getRenderer();
    if (!r->beginRendering())
        return -1;
    long total = 0;
    for (int m = 0; m < r->getMeshCount(); m++)
        for (int s = 0; s < r->getSubmeshCount(m); s++) {
            int n = r->selectMeshSubmesh(m, s) ? r->getVertexCount() : -1;
            if (n < 0 || (size_t)total + (size_t)n > capacity) {
                r->endRendering();
                return -1;
            }
            r->getVertices(positions + 3 * total);
            total += n;
        }
    r->endRendering();
    return total;
}

} // extern "C"
