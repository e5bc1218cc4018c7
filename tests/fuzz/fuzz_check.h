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
 * (OSSA_FORMAT_UNKNOWN lets ossa_sniff decide). Each harness file defines it. */
typedef struct fuzz_target {
    const char *name;
    ossa_format format;
} fuzz_target;
fuzz_target fuzz_target_info(void);

/* Loads data as target says and checks:
 *  - error: the model pointer is NULL, the returned status is recorded in the error with a
 *    non-empty message and the file name set;
 *  - OK: the model passes ossa_model_validate, and a scalar pose (rest, and every clip sampled
 *    at 0 and at half its duration) with a palette and skinning of every submesh yields finite
 *    numbers only.
 * Returns 0 when all hold, otherwise 1 with a description in why. */
int fuzz_check_input(const uint8_t *data, size_t size, fuzz_target target, char *why,
                     size_t why_size);

/* LLVMFuzzerTestOneInput's body: fuzz_check_input, and abort() with the reason on a failure. */
int fuzz_run_or_abort(const uint8_t *data, size_t size, fuzz_target target);

#endif
