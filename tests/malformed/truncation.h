/* Which cut lengths the truncation tests try for a file of a given size. */
#ifndef OSSA_TRUNCATION_H
#define OSSA_TRUNCATION_H

#include <stddef.h>

/* Files up to MF_EXHAUSTIVE_MAX bytes are cut at every offset. Larger ones (each cut reparses
 * up to the cut, so their cost is quadratic) are cut at every offset of the first and the last
 * MF_EDGE bytes and at MF_SPREAD evenly spaced offsets in between. */
#define MF_EXHAUSTIVE_MAX (64u * 1024u)
#define MF_EDGE 4096u
#define MF_SPREAD 2000u

/* The i-th cut length for a file of size bytes, i < mf_cut_count(size); all < size. */
size_t mf_cut_count(size_t size);
size_t mf_cut_at(size_t size, size_t i);

#endif
