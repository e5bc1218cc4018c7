/* Fuzz harness: a CPF morph clip loaded after a fixed skeleton and a
 * mesh with a morph target, so its tracks are matched against real morph names. */
#include "fuzz_check.h"

fuzz_harness fuzz_harness_info(void)
{
    fuzz_harness h = {{"fuzz.cpf", OSSA_FORMAT_CPF}, FUZZ_WITH_SKELETON | FUZZ_WITH_MESH, 0};
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_run_or_abort(data, size, fuzz_harness_info());
}
