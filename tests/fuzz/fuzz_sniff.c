/* Fuzz harness: any input, format decided by ossa_sniff from content alone (the name has no
 * extension), so every reader and the sniffer's own parsing are reachable. */
#include "fuzz_check.h"

fuzz_harness fuzz_harness_info(void)
{
    fuzz_harness h = {{"fuzz", OSSA_FORMAT_UNKNOWN}, 0, 0};
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_run_or_abort(data, size, fuzz_harness_info());
}
