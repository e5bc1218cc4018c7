/* Random byte flips in every Cal3D file (real assets and generated seeds): MUTATIONS mutants per
 * file (fewer, at least MIN_MUTATIONS, for files too large for the parse budget of plan.h), each
 * with 1..MAX_FLIPS bytes XORed with a random non-zero value, from a PRNG seeded by the file's
 * name (so a failure names a repeatable mutant). Rule: no crash, no leak, and either OK with a
 * model that validates or an error with a message and the file name. */
#include <stdio.h>
#include <string.h>

#include "malformed.h"
#include "plan.h"

enum { MUTATIONS = 200, MIN_MUTATIONS = 8, MAX_FLIPS = 8 };

static void flip_file(const mf_file *f, unsigned *files)
{
    if (!f->size)
        return;
    (*files)++;
    mf_tally t = {f->label, 0, 0, 8};
    mf_rng rng;
    mf_rng_seed(&rng, mf_hash(f->name));
    uint8_t *buf = malloc(f->size);
    size_t mutants = mf_mutants_affordable(MUTATIONS, f->size, f->xml, MIN_MUTATIONS);
    for (unsigned i = 0; i < mutants && buf; i++) {
        memcpy(buf, f->data, f->size);
        unsigned flips = 1 + mf_rng_below(&rng, MAX_FLIPS);
        char what[MAX_FLIPS * 24 + 32];
        int len = snprintf(what, sizeof what, "mutant %u:", i);
        for (unsigned k = 0; k < flips; k++) {
            uint32_t at = mf_rng_below(&rng, (uint32_t)f->size);
            uint8_t mask = (uint8_t)(1 + mf_rng_below(&rng, 255));
            buf[at] ^= mask;
            if (len > 0 && (size_t)len < sizeof what)
                len += snprintf(what + len, sizeof what - (size_t)len, " [%u]^=0x%02x", at, mask);
        }
        ossa_model *m = NULL;
        ossa_error err;
        ossa_status st = mf_load(f, buf, f->size, &m, &err);
        mf_check_any(&t, what, st, m, &err);
    }
    if (!buf)
        mf_fail(&t, "out of memory");
    free(buf);
    mf_tally_end(&t);
}

int main(void)
{
    /* up to MUTATIONS mutants of each file */
    return mf_run(flip_file, flip_file, "files flipped", "malformed-flips");
}
