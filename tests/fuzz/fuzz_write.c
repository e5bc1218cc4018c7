/* Fuzz harness: every writer on any input. ossa_sniff decides the format from content alone; a
 * model that loads and validates is written as a Cal3D set (binary and XML), SKM/SKP, C3S (bones
 * and vertex frames) and CFF into a fresh scratch folder, and each output the writer reports as
 * written is loaded back (fuzz_write_check.h). A writer may refuse a model; it must then say why
 * and leave nothing behind. */
#include "fuzz_check.h"

fuzz_harness fuzz_harness_info(void)
{
    fuzz_harness h = {{"fuzz", OSSA_FORMAT_UNKNOWN}, 0, FUZZ_CHECK_WRITE};
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_run_or_abort(data, size, fuzz_harness_info());
}
