#include "truncation.h"

size_t mf_cut_count(size_t size)
{
    if (size <= MF_EXHAUSTIVE_MAX)
        return size;
    return 2 * (size_t)MF_EDGE + MF_SPREAD;
}

size_t mf_cut_at(size_t size, size_t i)
{
    if (size <= MF_EXHAUSTIVE_MAX)
        return i;
    if (i < MF_EDGE)
        return i;
    i -= MF_EDGE;
    if (i < MF_EDGE)
        return size - MF_EDGE + i;
    i -= MF_EDGE;
    /* evenly spaced over the middle part */
    size_t middle = size - 2 * (size_t)MF_EDGE;
    return MF_EDGE + middle * i / MF_SPREAD;
}
