/* Core pieces: bounded reader, counts against bytes left, arena, checked sizes, skeleton
 * reordering and validation. */
#include <math.h>
#include <string.h>

#include "core/arena.h"
#include "core/build_context.h"
#include "core/checked.h"
#include "core/reader.h"
#include "test_common.h"

static void test_reader(void)
{
    ossa_error err;
    ossa_error_clear(&err);
    ossa_build b;
    CHECK(ossa_build_init(&b, &err, NULL));
    const uint8_t data[] = {0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0x80, 0x3f, 0xff, 0xff, 0xff, 0xff,
                            0x02, 0x00, 0x00, 0x00, 'h', 0x00};
    ossa_reader r;
    ossa_reader_init(&r, &b, data, sizeof data);
    uint32_t u;
    float f;
    CHECK(ossa_rd_u32(&r, &u, "word") == OSSA_OK && u == 0x04030201u);
    CHECK(ossa_rd_f32(&r, &f, "float") == OSSA_OK && f == 1.0f);
    uint32_t count;
    CHECK(ossa_rd_count(&r, &count, 100, 4, "count") == OSSA_ERR_RANGE); /* -1 */
    CHECK(err.status == OSSA_ERR_RANGE && err.offset == 8);
    CHECK(strstr(err.message, "negative") != NULL);
    ossa_error_clear(&err);
    const char *s;
    CHECK(ossa_rd_cal3d_string(&r, &s, "name") == OSSA_OK && strcmp(s, "h") == 0);
    CHECK(ossa_rd_left(&r) == 0);
    CHECK(ossa_rd_u8(&r, (uint8_t *)&u, "byte") == OSSA_ERR_TRUNCATED);
    CHECK(err.offset == 18);

    /* A count that cannot fit in the bytes left fails before anything is allocated. */
    const uint8_t lying[] = {0x00, 0x00, 0x01, 0x00, 1, 2, 3, 4};
    ossa_error_clear(&err);
    ossa_reader_init(&r, &b, lying, sizeof lying);
    CHECK(ossa_rd_count(&r, &count, 1u << 30, 4, "vertex count") == OSSA_ERR_TRUNCATED);
    /* NaN is rejected where a finite number is required. */
    const uint8_t nan[] = {0x00, 0x00, 0xc0, 0x7f};
    ossa_error_clear(&err);
    ossa_reader_init(&r, &b, nan, sizeof nan);
    CHECK(ossa_rd_f32(&r, &f, "weight") == OSSA_ERR_VALUE);
    ossa_model *m;
    CHECK(ossa_build_finish(&b, OSSA_ERR_VALUE, &m) == OSSA_ERR_VALUE && m == NULL);
}

static void test_checked_and_arena(void)
{
    size_t out;
    CHECK(!ossa_mul_size(SIZE_MAX / 2 + 1, 2, &out));
    CHECK(ossa_mul3_size(3, 4, 5, &out) && out == 60);
    CHECK(!ossa_add_size(SIZE_MAX, 1, &out));
    ossa_arena *a = ossa_arena_create();
    CHECK(a != NULL);
    uint8_t *p = ossa_arena_alloc(a, 3);
    uint8_t *q = ossa_arena_alloc(a, 1 << 20);
    CHECK(p && q && ((uintptr_t)p % 64) == 0 && ((uintptr_t)q % 64) == 0);
    CHECK(ossa_arena_array(a, SIZE_MAX / 4, 8) == NULL);
    char *s = ossa_arena_strndup(a, "bone", 4);
    CHECK(s && strcmp(s, "bone") == 0);
    ossa_arena_destroy(a);
}

/* A rewind gives back every block made since the mark (shared and large ones, in front of and
 * behind the marked head) and keeps what came before intact; ASan sees any block lost or freed
 * twice. */
static void test_arena_rewind(void)
{
    ossa_arena *a = ossa_arena_create();
    CHECK(a != NULL);
    ossa_arena_mark empty = ossa_arena_get_mark(a);
    char *kept = ossa_arena_strndup(a, "kept", 4);
    CHECK(kept != NULL);
    size_t before = ossa_arena_bytes(a);
    for (int round = 0; round < 3; round++) {
        ossa_arena_mark mark = ossa_arena_get_mark(a);
        for (int i = 0; i < 40; i++) /* new shared blocks, each a new head */
            CHECK(ossa_arena_alloc(a, 30000) != NULL);
        CHECK(ossa_arena_alloc(a, 1 << 20) != NULL); /* large: linked in behind the head */
        CHECK(ossa_arena_bytes(a) > before);
        ossa_arena_rewind(a, &mark);
        CHECK(ossa_arena_bytes(a) == before);
        CHECK(strcmp(kept, "kept") == 0);
    }
    /* Space given back is handed out again, zeroed. */
    ossa_arena_mark mark = ossa_arena_get_mark(a);
    uint8_t *p = ossa_arena_alloc(a, 64);
    CHECK(p != NULL);
    memset(p, 0xAB, 64);
    ossa_arena_rewind(a, &mark);
    uint8_t *q = ossa_arena_alloc(a, 64);
    CHECK(q == p && q[0] == 0 && q[63] == 0);
    /* A mark taken on the empty arena frees everything. */
    ossa_arena_rewind(a, &empty);
    CHECK(ossa_arena_bytes(a) == 0);
    CHECK(ossa_arena_alloc(a, 16) != NULL);
    ossa_arena_destroy(a);

    /* A build rolled back loses the warnings (and the grown list) added since its save. */
    ossa_error err;
    ossa_error_clear(&err);
    ossa_build b;
    CHECK(ossa_build_init(&b, &err, NULL));
    ossa_warn(&b, "first");
    ossa_build_savepoint sp;
    ossa_build_save(&b, &sp);
    for (int i = 0; i < 20; i++)
        ossa_warn(&b, "attempt %d", i);
    CHECK(b.model->warning_count == 21);
    ossa_build_rollback(&b, &sp);
    CHECK(b.model->warning_count == 1 && strstr(b.model->warnings[0], "first") != NULL);
    ossa_warn(&b, "second");
    CHECK(b.model->warning_count == 2 && strstr(b.model->warnings[1], "second") != NULL);
    ossa_model *out;
    CHECK(ossa_build_finish(&b, OSSA_OK, &out) == OSSA_OK && out != NULL);
    ossa_model_destroy(out);
}

static ossa_bone bone(const char *name, int32_t parent)
{
    ossa_bone bn;
    memset(&bn, 0, sizeof bn);
    bn.name = name;
    bn.parent = parent;
    bn.rest_r[3] = 1;
    bn.inv_bind_r[3] = 1;
    bn.rest_s[0] = bn.rest_s[1] = bn.rest_s[2] = 1;
    return bn;
}

static void test_skeleton_order(void)
{
    ossa_error err;
    ossa_error_clear(&err);
    ossa_build b;
    CHECK(ossa_build_init(&b, &err, NULL));
    /* File order: child (1 -> parent 2), root, middle: must come out root, middle, child. */
    ossa_bone file[3] = {bone("hand", 2), bone("root", -1), bone("arm", 1)};
    CHECK(ossa_build_set_skeleton(&b, file, 3) == OSSA_OK);
    const ossa_model *m = b.model;
    CHECK(m->bone_count == 3);
    CHECK(strcmp(m->bones[0].name, "root") == 0 && m->bones[0].parent == -1);
    CHECK(strcmp(m->bones[1].name, "arm") == 0 && m->bones[1].parent == 0);
    CHECK(strcmp(m->bones[2].name, "hand") == 0 && m->bones[2].parent == 1);
    uint32_t mapped;
    CHECK(ossa_build_map_bone(&b, 0, 10, 0, &mapped) == OSSA_OK && mapped == 2);
    CHECK(ossa_build_map_bone(&b, 3, 10, 0, &mapped) == OSSA_ERR_RANGE);
    CHECK(err.offset == 10 && strstr(err.message, "bone id 3") != NULL);
    CHECK(m->warning_count == 1);
    ossa_model *out;
    CHECK(ossa_build_finish(&b, OSSA_OK, &out) == OSSA_OK && out != NULL);
    ossa_model_destroy(out);

    /* A parent cycle is an error, not an endless loop. */
    ossa_error_clear(&err);
    CHECK(ossa_build_init(&b, &err, NULL));
    ossa_bone cyc[3] = {bone("a", 1), bone("b", 0), bone("c", -1)};
    CHECK(ossa_build_set_skeleton(&b, cyc, 3) == OSSA_ERR_FORMAT);
    CHECK(strstr(err.message, "cycle") != NULL);
    CHECK(ossa_build_finish(&b, err.status, &out) != OSSA_OK && out == NULL);
}

/* The map ossa-view draws, the exporter exports and the page shows: the first with a file whose
 * type is empty or names "diffuse" in any case. */
static void test_diffuse_map(void)
{
    ossa_texture_map maps[4] = {
        {.file = "a.tga", .path = "/m/a.tga", .type = "Opacity"},
        {.file = NULL, .path = NULL, .type = ""},                 /* no file: skipped */
        {.file = "b.tga", .path = "/m/b.tga", .type = "IMVU DIFFUSE color"},
        {.file = "c.tga", .path = "/m/c.tga", .type = ""},
    };
    ossa_material mat = {.name = "m", .map_count = 4, .maps = maps};
    CHECK(ossa_material_diffuse_map(&mat) == &maps[2]);
    mat.maps = maps + 3;
    mat.map_count = 1;
    CHECK(ossa_material_diffuse_map(&mat) == &maps[3]);
    mat.maps = maps;
    mat.map_count = 2;
    CHECK(ossa_material_diffuse_map(&mat) == NULL);
    mat.map_count = 0;
    CHECK(ossa_material_diffuse_map(&mat) == NULL);
}

/* Names as UTF-8: valid sequences kept, other bytes read as Latin-1, the output never cut
 * inside a sequence. */
static void test_name_utf8(void)
{
    char out[32];
    CHECK(ossa_name_utf8("Bip01 \xe9paule", out, sizeof out) == 13 &&
          strcmp(out, "Bip01 \xc3\xa9paule") == 0);                 /* Latin-1 e-acute */
    CHECK(ossa_name_utf8("\xc3\xa9t\xc3\xa9", out, sizeof out) == 5 &&
          strcmp(out, "\xc3\xa9t\xc3\xa9") == 0);                  /* already UTF-8 */
    CHECK(ossa_name_utf8("\xc0\xaf", out, sizeof out) == 4 &&    /* overlong '/': Latin-1 */
          strcmp(out, "\xc3\x80\xc2\xaf") == 0);
    CHECK(ossa_name_utf8("\xed\xa0\x80", out, sizeof out) == 6);  /* a surrogate: Latin-1 */
    CHECK(ossa_name_utf8("a\xe9", out, 3) == 3 && strcmp(out, "a") == 0); /* not cut */
    CHECK(ossa_name_utf8(NULL, out, sizeof out) == 0 && out[0] == 0);
    CHECK(ossa_name_utf8("abc", NULL, 0) == 3);
}

int main(void)
{
    test_reader();
    test_checked_and_arena();
    test_arena_rewind();
    test_skeleton_order();
    test_diffuse_map();
    test_name_utf8();
    return test_finish("unit-core");
}
