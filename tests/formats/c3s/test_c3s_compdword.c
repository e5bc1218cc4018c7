/* compdword, exactly as c3s-cannibal-scene.txt states it (docs/FORMATS.md, D9): for each
 * byte b, value += b & 0x7F, and while b & 0x80 the value shifts left by 7 and the next byte
 * follows; at most 5 bytes, at most 32 bits. Edge values, the encoder against the decoder,
 * the rejections, and the same rules through the reader (a count in a real subchunk). */
#include <string.h>

#include "c3s_test_util.h"
#include "formats/c3s/c3s_records.h"
#include "test_common.h"

static void decode_case(const char *label, const uint8_t *bytes, size_t n,
                        ossa_c3s_cdw_result want, uint32_t value, size_t used)
{
    uint32_t got = 0xDEADBEEF;
    size_t got_used = 0;
    ossa_c3s_cdw_result r = ossa_c3s_decode_compdword(bytes, n, &got, &got_used);
    CHECKF(r == want, "%s: result %d, expected %d", label, (int)r, (int)want);
    if (want == OSSA_C3S_CDW_OK && r == want)
        CHECKF(got == value && got_used == used, "%s: %u in %zu bytes, expected %u in %zu", label,
               got, got_used, value, used);
}

static void edge_values(void)
{
    decode_case("0", (const uint8_t *)"\x00", 1, OSSA_C3S_CDW_OK, 0, 1);
    decode_case("0x7F", (const uint8_t *)"\x7F", 1, OSSA_C3S_CDW_OK, 0x7F, 1);
    decode_case("0x80", (const uint8_t *)"\x81\x00", 2, OSSA_C3S_CDW_OK, 0x80, 2);
    /* 300 = 2 x 128 + 44: most significant group first. LEB128 would read 2 + 44 x 128. */
    decode_case("300", (const uint8_t *)"\x82\x2C", 2, OSSA_C3S_CDW_OK, 300, 2);
    decode_case("0x3FFF", (const uint8_t *)"\xFF\x7F", 2, OSSA_C3S_CDW_OK, 0x3FFF, 2);
    decode_case("0x4000", (const uint8_t *)"\x81\x80\x00", 3, OSSA_C3S_CDW_OK, 0x4000, 3);
    decode_case("0x0FFFFFFF", (const uint8_t *)"\xFF\xFF\xFF\x7F", 4, OSSA_C3S_CDW_OK,
                0x0FFFFFFF, 4);
    decode_case("5-byte maximum", (const uint8_t *)"\x8F\xFF\xFF\xFF\x7F", 5, OSSA_C3S_CDW_OK,
                0xFFFFFFFFu, 5);
    decode_case("2^32", (const uint8_t *)"\x90\x80\x80\x80\x00", 5, OSSA_C3S_CDW_OVERFLOW, 0, 0);
    decode_case("6th byte", (const uint8_t *)"\x81\x80\x80\x80\x80\x00", 6,
                OSSA_C3S_CDW_TOO_LONG, 0, 0);
    decode_case("all continuation", (const uint8_t *)"\x80\x80\x80\x80\x80", 5,
                OSSA_C3S_CDW_TOO_LONG, 0, 0);
    decode_case("empty", (const uint8_t *)"", 0, OSSA_C3S_CDW_TRUNCATED, 0, 0);
    decode_case("cut after 1", (const uint8_t *)"\x81", 1, OSSA_C3S_CDW_TRUNCATED, 0, 0);
    decode_case("cut after 4", (const uint8_t *)"\x8F\xFF\xFF\xFF", 4, OSSA_C3S_CDW_TRUNCATED,
                0, 0);
    /* Leading zero groups are legal, only longer. */
    decode_case("padded 5", (const uint8_t *)"\x80\x80\x05", 3, OSSA_C3S_CDW_OK, 5, 3);
    /* Bytes after the number are not consumed. */
    decode_case("followed", (const uint8_t *)"\x05\x81\x00", 3, OSSA_C3S_CDW_OK, 5, 1);
}

static void encoder(void)
{
    static const uint32_t values[] = {0, 1, 0x7F, 0x80, 0x81, 0x3FFF, 0x4000, 0x1FFFFF, 0x200000,
                                      0x0FFFFFFF, 0x10000000, 0x7FFFFFFF, 0xFFFFFFFE, 0xFFFFFFFF};
    static const size_t lengths[] = {1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        uint8_t bytes[OSSA_C3S_COMPDWORD_MAX];
        size_t n = ossa_c3s_encode_compdword(values[i], bytes);
        CHECKF(n == lengths[i], "%u encodes in %zu bytes", values[i], n);
        decode_case("encoded", bytes, n, OSSA_C3S_CDW_OK, values[i], n);
        /* The test builder's own encoder agrees byte for byte. */
        ct_buf b;
        ct_init(&b);
        ct_cdw(&b, values[i]);
        CHECK(b.size == n && memcmp(b.data, bytes, n) == 0);
        ct_free(&b);
    }
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 100000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint32_t v = (uint32_t)(x >> (x & 31));
        uint8_t bytes[OSSA_C3S_COMPDWORD_MAX];
        size_t n = ossa_c3s_encode_compdword(v, bytes);
        uint32_t back;
        size_t used;
        if (ossa_c3s_decode_compdword(bytes, n, &back, &used) != OSSA_C3S_CDW_OK || back != v ||
            used != n) {
            CHECKF(0, "random value %u does not survive", v);
            break;
        }
    }
}

/* The TVRT count (a subchunk version) written as given bytes; the reader's verdict. */
static void through_reader(const char *label, const uint8_t *version, size_t n, ossa_status want)
{
    ct_buf b;
    ct_init(&b);
    ct_start_scene(&b);
    size_t model = ct_begin_model(&b, "m");
    size_t c = ct_begin(&b, "TVRT");
    ct_bytes(&b, version, n);
    if (want == OSSA_OK) {
        ct_str(&b, "");
        ct_cdw(&b, 0);
    }
    ct_end(&b, c);
    ct_end(&b, model);
    ct_finish(&b);
    ossa_model *m = NULL;
    ossa_error err;
    ossa_status st = ct_load(&b, &m, &err);
    CHECKF(st == want, "%s: %s (%s)", label, ossa_status_name(st), err.message);
    if (st != OSSA_OK) {
        /* The offset points at the compdword (the subchunk's data starts after its header). */
        size_t at = b.size - n - (b.size & 1) - 0;
        CHECKF(err.offset >= 0 && (size_t)err.offset + n >= at && (size_t)err.offset <= b.size,
               "%s: offset %lld", label, (long long)err.offset);
    }
    ossa_model_destroy(m);
    ct_free(&b);
}

int main(void)
{
    edge_values();
    encoder();
    through_reader("version 1", (const uint8_t *)"\x01", 1, OSSA_OK);
    through_reader("version 0x80", (const uint8_t *)"\x81\x00", 2, OSSA_OK);
    through_reader("six bytes", (const uint8_t *)"\x81\x80\x80\x80\x80\x00", 6, OSSA_ERR_FORMAT);
    through_reader("overflow", (const uint8_t *)"\x90\x80\x80\x80\x00", 5, OSSA_ERR_RANGE);
    through_reader("cut by the chunk", (const uint8_t *)"\x81\x80", 2, OSSA_ERR_TRUNCATED);
    return test_finish("c3s-compdword");
}
