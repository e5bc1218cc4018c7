#include "formats/formats.h"

ossa_status ossa_cal3d_check_version(ossa_build *b, int64_t v, int64_t offset, int line,
                                     ossa_cal3d_lineage *lineage)
{
    if (v < OSSA_CAL3D_EARLIEST || v > OSSA_CAL3D_LATEST) {
        if (line > 0)
            return ossa_fail_line(b, OSSA_ERR_VERSION, line,
                                  "Cal3D version %lld is not in the supported range %u..%u",
                                  (long long)v, OSSA_CAL3D_EARLIEST, OSSA_CAL3D_LATEST);
        return ossa_fail(b, OSSA_ERR_VERSION, offset,
                         "Cal3D version %lld is not in the supported range %u..%u", (long long)v,
                         OSSA_CAL3D_EARLIEST, OSSA_CAL3D_LATEST);
    }
    if (v >= 911 && v <= 919)
        *lineage = OSSA_CAL3D_IMVU;
    else if (v >= 1300)
        *lineage = OSSA_CAL3D_UPSTREAM;
    else if (v >= 1200)
        *lineage = OSSA_CAL3D_V1200;
    else
        *lineage = OSSA_CAL3D_CLASSIC;
    return OSSA_OK;
}
