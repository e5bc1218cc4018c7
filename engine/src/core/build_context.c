#include "core/build_context.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ossa/limits.h"
#include "core/validate.h"

bool ossa_build_init(ossa_build *b, ossa_error *err, const ossa_read_options *opt)
{
    memset(b, 0, sizeof *b);
    b->err = err;
    if (opt)
        b->opt = *opt;
    ossa_arena *arena = ossa_arena_create();
    if (!arena)
        return false;
    b->model = ossa_arena_alloc(arena, sizeof(ossa_model));
    if (!b->model) {
        ossa_arena_destroy(arena);
        return false;
    }
    b->model->arena = arena;
    b->model->scale = 1.0f;
    b->file = "";
    b->dir = "";
    b->stem = "";
    return true;
}

/* The file that brought part in: the last one whose parts of that kind began at or before its
 * index (files read later began after every part of the earlier ones). NULL when unknown. */
static const char *part_file(const ossa_build *b, ossa_model_part part)
{
    if (part.kind == OSSA_PART_WHOLE || part.kind >= OSSA_PART_KIND_COUNT)
        return NULL;
    const char *file = NULL;
    for (uint32_t i = 0; i < b->mark_count; i++)
        if (b->marks[i].start[part.kind] <= part.index)
            file = b->marks[i].file;
    return file;
}

ossa_status ossa_build_finish(ossa_build *b, ossa_status status, ossa_model **out)
{
    *out = NULL;
    if (status == OSSA_OK) {
        ossa_model_part part;
        status = ossa_model_validate_part(b->model, b->err, &part);
        /* Validation sees the whole model; name the file that brought the failing part in, or
         * else the one the model came from. */
        if (status != OSSA_OK && b->err && !b->err->file[0]) {
            const char *file = part_file(b, part);
            if (!file || !file[0])
                file = b->model->source ? b->model->source : b->file;
            snprintf(b->err->file, sizeof b->err->file, "%s", file);
        }
    }
    free(b->marks);
    b->marks = NULL;
    b->mark_count = b->mark_cap = 0;
    if (status == OSSA_OK && b->read_count) {
        const char **files = ossa_arena_array(b->model->arena, b->read_count, sizeof *files);
        if (files) {
            memcpy(files, b->reads, b->read_count * sizeof *files);
            b->model->files = files;
            b->model->file_count = b->read_count;
        } else {
            status = ossa_fail(b, OSSA_ERR_NOMEM, -1, "out of memory");
        }
    }
    free(b->reads);
    b->reads = NULL;
    b->read_count = b->read_cap = 0;
    if (status != OSSA_OK) {
        ossa_model_destroy(b->model);
        b->model = NULL;
        return status;
    }
    *out = b->model;
    b->model = NULL;
    return OSSA_OK;
}

ossa_status ossa_build_note_read(ossa_build *b, const char *path)
{
    for (uint32_t i = 0; i < b->read_count; i++)
        if (!strcmp(b->reads[i], path))
            return OSSA_OK;
    if (b->read_count == b->read_cap) {
        uint32_t cap = b->read_cap ? 2 * b->read_cap : 8;
        const char **grown = cap > b->read_cap ? realloc(b->reads, cap * sizeof *grown) : NULL;
        if (!grown)
            return ossa_fail(b, OSSA_ERR_NOMEM, -1, "out of memory");
        b->reads = grown;
        b->read_cap = cap;
    }
    const char *copy;
    OSSA_TRY(ossa_build_strndup(b, &copy, path, strlen(path)));
    b->reads[b->read_count++] = copy;
    return OSSA_OK;
}

ossa_status ossa_build_set_file(ossa_build *b, const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t stem_len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    OSSA_TRY(ossa_build_strndup(b, &b->file, path, strlen(path)));
    OSSA_TRY(ossa_build_strndup(b, &b->dir, path, slash ? (size_t)(slash - path + 1) : 0));
    OSSA_TRY(ossa_build_strndup(b, &b->stem, base, stem_len));
    if (b->mark_count == b->mark_cap) {
        uint32_t cap = b->mark_cap ? 2 * b->mark_cap : 8;
        ossa_build_mark *marks = cap > b->mark_cap ? realloc(b->marks, cap * sizeof *marks) : NULL;
        if (!marks)
            return ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot allocate the list of files read");
        b->marks = marks;
        b->mark_cap = cap;
    }
    const ossa_model *m = b->model;
    ossa_build_mark *mk = &b->marks[b->mark_count++];
    mk->file = b->file;
    mk->start[OSSA_PART_WHOLE] = 0;
    mk->start[OSSA_PART_BONE] = m->bone_count;
    mk->start[OSSA_PART_MESH] = m->mesh_count;
    mk->start[OSSA_PART_CLIP] = m->clip_count;
    mk->start[OSSA_PART_MORPH_CLIP] = m->morph_clip_count;
    mk->start[OSSA_PART_MATERIAL] = m->material_count;
    return OSSA_OK;
}

void ossa_build_save(const ossa_build *b, ossa_build_savepoint *sp)
{
    sp->arena = ossa_arena_get_mark(b->model->arena);
    sp->warnings = b->model->warnings;
    sp->warning_count = b->model->warning_count;
    sp->warning_cap = b->warning_cap;
}

void ossa_build_rollback(ossa_build *b, const ossa_build_savepoint *sp)
{
    /* A warning list grown since the save lives in the memory given back: take the old one. */
    b->model->warnings = sp->warnings;
    b->model->warning_count = sp->warning_count;
    b->warning_cap = sp->warning_cap;
    ossa_arena_rewind(b->model->arena, &sp->arena);
}

static void set_error(ossa_build *b, ossa_status s, int64_t offset, int line, const char *fmt,
                      va_list ap)
{
    ossa_error *err = b->err;
    if (!err || err->status != OSSA_OK)
        return; /* the first failure is the informative one */
    err->status = s;
    err->offset = offset;
    err->line = line;
    snprintf(err->file, sizeof err->file, "%s", b->file ? b->file : "");
    vsnprintf(err->message, sizeof err->message, fmt, ap);
}

ossa_status ossa_fail(ossa_build *b, ossa_status s, int64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_error(b, s, offset, 0, fmt, ap);
    va_end(ap);
    return s;
}

ossa_status ossa_fail_line(ossa_build *b, ossa_status s, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_error(b, s, -1, line > 0 ? line : 0, fmt, ap);
    va_end(ap);
    return s;
}

ossa_status ossa_fail_context(ossa_build *b, ossa_status st, const char *fmt, ...)
{
    /* Only the error this call site just saw is annotated, never an older, unrelated one. */
    if (st == OSSA_OK || !b->err || b->err->status != st)
        return st;
    char where[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(where, sizeof where, fmt, ap);
    va_end(ap);
    char *msg = b->err->message;
    size_t cap = sizeof b->err->message - 1, wl = strlen(where), ml = strlen(msg);
    if (wl + 2 >= cap)
        return st;
    if (ml > cap - wl - 2)
        ml = cap - wl - 2;
    memmove(msg + wl + 2, msg, ml);
    msg[wl + 2 + ml] = '\0';
    memcpy(msg, where, wl);
    memcpy(msg + wl, ": ", 2);
    return st;
}

void ossa_warn(ossa_build *b, const char *fmt, ...)
{
    ossa_model *m = b->model;
    if (m->warning_count >= 10000)
        return; /* hostile files could otherwise fill memory with warnings */
    char text[600];
    int n = snprintf(text, sizeof text, "%s: ", b->file && b->file[0] ? b->file : "(memory)");
    if (n < 0 || (size_t)n >= sizeof text)
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text + n, sizeof text - (size_t)n, fmt, ap);
    va_end(ap);
    if (m->warning_count == b->warning_cap) {
        uint32_t cap = b->warning_cap ? b->warning_cap * 2 : 8;
        const char **grown = ossa_arena_array(m->arena, cap, sizeof *grown);
        if (!grown)
            return;
        if (m->warning_count)
            memcpy(grown, m->warnings, m->warning_count * sizeof *grown);
        m->warnings = (const char *const *)grown;
        b->warning_cap = cap;
    }
    char *copy = ossa_arena_strndup(m->arena, text, strlen(text));
    if (copy)
        ((const char **)m->warnings)[m->warning_count++] = copy;
}

ossa_status ossa_build_array(ossa_build *b, void *out_ptr, size_t count, size_t elem)
{
    void *p = ossa_arena_array(b->model->arena, count, elem);
    *(void **)out_ptr = p;
    if (!p)
        return ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot allocate %zu x %zu bytes", count, elem);
    return OSSA_OK;
}

ossa_status ossa_build_strndup(ossa_build *b, const char **out, const char *s, size_t n)
{
    char *p = ossa_arena_strndup(b->model->arena, s, n);
    *out = p;
    if (!p)
        return ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot allocate a string of %zu bytes", n);
    return OSSA_OK;
}

/* Grows one of the model's lists by one zeroed element. */
static void *push(ossa_build *b, const void **list, uint32_t *count, uint32_t *cap, size_t elem)
{
    if (*count == *cap) {
        uint32_t ncap = *cap ? *cap * 2 : 4;
        void *grown = ossa_arena_array(b->model->arena, ncap, elem);
        if (!grown) {
            ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot grow a list to %u entries", ncap);
            return NULL;
        }
        if (*count)
            memcpy(grown, *list, (size_t)*count * elem);
        *list = grown;
        *cap = ncap;
    }
    uint8_t *slot = (uint8_t *)*list + (size_t)*count * elem;
    memset(slot, 0, elem);
    (*count)++;
    return slot;
}

ossa_mesh *ossa_build_push_mesh(ossa_build *b)
{
    ossa_model *m = b->model;
    return push(b, (const void **)&m->meshes, &m->mesh_count, &b->mesh_cap, sizeof(ossa_mesh));
}

ossa_clip *ossa_build_push_clip(ossa_build *b)
{
    ossa_model *m = b->model;
    return push(b, (const void **)&m->clips, &m->clip_count, &b->clip_cap, sizeof(ossa_clip));
}

ossa_morph_clip *ossa_build_push_morph_clip(ossa_build *b)
{
    ossa_model *m = b->model;
    return push(b, (const void **)&m->morph_clips, &m->morph_clip_count, &b->morph_clip_cap,
                sizeof(ossa_morph_clip));
}

ossa_material *ossa_build_push_material(ossa_build *b)
{
    ossa_model *m = b->model;
    return push(b, (const void **)&m->materials, &m->material_count, &b->material_cap,
                sizeof(ossa_material));
}

ossa_status ossa_build_set_skeleton(ossa_build *b, ossa_bone *fb, uint32_t n)
{
    ossa_model *m = b->model;
    if (m->bone_count)
        return ossa_fail(b, OSSA_ERR_MISMATCH, -1, "a second skeleton in one model");
    if (n == 0 || n > OSSA_MAX_BONES)
        return ossa_fail(b, OSSA_ERR_RANGE, -1, "bone count %u outside 1..%u", n, OSSA_MAX_BONES);
    for (uint32_t i = 0; i < n; i++) {
        if (fb[i].parent < -1 || fb[i].parent >= (int32_t)n || fb[i].parent == (int32_t)i)
            return ossa_fail(b, OSSA_ERR_RANGE, -1, "bone %u ('%s') has parent %d, not in -1..%u",
                             i, fb[i].name ? fb[i].name : "", fb[i].parent, n - 1);
        for (uint32_t c = 0; c < fb[i].child_count; c++)
            if (fb[i].children[c] >= n)
                return ossa_fail(b, OSSA_ERR_RANGE, -1, "bone %u lists child %u, not in 0..%u",
                                 i, fb[i].children[c], n - 1);
    }
    /* Parents-first order: a breadth-first walk from the roots in file order keeps the file
     * order whenever it already is parents-first (the common case). */
    uint32_t *order, *new_index;
    OSSA_TRY(ossa_build_array(b, &order, n, sizeof *order));
    OSSA_TRY(ossa_build_array(b, &new_index, n, sizeof *new_index));
    bool sorted = true;
    for (uint32_t i = 0; i < n && sorted; i++)
        sorted = fb[i].parent < (int32_t)i;
    uint32_t placed = 0;
    if (sorted) {
        for (uint32_t i = 0; i < n; i++)
            order[i] = i;
        placed = n;
    } else {
        for (uint32_t i = 0; i < n; i++)
            new_index[i] = UINT32_MAX;
        for (uint32_t i = 0; i < n; i++)
            if (fb[i].parent == -1) {
                new_index[i] = placed;
                order[placed++] = i;
            }
        for (uint32_t head = 0; head < placed; head++) {
            uint32_t p = order[head];
            for (uint32_t i = 0; i < n; i++)
                if (fb[i].parent == (int32_t)p && new_index[i] == UINT32_MAX) {
                    new_index[i] = placed;
                    order[placed++] = i;
                }
        }
        if (placed != n)
            return ossa_fail(b, OSSA_ERR_FORMAT, -1,
                             "skeleton has a parent cycle (%u of %u bones reachable from roots)",
                             placed, n);
        ossa_warn(b, "bones reordered so that parents come before children");
    }
    for (uint32_t i = 0; i < n; i++)
        new_index[order[i]] = i;
    ossa_bone *bones;
    OSSA_TRY(ossa_build_array(b, &bones, n, sizeof *bones));
    for (uint32_t i = 0; i < n; i++) {
        const ossa_bone *src = &fb[order[i]];
        bones[i] = *src;
        bones[i].source_index = order[i];
        bones[i].parent = src->parent < 0 ? -1 : (int32_t)new_index[src->parent];
        if (src->child_count) {
            uint32_t *kids;
            OSSA_TRY(ossa_build_array(b, &kids, src->child_count, sizeof *kids));
            bool consistent = true;
            for (uint32_t c = 0; c < src->child_count; c++) {
                kids[c] = new_index[src->children[c]];
                consistent &= fb[src->children[c]].parent == (int32_t)order[i];
            }
            if (!consistent)
                ossa_warn(b, "bone '%s' lists a child whose parent id is another bone",
                          src->name ? src->name : "");
            bones[i].children = kids;
        }
    }
    m->bones = bones;
    m->bone_count = n;
    b->bone_from_file = new_index;
    b->bone_from_file_count = n;
    return OSSA_OK;
}

ossa_status ossa_build_map_bone(ossa_build *b, int64_t id, int64_t offset, int line, uint32_t *out)
{
    if (b->bone_from_file) {
        if (id < 0 || id >= (int64_t)b->bone_from_file_count) {
            if (line > 0)
                return ossa_fail_line(b, OSSA_ERR_RANGE, line,
                                      "bone id %lld not in the skeleton's 0..%u", (long long)id,
                                      b->bone_from_file_count - 1);
            return ossa_fail(b, OSSA_ERR_RANGE, offset, "bone id %lld not in the skeleton's 0..%u",
                             (long long)id, b->bone_from_file_count - 1);
        }
        *out = b->bone_from_file[id];
        return OSSA_OK;
    }
    if (id < 0 || id >= (int64_t)OSSA_MAX_BONES) {
        if (line > 0)
            return ossa_fail_line(b, OSSA_ERR_RANGE, line, "bone id %lld not in 0..%u",
                                  (long long)id, OSSA_MAX_BONES - 1);
        return ossa_fail(b, OSSA_ERR_RANGE, offset, "bone id %lld not in 0..%u", (long long)id,
                         OSSA_MAX_BONES - 1);
    }
    *out = (uint32_t)id;
    return OSSA_OK;
}

/* A key's time with its file position, so that qsort (not stable) keeps equal times in file
 * order. */
typedef struct time_key {
    float time;
    uint32_t index;
} time_key;

static int by_time_then_index(const void *pa, const void *pb)
{
    const time_key *a = pa, *b = pb;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static float time_at(const float *times, size_t stride, uint32_t i)
{
    return *(const float *)(const void *)((const unsigned char *)times + (size_t)i * stride);
}

ossa_status ossa_build_sort_by_time(ossa_build *b, const float *times, size_t time_stride,
                                    uint32_t n, const ossa_sort_array *arrays, int array_count,
                                    bool *moved)
{
    *moved = false;
    bool sorted = true;
    for (uint32_t i = 1; i < n && sorted; i++)
        sorted = time_at(times, time_stride, i - 1) <= time_at(times, time_stride, i);
    if (sorted)
        return OSSA_OK;
    size_t widest = 0;
    for (int a = 0; a < array_count; a++)
        if (arrays[a].base && arrays[a].elem > widest)
            widest = arrays[a].elem;
    time_key *keys = malloc((size_t)n * sizeof *keys);
    unsigned char *scratch = malloc((size_t)n * widest);
    if (!keys || !scratch) {
        free(keys);
        free(scratch);
        return ossa_fail(b, OSSA_ERR_NOMEM, -1, "cannot allocate the sort of %u keys", n);
    }
    for (uint32_t i = 0; i < n; i++)
        keys[i] = (time_key){time_at(times, time_stride, i), i};
    qsort(keys, n, sizeof *keys, by_time_then_index);
    for (int a = 0; a < array_count; a++) {
        unsigned char *p = arrays[a].base;
        size_t elem = arrays[a].elem;
        if (!p)
            continue;
        for (uint32_t k = 0; k < n; k++)
            memcpy(scratch + (size_t)k * elem, p + (size_t)keys[k].index * elem, elem);
        memcpy(p, scratch, (size_t)n * elem);
    }
    free(scratch);
    free(keys);
    *moved = true;
    return OSSA_OK;
}

ossa_status ossa_build_sort_track(ossa_build *b, ossa_track *t, const char *clip_name)
{
    const ossa_sort_array arrays[] = {{(float *)t->times, sizeof(float)},
                                      {(float *)t->translations, 3 * sizeof(float)},
                                      {(float *)t->rotations, 4 * sizeof(float)},
                                      {(float *)t->scales, 3 * sizeof(float)}};
    bool moved;
    OSSA_TRY(ossa_build_sort_by_time(b, t->times, sizeof(float), t->key_count, arrays, 4, &moved));
    if (moved)
        ossa_warn(b, "clip '%s': keys of bone %u were out of time order and have been sorted",
                  clip_name ? clip_name : "", t->bone);
    return OSSA_OK;
}

/* Uniform scale as Cal3D's CalCoreModel::scale applies it: every translation and position. */
void ossa_build_scale(ossa_build *b, float s)
{
    ossa_model *m = b->model;
    m->scale *= s;
    m->bind_disagreement *= s;
    ossa_bone *bones = (ossa_bone *)m->bones;
    for (uint32_t i = 0; i < m->bone_count; i++)
        for (int k = 0; k < 3; k++) {
            bones[i].rest_t[k] *= s;
            bones[i].inv_bind_t[k] *= s;
        }
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count; j++) {
            const ossa_submesh *sm = &m->meshes[i].submeshes[j];
            float *pos = (float *)sm->positions;
            for (size_t k = 0; k < 3 * (size_t)sm->vertex_count; k++)
                pos[k] *= s;
            float *points = (float *)sm->influence_points;
            size_t inf_total = sm->vertex_count ? sm->influence_start[sm->vertex_count] : 0;
            for (size_t k = 0; points && k < 3 * inf_total; k++)
                points[k] *= s;
            float *frames = (float *)sm->frame_positions;
            for (size_t k = 0; frames && k < 3 * (size_t)sm->vertex_count * sm->frame_count; k++)
                frames[k] *= s;
            for (uint32_t k = 0; k < sm->spring_count; k++)
                ((ossa_spring *)sm->springs)[k].idle_length *= s;
            for (uint32_t t = 0; t < sm->morph_count; t++) {
                float *d = (float *)sm->morphs[t].d_position;
                for (size_t k = 0; k < 3 * (size_t)sm->morphs[t].count; k++)
                    d[k] *= s;
            }
        }
    for (uint32_t i = 0; i < m->mount_count; i++)
        for (int k = 0; k < 3; k++)
            ((ossa_mount *)m->mounts)[i].offset_t[k] *= s;
    for (uint32_t i = 0; i < m->clip_count; i++)
        for (uint32_t t = 0; t < m->clips[i].track_count; t++) {
            const ossa_track *tr = &m->clips[i].tracks[t];
            float *v = (float *)tr->translations;
            for (size_t k = 0; k < 3 * (size_t)tr->key_count; k++)
                v[k] *= s;
        }
}
