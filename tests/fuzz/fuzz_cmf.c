/* Fuzz harness: Cal3D binary mesh (CMF) reader, chosen by name and forced by option. */
#include "fuzz_check.h"

fuzz_harness fuzz_harness_info(void)
{
    fuzz_harness h = {{"fuzz.cmf", OSSA_FORMAT_CMF}, 0, 0};
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_run_or_abort(data, size, fuzz_harness_info());
}
