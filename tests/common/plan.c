#include "plan.h"

#include <stdlib.h>
#include <string.h>

bool mf_full_mode(void)
{
    const char *v = getenv("OSSA_MALFORMED_FULL");
    return v && *v && strcmp(v, "0") != 0;
}

static size_t clamp(size_t v, size_t lo, size_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

void mf_cut_plan_make(mf_cut_plan *p, size_t size, bool xml)
{
    p->size = size;
    if (mf_full_mode()) {
        bool all = size <= MF_FULL_EXHAUSTIVE_MAX;
        p->head = all ? size : MF_FULL_EDGE;
        p->tail = all ? 0 : MF_FULL_EDGE;
        p->spread = all ? 0 : MF_FULL_SPREAD;
        return;
    }
    size_t budget = xml ? MF_TRUNC_BUDGET_XML : MF_TRUNC_BUDGET_BINARY;
    if (size <= 1024 || (size / 2) * size <= budget) {
        p->head = size;
        p->tail = p->spread = 0;
        return;
    }
    p->head = 1024;
    p->tail = clamp(budget / 4 / size, 4, 1024);
    size_t used = p->head * p->head / 2 + p->tail * size;
    size_t left = used < budget ? budget - used : 0;
    p->spread = clamp(left / (size / 2), 8, 2000);
}

size_t mf_cut_count(const mf_cut_plan *p)
{
    return p->head + p->tail + p->spread;
}

size_t mf_cut_at(const mf_cut_plan *p, size_t i)
{
    if (i < p->head)
        return i;
    i -= p->head;
    if (i < p->tail)
        return p->size - p->tail + i;
    i -= p->tail;
    size_t middle = p->size - p->tail - p->head;
    return p->head + middle * i / p->spread;
}

size_t mf_mutants_affordable(size_t wanted, size_t size, bool xml, size_t minimum)
{
    if (mf_full_mode() || !size)
        return wanted;
    size_t budget = xml ? MF_MUTANT_BUDGET_XML : MF_MUTANT_BUDGET_BINARY;
    return clamp(budget / size, minimum < wanted ? minimum : wanted, wanted);
}
