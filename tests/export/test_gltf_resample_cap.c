/* The glTF export's resampling is bounded. Where Cal3D extrapolates and glTF would hold (before a
 * track's first key, after its last) the export resamples at --fps; a track gets at most
 * OSSA_EXPORT_MAX_TRACK_SAMPLES such samples and past that its stretch is sampled evenly and
 * more coarsely, with a warning naming the cap. Fixtures written here: keys at t = 1e9 (once an
 * endless loop: a uint32 frame counter wrapped), keys at t = 1e6 (26 s, 2.2 GB and a 960 MB
 * .glb), a 2e6 s clip whose second track ends at 1 s (x += 1/30 stopped moving), and the 1e9 clip
 * over the fuzz seeds' skeleton and mesh with springs (the cloth measure stepped every frame).
 * Each export must finish quickly, stay small, keep its times increasing from 0 to the duration
 * and agree with ossa_sample_clip at its samples. */
#define _DEFAULT_SOURCE
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_seeds.h"
#include "gltf_read.h"
#include "ossa/export.h"
#include "ossa/limits.h"
#include "ossa/load.h"
#include "ossa/reference.h"
#include "test_common.h"

static char dir[4096];

static const char *const xsf_two_bones =
    "<HEADER MAGIC=\"XSF\" VERSION=\"1000\" />\n<SKELETON NUMBONES=\"2\">\n"
    "<BONE NAME=\"root\" NUMCHILDS=\"1\" ID=\"0\"><TRANSLATION>0 0 0</TRANSLATION>"
    "<ROTATION>0 0 0 1</ROTATION><LOCALTRANSLATION>0 0 0</LOCALTRANSLATION>"
    "<LOCALROTATION>0 0 0 1</LOCALROTATION><PARENTID>-1</PARENTID><CHILDID>1</CHILDID></BONE>\n"
    "<BONE NAME=\"arm\" NUMCHILDS=\"0\" ID=\"1\"><TRANSLATION>0 1 0</TRANSLATION>"
    "<ROTATION>0 0 0 1</ROTATION><LOCALTRANSLATION>0 -1 0</LOCALTRANSLATION>"
    "<LOCALROTATION>0 0 0 1</LOCALROTATION><PARENTID>0</PARENTID></BONE>\n</SKELETON>\n";

/* One track of two keys on bone `bone` at t0 and t1, moving +1 in x and turning 60 degrees. */
static void put_track(FILE *f, int bone, const char *t0, const char *t1)
{
    fprintf(f, "<TRACK BONEID=\"%d\" NUMKEYFRAMES=\"2\">\n"
               "<KEYFRAME TIME=\"%s\"><TRANSLATION>0 1 0</TRANSLATION>"
               "<ROTATION>0 0 0 1</ROTATION></KEYFRAME>\n"
               "<KEYFRAME TIME=\"%s\"><TRANSLATION>1 1 0</TRANSLATION>"
               "<ROTATION>0 0 0.5 0.8660254</ROTATION></KEYFRAME>\n</TRACK>\n",
            bone, t0, t1);
}

static void write_text(const char *name, const char *text)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* An XAF of the given duration: one track per (bone, t0, t1), the first decides the loop key. */
static void write_xaf(const char *name, const char *duration, int tracks, const int *bones,
                      const char *const *t0, const char *const *t1)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fprintf(f, "<HEADER MAGIC=\"XAF\" VERSION=\"1000\" />\n"
               "<ANIMATION DURATION=\"%s\" NUMTRACKS=\"%d\">\n", duration, tracks);
    for (int i = 0; i < tracks; i++)
        put_track(f, bones[i], t0[i], t1[i]);
    fputs("</ANIMATION>\n", f);
    CHECK(fclose(f) == 0);
}

static void write_seed(const char *seed, const char *name)
{
    fuzz_seed s;
    CHECK(fuzz_seed_make_one(seed, &s));
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK(fwrite(s.data, 1, s.size, f) == s.size);
        fclose(f);
    }
    free(s.data);
}

typedef struct warnings {
    unsigned count, naming_cap;
} warnings;

static void on_warning(void *user, const char *message)
{
    warnings *w = user;
    w->count++;
    w->naming_cap += strstr(message, "OSSA_EXPORT_MAX_TRACK_SAMPLES") != NULL;
}

/* The input and output accessors of the channel animating node's path in animation 0. */
static int channel(gr_doc *doc, int node, const char *path, int *input, int *output)
{
    json_t *anim = json_array_get(json_object_get(doc->json, "animations"), 0);
    json_t *channels = json_object_get(anim, "channels");
    for (size_t i = 0; i < json_array_size(channels); i++) {
        json_t *ch = json_array_get(channels, i), *target = json_object_get(ch, "target");
        if (json_integer_value(json_object_get(target, "node")) != node ||
            strcmp(json_string_value(json_object_get(target, "path")), path))
            continue;
        json_t *s = json_array_get(json_object_get(anim, "samplers"),
                                   (size_t)json_integer_value(json_object_get(ch, "sampler")));
        *input = (int)json_integer_value(json_object_get(s, "input"));
        *output = (int)json_integer_value(json_object_get(s, "output"));
        return 1;
    }
    return 0;
}

/* Exports files[] (in dir) as one model and checks its clip's second track (on a bone that is
 * not a root, so its values are the source's as they are). */
static void check_export(const char *label, const char *const *files, size_t count)
{
    char paths[4][4200], out[4200];
    const char *list[4];
    for (size_t i = 0; i < count; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/%s", dir, files[i]);
        list[i] = paths[i];
    }
    snprintf(out, sizeof out, "%s/%s.glb", dir, label);
    ossa_model *m = NULL;
    ossa_error err;
    CHECKF(ossa_load_files(list, count, NULL, &m, &err) == OSSA_OK, "%s: %s", label,
           err.message);
    if (!m)
        return;
    CHECK(m->clip_count == 1 && m->clips[0].track_count == 2);
    int bone = (int)m->clips[0].tracks[1].bone;
    CHECK(m->bones[bone].parent >= 0);
    warnings w = {0, 0};
    ossa_export_options opt = {.log = {on_warning, &w}};
    CHECKF(ossa_export_gltf(m, out, &opt, &err) == OSSA_OK, "%s: %s", label, err.message);
    struct stat st;
    CHECK(stat(out, &st) == 0);
    /* Two channels of at most a track's cap of keys, and what the model brings. */
    CHECKF(st.st_size < 512 * 1024, "%s: %lld bytes", label, (long long)st.st_size);
    CHECKF(w.naming_cap >= 1, "%s: no warning names the cap (%u warnings)", label, w.count);

    gr_doc doc;
    CHECKF(gr_open(&doc, out) == 0, "%s: %s", label, doc.error);
    int in = -1, tr = -1;
    CHECKF(channel(&doc, bone, "translation", &in, &tr), "%s: no channel for node %d", label,
           bone);
    size_t n = 0, nv = 0;
    int comps = 0;
    float *times = in >= 0 ? gr_accessor(&doc, in, &n, &comps) : NULL;
    float *values = tr >= 0 ? gr_accessor(&doc, tr, &nv, &comps) : NULL;
    CHECK(times && values && nv == n && comps == 3);
    const ossa_clip *clip = &m->clips[0];
    if (times && values && nv == n && n >= 2) {
        CHECKF(n <= OSSA_EXPORT_MAX_TRACK_SAMPLES + 4, "%s: %zu keys", label, n);
        CHECK(times[0] == 0.0f);
        CHECKF(times[n - 1] == clip->duration, "%s: ends at %g, not %g", label,
               (double)times[n - 1], (double)clip->duration);
        size_t bad = 0;
        for (size_t i = 1; i < n; i++)
            bad += !(times[i] > times[i - 1]);
        CHECKF(bad == 0, "%s: %zu times do not increase", label, bad);
        /* The samples are the source's pose at their times (the keys too). */
        float *lt = calloc(3 * (size_t)m->bone_count, sizeof *lt);
        float *lr = calloc(4 * (size_t)m->bone_count, sizeof *lr);
        float *ls = calloc(3 * (size_t)m->bone_count, sizeof *ls);
        size_t at[3] = {1, n / 2, n - 1};
        for (int k = 0; k < 3 && lt && lr && ls; k++) {
            ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
            ossa_sample_clip(m, clip, times[at[k]], OSSA_WRAP_EXTRAPOLATE, lt, lr, ls,
                             m->bone_count, NULL);
            for (int c = 0; c < 3; c++)
                CHECKF(fabsf(values[3 * at[k] + (size_t)c] - lt[3 * bone + c]) <=
                           1e-5f * (1.0f + fabsf(lt[3 * bone + c])),
                       "%s: key %zu at t=%g: %g, the source %g", label, at[k],
                       (double)times[at[k]], (double)values[3 * at[k] + (size_t)c],
                       (double)lt[3 * bone + c]);
        }
        free(lt);
        free(lr);
        free(ls);
    }
    free(times);
    free(values);
    gr_close(&doc);
    ossa_model_destroy(m);
    remove(out);
}

int main(void)
{
    /* Before the cap an export here never ended: fail instead of hanging. */
    alarm((unsigned)(60.0 * test_time_factor()));
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/ossa-resample-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    write_text("two.xsf", xsf_two_bones);

    /* Keys at 1e9 and 1e6: the stretch before them is the whole visible clip. The first
     * track (on the root) makes no loop key: it ends at the duration. */
    const int bones[2] = {0, 1};
    const char *e9_t0[2] = {"0", "1e9"}, *e9_t1[2] = {"2e9", "1.5e9"};
    write_xaf("e9.xaf", "2e9", 2, bones, e9_t0, e9_t1);
    const char *e6_t0[2] = {"0", "1e6"}, *e6_t1[2] = {"2e6", "1.5e6"};
    write_xaf("e6.xaf", "2e6", 2, bones, e6_t0, e6_t1);
    /* A track ending at 1 s in a clip of 2e6 s: the stretch after its last key. */
    const char *long_t0[2] = {"0", "0"}, *long_t1[2] = {"2e6", "1"};
    write_xaf("long.xaf", "2e6", 2, bones, long_t0, long_t1);

    const char *e9[2] = {"two.xsf", "e9.xaf"}, *e6[2] = {"two.xsf", "e6.xaf"},
               *early[2] = {"two.xsf", "long.xaf"};
    check_export("e9", e9, 2);
    check_export("e6", e6, 2);
    check_export("long", early, 2);

    /* The fuzz seeds' three bones and their mesh with springs: the cloth is measured over the
     * clip as well, stepped at most OSSA_EXPORT_MAX_TRACK_SAMPLES times. */
    write_seed("seed_v1000.csf", "seed.csf");
    write_seed("seed_v919.cmf", "seed.cmf");
    const int seed_bones[2] = {2, 0}; /* hips (the root), spine */
    write_xaf("cloth.xaf", "2e9", 2, seed_bones, e9_t0, e9_t1);
    const char *cloth[3] = {"seed.csf", "seed.cmf", "cloth.xaf"};
    check_export("cloth", cloth, 3);

    const char *names[] = {"two.xsf", "e9.xaf", "e6.xaf", "long.xaf", "seed.csf", "seed.cmf",
                           "cloth.xaf"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        remove(path);
    }
    rmdir(dir);
    return test_finish("gltf-resample-cap");
}
