/* Output sets: outputs written to temporaries and renamed over their targets only when all are
 * complete (out_file.h; docs/RELIABILITY.md, "Outputs are atomic"). */
#include "io/out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/write_buf.h"
#include "ossa/files.h"

void ossa_out_init(ossa_out_set *s, const ossa_write_guard *guard, ossa_error *err)
{
    memset(s, 0, sizeof *s);
    s->guard = guard;
    s->err = err;
}

/* malloc'ed copies (not strdup: every allocation goes through malloc, which the allocation
 * failure tests count) */
static char *copy_n(const char *s, size_t n)
{
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

static ossa_out_entry *find(ossa_out_set *s, const char *path)
{
    for (size_t i = 0; i < s->count; i++)
        if (!strcmp(s->entries[i].path, path))
            return &s->entries[i];
    return NULL;
}

static ossa_status claim(ossa_out_set *s, const char *path, ossa_out_entry **out)
{
    *out = NULL;
    if (!path || !path[0])
        return ossa_write_fail(s->err, OSSA_ERR_INVALID_ARGUMENT, path, "no output path");
    if (find(s, path))
        return ossa_write_fail(s->err, OSSA_ERR_REFUSED, path,
                               "two outputs of one write would have this name");
    /* a folder at the target would make its rename fail after others were done: refused
     * before anything is written */
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return ossa_write_fail(s->err, OSSA_ERR_IO, path, "cannot write: a folder has this name");
    if (s->guard && s->guard->check) {
        char why[400] = "";
        if (!s->guard->check(s->guard->user, path, why, sizeof why))
            return ossa_write_fail(s->err, OSSA_ERR_REFUSED, path, "%s",
                                   why[0] ? why : "refused by the caller");
    }
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        ossa_out_entry *grown = realloc(s->entries, cap * sizeof *grown);
        if (!grown)
            return ossa_write_fail(s->err, OSSA_ERR_NOMEM, path, "out of memory");
        s->entries = grown;
        s->cap = cap;
    }
    char *copy = copy_n(path, strlen(path));
    if (!copy)
        return ossa_write_fail(s->err, OSSA_ERR_NOMEM, path, "out of memory");
    *out = &s->entries[s->count++];
    (*out)->path = copy;
    (*out)->temp = NULL;
    return OSSA_OK;
}

ossa_status ossa_out_claim(ossa_out_set *s, const char *path)
{
    ossa_out_entry *e;
    return claim(s, path, &e);
}

static bool write_all(int fd, const void *data, size_t size)
{
    const uint8_t *p = data;
    while (size) {
        ssize_t n = write(fd, p, size > (1u << 30) ? (1u << 30) : size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        size -= (size_t)n;
    }
    return true;
}

/* A new file beside path, created exclusively (O_EXCL also refuses a link at that name) with
 * the process's usual permissions; its name is returned in *temp. */
static int create_temp(ossa_out_set *s, const char *path, char **temp)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    const char *leaf = path + dir_len;
    size_t leaf_len = strlen(leaf) > 40 ? 40 : strlen(leaf); /* stays under NAME_MAX */
    size_t n = dir_len + leaf_len + 64;
    char *name = malloc(n);
    if (!name) {
        errno = ENOMEM;
        return -1;
    }
    uintptr_t salt = (uintptr_t)s ^ (uintptr_t)time(NULL) ^ ((uintptr_t)getpid() << 16);
    for (int attempt = 0; attempt < 64; attempt++) {
        unsigned serial = s->serial++;
        snprintf(name, n, "%.*s.%.*s.ossa-%lx-%u.tmp", (int)dir_len, path, (int)leaf_len, leaf,
                 (unsigned long)(salt & 0xffffffffu), serial);
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *temp = name;
            return fd;
        }
        if (errno != EEXIST)
            break;
        salt = salt * 6364136223846793005u + 1442695040888963407u;
    }
    int e = errno;
    free(name);
    errno = e;
    return -1;
}

ossa_status ossa_out_add(ossa_out_set *s, const char *path, const void *a, size_t na,
                         const void *b, size_t nb)
{
    ossa_out_entry *e = path ? find(s, path) : NULL;
    if (e && e->temp)
        return ossa_write_fail(s->err, OSSA_ERR_REFUSED, path,
                               "two outputs of one write would have this name");
    if (!e)
        OSSA_TRY(claim(s, path, &e));
    char *temp = NULL;
    int fd = create_temp(s, path, &temp);
    if (fd < 0)
        return errno == ENOMEM
                   ? ossa_write_fail(s->err, OSSA_ERR_NOMEM, path, "out of memory")
                   : ossa_write_fail(s->err, OSSA_ERR_IO, path, "cannot create a file beside it: "
                                     "%s", strerror(errno));
    bool ok = (!na || write_all(fd, a, na)) && (!nb || write_all(fd, b, nb));
    int why = errno;
    if (ok && fsync(fd) != 0) {
        ok = false;
        why = errno;
    }
    if (close(fd) != 0 && ok) {
        ok = false;
        why = errno;
    }
    if (!ok) {
        unlink(temp);
        free(temp);
        return ossa_write_fail(s->err, OSSA_ERR_IO, path,
                               "write failed (%s); the file is left as it was", strerror(why));
    }
    e->temp = temp;
    return OSSA_OK;
}

/* Makes the renames durable: the folder's entry for each target is synced (no allocation: a
 * commit that has begun does not fail for memory). */
static void sync_folder(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (slash == path ? 1 : (size_t)(slash - path)) : 1;
    if (n >= sizeof dir)
        return;
    memcpy(dir, slash ? path : ".", n);
    dir[n] = '\0';
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

ossa_status ossa_out_commit(ossa_out_set *s)
{
    for (size_t i = 0; i < s->count; i++) {
        ossa_out_entry *e = &s->entries[i];
        if (!e->temp)
            continue; /* claimed, never written */
        /* rename replaces a link at the target, never the file it points to */
        if (rename(e->temp, e->path) != 0)
            return ossa_write_fail(s->err, OSSA_ERR_IO, e->path, "cannot put the new file in "
                                   "place: %s", strerror(errno));
        free(e->temp);
        e->temp = NULL;
        if (i == 0 || strcmp(s->entries[i - 1].path, e->path))
            sync_folder(e->path);
    }
    return OSSA_OK;
}

void ossa_out_free(ossa_out_set *s)
{
    for (size_t i = 0; i < s->count; i++) {
        if (s->entries[i].temp)
            unlink(s->entries[i].temp);
        free(s->entries[i].temp);
        free(s->entries[i].path);
    }
    free(s->entries);
    memset(s, 0, sizeof *s);
}

bool ossa_out_same_bytes(const char *path, const void *data, size_t size)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    bool same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size == size;
    const uint8_t *p = data;
    uint8_t buf[8192];
    size_t at = 0;
    while (same && at < size) {
        ssize_t n = read(fd, buf, size - at < sizeof buf ? size - at : sizeof buf);
        if (n <= 0) {
            same = false;
            break;
        }
        same = !memcmp(buf, p + at, (size_t)n);
        at += (size_t)n;
    }
    close(fd);
    return same;
}

ossa_status ossa_file_write(const char *path, const void *data, size_t size,
                            const ossa_write_guard *guard, ossa_error *err)
{
    ossa_error_clear(err);
    if (!path || (size && !data))
        return ossa_write_fail(err, OSSA_ERR_INVALID_ARGUMENT, path, "no path or no data");
    ossa_out_set out;
    ossa_out_init(&out, guard, err);
    ossa_status st = ossa_out_add(&out, path, data, size, NULL, 0);
    if (st == OSSA_OK)
        st = ossa_out_commit(&out);
    ossa_out_free(&out);
    return st;
}
