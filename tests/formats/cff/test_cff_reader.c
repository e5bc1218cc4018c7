/* The CFF reader on a hand-built file (cff_test_util.c): LODs, names, materials from textures,
 * 8- and 16-bit indices, the position / UV / colour decoding of docs/FORMATS.md, CFF, frames as
 * T + Rz(Rx(Ry(p))) with frame 0 as the rest state, the seventh values, the half-float
 * diagnostic, and a file with nothing in it. */
#include <math.h>
#include <string.h>

#include "cff_test_util.h"
#include "formats/cff/cff.h"
#include "test_common.h"

/* Rz(c) Rx(a) Ry(b) p in double, written out from the matrices. */
static void euler_apply(const double ang[3], const double p[3], double out[3])
{
    double ca = cos(ang[0]), sa = sin(ang[0]), cb = cos(ang[1]), sb = sin(ang[1]);
    double cc = cos(ang[2]), sc = sin(ang[2]);
    double y1[3] = {cb * p[0] + sb * p[2], p[1], -sb * p[0] + cb * p[2]};
    double x1[3] = {y1[0], ca * y1[1] - sa * y1[2], sa * y1[1] + ca * y1[2]};
    out[0] = cc * x1[0] - sc * x1[1];
    out[1] = sc * x1[0] + cc * x1[1];
    out[2] = x1[2];
}

static int16_t raw_at(const uint8_t *p) { return (int16_t)(uint16_t)(p[0] | p[1] << 8); }

int main(void)
{
    cff_fixture fx;
    CHECK(cff_fixture_make(&fx));
    if (!fx.data)
        return test_finish("cff-reader");
    ossa_model *m = NULL;
    ossa_error err;
    ossa_status st = ossa_load_memory(fx.data, fx.size, "ship.cff", NULL, &m, &err);
    CHECKF(st == OSSA_OK, "%s", err.message);
    if (m) {
        CHECK(m->format == OSSA_FORMAT_CFF && m->skeleton_format == OSSA_FORMAT_CFF);
        CHECKF(m->warning_count == 0, "%s", m->warning_count ? m->warnings[0] : "");
        CHECK(m->bone_count == 3 && m->mesh_count == 3);
        CHECK(!strcmp(m->bones[0].name, "hull") && !strcmp(m->bones[1].name, "sail") &&
              !strcmp(m->bones[2].name, "hull_lod1"));
        CHECK(m->meshes[0].lod == 0 && m->meshes[1].lod == 0 && m->meshes[2].lod == 1);
        CHECK(!strcmp(m->meshes[2].name, "hull"));
        CHECK(m->material_count == 2 && !strcmp(m->materials[1].name, "sails.tga") &&
              m->materials[1].map_count == 1 && !strcmp(m->materials[1].maps[0].file, "sails.tga"));
        CHECK(m->meshes[0].submeshes[0].material == 0 && m->meshes[1].submeshes[0].material == 1);

        /* The 300-vertex mesh has no frames: its positions are the decoded ones. */
        const ossa_submesh *sail = &m->meshes[1].submeshes[0];
        CHECK(sail->vertex_count == 300 && sail->face_count == 298);
        CHECK(sail->indices[3 * 297 + 2] == 299);
        size_t vbase = fx.frame_count_at[1] + 8; /* frame count, name, then vertices */
        double worst = 0;
        for (uint32_t v = 0; v < sail->vertex_count; v++) {
            const uint8_t *p = fx.data + vbase + 13 * (size_t)v;
            for (int k = 0; k < 3; k++) {
                double want = fx.origin[k] + raw_at(p + 2 * k) * (double)fx.scale[k] / 32767.0;
                worst = fmax(worst, fabs(want - sail->positions[3 * v + k]));
            }
            CHECK_NEAR(sail->uvs[2 * v], raw_at(p + 6) / 1024.0, 1e-7);
            CHECK_NEAR(sail->uvs[2 * v + 1], raw_at(p + 8) / 1024.0, 1e-7);
            CHECK_NEAR(sail->colors[3 * v], p[10] / 127.0, 1e-6);
            CHECK_NEAR(sail->colors[3 * v + 2], 255 / 127.0, 1e-6);
            CHECK(sail->influence_start[v + 1] == v + 1 && sail->influences[v].bone == 1 &&
                  sail->influences[v].weight == 1.0f);
            double n = 0;
            for (int k = 0; k < 3; k++)
                n += sail->normals[3 * v + k] * (double)sail->normals[3 * v + k];
            CHECK_NEAR(n, 1.0, 1e-5);
        }
        CHECK(worst <= 1e-6);
        CHECK(sail->vertex_count && sail->positions[0] < 0); /* raw -32767: signed reading */

        /* Mesh 0: three frames, the first of them its rest state. */
        CHECK(m->clip_count == 1);
        const ossa_clip *clip = &m->clips[0];
        CHECK(!strcmp(clip->name, "ship"));
        CHECK_NEAR(clip->duration, 3 / 25.0, 1e-7);
        CHECK(clip->frame_rate == 25.0f);
        CHECK(clip->track_count == 2 && clip->tracks[0].bone == 0 && clip->tracks[1].bone == 2);
        const ossa_track *tr = &clip->tracks[0];
        CHECK(tr->key_count == 3 && tr->extra && tr->extra[2] == 4.0f);
        CHECK_NEAR(tr->times[1], 0.04, 1e-7);
        const ossa_submesh *hull = &m->meshes[0].submeshes[0];
        size_t hbase = fx.frame_count_at[0] + 8;
        for (uint32_t k = 0; k < tr->key_count; k++) {
            double ang[3] = {0.3 * k, -0.2 * k, 0.7 * k}, t[3] = {0.1 * k, 1.0, -2.0};
            double p[3] = {1.0, 2.0, 3.0}, want[3], got[3];
            euler_apply(ang, p, want);
            const float *q = tr->rotations + 4 * k;
            /* v' = q v q* by hand. */
            double u[3] = {q[0], q[1], q[2]}, w = q[3];
            double c1[3] = {u[1] * p[2] - u[2] * p[1], u[2] * p[0] - u[0] * p[2],
                            u[0] * p[1] - u[1] * p[0]};
            double c2[3] = {u[1] * c1[2] - u[2] * c1[1], u[2] * c1[0] - u[0] * c1[2],
                            u[0] * c1[1] - u[1] * c1[0]};
            for (int c = 0; c < 3; c++) {
                got[c] = p[c] + 2 * (w * c1[c] + c2[c]);
                CHECK_NEAR(got[c], want[c], 1e-5);
                CHECK_NEAR(tr->translations[3 * k + c], t[c], 1e-6);
            }
        }
        /* Bind positions: frame 0 (translation (0, 1, -2), no rotation) applied. */
        for (uint32_t v = 0; v < hull->vertex_count; v++) {
            const uint8_t *p = fx.data + hbase + 13 * (size_t)v;
            double local[3];
            for (int k = 0; k < 3; k++)
                local[k] = fx.origin[k] + raw_at(p + 2 * k) * (double)fx.scale[k] / 32767.0;
            CHECK_NEAR(hull->positions[3 * v], local[0], 1e-5);
            CHECK_NEAR(hull->positions[3 * v + 1], local[1] + 1.0, 1e-5);
            CHECK_NEAR(hull->positions[3 * v + 2], local[2] - 2.0, 1e-5);
        }
        /* LOD 1's mesh rests at its own frame 0: rotation about X by 0, Y by 0.2 (0.1 x 2 - 0.2
         * x 0), so the bone rest is not the identity. */
        CHECK_NEAR(m->bones[2].rest_t[2], 0.0, 1e-7);
        CHECK(m->bones[2].rest_r[1] != 0.0f);
    }
    ossa_model_destroy(m);

    /* invert_v flips v. */
    ossa_load_options opt = {0};
    opt.invert_v = 1;
    st = ossa_load_memory(fx.data, fx.size, "ship.cff", &opt, &m, &err);
    CHECK(st == OSSA_OK);
    if (m) {
        const uint8_t *p = fx.data + fx.frame_count_at[1] + 8 + 13 * 5;
        CHECK_NEAR(m->meshes[1].submeshes[0].uvs[2 * 5 + 1], 1.0 - raw_at(p + 8) / 1024.0, 1e-6);
    }
    ossa_model_destroy(m);

    /* The two readings of D8. */
    ossa_cff_position_reading as_int, as_half;
    st = ossa_cff_position_readings(fx.data, fx.size, "ship.cff", &as_int, &as_half, &err);
    CHECKF(st == OSSA_OK, "%s", err.message);
    CHECK(as_int.vertices == 307 && as_half.vertices == 307 && as_int.non_finite == 0);
    CHECK_NEAR(as_int.min[0], fx.origin[0] - fx.scale[0], 1e-4);
    CHECK(as_half.non_finite > 0); /* raw values like 0x8001 are fine, 0x7c00.. are not */
    CHECK(ossa_cff_position_readings(fx.data, 20, "short.cff", &as_int, &as_half, &err) ==
          OSSA_ERR_TRUNCATED);
    CHECK(!strcmp(err.file, "short.cff"));

    /* A bare header (an all-zero file reads so): nothing to show or export, which the loader
     * refuses, naming the file, rather than handing over an empty model. */
    uint8_t bare[44] = {0};
    m = (ossa_model *)1;
    st = ossa_load_memory(bare, sizeof bare, "empty.cff", NULL, &m, &err);
    CHECKF(st == OSSA_ERR_FORMAT && m == NULL, "%s", ossa_status_name(st));
    CHECKF(strstr(err.message, "nothing to show or export") && !strcmp(err.file, "empty.cff"),
           "%s: %s", err.file, err.message);

    /* Detection is by extension only (no magic). */
    CHECK(ossa_sniff(fx.data, fx.size, "x/SHIP.CFF") == OSSA_FORMAT_CFF);
    CHECK(ossa_sniff(fx.data, fx.size, "ship.bin") == OSSA_FORMAT_UNKNOWN);
    /* a .cff name wins over another format's magic: a CFF's first bytes are its origin's
     * floats, and x = 2.99e-9 spells "SKM1" (a CFF written from such a model read back as SKM) */
    static const uint8_t skm_bits[16] = "SKM1\0\0\x80\xbf\0\0\0F";
    static const uint8_t c3s_bits[16] = "RIFF\0\0\0\0C3SB";
    static const uint8_t csf_bits[16] = "CSF\0\x14\x05";
    CHECK(ossa_sniff(skm_bits, sizeof skm_bits, "out/model.cff") == OSSA_FORMAT_CFF);
    CHECK(ossa_sniff(c3s_bits, sizeof c3s_bits, "out/model.Cff") == OSSA_FORMAT_CFF);
    CHECK(ossa_sniff(csf_bits, sizeof csf_bits, "model.cff") == OSSA_FORMAT_CFF);
    CHECK(ossa_sniff(skm_bits, sizeof skm_bits, "model.skm") == OSSA_FORMAT_SKM);
    CHECK(ossa_sniff(c3s_bits, sizeof c3s_bits, NULL) == OSSA_FORMAT_C3S);
    CHECK(ossa_sniff(csf_bits, sizeof csf_bits, "model.bin") == OSSA_FORMAT_CSF);

    cff_fixture_free(&fx);
    return test_finish("cff-reader");
}
