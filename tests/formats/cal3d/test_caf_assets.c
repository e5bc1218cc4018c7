/* Every real CAF of the shared assets loads and agrees with INVENTORY.tsv; cally_walk.caf is
 * decoded here independently from its raw bytes and compared key by key (Hamilton conversion
 * included). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/build_context.h"
#include "formats/formats.h"
#include "ossa/load.h"
#include "test_common.h"

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float lef(const uint8_t *p)
{
    uint32_t u = le32(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void check_inventory(const char *dir)
{
    char path[1024];
    FILE *inv = fopen(test_path(path, sizeof path, dir, "INVENTORY.tsv"), "r");
    CHECKF(inv != NULL, "cannot open %s", path);
    if (!inv)
        return;
    char line[2048];
    int files = 0;
    while (fgets(line, sizeof line, inv)) {
        char rel[1024];
        unsigned version, tracks;
        float duration;
        /* path, size in bytes, then "CAF v<version> duration=<s> tracks=<n> ..." */
        if (sscanf(line, "%1023[^\t]\t%*u\tCAF v%u duration=%f tracks=%u", rel, &version,
                   &duration, &tracks) != 4)
            continue;
        files++;
        ossa_error err;
        ossa_error_clear(&err);
        ossa_model *m = NULL;
        ossa_status st = ossa_load_file(test_path(path, sizeof path, dir, rel), NULL, &m, &err);
        CHECKF(st == OSSA_OK, "%s: %s", rel, err.message);
        if (st != OSSA_OK)
            continue;
        CHECKF(m->clip_count == 1, "%s: %u clips", rel, m->clip_count);
        CHECKF(m->version == version, "%s: version %u, inventory says %u", rel, m->version,
               version);
        const ossa_clip *c = &m->clips[0];
        CHECKF(fabsf(c->duration - duration) <= 0.0006f, "%s: duration %g vs %g", rel,
               (double)c->duration, (double)duration);
        CHECKF(c->track_count == tracks, "%s: %u tracks vs %u", rel, c->track_count, tracks);
        CHECK(c->format == OSSA_FORMAT_CAF && c->version == version && !c->compressed);
        CHECK(c->name && strstr(rel, c->name) != NULL);
        for (uint32_t t = 0; t < c->track_count; t++) {
            const ossa_track *tr = &c->tracks[t];
            CHECK(tr->key_count > 0 && tr->scales == NULL);
            for (uint32_t k = 0; k < tr->key_count; k++) {
                const float *q = tr->rotations + 4 * k;
                double len = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] +
                                  (double)q[2] * q[2] + (double)q[3] * q[3]);
                CHECKF(fabs(len - 1.0) < 0.01, "%s track %u key %u: |q| = %g", rel, t, k, len);
            }
        }
        ossa_model_destroy(m);
    }
    fclose(inv);
    CHECKF(files >= 29, "only %d CAF files in the inventory", files); /* 29 when written */
}

/* Decodes the classic layout by hand and compares with the loader's clip. */
static void compare_raw(const uint8_t *d, size_t n, const ossa_clip *c)
{
    CHECK(n > 16 && memcmp(d, "CAF", 4) == 0);
    CHECK(le32(d + 4) == 700);
    CHECK(lef(d + 8) == c->duration);
    uint32_t tracks = le32(d + 12);
    CHECK(tracks == 37 && c->track_count == tracks);
    size_t pos = 16;
    uint32_t compared = 0;
    for (uint32_t t = 0; t < tracks && pos + 8 <= n; t++) {
        uint32_t bone = le32(d + pos), keys = le32(d + pos + 4);
        pos += 8;
        const ossa_track *tr = &c->tracks[t];
        /* Without a skeleton, or with the parents-first test one, ids map to themselves. */
        CHECKF(tr->bone == bone, "track %u bone %u vs %u", t, tr->bone, bone);
        CHECK(tr->key_count == keys);
        for (uint32_t k = 0; k < keys && pos + 32 <= n; k++, pos += 32) {
            const uint8_t *p = d + pos;
            CHECK(tr->times[k] == lef(p));
            for (int i = 0; i < 3; i++)
                CHECK(tr->translations[3 * k + i] == lef(p + 4 + 4 * i));
            /* Cal3D stores conjugated quaternions: Hamilton = (-x, -y, -z, w). */
            CHECK(tr->rotations[4 * k + 0] == -lef(p + 16));
            CHECK(tr->rotations[4 * k + 1] == -lef(p + 20));
            CHECK(tr->rotations[4 * k + 2] == -lef(p + 24));
            CHECK(tr->rotations[4 * k + 3] == lef(p + 28));
            compared++;
        }
    }
    CHECK(pos == n);
    CHECKF(compared > 100, "only %u keys compared", compared);
}

static void check_cally_walk(const char *dir)
{
    char path[1024];
    size_t n = 0;
    uint8_t *d = test_read_file(test_path(path, sizeof path, dir, "cal3d/cally/cally_walk.caf"), &n);
    CHECKF(d != NULL, "cannot read %s", path);
    if (!d)
        return;

    ossa_error err;
    ossa_error_clear(&err);
    ossa_model *m = NULL;
    CHECK(ossa_load_memory(d, n, "cally_walk.caf", NULL, &m, &err) == OSSA_OK);
    if (m) {
        CHECK(strcmp(m->clips[0].name, "cally_walk") == 0);
        compare_raw(d, n, &m->clips[0]);
        /* A few keys spelled out, as read from the file with a hex viewer. */
        const ossa_track *t0 = &m->clips[0].tracks[0], *t1 = &m->clips[0].tracks[1];
        CHECK(t0->bone == 0 && t0->key_count == 31 && t1->bone == 1 && t1->key_count == 31);
        CHECK_NEAR(t0->times[1], 0.0333333, 1e-6);
        CHECK_NEAR(t0->translations[3 * 1 + 2], 94.825439, 1e-4);
        CHECK_NEAR(t0->rotations[4 * 1 + 0], -0.0553740, 1e-6);
        CHECK_NEAR(t0->rotations[4 * 1 + 2], -0.6899921, 1e-6);
        CHECK_NEAR(t0->rotations[4 * 1 + 3], 0.7193828, 1e-6);
        CHECK_NEAR(t1->translations[0], -0.9504878, 1e-6);
        CHECK_NEAR(t1->rotations[1], -0.5077880, 1e-6);
        CHECK_NEAR(t1->rotations[3], 0.4920894, 1e-6);
        ossa_model_destroy(m);
    }

    /* Through a build with a 37-bone skeleton (identity mapping, parents-first). */
    ossa_error_clear(&err);
    ossa_build b;
    CHECK(ossa_build_init(&b, &err, NULL));
    ossa_bone bones[37];
    memset(bones, 0, sizeof bones);
    for (int i = 0; i < 37; i++) {
        bones[i].name = "bone";
        bones[i].parent = i - 1;
        bones[i].rest_r[3] = bones[i].inv_bind_r[3] = 1.0f;
        bones[i].rest_s[0] = bones[i].rest_s[1] = bones[i].rest_s[2] = 1.0f;
    }
    ossa_status st = ossa_build_set_file(&b, "cally_walk.caf");
    if (st == OSSA_OK)
        st = ossa_build_set_skeleton(&b, bones, 37);
    if (st == OSSA_OK)
        st = ossa_read_caf(&b, d, n);
    CHECKF(st == OSSA_OK, "%s", err.message);
    CHECK(b.last_version == 700);
    ossa_model *out = NULL;
    CHECK(ossa_build_finish(&b, st, &out) == OSSA_OK);
    if (out) {
        compare_raw(d, n, &out->clips[0]);
        ossa_model_destroy(out);
    }
    free(d);
}

int main(void)
{
    const char *dir = test_assets_dir();
    if (!dir) {
        printf("no shared assets: skipped\n");
        return TEST_SKIP;
    }
    check_inventory(dir);
    check_cally_walk(dir);
    return test_finish("binary-caf-assets");
}
