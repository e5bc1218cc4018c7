/* Opening and reading the files of a model: regular files only, refused before any read when
 * they are not, sniffed from their first bytes before they are read whole (load.c, folder.c). */
#include "io/file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ossa/files.h"
#include "ossa/limits.h"
#include "io/write_buf.h"

const char *ossa_file_kind(mode_t mode)
{
    return S_ISDIR(mode) ? "a folder" : S_ISFIFO(mode) ? "a FIFO" : S_ISSOCK(mode) ? "a socket"
           : S_ISCHR(mode) || S_ISBLK(mode) ? "a device" : "not a regular file";
}

FILE *ossa_file_open_regular(const char *path, struct stat *st)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        close(fd);
        errno = EINVAL; /* st tells what it was */
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f)
        close(fd);
    return f;
}

/* ossa_file_open_regular with the build's error filled: what the path was when it is not a
 * regular file, why it could not be opened otherwise. */
static ossa_status open_regular(ossa_build *b, const char *path, FILE **out, struct stat *st)
{
    memset(st, 0, sizeof *st);
    *out = ossa_file_open_regular(path, st);
    if (*out)
        return OSSA_OK;
    if (errno == EINVAL && st->st_mode && !S_ISREG(st->st_mode))
        return ossa_fail(b, OSSA_ERR_IO, -1, "%s, not a file Ossa can read",
                         ossa_file_kind(st->st_mode));
    return ossa_fail(b, errno == ENOMEM ? OSSA_ERR_NOMEM : OSSA_ERR_IO, -1, "cannot open: %s",
                     strerror(errno));
}

/* The first bytes of a file (up to cap) and its size, for sniffing before anything is read
 * whole. */
ossa_status ossa_file_read_head(ossa_build *b, const char *path, uint8_t *head, size_t cap,
                                size_t *got, uint64_t *file_size)
{
    FILE *f;
    struct stat st;
    *got = 0;
    if (file_size)
        *file_size = 0;
    OSSA_TRY(open_regular(b, path, &f, &st));
    *got = fread(head, 1, cap, f);
    fclose(f);
    if (file_size)
        *file_size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    return OSSA_OK;
}

ossa_status ossa_file_fail_nul(ossa_build *b, const uint8_t *p, size_t at)
{
    int line = 1;
    for (size_t i = 0; i < at; i++)
        line += p[i] == '\n';
    return ossa_fail_line(b, OSSA_ERR_FORMAT, line, "a NUL byte at offset %zu: not text (XML and "
                          ".cfg files never hold one)", at);
}

/* Reads the n bytes of f into a buffer of n + 1 bytes (*out). With check, in pieces into a
 * buffer that grows as they pass it, so that a large file refused after its first bad piece
 * is neither read nor allocated whole (1 GiB of NULs after a valid XML start took 17 s). */
static ossa_status read_into(ossa_build *b, FILE *f, size_t n, ossa_read_check check, void *ctx,
                             uint8_t **out)
{
    enum { PIECE = 1u << 20 };
    size_t cap = check && n > PIECE ? PIECE : n, done = 0;
    uint8_t *buf = malloc(cap + 1); /* +1: a NUL after the data helps text parsers */
    ossa_status st = buf ? OSSA_OK : ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot allocate %zu bytes",
                                               cap + 1);
    while (st == OSSA_OK && done < n) {
        size_t want = check && n - done > PIECE ? PIECE : n - done;
        if (done + want > cap) {
            size_t grown = cap > n / 2 ? n : 2 * cap;
            uint8_t *bigger = realloc(buf, grown + 1);
            if (!bigger) {
                st = ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot allocate %zu bytes", grown + 1);
                break;
            }
            buf = bigger;
            cap = grown;
        }
        size_t got = fread(buf + done, 1, want, f);
        if (check)
            st = check(b, ctx, buf, done, done + got);
        done += got;
        if (st == OSSA_OK && (got != want || ferror(f)))
            st = ossa_fail(b, OSSA_ERR_IO, -1, "read %zu of %zu bytes", done, n);
    }
    if (st != OSSA_OK) {
        free(buf);
        return st;
    }
    buf[n] = 0;
    *out = buf;
    return OSSA_OK;
}

ossa_status ossa_file_read_whole(ossa_build *b, const char *path, uint64_t max,
                                 ossa_read_check check, void *ctx, uint8_t **out, size_t *size)
{
    *out = NULL;
    *size = 0;
    FILE *f;
    struct stat st;
    OSSA_TRY(open_regular(b, path, &f, &st));
    if (max > OSSA_MAX_FILE_SIZE)
        max = OSSA_MAX_FILE_SIZE;
    if ((uint64_t)st.st_size > max) {
        fclose(f);
        return ossa_fail(b, OSSA_ERR_RANGE, -1, "file of %lld bytes exceeds the limit of %llu",
                         (long long)st.st_size, (unsigned long long)max);
    }
    size_t n = (size_t)st.st_size;
    ossa_status st_read = read_into(b, f, n, check, ctx, out);
    fclose(f);
    if (st_read == OSSA_OK)
        st_read = ossa_build_note_read(b, path);
    if (st_read != OSSA_OK) {
        free(*out);
        *out = NULL;
        return st_read;
    }
    *size = n;
    return OSSA_OK;
}

const char *ossa_text_bom_name(const uint8_t *p, size_t n)
{
    /* UTF-32 first: its little-endian mark begins with UTF-16's. */
    if (n >= 4 && ((p[0] == 0xFF && p[1] == 0xFE && !p[2] && !p[3]) ||
                   (!p[0] && !p[1] && p[2] == 0xFE && p[3] == 0xFF)))
        return "UTF-32";
    if (n >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF)))
        return "UTF-16";
    return NULL;
}

/* Whether the first bytes can begin a file of format f: a binary format's magic, or for XML
 * (told by its extension) a '<' as the first character after white space and a byte order
 * mark, and no NUL byte (XML never holds one; docs/FORMATS.md, "Every file is opened as a
 * regular file"). Checked before a file is read whole, so that a large file of something else
 * is refused from its first bytes. */
ossa_status ossa_file_check_head(ossa_build *b, ossa_format f, const uint8_t *p, size_t n)
{
    switch (f) {
    case OSSA_FORMAT_XSF: case OSSA_FORMAT_XAF: case OSSA_FORMAT_XMF: case OSSA_FORMAT_XRF:
    case OSSA_FORMAT_XPF: {
        const char *bom = ossa_text_bom_name(p, n);
        if (bom)
            return ossa_fail_line(b, OSSA_ERR_UNSUPPORTED, 1, "%s Cal3D XML is not supported "
                                  "(its byte order mark says so): Cal3D XML is UTF-8, Latin-1 "
                                  "or ASCII", bom);
        size_t i = n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF ? 3 : 0;
        while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
            i++;
        if (i < n && p[i] != '<')
            break;
        const uint8_t *nul = memchr(p, 0, n);
        return nul ? ossa_file_fail_nul(b, p, (size_t)(nul - p)) : OSSA_OK;
    }
    case OSSA_FORMAT_CFF:
        return OSSA_OK; /* no magic: the reader's header checks come next (load.c) */
    default:
        if (f != OSSA_FORMAT_UNKNOWN)
            return OSSA_OK;
        break;
    }
    return ossa_fail(b, OSSA_ERR_FORMAT, 0, "not a format Ossa reads%s",
                     f == OSSA_FORMAT_UNKNOWN ? "" : ": its first bytes are not the start of one");
}


ossa_status ossa_file_read(const char *path, size_t cap, uint8_t **out, size_t *size,
                           ossa_error *err)
{
    ossa_error_clear(err);
    if (!path || !out || !size)
        return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, path, "no path or no output");
    *out = NULL;
    *size = 0;
    if (!cap || cap > OSSA_MAX_FILE_SIZE)
        cap = OSSA_MAX_FILE_SIZE;
    struct stat st;
    memset(&st, 0, sizeof st);
    FILE *f = ossa_file_open_regular(path, &st);
    if (!f && errno == EINVAL && st.st_mode && !S_ISREG(st.st_mode))
        return ossa_write_fail(err, OSSA_ERR_IO, path, "%s, not a file Ossa reads",
                               ossa_file_kind(st.st_mode));
    if (!f)
        return ossa_write_fail(err, errno == ENOMEM ? OSSA_ERR_NOMEM : OSSA_ERR_IO, path,
                               "cannot open: %s", strerror(errno));
    if ((uint64_t)st.st_size > cap) {
        fclose(f);
        return ossa_write_fail(err, OSSA_ERR_RANGE, path,
                               "file of %lld bytes exceeds the limit of %zu",
                               (long long)st.st_size, cap);
    }
    size_t n = (size_t)st.st_size;
    uint8_t *buf = malloc(n + 1);
    if (!buf) {
        fclose(f);
        return ossa_write_fail(err, OSSA_ERR_NOMEM, path, "cannot allocate %zu bytes", n);
    }
    size_t got = n ? fread(buf, 1, n, f) : 0;
    int failed = ferror(f);
    fclose(f);
    if (got != n || failed) {
        free(buf);
        return ossa_write_fail(err, OSSA_ERR_IO, path, "read %zu of %zu bytes", got, n);
    }
    buf[n] = 0;
    *out = buf;
    *size = n;
    return OSSA_OK;
}

void ossa_file_free(void *data)
{
    free(data);
}
