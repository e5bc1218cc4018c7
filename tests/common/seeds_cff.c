/* CFF seeds written by the engine's own writer from the tiny model of seeds_c3s.c: one with its
 * first clip (0.5 s) as three rigid frames at 6 frames per second, and one static file with no
 * clips (a single rest frame). In both the quad, weighted across two bones, is split into two
 * parts by each triangle's dominant bone. */
#include "seeds_cff.h"

#include <stdlib.h>

#include "ossa/write.h"
#include "seeds_c3s.h"

static ossa_status write_cff(const ossa_model *m, const char *path, const void *ctx,
                             ossa_error *err)
{
    return ossa_write_cff(m, path, &(ossa_cff_write_options){.frame_rate = *(const float *)ctx},
                          err);
}

bool fuzz_seeds_cff(fuzz_seed *out)
{
    static const char *const names[FUZZ_CFF_SEED_COUNT] = {"seed_clips.cff", "seed_static.cff"};
    fuzz_tiny_model *tiny = malloc(sizeof *tiny);
    if (!tiny)
        return false;
    bool ok = true;
    for (int i = 0; i < FUZZ_CFF_SEED_COUNT && ok; i++) {
        const float frame_rate = 6.0f;
        fuzz_tiny_model_make(tiny, i == 0);
        out[i].name = names[i];
        out[i].format = OSSA_FORMAT_CFF;
        ok = fuzz_seed_from_writer(&tiny->model, write_cff, &frame_rate, &out[i]);
    }
    free(tiny);
    return ok;
}
