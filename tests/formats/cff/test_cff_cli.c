/* `ossa info` and `ossa sample` on a CFF written from the demo (the ossa executable's path is
 * the first argument): exit status 0, the format, bones, clip and frame values in the text, valid
 * looking JSON, the half-float report, one CSV line per vertex, and bones with --bones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cff_test_util.h"
#include "test_common.h"

/* Runs a command; returns its output (malloc'ed) and exit status, or NULL. */
static char *run(const char *cmd, int *status)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t size = 0, cap = 4096;
    char *out = malloc(cap);
    while (out) {
        if (size + 4096 > cap) {
            char *grown = realloc(out, cap *= 2);
            if (!grown) {
                free(out);
                out = NULL;
                break;
            }
            out = grown;
        }
        size_t got = fread(out + size, 1, 4096, p);
        size += got;
        if (!got)
            break;
    }
    int rc = pclose(p);
    *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    if (out)
        out[size] = '\0';
    return out;
}

static size_t count_lines(const char *s, const char *prefix)
{
    size_t n = 0, pl = strlen(prefix);
    for (const char *line = s; line && *line;) {
        if (!strncmp(line, prefix, pl))
            n++;
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-cff-cli PATH-TO-OSSA\n");
        return 1;
    }
    char *dir = cff_temp_dir();
    char path[4096], cmd[8192];
    size_t size;
    uint8_t *bytes = dir ? cff_write_demo(dir, "demo.cff", 0.0f, path, sizeof path, &size) : NULL;
    CHECK(bytes != NULL);
    free(bytes);
    if (!bytes) {
        cff_remove_dir(dir);
        return test_finish("cff-cli");
    }
    int status = -1;

    snprintf(cmd, sizeof cmd, "'%s' info '%s' --cff-half", argv[1], path);
    char *out = run(cmd, &status);
    CHECK(out && status == 0);
    if (out) {
        CHECKF(strstr(out, "format: CFF") != NULL, "%s", out);
        CHECK(strstr(out, "bones: 19 (CFF") != NULL);
        CHECK(strstr(out, "meshes: 19") != NULL);
        CHECK(strstr(out, "clip 0 'demo' (CFF v0): duration 1.000 s, tracks 19, keys 475") != NULL);
        CHECK(strstr(out, "frame values, bone 'pelv': 0 1 2 3 4 5 6 7 ... (25 in all)") != NULL);
        CHECK(count_lines(out, "    frame values") == 19);
        CHECK(strstr(out, "as 16-bit integers x scale + origin (used): 456 vertices, 0 not finite")
              != NULL);
        CHECK(strstr(out, "as half floats (not used): 456 vertices") != NULL);
        CHECK(strstr(out, "warnings: 0") != NULL);
    }
    free(out);

    snprintf(cmd, sizeof cmd, "'%s' info --json '%s'", argv[1], path);
    out = run(cmd, &status);
    CHECK(out && status == 0);
    if (out)
        CHECK(out[0] == '{' && strstr(out, "\"format\":\"CFF\"") && strstr(out, "\"pelv\""));
    free(out);

    snprintf(cmd, sizeof cmd, "'%s' sample '%s' --clip 0 --time 0.3", argv[1], path);
    out = run(cmd, &status);
    CHECK(out && status == 0);
    if (out) {
        size_t rows = 0;
        for (uint32_t mesh = 0; mesh < 19; mesh++) {
            char prefix[32];
            snprintf(prefix, sizeof prefix, "%u,0,", mesh);
            rows += count_lines(out, prefix);
        }
        CHECKF(rows == 456, "%zu vertex rows", rows);
    }
    free(out);

    snprintf(cmd, sizeof cmd, "'%s' sample '%s' --bones --clip 0 --time 0.5", argv[1], path);
    out = run(cmd, &status);
    CHECK(out && status == 0 && out && strstr(out, "head"));
    free(out);

    /* A broken file: a clear error and exit status 1. */
    char broken[4096];
    snprintf(broken, sizeof broken, "%s/broken.cff", dir);
    FILE *f = fopen(broken, "wb");
    if (f) {
        fwrite("short", 1, 5, f);
        fclose(f);
    }
    snprintf(cmd, sizeof cmd, "'%s' info '%s' 2>&1", argv[1], broken);
    out = run(cmd, &status);
    CHECK(out && status == 1 && strstr(out, "broken.cff") && strstr(out, "header"));
    free(out);

    cff_remove_dir(dir);
    return test_finish("cff-cli");
}
