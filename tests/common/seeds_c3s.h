/* C3S seeds (Cannibal scene), appended to the generated seeds by fuzz_seeds_make. The tiny model
 * and the write-then-read-back helper here are shared with seeds_cff.c. */
#ifndef OSSA_SEEDS_C3S_H
#define OSSA_SEEDS_C3S_H

#include <stdbool.h>
#include "fuzz_seeds.h"
#include "ossa/model.h"

enum { FUZZ_C3S_SEED_COUNT = 2 };

/* The tiny model's second trigger command, "THUD" as the file stores it ('T' first byte). */
#define FUZZ_C3S_RAW_COMMAND 0x44554854u

/* Fills out[0 .. FUZZ_C3S_SEED_COUNT - 1]; false when out of memory or when a seed fails to
 * write or to load back (filled entries are then still owned by out and freed with the rest). */
bool fuzz_seeds_c3s(fuzz_seed *out);

/* Storage for a two-bone, one-quad, one-material model with two short clips, two triggers on
 * the first clip and one surface mount on the quad (the CFF writer ignores the last two). */
typedef struct fuzz_tiny_model {
    ossa_bone bones[2];
    uint32_t root_children[1];
    ossa_influence influences[6];
    ossa_submesh submesh;
    ossa_mesh mesh;
    ossa_texture_map map;
    ossa_material material;
    ossa_track tracks[3];
    ossa_clip_trigger triggers[2];
    ossa_clip clips[2];
    ossa_mount mount;
    ossa_model model;
} fuzz_tiny_model;

/* Fills t; with_clips false leaves the model static (no clips). t->model is then valid. */
void fuzz_tiny_model_make(fuzz_tiny_model *t, bool with_clips);

/* Runs write(m, path, ctx) on a file named `name` in a fresh temporary folder, reads the bytes
 * into *out (data malloc'ed), removes the file and folder, then checks that the bytes load with
 * out->format forced. false (with a message on stderr) when any step fails. */
typedef ossa_status (*fuzz_seed_writer)(const ossa_model *m, const char *path, const void *ctx,
                                        ossa_error *err);
bool fuzz_seed_from_writer(const ossa_model *m, fuzz_seed_writer write, const void *ctx,
                           fuzz_seed *out);

#endif
