#include "playback.h"

#include <string.h>

const char *view_wrap_mode_name(ossa_wrap mode)
{
    switch (mode) {
    case OSSA_WRAP_LOOP: return "loop";
    case OSSA_WRAP_PINGPONG: return "pingpong";
    case OSSA_WRAP_CLAMP: return "once";
    default: return NULL;
    }
}

bool view_wrap_mode_parse(const char *name, ossa_wrap *mode)
{
    static const ossa_wrap all[] = {OSSA_WRAP_LOOP, OSSA_WRAP_PINGPONG, OSSA_WRAP_CLAMP};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(name, view_wrap_mode_name(all[i])) == 0) {
            *mode = all[i];
            return true;
        }
    return false;
}
