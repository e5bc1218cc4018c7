/* ossa convert: a model (or a batch) written in the format of the output's extension, through
 * the engine's writers (write.h) and the glTF exporter (export.h). What the target cannot hold
 * is refused by the writer (an error) or named in a warning here before it is dropped. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "batch.h"
#include "cli.h"
#include "out_guard.h"

#define CONVERT_USAGE                                                                          \
    "ossa convert MODEL... -o OUT.{cfg|csf|cmf|caf|crf|cpf|xsf|xmf|xaf|xrf|xpf|skm|c3s|cff|glb|" \
    "gltf} [options]\n       ossa convert (MODEL|FOLDER)... -o OUTDIR --to "                    \
    "cfg|xml|skm|c3s|cff|glb|gltf [options]"

typedef enum target {
    T_NONE, T_CAL3D_SET, T_CAL3D_FILE, T_SKM, T_C3S, T_CFF, T_GLTF
} target;

typedef struct convert_opts {
    ossa_load_options load;
    ossa_export_options gltf;
    uint32_t version;        /* Cal3D, 0: 1100 binary / 1000 XML (1301 mp3butcher) */
    bool xml;                /* a Cal3D set as XML */
    bool mp3butcher;         /* binary 1300/1301 in the mp3butcher lineage's layout */
    float fps;               /* frame rate written (SKM, C3S, CFF) and glTF resampling */
    bool vertex_frames;      /* C3S */
    ossa_cli_guard guard;    /* the run's inputs and outputs: what may not be written over */
} convert_opts;

static const char *ext_of(const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot && dot != base ? dot + 1 : "";
}

static target target_of(const char *path, bool *xml)
{
    const char *e = ext_of(path);
    static const char *const single[] = {"csf", "cmf", "caf", "crf", "cpf",
                                         "xsf", "xmf", "xaf", "xrf", "xpf"};
    if (!strcasecmp(e, "cfg"))
        return T_CAL3D_SET;
    for (size_t i = 0; i < 10; i++)
        if (!strcasecmp(e, single[i])) {
            *xml = i >= 5;
            return T_CAL3D_FILE;
        }
    if (!strcasecmp(e, "skm"))
        return T_SKM;
    if (!strcasecmp(e, "c3s"))
        return T_C3S;
    if (!strcasecmp(e, "cff"))
        return T_CFF;
    if (!strcasecmp(e, "glb") || !strcasecmp(e, "gltf"))
        return T_GLTF;
    return T_NONE;
}

/* ---- what a target drops, named before it is dropped ---- */

static void warnf(ossa_cli_warnings *w, const char *fmt, const char *what, const char *fmt_name)
{
    char line[512];
    snprintf(line, sizeof line, fmt, what, fmt_name);
    ossa_cli_warning_add(w, line);
}

/* Frame lists (SKP, CFF) have no times: a clip lasts round(duration x rate) frames at the
 * reader's rate, so a duration that is no whole number of frames changes. Says by how much,
 * and which common rate would keep it. */
static void frame_lengths(const ossa_model *m, target t, float fps, ossa_cli_warnings *w)
{
    if (t != T_SKM && t != T_CFF)
        return;
    double rate = fps > 0.0f ? fps : t == T_SKM ? 10.0 : 25.0;
    uint32_t last = t == T_CFF && m->clip_count ? 1 : m->clip_count; /* CFF keeps the first */
    for (uint32_t i = 0; i < last; i++) {
        double d = m->clips[i].duration, n = floor(d * rate + 0.5);
        if (fabs(n / rate - d) <= 5e-4)
            continue;
        static const int rates[] = {10, 12, 15, 20, 24, 25, 30, 48, 50, 60, 120};
        int fits = 0;
        for (size_t k = 0; k < sizeof rates / sizeof rates[0] && !fits; k++)
            if (fabs(floor(d * rates[k] + 0.5) / rates[k] - d) <= 5e-4)
                fits = rates[k];
        char line[400], hint[64] = "";
        if (fits)
            snprintf(hint, sizeof hint, "; --fps %d keeps it", fits);
        snprintf(line, sizeof line, "clip '%.100s': %.4g s becomes %.4g s (%s frames have no "
                 "times: %g whole frames at %g per second%s)", m->clips[i].name, d, n / rate,
                 t == T_SKM ? "SKP" : "CFF", n, rate, hint);
        ossa_cli_warning_add(w, line);
    }
}

static void dropped(const ossa_model *m, target t, bool xml, ossa_cli_warnings *w)
{
    bool uv2 = false, colors = false, morphs = false, springs = false, blended = false;
    bool vframes = false, uvframes = false, triggers = false, extra = false, lods = false;
    bool mat_colors = false, bone_scale = false;
    for (uint32_t i = 0; i < m->bone_count; i++)
        bone_scale |= m->bones[i].rest_s[0] != 1.0f || m->bones[i].rest_s[1] != 1.0f ||
                      m->bones[i].rest_s[2] != 1.0f;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        lods |= m->meshes[i].lod != 0;
        for (uint32_t s = 0; s < m->meshes[i].submesh_count; s++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[s];
            uv2 |= sm->uv_set_count > 1;
            colors |= sm->colors != NULL;
            morphs |= sm->morph_count > 0;
            springs |= sm->spring_count > 0;
            blended |= sm->max_influences > 1;
            vframes |= sm->frame_count > 0;
            uvframes |= sm->uv_frame_count > 0;
        }
    }
    for (uint32_t i = 0; i < m->clip_count; i++) {
        triggers |= m->clips[i].trigger_count > 0 || m->clips[i].link_count > 0;
        for (uint32_t k = 0; k < m->clips[i].track_count; k++)
            extra |= m->clips[i].tracks[k].extra != NULL;
    }
    mat_colors = m->material_count > 0;
    const char *name = t == T_SKM ? "SKM" : t == T_C3S ? "C3S" : t == T_CFF ? "CFF"
                       : xml ? "Cal3D XML" : "Cal3D";
    const char *f = "not written: %s (%s has no place for it)";
    if (t == T_CAL3D_SET || t == T_CAL3D_FILE) {
        if (vframes)
            warnf(w, f, "vertex-frame shapes and their tracks (a clip of them alone is "
                  "left out)", name);
        if (uvframes)
            warnf(w, f, "texture-coordinate frames", name);
        if (triggers)
            warnf(w, f, "clip triggers and linked clips", name);
        if (m->mount_count)
            warnf(w, f, "surface mounts", name);
        if (lods)
            warnf(w, "%s become ordinary meshes (%s has no level of detail)",
                  "coarser level-of-detail meshes", name);
        uint32_t empty = 0;
        for (uint32_t i = 0; i < m->morph_clip_count && !xml; i++)
            for (uint32_t k = 0; k < m->morph_clips[i].track_count; k++)
                empty += m->morph_clips[i].tracks[k].key_count == 0;
        if (empty)
            warnf(w, f, "morph tracks without keys (each holds the weight at 0)", name);
    }
    if (t == T_SKM || t == T_C3S || t == T_CFF) {
        if (uv2)
            warnf(w, f, "texture-coordinate sets after the first", name);
        if (morphs)
            warnf(w, f, "morph targets", name);
        if (m->morph_clip_count)
            warnf(w, f, "morph clips", name);
        if (springs)
            warnf(w, f, "springs", name);
        if (mat_colors)
            warnf(w, f, t == T_C3S ? "material colours and shininess (only transparency is kept)"
                                   : "material colours and shininess", name);
    }
    if ((t == T_SKM || t == T_C3S) && colors)
        warnf(w, f, "vertex colours", name);
    if (t == T_SKM) {
        if (bone_scale)
            warnf(w, f, "bone scale", name);
        if (vframes || uvframes)
            warnf(w, f, "vertex and texture-coordinate frames", name);
        if (triggers || m->mount_count)
            warnf(w, f, "clip triggers, linked clips and mounts", name);
    }
    if (t == T_CFF) {
        if (m->clip_count > 1)
            warnf(w, f, "every clip after the first", name);
        if (blended)
            warnf(w, "%s: %s parts are rigid, each triangle follows its dominant bone",
                  "blended skinning weights", name);
        if (vframes || uvframes)
            warnf(w, f, "vertex and texture-coordinate frames", name);
        if (triggers || m->mount_count)
            warnf(w, f, "clip triggers, linked clips and mounts", name);
    }
    uint32_t exact = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t k = 0; k < m->meshes[i].submesh_count; k++)
            exact += (uint32_t)ossa_skin_submesh_exact(&m->meshes[i].submeshes[k]);
    if (exact && (t == T_CAL3D_SET || t == T_CAL3D_FILE || t == T_CFF))
        warnf(w, "%s: %s skins one bind point per vertex (their sum is written)",
              "per-influence points that disagree (exact weighted-offset skinning)", name);
    if ((t == T_CAL3D_SET || t == T_CAL3D_FILE || t == T_SKM || t == T_C3S) && extra)
        warnf(w, f, "the CFF frames' seventh values", name);
}

/* ---- writing ---- */

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    return strndup(path, (size_t)(slash - path) ? (size_t)(slash - path) : 1);
}

static char *stem_of(const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *dot = strrchr(base, '.');
    return strndup(base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
}

/* Removes a folder holding files only (the scratch set). */
static void remove_flat_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[8400];
    while (d && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    if (rmdir(dir) != 0)
        fprintf(stderr, "ossa convert: could not remove %s\n", dir);
}

/* A single Cal3D file: the set is written into a scratch folder beside OUT, and its one file of
 * OUT's kind is renamed over OUT, when the guard allows it (a model with several files of that
 * kind is refused). The scratch set is written whole and synced, so the rename is the same
 * atomic step the writers take. */
static ossa_status write_cal3d_file(const ossa_model *m, const char *out,
                                    const ossa_cal3d_write_options *cw, ossa_cli_guard *guard,
                                    char *why, size_t why_size)
{
    char *dir = dir_of(out);
    char scratch[4096];
    snprintf(scratch, sizeof scratch, "%s/.ossa-convert-XXXXXX", dir ? dir : ".");
    free(dir);
    if (!mkdtemp(scratch)) {
        snprintf(why, why_size, "%s: cannot make a scratch folder: %s", out, strerror(errno));
        return OSSA_ERR_IO;
    }
    ossa_error err;
    ossa_status st = ossa_write_cal3d(m, scratch, "model", cw, &err);
    if (st != OSSA_OK)
        ossa_error_format(&err, why, (unsigned)why_size);
    char found[8400] = "";
    int matches = 0;
    char cfg_path[4200];
    if (st == OSSA_OK) {
        /* the set's files of the wanted kind */
        snprintf(cfg_path, sizeof cfg_path, "%s/model.cfg", scratch);
        FILE *cfg = fopen(cfg_path, "r");
        char line[4096];
        while (cfg && fgets(line, sizeof line, cfg)) {
            char *eq = strchr(line, '=');
            if (!eq)
                continue;
            eq[strcspn(eq, "\r\n")] = '\0';
            if (!strcasecmp(ext_of(eq + 1), ext_of(out))) {
                snprintf(found, sizeof found, "%s/%s", scratch, eq + 1);
                matches++;
            }
        }
        if (cfg)
            fclose(cfg);
        char refusal[400] = "";
        if (matches != 1) {
            snprintf(why, why_size, "%s: the model makes %d .%s files; write a .cfg set instead",
                     out, matches, ext_of(out));
            st = OSSA_ERR_UNSUPPORTED;
        } else if (!ossa_cli_guard_check(guard, out, refusal, sizeof refusal)) {
            snprintf(why, why_size, "%s: refused: %s", out, refusal);
            st = OSSA_ERR_REFUSED;
        } else if (rename(found, out) != 0) {
            snprintf(why, why_size, "%s: %s", out, strerror(errno));
            st = OSSA_ERR_IO;
        }
    }
    remove_flat_dir(scratch);
    return st;
}

static int convert_one(const char *const *files, size_t count, const char *out,
                       convert_opts *o, bool batch_set, ossa_cli_warnings *w, char *why,
                       size_t why_size)
{
    bool file_xml = false;
    target t = target_of(out, &file_xml);
    if (t == T_NONE) {
        snprintf(why, why_size, "%s: no format Ossa writes has the extension '.%s'", out,
                 ext_of(out));
        return 1;
    }
    ossa_model *m = NULL;
    ossa_error err;
    ossa_load_options load = o->load;
    load.log = (ossa_log_options){ossa_cli_warning_add, w}; /* a texture left out, keys sorted */
    if (ossa_load_files(files, count, &load, &m, &err) != OSSA_OK) {
        ossa_error_format(&err, why, (unsigned)why_size);
        return 1;
    }
    /* Cal3D files hold a lone animation; the scene formats have nothing to hold it in. */
    if (t != T_CAL3D_SET && t != T_CAL3D_FILE && ossa_cli_nothing_to_export(m, why, why_size)) {
        ossa_model_destroy(m);
        return OSSA_CLI_SKIPPED;
    }
    if (ossa_cli_guard_add_model(&o->guard, m) != 0) {
        ossa_model_destroy(m);
        snprintf(why, why_size, "out of memory");
        return 1;
    }
    const ossa_write_guard guard = ossa_cli_write_guard(&o->guard);
    if (ossa_batch_mkdirs(out) != 0) { /* the folders -o names, once there is something to write */
        ossa_model_destroy(m);
        snprintf(why, why_size, "cannot create the folders of %s", out);
        return 1;
    }
    dropped(m, t, t == T_CAL3D_FILE ? file_xml : o->xml, w);
    frame_lengths(m, t, o->fps, w);
    ossa_status st = OSSA_OK;
    why[0] = '\0';
    ossa_cal3d_write_options cw = {.xml = t == T_CAL3D_FILE ? file_xml : o->xml,
                                   .version = o->version, .mp3butcher = o->mp3butcher,
                                   .guard = guard};
    if ((t == T_CAL3D_SET || t == T_CAL3D_FILE) && !cw.version && !cw.xml && !cw.mp3butcher &&
        ossa_cal3d_default_version(m, &cw) != 1100) {
        char note[200];
        snprintf(note, sizeof note, "written as Cal3D %u, the lowest version that holds the "
                 "model (node lights, vertex colours, morph targets or map types, which 1100 "
                 "cannot); --version N chooses", ossa_cal3d_default_version(m, &cw));
        ossa_cli_warning_add(w, note);
    }
    char *dir = dir_of(out), *stem = stem_of(out);
    if (!dir || !stem) {
        st = OSSA_ERR_NOMEM;
    } else if (t == T_CAL3D_SET) {
        /* in a batch each set gets a folder of its own: OUTDIR/.../name/name.cfg */
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s/", dir, stem);
        if (batch_set && ossa_batch_mkdirs(sub) != 0) {
            snprintf(why, why_size, "%s: cannot create the folder", sub);
            st = OSSA_ERR_IO;
        }
        sub[strlen(sub) - 1] = '\0';
        char own_cfg[1024];
        snprintf(own_cfg, sizeof own_cfg, "%s.cfg", stem);
        o->guard.own_cfg = own_cfg; /* this set may replace what its own earlier .cfg lists */
        if (st == OSSA_OK)
            st = ossa_write_cal3d(m, batch_set ? sub : dir, stem, &cw, &err);
        o->guard.own_cfg = NULL;
    } else if (t == T_CAL3D_FILE) {
        cw.guard = (ossa_write_guard){0}; /* a fresh scratch folder; the rename is guarded */
        st = write_cal3d_file(m, out, &cw, &o->guard, why, why_size);
    } else if (t == T_SKM) {
        ossa_skm_write_options so = {.frame_rate = o->fps, .guard = guard};
        st = ossa_write_skm(m, dir, stem, &so, &err);
    } else if (t == T_C3S) {
        ossa_c3s_write_options c3 = {.vertex_frames = o->vertex_frames, .frame_rate = o->fps,
                                     .guard = guard};
        st = ossa_write_c3s(m, out, &c3, &err);
    } else if (t == T_CFF) {
        ossa_cff_write_options co = {.frame_rate = o->fps, .up = o->gltf.up, .guard = guard,
                                     .log = {ossa_cli_warning_add, w}};
        st = ossa_write_cff(m, out, &co, &err);
    } else {
        o->gltf.fps = o->fps;
        o->gltf.log = (ossa_log_options){ossa_cli_warning_add, w};
        o->gltf.guard = guard;
        st = ossa_export_gltf(m, out, &o->gltf, &err);
    }
    if (st != OSSA_OK && !why[0])
        ossa_error_format(&err, why, (unsigned)why_size);
    free(dir);
    free(stem);
    ossa_model_destroy(m);
    return st != OSSA_OK;
}

typedef struct convert_batch_ctx {
    convert_opts *o;
} convert_batch_ctx;

static int convert_batch_one(const ossa_batch_model *bm, void *user, ossa_cli_warnings *w,
                             char *why, size_t why_size)
{
    convert_batch_ctx *x = user;
    return convert_one((const char *const *)bm->files, bm->file_count, bm->out, x->o, true, w,
                       why, why_size);
}

static int number(const char *arg, double lo, double hi, double *out)
{
    char *end;
    *out = strtod(arg, &end);
    return *arg && !*end && *out >= lo && *out <= hi;
}

int ossa_cmd_convert(int argc, char **argv)
{
    convert_opts o = {0};
    const char *out = NULL, *to = NULL;
    bool verbose = false;
    int taken;
    double v;
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t count = 0;
    if (!files)
        return 1;
    for (int i = 0; i < argc; i++) {
        if ((taken = ossa_cli_load_option("convert", argc, argv, &i, &o.load)) != 0) {
            if (taken == 2)
                goto usage;
        } else if ((taken = ossa_cli_scale_option("convert", argc, argv, &i, &o.load)) != 0) {
            if (taken == 2)
                goto usage;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--to") && i + 1 < argc) {
            to = argv[++i];
        } else if (!strcmp(argv[i], "--version") && i + 1 < argc) {
            if (!number(argv[++i], 699, 1301, &v) || v != floor(v)) {
                fprintf(stderr, "ossa convert: --version takes a Cal3D version, 699..1301\n");
                goto usage;
            }
            o.version = (uint32_t)v;
        } else if (!strcmp(argv[i], "--lineage") && i + 1 < argc) {
            i++;
            if (!strcmp(argv[i], "upstream") || !strcmp(argv[i], "mp3butcher")) {
                o.mp3butcher = argv[i][0] == 'm';
            } else {
                fprintf(stderr, "ossa convert: --lineage takes upstream or mp3butcher\n");
                goto usage;
            }
        } else if (!strcmp(argv[i], "--xml")) {
            o.xml = true;
        } else if (!strcmp(argv[i], "--fps") && i + 1 < argc) {
            if (!number(argv[++i], 1, 10000, &v)) {
                fprintf(stderr, "ossa convert: --fps needs frames per second in 1..10000\n");
                goto usage;
            }
            o.fps = (float)v;
        } else if (!strcmp(argv[i], "--vertex-frames")) {
            o.vertex_frames = true;
        } else if (!strcmp(argv[i], "--overwrite")) {
            o.guard.overwrite = true;
        } else if (!strcmp(argv[i], "--up") && i + 1 < argc) {
            i++;
            if (!strcasecmp(argv[i], "y") || !strcasecmp(argv[i], "z"))
                o.gltf.up = tolower((unsigned char)argv[i][0]) == 'y' ? OSSA_EXPORT_UP_Y
                                                                     : OSSA_EXPORT_UP_Z;
            else {
                fprintf(stderr, "ossa convert: --up takes y or z\n");
                goto usage;
            }
        } else if (!strcmp(argv[i], "--max-influences") && i + 1 < argc) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || n < 1 || n > 64) {
                fprintf(stderr, "ossa convert: --max-influences needs 1..64\n");
                goto usage;
            }
            o.gltf.max_influences = (uint32_t)n;
        } else if (!strcmp(argv[i], "--skip-bad")) {
            o.load.skip_bad_files = true;
        } else if (!strcmp(argv[i], "--embed")) {
            o.gltf.embed = true;
        } else if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-v")) {
            verbose = true;
        } else if (ossa_cli_take_file("convert", argv[i], files, &count)) {
            goto usage;
        }
    }
    if (!count || !out) {
        fprintf(stderr, "usage: %s\n", CONVERT_USAGE);
        goto usage;
    }
    if (o.mp3butcher && (o.xml || (o.version && o.version < 1300))) {
        fprintf(stderr, "ossa convert: --lineage mp3butcher is a binary layout of versions 1300 "
                        "and 1301\n");
        goto usage;
    }
    bool xml_file;
    /* -o a file: the inputs are one model (a folder: the model ossa_load_files finds in it) */
    bool single = !to && target_of(out, &xml_file) != T_NONE;
    const char *ext = ossa_batch_file_ext(out);
    if (!single && ext) {
        fprintf(stderr, "ossa convert: no format Ossa writes has the extension '.%s' (-o %s); a "
                        "folder of outputs is given without an extension or with a trailing '/'\n",
                ext, out);
        goto usage;
    }
    int rc;
    if (ossa_cli_guard_add_args(&o.guard, files, count) != 0) {
        fprintf(stderr, "ossa convert: out of memory\n");
        rc = 1;
    } else if (single) {
        ossa_cli_warnings w = {0};
        char why[1024];
        rc = convert_one(files, count, out, &o, false, &w, why, sizeof why);
        for (size_t k = 0; k < w.count; k++)
            fprintf(stderr, "ossa convert: warning: %s\n", w.lines[k]);
        if (rc)
            fprintf(stderr, "ossa convert: %s\n", why);
        rc = rc ? 1 : 0;
        ossa_cli_warnings_clear(&w);
    } else {
        static const char *const kinds[] = {"cfg", "xml", "skm", "c3s", "cff", "glb", "gltf"};
        size_t k = 0;
        while (to && k < 7 && strcasecmp(to, kinds[k]))
            k++;
        if (!to || k == 7) {
            fprintf(stderr, "ossa convert: a batch (-o OUTDIR) needs --to %s\n",
                    "cfg|xml|skm|c3s|cff|glb|gltf");
            goto usage;
        }
        if (k == 1)
            o.xml = true;
        ossa_batch b = {0};
        rc = ossa_batch_collect(&b, files, count, out, k == 1 ? "cfg" : kinds[k]);
        if (!rc) {
            convert_batch_ctx x = {&o};
            rc = ossa_cli_run_batch("convert", &b, convert_batch_one, &x, verbose, &o.guard);
        }
        ossa_batch_free(&b);
    }
    ossa_cli_guard_free(&o.guard);
    free(files);
    return rc;
usage:
    free(files);
    return 2;
}
