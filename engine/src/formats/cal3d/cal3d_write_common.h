/* Shared by the Cal3D writers (cal3d_write.c: file set, binary forms; cal3d_write_xml.c: the
 * XML forms; cal3d_write_check.c: what a layout can hold; cal3d_write_common.c: what both
 * forms use). Each file is first serialised into a growable buffer, so a failure never
 * leaves half a file behind. */
#ifndef OSSA_CAL3D_WRITE_COMMON_H
#define OSSA_CAL3D_WRITE_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "io/write_buf.h"
#include "ossa/model.h"

/* cal3d_write_common.c: text into the buffer, without its NUL. */
void ossa_cw_puts(ossa_wbuf *b, const char *s);

/* What the chosen version's layout can hold (docs/FORMATS.md: D1, Cal3D binary layouts). */
typedef struct ossa_cw_layout {
    uint32_t version;
    bool extras;        /* IMVU 911..919 / >= 1300 (both lineages): morph targets, map types */
    bool lights;        /* IMVU / upstream >= 1300: scene ambient colour and node lights (CSF) */
    bool colors;        /* IMVU / upstream >= 1300: vertex colours (CMF, required in XMF) */
    bool caf_flag_word; /* IMVU 919 / upstream: compression flag after the version */
    bool caf_flags;     /* 1200..1299 / upstream: flags word after the track count */
    bool counted_morphs; /* mp3butcher: a blend-vertex count before the ids, no sentinel */
} ossa_cw_layout;

/* A submesh's colour of vertex v (white when the model has none). */
static inline const float *ossa_cw_color(const ossa_submesh *sm, uint32_t v)
{
    static const float white[3] = {1.0f, 1.0f, 1.0f};
    return sm->colors ? sm->colors + 3 * (size_t)v : white;
}

/* Children of bone i as written: the model's lists when it has any, otherwise derived from the
 * parents (in bone order). Returns the count; ids receives up to bone_count indices. */
uint32_t ossa_cw_children(const ossa_model *m, uint32_t i, uint32_t *ids);

/* Cal3D stores quaternions conjugated (docs/FORMATS.md, D3):
 * Hamilton (x, y, z, w) -> (-x, -y, -z, w), with -0 written as 0. */
static inline void ossa_cw_cal3d_quat(const float q[4], float out[4])
{
    out[0] = -q[0] + 0.0f;
    out[1] = -q[1] + 0.0f;
    out[2] = -q[2] + 0.0f;
    out[3] = q[3] + 0.0f;
}

/* What the layout cannot hold (cal3d_write_check.c): OSSA_ERR_UNSUPPORTED with the reason in
 * msg, else OSSA_OK. xml: the XML forms are written (they hold everything Cal3D has). */
ossa_status ossa_cw_check_representable(const ossa_model *m, const ossa_cw_layout *l, bool xml, char *msg,
                                   size_t cap);
/* XML 1.0 cannot carry control characters in names. */
ossa_status ossa_cw_check_xml_text(const ossa_model *m, char *msg, size_t cap);
/* Whether binary 1100 holds the model (no node lights, colours, morph targets, map types). */
bool ossa_cw_fits_classic(const ossa_model *m);

/* XML forms (cal3d_write_xml.c). Each returns false when the C locale cannot be set up. */
bool ossa_cw_xml_skeleton(ossa_wbuf *b, const ossa_model *m, const ossa_cw_layout *l);
bool ossa_cw_xml_mesh(ossa_wbuf *b, const ossa_mesh *mesh, const ossa_cw_layout *l);
bool ossa_cw_xml_clip(ossa_wbuf *b, const ossa_clip *clip, const ossa_cw_layout *l);
bool ossa_cw_xml_morph_clip(ossa_wbuf *b, const ossa_morph_clip *clip, const ossa_cw_layout *l);
bool ossa_cw_xml_material(ossa_wbuf *b, const ossa_material *mat, const ossa_cw_layout *l);

/* The type to write for a map: "" when the reader only derived it from an osgCal key in the
 * file name ("DiffuseMap:face.dds" read with no type), so that the file is written as it was
 * read (cal3d_osgcal.c). */
/* A clip of vertex-frame tracks alone (a C3S VFRM animation) has nothing Cal3D holds: no
 * animation file is written for it (the convert command names the loss). */
static inline bool ossa_cw_clip_written(const ossa_clip *c)
{
    return c->track_count || !c->vertex_track_count;
}

static inline const char *ossa_cw_map_type(const ossa_texture_map *map)
{
    const char *t = map->type ? map->type : "";
    size_t n = strlen(t);
    if (n && map->file && strncmp(map->file, t, n) == 0 && map->file[n] == ':')
        return "";
    return t;
}

#endif
