/* The instance's clock way (instance_clock.c) on the demo: a tick shows the clock's clip at the
 * clock's time (the same palette as posing that clip there by hand), pause stops time, morphs
 * and the cloth, speed and reverse move the clock, the end of a clip played once is shown just
 * before it; switching clips cross-fades in the skeletal mixer (both clips weighted half way,
 * the new one alone at the end, a second switch going on from the blend), a cut when the fade
 * is 0; bad arguments are refused. */
#include <math.h>
#include <string.h>

#include "ossa/ossa.h"
#include "demo.h"
#include "test_common.h"

/* Largest difference between the palettes of two instances of one model. */
static float palette_gap(const ossa_instance *a, const ossa_instance *b)
{
    const float *pa = ossa_instance_palette(a), *pb = ossa_instance_palette(b);
    float gap = 0.0f;
    for (size_t k = 0; k < 12 * (size_t)ossa_instance_model(a)->bone_count; k++)
        gap = fmaxf(gap, fabsf(pa[k] - pb[k]));
    return gap;
}

int main(void)
{
    ossa_model *m = NULL;
    ossa_error err;
    CHECK(ossa_demo_model(&m, &err) == OSSA_OK);
    if (!m)
        return test_finish("anim-instance-clock");
    CHECK(m->clip_count >= 2);
    ossa_instance *inst = NULL, *ref = NULL;
    CHECK(ossa_instance_create(m, NULL, &inst, &err) == OSSA_OK);
    CHECK(ossa_instance_create(m, NULL, &ref, &err) == OSSA_OK);
    if (!inst || !ref)
        return test_finish("anim-instance-clock");
    ossa_clock *c = ossa_instance_clock(inst);
    CHECK(c->clip == 0 && c->time == 0.0f && c->speed == 1.0f && c->playing);
    CHECK(c->clip_count == m->clip_count && c->duration == m->clips[0].duration);

    /* A tick is the clip posed at the clock's time. */
    ossa_instance_tick(inst, 0.3f);
    CHECK_NEAR(c->time, 0.3, 1e-6);
    ossa_instance_pose_clip(ref, 0, 0.3f);
    CHECKF(palette_gap(inst, ref) == 0.0f, "tick vs pose_clip: %g", (double)palette_gap(inst, ref));
    CHECK(ossa_instance_vertex_clip(inst) == 0);

    /* Reverse at double speed; paused, nothing moves. */
    ossa_clock_scale_speed(c, -2.0f);
    ossa_instance_tick(inst, 0.1f);
    CHECK_NEAR(c->time, 0.1, 1e-6);
    ossa_clock_toggle(c);
    float morph_before = ossa_instance_morph_time(inst);
    ossa_instance_tick(inst, 0.5f);
    CHECK_NEAR(c->time, 0.1, 1e-6);
    CHECK(ossa_instance_morph_time(inst) == morph_before);
    ossa_instance_pose_clip(ref, 0, c->time);
    CHECK(palette_gap(inst, ref) == 0.0f);
    ossa_clock_toggle(c);
    ossa_clock_scale_speed(c, -0.5f);

    /* Played once, the end is shown just before it, as the sampler's loop would wrap it. */
    ossa_clock_set_mode(c, OSSA_WRAP_CLAMP);
    ossa_instance_tick(inst, 10.0f);
    CHECK(!c->playing && c->time == c->duration);
    ossa_instance_pose_clip(ref, 0, nextafterf(c->duration, 0.0f));
    CHECK(palette_gap(inst, ref) == 0.0f);
    ossa_clock_set_mode(c, OSSA_WRAP_LOOP);
    ossa_clock_toggle(c);

    /* A seek shows at once, without a tick. */
    ossa_clock_seek(c, 0.45f);
    ossa_instance_jumped(inst);
    ossa_instance_show(inst);
    ossa_instance_pose_clip(ref, 0, 0.45f);
    CHECK(palette_gap(inst, ref) == 0.0f);

    /* Cross-fades: refusals first. */
    CHECK(ossa_instance_switch_clip(inst, 99, 0.25f, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_instance_switch_clip(inst, 1, -1.0f, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_instance_switch_clip(inst, 1, NAN, &err) == OSSA_ERR_INVALID_ARGUMENT);
    CHECK(ossa_instance_switch_clip(inst, 0, 0.25f, &err) == OSSA_OK && !ossa_instance_fading(inst, NULL));
    CHECK(ossa_instance_switch_clip(inst, 1, 0.25f, &err) == OSSA_OK);
    uint32_t from = 0;
    CHECK(ossa_instance_fading(inst, &from) && from == 0);
    CHECK(c->clip == 1 && c->time == 0.0f);
    ossa_instance_tick(inst, 0.125f);
    ossa_mixer *mx = ossa_instance_mixer(inst);
    float w_old = ossa_mixer_weight(mx, 0), w_new = ossa_mixer_weight(mx, 1);
    CHECKF(w_old > 0.3f && w_old < 0.7f && w_new > 0.3f && w_new < 0.7f, "weights %g %g",
           (double)w_old, (double)w_new);
    ossa_instance_pose_clip(ref, 1, c->time);
    CHECKF(palette_gap(inst, ref) > 1e-4f, "half way through a fade the pose is the new clip's");
    ossa_instance_tick(inst, 0.2f);
    CHECK(!ossa_instance_fading(inst, &from) && from == OSSA_INSTANCE_NO_CLIP);
    ossa_instance_pose_clip(ref, 1, c->time);
    CHECK(palette_gap(inst, ref) == 0.0f);
    /* A second switch in the middle of a fade goes on from the blend. */
    CHECK(ossa_instance_switch_clip(inst, 0, 0.4f, &err) == OSSA_OK);
    ossa_instance_tick(inst, 0.1f);
    CHECK(ossa_instance_switch_clip(inst, 1, 0.1f, &err) == OSSA_OK);
    ossa_instance_tick(inst, 0.05f);
    CHECK(ossa_instance_fading(inst, NULL));
    ossa_instance_tick(inst, 1.0f);
    CHECK(!ossa_instance_fading(inst, NULL) && c->clip == 1);
    /* A fade of 0 is a cut. */
    CHECK(ossa_instance_switch_clip(inst, 0, 0.0f, &err) == OSSA_OK && !ossa_instance_fading(inst, NULL));
    ossa_instance_tick(inst, 0.2f);
    ossa_instance_pose_clip(ref, 0, c->time);
    CHECK(palette_gap(inst, ref) == 0.0f);

    /* seek_clock: clip and time at once, a jump, no fade. */
    CHECK(ossa_instance_switch_clip(inst, 1, 0.5f, &err) == OSSA_OK);
    ossa_instance_seek_clock(inst, 2 % m->clip_count, 0.2f);
    CHECK(!ossa_instance_fading(inst, NULL) && c->clip == 2 % m->clip_count);
    CHECK_NEAR(c->time, 0.2, 1e-6);

    ossa_instance_destroy(inst);
    ossa_instance_destroy(ref);
    ossa_model_destroy(m);
    return test_finish("anim-instance-clock");
}
