/* Randomised differential test: ossa_mixer against libcal3d 0.11's CalMixer on cally and
 * paladin, with op lists drawn from a fixed-seed PRNG (the same lists on every run). Each
 * scenario is 10-30 ops: blendCycle (weights in [0, 1], delays in [0, 1], 0 and 1 included),
 * clearCycle, executeAction (random fades, weight, auto-lock), removeAction, and runs of steps
 * whose dt is 0, tiny, ordinary, long or as large as 2.5 s. Every call's result and the state
 * after every step are compared as in test_reference_mixer.c (mixer_harness.c). A scenario that
 * disagrees is shrunk to a shortest failing op list, which is printed as MIX_* initialisers (for
 * the fixed scenarios of test_reference_mixer.c) and run again to report its differences.
 *
 * The mixers get room for 32 cycles and 32 actions: a full ossa_mixer refuses a call where Cal3D
 * allocates (runtime.h), and a scenario never starts more than 30.
 *
 * Such lists found that Ossa's local-to-model rotated translations by q / |q| where libcal3d
 * rotates by q as it is: a synchronised cycle sampled far past its duration extrapolates along
 * two nearly equal keys, Cal3D's blend takes linear weights there and leaves |q| off 1. Ossa now
 * rotates as Cal3D does; test_reference_mixer.c keeps the shortest such list. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mixer_harness.h"
#include "test_common.h"
#include "test_rng.h"

enum { SCENARIOS = 200, MAX_OPS = 30, MINIMISE_AT_MOST = 3 };

/* A weight or a delay in [0, 1], with the ends drawn often. */
static float in01(rng *g)
{
    int k = below(g, 10);
    return k == 0 ? 0.0f : k == 1 ? 1.0f : unit(g);
}

static float random_dt(rng *g)
{
    switch (below(g, 10)) {
    case 0:
        return 0.0f;
    case 1:
        return 1e-6f + unit(g) * 1e-4f;          /* tiny */
    case 2:
        return 0.1f + unit(g) * 0.9f;            /* long */
    case 3:
        return below(g, 2) ? 2.5f : 1.0f + unit(g) * 1.5f; /* large */
    default:
        return 0.001f + unit(g) * 0.099f;        /* a frame or so */
    }
}

/* Op list of one scenario into ops (MIX_OP_END terminated); the op count. */
static size_t generate(rng *g, mix_op *ops)
{
    size_t n = 10 + (size_t)below(g, MAX_OPS - 10 + 1);
    for (size_t i = 0; i < n; i++) {
        mix_op *o = &ops[i];
        memset(o, 0, sizeof *o);
        /* Now and then an id libcal3d has no animation for: both refuse it. */
        o->id = below(g, 40) ? below(g, 3) : below(g, 2) ? -1 : 3;
        int k = below(g, 100);
        /* The last op is a run of steps, so every call is followed by a comparison. */
        if (i + 1 == n || k < 40) {
            o->kind = MIX_OP_STEPS;
            o->id = below(g, 4) ? 1 + below(g, 3) : 4 + below(g, 12);
            o->a = random_dt(g);
        } else if (k < 65) {
            o->kind = MIX_OP_CYCLE;
            o->a = in01(g);
            o->b = in01(g);
        } else if (k < 75) {
            o->kind = MIX_OP_CLEAR;
            o->a = in01(g);
        } else if (k < 92) {
            o->kind = MIX_OP_ACTION;
            o->a = in01(g);
            o->b = in01(g);
            o->c = in01(g);
            o->lock = below(g, 3) == 0;
        } else {
            o->kind = MIX_OP_REMOVE;
        }
    }
    ops[n] = (mix_op)MIX_END;
    return n;
}

static int fails(mix_runner *r, const ossa_mixer_desc *desc, const mix_op *ops, size_t n)
{
    r->quiet = 1;
    long bad = mix_run(r, desc, "candidate", ops, n);
    r->quiet = 0;
    return bad != 0;
}

/* Greedy shrinking: drop runs of ops (halving the run length), then cut step counts, while the
 * list still disagrees. Returns the new length. */
static size_t minimise(mix_runner *r, const ossa_mixer_desc *desc, mix_op *ops, size_t n)
{
    mix_op trial[MAX_OPS + 1];
    for (size_t chunk = n / 2 ? n / 2 : 1; chunk >= 1; chunk /= 2) {
        for (size_t at = 0; at + chunk <= n;) {
            size_t m = 0;
            for (size_t i = 0; i < n; i++)
                if (i < at || i >= at + chunk)
                    trial[m++] = ops[i];
            trial[m] = (mix_op)MIX_END;
            if (m && fails(r, desc, trial, m)) {
                memcpy(ops, trial, (m + 1) * sizeof *ops);
                n = m;
            } else {
                at++;
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        while (ops[i].kind == MIX_OP_STEPS && ops[i].id > 1) {
            int keep = ops[i].id;
            ops[i].id = keep / 2;
            if (!fails(r, desc, ops, n)) {
                ops[i].id = keep - 1;
                if (!fails(r, desc, ops, n)) {
                    ops[i].id = keep;
                    break;
                }
            }
        }
    return n;
}

int main(void)
{
    const char *assets = test_assets_dir();
    if (!assets) {
        printf("assets absent: skipped\n");
        return TEST_SKIP;
    }
    const ossa_mixer_desc desc = {.max_cycles = 32, .max_actions = 32};
    for (size_t c = 0; c < sizeof mix_cases / sizeof mix_cases[0]; c++) {
        mix_runner *r = calloc(1, sizeof *r);
        if (!r || !mix_runner_open(r, assets, &mix_cases[c])) {
            if (r)
                mix_runner_close(r);
            free(r);
            CHECK(0);
            continue;
        }
        long ops_run = 0, failing = 0;
        for (int s = 0; s < SCENARIOS; s++) {
            uint64_t seed = 0x05AA0000u + (uint64_t)s;
            rng g = {seed};
            mix_op ops[MAX_OPS + 1];
            size_t n = generate(&g, ops);
            ops_run += (long)n;
            if (!fails(r, &desc, ops, n))
                continue;
            failing++;
            CHECKF(0, "%s: scenario %d (seed 0x%llx) disagrees with libcal3d", r->name, s,
                   (unsigned long long)seed);
            if (failing > MINIMISE_AT_MOST)
                continue;
            n = minimise(r, &desc, ops, n);
            fprintf(stderr, "%s: scenario %d shrunk to %zu ops: ", r->name, s, n);
            mix_print_ops(stderr, ops, n);
            char label[64];
            snprintf(label, sizeof label, "scenario %d (shrunk)", s);
            mix_run(r, &desc, label, ops, n);
        }
        printf("%s: %d random scenarios, %ld ops, %ld disagreeing\n", r->name, SCENARIOS,
               ops_run, failing);
        mix_runner_report(r);
        mix_runner_close(r);
        free(r);
    }
    return test_finish("reference-mixer-random");
}
