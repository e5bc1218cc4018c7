/* Telling a file's format from its first bytes and name (sniff.c; ossa_sniff itself is public,
 * in ossa/load.h). */
#ifndef OSSA_IO_SNIFF_H
#define OSSA_IO_SNIFF_H

#include <stdbool.h>
#include <stddef.h>
#include "ossa/load.h"

/* Whether the bytes begin with the SKM/SKP id "SKM1". */
bool ossa_sniff_has_skm_magic(const void *data, size_t size);

/* Whether ossa_sniff's answer fmt for these first bytes means a .cfg of either kind (a Qfusion
 * cfg sniffs as the SKM model it stands for, but has no SKM magic). */
bool ossa_sniffed_cfg(ossa_format fmt, const void *data, size_t size);

#endif
