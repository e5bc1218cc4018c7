/* Status codes and the error record that every call which can fail fills when it fails. */
#ifndef OSSA_STATUS_H
#define OSSA_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks every public function: libossa is built with hidden visibility, so these are the only
 * symbols it exports. */
#if defined(__GNUC__) || defined(__clang__)
#define OSSA_API __attribute__((visibility("default")))
#else
#define OSSA_API
#endif

typedef enum ossa_status {
    OSSA_OK = 0,
    OSSA_ERR_INVALID_ARGUMENT, /* caller passed something unusable: NULL, an index out of
                                  range, a count above its cap, a bad number, a capacity too
                                  small (ossa.h) */
    OSSA_ERR_IO,               /* file cannot be opened or read */
    OSSA_ERR_FORMAT,           /* unknown format, bad magic, malformed structure */
    OSSA_ERR_VERSION,          /* version outside the accepted range */
    OSSA_ERR_TRUNCATED,        /* data ends before the structure does */
    OSSA_ERR_RANGE,            /* data: a count above its cap or an index out of range */
    OSSA_ERR_VALUE,            /* NaN/Inf or otherwise invalid number */
    OSSA_ERR_MISMATCH,         /* files of one model disagree (bones, counts) */
    OSSA_ERR_NOMEM,
    OSSA_ERR_UNSUPPORTED,
    OSSA_ERR_REFUSED           /* an output the caller's guard (write.h) or the writer refused */
} ossa_status;

/* Filled on failure. offset is a byte offset (-1 when not applicable); line is an XML line
 * (0 when not applicable). */
typedef struct ossa_error {
    ossa_status status;
    int64_t offset;
    int32_t line;
    char file[256];
    char message[512];
} ossa_error;

/* The one "not found" value (ossa.h): what a look-up of an index answers when there is none,
 * and the value of every "no index" constant (OSSA_SKIN_PAD_VERTEX, OSSA_INSTANCE_NO_CLIP). */
#define OSSA_NOT_FOUND UINT32_MAX

OSSA_API const char *ossa_status_name(ossa_status s);

/* "file:offset 123: message" style text for humans, written into buf (capacity: the bytes it
 * holds, the terminating NUL included; the text is cut to fit). Returns buf, or "" for a NULL
 * buf or a capacity of 0. */
OSSA_API const char *ossa_error_format(const ossa_error *err, char *buf, unsigned capacity);

OSSA_API void ossa_error_clear(ossa_error *err);

/* Where the library's diagnostics go: fn gets one line of text (no newline) per message. The
 * library never prints and never reads the environment; a program that wants messages on stderr
 * passes a callback that writes them there. All zero (or a NULL pointer) is the default: nothing
 * is reported. */
typedef void (*ossa_log_fn)(void *user, const char *message);
typedef struct ossa_log_options {
    ossa_log_fn fn;
    void *user;
} ossa_log_options;

/* Asked once for every file a write (write.h, export.h) would create or replace, before any is
 * written: return false (with a reason in why, one line) to refuse it; the write then fails
 * with OSSA_ERR_REFUSED, naming the path and the reason, and changes nothing. A program keeps
 * its inputs safe here (ossa convert refuses an output that is one of its inputs or that
 * another output of the same run wrote). All zero: every path is allowed. */
typedef bool (*ossa_write_check_fn)(void *user, const char *path, char *why, size_t why_size);
typedef struct ossa_write_guard {
    ossa_write_check_fn check;
    void *user;
} ossa_write_guard;

#ifdef __cplusplus
}
#endif
#endif
