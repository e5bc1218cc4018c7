/* Fuzz harness: an XMF mesh loaded after a fixed skeleton and before a
 * fixed clip: influences meet a real bone count and the mesh skins under animated poses. */
#include "fuzz_check.h"

fuzz_harness fuzz_harness_info(void)
{
    fuzz_harness h = {{"fuzz.xmf", OSSA_FORMAT_XMF}, FUZZ_WITH_SKELETON | FUZZ_WITH_CLIP, 0};
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_run_or_abort(data, size, fuzz_harness_info());
}
