/* Helpers shared by the character instance tests (instance_test_util.h). */
#include "instance_test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_common.h"

int outputs_make(outputs *o, const ossa_instance *inst)
{
    o->count = ossa_instance_part_count(inst);
    o->spans = calloc(o->count ? o->count : 1, sizeof *o->spans);
    if (!o->spans)
        return 0;
    for (uint32_t i = 0; i < o->count; i++) {
        ossa_instance_part p;
        CHECK(ossa_instance_part_info(inst, i, &p, NULL) == OSSA_OK);
        size_t n = p.output_count ? p.output_count : 1;
        o->spans[i].positions = malloc(3 * n * sizeof(float));
        o->spans[i].normals = malloc(3 * n * sizeof(float));
        o->spans[i].capacity = p.output_count;
        if (!o->spans[i].positions || !o->spans[i].normals)
            return 0;
    }
    return 1;
}

void outputs_free(outputs *o)
{
    for (uint32_t i = 0; o->spans && i < o->count; i++) {
        free(o->spans[i].positions);
        free(o->spans[i].normals);
    }
    free(o->spans);
    memset(o, 0, sizeof *o);
}

int all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

int outputs_finite(const outputs *o, const ossa_instance *inst)
{
    for (uint32_t i = 0; i < o->count; i++) {
        ossa_instance_part p;
        ossa_instance_part_info(inst, i, &p, NULL);
        if (!all_finite(o->spans[i].positions, 3 * (size_t)p.output_count) ||
            !all_finite(o->spans[i].normals, 3 * (size_t)p.output_count))
            return 0;
    }
    return 1;
}

double skin_vs_scalar(const ossa_instance *inst, const outputs *o, uint32_t *compared)
{
    double worst = 0.0;
    *compared = 0;
    for (uint32_t i = 0; i < o->count; i++) {
        ossa_instance_part p;
        ossa_instance_part_info(inst, i, &p, NULL);
        if (!p.skin || p.spring || p.morph_weights || ossa_instance_part_vertex_track(inst, i))
            continue;
        float *ref_p = malloc(3 * (p.vertex_count + 1) * sizeof(float));
        float *ref_n = malloc(3 * (p.vertex_count + 1) * sizeof(float));
        CHECK(ref_p && ref_n);
        if (!ref_p || !ref_n)
            return INFINITY;
        ossa_skin_submesh_scalar(p.source, ossa_instance_palette(inst), ref_p, ref_n,
                                 p.source->vertex_count, NULL);
        for (uint32_t v = 0; v < p.output_count; v++) {
            uint32_t f = p.output_source[v];
            for (int k = 0; k < 3; k++) {
                float gp = o->spans[i].positions[3 * v + k], gn = o->spans[i].normals[3 * v + k];
                double d = f == OSSA_SKIN_PAD_VERTEX
                               ? fabs(gp) + fabs(gn)
                               : fmax(fabs((double)gp - ref_p[3 * f + k]),
                                      fabs((double)gn - ref_n[3 * f + k]));
                worst = d == d ? fmax(worst, d) : INFINITY;
            }
        }
        free(ref_p);
        free(ref_n);
        (*compared)++;
    }
    return worst;
}

int frame_out_make_at(frame_out *o, const ossa_instance *inst, size_t offset)
{
    o->parts = ossa_instance_part_count(inst);
    o->floats = 0;
    for (uint32_t p = 0; p < o->parts; p++) {
        ossa_instance_part info;
        ossa_instance_part_info(inst, p, &info, NULL);
        o->floats += (3 * (size_t)info.output_count + 15) / 16 * 16;
    }
    o->block = ossa_skin_buffer_alloc((2 * o->floats + 16) * sizeof(float));
    o->spans = calloc(o->parts + 1, sizeof *o->spans);
    if (!o->block || !o->spans)
        return 0;
    memset(o->block, 0, (2 * o->floats + 16) * sizeof(float));
    o->data = o->block + offset;
    float *pos = o->data, *nrm = o->data + o->floats;
    for (uint32_t p = 0; p < o->parts; p++) {
        ossa_instance_part info;
        ossa_instance_part_info(inst, p, &info, NULL);
        o->spans[p] = (ossa_instance_span){pos, nrm, info.output_count};
        pos += (3 * (size_t)info.output_count + 15) / 16 * 16;
        nrm += (3 * (size_t)info.output_count + 15) / 16 * 16;
    }
    return 1;
}

int frame_out_make(frame_out *o, const ossa_instance *inst)
{
    return frame_out_make_at(o, inst, 0);
}

void frame_out_free(frame_out *o)
{
    ossa_skin_buffer_free(o->block);
    free(o->spans);
}

int frame_out_same(ossa_instance *a, ossa_instance *b, frame_out *oa, frame_out *ob)
{
    if (ossa_instance_skin(a, 0, oa->parts, oa->spans, NULL) != OSSA_OK ||
        ossa_instance_skin(b, 0, ob->parts, ob->spans, NULL) != OSSA_OK)
        return 0;
    return oa->floats == ob->floats &&
           memcmp(oa->data, ob->data, 2 * oa->floats * sizeof(float)) == 0;
}

int load_cally_parts(ossa_model **out)
{
    *out = NULL;
    const char *assets = test_assets_dir();
    static const char *const names[] = {
        "cally.csf", "cally_calf_left.cmf", "cally_chest.cmf", "cally_hand_right.cmf",
        "cally_head.cmf", "cally_neck.cmf", "cally_ponytail.cmf", "cally_pelvis.cmf",
        "cally_jog.caf", "cally_walk.caf"};
    enum { N = sizeof names / sizeof names[0] };
    char paths[N][4096];
    const char *list[N];
    for (int i = 0; assets && i < N; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/cal3d/cally/%s", assets, names[i]);
        list[i] = paths[i];
    }
    if (!assets || access(paths[0], R_OK) != 0) {
        printf("cally: skipped (no shared assets)\n");
        return 0;
    }
    ossa_error err;
    CHECKF(ossa_load_files(list, N, NULL, out, &err) == OSSA_OK, "%s", err.message);
    return *out != NULL;
}
