/* Opening and reading the files of a model (file_io.c). Failures fill the build's error with
 * the file being read (b->file). */
#ifndef OSSA_FILE_IO_H
#define OSSA_FILE_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include "core/build_context.h"

/* Opens a regular file for reading, or returns NULL (errno set; st says what the path was when
 * it is not a regular file). Special files are refused before anything is read: the open is
 * non-blocking (a FIFO with no writer would wait forever in open), and the check is made on
 * what was opened, not on the name. */
FILE *ossa_file_open_regular(const char *path, struct stat *st);
/* What a path that is not a regular file is, in words ("a FIFO", "a device", ...). */
const char *ossa_file_kind(mode_t mode);
/* The public ossa_file_read (ossa/files.h) is defined in file_io.c too: the loaders' reads and
 * a user-named file read by the tools or the viewer open files the same way. */


/* Up to cap first bytes of a regular file (a FIFO, device or socket is refused unread), and
 * the file's size (file_size may be NULL). */
ossa_status ossa_file_read_head(ossa_build *b, const char *path, uint8_t *head, size_t cap,
                                size_t *got, uint64_t *file_size);
/* Sees the bytes [from, to) of a file being read whole, p[0..to) being all read so far; a
 * failure stops the read. */
typedef ossa_status (*ossa_read_check)(ossa_build *b, void *ctx, const uint8_t *p, size_t from,
                                       size_t to);
/* The whole regular file, at most max bytes (and never over OSSA_MAX_FILE_SIZE), with a NUL
 * after the data; the caller frees *out. check (may be NULL) sees each piece as it is read. */
ossa_status ossa_file_read_whole(ossa_build *b, const char *path, uint64_t max,
                                 ossa_read_check check, void *ctx, uint8_t **out, size_t *size);
/* The error for a NUL byte at offset at of text p (the line counted up to it). */
ossa_status ossa_file_fail_nul(ossa_build *b, const uint8_t *p, size_t at);
/* "UTF-32" or "UTF-16" when p starts with that encoding's byte order mark, else NULL. */
const char *ossa_text_bom_name(const uint8_t *p, size_t n);
/* Whether the first bytes can begin a file of format f (a binary magic; for XML told by its
 * extension a '<' after white space, no byte order mark of UTF-16 or UTF-32 and no NUL byte;
 * anything for CFF, whose header the reader checks). Fails naming what is wrong. */
ossa_status ossa_file_check_head(ossa_build *b, ossa_format f, const uint8_t *p, size_t n);

#endif
