/* Filling the caller's error record from the runtime stages (no file, no position). */
#ifndef OSSA_CORE_ERROR_H
#define OSSA_CORE_ERROR_H

#include "ossa/status.h"

/* Sets *err (may be NULL) to status s with "what: <status name>" and returns s; OSSA_OK leaves
 * err untouched. */
ossa_status ossa_error_status(ossa_error *err, ossa_status s, const char *what);

#ifndef OSSA_PRINTF
#if defined(__GNUC__) || defined(__clang__)
#define OSSA_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define OSSA_PRINTF(a, b)
#endif
#endif

/* Sets *err (may be NULL) to status s with the formatted message and returns s. Called on the
 * failure path only, so per-frame calls pay nothing for it when they succeed. */
ossa_status ossa_error_fail(ossa_error *err, ossa_status s, const char *fmt, ...) OSSA_PRINTF(3, 4);

#endif
