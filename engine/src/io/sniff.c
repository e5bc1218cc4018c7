/* Telling a file's format from its first bytes and name: a .cff name first (CFF has no magic,
 * so its first bytes may spell another format's: they are its origin's three floats, and an x of
 * 2.99e-9 reads "SKM1"), then Cal3D binary magics, the SKM/SKP id (and the pose file's layout
 * when the name does not tell), C3S's RIFF form, a .cfg of either kind by its text, Cal3D XML by
 * extension, and Cal3D XML by content. */
#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "io/cfg.h"
#include "io/sniff.h"

static const char *extension(const char *name)
{
    if (!name)
        return "";
    const char *slash = strrchr(name, '/');
    const char *base = slash ? slash + 1 : name;
    const char *dot = strrchr(base, '.');
    return dot ? dot + 1 : "";
}

/* Finds a Cal3D XML MAGIC="..." or the root element name within the first bytes. */
static ossa_format sniff_xml(const char *text, size_t n)
{
    static const struct { const char *magic, *root; ossa_format f; } kinds[] = {
        {"XSF", "SKELETON", OSSA_FORMAT_XSF}, {"XFS", NULL, OSSA_FORMAT_XSF},
        {"XAF", "ANIMATION", OSSA_FORMAT_XAF}, {"XMF", "MESH", OSSA_FORMAT_XMF},
        {"XRF", "MATERIAL", OSSA_FORMAT_XRF}, {"XPF", NULL, OSSA_FORMAT_XPF}};
    size_t limit = n < 4096 ? n : 4096;
    for (size_t i = 0; i + 10 < limit; i++) {
        if (strncasecmp(text + i, "MAGIC", 5) != 0)
            continue;
        size_t j = i + 5;
        while (j < limit && (text[j] == ' ' || text[j] == '=' || text[j] == '"' || text[j] == '\''))
            j++;
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            if (j + 3 <= limit && strncasecmp(text + j, kinds[k].magic, 3) == 0)
                return kinds[k].f;
    }
    for (size_t i = 0; i + 1 < limit; i++) {
        if (text[i] != '<' || text[i + 1] == '?' || text[i + 1] == '!')
            continue;
        const char *tag = text + i + 1;
        if (i + 1 + 6 <= limit && strncasecmp(tag, "HEADER", 6) == 0)
            continue;
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            size_t len = kinds[k].root ? strlen(kinds[k].root) : 0;
            if (len && i + 1 + len < limit && strncasecmp(tag, kinds[k].root, len) == 0 &&
                !isalnum((unsigned char)tag[len]))
                return kinds[k].f;
        }
        break; /* only the first real element counts */
    }
    return OSSA_FORMAT_UNKNOWN;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool ossa_sniff_has_skm_magic(const void *data, size_t size)
{
    return data && size >= 4 && memcmp(data, "SKM1", 4) == 0;
}

/* Whether ossa_sniff's answer fmt for these first bytes means a .cfg of either kind (a Qfusion
 * cfg sniffs as the SKM model it stands for, but has no SKM magic). */
bool ossa_sniffed_cfg(ossa_format fmt, const void *data, size_t size)
{
    return fmt == OSSA_FORMAT_CAL3D_CFG || (fmt == OSSA_FORMAT_SKM && !ossa_sniff_has_skm_magic(data, size));
}

ossa_format ossa_sniff(const void *data, size_t size, const char *name)
{
    const uint8_t *p = data;
    const char *ext = extension(name);
    if (strcasecmp(ext, "cff") == 0)
        return OSSA_FORMAT_CFF;
    static const struct { const char magic[4]; ossa_format f; } bin[] = {
        {"CSF", OSSA_FORMAT_CSF}, {"CAF", OSSA_FORMAT_CAF}, {"CMF", OSSA_FORMAT_CMF},
        {"CRF", OSSA_FORMAT_CRF}, {"CPF", OSSA_FORMAT_CPF}};
    if (size >= 4)
        for (size_t k = 0; k < sizeof bin / sizeof bin[0]; k++)
            if (memcmp(p, bin[k].magic, 4) == 0)
                return bin[k].f;
    if (size >= 4 && memcmp(p, "SKM1", 4) == 0) {
        /* Both kinds share the id. Without a telling extension, a pose file shows its layout:
         * the bone table right after the 28-byte header and the frame table after the bones. */
        bool skp_layout = size >= 28 && le32(p + 20) == 28 && le32(p + 12) <= 256 &&
                          le32(p + 24) == 28 + 72 * le32(p + 12);
        if (strcasecmp(ext, "skp") == 0 || (strcasecmp(ext, "skm") != 0 && skp_layout))
            return OSSA_FORMAT_SKP;
        return OSSA_FORMAT_SKM;
    }
    if (size >= 12 && memcmp(p, "RIFF", 4) == 0 && memcmp(p + 8, "C3SB", 4) == 0)
        return OSSA_FORMAT_C3S;
    if (strcasecmp(ext, "cfg") == 0) {
        /* A Qfusion cfg stands for its model, <name>.skm beside it. */
        ossa_cfg_scan sc;
        ossa_cfg_scan_text(data, size, &sc);
        return ossa_cfg_is_qfusion(&sc) ? OSSA_FORMAT_SKM : OSSA_FORMAT_CAL3D_CFG;
    }
    static const struct { const char *ext; ossa_format f; } exts[] = {
        {"xsf", OSSA_FORMAT_XSF}, {"xaf", OSSA_FORMAT_XAF},
        {"xmf", OSSA_FORMAT_XMF}, {"xrf", OSSA_FORMAT_XRF}, {"xpf", OSSA_FORMAT_XPF}};
    for (size_t k = 0; k < sizeof exts / sizeof exts[0]; k++)
        if (strcasecmp(ext, exts[k].ext) == 0)
            return exts[k].f;
    /* Unknown extension: Cal3D XML can still be recognised by its content. */
    return sniff_xml((const char *)data, size);
}
