/* Cal3D XML: being written (see issue 2). */
#include "formats/formats.h"

#define XML_STUB(fn, name)                                                          \
    ossa_status fn(ossa_build *b, const uint8_t *data, size_t size)                  \
    {                                                                                \
        (void)data;                                                                  \
        (void)size;                                                                  \
        return ossa_fail(b, OSSA_ERR_UNSUPPORTED, -1, name " reader not written yet"); \
    }
XML_STUB(ossa_read_xsf, "XSF")
XML_STUB(ossa_read_xaf, "XAF")
XML_STUB(ossa_read_xmf, "XMF")
XML_STUB(ossa_read_xrf, "XRF")
XML_STUB(ossa_read_xpf, "XPF")
