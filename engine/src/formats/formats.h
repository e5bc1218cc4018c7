/* One reader per file format. Each appends what its file holds to the model under construction
 * in b (a skeleton, a mesh, a clip, a morph clip or a material) and fails with an error naming
 * the byte offset (binary) or line (XML). Files of one model are read into the same build, a
 * skeleton first, so later files can map their bone ids through b->bone_from_file. */
#ifndef OSSA_FORMATS_H
#define OSSA_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/build_context.h"

/* Cal3D binary (cal3d_csf.c, cal3d_caf.c, cal3d_cmf.c, cal3d_crf.c, cal3d_cpf.c). */
ossa_status ossa_read_csf(ossa_build *b, const uint8_t *data, size_t size);
ossa_status ossa_read_caf(ossa_build *b, const uint8_t *data, size_t size);
ossa_status ossa_read_cmf(ossa_build *b, const uint8_t *data, size_t size);
ossa_status ossa_read_crf(ossa_build *b, const uint8_t *data, size_t size);
ossa_status ossa_read_cpf(ossa_build *b, const uint8_t *data, size_t size);

/* Cal3D XML through libxml2 (cal3d_xml*.c). */
ossa_status ossa_read_xsf(ossa_build *b, const uint8_t *data, size_t size);
ossa_status ossa_read_xaf(ossa_build *b, const uint8_t *data, size_t size);
ossa_status ossa_read_xmf(ossa_build *b, const uint8_t *data, size_t size);
ossa_status ossa_read_xrf(ossa_build *b, const uint8_t *data, size_t size);
ossa_status ossa_read_xpf(ossa_build *b, const uint8_t *data, size_t size);

/* The text rules of Cal3D XML (cal3d_xml_prescan.c; docs/FORMATS.md, "XML is text"), checked
 * piece by piece as a file is read (an ossa_read_check; scan starts zeroed) and by the reader
 * on the whole: no NUL byte, and from the first '<' on no run of white space (carriage returns
 * not counted) longer than libxml2's XML_MAX_TEXT_LENGTH, which libxml2 refuses wherever it
 * stands. Errors name the line. */
typedef struct ossa_xml_text_scan {
    bool started;      /* a '<' was seen */
    size_t run;        /* white space since run_line's byte, CRs not counted */
    int line, run_line;
} ossa_xml_text_scan;
ossa_status ossa_xml_scan_text(ossa_build *b, void *state, const uint8_t *p, size_t from,
                               size_t to);

/* SKM/SKP (skm*.c), C3S (c3s*.c), CFF (cff*.c). */
ossa_status ossa_read_skm(ossa_build *b, const uint8_t *data, size_t size);
ossa_status ossa_read_skp(ossa_build *b, const uint8_t *data, size_t size);
ossa_status ossa_read_c3s(ossa_build *b, const uint8_t *data, size_t size);
ossa_status ossa_read_cff(ossa_build *b, const uint8_t *data, size_t size);
/* A CFF file's header checked from its first n bytes against the file's size (counts, origin
 * and scale, something to load), before the file is read whole. */
ossa_status ossa_cff_check_head(ossa_build *b, const uint8_t *head, size_t n, uint64_t file_size);

/* Cal3D version rules shared by the binary and XML readers (docs/FORMATS.md, D1):
 * 699..1301 accepted; 911..919 IMVU, 1200..1299 the v1200 layout, >= 1300 upstream, the rest
 * classic. Fails the build for any other version. */
#define OSSA_CAL3D_EARLIEST 699u
#define OSSA_CAL3D_LATEST 1301u
ossa_status ossa_cal3d_check_version(ossa_build *b, int64_t version, int64_t offset, int line,
                                     ossa_cal3d_lineage *lineage);

/* One attempt at reading a Cal3D binary CSF or CMF in a given layout. */
typedef struct ossa_cal3d_attempt {
    bool mp3butcher; /* a 1300/1301 file in the mp3butcher fork's layout (no lights, colours) */
    bool exact;      /* bytes left after the last element fail the read, before anything is
                        added to the model, instead of giving a warning */
    size_t trailing; /* out: set when the read failed only because this many bytes were left */
    bool terminated_morphs; /* mp3butcher CMF: morph targets as the fork's earlier loader read
                               them (ids ended by a sentinel) instead of its current one (a
                               blend-vertex count, no sentinel); docs/FORMATS.md D1b */
    bool had_morphs; /* out: the reading met morph targets (the other list form may fit) */
} ossa_cal3d_attempt;
typedef ossa_status (*ossa_cal3d_layout_reader)(ossa_build *b, const uint8_t *data, size_t size,
                                                ossa_cal3d_attempt *how);

/* The lineage an attempt reads a file of this version-derived lineage with. */
static inline ossa_cal3d_lineage ossa_cal3d_attempt_lineage(ossa_cal3d_lineage from_version,
                                                            const ossa_cal3d_attempt *how)
{
    return from_version == OSSA_CAL3D_UPSTREAM && how->mp3butcher ? OSSA_CAL3D_MP3BUTCHER
                                                                    : from_version;
}

/* Reads a CSF or CMF (magic names which) with `read`. A 1300/1301 file is tried in the upstream
 * layout and then the mp3butcher one, each read undone when it fails: the first that reads the
 * file exactly to its end is kept; when neither does, one that only left bytes over (with a
 * warning, upstream first); otherwise the error names both layouts and where each broke, the
 * one that read furthest first. Any other version is read once, in its own layout. */
ossa_status ossa_cal3d_read_lineage(ossa_build *b, const uint8_t *data, size_t size,
                                    const char magic[4], ossa_cal3d_layout_reader read);

/* The reader for a format, or NULL. */
typedef ossa_status (*ossa_format_reader)(ossa_build *b, const uint8_t *data, size_t size);
ossa_format_reader ossa_format_reader_for(ossa_format f);

/* A Cal3D material's maps (file and type read) sorted as osgCal reads them (cal3d_osgcal.c):
 * each texture's path resolved (a "DiffuseMap:", "NormalsMap:" or "BumpMap:" map from its
 * value, typed by its key when it has no type), osgCal settings ("Sides:2", ...) moved to
 * mat->properties, maps left out or moved compacted away (*count updated). */
ossa_status ossa_cal3d_material_maps(ossa_build *b, ossa_texture_map *maps, uint32_t *count,
                                     ossa_material *mat);

#endif
