/* Fuzz harness: an XAF animation loaded after a fixed skeleton and
 * skinned mesh, so track bone ids are checked against real bones and every sampled pose skins. */
#include "fuzz_check.h"

fuzz_harness fuzz_harness_info(void)
{
    fuzz_harness h = {{"fuzz.xaf", OSSA_FORMAT_XAF}, FUZZ_WITH_SKELETON | FUZZ_WITH_MESH, 0};
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_run_or_abort(data, size, fuzz_harness_info());
}
