/* Shared by the libcal3d reference test: its cases, the files of a case, the largest
 * differences found, and the helpers of reference_util.c (differences, file lists, loading
 * both sides) and reference_skin.c (the skinned comparison). */
#ifndef OSSA_TEST_REFERENCE_CAL3D_H
#define OSSA_TEST_REFERENCE_CAL3D_H

#include <stddef.h>

#include "cal3d_oracle.h"
#include "ossa/ossa.h"

enum { MAX_FILES = 64, PATH_MAX_LEN = 4096 };

typedef struct ref_case {
    const char *name;
    const char *dir;            /* under the assets folder */
    const char *skeleton;       /* relative to dir, NULL for loose meshes/animations */
    const char *cfg;            /* relative to dir: its scale= applies; NULL for 1 */
    int enumerate;              /* every mesh and animation of dir and of subdirs */
    const char *const *subdirs; /* NULL-terminated, or NULL */
    const char *const *files;   /* further meshes/animations relative to dir, NULL-terminated */
} ref_case;

typedef struct file_list {
    size_t mesh_count, anim_count;
    char *mesh[MAX_FILES];
    char *anim[MAX_FILES];
} file_list;

/* Largest differences found for one model. */
typedef struct errs {
    double rest_t, rest_r, bind_t, bind_r;
    double key_time, key_t, key_r;
    double vert_p, vert_n, weight;
    double skin_p, skin_n, cli_p, cli_n; /* skin_p, cli_p relative to the model size */
    double loop_p, loop_n; /* Ossa's own sampler past the last key vs 0.11's looped cycle */
    long excluded, skinned, poses, keys, vertices, faces, bones, springs, loop_keys;
} errs;

/* reference_util.c: differences (quat_diff up to sign, Cal3D conjugated), the files of a case,
 * each side loaded (load_ossa through a written .cfg), bone maps and the model's size. */
double maxd(double a, double b);
int near_rel(double a, double b);
double vec_diff(const float *a, const float *b, int n);
double quat_diff(const float *ossa, const float *cal);
double rel_scale(const float *v, int n);
void list_free(file_list *l);
int list_add(file_list *l, const char *path);
void list_dir(file_list *l, const char *dir);
float cfg_scale(const char *path);
int load_reference(cal3d_ref *ref, const char *skeleton, file_list *l, int xml);
int write_cfg(const char *cfg_path, const char *skeleton, const file_list *l, float scale);
ossa_model *load_ossa(const char *cfg_path, const file_list *l);
int cal_bone(const ossa_model *m, uint32_t bone);
double model_size(const cal3d_ref *ref);
/* reference_skin.c: the skinned mesh of every clip at several times, both ways, into e. */
void compare_skinning(const ossa_model *m, cal3d_ref *ref, const char *cfg_path, double size,
                      errs *e);

#endif
