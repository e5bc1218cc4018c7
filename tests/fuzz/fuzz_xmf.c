/* Fuzz harness: Cal3D XML mesh (XMF) reader, chosen by name and forced by option. */
#include "fuzz_check.h"

fuzz_harness fuzz_harness_info(void)
{
    fuzz_harness h = {{"fuzz.xmf", OSSA_FORMAT_XMF}, 0, 0};
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_run_or_abort(data, size, fuzz_harness_info());
}
