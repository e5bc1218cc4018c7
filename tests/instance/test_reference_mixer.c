/* Reference test: ossa_mixer against libcal3d 0.11's CalMixer on real assets (cally, paladin),
 * both driven by the same calls and the same dt sequence: two cycles at 0.3 / 0.7, blendCycle
 * with a delay checked in the middle of the fade, a cycle plus an action through its fade-in,
 * steady and fade-out phases, auto-lock and removeAction, clearCycle and a cycle blended again.
 * Compared at many times: the mixer clock, every bone's model-space transform and every skinned
 * vertex (within 1e-4 x the model size).
 *
 * What 0.11 does here, as this test checks it: blendCycle appends the loop key on the first
 * blend of an animation (the mixer plays cycles with OSSA_WRAP_LOOP and, like the mutated core
 * animation, later actions of that animation too); blendCycle(id, 0, delay) on a running cycle
 * lets it fade out while still synchronised; removeAction removes the newest action of the id.
 * The driver and the comparison (which also checks every call's result and the mixer duration)
 * are mixer_harness.c's, shared with test_reference_mixer_random.c. */
#include <stdio.h>
#include <stdlib.h>

#include "mixer_harness.h"
#include "test_common.h"

typedef struct scenario {
    const char *name;
    mix_op ops[16];
} scenario;

/* Clip ids: 0 walk, 1 jog, 2 wave. MIX_STEPS compares after every step. */
static const scenario scenarios[] = {
    {"two cycles 0.3/0.7", {MIX_CYCLE(0, 0.3f, 0), MIX_CYCLE(1, 0.7f, 0), MIX_STEPS(30, 0.037f),
                            MIX_END}},
    {"blendCycle with a delay", {MIX_CYCLE(0, 1, 0), MIX_STEPS(3, 0.1f), MIX_CYCLE(1, 1, 0.5f),
                                 MIX_STEPS(12, 0.07f), MIX_CYCLE(0, 0, 0.4f),
                                 MIX_STEPS(10, 0.05f), MIX_END}},
    {"cycle + action", {MIX_CYCLE(0, 1, 0), MIX_STEPS(2, 0.05f),
                        MIX_ACTION(2, 0.3f, 0.4f, 1.0f, 0), MIX_STEPS(80, 0.041f), MIX_END}},
    {"action at 0.6 over two cycles", {MIX_CYCLE(0, 0.4f, 0), MIX_CYCLE(1, 0.6f, 0.2f),
                                       MIX_ACTION(2, 0.2f, 0.2f, 0.6f, 0), MIX_STEPS(60, 0.05f),
                                       MIX_END}},
    {"auto-lock", {MIX_CYCLE(1, 1, 0), MIX_ACTION(2, 0.25f, 0.25f, 0.8f, 1),
                   MIX_STEPS(70, 0.05f), MIX_REMOVE(2), MIX_STEPS(3, 0.05f), MIX_END}},
    {"clearCycle", {MIX_CYCLE(0, 1, 0), MIX_CYCLE(1, 0.5f, 0), MIX_STEPS(7, 0.045f),
                    MIX_CLEAR(1, 0.4f), MIX_STEPS(12, 0.045f), MIX_CYCLE(1, 1, 0.3f),
                    MIX_STEPS(10, 0.045f), MIX_END}},
    /* Found by the random test: the walk is sampled ~45 key spans past its loop key, where
     * Cal3D's blend leaves a non-unit rotation that rotates child translations as it is. */
    {"clock past a shrunk duration", {MIX_CYCLE(2, 1, 0), MIX_STEPS(1, 0), MIX_STEPS(1, 2.5f),
                                      MIX_CLEAR(2, 0), MIX_CYCLE(0, 1, 0), MIX_STEPS(1, 0),
                                      MIX_END}},
};

int main(void)
{
    const char *assets = test_assets_dir();
    if (!assets) {
        printf("assets absent: skipped\n");
        return TEST_SKIP;
    }
    for (size_t c = 0; c < sizeof mix_cases / sizeof mix_cases[0]; c++) {
        mix_runner *r = calloc(1, sizeof *r);
        if (r && mix_runner_open(r, assets, &mix_cases[c]))
            for (size_t s = 0; s < sizeof scenarios / sizeof scenarios[0]; s++)
                mix_run(r, NULL, scenarios[s].name, scenarios[s].ops, 16);
        if (r) {
            mix_runner_report(r);
            mix_runner_close(r);
        }
        free(r);
    }
    return test_finish("reference-mixer");
}
