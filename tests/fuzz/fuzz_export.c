/* Fuzz harness: the glTF exporter on any input. ossa_sniff decides the format from content
 * alone; a model that loads and validates is exported as a .glb stream to memory and as a .gltf
 * with its .bin in a scratch folder; both must parse as glTF 2.0, describe the same document and
 * keep every buffer view and accessor inside its buffer (fuzz_write_check.h). */
#include "fuzz_check.h"

fuzz_harness fuzz_harness_info(void)
{
    fuzz_harness h = {{"fuzz", OSSA_FORMAT_UNKNOWN}, 0, FUZZ_CHECK_EXPORT_FILE};
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_run_or_abort(data, size, fuzz_harness_info());
}
