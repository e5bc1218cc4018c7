/* Shared pieces of the malformed-input suite: the Cal3D files it mutates (real assets, each
 * distinct content once, plus the generated seeds), loading a mutated buffer, checking error
 * records, a seeded PRNG, and temporary files for loads that need a skeleton beside them. */
#ifndef OSSA_MALFORMED_H
#define OSSA_MALFORMED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ossa/load.h"
#include "test_common.h"

typedef struct mf_file {
    char *path;          /* full path ("seed:NAME" for generated seeds) */
    const char *label;   /* shorter name for messages (relative to the assets folder) */
    const char *name;    /* base name, passed to the loader */
    ossa_format format;
    bool xml;
    uint8_t *data;
    size_t size;
    char *skeleton;      /* a .csf (.xsf for XML) in the same folder (path), or NULL */
} mf_file;

typedef struct mf_files {
    mf_file *items;
    size_t count;
} mf_files;

/* Every Cal3D file (by extension) under assets_dir (NULL: none) and, with seeds, the generated
 * seeds; identical contents are kept once. Sorted by path. False when out of memory.
 * Environment OSSA_MALFORMED_ONLY=text keeps only files whose label contains text. */
bool mf_collect(const char *assets_dir, bool seeds, mf_files *out);
void mf_files_free(mf_files *files);

/* What a malformed-file test does to one file; it adds what it tried to *tried. */
typedef void (*mf_file_fn)(const mf_file *f, unsigned *tried);
/* A whole malformed-file test: every Cal3D file of the assets and the generated seeds, the
 * binary ones through binary and the XML ones through xml (NULL: that kind is left out), then a
 * line "N <what> in S s CPU", a check that something was tried, and the end of the test named
 * name: its exit status (a skip when the assets are absent and all else passed). */
int mf_run(mf_file_fn binary, mf_file_fn xml, const char *what, const char *name);

/* ossa_load_memory of a (mutated) buffer of f with f's name and format forced. */
ossa_status mf_load(const mf_file *f, const uint8_t *data, size_t size, ossa_model **out,
                    ossa_error *err);

/* Loads f's skeleton file and the given bytes (written to a temporary file named like f) as one
 * model. */
ossa_status mf_load_with_skeleton(const mf_file *f, const uint8_t *data, size_t size,
                                  ossa_model **out, ossa_error *err);

/* Counts one failed check and prints it, at most `limit` lines per tally (then one summary). */
typedef struct mf_tally {
    const char *label;
    unsigned failures, printed, limit;
} mf_tally;
void mf_fail(mf_tally *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void mf_tally_end(mf_tally *t);

/* Checks a failed load: status not OK and recorded in err, model NULL, message and file name
 * set. what describes the mutation. Returns true when the record is well formed. */
bool mf_check_error(mf_tally *t, const char *what, ossa_status st, const ossa_model *m,
                    const ossa_error *err);
/* Checks either outcome: OK with a model that validates, or a well-formed error. Frees m. */
bool mf_check_any(mf_tally *t, const char *what, ossa_status st, ossa_model *m,
                  const ossa_error *err);

/* xorshift64* seeded through splitmix64: repeatable across platforms. */
typedef struct mf_rng {
    uint64_t state;
} mf_rng;
void mf_rng_seed(mf_rng *r, uint64_t seed);
uint64_t mf_rng_next(mf_rng *r);
/* Uniform in 0..n-1 (n > 0). */
uint32_t mf_rng_below(mf_rng *r, uint32_t n);

/* Case-insensitive substring search. */
bool mf_contains(const char *haystack, const char *needle);
/* FNV-1a of the name: a per-file PRNG seed that does not depend on the file order. */
uint64_t mf_hash(const char *s);

/* Cal3D XML text surgery. An element is "<NAME" followed by a space, '>' or '/'. */
size_t mf_xml_count(const uint8_t *d, size_t n, const char *element);
/* Span [*a, *b) of the first whitespace-separated token of the occurrence-th element's
 * attribute attr, or of its text when attr is NULL. False when absent. */
bool mf_xml_find(const uint8_t *d, size_t n, const char *element, const char *attr,
                 size_t occurrence, size_t *a, size_t *b);
/* Integer value of attribute attr of the last element named element that starts before pos;
 * -1 when none. */
long mf_xml_enclosing_attr(const uint8_t *d, size_t n, size_t pos, const char *element,
                           const char *attr);
/* d with [a, b) replaced by text (malloc'ed, size in *out_n); NULL when out of memory. */
uint8_t *mf_splice(const uint8_t *d, size_t n, size_t a, size_t b, const char *text,
                   size_t *out_n);

void mf_put_i32(uint8_t *p, int32_t v);
int32_t mf_get_i32(const uint8_t *p);
void mf_put_f32(uint8_t *p, float v);

#endif
