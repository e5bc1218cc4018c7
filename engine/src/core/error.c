#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "core/error.h"
#include "ossa/status.h"

const char *ossa_status_name(ossa_status s)
{
    switch (s) {
    case OSSA_OK: return "ok";
    case OSSA_ERR_INVALID_ARGUMENT: return "invalid argument";
    case OSSA_ERR_IO: return "i/o error";
    case OSSA_ERR_FORMAT: return "format error";
    case OSSA_ERR_VERSION: return "unsupported version";
    case OSSA_ERR_TRUNCATED: return "truncated data";
    case OSSA_ERR_RANGE: return "out of range";
    case OSSA_ERR_VALUE: return "invalid value";
    case OSSA_ERR_MISMATCH: return "files do not match";
    case OSSA_ERR_NOMEM: return "out of memory";
    case OSSA_ERR_UNSUPPORTED: return "unsupported";
    case OSSA_ERR_REFUSED: return "refused";
    }
    return "unknown status";
}

void ossa_error_clear(ossa_error *err)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->offset = -1;
}

const char *ossa_error_format(const ossa_error *err, char *buf, unsigned capacity)
{
    if (!buf || !capacity)
        return "";
    if (!err) {
        snprintf(buf, capacity, "(no error record)");
        return buf;
    }
    const char *file = err->file[0] ? err->file : "(memory)";
    if (err->line > 0)
        snprintf(buf, capacity, "%s:%d: %s: %s", file, (int)err->line,
                 ossa_status_name(err->status), err->message);
    else if (err->offset >= 0)
        snprintf(buf, capacity, "%s: byte %lld: %s: %s", file, (long long)err->offset,
                 ossa_status_name(err->status), err->message);
    else
        snprintf(buf, capacity, "%s: %s: %s", file, ossa_status_name(err->status), err->message);
    return buf;
}

ossa_status ossa_error_status(ossa_error *err, ossa_status s, const char *what)
{
    if (!err || s == OSSA_OK)
        return s;
    ossa_error_clear(err);
    err->status = s;
    snprintf(err->message, sizeof err->message, "%s: %s", what, ossa_status_name(s));
    return s;
}

ossa_status ossa_error_fail(ossa_error *err, ossa_status s, const char *fmt, ...)
{
    if (!err)
        return s;
    ossa_error_clear(err);
    err->status = s;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return s;
}
