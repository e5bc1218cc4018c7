/* Every file a writer or the exporter creates goes through one output set (out_file.c): each
 * output is first asked of the caller's guard, then written whole to a new temporary file in
 * its own folder (created exclusively, never through a link) and flushed to disk; only when
 * every output of the set is complete are the temporaries renamed over their targets. A
 * failure at any point leaves every target as it was and removes the temporaries, so a set is
 * written whole or not at all, and no existing file is ever opened for writing. */
#ifndef OSSA_OUT_FILE_H
#define OSSA_OUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include "ossa/status.h"

typedef struct ossa_out_entry {
    char *path; /* the target */
    char *temp; /* the finished temporary beside it; NULL once renamed */
} ossa_out_entry;

typedef struct ossa_out_set {
    const ossa_write_guard *guard; /* may be NULL or hold no check */
    ossa_error *err;
    ossa_out_entry *entries;
    size_t count, cap;
    unsigned serial; /* temporaries' names differ within one set */
} ossa_out_set;

void ossa_out_init(ossa_out_set *s, const ossa_write_guard *guard, ossa_error *err);

/* Asks the guard about path and refuses a path this set already holds; then writes a then b
 * (either may be empty) to a temporary beside path, synced. Nothing is replaced yet. */
ossa_status ossa_out_add(ossa_out_set *s, const char *path, const void *a, size_t na,
                         const void *b, size_t nb);

/* Asks the guard about path (and this set's own paths) without writing anything: for writers
 * that know every name before serialising, so that a refusal costs no work. */
ossa_status ossa_out_claim(ossa_out_set *s, const char *path);

/* Renames every temporary over its target, in the order added, then syncs their folders. */
ossa_status ossa_out_commit(ossa_out_set *s);

/* Removes every temporary not renamed and frees the set (after a commit, or instead of one). */
void ossa_out_free(ossa_out_set *s);

/* Whether path names a regular file holding exactly these bytes (a texture already beside a
 * .gltf needs no copy). Links are not followed. */
bool ossa_out_same_bytes(const char *path, const void *data, size_t size);

#endif
