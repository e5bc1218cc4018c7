/* Pieces both Cal3D writers use (cal3d_write_common.h): text into a buffer and the child lists as
 * written. cal3d_write.c (binary forms, the file set) and cal3d_write_xml.c (XML forms) sit on
 * this file, so neither calls the other. */
#include <string.h>

#include "formats/cal3d/cal3d_write_common.h"

void ossa_cw_puts(ossa_wbuf *b, const char *s)
{
    ossa_wbuf_put(b, s, strlen(s));
}

uint32_t ossa_cw_children(const ossa_model *m, uint32_t i, uint32_t *ids)
{
    bool listed = false;
    for (uint32_t k = 0; k < m->bone_count && !listed; k++)
        listed = m->bones[k].child_count > 0;
    if (listed) {
        if (m->bones[i].child_count) /* a leaf's list may be NULL */
            memcpy(ids, m->bones[i].children, m->bones[i].child_count * sizeof *ids);
        return m->bones[i].child_count;
    }
    uint32_t n = 0;
    for (uint32_t k = i + 1; k < m->bone_count; k++)
        if (m->bones[k].parent == (int32_t)i)
            ids[n++] = k;
    return n;
}
