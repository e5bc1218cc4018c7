/* The fuzz harnesses' checks of the writers and the file export (fuzz_check.h's
 * FUZZ_CHECK_WRITE and FUZZ_CHECK_EXPORT_FILE), run on a model that loaded and validated. */
#ifndef OSSA_FUZZ_WRITE_CHECK_H
#define OSSA_FUZZ_WRITE_CHECK_H

#include <stddef.h>
#include "ossa/model.h"

/* Every writer into a fresh scratch folder; a refusal must keep the error contract and leave no
 * file, an OK must read back. Returns 0 when all hold, else 1 with why filled. */
int fuzz_check_writers(const ossa_model *m, char *why, size_t why_size);

/* The .glb stream and a .gltf with its files beside, in a scratch folder: both well formed,
 * describing the same document, every accessor and view inside its buffer. */
int fuzz_check_export_file(const ossa_model *m, char *why, size_t why_size);

#endif
