/* Fuzz harness: the whole pipeline on any input. ossa_sniff decides the format from content
 * alone; a model that loads is validated, sampled, posed, skinned, run as a character instance
 * (play, update, seek, skin) and exported as a .glb stream to memory, and every stage's output
 * is checked (fuzz_check.h). */
#include "fuzz_check.h"

fuzz_harness fuzz_harness_info(void)
{
    fuzz_harness h = {{"fuzz", OSSA_FORMAT_UNKNOWN}, 0, FUZZ_CHECK_EXPORT};
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_run_or_abort(data, size, fuzz_harness_info());
}
