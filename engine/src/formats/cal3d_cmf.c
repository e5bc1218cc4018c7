/* Cal3D binary CMF: being written (see issue 2). */
#include "formats/formats.h"

ossa_status ossa_read_cmf(ossa_build *b, const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    return ossa_fail(b, OSSA_ERR_UNSUPPORTED, 0, "CMF reader not written yet");
}
