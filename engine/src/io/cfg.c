/* Model configuration files: the token scan shared by both kinds of .cfg (a Qfusion import line,
 * Cal3D key=value lines) and the lines of a Cal3D model set (CalCoreModel's .cfg keys). */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "ossa/limits.h"
#include "io/cfg.h"
#include "io/file_io.h"

/* The next token of a Qfusion .cfg line within [*s, end): a word or "quoted text"; // starts a
 * comment. Returns the token's length (0 at the end of the line) and moves *s past it. */
static size_t cfg_token(const char **s, const char *end, const char **start)
{
    const char *p = *s;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    if (p == end || *p == '\n' || (*p == '/' && p + 1 < end && p[1] == '/')) {
        *s = p;
        return 0;
    }
    const char *q = p;
    if (*p == '"') {
        *start = ++p;
        for (q = p; q < end && *q != '"' && *q != '\n'; q++)
            ;
        *s = q < end && *q == '"' ? q + 1 : q;
        return (size_t)(q - p);
    }
    *start = p;
    while (q < end && !isspace((unsigned char)*q))
        q++;
    *s = q;
    return (size_t)(q - p);
}

void ossa_cfg_scan_text(const void *data, size_t size, ossa_cfg_scan *out)
{
    memset(out, 0, sizeof *out);
    if (!data || !size)
        return;
    const char *text = data;
    /* Text ends at a NUL, as it does for the line parsers that read the file afterwards. */
    const char *end = memchr(text, '\0', size);
    if (!end)
        end = text + size;
    int line = 1;
    for (const char *s = text; s < end; line++) {
        const char *eol = memchr(s, '\n', (size_t)(end - s));
        const char *line_end = eol ? eol : end;
        const char *k = s;
        while (k < line_end && (*k == ' ' || *k == '\t'))
            k++;
        const char *w = k;
        while (w < line_end && isalpha((unsigned char)*w))
            w++;
        if (w > k) {
            while (w < line_end && (*w == ' ' || *w == '\t'))
                w++;
            out->key_value |= w < line_end && *w == '=';
        }
        const char *p = s, *tok = NULL;
        size_t n;
        while (!out->import && (n = cfg_token(&p, line_end, &tok)) > 0) {
            if (n == 6 && strncasecmp(tok, "import", 6) == 0) {
                out->import = true;
                out->import_line = line;
                out->path_len = cfg_token(&p, line_end, &out->path);
            }
        }
        s = eol ? eol + 1 : end;
    }
}

/* A .cfg is text: a control byte other than tab, line feed, vertical tab, form feed and
 * carriage return means a binary file named .cfg (docs/FORMATS.md, ".cfg files are text"). */
static ossa_status check_text(ossa_build *b, const uint8_t *p, size_t n)
{
    int line = 1;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (c == '\n')
            line++;
        else if (!c)
            return ossa_file_fail_nul(b, p, i);
        else if (c < 0x20 && c != '\t' && c != '\v' && c != '\f' && c != '\r')
            return ossa_fail_line(b, OSSA_ERR_FORMAT, line, "byte 0x%02X at offset %zu: a .cfg "
                                  "is text, and this is a control character", c, i);
    }
    return OSSA_OK;
}

ossa_status ossa_cfg_read_text(ossa_build *b, const char *path, uint8_t **text, size_t *size)
{
    uint8_t head[OSSA_CFG_HEAD_BYTES];
    size_t got;
    uint64_t file_size;
    *text = NULL;
    *size = 0;
    OSSA_TRY(ossa_file_read_head(b, path, head, sizeof head, &got, &file_size));
    OSSA_TRY(check_text(b, head, got));
    if (file_size > OSSA_MAX_CFG_SIZE)
        return ossa_fail(b, OSSA_ERR_RANGE, -1, "a .cfg of %llu bytes: more than the %u bytes "
                         "of text a model set can need", (unsigned long long)file_size,
                         OSSA_MAX_CFG_SIZE);
    uint8_t *data;
    size_t n;
    OSSA_TRY(ossa_file_read_whole(b, path, OSSA_MAX_CFG_SIZE, NULL, NULL, &data, &n));
    ossa_status st = check_text(b, data, n);
    if (st != OSSA_OK) {
        free(data);
        return st;
    }
    *text = data;
    *size = n;
    return OSSA_OK;
}

ossa_status ossa_cfg_resolve_case(ossa_build *b, const char *path, char *out, size_t out_size)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        snprintf(out, out_size, "%s", path);
        return OSSA_OK;
    }
    const char *slash = strrchr(path, '/');
    char dir[4096];
    size_t dlen = slash ? (size_t)(slash - path) : 0;
    if (dlen >= sizeof dir)
        return ossa_fail(b, OSSA_ERR_IO, -1, "path too long: %s", path);
    memcpy(dir, path, dlen);
    dir[dlen] = '\0';
    const char *base = slash ? slash + 1 : path;
    DIR *d = opendir(dlen ? dir : ".");
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcasecmp(e->d_name, base) == 0) {
                snprintf(out, out_size, "%s%s%s", dir, dlen ? "/" : "", e->d_name);
                closedir(d);
                ossa_warn(b, "'%s' not found; using '%s' (letter case differs)", path, out);
                return OSSA_OK;
            }
        }
        closedir(d);
    }
    return ossa_fail(b, OSSA_ERR_IO, -1, "file not found: %s", path);
}

static char *trim(char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

/* Records the folder a path= line names, joined to the cfg's folder as its files are. */
static ossa_status add_folder(ossa_build *b, ossa_cfg_set *set, const char *base_dir,
                              const char *sub_dir, int line_no)
{
    if (set->folder_count >= OSSA_MAX_FILES)
        return ossa_fail_line(b, OSSA_ERR_RANGE, line_no, "more than %u path= lines",
                              OSSA_MAX_FILES);
    if (set->folder_count == set->folder_cap) {
        size_t ncap = set->folder_cap ? set->folder_cap * 2 : 4;
        char **grown = realloc(set->folders, ncap * sizeof *grown);
        if (!grown)
            return ossa_fail(b, OSSA_ERR_NOMEM, -1, "out of memory");
        set->folders = grown;
        set->folder_cap = ncap;
    }
    char full[8192];
    snprintf(full, sizeof full, "%s%s", sub_dir[0] == '/' ? "" : base_dir, sub_dir);
    set->folders[set->folder_count] = strdup(full);
    if (!set->folders[set->folder_count])
        return ossa_fail(b, OSSA_ERR_NOMEM, -1, "out of memory");
    set->folder_count++;
    return OSSA_OK;
}

static bool is_folder(const char *path)
{
    struct stat st;
    return stat(path[0] ? path : ".", &st) == 0 && S_ISDIR(st.st_mode);
}

/* Classic applications keep their cfg inside a data folder with path= relative to the folder
 * the program runs from (`path=data/models/hero/` in data/hero.cfg). When a relative path=
 * names no folder beside the cfg, the nearest ancestor of the cfg's folder where it names one
 * is taken (docs/FORMATS.md, "Cal3D .cfg"). Writes the absolute folder, '/'-ended, to out. */
static bool ancestor_folder(const char *base_dir, const char *sub_dir, char *out, size_t cap)
{
    char here[4096];
    if (!realpath(base_dir[0] ? base_dir : ".", here))
        return false;
    for (int depth = 0; depth < 64; depth++) {
        char *slash = strrchr(here, '/');
        if (!slash)
            return false;
        if (slash == here && !here[1])
            return false; /* the root itself was the last tried */
        slash[slash == here ? 1 : 0] = '\0';
        int n = snprintf(out, cap, "%s%s%s", here, here[1] ? "/" : "", sub_dir);
        if (n > 0 && (size_t)n < cap && is_folder(out))
            return true;
    }
    return false;
}

/* The lines of a Cal3D model set, as CalCoreModel's loader reads them: `#` comments, key=value
 * with the key in any letter case, `scale=` and `path=` applying to what follows. */
ossa_status ossa_cfg_parse(ossa_build *b, const char *base_dir, char *text, ossa_cfg_set *set)
{
    memset(set, 0, sizeof *set);
    set->scale = 1.0f;
    const char *cfg_file = b->file;
    /* Files named by the cfg are relative to the cfg's folder, then to path= when given. */
    char sub_dir[4096] = "";
    int line_no = 0;
    char *next = text;
    while (next) {
        char *line = next;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line_no++;
        char *s = trim(line);
        if (!*s || *s == '#')
            continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            b->file = cfg_file;
            ossa_warn(b, "line %d: no '=' in \"%s\", ignored", line_no, s);
            continue;
        }
        *eq = '\0';
        char *key = trim(s), *value = trim(eq + 1);
        int kind = -1;
        if (strcasecmp(key, "skeleton") == 0) kind = OSSA_CFG_SKELETON;
        else if (strcasecmp(key, "mesh") == 0) kind = OSSA_CFG_MESH;
        else if (strcasecmp(key, "animation") == 0) kind = OSSA_CFG_ANIMATION;
        /* Blender's Cal3D exporter writes morphanim= beside animation=. */
        else if (strcasecmp(key, "morphanimation") == 0 || strcasecmp(key, "morphanim") == 0)
            kind = OSSA_CFG_MORPH_ANIMATION;
        else if (strcasecmp(key, "material") == 0) kind = OSSA_CFG_MATERIAL;
        if (strcasecmp(key, "scale") == 0) {
            char *end;
            float v = strtof(value, &end);
            if (end == value || !(v > 0.0f) || v > 1e6f)
                return ossa_fail_line(b, OSSA_ERR_VALUE, line_no, "scale '%s' is not a positive number", value);
            set->scale = v;
        } else if (strcasecmp(key, "path") == 0) {
            size_t len = strlen(value);
            for (char *c = value; *c; c++)
                if (*c == '\\')
                    *c = '/'; /* Windows-made sets */
            snprintf(sub_dir, sizeof sub_dir, "%s%s", value, len && value[len - 1] != '/' ? "/" : "");
            char joined[8192], above[8192];
            snprintf(joined, sizeof joined, "%s%s", base_dir, sub_dir);
            if (sub_dir[0] && sub_dir[0] != '/' && !is_folder(joined) &&
                ancestor_folder(base_dir, sub_dir, above, sizeof above) &&
                strlen(above) < sizeof sub_dir) {
                b->file = cfg_file;
                ossa_warn(b, "line %d: path=%s is no folder beside the .cfg; using %s, the "
                          "nearest folder above it that has one", line_no, value, above);
                snprintf(sub_dir, sizeof sub_dir, "%s", above);
            }
            OSSA_TRY(add_folder(b, set, base_dir, sub_dir, line_no));
        } else if (kind >= 0) {
            if (set->count >= OSSA_MAX_FILES)
                return ossa_fail_line(b, OSSA_ERR_RANGE, line_no, "more than %u files", OSSA_MAX_FILES);
            if (set->count == set->cap) {
                size_t ncap = set->cap ? set->cap * 2 : 16;
                ossa_cfg_entry *grown = realloc(set->entries, ncap * sizeof *grown);
                if (!grown)
                    return ossa_fail(b, OSSA_ERR_NOMEM, -1, "out of memory");
                set->entries = grown;
                set->cap = ncap;
            }
            char full[8192];
            for (char *c = value; *c; c++)
                if (*c == '\\')
                    *c = '/'; /* Windows-made sets */
            if (value[0] == '/')
                snprintf(full, sizeof full, "%s", value);
            else if (sub_dir[0] == '/')
                snprintf(full, sizeof full, "%s%s", sub_dir, value);
            else
                snprintf(full, sizeof full, "%s%s%s", base_dir, sub_dir, value);
            ossa_cfg_entry *e = &set->entries[set->count];
            e->kind = kind;
            e->line = line_no;
            snprintf(e->key, sizeof e->key, "%s", key);
            e->path = strdup(full);
            if (!e->path)
                return ossa_fail(b, OSSA_ERR_NOMEM, -1, "out of memory");
            set->count++;
        } else {
            b->file = cfg_file;
            ossa_warn(b, "line %d: unknown key '%s' ignored", line_no, key);
        }
    }
    return OSSA_OK;
}

void ossa_cfg_set_free(ossa_cfg_set *set)
{
    for (size_t i = 0; i < set->count; i++)
        free(set->entries[i].path);
    free(set->entries);
    for (size_t i = 0; i < set->folder_count; i++)
        free(set->folders[i]);
    free(set->folders);
    memset(set, 0, sizeof *set);
}
