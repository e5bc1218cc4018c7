/* The invariants every fuzz harness checks on one input, shared by the libFuzzer targets and the
 * plain driver (fuzz_main.c) that CI runs over real files and generated seeds. */
#ifndef OSSA_FUZZ_CHECK_H
#define OSSA_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include "ossa/model.h"

/* libFuzzer's entry point; each harness file defines it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What a harness loads: the name whose extension selects the format and the forced format
 * (OSSA_FORMAT_UNKNOWN lets ossa_sniff decide). */
typedef struct fuzz_target {
    const char *name;
    ossa_format format;
} fuzz_target;

/* Fixed, valid files a harness may load beside the fuzzed one, all seeds of fuzz_seeds.c that
 * fit one another: the three-bone v1000 CSF, the v919 CMF (bone ids 0-2, springs, colours, a
 * morph target "raise") and the v1000 CAF (bones 0 and 2). */
enum {
    FUZZ_WITH_SKELETON = 1u,
    FUZZ_WITH_MESH = 2u,
    FUZZ_WITH_CLIP = 4u
};

/* A harness: its target and the companions (FUZZ_WITH_*) its input is loaded beside. With
 * companions the input is written to a scratch folder next to them and the set is loaded
 * through ossa_load_files, which sniffs every file (skeleton first): target.format is then not
 * forced, only the kind of seed that must load. Each harness file defines fuzz_harness_info. */
/* Checks beyond the load's (fuzz_harness.checks). */
enum {
    FUZZ_CHECK_EXPORT = 1u, /* a model that loads is also exported as a .glb stream to memory
                              (ossa_export_glb_stream): the stream is one well-formed GLB whose
                              JSON chunk parses and says glTF 2.0 */
    FUZZ_CHECK_WRITE = 2u, /* every writer of write.h (Cal3D binary and XML, SKM, C3S with bones
                              and with vertex frames, CFF) into a scratch folder: a refusal keeps
                              the error contract and leaves no file, an OK loads back
                              (fuzz_write_check.h) */
    FUZZ_CHECK_EXPORT_FILE = 4u /* the .glb stream and a .gltf with its .bin beside: both parse,
                                   agree, and every view and accessor lies inside its buffer */
};

typedef struct fuzz_harness {
    fuzz_target target;
    unsigned with;
    unsigned checks; /* FUZZ_CHECK_* */
} fuzz_harness;
fuzz_harness fuzz_harness_info(void);

/* Loads data as target says and checks:
 *  - error: the model pointer is NULL, the returned status is recorded in the error with a
 *    non-empty message and the file name set;
 *  - OK: the model passes ossa_model_validate, every per-vertex value (uvs, colours, physique
 *    weights, springs, morph deltas, vertex frames) is finite and within validation's bound,
 *    and a scalar pose (rest, and every clip sampled at 0 and at half its duration) with a
 *    palette and skinning of every submesh yields finite numbers only, and so does a character
 *    instance of it (instance.h) that plays its clips, updates, seeks and skins every part.
 * Returns 0 when all hold, otherwise 1 with a description in why. */
int fuzz_check_input(const uint8_t *data, size_t size, fuzz_target target, char *why,
                     size_t why_size);

/* fuzz_check_input for a harness (companions included), also giving the load's status; after a
 * clean failed load (0 returned, *status not OSSA_OK) why holds the error's file and message. A
 * failure to set the load up (scratch files) counts as a failed check. */
int fuzz_check_harness(const uint8_t *data, size_t size, fuzz_harness h, ossa_status *status,
                       char *why, size_t why_size);

/* LLVMFuzzerTestOneInput's body: fuzz_check_harness, and abort() with the reason on a failure. */
int fuzz_run_or_abort(const uint8_t *data, size_t size, fuzz_harness h);

#endif
