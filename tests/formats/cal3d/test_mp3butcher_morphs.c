/* Morph targets of mp3butcher-lineage 1300/1301 meshes as the fork's current loader reads them
 * (docs/FORMATS.md D1b): per target a name, a blend-vertex count and the first id, then the
 * loop over vertex indices that takes a blend vertex where the index has reached the id and
 * reads the next id only while the count is not used up (no sentinel). A face with 44
 * expressions, the first starting at vertex 0, used to be refused ("blend vertex id 0 after 0:
 * ids must ascend"); ids out of order give their blend vertex to the next vertex, as the fork
 * does; and the fork's earlier sentinel-ended form still reads. */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "cal3d_writer.h"
#include "ossa/ossa.h"
#include "test_common.h"

#define GRID 4
#define VERTS (GRID * GRID)
#define FACES (2 * (GRID - 1) * (GRID - 1))
#define TARGETS 44

typedef struct face_model {
    cw_bone bone;
    cw_skeleton skel;
    cw_vertex v[VERTS];
    int32_t faces[3 * FACES];
    cw_blend_vertex blend[TARGETS][VERTS];
    cw_morph morphs[TARGETS];
    cw_submesh sub;
    cw_mesh mesh;
} face_model;

/* Target t moves the vertices v with (v + t) % 3 == 0 (so target 0 starts at vertex 0), each by
 * a small amount that names t and v. */
static void build(face_model *f)
{
    memset(f, 0, sizeof *f);
    f->bone = (cw_bone){.name = "head", .parent = -1, .rotation = {0, 0, 0, 1},
                        .local_rotation = {0, 0, 0, 1}};
    f->skel = (cw_skeleton){1, &f->bone, {0, 0, 0}};
    for (int i = 0; i < VERTS; i++) {
        cw_vertex *v = &f->v[i];
        v->position[0] = (float)(i % GRID);
        v->position[1] = (float)(i / GRID);
        v->normal[2] = 1.0f;
        v->collapse_id = -1;
        v->uv[0][0] = 0.25f * (float)(i % GRID);
        v->uv[0][1] = 0.25f * (float)(i / GRID);
        v->influence_count = 1;
        v->influence_weight[0] = 1.0f;
    }
    int n = 0;
    for (int y = 0; y + 1 < GRID; y++)
        for (int x = 0; x + 1 < GRID; x++) {
            int a = y * GRID + x;
            int quad[6] = {a, a + 1, a + GRID + 1, a, a + GRID + 1, a + GRID};
            memcpy(f->faces + n, quad, sizeof quad);
            n += 6;
        }
    for (int t = 0; t < TARGETS; t++) {
        uint32_t count = 0;
        for (int i = 0; i < VERTS; i++) {
            if ((i + t) % 3)
                continue;
            cw_blend_vertex *bv = &f->blend[t][count++];
            bv->vertex = i;
            memcpy(bv->position, f->v[i].position, sizeof bv->position);
            bv->position[2] = 0.01f * (float)(t + 1) + 0.001f * (float)i;
            bv->normal[1] = 0.6f;
            bv->normal[2] = 0.8f;
            bv->uv[0][0] = f->v[i].uv[0][0] + 0.125f;
            bv->uv[0][1] = f->v[i].uv[0][1];
        }
        static char names[TARGETS][16];
        snprintf(names[t], sizeof names[t], "expr_%02d", t);
        f->morphs[t] = (cw_morph){names[t], count, f->blend[t]};
    }
    f->sub = (cw_submesh){.material = 0, .texcoord_count = 1, .vertex_count = VERTS,
                          .vertices = f->v, .morph_count = TARGETS, .morphs = f->morphs,
                          .face_count = FACES, .faces = f->faces};
    f->mesh = (cw_mesh){1, &f->sub};
}

static ossa_model *load(const face_model *f, int version, char *dir, size_t dir_size,
                        ossa_error *err)
{
    snprintf(dir, dir_size, "/tmp/ossa-mp3morphs-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    size_t n;
    uint8_t *csf = cw_write_csf(&f->skel, version, &n);
    CHECK(csf && cw_save(dir, "face.csf", csf, n) == 0);
    free(csf);
    uint8_t *cmf = cw_write_cmf(&f->mesh, version, &n);
    CHECK(cmf && cw_save(dir, "face.cmf", cmf, n) == 0);
    free(cmf);
    char a[600], b[600];
    const char *list[2] = {test_path(a, sizeof a, dir, "face.csf"),
                           test_path(b, sizeof b, dir, "face.cmf")};
    ossa_model *m = NULL;
    if (ossa_load_files(list, 2, NULL, &m, err) != OSSA_OK)
        return NULL;
    return m;
}

static void clean(const char *dir)
{
    char p[600];
    unlink(test_path(p, sizeof p, dir, "face.csf"));
    unlink(test_path(p, sizeof p, dir, "face.cmf"));
    rmdir(dir);
}

static bool has_warning(const ossa_model *m, const char *needle)
{
    for (uint32_t i = 0; i < m->warning_count; i++)
        if (strstr(m->warnings[i], needle))
            return true;
    return false;
}

/* Every target holds exactly the blend vertices written, as deltas from the base. */
static void check_targets(const char *label, const ossa_model *m, const face_model *f)
{
    const ossa_submesh *sm = &m->meshes[0].submeshes[0];
    CHECKF(sm->morph_count == TARGETS, "%s: %u morph targets", label, sm->morph_count);
    for (uint32_t t = 0; t < sm->morph_count && t < TARGETS; t++) {
        const ossa_morph_target *mt = &sm->morphs[t];
        const cw_morph *want = &f->morphs[t];
        CHECKF(strcmp(mt->name, want->name) == 0 && mt->count == want->count,
               "%s: target %u is '%s' with %u blend vertices", label, t, mt->name, mt->count);
        for (uint32_t k = 0; k < mt->count && k < want->count; k++) {
            const cw_blend_vertex *bv = &want->vertices[k];
            uint32_t v = (uint32_t)bv->vertex;
            CHECKF(mt->vertex[k] == v, "%s: target %u blend %u on vertex %u", label, t, k,
                   mt->vertex[k]);
            float dz = bv->position[2] - f->v[v].position[2];
            CHECKF(fabsf(mt->d_position[3 * k + 2] - dz) < 1e-7f &&
                       fabsf(mt->d_uv[2 * k] - 0.125f) < 1e-7f,
                   "%s: target %u blend %u delta", label, t, k);
        }
    }
}

int main(void)
{
    static face_model f;
    build(&f);
    char dir[64], text[1024];
    ossa_error err;
    static const int versions[] = {1300, 1301};
    for (int k = 0; k < 2; k++) {
        char label[64];
        /* The fork's current form, then its earlier sentinel-ended one. */
        for (int form = 0; form < 2; form++) {
            int version = versions[k] | CW_MP3BUTCHER | (form ? CW_MP3BUTCHER_TERMINATED : 0);
            snprintf(label, sizeof label, "%d %s", versions[k], form ? "terminated" : "counted");
            ossa_model *m = load(&f, version, dir, sizeof dir, &err);
            CHECKF(m, "%s: %s", label, ossa_error_format(&err, text, sizeof text));
            if (m) {
                CHECKF(m->mesh_count == 1 && m->meshes[0].lineage == OSSA_CAL3D_MP3BUTCHER,
                       "%s: lineage", label);
                check_targets(label, m, &f);
                CHECKF(m->warning_count == 0, "%s: %u warnings, first: %s", label,
                       m->warning_count, m->warning_count ? m->warnings[0] : "");
            }
            ossa_model_destroy(m);
            clean(dir);
        }
    }

    /* Ids out of order: target 1 lists vertices 5 and 2 (count 2). The fork's loop gives the
     * first to vertex 5 and, the next id being behind it, the second to vertex 6. */
    static face_model odd;
    build(&odd);
    cw_blend_vertex swapped[2] = {odd.blend[1][1], odd.blend[1][0]};
    odd.morphs[1] = (cw_morph){"expr_01", 2, swapped};
    ossa_model *m = load(&odd, 1301 | CW_MP3BUTCHER, dir, sizeof dir, &err);
    CHECKF(m, "out of order: %s", ossa_error_format(&err, text, sizeof text));
    if (m) {
        const ossa_morph_target *mt = &m->meshes[0].submeshes[0].morphs[1];
        CHECKF(mt->count == 2 && mt->vertex[0] == (uint32_t)swapped[0].vertex &&
                   mt->vertex[1] == (uint32_t)swapped[0].vertex + 1,
               "out of order: vertices %u, %u", mt->vertex[0], mt->count > 1 ? mt->vertex[1] : 0);
        CHECK(has_warning(m, "out of order"));
        CHECK(m->meshes[0].submeshes[0].morphs[2].count == odd.morphs[2].count);
    }
    ossa_model_destroy(m);
    clean(dir);
    return test_finish("mp3butcher-morphs");
}
