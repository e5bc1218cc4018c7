/* What the two files of the test-only Cal3D binary writer share (cal3d_writer.c: CSF, CMF, CRF,
 * CPF; cal3d_writer_caf.c: CAF in every layout): the version rules (docs/FORMATS.md, Cal3D version
 * thresholds), a file's magic and its finished buffer (the buffer itself is test_wbuf.h). Not part
 * of the writer's interface (cal3d_writer.h). */
#ifndef OSSA_TEST_CAL3D_WRITER_INTERNAL_H
#define OSSA_TEST_CAL3D_WRITER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cal3d_writer.h"
#include "test_wbuf.h"

/* ---- version rules (Cal3D version thresholds, D1) ---- */

static inline int is_imvu(int v) { return v >= 911 && v <= 919; }
/* 1300/1301 of either lineage: the mp3butcher flag makes v larger still. */
static inline int is_upstream(int v) { return v >= 1300; }
static inline int is_v1200(int v) { return v >= 1200 && v < 1300; }
static inline int is_mp3butcher(int v) { return (v & CW_MP3BUTCHER) != 0; }
/* The number the file carries. */
static inline int file_version(int v) { return v & ~(CW_MP3BUTCHER | CW_MP3BUTCHER_TERMINATED); }
/* The mp3butcher fork's current morph lists: a blend-vertex count, no sentinel. */
static inline int counted_morphs(int v)
{
    return is_mp3butcher(v) && !(v & CW_MP3BUTCHER_TERMINATED);
}

static inline void put_magic(wbuf *w, const char *magic, int version)
{
    put_bytes(w, magic, 3);
    put_u8(w, 0);
    put_i32(w, file_version(version));
}

static inline uint8_t *finish(wbuf *w, size_t *size)
{
    if (w->failed) {
        free(w->data);
        *size = 0;
        return NULL;
    }
    *size = w->size;
    return w->data;
}

#endif
