/* The viewer's scene with vertex frames, without GL. The demo mannequin (skinned) gains, on a copy
 * of its tables: two vertex frames and two UV frames on its first submesh with a vertex and a uv
 * track in "walk", a mount on that submesh, a second, hidden mesh and a two-sided flag. Then:
 * the tracked submesh plays its frames in the skin layout (scattered, padding zero) while every
 * other part is skinned as in the plain demo; a clip without the track skins it again; UVs
 * follow the uv track (bind UVs in the bind pose); the mount's tripod sits on its triangle's
 * centroid of the shape drawn; hidden meshes are counted and left out of the bounds; a frame
 * prepared for the renderer (view_scene_prepare) holds what each skinning mode asks for. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "ossa/vertex_anim.h"
#include "scene.h"
#include "test_common.h"

static const float lift = 0.1f; /* frame 1 is the bind shape moved this far along +Y */

typedef struct hybrid {
    ossa_model model;
    ossa_mesh meshes[2];
    ossa_submesh *submeshes;
    ossa_clip *clips;
    float *frame_positions, *frame_normals, *frame_uvs;
    ossa_vertex_track track;
    float times[2];
    uint32_t frames[2];
    ossa_mount mount;
} hybrid;

static bool make_hybrid(const ossa_model *m, hybrid *h)
{
    memset(h, 0, sizeof *h);
    const ossa_mesh *mesh = &m->meshes[0];
    const ossa_submesh *sm = &mesh->submeshes[0];
    size_t nv = sm->vertex_count;
    h->submeshes = calloc(mesh->submesh_count, sizeof *h->submeshes);
    h->clips = calloc(m->clip_count, sizeof *h->clips);
    h->frame_positions = calloc(6 * nv, sizeof(float));
    h->frame_normals = calloc(6 * nv, sizeof(float));
    h->frame_uvs = calloc(4 * nv, sizeof(float));
    if (!h->submeshes || !h->clips || !h->frame_positions || !h->frame_normals || !h->frame_uvs)
        return false;
    memcpy(h->submeshes, mesh->submeshes, mesh->submesh_count * sizeof *h->submeshes);
    memcpy(h->clips, m->clips, m->clip_count * sizeof *h->clips);
    for (size_t v = 0; v < nv; v++)
        for (int k = 0; k < 3; k++) {
            float p = sm->positions[3 * v + k];
            h->frame_positions[3 * v + k] = p;
            h->frame_positions[3 * (nv + v) + k] = p + (k == 1 ? lift : 0.0f);
            h->frame_normals[3 * v + k] = h->frame_normals[3 * (nv + v) + k] =
                sm->normals[3 * v + k];
        }
    for (size_t v = 0; v < nv; v++) { /* UV frame 0: (0, 0), frame 1: (1, 0.5) */
        h->frame_uvs[2 * (nv + v)] = 1.0f;
        h->frame_uvs[2 * (nv + v) + 1] = 0.5f;
    }
    ossa_submesh *framed = &h->submeshes[0];
    framed->frame_count = 2;
    framed->frame_positions = h->frame_positions;
    framed->frame_normals = h->frame_normals;
    framed->uv_frame_count = 2;
    framed->frame_uvs = h->frame_uvs;
    framed->flags |= OSSA_SUBMESH_TWO_SIDED;

    h->times[0] = 0.0f;
    h->times[1] = 0.5f;
    h->frames[0] = 0;
    h->frames[1] = 1;
    h->track = (ossa_vertex_track){.mesh = 0, .submesh = 0, .key_count = 2, .times = h->times,
                                   .frames = h->frames};
    ossa_clip *walk = &h->clips[0]; /* "walk", 1 s */
    walk->vertex_track_count = 1;
    walk->vertex_tracks = &h->track;
    walk->uv_track_count = 1;
    walk->uv_tracks = &h->track;

    h->meshes[0] = *mesh;
    h->meshes[0].submeshes = h->submeshes;
    h->meshes[1] = *mesh;
    h->meshes[1].flags |= OSSA_MESH_HIDDEN;

    h->mount = (ossa_mount){.name = "hand", .mesh = 0, .submesh = 0, .face = 0,
                            .barycentric = {1.0f / 3.0f, 1.0f / 3.0f, 1.0f / 3.0f},
                            .offset_r = {0.0f, 0.0f, 0.0f, 1.0f},
                            .offset_s = {1.0f, 1.0f, 1.0f}};
    h->model = *m;
    h->model.meshes = h->meshes;
    h->model.mesh_count = 2;
    h->model.clips = h->clips;
    h->model.mount_count = 1;
    h->model.mounts = &h->mount;
    return true;
}

static void free_hybrid(hybrid *h)
{
    free(h->submeshes);
    free(h->clips);
    free(h->frame_positions);
    free(h->frame_normals);
    free(h->frame_uvs);
}

static float distance(const float *a, const float *b)
{
    float d = 0.0f;
    for (int k = 0; k < 3; k++)
        d += (a[k] - b[k]) * (a[k] - b[k]);
    return sqrtf(d);
}

/* Part 0 at walk 0.25 s: the bind shape lifted by half of `lift`, in the skin layout. */
static void check_frames(const view_scene *s, const float *pos)
{
    const ossa_instance_part *p = &s->parts[0];
    CHECK(p->skin != NULL && p->frame_tracked && p->uv_tracked &&
          (p->source->flags & OSSA_SUBMESH_TWO_SIDED));
    const uint32_t *source = ossa_skin_mesh_source(p->skin);
    float worst = 0.0f;
    uint32_t checked = 0;
    for (uint32_t o = 0; o < p->output_count; o++) {
        const float *at = pos + 3 * ((size_t)s->first_vertex[0] + o);
        float want[3] = {0.0f, 0.0f, 0.0f};
        if (source[o] != OSSA_SKIN_PAD_VERTEX) {
            memcpy(want, p->source->positions + 3 * (size_t)source[o], sizeof want);
            want[1] += 0.5f * lift;
            checked++;
        }
        float d = distance(at, want);
        if (d > worst)
            worst = d;
    }
    CHECK(checked == p->source->vertex_count);
    CHECKF(worst < 1e-5f, "part 0 is %g from its half-lifted shape", (double)worst);
}

/* Parts [first, end) equal between two layouts of the same submeshes. */
static float parts_apart(const view_scene *s, uint32_t first, uint32_t end, const float *a,
                         const float *b)
{
    float worst = 0.0f;
    for (uint32_t i = first; i < end; i++) {
        const ossa_instance_part *p = &s->parts[i];
        for (uint32_t o = 0; o < p->output_count; o++) {
            size_t at = 3 * ((size_t)s->first_vertex[i] + o);
            float d = distance(a + at, b + at);
            if (d > worst)
                worst = d;
        }
    }
    return worst;
}

static void check_uvs(const view_scene *s)
{
    const ossa_instance_part *p = &s->parts[0];
    float *uvs = calloc(2 * (size_t)p->output_count, sizeof(float));
    if (!uvs)
        return;
    const uint32_t *source = ossa_skin_mesh_source(p->skin);
    view_scene_uvs(s, 0, false, uvs);
    uint32_t wrong = 0, wrong_bind = 0;
    for (uint32_t o = 0; o < p->output_count; o++) {
        bool pad = source[o] == OSSA_SKIN_PAD_VERTEX;
        float u = pad ? 0.0f : 0.5f, v = pad ? 0.0f : 0.25f; /* halfway from frame 0 to 1 */
        wrong += fabsf(uvs[2 * o] - u) > 1e-6f || fabsf(uvs[2 * o + 1] - v) > 1e-6f;
    }
    view_scene_uvs(s, 0, true, uvs);
    const ossa_submesh *sm = p->source;
    for (uint32_t o = 0; o < p->output_count; o++) {
        uint32_t v = source[o];
        bool has = v != OSSA_SKIN_PAD_VERTEX && sm->uv_set_count && sm->uvs;
        float bu = has ? sm->uvs[2 * (size_t)sm->uv_set_count * v] : 0.0f;
        float bv = has ? sm->uvs[2 * (size_t)sm->uv_set_count * v + 1] : 0.0f;
        wrong_bind += uvs[2 * o] != bu || uvs[2 * o + 1] != bv;
    }
    CHECKF(wrong == 0, "%u layout vertices with wrong animated UVs", wrong);
    CHECKF(wrong_bind == 0, "%u layout vertices with wrong bind UVs", wrong_bind);
    free(uvs);
}

/* The tripod starts at the centroid of face 0 of `shape` (file order), its axes `length` long
 * and at right angles. */
static void check_mount(const view_scene *s, bool bind, const float *shape)
{
    const float length = 0.05f;
    float lines[18];
    CHECK(view_scene_mount_lines(s, bind, length, lines) == 1);
    const uint32_t *tri = s->parts[0].source->indices;
    float centroid[3] = {0.0f, 0.0f, 0.0f};
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++)
            centroid[k] += shape[3 * (size_t)tri[c] + k] / 3.0f;
    float axis[3][3];
    for (int a = 0; a < 3; a++) {
        CHECKF(distance(lines + 6 * a, centroid) < 1e-5f, "axis %d starts %g off", a,
               (double)distance(lines + 6 * a, centroid));
        for (int k = 0; k < 3; k++)
            axis[a][k] = lines[6 * a + 3 + k] - lines[6 * a + k];
        CHECK(fabsf(sqrtf(axis[a][0] * axis[a][0] + axis[a][1] * axis[a][1] +
                          axis[a][2] * axis[a][2]) - length) < 1e-5f);
    }
    for (int a = 0; a < 3; a++) {
        int b = (a + 1) % 3;
        float dot = axis[a][0] * axis[b][0] + axis[a][1] * axis[b][1] + axis[a][2] * axis[b][2];
        CHECKF(fabsf(dot) < 1e-6f, "axes %d and %d: dot %g", a, b, (double)dot);
    }
}

/* What view_scene_prepare hands the renderer at walk 0.25 s (pos: every part skinned): GPU mode
 * with no part asked for still writes part 0, which plays frames; hidden parts are never
 * written; CPU mode writes every drawn part as view_scene_skin does; the uv-tracked part's UVs
 * and the mount tripod come along; the bind pose skins nothing and shows bind UVs. */
static void check_prepare(view_scene *s, const float *pos)
{
    const view_scene_frame *f = &s->frame;
    bool *none = calloc(s->part_count, sizeof *none);
    float *uvs = calloc(2 * (size_t)s->parts[0].output_count, sizeof(float));
    if (!none || !uvs) {
        free(none);
        free(uvs);
        CHECK(false);
        return;
    }
    view_scene_wants gpu = {.cpu_parts = none, .mount_length = 0.1f};
    memset(f->positions, 0, 3 * s->vertex_count * sizeof(float));
    view_scene_prepare(s, &gpu);
    CHECK(f->cpu[0] && f->vertex_frames[0] && f->cpu_any && f->mounts_placed == 1);
    size_t n0 = 3 * (size_t)s->parts[0].output_count;
    CHECK(memcmp(f->positions, pos, n0 * sizeof(float)) == 0);
    for (uint32_t i = 1; i < s->part_count; i++)
        CHECK(!f->cpu[i] && !f->vertex_frames[i]);
    view_scene_uvs(s, 0, false, uvs);
    CHECK(memcmp(f->uvs + 2 * (size_t)s->first_vertex[0], uvs, n0 / 3 * 2 * sizeof(float)) == 0);
    view_scene_wants cpu = {0};
    view_scene_prepare(s, &cpu);
    CHECK(f->mounts_placed == 0);
    for (uint32_t i = 0; i < s->part_count; i++) {
        CHECK(f->cpu[i] == !s->hidden[i]);
        size_t at = 3 * (size_t)s->first_vertex[i], n = 3 * (size_t)s->parts[i].output_count;
        if (f->cpu[i])
            CHECK(memcmp(f->positions + at, pos + at, n * sizeof(float)) == 0);
    }
    view_scene_wants bind = {.bind = true};
    view_scene_prepare(s, &bind);
    CHECK(!f->cpu_any && f->vertex_frames[0]);
    view_scene_uvs(s, 0, true, uvs);
    CHECK(memcmp(f->uvs + 2 * (size_t)s->first_vertex[0], uvs, n0 / 3 * 2 * sizeof(float)) == 0);
    free(none);
    free(uvs);
}

int main(void)
{
    ossa_model *demo = NULL;
    ossa_error err;
    CHECK(ossa_demo_model(&demo, &err) == OSSA_OK);
    hybrid h;
    view_scene plain, s;
    if (!demo || !make_hybrid(demo, &h) || !view_scene_init(&plain, demo)) {
        fprintf(stderr, "cannot build the models\n");
        return 1;
    }
    CHECK(view_scene_init(&s, &h.model));
    const ossa_model *m = &h.model;
    uint32_t first_submeshes = m->meshes[0].submesh_count;
    CHECK(s.part_count == 2 * first_submeshes && s.hidden_mesh_count == 1);
    for (uint32_t i = 0; i < s.part_count; i++) {
        CHECK(s.hidden[i] == (i >= first_submeshes));
        CHECK(((s.parts[i].source->flags & OSSA_SUBMESH_TWO_SIDED) != 0) == (i == 0));
    }
    CHECK(s.vertex_count == 2 * plain.vertex_count);

    size_t nv = s.vertex_count;
    float *pos = calloc(3 * nv, sizeof(float)), *nrm = calloc(3 * nv, sizeof(float));
    float *want = calloc(3 * nv, sizeof(float)), *want_n = calloc(3 * nv, sizeof(float));
    float *shape = calloc(3 * (size_t)m->meshes[0].submeshes[0].vertex_count, sizeof(float));
    if (!pos || !nrm || !want || !want_n || !shape)
        return 1;

    /* walk at 0.25 s: part 0 plays frames, the others are skinned as in the plain demo. */
    view_scene_pose(&s, 0, 0.25f);
    view_scene_pose(&plain, 0, 0.25f);
    CHECK(view_scene_part_vertex_track(&s, 0) == &h.track);
    for (uint32_t i = 1; i < s.part_count; i++)
        CHECK(view_scene_part_vertex_track(&s, i) == NULL);
    view_scene_skin(&s, 0, s.part_count, pos, nrm);
    view_scene_skin(&plain, 0, plain.part_count, want, want_n);
    check_frames(&s, pos);
    float apart = parts_apart(&s, 1, first_submeshes, pos, want);
    CHECKF(apart < 1e-6f, "skinned parts %g from the plain demo's", (double)apart);
    check_uvs(&s);
    check_prepare(&s, pos);
    CHECK(ossa_vertex_clip_eval(m, &m->clips[0], 0, 0, 0.25f, OSSA_WRAP_LOOP, shape, NULL,
                                m->meshes[0].submeshes[0].vertex_count, NULL) ==
          OSSA_OK);
    check_mount(&s, false, shape);
    check_mount(&s, true, m->meshes[0].submeshes[0].positions);
    /* The bounds see the lifted part and leave the hidden copy out. */
    float lo[3], hi[3], plain_lo[3], plain_hi[3];
    view_scene_bounds(&s, lo, hi);
    view_scene_bounds(&plain, plain_lo, plain_hi);
    CHECK(hi[1] >= plain_hi[1] - 1e-5f && lo[1] >= plain_lo[1] - 1e-5f);

    /* wave has no vertex track: part 0 is skinned again; its mount follows the skinned shape. */
    view_scene_pose(&s, 1, 0.6f);
    view_scene_pose(&plain, 1, 0.6f);
    CHECK(view_scene_part_vertex_track(&s, 0) == NULL);
    view_scene_skin(&s, 0, s.part_count, pos, nrm);
    view_scene_skin(&plain, 0, plain.part_count, want, want_n);
    apart = parts_apart(&s, 0, first_submeshes, pos, want);
    CHECKF(apart < 1e-6f, "wave: parts %g from the plain demo's", (double)apart);
    const ossa_instance_part *p0 = &s.parts[0];
    const uint32_t *source = ossa_skin_mesh_source(p0->skin);
    for (uint32_t o = 0; o < p0->output_count; o++)
        if (source[o] != OSSA_SKIN_PAD_VERTEX)
            memcpy(shape + 3 * (size_t)source[o], pos + 3 * ((size_t)s.first_vertex[0] + o),
                   3 * sizeof(float));
    check_mount(&s, false, shape);

    /* A fade names its heavier clip directly; none (or an index out of range) plays none. */
    ossa_instance_set_vertex_clip(s.instance, 0, 1.25f); /* wraps to 0.25 s */
    view_scene_sync(&s);
    CHECK(view_scene_part_vertex_track(&s, 0) == &h.track);
    CHECK(fabsf(s.vertex_time - 0.25f) < 1e-6f);
    ossa_instance_set_vertex_clip(s.instance, m->clip_count, 0.25f);
    view_scene_sync(&s);
    CHECK(view_scene_part_vertex_track(&s, 0) == NULL);
    ossa_instance_set_vertex_clip(s.instance, OSSA_INSTANCE_NO_CLIP, 0.0f);
    view_scene_sync(&s);
    CHECK(view_scene_part_vertex_track(&s, 0) == NULL);

    free(pos);
    free(nrm);
    free(want);
    free(want_n);
    free(shape);
    view_scene_free(&s);
    view_scene_free(&plain);
    free_hybrid(&h);
    ossa_model_destroy(demo);
    return test_finish("viewer-frames");
}
