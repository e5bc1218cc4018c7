/* Filling the caller's error record from the runtime stages (no file, no position). */
#ifndef OSSA_CORE_ERROR_H
#define OSSA_CORE_ERROR_H

#include "ossa/status.h"

/* Sets *err (may be NULL) to status s with "what: <status name>" and returns s; OSSA_OK leaves
 * err untouched. */
ossa_status ossa_error_status(ossa_error *err, ossa_status s, const char *what);

#endif
