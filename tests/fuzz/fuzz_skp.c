/* Fuzz harness: SKM/SKP type 2 pose (SKP) reader, chosen by name and forced by option. */
#include "fuzz_check.h"

fuzz_target fuzz_target_info(void)
{
    fuzz_target t = {"fuzz.skp", OSSA_FORMAT_SKP};
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_run_or_abort(data, size, fuzz_target_info());
}
