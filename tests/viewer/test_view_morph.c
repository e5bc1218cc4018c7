/* The viewer's scene with Cal3D morph clips and springs, without GL, on the hand-built model of
 * morph_fixture.h (pose and morph weights known exactly). Checks: the morph clip plays as a looping cycle of weight 1 on the
 * clock given (weights, wrap) and the skinned vertex is the morphed one moved by the bone; the
 * free cloth vertices move over spring steps while the rigid ones stay skinned, every skin of a
 * frame shows the same cloth, a zero step changes nothing, and a reset puts the cloth at rest
 * where the current pose skins it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "morph_fixture.h"
#include "scene.h"
#include "test_common.h"

/* Skinned position of file vertex v of part `part` (layout order through the remap). */
static const float *vertex_at(const view_scene *s, const float *pos, uint32_t part, uint32_t v)
{
    const ossa_instance_part *p = &s->parts[part];
    return pos + 3 * ((size_t)s->first_vertex[part] + ossa_skin_mesh_remap(p->skin)[v]);
}

static void check_morphs(view_scene *s, float *pos, float *nrm)
{
    const uint32_t shift = 0; /* the clip that moves the bone */
    CHECK(s->morph_mixer != NULL && s->morph_part_count == 1);
    CHECK(s->parts[0].morph_weights != NULL && s->parts[1].morph_weights == NULL);
    /* Clock time -> expected weight: keys 0, 1, 0 at 0, 1, 2 s, looping over 2 s. */
    const float times[5] = {0.0f, 0.5f, 1.0f, 2.5f, -0.25f};
    const float expect[5] = {0.0f, 0.5f, 1.0f, 0.5f, 0.25f};
    for (int i = 0; i < 5; i++) {
        view_scene_pose(s, shift, 0.0f);
        ossa_instance_set_morph_time(s->instance, times[i]);
        view_scene_sync(s);
        CHECKF(fabsf(s->parts[0].morph_weights[0] - expect[i]) < 1e-5f,
               "time %g: weight %g, want %g", (double)times[i],
               (double)s->parts[0].morph_weights[0], (double)expect[i]);
        view_scene_skin(s, 0, s->part_count, pos, nrm);
        /* The bone moves everything +1 along X; the morph moves vertex 0 by -weight first. */
        const float *v0 = vertex_at(s, pos, 0, 0), *v1 = vertex_at(s, pos, 0, 1);
        CHECKF(fabsf(v0[0] - (1.0f - expect[i])) < 1e-5f && fabsf(v0[1]) < 1e-5f &&
                   fabsf(v0[2]) < 1e-5f,
               "time %g: vertex 0 at (%g %g %g)", (double)times[i], (double)v0[0],
               (double)v0[1], (double)v0[2]);
        CHECK(fabsf(v1[0] - 2.0f) < 1e-5f && fabsf(v1[2]) < 1e-6f); /* not a morph vertex */
    }
    CHECK(fabsf(s->morph_time - 1.75f) < 1e-5f); /* -0.25 wrapped into the 2 s loop */
    /* Non-finite times show time 0, never NaN weights. */
    ossa_instance_set_morph_time(s->instance, NAN);
    view_scene_sync(s);
    CHECK(s->parts[0].morph_weights[0] == 0.0f);
}

static void check_springs(view_scene *s, float *pos, float *nrm)
{
    const uint32_t shift = 0; /* the clip that moves the bone */
    CHECK(s->spring_part_count == 1 && s->parts[1].spring != NULL && s->parts[0].spring == NULL);
    view_scene_pose(s, shift, 0.0f);
    ossa_instance_springs_reset(s->instance);
    view_scene_skin(s, 0, s->part_count, pos, nrm);
    /* At rest every vertex shows its skinned place (the cloth is reset where the pose puts it,
     * as Cal3D's resetPositions does): the bind shape moved +1 along X. */
    const float *r0 = vertex_at(s, pos, 1, 0), *f2 = vertex_at(s, pos, 1, 2);
    CHECK(fabsf(r0[0] - 1.0f) < 1e-6f && fabsf(f2[0] - 1.0f) < 1e-6f && fabsf(f2[1] + 1.0f) < 1e-6f);

    float first[3] = {0, 0, 0};
    for (int frame = 0; frame < 30; frame++) {
        ossa_instance_springs_step(s->instance, 1.0f / 30.0f);
        if (frame == 0)
            memcpy(first, s->parts[1].spring_positions +
                              3 * (size_t)ossa_skin_mesh_remap(s->parts[1].skin)[2],
                   sizeof first);
    }
    view_scene_skin(s, 0, s->part_count, pos, nrm);
    float after[3];
    memcpy(after, vertex_at(s, pos, 1, 2), sizeof after);
    /* The free vertex fell (gravity is -Z) and was pulled along the rigid row (+1 X). */
    CHECKF(after[2] < first[2] - 0.01f && after[2] < -0.05f, "free vertex z %g then %g",
           (double)first[2], (double)after[2]);
    CHECKF(after[0] > 0.1f, "free vertex x %g", (double)after[0]);
    r0 = vertex_at(s, pos, 1, 0);
    CHECK(fabsf(r0[0] - 1.0f) < 1e-6f && fabsf(r0[2]) < 1e-6f); /* rigid: skinned */
    /* A second skin of the same frame (bounds, mounts) shows the same cloth; no step, no
     * change; zero and non-finite steps do nothing. */
    ossa_instance_springs_step(s->instance, 0.0f);
    ossa_instance_springs_step(s->instance, -1.0f);
    ossa_instance_springs_step(s->instance, NAN);
    float min[3], max[3];
    view_scene_bounds(s, min, max);
    CHECK(min[2] <= after[2] + 1e-6f);
    view_scene_skin(s, 0, s->part_count, pos, nrm);
    CHECK(memcmp(after, vertex_at(s, pos, 1, 2), sizeof after) == 0);
    /* A reset (a jump in time) puts the cloth at rest where the pose skins it again; at the
     * bind pose (no clip) that is the bind shape. */
    ossa_instance_springs_reset(s->instance);
    view_scene_skin(s, 0, s->part_count, pos, nrm);
    f2 = vertex_at(s, pos, 1, 2);
    CHECK(fabsf(f2[0] - 1.0f) < 1e-6f && fabsf(f2[1] + 1.0f) < 1e-6f && fabsf(f2[2]) < 1e-6f);
    view_scene_pose(s, OSSA_INSTANCE_NO_CLIP, 0.0f);
    ossa_instance_springs_reset(s->instance);
    view_scene_skin(s, 0, s->part_count, pos, nrm);
    f2 = vertex_at(s, pos, 1, 2);
    CHECK(fabsf(f2[0]) < 1e-6f && fabsf(f2[1] + 1.0f) < 1e-6f && fabsf(f2[2]) < 1e-6f);
    view_scene_pose(s, shift, 0.0f);
    /* A huge step is clamped, so the cloth stays finite and near. */
    ossa_instance_springs_step(s->instance, 1000.0f);
    view_scene_skin(s, 0, s->part_count, pos, nrm);
    f2 = vertex_at(s, pos, 1, 2);
    CHECK(isfinite(f2[2]) && fabsf(f2[2]) < 10.0f);
}

int main(void)
{
    static morph_fixture f;
    morph_fixture_make(&f);
    view_scene s;
    CHECK(view_scene_init(&s, &f.model));
    CHECK(s.part_count == 2 && s.parts[0].skin && s.parts[1].skin);
    if (s.part_count != 2 || !s.parts[0].skin || !s.parts[1].skin)
        return test_finish("viewer-morph");
    float *pos = calloc(3 * s.vertex_count, sizeof(float));
    float *nrm = calloc(3 * s.vertex_count, sizeof(float));
    CHECK(pos && nrm);
    if (pos && nrm) {
        check_morphs(&s, pos, nrm);
        check_springs(&s, pos, nrm);
    }
    free(pos);
    free(nrm);
    view_scene_free(&s);

    /* Without morph clips nothing plays, and parts get no weight buffers. */
    morph_fixture_make(&f);
    f.model.morph_clip_count = 0;
    CHECK(view_scene_init(&s, &f.model));
    CHECK(!s.morph_mixer && s.morph_part_count == 0 && !s.parts[0].morph_weights);
    CHECK(s.spring_part_count == 1);
    view_scene_free(&s);
    return test_finish("viewer-morph");
}
