/* ossa-view's names for the clock's wrap modes (viewer/playback.c). */
#include <string.h>

#include "playback.h"
#include "test_common.h"

int main(void)
{
    ossa_wrap mode;
    CHECK(view_wrap_mode_parse("loop", &mode) && mode == OSSA_WRAP_LOOP);
    CHECK(view_wrap_mode_parse("pingpong", &mode) && mode == OSSA_WRAP_PINGPONG);
    CHECK(view_wrap_mode_parse("once", &mode) && mode == OSSA_WRAP_CLAMP);
    CHECK(!view_wrap_mode_parse("bounce", &mode));
    CHECK(strcmp(view_wrap_mode_name(OSSA_WRAP_LOOP), "loop") == 0);
    CHECK(strcmp(view_wrap_mode_name(OSSA_WRAP_PINGPONG), "pingpong") == 0);
    CHECK(strcmp(view_wrap_mode_name(OSSA_WRAP_CLAMP), "once") == 0);
    CHECK(view_wrap_mode_name((ossa_wrap)99) == NULL);
    return test_finish("playback");
}
