/* Entry points: reading files, model sets (several files, Cal3D .cfg, Qfusion .cfg), the SKM/SKP
 * pairing. What a file is comes from io/sniff.c, a .cfg's lines from io/cfg.c, and the files an
 * .skm goes with (its pose file; the .skm of a Qfusion .cfg) from load_skm_paths.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/checked.h"
#include "ossa/limits.h"
#include "io/cfg.h"
#include "io/file_io.h"
#include "io/folder.h"
#include "io/sniff.h"
#include "formats/formats.h"
#include "formats/load_skm_paths.h"
#include "formats/skm/skm_format.h"
#include "ossa/load.h"

ossa_format_reader ossa_format_reader_for(ossa_format f)
{
    switch (f) {
    case OSSA_FORMAT_CSF: return ossa_read_csf;
    case OSSA_FORMAT_CAF: return ossa_read_caf;
    case OSSA_FORMAT_CMF: return ossa_read_cmf;
    case OSSA_FORMAT_CRF: return ossa_read_crf;
    case OSSA_FORMAT_CPF: return ossa_read_cpf;
    case OSSA_FORMAT_XSF: return ossa_read_xsf;
    case OSSA_FORMAT_XAF: return ossa_read_xaf;
    case OSSA_FORMAT_XMF: return ossa_read_xmf;
    case OSSA_FORMAT_XRF: return ossa_read_xrf;
    case OSSA_FORMAT_XPF: return ossa_read_xpf;
    case OSSA_FORMAT_SKM: return ossa_read_skm;
    case OSSA_FORMAT_SKP: return ossa_read_skp;
    case OSSA_FORMAT_C3S: return ossa_read_c3s;
    case OSSA_FORMAT_CFF: return ossa_read_cff;
    default: return NULL;
    }
}

/* Reads one file of the model being built; the format comes from the options or the sniffer. */
static ossa_status read_one(ossa_build *b, const char *path, const uint8_t *data, size_t size)
{
    OSSA_TRY(ossa_build_set_file(b, path));
    ossa_format f = b->opt.format ? b->opt.format : ossa_sniff(data, size, path);
    ossa_format_reader reader = ossa_format_reader_for(f);
    if (!reader)
        return ossa_fail(b, f == OSSA_FORMAT_UNKNOWN ? OSSA_ERR_FORMAT : OSSA_ERR_UNSUPPORTED, 0,
                         "%s", f == OSSA_FORMAT_UNKNOWN ? "not a format Ossa reads"
                                                        : "this format has no reader yet");
    ossa_model *m = b->model;
    if (m->format == OSSA_FORMAT_UNKNOWN) {
        m->format = f;
        if (!m->source)
            OSSA_TRY(ossa_build_strndup(b, &m->source, path, strlen(path)));
    }
    b->last_version = 0;
    OSSA_TRY(reader(b, data, size));
    if (m->format == f && m->version == 0)
        m->version = b->last_version;
    return OSSA_OK;
}

static ossa_status load_path(ossa_build *b, const char *path)
{
    uint8_t *data, head[512];
    size_t size, got;
    uint64_t file_size;
    OSSA_TRY(ossa_build_set_file(b, path));
    OSSA_TRY(ossa_file_read_head(b, path, head, sizeof head, &got, &file_size));
    ossa_format f = b->opt.format ? b->opt.format : ossa_sniff(head, got, path);
    OSSA_TRY(ossa_file_check_head(b, f, head, got));
    /* CFF has no magic: its header's counts are checked against the file's size instead. */
    if (f == OSSA_FORMAT_CFF)
        OSSA_TRY(ossa_cff_check_head(b, head, got, file_size));
    /* XML is checked as it is read: a NUL or a white-space run libxml2 would refuse stops the
     * read there (1 GiB of NULs after a valid start is not read whole). */
    bool xml = f == OSSA_FORMAT_XSF || f == OSSA_FORMAT_XAF || f == OSSA_FORMAT_XMF ||
               f == OSSA_FORMAT_XRF || f == OSSA_FORMAT_XPF;
    ossa_xml_text_scan scan = {0};
    OSSA_TRY(ossa_file_read_whole(b, path, OSSA_MAX_FILE_SIZE, xml ? ossa_xml_scan_text : NULL,
                                  &scan, &data, &size));
    ossa_status st = read_one(b, path, data, size);
    free(data);
    return st;
}

/* How many parts the model holds: a failed file that added none can be undone. */
static size_t part_total(const ossa_model *m)
{
    return (size_t)m->bone_count + m->mesh_count + m->clip_count + m->morph_clip_count +
           m->material_count + m->mount_count;
}

/* A file left out: counted, the first one's error kept, and a warning "left out FILE: why",
 * why being its error as ossa_error_format gives it without the file name it starts with. */
static void left_out(ossa_build *b, const char *named_by, const char *path,
                     const ossa_error *part)
{
    if (b->skipped++ == 0)
        b->first_skipped = *part;
    char why[1200];
    ossa_error_format(part, why, sizeof why);
    size_t n = strlen(part->file);
    const char *w = n && strncmp(why, part->file, n) == 0 && why[n] == ':' ? why + n + 1 : why;
    while (*w == ' ')
        w++;
    if (ossa_build_set_file(b, named_by) == OSSA_OK)
        ossa_warn(b, "left out %s: %s", path, w);
}

/* One file of a model. With skip_bad_files a file that fails is undone and left out with a
 * warning naming it and why (its error as ossa_error_format gives it); out of memory, and a
 * failure after parts had joined the model, still fail the load. */
static ossa_status load_part(ossa_build *b, const char *path, const char *named_by)
{
    if (!b->opt.skip_bad_files)
        return load_path(b, path);
    ossa_build_savepoint sp;
    ossa_build_save(b, &sp);
    size_t parts = part_total(b->model);
    ossa_error *caller = b->err, part;
    ossa_error_clear(&part);
    b->err = &part;
    ossa_status st = load_path(b, path);
    b->err = caller;
    if (st == OSSA_OK)
        return OSSA_OK;
    if (st == OSSA_ERR_NOMEM || part_total(b->model) != parts)
        return ossa_fail(b, part.status, part.offset, "%s", part.message);
    ossa_build_rollback(b, &sp);
    left_out(b, named_by ? named_by : path, path, &part);
    return OSSA_OK;
}

/* After a load that left files out: a model with no skeleton or no mesh is no character. */
static ossa_status check_skipped(ossa_build *b)
{
    if (!b->skipped || (b->model->bone_count && b->model->mesh_count))
        return OSSA_OK;
    const ossa_error *e = &b->first_skipped;
    /* Nothing read at all: the first failure as it was; else what is missing is said. */
    char tail[96] = "";
    if (part_total(b->model))
        snprintf(tail, sizeof tail, " (%u file%s left out and no %s remains)", b->skipped,
                 b->skipped == 1 ? "" : "s", b->model->bone_count ? "mesh" : "skeleton");
    ossa_error_clear(b->err);
    ossa_status st = ossa_fail(b, e->status, e->offset, "%s%s", e->message, tail);
    snprintf(b->err->file, sizeof b->err->file, "%s", e->file);
    b->err->line = e->line;
    return st;
}

/* Order in which the files of one model are read: the skeleton first (others map bone ids
 * through it), then meshes, animations, morph animations and materials. */
static int load_rank(ossa_format f)
{
    switch (f) {
    case OSSA_FORMAT_CSF: case OSSA_FORMAT_XSF: return 0;
    case OSSA_FORMAT_SKP: return 0; /* the SKM skeleton and frame 0 */
    case OSSA_FORMAT_CMF: case OSSA_FORMAT_XMF: return 1;
    case OSSA_FORMAT_SKM: return 1;
    case OSSA_FORMAT_CAF: case OSSA_FORMAT_XAF: return 2;
    case OSSA_FORMAT_CPF: case OSSA_FORMAT_XPF: return 3;
    case OSSA_FORMAT_CRF: case OSSA_FORMAT_XRF: return 4;
    default: return 5;
    }
}

/* After all files: material thread ids beyond the materials loaded become "no material". */
static void settle_materials(ossa_build *b)
{
    ossa_model *m = b->model;
    if (!m->material_count)
        return;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            ossa_submesh *sm = (ossa_submesh *)&m->meshes[i].submeshes[j];
            if (sm->material >= (int32_t)m->material_count) {
                ossa_warn(b, "mesh '%s' submesh %u: material %d not loaded, drawn without one",
                          m->meshes[i].name, j, sm->material);
                sm->material = -1;
            }
        }
}

/* A model with nothing to show or export: no bones, meshes, clips, morph clips or materials
 * (an all-zero file named .cff read as one). A lone animation or material is not empty. */
static bool holds_nothing(const ossa_model *m)
{
    return !m->bone_count && !m->mesh_count && !m->clip_count && !m->morph_clip_count &&
           !m->material_count;
}

static ossa_status finish(ossa_build *b, ossa_status st, ossa_model **out)
{
    if (st == OSSA_OK)
        st = check_skipped(b);
    if (st == OSSA_OK && holds_nothing(b->model)) {
        /* Name the model's file (a set's .cfg), not the last file read. */
        st = b->model->source ? ossa_build_set_file(b, b->model->source) : OSSA_OK;
        if (st == OSSA_OK)
            st = ossa_fail(b, OSSA_ERR_FORMAT, -1, "nothing to show or export: no bones, meshes, "
                           "clips, morph clips or materials");
    }
    if (st == OSSA_OK) {
        settle_materials(b);
        if (b->opt.scale > 0.0f && b->opt.scale != 1.0f)
            ossa_build_scale(b, b->opt.scale);
    }
    /* After the load's own checks, so a failed load still tells what it left out on the way;
     * warnings of attempts it undid (ossa_build_restore) are gone by now. */
    if (b->opt.log.fn)
        for (uint32_t i = 0; i < b->model->warning_count; i++)
            b->opt.log.fn(b->opt.log.user, b->model->warnings[i]);
    return ossa_build_finish(b, st, out);
}

static ossa_status begin(ossa_build *b, ossa_model **out, ossa_error *err,
                         const ossa_load_options *opt)
{
    if (out)
        *out = NULL;
    ossa_error_clear(err);
    if (!out)
        return OSSA_ERR_INVALID_ARGUMENT;
    /* A frame rate far outside what any file plays at would make key times overflow. */
    if (opt && (!isfinite(opt->frame_rate) || opt->frame_rate < 0.0f ||
                (opt->frame_rate > 0.0f && (opt->frame_rate < 0.01f || opt->frame_rate > 10000.0f)))) {
        if (err) {
            err->status = OSSA_ERR_INVALID_ARGUMENT;
            snprintf(err->message, sizeof err->message,
                     "frame rate %g is outside 0.01..10000 frames per second", opt->frame_rate);
        }
        return OSSA_ERR_INVALID_ARGUMENT;
    }
    ossa_read_options read = {0};
    if (opt)
        read = (ossa_read_options){opt->format, opt->scale, opt->flip_winding, opt->invert_v,
                                   opt->skip_missing_files, opt->frame_rate,
                                   opt->allow_outside, opt->skip_bad_files, opt->log};
    if (!ossa_build_init(b, err, &read)) {
        if (err) {
            err->status = OSSA_ERR_NOMEM;
            snprintf(err->message, sizeof err->message, "cannot allocate a model");
        }
        return OSSA_ERR_NOMEM;
    }
    if (!b->err) { /* a file left out is reported from its error, which is kept here */
        ossa_error_clear(&b->scratch_err);
        b->err = &b->scratch_err;
    }
    return OSSA_OK;
}

ossa_status ossa_load_memory(const void *data, size_t size, const char *name,
                             const ossa_load_options *opt, ossa_model **out, ossa_error *err)
{
    ossa_build b;
    OSSA_TRY(begin(&b, out, err, opt));
    if (!data && size)
        return finish(&b, ossa_fail(&b, OSSA_ERR_INVALID_ARGUMENT, -1, "no data"), out);
    const char *n = name ? name : "";
    ossa_format f = b.opt.format ? b.opt.format : ossa_sniff(data, size, n);
    ossa_status st;
    /* A .cfg of either kind (a Qfusion one sniffs as SKM) names files beside it. */
    if (f == OSSA_FORMAT_CAL3D_CFG || (!b.opt.format && ossa_sniffed_cfg(f, data, size))) {
        st = ossa_build_set_file(&b, n);
        if (st == OSSA_OK)
            st = ossa_fail(&b, OSSA_ERR_INVALID_ARGUMENT, -1,
                           "a .cfg names other files: load it by path");
    } else {
        st = read_one(&b, n, data ? data : (const void *)"", size);
    }
    return finish(&b, st, out);
}

/* ---- Cal3D .cfg model sets ---- */

static const char *const cfg_kinds[OSSA_CFG_KIND_COUNT] = {
    "a skeleton", "a mesh", "an animation", "a morph animation", "a material"};

/* The folders a set's textures may lie in besides their material's: the cfg's and its path=
 * folders (docs/FORMATS.md, "Texture files"). */
static ossa_status set_texture_roots(ossa_build *b, const char *base_dir, const ossa_cfg_set *set)
{
    const char **roots;
    OSSA_TRY(ossa_build_array(b, &roots, set->folder_count + 1, sizeof *roots));
    roots[0] = base_dir;
    for (size_t i = 0; i < set->folder_count; i++)
        roots[i + 1] = set->folders[i];
    b->roots = roots;
    b->root_count = (uint32_t)set->folder_count + 1;
    return OSSA_OK;
}

/* A Cal3D model set; text is the cfg's whole content (NUL-terminated), freed here. */
static ossa_status load_cfg(ossa_build *b, const char *cfg_path, uint8_t *text)
{
    ossa_status set_st = ossa_build_set_file(b, cfg_path);
    if (set_st == OSSA_OK)
        set_st = ossa_build_strndup(b, &b->model->source, cfg_path, strlen(cfg_path));
    if (set_st != OSSA_OK) {
        free(text);
        return set_st;
    }
    const char *cfg_file = b->file;
    b->model->format = OSSA_FORMAT_CAL3D_CFG;

    char base_dir[4096];
    snprintf(base_dir, sizeof base_dir, "%s", b->dir);
    ossa_cfg_set set;
    ossa_status st = ossa_cfg_parse(b, base_dir, (char *)text, &set);
    free(text);
    if (st == OSSA_OK)
        st = set_texture_roots(b, base_dir, &set);
    /* Stable by kind: the skeleton first, then each kind in file order (the kinds are in
     * load_rank order). */
    for (int rank = 0; rank < OSSA_CFG_KIND_COUNT && st == OSSA_OK; rank++) {
        for (size_t i = 0; i < set.count && st == OSSA_OK; i++) {
            const ossa_cfg_entry *e = &set.entries[i];
            if (e->kind != rank)
                continue;
            char found[8192];
            b->file = cfg_file;
            st = ossa_cfg_resolve_case(b, e->path, found, sizeof found);
            if (st != OSSA_OK && rank != OSSA_CFG_SKELETON && b->opt.skip_missing_files) {
                ossa_error_clear(b->err);
                b->file = cfg_file;
                ossa_warn(b, "skipped missing file %s", e->path);
                st = OSSA_OK;
                continue;
            }
            /* Each key names one kind of file: an animation under skeleton= (or a .cfg
             * naming itself) is an error on that line, not a model built from the wrong
             * parts. */
            uint8_t head[4096];
            size_t got = 0;
            if (st == OSSA_OK)
                st = ossa_file_read_head(b, found, head, sizeof head, &got, NULL);
            ossa_format kind = st == OSSA_OK ? ossa_sniff(head, got, found) : OSSA_FORMAT_UNKNOWN;
            if (st == OSSA_OK && !b->opt.format && load_rank(kind) != rank) {
                b->file = cfg_file;
                st = ossa_fail_line(b, OSSA_ERR_FORMAT, e->line,
                                    "%s= names '%s', %s%s%s, not %s", e->key, found,
                                    kind == OSSA_FORMAT_UNKNOWN ? "" : "a ",
                                    kind == OSSA_FORMAT_UNKNOWN ? "not a file Ossa reads"
                                                                : ossa_format_name(kind),
                                    kind == OSSA_FORMAT_UNKNOWN ? "" : " file", cfg_kinds[rank]);
            }
            if (st == OSSA_OK)
                st = load_part(b, found, cfg_file);
            else if (b->opt.skip_bad_files && st != OSSA_ERR_NOMEM) {
                /* a line naming a missing file or one of the wrong kind: left out too */
                ossa_error part = *b->err;
                ossa_error_clear(b->err);
                left_out(b, cfg_file, e->path, &part);
                st = OSSA_OK;
            }
        }
    }
    float scale = set.scale;
    b->roots = NULL; /* they point into the set */
    b->root_count = 0;
    ossa_cfg_set_free(&set);
    if (st == OSSA_OK && scale != 1.0f)
        ossa_build_scale(b, scale);
    return st;
}

/* ---- SKM/SKP model sets (docs/FORMATS.md, SKM/SKP) ---- */

/* Before the files given: the pose file of the first .skm when no .skp is among them. */
static ossa_status load_skm_pose(ossa_build *b, const char *const *paths, size_t count)
{
    const char *skm = NULL;
    bool have_pose = false;
    for (size_t i = 0; i < count; i++) {
        ossa_format f = ossa_skm_kind(paths[i]);
        have_pose |= f == OSSA_FORMAT_SKP;
        if (f == OSSA_FORMAT_SKM && !skm)
            skm = paths[i];
    }
    if (!skm)
        return OSSA_OK;
    /* The model is the .skm, not the pose file read before it. */
    ossa_model *m = b->model;
    if (m->format == OSSA_FORMAT_UNKNOWN) {
        m->format = OSSA_FORMAT_SKM;
        OSSA_TRY(ossa_build_strndup(b, &m->source, skm, strlen(skm)));
    }
    if (have_pose)
        return OSSA_OK;
    char pose[8400];
    OSSA_TRY(ossa_build_set_file(b, skm));
    OSSA_TRY(ossa_find_skm_pose(b, skm, pose, sizeof pose));
    return load_path(b, pose);
}

/* After the files given: base_lod1.skm .. base_lod4.skm beside each base .skm. */
static ossa_status load_skm_lods(ossa_build *b, const char *const *paths, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (ossa_skm_kind(paths[i]) != OSSA_FORMAT_SKM)
            continue;
        const char *slash = strrchr(paths[i], '/');
        const char *dot = strrchr(slash ? slash + 1 : paths[i], '.');
        size_t len = dot ? (size_t)(dot - paths[i]) : strlen(paths[i]);
        uint32_t lod;
        if (ossa_skm_lod_suffix(paths[i], len, &lod))
            continue;
        for (uint32_t n = 1; n <= SKM_MAX_LODS; n++) {
            char lod_path[4200];
            snprintf(lod_path, sizeof lod_path, "%.*s_lod%u%s", (int)len, paths[i], n,
                     dot ? dot : ".skm");
            bool given = false;
            for (size_t k = 0; k < count && !given; k++)
                given = strcmp(paths[k], lod_path) == 0;
            if (!given && ossa_is_regular_file(lod_path))
                OSSA_TRY(load_path(b, lod_path));
        }
    }
    return OSSA_OK;
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, b) == 0)
        return true;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* The files of one model in the order their kinds need (skeleton first). */
static ossa_status load_ranked(ossa_build *b, const char *const *paths, size_t count)
{
    /* Rank each file by its kind (read from its first bytes and name), then load in rank order.
     * A Qfusion .cfg is replaced by its .skm (dropped when that .skm is given too). */
    int *ranks = calloc(count, sizeof *ranks);
    const char **use = calloc(count, sizeof *use);
    bool *from_cfg = calloc(count, sizeof *from_cfg);
    if (!ranks || !use || !from_cfg) {
        free(ranks);
        free(use);
        free(from_cfg);
        ossa_status st = ossa_fail(b, OSSA_ERR_NOMEM, -1, "out of memory");
        return st;
    }
    ossa_status st = OSSA_OK;
    size_t used = 0;
    uint8_t *cal3d_cfg = NULL; /* the text of a lone Cal3D .cfg */
    for (size_t i = 0; i < count && st == OSSA_OK; i++) {
        uint8_t head[4096];
        size_t n = 0;
        st = ossa_build_set_file(b, paths[i]);
        if (st == OSSA_OK)
            st = ossa_file_read_head(b, paths[i], head, sizeof head, &n, NULL);
        if (st != OSSA_OK)
            break;
        ossa_format fmt = ossa_sniff(head, n, paths[i]);
        const char *path = paths[i];
        bool substituted = false;
        if (ossa_sniffed_cfg(fmt, head, n)) {
            /* A .cfg of either kind: decided on its whole text (an import may come late). */
            uint8_t *text;
            size_t size;
            st = ossa_build_set_file(b, paths[i]);
            if (st == OSSA_OK)
                st = ossa_cfg_read_text(b, paths[i], &text, &size);
            if (st != OSSA_OK)
                break;
            ossa_cfg_scan sc;
            ossa_cfg_scan_text(text, size, &sc);
            if (ossa_cfg_is_qfusion(&sc)) {
                st = ossa_qfusion_cfg_model(b, paths[i], &sc, &path);
                free(text);
                fmt = OSSA_FORMAT_SKM;
                substituted = true;
            } else if (!sc.key_value) {
                /* Nothing to load: an empty, binary or foreign file named .cfg. */
                free(text);
                st = ossa_fail(b, OSSA_ERR_FORMAT, -1,
                               "neither a Cal3D model set (no key=value line) nor a Qfusion model "
                               "config (no import line)");
            } else if (count != 1) {
                free(text);
                st = ossa_fail(b, OSSA_ERR_INVALID_ARGUMENT, -1,
                               "a .cfg is a whole model: open it on its own");
            } else {
                cal3d_cfg = text;
            }
            if (st != OSSA_OK || cal3d_cfg)
                break;
        }
        bool again = false;
        for (size_t k = 0; k < used && !again; k++)
            again = (substituted || from_cfg[k]) && same_file(use[k], path);
        if (again)
            continue; /* the .skm and its cfg given together: one model */
        use[used] = path;
        from_cfg[used] = substituted;
        ranks[used++] = load_rank(fmt);
    }
    if (st == OSSA_OK && cal3d_cfg) {
        st = load_cfg(b, paths[0], cal3d_cfg);
    } else {
        if (st == OSSA_OK)
            st = load_skm_pose(b, use, used);
        for (int rank = 0; rank <= 5 && st == OSSA_OK; rank++)
            for (size_t i = 0; i < used && st == OSSA_OK; i++)
                if (ranks[i] == rank)
                    st = load_part(b, use[i], NULL);
        if (st == OSSA_OK)
            st = load_skm_lods(b, use, used);
    }
    free(ranks);
    free(use);
    free(from_cfg);
    return st;
}

/* Loads files (no folders) into b, which the caller finishes. */
static ossa_status load_list(ossa_build *b, const char *const *paths, size_t count)
{
    if (count > OSSA_MAX_FILES)
        return ossa_fail(b, OSSA_ERR_RANGE, -1, "more than %u files", OSSA_MAX_FILES);
    return load_ranked(b, paths, count);
}

ossa_status ossa_load_files(const char *const *paths, size_t count, const ossa_load_options *opt,
                            ossa_model **out, ossa_error *err)
{
    ossa_build b;
    OSSA_TRY(begin(&b, out, err, opt));
    if (!paths || count == 0)
        return finish(&b, ossa_fail(&b, OSSA_ERR_INVALID_ARGUMENT, -1, "no files given"), out);
    /* Folders stand for the files they hold (folder.c); files are taken as they are. */
    ossa_path_list list = {NULL, 0, 0};
    ossa_status st = OSSA_OK;
    bool folders = false;
    for (size_t i = 0; i < count && st == OSSA_OK; i++) {
        if (paths[i] && ossa_is_folder(paths[i])) {
            folders = true;
            st = ossa_folder_expand(&b, paths[i], &list);
            continue;
        }
        char *copy = paths[i] ? strdup(paths[i]) : NULL;
        char **grown = list.count == list.cap
                           ? realloc(list.paths, (list.cap ? 2 * list.cap : 16) * sizeof *grown)
                           : list.paths;
        if (!copy || !grown) {
            free(copy);
            if (grown)
                list.paths = grown;
            st = ossa_fail(&b, OSSA_ERR_NOMEM, -1, "out of memory");
            break;
        }
        if (list.count == list.cap)
            list.cap = list.cap ? 2 * list.cap : 16;
        list.paths = grown;
        list.paths[list.count++] = copy;
    }
    if (st == OSSA_OK)
        st = folders ? load_list(&b, (const char *const *)list.paths, list.count)
                     : load_list(&b, paths, count);
    ossa_path_list_free(&list);
    return finish(&b, st, out);
}

ossa_status ossa_load_file(const char *path, const ossa_load_options *opt, ossa_model **out,
                           ossa_error *err)
{
    if (!path) {
        ossa_error_clear(err);
        if (out)
            *out = NULL;
        return OSSA_ERR_INVALID_ARGUMENT;
    }
    return ossa_load_files(&path, 1, opt, out, err);
}
