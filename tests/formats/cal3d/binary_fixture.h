/* Hand-built Cal3D binary files for the binary-synthetic tests, written here field by field from
 * docs/FORMATS.md, Cal3D binary layouts: a skeleton listed children-first (classic, or
 * IMVU/upstream with scene ambient and node lights), a one-submesh mesh (with or without the
 * IMVU/upstream colours and morph target) and where it put the fields the error tests break, a CRF
 * and a CPF; and loading them through ossa_load_files and ossa_load_memory. */
#ifndef OSSA_TEST_BINARY_FIXTURE_H
#define OSSA_TEST_BINARY_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ossa/load.h"

/* A little-endian byte buffer. */
typedef struct buf {
    uint8_t d[4096];
    size_t n;
} buf;

/* Where build_cmf put the fields the error tests break. */
typedef struct cmf_marks {
    size_t influence_bone; /* vertex 1, influence 0: bone id */
    size_t face_index2;    /* face 0, corner 2 */
    size_t weight;         /* vertex 0, influence 0: weight */
    size_t morph_id;       /* first blend vertex id */
    size_t uv;             /* vertex 0: texture coordinate u */
} cmf_marks;

/* The files (binary_fixture.c says what each holds). */
void build_csf(buf *b, int32_t version, bool lights);
void build_cmf(buf *b, int32_t version, bool extras, cmf_marks *mk);
void build_crf(buf *b, int32_t version, bool typed);
void build_cpf(buf *b, int32_t version);

/* Skeleton + mesh through ossa_load_files (mesh named first); status returned, model in *m. */
ossa_status load_pair(const buf *csf, const buf *cmf, const ossa_load_options *opt,
                      ossa_model **m, ossa_error *err);
/* One file through ossa_load_memory under the given name; a failure is a failed check. */
ossa_model *load_buf(const buf *b, const char *name, ossa_error *err);
/* Whether one of m's warnings contains text. */
bool has_warning(const ossa_model *m, const char *text);

#endif
