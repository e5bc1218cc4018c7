/* The SKM/SKP pairing's file lookups (docs/FORMATS.md, SKM/SKP), for load.c: whether a path holds
 * an SKM or an SKP, the pose file an .skm goes with (its <model>.cfg's import, else <model>.skp,
 * else its base model's for a _lodN file) and the .skm a Qfusion .cfg stands for. They look only at
 * names and first bytes and add nothing to the model, so they sit apart from load.c, which loads
 * the files they find. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/cfg.h"
#include "io/file_io.h"
#include "io/sniff.h"
#include "formats/load_skm_paths.h"
#include "formats/skm/skm_format.h"

bool ossa_is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* SKM or SKP by the first bytes and the name; anything else is OSSA_FORMAT_UNKNOWN here. */
ossa_format ossa_skm_kind(const char *path)
{
    uint8_t head[8];
    size_t n = 0;
    struct stat st;
    FILE *f = ossa_file_open_regular(path, &st);
    if (f) {
        n = fread(head, 1, sizeof head, f);
        fclose(f);
    }
    if (!ossa_sniff_has_skm_magic(head, n))
        return OSSA_FORMAT_UNKNOWN; /* also a Qfusion .cfg, which sniffs as SKM */
    ossa_format fmt = ossa_sniff(head, n, path);
    return fmt == OSSA_FORMAT_SKM || fmt == OSSA_FORMAT_SKP ? fmt : OSSA_FORMAT_UNKNOWN;
}

/* The pose file an .skm names through <model>.cfg's first `import` (extension replaced by
 * .skp, relative to the cfg's folder, else its base name there), or <model>.skp. A _lodN file
 * falls back to its base model's, whose skeleton LODs share. */
ossa_status ossa_find_skm_pose(ossa_build *b, const char *skm_path, char *out, size_t out_size)
{
    char stem[4096];
    if (!out || !out_size) /* never from load.c; without it GCC warns of a null out under UBSan */
        return ossa_fail(b, OSSA_ERR_INVALID_ARGUMENT, -1, "no room for the pose file's path");
    const char *slash = strrchr(skm_path, '/');
    const char *dot = strrchr(slash ? slash + 1 : skm_path, '.');
    size_t len = dot ? (size_t)(dot - skm_path) : strlen(skm_path);
    size_t dir_len = slash ? (size_t)(slash - skm_path + 1) : 0;
    if (len >= sizeof stem)
        return ossa_fail(b, OSSA_ERR_IO, -1, "path too long: %s", skm_path);
    for (int attempt = 0; attempt < 2; attempt++) {
        memcpy(stem, skm_path, len);
        stem[len] = '\0';
        char cfg[4200];
        snprintf(cfg, sizeof cfg, "%s.cfg", stem);
        if (ossa_is_regular_file(cfg)) {
            uint8_t *text;
            size_t size;
            /* A failed read names the cfg; then the .skm is the file again. */
            ossa_status st = ossa_build_set_file(b, cfg);
            if (st == OSSA_OK)
                st = ossa_cfg_read_text(b, cfg, &text, &size);
            if (st == OSSA_OK && (st = ossa_build_set_file(b, skm_path)) != OSSA_OK)
                free(text);
            OSSA_TRY(st);
            ossa_cfg_scan sc;
            ossa_cfg_scan_text(text, size, &sc);
            if (sc.import && !sc.path_len) {
                /* Qfusion would look for ".skp" and fail: fatal here too. */
                free(text);
                OSSA_TRY(ossa_build_set_file(b, cfg));
                return ossa_fail_line(b, OSSA_ERR_FORMAT, sc.import_line,
                                      "import without a pose file path");
            }
            if (sc.import) {
                char name[4096];
                snprintf(name, sizeof name, "%.*s", (int)(sc.path_len < 4095 ? sc.path_len : 4095),
                         sc.path);
                for (char *c = name; *c; c++)
                    if (*c == '\\')
                        *c = '/';
                char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
                char *ext = strrchr(base, '.');
                if (ext)
                    *ext = '\0';
                free(text);
                if (name[0] == '/')
                    snprintf(out, out_size, "%s.skp", name);
                else
                    snprintf(out, out_size, "%.*s%s.skp", (int)dir_len, skm_path, name);
                if (ossa_is_regular_file(out))
                    return OSSA_OK;
                snprintf(out, out_size, "%.*s%s.skp", (int)dir_len, skm_path, base);
                if (ossa_is_regular_file(out))
                    return OSSA_OK;
                /* The cfg's line is where the wrong name is. */
                OSSA_TRY(ossa_build_set_file(b, cfg));
                return ossa_fail_line(b, OSSA_ERR_IO, sc.import_line,
                                      "pose file '%s.skp' named by the import not found", name);
            }
            free(text);
        }
        snprintf(out, out_size, "%s.skp", stem);
        if (ossa_is_regular_file(out))
            return OSSA_OK;
        uint32_t lod;
        size_t cut = ossa_skm_lod_suffix(stem, len, &lod);
        if (!cut || len - cut <= dir_len)
            break;
        len -= cut; /* try the base model's pose file */
    }
    return ossa_fail(b, OSSA_ERR_IO, -1,
                     "no pose file: neither %.*s.cfg with an import line nor %.*s.skp exists",
                     (int)len, skm_path, (int)len, skm_path);
}

/* A Qfusion .cfg stands for its model: dir/name.cfg opens dir/name.skm, whose pose file the cfg's
 * import names (docs/FORMATS.md, SKM/SKP: Qfusion's pose file lookup, reversed). *skm is arena
 * memory. */
ossa_status ossa_qfusion_cfg_model(ossa_build *b, const char *cfg_path, const ossa_cfg_scan *sc,
                                   const char **skm)
{
    OSSA_TRY(ossa_build_set_file(b, cfg_path));
    if (!sc->path_len)
        return ossa_fail_line(b, OSSA_ERR_FORMAT, sc->import_line,
                              "Qfusion model config: import without a pose file path");
    const char *slash = strrchr(cfg_path, '/');
    const char *dot = strrchr(slash ? slash + 1 : cfg_path, '.');
    size_t len = dot ? (size_t)(dot - cfg_path) : strlen(cfg_path);
    char path[4200];
    if (len + 5 > sizeof path)
        return ossa_fail(b, OSSA_ERR_IO, -1, "path too long: %s", cfg_path);
    snprintf(path, sizeof path, "%.*s.skm", (int)len, cfg_path);
    if (!ossa_is_regular_file(path))
        return ossa_fail(b, OSSA_ERR_IO, -1,
                         "Qfusion model config (import line %d) without its model: %s not found",
                         sc->import_line, path);
    return ossa_build_strndup(b, skm, path, strlen(path));
}
