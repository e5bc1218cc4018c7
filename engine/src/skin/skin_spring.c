/* Cal3D's spring system (CalSpringSystem, FORMAT-NOTES D "Springs") over output-order buffers.
 * Collision with bone boxes is not implemented. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/error.h"
#include "skin_internal.h"

struct ossa_spring_state {
    const struct ossa_skin_mesh *mesh;
    float *pos;   /* 3 per free vertex: current position */
    float *old;   /* 3 per free vertex: previous position */
};

static ossa_status spring_state_create(const ossa_skin_mesh *mesh, ossa_spring_state **out)
{
    if (!out)
        return OSSA_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!mesh || mesh->spring_count == 0)
        return OSSA_ERR_INVALID_ARGUMENT;
    ossa_spring_state *s = calloc(1, sizeof *s);
    if (!s)
        return OSSA_ERR_NOMEM;
    size_t n = 3 * (size_t)(mesh->free_count ? mesh->free_count : 1);
    s->mesh = mesh;
    s->pos = malloc(n * sizeof(float));
    s->old = malloc(n * sizeof(float));
    if (!s->pos || !s->old) {
        ossa_spring_state_destroy(s);
        return OSSA_ERR_NOMEM;
    }
    ossa_spring_state_reset(s);
    *out = s;
    return OSSA_OK;
}

ossa_status ossa_spring_state_create(const ossa_skin_mesh *mesh, ossa_spring_state **out,
                                     ossa_error *err)
{
    return ossa_error_status(err, spring_state_create(mesh, out), "spring state");
}

void ossa_spring_state_destroy(ossa_spring_state *s)
{
    if (!s)
        return;
    free(s->pos);
    free(s->old);
    free(s);
}

void ossa_spring_state_reset(ossa_spring_state *s)
{
    if (!s)
        return;
    size_t n = 3 * (size_t)s->mesh->free_count;
    if (n) {
        memcpy(s->pos, s->mesh->free_bind, n * sizeof(float));
        memcpy(s->old, s->mesh->free_bind, n * sizeof(float));
    }
}

void ossa_spring_state_reset_to(ossa_spring_state *s, const float *positions)
{
    if (!s)
        return;
    if (!positions) {
        ossa_spring_state_reset(s);
        return;
    }
    const struct ossa_skin_mesh *m = s->mesh;
    for (uint32_t f = 0; f < m->free_count; f++) {
        const float *src = positions + 3 * (size_t)m->free_vertex[f];
        if (!(isfinite(src[0]) && isfinite(src[1]) && isfinite(src[2])))
            src = m->free_bind + 3 * (size_t)f;
        memcpy(s->pos + 3 * (size_t)f, src, 3 * sizeof(float));
        memcpy(s->old + 3 * (size_t)f, src, 3 * sizeof(float));
    }
}

ossa_status ossa_spring_update(ossa_spring_state *s, float dt, float *out, uint32_t out_capacity,
                               ossa_error *err)
{
    if (!s || !out)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "spring update: %s is NULL",
                               !s ? "state" : "out_positions");
    if (!isfinite(dt))
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT, "spring update: dt is not finite");
    const struct ossa_skin_mesh *m = s->mesh;
    if (out_capacity < m->output_count)
        return ossa_error_fail(err, OSSA_ERR_INVALID_ARGUMENT,
                               "spring update: out_positions holds %u vertices, the mesh "
                               "outputs %u", out_capacity, m->output_count);
    /* Verlet step of every free vertex; rigid ones keep their skinned positions. */
    for (uint32_t f = 0; f < m->free_count; f++) {
        float w = m->free_weight[f];
        float force[3] = {0.0f, 0.5f, -98.1f * w}; /* constant force + gravity x weight */
        float *p = s->pos + 3 * (size_t)f, *o = s->old + 3 * (size_t)f;
        float *dst = out + 3 * (size_t)m->free_vertex[f];
        for (int c = 0; c < 3; c++) {
            float cur = p[c];
            /* Cal3D's grouping, so the step is the same bits: pos += (pos - old) * 0.99 +
             * force / weight * dt * dt. */
            float next = cur + ((cur - o[c]) * 0.99f + force[c] / w * dt * dt);
            /* Where Cal3D's step overflows (a weight a denormal from 0, a huge dt), the
             * particle holds instead of turning the cloth NaN. */
            p[c] = isfinite(next) ? next : cur;
            o[c] = cur;
            dst[c] = p[c];
        }
    }
    /* Two relaxation passes over the springs; the spring coefficient is unused (as Cal3D). */
    for (int it = 0; it < 2; it++) {
        for (uint32_t i = 0; i < m->spring_count; i++) {
            const skin_spring_data *sp = &m->springs[i];
            float *a = out + 3 * (size_t)sp->v0, *b = out + 3 * (size_t)sp->v1;
            float d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
            float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (!(len > 0.0f))
                continue;
            float f0 = (len - sp->idle) / len, f1 = f0;
            if (!isfinite(len) || !isfinite(f0))
                continue; /* Cal3D divides into Inf here; the spring is left as it is */
            if (m->movable[sp->v0]) {
                f0 /= 2.0f;
                f1 /= 2.0f;
            } else {
                f0 = 0.0f;
            }
            if (!m->movable[sp->v1]) {
                f0 *= 2.0f;
                f1 = 0.0f;
            }
            for (int c = 0; c < 3; c++) {
                a[c] += d[c] * f0;
                b[c] -= d[c] * f1;
            }
        }
    }
    /* The relaxed positions are the particles' new positions. */
    for (uint32_t f = 0; f < m->free_count; f++)
        memcpy(s->pos + 3 * (size_t)f, out + 3 * (size_t)m->free_vertex[f], 3 * sizeof(float));
    return OSSA_OK;
}
