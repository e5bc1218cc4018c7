/* Fuzz harness: Corsairs model (CFF) reader, chosen by name and forced by option. */
#include "fuzz_check.h"

fuzz_target fuzz_target_info(void)
{
    fuzz_target t = {"fuzz.cff", OSSA_FORMAT_CFF};
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_run_or_abort(data, size, fuzz_target_info());
}
