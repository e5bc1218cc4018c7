/* Fuzz harness: Cal3D XML material (XRF) reader, chosen by name and forced by option. */
#include "fuzz_check.h"

fuzz_harness fuzz_harness_info(void)
{
    fuzz_harness h = {{"fuzz.xrf", OSSA_FORMAT_XRF}, 0, 0};
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_run_or_abort(data, size, fuzz_harness_info());
}
