// C shim over libcal3d 0.11's C++ classes (the C wrapper has no keyframe, influence or
// physique accessors). Only the reference test uses it.
#include "cal3d_oracle.h"

#include <cal3d/cal3d.h>
#include <cal3d/corekeyframe.h>
#include <cal3d/coretrack.h>

#include <cstdio>
#include <string>

struct cal3d_ref {
    CalCoreModel core;
    cal3d_ref() : core("reference") {}
};

static void last_error(char *msg, size_t n)
{
    if (msg && n)
        std::snprintf(msg, n, "%s (%s)", CalError::getLastErrorDescription().c_str(),
                      CalError::getLastErrorText().c_str());
}

extern "C" {

cal3d_ref *cal3d_ref_new(void)
{
    return new cal3d_ref();
}

void cal3d_ref_free(cal3d_ref *ref)
{
    delete ref;
}

int cal3d_ref_load_skeleton(cal3d_ref *ref, const char *path, char *msg, size_t msg_size)
{
    CalCoreSkeletonPtr skel = CalLoader::loadCoreSkeleton(path);
    if (!skel) {
        last_error(msg, msg_size);
        return -1;
    }
    ref->core.setCoreSkeleton(skel.get());
    skel->calculateState();
    return 0;
}

int cal3d_ref_load_mesh(cal3d_ref *ref, const char *path, char *msg, size_t msg_size)
{
    // CalLoader directly: CalCoreModel's loaders refuse to run without a skeleton, and loose
    // meshes and animations are compared too.
    CalCoreMeshPtr mesh = CalLoader::loadCoreMesh(path);
    if (!mesh) {
        last_error(msg, msg_size);
        return -1;
    }
    return ref->core.addCoreMesh(mesh.get());
}

int cal3d_ref_load_anim(cal3d_ref *ref, const char *path, char *msg, size_t msg_size)
{
    CalCoreAnimationPtr anim = CalLoader::loadCoreAnimation(path, ref->core.getCoreSkeleton());
    if (!anim) {
        last_error(msg, msg_size);
        return -1;
    }
    return ref->core.addCoreAnimation(anim.get());
}

int cal3d_ref_material_colours(const char *path, unsigned char rgba[12], char *msg,
                               size_t msg_size)
{
    CalCoreMaterialPtr mat = CalLoader::loadCoreMaterial(std::string(path));
    if (!mat) {
        last_error(msg, msg_size);
        return -1;
    }
    const CalCoreMaterial::Color c[3] = {mat->getAmbientColor(), mat->getDiffuseColor(),
                                         mat->getSpecularColor()};
    for (int i = 0; i < 3; i++) {
        rgba[4 * i] = c[i].red;
        rgba[4 * i + 1] = c[i].green;
        rgba[4 * i + 2] = c[i].blue;
        rgba[4 * i + 3] = c[i].alpha;
    }
    return 0;
}

void cal3d_ref_scale(cal3d_ref *ref, float factor)
{
    // CalCoreModel::scale dereferences the skeleton unconditionally.
    if (ref->core.getCoreSkeleton()) {
        ref->core.scale(factor);
        ref->core.getCoreSkeleton()->calculateState();
        return;
    }
    for (int i = 0; i < ref->core.getCoreAnimationCount(); i++)
        ref->core.getCoreAnimation(i)->scale(factor);
    for (int i = 0; i < ref->core.getCoreMeshCount(); i++)
        ref->core.getCoreMesh(i)->scale(factor);
}

static CalCoreBone *bone_of(const cal3d_ref *ref, int bone)
{
    return const_cast<CalCoreModel &>(ref->core).getCoreSkeleton()->getCoreBone(bone);
}

int cal3d_ref_bone_count(const cal3d_ref *ref)
{
    CalCoreSkeleton *s = const_cast<CalCoreModel &>(ref->core).getCoreSkeleton();
    return s ? (int)s->getVectorCoreBone().size() : 0;
}

const char *cal3d_ref_bone_name(const cal3d_ref *ref, int bone)
{
    return bone_of(ref, bone)->getName().c_str();
}

int cal3d_ref_bone_parent(const cal3d_ref *ref, int bone)
{
    return bone_of(ref, bone)->getParentId();
}

static void put_vec(float out[3], const CalVector &v)
{
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
}

static void put_quat(float out[4], const CalQuaternion &q)
{
    out[0] = q.x;
    out[1] = q.y;
    out[2] = q.z;
    out[3] = q.w;
}

void cal3d_ref_bone_rest(const cal3d_ref *ref, int bone, float abs_t[3], float abs_r[4],
                         float space_t[3], float space_r[4])
{
    CalCoreBone *b = bone_of(ref, bone);
    put_vec(abs_t, b->getTranslationAbsolute());
    put_quat(abs_r, b->getRotationAbsolute());
    put_vec(space_t, b->getTranslationBoneSpace());
    put_quat(space_r, b->getRotationBoneSpace());
}

static CalCoreAnimation *anim_of(const cal3d_ref *ref, int anim)
{
    return const_cast<CalCoreModel &>(ref->core).getCoreAnimation(anim);
}

int cal3d_ref_anim_count(const cal3d_ref *ref)
{
    return const_cast<CalCoreModel &>(ref->core).getCoreAnimationCount();
}

float cal3d_ref_anim_duration(const cal3d_ref *ref, int anim)
{
    return anim_of(ref, anim)->getDuration();
}

int cal3d_ref_anim_track_count(const cal3d_ref *ref, int anim)
{
    return (int)anim_of(ref, anim)->getTrackCount();
}

long cal3d_ref_anim_key_total(const cal3d_ref *ref, int anim)
{
    return (long)anim_of(ref, anim)->getTotalNumberOfKeyframes();
}

int cal3d_ref_track_key_count(const cal3d_ref *ref, int anim, int bone)
{
    CalCoreTrack *t = anim_of(ref, anim)->getCoreTrack(bone);
    return t ? t->getCoreKeyframeCount() : -1;
}

void cal3d_ref_track_key(const cal3d_ref *ref, int anim, int bone, int key, float *time,
                         float t[3], float r[4])
{
    CalCoreKeyframe *k = anim_of(ref, anim)->getCoreTrack(bone)->getCoreKeyframe(key);
    *time = k->getTime();
    put_vec(t, k->getTranslation());
    put_quat(r, k->getRotation());
}

static CalCoreSubmesh *sub_of(const cal3d_ref *ref, int mesh, int sub)
{
    return const_cast<CalCoreModel &>(ref->core).getCoreMesh(mesh)->getCoreSubmesh(sub);
}

int cal3d_ref_mesh_count(const cal3d_ref *ref)
{
    return const_cast<CalCoreModel &>(ref->core).getCoreMeshCount();
}

int cal3d_ref_submesh_count(const cal3d_ref *ref, int mesh)
{
    return const_cast<CalCoreModel &>(ref->core).getCoreMesh(mesh)->getCoreSubmeshCount();
}

void cal3d_ref_submesh_info(const cal3d_ref *ref, int mesh, int sub, int *vertex_count,
                            int *face_count, int *spring_count)
{
    CalCoreSubmesh *s = sub_of(ref, mesh, sub);
    *vertex_count = s->getVertexCount();
    *face_count = s->getFaceCount();
    *spring_count = s->getSpringCount();
}

int cal3d_ref_vertex(const cal3d_ref *ref, int mesh, int sub, int v, float pos[3], float nrm[3])
{
    const CalCoreSubmesh::Vertex &vx = sub_of(ref, mesh, sub)->getVectorVertex()[(size_t)v];
    put_vec(pos, vx.position);
    put_vec(nrm, vx.normal);
    return (int)vx.vectorInfluence.size();
}

void cal3d_ref_influence(const cal3d_ref *ref, int mesh, int sub, int v, int i, int *bone,
                         float *weight)
{
    const CalCoreSubmesh::Influence &in =
        sub_of(ref, mesh, sub)->getVectorVertex()[(size_t)v].vectorInfluence[(size_t)i];
    *bone = in.boneId;
    *weight = in.weight;
}

float cal3d_ref_physique_weight(const cal3d_ref *ref, int mesh, int sub, int v)
{
    CalCoreSubmesh *s = sub_of(ref, mesh, sub);
    if (s->getSpringCount() <= 0 || (size_t)v >= s->getVectorPhysicalProperty().size())
        return 0.0f;
    return s->getVectorPhysicalProperty()[(size_t)v].weight;
}

void cal3d_ref_spring(const cal3d_ref *ref, int mesh, int sub, int spring, int vertex[2],
                      float *coefficient, float *idle_length)
{
    const CalCoreSubmesh::Spring &sp = sub_of(ref, mesh, sub)->getVectorSpring()[(size_t)spring];
    vertex[0] = sp.vertexId[0];
    vertex[1] = sp.vertexId[1];
    *coefficient = sp.springCoefficient;
    *idle_length = sp.idleLength;
}

void cal3d_ref_face(const cal3d_ref *ref, int mesh, int sub, int f, int idx[3])
{
    const CalCoreSubmesh::Face &face = sub_of(ref, mesh, sub)->getVectorFace()[(size_t)f];
    for (int k = 0; k < 3; k++)
        idx[k] = (int)face.vertexId[k];
}

long cal3d_ref_skin(cal3d_ref *ref, int anim, float time, float *positions, float *normals,
                    size_t capacity, float *mixer_time)
{
    CalModel model(&ref->core);
    for (int i = 0; i < ref->core.getCoreMeshCount(); i++)
        if (!model.attachMesh(i))
            return -1;
    if (anim >= 0 && !model.getMixer()->blendCycle(anim, 1.0f, 0.0f))
        return -1;
    // The first update only brings the cycle to its full weight: the mixer's duration is still
    // 0 during it, so its clock stays at 0. The second one moves the clock to `time`.
    model.update(0.0f);
    model.update(time);
    *mixer_time = model.getMixer()->getAnimationTime();
    CalRenderer *r = model.getRenderer();
    if (!r->beginRendering())
        return -1;
    long total = 0;
    for (int m = 0; m < r->getMeshCount(); m++) {
        for (int s = 0; s < r->getSubmeshCount(m); s++) {
            if (!r->selectMeshSubmesh(m, s)) {
                r->endRendering();
                return -1;
            }
            int n = r->getVertexCount();
            if (n < 0 || (size_t)total + (size_t)n > capacity) {
                r->endRendering();
                return -1;
            }
            r->getVertices(positions + 3 * total);
            r->getNormals(normals + 3 * total);
            total += n;
        }
    }
    r->endRendering();
    return total;
}

} // extern "C"
