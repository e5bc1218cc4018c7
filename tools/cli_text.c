/* Names from files reach the terminal and JSON readers: a bone named with raw bytes 0xFF 0xFE
 * made `ossa info --json` invalid JSON, and an ESC in a name could drive the terminal. Text is
 * therefore written as valid UTF-8 with control characters made visible, and JSON strings are
 * made valid UTF-8 for jansson, which escapes every C0 and C1 control character (and, as the CLI
 * prints JSON, everything outside ASCII; DEL stays as it is, a plain character to JSON). Bytes
 * that are not UTF-8 are read as Latin-1 in JSON (what old exporters wrote) and shown as \xNN in
 * text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when p does not start one. Overlong
 * forms, surrogates and code points beyond U+10FFFF are not valid. */
static size_t utf8_length(const unsigned char *p, size_t left, unsigned *code)
{
    unsigned c = p[0];
    size_t n;
    unsigned min;
    if (c < 0x80) {
        *code = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        n = 2, min = 0x80, c &= 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3, min = 0x800, c &= 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4, min = 0x10000, c &= 0x07;
    } else {
        return 0;
    }
    if (left < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (p[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *code = c;
    return n;
}

/* C0 and C1 control characters and DEL: what a terminal may act on. */
static int is_control(unsigned c)
{
    return c < 0x20 || (c >= 0x7F && c <= 0x9F);
}

json_t *ossa_cli_json_text(const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t left = strlen((const char *)p), k = 0;
    char *buf = malloc(2 * left + 1); /* a Latin-1 byte takes two bytes in UTF-8 */
    if (!buf)
        return NULL;
    while (left) {
        unsigned c;
        size_t n = utf8_length(p, left, &c);
        if (n) {
            memcpy(buf + k, p, n);
            k += n;
        } else { /* not UTF-8: the byte as Latin-1 */
            buf[k++] = (char)(0xC0 | (*p >> 6));
            buf[k++] = (char)(0x80 | (*p & 0x3F));
            n = 1;
        }
        p += n;
        left -= n;
    }
    json_t *j = json_stringn(buf, k);
    free(buf);
    return j;
}

void ossa_cli_write_text(FILE *out, const char *text, size_t size)
{
    const unsigned char *p = (const unsigned char *)text;
    while (size) {
        unsigned c;
        size_t n = utf8_length(p, size, &c);
        if (n && (!is_control(c) || c == '\n' || c == '\t'))
            fwrite(p, 1, n, out);
        else if (n)
            fprintf(out, c < 0x100 ? "\\x%02x" : "\\u%04x", c);
        else
            fprintf(out, "\\x%02x", *p);
        n = n ? n : 1;
        p += n;
        size -= n;
    }
}
