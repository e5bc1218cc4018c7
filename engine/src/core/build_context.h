/* The loaders' side of the model: a build context that allocates into the model's arena,
 * records warnings and formats errors with the current file name and position. */
#ifndef OSSA_CORE_BUILD_CONTEXT_H
#define OSSA_CORE_BUILD_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ossa/model.h"
#include "core/arena.h"
#include "core/validate.h"

#if defined(__GNUC__)
#define OSSA_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define OSSA_PRINTF(a, b)
#endif

/* Evaluate a status expression and return it from the enclosing function when it fails. */
#define OSSA_TRY(expr)                        \
    do {                                      \
        ossa_status try_status_ = (expr);     \
        if (try_status_ != OSSA_OK)           \
            return try_status_;               \
    } while (0)

/* Where one file's parts begin: the model's counts when the build turned to that file. */
typedef struct ossa_build_mark {
    const char *file;
    uint32_t start[OSSA_PART_KIND_COUNT]; /* indexed by ossa_model_part_kind */
} ossa_build_mark;

/* The caller's ossa_load_options as the loaders read them (load.c copies them in; core does
 * not depend on the loading API): see load.h for each field. */
typedef struct ossa_read_options {
    ossa_format format;
    float scale;
    bool flip_winding;
    bool invert_v;
    bool skip_missing_files;
    float frame_rate;
    bool allow_outside;
    bool skip_bad_files;
    ossa_log_options log; /* the kept warnings, reported when the load ends */
} ossa_read_options;

typedef struct ossa_build {
    ossa_model *model;             /* under construction; model->arena owns all allocations */
    ossa_error *err;
    ossa_read_options opt;
    const char *file;              /* file being read, for messages */
    const char *dir;               /* its directory ("" for the current one), for texture paths */
    const char *stem;              /* its base name without extension: clip/mesh/material name */
    /* Folders a texture may resolve into besides dir (a .cfg's folder and its path= folders,
     * while its files are read; io/texture_path.c). */
    const char *const *roots;
    uint32_t root_count;
    /* Cal3D: a skeleton maps its file bone ids onto model indices (parents-first order). */
    const uint32_t *bone_from_file;
    uint32_t bone_from_file_count;
    uint32_t last_version;         /* every reader stores the version it read here */
    uint32_t mesh_cap, clip_cap, morph_clip_cap, material_cap, warning_cap;
    /* One mark per ossa_build_set_file, so that a failure of the whole-model validation names
     * the file that brought the failing part in (malloc'ed; freed by ossa_build_finish). */
    ossa_build_mark *marks;
    uint32_t mark_count, mark_cap;
    /* Every file read whole so far (strings in the arena; the list malloc'ed, handed to the
     * model as model->files by ossa_build_finish). */
    const char **reads;
    uint32_t read_count, read_cap;
    /* skip_bad_files: how many files were left out, and the first one's error. */
    uint32_t skipped;
    ossa_error first_skipped;
    ossa_error scratch_err;        /* err when the caller passed none: errors are always kept */
} ossa_build;

/* Starts a build with a fresh model; false when out of memory. */
bool ossa_build_init(ossa_build *b, ossa_error *err, const ossa_read_options *opt);
/* Validates and hands the model over (*out), or frees it on any earlier failure. */
ossa_status ossa_build_finish(ossa_build *b, ossa_status status, ossa_model **out);
/* Records a file the model was read from (model->files); a path already listed is not added
 * again. */
ossa_status ossa_build_note_read(ossa_build *b, const char *path);
/* Sets file, dir and stem from a path (copied into the arena). */
ossa_status ossa_build_set_file(ossa_build *b, const char *path);

/* What one reading attempt of a file may change in the build (arena memory, warnings), so that
 * a failed attempt can be undone: the Cal3D readers try each >= 1300 layout in turn
 * (docs/FORMATS.md, D1). The attempt must not have added parts to the model. */
typedef struct ossa_build_savepoint {
    ossa_arena_mark arena;
    const char *const *warnings;
    uint32_t warning_count, warning_cap;
} ossa_build_savepoint;

void ossa_build_save(const ossa_build *b, ossa_build_savepoint *sp);
/* Frees everything allocated since the save and drops the warnings added since. */
void ossa_build_rollback(ossa_build *b, const ossa_build_savepoint *sp);

/* Fill *err and return s. The offset form is for binary data (-1 when none), the line form for
 * XML. Later failures never overwrite the first message. */
ossa_status ossa_fail(ossa_build *b, ossa_status s, int64_t offset, const char *fmt, ...)
    OSSA_PRINTF(4, 5);
ossa_status ossa_fail_line(ossa_build *b, ossa_status s, int line, const char *fmt, ...)
    OSSA_PRINTF(4, 5);
/* Prefixes the message of the error just raised (when st is that error) with where it happened,
 * "where: message", so nested readers build "mesh 2: vertex 17: ..." from the outside in. The
 * prefix is cut at 95 characters and the message at the buffer's end. Returns st. */
ossa_status ossa_fail_context(ossa_build *b, ossa_status st, const char *fmt, ...)
    OSSA_PRINTF(3, 4);
/* Adds a warning ("file: text") to the model. */
void ossa_warn(ossa_build *b, const char *fmt, ...) OSSA_PRINTF(2, 3);

/* Zeroed arena array of count * elem bytes, overflow-checked; fails with OSSA_ERR_NOMEM. */
ossa_status ossa_build_array(ossa_build *b, void *out_ptr, size_t count, size_t elem);
ossa_status ossa_build_strndup(ossa_build *b, const char **out, const char *s, size_t n);

/* Append one zeroed element to the model's lists; NULL only when out of memory (error set). */
ossa_mesh *ossa_build_push_mesh(ossa_build *b);
ossa_clip *ossa_build_push_clip(ossa_build *b);
ossa_morph_clip *ossa_build_push_morph_clip(ossa_build *b);
ossa_material *ossa_build_push_material(ossa_build *b);

/* Scales the whole model built so far by s, as Cal3D's CalCoreModel::scale does (a .cfg's
 * scale=, the load option). */
void ossa_build_scale(ossa_build *b, float s);

/* Installs a skeleton given in FILE order (parent and children as file indices). Reorders it
 * parents-first, remaps parents and children, rejects cycles and bad indices, and sets
 * b->bone_from_file so later files (animations, meshes) can map their bone ids. */
ossa_status ossa_build_set_skeleton(ossa_build *b, ossa_bone *file_bones, uint32_t count);

/* Maps a file bone id read at offset/line (whichever is >= 0) to a model index. Without a
 * skeleton the id is kept as is (range-checked later by validation). */
ossa_status ossa_build_map_bone(ossa_build *b, int64_t id, int64_t offset, int line,
                                uint32_t *out);

/* Cal3D quaternion (conjugated convention) to Hamilton, in place: (-x, -y, -z, w). */
static inline void ossa_cal3d_quat_to_hamilton(float q[4])
{
    q[0] = -q[0];
    q[1] = -q[1];
    q[2] = -q[2];
}


/* Sorts a track's keys by time when a file lists them out of order (stable, with a warning);
 * Cal3D's binary search assumes sorted keys. Mutates the arrays the track points to. */
ossa_status ossa_build_sort_track(ossa_build *b, ossa_track *track, const char *clip_name);

/* An array sorted along with the times: n elements of elem bytes at base (NULL: none). */
typedef struct ossa_sort_array {
    void *base;
    size_t elem;
} ossa_sort_array;
/* Sorts n entries by their finite times (one float every time_stride bytes from times, which may
 * lie inside one of the arrays), stably and in O(n log n), since a file may list millions of
 * keys in reverse; every array is put in the same order. *moved: they were out of order. */
ossa_status ossa_build_sort_by_time(ossa_build *b, const float *times, size_t time_stride,
                                    uint32_t n, const ossa_sort_array *arrays, int array_count,
                                    bool *moved);
#endif
