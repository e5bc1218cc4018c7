/* CFF writer, one rigid part as a CFF mesh (cff_write.h): the mesh header (centre and radius of
 * the part's bone-space bounds, the UV divisor, texture, counts, name), the vertices (positions
 * quantised against the file's origin and scale, first-set UVs times the divisor, colours x 127),
 * the indices (u8 for up to 256 vertices, else u16) and the part's frames. It mirrors the
 * reader's cff_mesh.c; what the writer writes and why is described at the top of cff_write.c,
 * which calls this once per part. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/cff/cff_write.h"
#include "io/write_buf.h"

/* The largest power of two d with max_abs x d <= 32767, so that u x d is exact before rounding. */
static double uv_divisor(double max_abs)
{
    double d = 1.0;
    if (max_abs <= 0.0)
        return d;
    while (max_abs * d * 2.0 <= 32767.0 && d < 1073741824.0)
        d *= 2.0;
    while (max_abs * d > 32767.0)
        d *= 0.5;
    return d;
}

static int16_t quantise(double v, double origin, double scale)
{
    double raw = floor((v - origin) * 32767.0 / scale + 0.5);
    if (raw > 32767.0)
        raw = 32767.0;
    if (raw < -32767.0)
        raw = -32767.0;
    return (int16_t)raw;
}

ossa_status ossa_cff_write_part(cff_writer *w, ossa_wbuf *o, const part *pt,
                                const double origin[3], const double scale[3])
{
    const ossa_model *m = w->m;
    /* UVs of the first set, colours, and the local bounds for the header's sphere. */
    double max_uv = 0.0, lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (size_t i = 0; i < pt->vertex_count; i++) {
        const ossa_submesh *sm;
        uint32_t v;
        vertex_of(w, w->vertex_list[pt->first_vertex + i], &sm, &v);
        if (sm->uv_set_count)
            for (int k = 0; k < 2; k++) {
                double a = fabs(sm->uvs[2 * (size_t)sm->uv_set_count * v + (size_t)k]);
                if (a > max_uv)
                    max_uv = a;
            }
        const float *p = w->local + 3 * (pt->first_vertex + i);
        for (int k = 0; k < 3; k++) {
            if (i == 0 || p[k] < lo[k])
                lo[k] = p[k];
            if (i == 0 || p[k] > hi[k])
                hi[k] = p[k];
        }
    }
    double divisor = uv_divisor(max_uv);
    if (divisor < 1e-6)
        return ossa_write_fail(w->err, OSSA_ERR_RANGE, w->path,
                    "texture coordinate %g is too large for CFF's 16-bit coordinates", max_uv);
    double center[3], radius = 0.0;
    for (int k = 0; k < 3; k++)
        center[k] = 0.5 * (lo[k] + hi[k]);
    for (size_t i = 0; i < pt->vertex_count; i++) {
        const float *p = w->local + 3 * (pt->first_vertex + i);
        double d = sqrt((p[0] - center[0]) * (p[0] - center[0]) +
                        (p[1] - center[1]) * (p[1] - center[1]) +
                        (p[2] - center[2]) * (p[2] - center[2]));
        if (d > radius)
            radius = d;
    }
    uint32_t frames = pt->bone == NO_BONE ? 0 : w->frames;
    uint32_t texture = pt->material >= 0 ? (uint32_t)pt->material : 0;

    for (int k = 0; k < 3; k++)
        ossa_wbuf_f32(o, (float)center[k]);
    ossa_wbuf_f32(o, (float)divisor);
    ossa_wbuf_f32(o, (float)radius);
    ossa_wbuf_u32(o, m->material_count ? texture : 0);
    ossa_wbuf_u32(o, (uint32_t)pt->vertex_count);
    ossa_wbuf_u32(o, (uint32_t)pt->tri_count);
    ossa_wbuf_u32(o, 1); /* always 1 in the game's files */
    ossa_wbuf_u32(o, frames);
    ossa_wbuf_put(o, pt->name, 4);

    for (size_t i = 0; i < pt->vertex_count; i++) {
        const ossa_submesh *sm;
        uint32_t v;
        vertex_of(w, w->vertex_list[pt->first_vertex + i], &sm, &v);
        const float *p = w->local + 3 * (pt->first_vertex + i);
        for (int k = 0; k < 3; k++)
            ossa_wbuf_u16(o, (uint16_t)quantise(p[k], origin[k], scale[k]));
        for (int k = 0; k < 2; k++) {
            double u = sm->uv_set_count ? sm->uvs[2 * (size_t)sm->uv_set_count * v + (size_t)k]
                                        : 0.0;
            ossa_wbuf_u16(o, (uint16_t)(int16_t)floor(u * divisor + 0.5));
        }
        for (int k = 0; k < 3; k++) {
            double c = sm->colors ? floor(sm->colors[3 * (size_t)v + (size_t)k] * 127.0 + 0.5)
                                  : 127.0;
            ossa_wbuf_u8(o, (uint8_t)(c < 0.0 ? 0.0 : c > 255.0 ? 255.0 : c));
        }
    }
    bool wide = pt->vertex_count > 256;
    for (size_t i = 0; i < 3 * pt->tri_count; i++) {
        uint32_t index = w->face_list[3 * pt->first_tri + i];
        if (wide)
            ossa_wbuf_u16(o, (uint16_t)index);
        else
            ossa_wbuf_u8(o, (uint8_t)index);
    }
    size_t nb = m->bone_count;
    for (uint32_t k = 0; k < frames; k++) {
        const float *t = w->frame_t + 3 * ((size_t)k * nb + pt->bone);
        const float *a = w->frame_a + 3 * ((size_t)k * nb + pt->bone);
        for (int c = 0; c < 3; c++)
            ossa_wbuf_f32(o, t[c]);
        for (int c = 0; c < 3; c++)
            ossa_wbuf_f32(o, a[c]);
        ossa_wbuf_f32(o, (float)k);
    }
    return OSSA_OK;
}
