/* The reference test's differences, file lists and loading of both sides (reference_cal3d.h). */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "reference_cal3d.h"
#include "test_common.h"

double maxd(double a, double b)
{
    return a > b ? a : b;
}

/* Equal to 1e-6 relative (absolute below 1). */
int near_rel(double a, double b)
{
    return fabs(a - b) <= 1e-6 * maxd(1.0, fabs(b));
}

double vec_diff(const float *a, const float *b, int n)
{
    double d = 0.0;
    for (int i = 0; i < n; i++)
        d = maxd(d, fabs((double)a[i] - (double)b[i]));
    if (d != d)
        return INFINITY;
    return d;
}

/* Ossa's Hamilton quaternion against Cal3D's conjugated one, up to the sign of the whole. */
double quat_diff(const float *ossa, const float *cal)
{
    float c[4] = {-cal[0], -cal[1], -cal[2], cal[3]};
    float n[4] = {cal[0], cal[1], cal[2], -cal[3]};
    double a = vec_diff(ossa, c, 4), b = vec_diff(ossa, n, 4);
    return a < b ? a : b;
}

double rel_scale(const float *v, int n)
{
    double m = 1.0;
    for (int i = 0; i < n; i++)
        m = maxd(m, fabs((double)v[i]));
    return m;
}

static int has_ext(const char *name, const char *const *exts)
{
    const char *dot = strrchr(name, '.');
    if (!dot)
        return 0;
    for (; *exts; exts++)
        if (strcasecmp(dot + 1, *exts) == 0)
            return 1;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void list_free(file_list *l)
{
    for (size_t i = 0; i < l->mesh_count; i++)
        free(l->mesh[i]);
    for (size_t i = 0; i < l->anim_count; i++)
        free(l->anim[i]);
    l->mesh_count = l->anim_count = 0;
}

int list_add(file_list *l, const char *path)
{
    static const char *const mesh_ext[] = {"cmf", "xmf", NULL};
    static const char *const anim_ext[] = {"caf", "xaf", NULL};
    char **slot = NULL;
    if (has_ext(path, mesh_ext) && l->mesh_count < MAX_FILES)
        slot = &l->mesh[l->mesh_count++];
    else if (has_ext(path, anim_ext) && l->anim_count < MAX_FILES)
        slot = &l->anim[l->anim_count++];
    if (!slot)
        return 0;
    *slot = strdup(path);
    return *slot != NULL;
}

/* Meshes and animations of one folder, sorted by name (the sort order is the load order on
 * both sides). */
void list_dir(file_list *l, const char *dir)
{
    DIR *d = opendir(dir);
    CHECKF(d != NULL, "cannot open %s: %s", dir, strerror(errno));
    if (!d)
        return;
    size_t first_mesh = l->mesh_count, first_anim = l->anim_count;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char path[PATH_MAX_LEN];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        list_add(l, path);
    }
    closedir(d);
    qsort(l->mesh + first_mesh, l->mesh_count - first_mesh, sizeof(char *), cmp_str);
    qsort(l->anim + first_anim, l->anim_count - first_anim, sizeof(char *), cmp_str);
}

float cfg_scale(const char *path)
{
    FILE *f = fopen(path, "r");
    float scale = 1.0f;
    char line[512];
    if (!f)
        return scale;
    while (fgets(line, sizeof line, f))
        if (strncasecmp(line, "scale=", 6) == 0)
            scale = strtof(line + 6, NULL);
    fclose(f);
    return scale;
}

static void remove_at(char **arr, size_t *count, size_t i)
{
    free(arr[i]);
    memmove(arr + i, arr + i + 1, (*count - i - 1) * sizeof *arr);
    (*count)--;
}

/* Loads the files into libcal3d. A file 0.11 rejects is dropped from the list (so Ossa does not
 * get it either) with a note: expected for some XML documents, a failure for binary assets. */
int load_reference(cal3d_ref *ref, const char *skeleton, file_list *l, int xml)
{
    char msg[512];
    if (skeleton && cal3d_ref_load_skeleton(ref, skeleton, msg, sizeof msg) < 0) {
        printf("  note: libcal3d 0.11 rejects %s: %s\n", skeleton, msg);
        CHECKF(xml, "libcal3d 0.11 rejects a binary skeleton: %s", skeleton);
        return -1;
    }
    for (size_t i = 0; i < l->mesh_count;) {
        if (cal3d_ref_load_mesh(ref, l->mesh[i], msg, sizeof msg) < 0) {
            printf("  note: libcal3d 0.11 rejects %s: %s; skipped on both sides\n", l->mesh[i], msg);
            CHECKF(xml, "libcal3d 0.11 rejects a binary mesh: %s", l->mesh[i]);
            remove_at(l->mesh, &l->mesh_count, i);
        } else {
            i++;
        }
    }
    for (size_t i = 0; i < l->anim_count;) {
        if (cal3d_ref_load_anim(ref, l->anim[i], msg, sizeof msg) < 0) {
            printf("  note: libcal3d 0.11 rejects %s: %s; skipped on both sides\n", l->anim[i], msg);
            CHECKF(xml, "libcal3d 0.11 rejects a binary animation: %s", l->anim[i]);
            remove_at(l->anim, &l->anim_count, i);
        } else {
            i++;
        }
    }
    return 0;
}

/* A .cfg naming exactly the files compared, so that Ossa's own .cfg path (scale included) is
 * what gets tested, by the engine API and by the CLI alike. */
int write_cfg(const char *cfg_path, const char *skeleton, const file_list *l, float scale)
{
    FILE *f = fopen(cfg_path, "w");
    if (!f)
        return 0;
    fprintf(f, "# written by test-reference-cal3d\nscale=%.9g\nskeleton=%s\n", (double)scale,
            skeleton);
    for (size_t i = 0; i < l->mesh_count; i++)
        fprintf(f, "mesh=%s\n", l->mesh[i]);
    for (size_t i = 0; i < l->anim_count; i++)
        fprintf(f, "animation=%s\n", l->anim[i]);
    return fclose(f) == 0;
}

ossa_model *load_ossa(const char *cfg_path, const file_list *l)
{
    ossa_error err;
    ossa_model *m = NULL;
    ossa_status st;
    if (cfg_path) {
        st = ossa_load_file(cfg_path, NULL, &m, &err);
    } else {
        const char *paths[2 * MAX_FILES];
        size_t n = 0;
        for (size_t i = 0; i < l->mesh_count; i++)
            paths[n++] = l->mesh[i];
        for (size_t i = 0; i < l->anim_count; i++)
            paths[n++] = l->anim[i];
        st = ossa_load_files(paths, n, NULL, &m, &err);
    }
    if (st != OSSA_OK) {
        char buf[1024];
        CHECKF(st == OSSA_OK, "Ossa cannot load what libcal3d 0.11 loads: %s",
               ossa_error_format(&err, buf, sizeof buf));
        return NULL;
    }
    return m;
}

/* The Cal3D bone id behind an Ossa bone index (loose files: the id itself). */
int cal_bone(const ossa_model *m, uint32_t bone)
{
    return m->bone_count ? (int)m->bones[bone].source_index : (int)bone;
}

/* Bounding-box diagonal of the bind pose (the scale of the skinned tolerance). */
double model_size(const cal3d_ref *ref)
{
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    int any = 0;
    for (int mi = 0; mi < cal3d_ref_mesh_count(ref); mi++)
        for (int si = 0; si < cal3d_ref_submesh_count(ref, mi); si++) {
            int nv, nf, ns;
            cal3d_ref_submesh_info(ref, mi, si, &nv, &nf, &ns);
            for (int v = 0; v < nv; v++) {
                float p[3], n[3];
                cal3d_ref_vertex(ref, mi, si, v, p, n);
                for (int k = 0; k < 3; k++) {
                    lo[k] = p[k] < lo[k] ? p[k] : lo[k];
                    hi[k] = p[k] > hi[k] ? p[k] : hi[k];
                }
                any = 1;
            }
        }
    for (int b = 0; b < cal3d_ref_bone_count(ref); b++) {
        float at[3], ar[4], st[3], sr[4];
        cal3d_ref_bone_rest(ref, b, at, ar, st, sr);
        for (int k = 0; k < 3 && !any; k++) { /* skeleton only: its extent */
            lo[k] = at[k] < lo[k] ? at[k] : lo[k];
            hi[k] = at[k] > hi[k] ? at[k] : hi[k];
        }
    }
    double d = 0.0;
    for (int k = 0; k < 3; k++)
        if (hi[k] >= lo[k])
            d += ((double)hi[k] - lo[k]) * ((double)hi[k] - lo[k]);
    d = sqrt(d);
    return d > 0.0 ? d : 1.0;
}
