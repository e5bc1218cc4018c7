#include "crossfade.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bool view_crossfade_init(view_crossfade *cf, const ossa_model *m, float seconds, char *err,
                         size_t err_size)
{
    memset(cf, 0, sizeof *cf);
    cf->model = m;
    cf->seconds = seconds > 0.0f && isfinite(seconds) ? seconds : VIEW_CROSSFADE_SECONDS;
    if (!m->clip_count || !m->bone_count)
        return true;
    ossa_error e;
    ossa_status st = ossa_mixer_create(m, NULL, &cf->mixer, &e);
    if (st == OSSA_OK)
        st = ossa_soa_pose_create(m->bone_count, &cf->pose, NULL);
    if (st != OSSA_OK) {
        char text[512];
        snprintf(err, err_size, "clip changes will not fade: %s",
                 st == OSSA_ERR_NOMEM ? "out of memory" : ossa_error_format(&e, text, sizeof text));
        view_crossfade_free(cf);
        return false;
    }
    return true;
}

void view_crossfade_free(view_crossfade *cf)
{
    ossa_mixer_destroy(cf->mixer);
    ossa_soa_pose_destroy(&cf->pose);
    memset(cf, 0, sizeof *cf);
}

/* Drops every cycle at once, so a new fade starts from a mixer holding nothing. */
static void clear_all(view_crossfade *cf)
{
    for (uint32_t id = 0; id < cf->model->clip_count; id++)
        if (ossa_mixer_weight(cf->mixer, id) >= 0.0f)
            ossa_mixer_clear_cycle(cf->mixer, id, 0.0f, NULL);
    ossa_mixer_update(cf->mixer, 0.0f);
}

bool view_crossfade_start(view_crossfade *cf, uint32_t from, float from_time, uint32_t to)
{
    uint32_t n = cf->model ? cf->model->clip_count : 0;
    if (!cf->mixer || from == to || from >= n || to >= n || !isfinite(from_time)) {
        cf->active = false;
        return false;
    }
    ossa_mixer *mx = cf->mixer;
    if (!cf->active) {
        /* From the clip alone, at its time: the only synchronised cycle, so the mixer's time
         * is that clip's time. */
        clear_all(cf);
        if (ossa_mixer_blend_cycle(mx, from, 1.0f, 0.0f, NULL) != OSSA_OK) {
            cf->active = false;
            return false;
        }
        ossa_mixer_update(mx, 0.0f);
        ossa_mixer_set_time(mx, from_time);
    }
    /* The old clip goes on at its own pace (asynchronous) while it fades out; the new one is
     * the synchronised cycle, so the mixer's time is its clip time from here on. */
    if (ossa_mixer_clear_cycle(mx, from, cf->seconds, NULL) != OSSA_OK ||
        ossa_mixer_blend_cycle(mx, to, 1.0f, cf->seconds, NULL) != OSSA_OK) {
        cf->active = false;
        return false;
    }
    ossa_mixer_set_time(mx, 0.0f);
    cf->target = to;
    cf->active = true;
    return true;
}

const ossa_soa_pose *view_crossfade_update(view_crossfade *cf, float dt, float to_time)
{
    if (!cf->active || !cf->mixer)
        return NULL;
    ossa_mixer_update(cf->mixer, isfinite(dt) && dt > 0.0f ? dt : 0.0f);
    ossa_mixer_set_time(cf->mixer, to_time);
    if (ossa_mixer_active_count(cf->mixer) <= 1 && ossa_mixer_weight(cf->mixer, cf->target) >= 1.0f) {
        cf->active = false;
        return NULL;
    }
    return ossa_mixer_evaluate(cf->mixer, &cf->pose, NULL) == OSSA_OK ? &cf->pose : NULL;
}

void view_crossfade_cancel(view_crossfade *cf)
{
    cf->active = false;
}
