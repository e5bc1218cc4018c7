/* What the CFF writer puts beside its file and which way up: a Z-up source is turned to CFF's
 * Y up, (x, y, z) -> (x, z, -y), and reads back posed as the source turned; the textures the
 * file names are copied beside it (never over a different file of that name, not again when
 * the same bytes are there), and a texture that cannot be read is named in a warning. */
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ossa/ossa.h"
#include "demo.h"
#include "pose_match.h"
#include "test_common.h"

static int warnings;
static char last_warning[1024];

static void on_warning(void *user, const char *message)
{
    (void)user;
    warnings++;
    snprintf(last_warning, sizeof last_warning, "%s", message);
}

/* Largest distance between the source posed at its first clip's start (turned when z_up) and
 * the CFF read back at its rest, over the source's rigid vertices, as a fraction of size. */
static double turned_error(const ossa_model *src, const char *path, bool z_up)
{
    ossa_model *rd = NULL;
    ossa_error err;
    if (ossa_load_file(path, NULL, &rd, &err) != OSSA_OK) {
        CHECKF(0, "%s: %s", path, err.message);
        return INFINITY;
    }
    pm_posed want, got;
    pm_match mt;
    float size = pm_model_size(src);
    CHECK(pm_posed_init(&want, src) && pm_posed_init(&got, rd));
    pm_pose(src, src->clip_count ? &src->clips[0] : NULL, 0.0f, &want);
    pm_pose(rd, NULL, 0.0f, &got);
    if (z_up)
        pm_turn_to_y_up(&want);
    CHECK(pm_match_build(&want, &got, true, 1e-4f * size, &mt));
    pm_result r = pm_compare(&want, &got, &mt);
    pm_match_free(&mt);
    pm_posed_free(&want);
    pm_posed_free(&got);
    ossa_model_destroy(rd);
    /* most vertices must stand where the source's do (blended ones have no rigid match) */
    return r.compared > got.count / 2 ? r.worst / size : INFINITY;
}

static bool same_file(const char *a, const char *b)
{
    size_t na, nb;
    uint8_t *x = test_read_file(a, &na), *y = test_read_file(b, &nb);
    bool same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fputs(text, f) >= 0);
    if (f)
        fclose(f);
}

int main(void)
{
    const char *root = getenv("OSSA_SOURCE_ROOT");
    char dir[] = "/tmp/ossa-cff-files-XXXXXX", path[4200], other[4200], src_tex[4200];
    CHECK(mkdtemp(dir) != NULL);
    ossa_error err;
    ossa_model *demo = NULL;
    CHECK(ossa_demo_model(&demo, &err) == OSSA_OK);

    /* Axes: the demo stands along Y and is written as it is; said to be Z up, it is turned. */
    snprintf(path, sizeof path, "%s/y.cff", dir);
    CHECK(ossa_write_cff(demo, path, NULL, &err) == OSSA_OK);
    double e = turned_error(demo, path, false);
    CHECKF(e <= 1e-4, "Y-up demo as CFF: off by %g x size", e);
    snprintf(path, sizeof path, "%s/z.cff", dir);
    CHECK(ossa_write_cff(demo, path, &(ossa_cff_write_options){.up = OSSA_EXPORT_UP_Z},
                         &err) == OSSA_OK);
    double ez = turned_error(demo, path, true);
    CHECKF(ez <= 1e-4, "Z-up demo as CFF: off by %g x size from the turned source", ez);
    CHECKF(turned_error(demo, path, false) > 0.01, "the Z-up demo was not turned");
    printf("axes: Y up kept (%.2g x size), Z up turned (%.2g x size)\n", e, ez);

    /* Textures: the C3S demo names skin.tga, shirt.tga and trousers.tga beside it. */
    snprintf(path, sizeof path, "%s/assets/c3s/mannequin.c3s", root ? root : ".");
    ossa_model *c3s = NULL;
    CHECK(ossa_load_file(path, NULL, &c3s, &err) == OSSA_OK);
    if (c3s) {
        static const char *const names[] = {"skin.tga", "shirt.tga", "trousers.tga"};
        snprintf(other, sizeof other, "%s/a", dir);
        CHECK(mkdir(other, 0700) == 0);
        snprintf(path, sizeof path, "%s/a/m.cff", dir);
        ossa_cff_write_options opt = {.log = {on_warning, NULL}};
        CHECK(ossa_write_cff(c3s, path, &opt, &err) == OSSA_OK);
        for (int i = 0; i < 3; i++) {
            snprintf(other, sizeof other, "%s/a/%s", dir, names[i]);
            snprintf(src_tex, sizeof src_tex, "%s/assets/c3s/%s", root ? root : ".", names[i]);
            CHECKF(same_file(other, src_tex), "%s is not a copy of %s", other, src_tex);
        }
        CHECKF(warnings == 0, "warning: %s", last_warning);
        ossa_model *rd = NULL;
        CHECK(ossa_load_file(path, NULL, &rd, &err) == OSSA_OK);
        for (uint32_t i = 0; rd && i < rd->material_count; i++) {
            ossa_texture_file tex;
            CHECKF(rd->materials[i].map_count == 1 &&
                   ossa_texture_read(rd->materials[i].maps[0].path, &tex, &err) == OSSA_OK,
                   "material %u's texture does not read back", i);
            ossa_texture_file_free(&tex);
        }
        ossa_model_destroy(rd);
        /* Again into the same folder: the same bytes are there and are not written again
         * (the texture keeps its inode; a replaced file would have a new one). */
        struct stat before, after;
        snprintf(other, sizeof other, "%s/a/skin.tga", dir);
        CHECK(stat(other, &before) == 0);
        CHECK(ossa_write_cff(c3s, path, &opt, &err) == OSSA_OK);
        CHECK(stat(other, &after) == 0 && after.st_ino == before.st_ino);

        /* A different skin.tga already beside the target stays; the copy takes m_skin.tga. */
        snprintf(other, sizeof other, "%s/b", dir);
        CHECK(mkdir(other, 0700) == 0);
        snprintf(other, sizeof other, "%s/b/skin.tga", dir);
        write_text(other, "someone else's file");
        snprintf(path, sizeof path, "%s/b/m.cff", dir);
        CHECK(ossa_write_cff(c3s, path, &opt, &err) == OSSA_OK);
        size_t n;
        uint8_t *kept = test_read_file(other, &n);
        CHECK(kept && n == 19 && memcmp(kept, "someone else's file", 19) == 0);
        free(kept);
        snprintf(other, sizeof other, "%s/b/m_skin.tga", dir);
        snprintf(src_tex, sizeof src_tex, "%s/assets/c3s/skin.tga", root ? root : ".");
        CHECKF(same_file(other, src_tex), "the texture was not copied as m_skin.tga");
        rd = NULL;
        CHECK(ossa_load_file(path, NULL, &rd, &err) == OSSA_OK);
        bool named = false;
        for (uint32_t i = 0; rd && i < rd->material_count; i++)
            named |= !strcmp(rd->materials[i].name, "m_skin.tga");
        CHECKF(named, "the CFF does not name m_skin.tga");
        ossa_model_destroy(rd);
        ossa_model_destroy(c3s);

        /* The scene without its textures: each unreadable texture is named in a warning. */
        snprintf(other, sizeof other, "%s/c", dir);
        CHECK(mkdir(other, 0700) == 0);
        snprintf(src_tex, sizeof src_tex, "%s/assets/c3s/mannequin.c3s", root ? root : ".");
        snprintf(other, sizeof other, "%s/c/mannequin.c3s", dir);
        size_t size;
        uint8_t *bytes = test_read_file(src_tex, &size);
        FILE *f = fopen(other, "wb");
        CHECK(bytes && f && fwrite(bytes, 1, size, f) == size);
        if (f)
            fclose(f);
        free(bytes);
        CHECK(ossa_load_file(other, NULL, &c3s, &err) == OSSA_OK);
        snprintf(path, sizeof path, "%s/c/m.cff", dir);
        warnings = 0;
        CHECK(c3s && ossa_write_cff(c3s, path, &opt, &err) == OSSA_OK);
        CHECKF(warnings == 3, "%d warnings for three missing textures", warnings);
        CHECKF(strstr(last_warning, ".tga") && strstr(last_warning, "not copied"),
               "warning: %s", last_warning);
        ossa_model_destroy(c3s);
    }
    ossa_model_destroy(demo);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return test_finish("cff-write-files");
}
