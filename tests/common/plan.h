/* How much of each file the suite mutates. Each mutant is a full load, so the cost of a test is
 * (number of mutants) x (bytes parsed per load); truncating at every offset is quadratic in the
 * file size. Measured under ASan+UBSan (build-*-asan, debugoptimized) the readers parse about
 * 30 MB/s of binary Cal3D and 5 MB/s of Cal3D XML per core, so the brief's full scheme (every
 * offset of files up to 64 KiB; 4 KiB edges and 2000 spread cuts beyond; 200 flips per file)
 * would need ~25 GB of parsing (over an hour). By default each file therefore gets a parse
 * budget (below) that keeps the whole malformed suite near 60 s on 2 cores with sanitizers;
 * OSSA_MALFORMED_FULL=1 in the environment runs the full scheme (for nightly runs). */
#ifndef OSSA_PLAN_H
#define OSSA_PLAN_H

#include <stdbool.h>
#include <stddef.h>

/* Per-file parse budgets in bytes (default mode). */
#define MF_TRUNC_BUDGET_BINARY (8u << 20)
#define MF_TRUNC_BUDGET_XML (2u << 20)
#define MF_MUTANT_BUDGET_BINARY (4u << 20)
#define MF_MUTANT_BUDGET_XML (1u << 20)

/* The full scheme of the brief. */
#define MF_FULL_EXHAUSTIVE_MAX (64u * 1024u)
#define MF_FULL_EDGE 4096u
#define MF_FULL_SPREAD 2000u

bool mf_full_mode(void);

/* Cut lengths for one file: every offset below head, every offset of the last tail bytes, and
 * spread evenly spaced cuts in between (all when head == size). */
typedef struct mf_cut_plan {
    size_t size, head, tail, spread;
} mf_cut_plan;

/* Full mode: the brief's scheme. Default: every offset while size^2/2 fits the budget;
 * otherwise the first 1 KiB, a tail of budget/4 bytes of parsing (at least 4 cuts, at most
 * 1 KiB), and as many spread cuts as the rest of the budget pays for (8..2000). */
void mf_cut_plan_make(mf_cut_plan *p, size_t size, bool xml);
size_t mf_cut_count(const mf_cut_plan *p);
/* The i-th cut length (< size), i < mf_cut_count(p). */
size_t mf_cut_at(const mf_cut_plan *p, size_t i);

/* Number of mutants (at least minimum, at most wanted) whose loads fit the file's mutant
 * budget at size bytes each; wanted in full mode. */
size_t mf_mutants_affordable(size_t wanted, size_t size, bool xml, size_t minimum);

#endif
