/* The C3S reader on hand-made scenes (c3s_scenes.c): bone-space weights, disabled, hidden,
 * LOD-dead, two-sided and inverted elements, LOD ranges, texture vertex splits, UV and vertex
 * frames (raw and compressed), sequences with bone keys, triggers and links, surface mounts on
 * the animated mesh, unknown chunks, several models in one scene; and the errors that specific
 * breakages must give. */
#include <math.h>
#include <string.h>

#include "c3s_test_util.h"
#include "test_common.h"

static char text[1024];

static const float *pos_of(const ossa_submesh *sm, uint32_t v) { return sm->positions + 3 * v; }

static void check_vec(const float *got, float x, float y, float z, double tol, const char *what)
{
    CHECKF(fabs(got[0] - x) <= tol && fabs(got[1] - y) <= tol && fabs(got[2] - z) <= tol,
           "%s: (%g %g %g), expected (%g %g %g)", what, (double)got[0], (double)got[1],
           (double)got[2], (double)x, (double)y, (double)z);
}

static bool has_warning(const ossa_model *m, const char *part)
{
    for (uint32_t i = 0; i < m->warning_count; i++)
        if (strstr(m->warnings[i], part))
            return true;
    return false;
}

static void features(void)
{
    ct_buf b;
    ct_init(&b);
    ct_scene_features(&b);
    ossa_model *m = NULL;
    ossa_error err;
    ossa_status st = ct_load(&b, &m, &err);
    CHECKF(st == OSSA_OK, "features: %s", ossa_error_format(&err, text, sizeof text));
    ct_free(&b);
    if (!m)
        return;
    /* Skeleton: root, arm (parent root). */
    CHECK(m->bone_count == 2 && m->bones[1].parent == 0);
    CHECK(strcmp(m->bones[0].name, "root") == 0 && strcmp(m->bones[1].name, "arm") == 0);
    CHECKF(m->bind_disagreement < 1e-5, "bind disagreement %g", (double)m->bind_disagreement);
    if (m->bone_count == 2) {
        /* The arm's inverse bind takes v4 (1,2,0) back to its offsetPos (1,-1,0). */
        const float *q = m->bones[1].inv_bind_r, v[3] = {1, 2, 0};
        float uv[3] = {q[1] * v[2] - q[2] * v[1], q[2] * v[0] - q[0] * v[2],
                       q[0] * v[1] - q[1] * v[0]};
        float uuv[3] = {q[1] * uv[2] - q[2] * uv[1], q[2] * uv[0] - q[0] * uv[2],
                        q[0] * uv[1] - q[1] * uv[0]};
        float back[3];
        for (int k = 0; k < 3; k++)
            back[k] = v[k] + 2 * (q[3] * uv[k] + uuv[k]) + m->bones[1].inv_bind_t[k];
        check_vec(back, 1, -1, 0, 1e-6, "v4 in the arm's space");
    }
    /* Materials: skin (1 map, 75% opaque), cloth. */
    CHECK(m->material_count == 2);
    if (m->material_count == 2) {
        CHECK(m->materials[0].map_count == 1 &&
              strcmp(m->materials[0].maps[0].file, "skin.png") == 0);
        CHECK_NEAR(m->materials[0].diffuse[3], 0.75, 1e-6);
        CHECK(m->materials[1].map_count == 0 && strcmp(m->materials[1].name, "cloth") == 0);
    }
    /* Meshes: figure (mat 1 one-sided; mat 2 one-sided; mat 2 two-sided) and the hidden one. */
    CHECK(m->mesh_count == 2);
    if (m->mesh_count != 2)
        goto done;
    const ossa_mesh *vis = &m->meshes[0], *hid = &m->meshes[1];
    CHECK(strcmp(vis->name, "figure") == 0 && !(vis->flags & OSSA_MESH_HIDDEN));
    CHECK((hid->flags & OSSA_MESH_HIDDEN) && hid->submesh_count == 1);
    CHECK(vis->submesh_count == 3);
    if (vis->submesh_count != 3 || hid->submesh_count != 1)
        goto done;
    const ossa_submesh *s0 = &vis->submeshes[0], *s1 = &vis->submeshes[1], *s2 = &vis->submeshes[2];
    CHECK(s0->material == 0 && s1->material == 1 && s2->material == 1);
    CHECK(!(s0->flags & OSSA_SUBMESH_TWO_SIDED) && !(s1->flags & OSSA_SUBMESH_TWO_SIDED));
    CHECK(s2->flags & OSSA_SUBMESH_TWO_SIDED);
    CHECKF(s0->face_count == 2 && s1->face_count == 3 && s2->face_count == 1,
           "faces %u %u %u", s0->face_count, s1->face_count, s2->face_count);
    CHECK(hid->submeshes[0].face_count == 1 && hid->submeshes[0].material == 0);
    CHECK(has_warning(m, "5 trifaces"));
    /* Submesh 0: F1 (v1 v3 v2 counter-clockwise), F2 (v1 v4 v3) with v1 split by t1 / t5. */
    CHECKF(s0->vertex_count == 5, "submesh 0 has %u vertices", s0->vertex_count);
    static const uint32_t idx0[6] = {0, 1, 2, 3, 4, 1};
    CHECK(memcmp(s0->indices, idx0, sizeof idx0) == 0);
    if (s0->vertex_count == 5) {
        check_vec(pos_of(s0, 0), 0, 0, 0, 1e-6, "v1");
        check_vec(pos_of(s0, 1), 0, 1, 0, 1e-6, "v3");
        check_vec(pos_of(s0, 2), 1, 0, 0, 1e-6, "v2");
        check_vec(pos_of(s0, 3), 0, 0, 0, 1e-6, "v1 split");
        check_vec(pos_of(s0, 4), 1, 2, 0, 1e-6, "v4 from the arm's space");
        CHECK(s0->uv_set_count == 1);
        CHECK_NEAR(s0->uvs[0], 0.1, 1e-6);   /* t1 */
        CHECK_NEAR(s0->uvs[6], 0.5, 1e-6);   /* t5 */
        CHECK_NEAR(s0->uvs[7], 1.0, 1e-6);
        /* v4 is on the arm with full weight. */
        CHECK(s0->influence_start[5] - s0->influence_start[4] == 1);
        CHECK(s0->influences[s0->influence_start[4]].bone == 1);
        CHECK(s0->max_influences == 1);
        /* Normals sum the faces at a vertex (hidden ones too) in the model's winding: every
         * face at v4 (F2, F3, F8's range, F11) faces +Z. */
        check_vec(s0->normals + 3 * 4, 0, 0, 1, 1e-5, "v4 normal");
    }
    /* Submesh 1: F7 inverted keeps its ring order (v2 v3 v5), F8 took its 0.5 range (v3 v5 v4
     * after the turn), F11 dropped its disabled texture vertex. */
    if (s1->face_count == 3) {
        const float *a = pos_of(s1, s1->indices[0]), *c = pos_of(s1, s1->indices[1]);
        check_vec(a, 1, 0, 0, 1e-6, "F7 v2");
        check_vec(c, 0, 1, 0, 1e-6, "F7 v3");
        check_vec(pos_of(s1, s1->indices[3]), 0, 1, 0, 1e-6, "F8 v3");
        check_vec(pos_of(s1, s1->indices[4]), 2, 0, 0, 1e-6, "F8 v5");
        check_vec(pos_of(s1, s1->indices[5]), 1, 2, 0, 1e-6, "F8 v4");
        CHECK(s1->uv_set_count == 0);
        CHECK(s1->max_influences == 2);
    }
    /* Clips: bend (4 keys at 10/s), idle, empty. */
    CHECK(m->clip_count == 3);
    if (m->clip_count != 3)
        goto done;
    const ossa_clip *bend = &m->clips[0], *idle = &m->clips[1], *empty = &m->clips[2];
    CHECK(strcmp(bend->name, "bend") == 0 && strcmp(bend->group, "arms") == 0);
    CHECK_NEAR(bend->duration, 0.4, 1e-6);
    CHECK_NEAR(bend->frame_rate, 10.0, 1e-6);
    CHECK(bend->track_count == 2 && bend->vertex_track_count == 0);
    CHECK(bend->uv_track_count == 1 && s0->uv_frame_count == 3);
    CHECK(bend->trigger_count == 2);
    if (bend->trigger_count == 2) {
        CHECK_NEAR(bend->triggers[0].time, 0.1, 1e-6);
        CHECK(bend->triggers[0].param_size == 3 && bend->triggers[0].name[0] == 0);
        CHECK(memcmp(&bend->triggers[0].command, "SND ", 4) == 0);
        CHECK_NEAR(bend->triggers[1].time, 0.2, 1e-6);
        CHECK(strcmp(bend->triggers[1].name, "step") == 0);
    }
    CHECK(bend->link_count == 1 && bend->links[0] == 1);
    CHECK(idle->link_count == 1 && idle->links[0] == 0 && idle->track_count == 0);
    CHECK_NEAR(idle->duration, 0.2, 1e-6);
    CHECK(empty->track_count == 0 && fabsf(empty->duration - 0.25f) < 1e-6f);
    /* UVs at key 2 come from the second frame (u + 0.5). */
    if (s0->vertex_count == 5) {
        float uv[10];
        CHECK(ossa_uv_clip_eval(m, bend, 0, 0, 0.2f, OSSA_WRAP_LOOP, uv, 5, NULL) ==
              OSSA_OK);
        CHECK_NEAR(uv[0], 0.6, 1e-6);
        CHECK(ossa_uv_clip_eval(m, bend, 0, 0, 0.1f, OSSA_WRAP_LOOP, uv, 5, NULL) ==
              OSSA_OK);
        CHECK_NEAR(uv[0], 0.1, 1e-6);
        /* The arm turned 10 degrees more at key 1: v4 = (0,1,0) + Rz(100 deg)(1,-1,0). */
        float p[15], n[15];
        float c100 = cosf(1.7453293f), s100 = sinf(1.7453293f);
        CHECK(ct_pose_submesh(m, bend, 0.1f, 0, 0, p, n));
        check_vec(p + 12, c100 + s100, 1.0f + s100 - c100, 0, 1e-5, "v4 at key 1");
        /* Key 3 also lifts the root by z = 1. */
        CHECK(ct_pose_submesh(m, bend, 0.3f, 0, 0, p, n));
        check_vec(p, 0, 0, 1, 1e-5, "v1 at key 3");
    }
    /* Mounts: "hat" on F2 (v1 v3 v4, turned to v1 v4 v3); "lost" was on a dropped face. */
    CHECK(m->mount_count == 1 && has_warning(m, "surface mounts"));
    if (m->mount_count == 1 && s0->vertex_count == 5) {
        const ossa_mount *hat = &m->mounts[0];
        CHECK(strcmp(hat->name, "hat") == 0 && hat->mesh == 0 && hat->submesh == 0 &&
              hat->face == 1);
        float t[3], r[4], s[3];
        CHECK(ossa_mount_transform(m, 0, s0->positions, s0->vertex_count, t, r, s, NULL) ==
              OSSA_OK);
        /* P = 0.2 v1 + 0.3 v3 + 0.5 v4 = (0.5, 1.3, 0) (the coordinates follow the file's ring
         * v1 v3 v4); Y is the face normal +Z, so the offset (0, 0.1, 0) lifts it along z; Z
         * points from P to v1. */
        check_vec(t, 0.5f, 1.3f, 0.1f, 1e-5, "mount origin");
        check_vec(s, 1, 1, 1, 0, "mount scale");
        float qv[3] = {r[0], r[1], r[2]}, w = r[3], axis_y[3], axis_z[3];
        /* rotate (0,1,0) and (0,0,1) by r */
        for (int which = 0; which < 2; which++) {
            float v[3] = {0, which == 0 ? 1.0f : 0.0f, which == 1 ? 1.0f : 0.0f};
            float uv[3] = {qv[1] * v[2] - qv[2] * v[1], qv[2] * v[0] - qv[0] * v[2],
                           qv[0] * v[1] - qv[1] * v[0]};
            float uuv[3] = {qv[1] * uv[2] - qv[2] * uv[1], qv[2] * uv[0] - qv[0] * uv[2],
                            qv[0] * uv[1] - qv[1] * uv[0]};
            float *out = which == 0 ? axis_y : axis_z;
            for (int k = 0; k < 3; k++)
                out[k] = v[k] + 2 * (w * uv[k] + uuv[k]);
        }
        check_vec(axis_y, 0, 0, 1, 1e-5, "mount Y");
        float len = sqrtf(0.25f + 1.69f);
        check_vec(axis_z, -0.5f / len, -1.3f / len, 0, 1e-5, "mount Z");
        float p[15], n[15];
        CHECK(ct_pose_submesh(m, bend, 0.1f, 0, 0, p, n));
        float t2[3], r2[4], sc2[3];
        CHECK(ossa_mount_transform(m, 0, p, 5, t2, r2, sc2, NULL) == OSSA_OK);
        CHECK(fabsf(t2[0] - t[0]) > 1e-3f); /* it follows the arm */
    }
done:
    ossa_model_destroy(m);
}

static void frames(void)
{
    ct_buf b;
    ct_init(&b);
    ct_scene_frames(&b);
    ossa_model *m = NULL;
    ossa_error err;
    ossa_status st = ct_load(&b, &m, &err);
    CHECKF(st == OSSA_OK, "frames: %s", ossa_error_format(&err, text, sizeof text));
    ct_free(&b);
    if (!m)
        return;
    CHECK(m->bone_count == 2);
    if (m->bone_count == 2) {
        CHECK(strcmp(m->bones[0].name, "root") == 0);
        CHECKF(strcmp(m->bones[1].name, "stick:root") == 0, "second root is '%s'",
               m->bones[1].name);
        CHECK(m->bones[0].parent == -1 && m->bones[1].parent == -1);
    }
    CHECK(m->mesh_count == 2 && m->clip_count == 3 && m->material_count == 1);
    if (m->mesh_count != 2 || m->clip_count != 3)
        goto done;
    const ossa_submesh *blob = &m->meshes[0].submeshes[0];
    const ossa_submesh *stick = &m->meshes[1].submeshes[0];
    CHECK(strcmp(m->meshes[1].name, "stick") == 0 && stick->material == 0);
    CHECK(blob->material == -1 && blob->vertex_count == 4 && blob->frame_count == 4);
    /* Render order: v1 v3 v2 (F1 turned), then v4. */
    check_vec(pos_of(blob, 0), 0, 0, 0, 1e-6, "v1 base");
    check_vec(pos_of(blob, 3), 2, 2, 0, 1e-6, "v4 base (compressed)");
    const ossa_clip *morph = &m->clips[0], *mixed = &m->clips[1], *spin = &m->clips[2];
    CHECK(morph->vertex_track_count == 1 && morph->track_count == 0);
    CHECK_NEAR(morph->duration, 1.5, 1e-6);
    if (morph->vertex_track_count == 1) {
        const ossa_vertex_track *tr = &morph->vertex_tracks[0];
        CHECK(tr->key_count == 3 && tr->frames[0] == 0 && tr->frames[1] == 1 && tr->frames[2] == 2);
    }
    float p[12], n[12];
    CHECK(ossa_vertex_clip_eval(m, morph, 0, 0, 0.25f, OSSA_WRAP_LOOP, p, n, 4, NULL) ==
          OSSA_OK);
    check_vec(p, 0, 0, 0.5f, 1e-6, "v1 half way to f3");
    check_vec(p + 9, 2, 2, 1, 1e-6, "v4 half way to f4");
    CHECK(ossa_vertex_clip_eval(m, morph, 0, 0, 1.25f, OSSA_WRAP_LOOP, p, n, 4, NULL) ==
          OSSA_OK);
    check_vec(p, 0, 0, 0.5f, 1e-6, "v1 looping back");
    check_vec(p + 9, 2, 2, 0, 1e-6, "v4 at its base");
    CHECK(ossa_vertex_clip_eval(m, morph, 0, 0, 1.25f, OSSA_WRAP_CLAMP, p, n, 4, NULL) ==
          OSSA_OK);
    check_vec(p, 0, 0, 1, 1e-6, "v1 held at the last key");
    /* Normals of the blob at f3 still face along z. */
    CHECK(ossa_vertex_clip_eval(m, morph, 0, 0, 0.5f, OSSA_WRAP_LOOP, p, n, 4, NULL) ==
          OSSA_OK);
    CHECKF(fabsf(fabsf(n[2]) - 1.0f) < 1e-5f, "normal z %g", (double)n[2]);
    /* Outputs one vertex short are refused, named with both sizes, and left untouched. */
    for (int i = 0; i < 12; i++)
        p[i] = n[i] = -3.0f;
    ossa_error_clear(&err);
    CHECK(ossa_vertex_clip_eval(m, morph, 0, 0, 0.5f, OSSA_WRAP_LOOP, p, n, 3, &err) ==
          OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err.message, "out_positions / out_normals hold 3 vertices") &&
           strstr(err.message, "has 4"), "%s", err.message);
    ossa_error_clear(&err);
    CHECK(ossa_uv_clip_eval(m, morph, 0, 0, 0.5f, OSSA_WRAP_LOOP, p, 3, &err) ==
          OSSA_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(err.message, "out_uvs holds 3 vertices") && strstr(err.message, "has 4"), "%s",
           err.message);
    bool untouched = true;
    for (int i = 0; i < 12; i++)
        untouched &= p[i] == -3.0f && n[i] == -3.0f;
    CHECK(untouched);
    /* mixed: a bone track for root and frames {base, f3 f4}. */
    CHECK(mixed->track_count == 1 && mixed->vertex_track_count == 1);
    if (mixed->vertex_track_count == 1)
        CHECK(mixed->vertex_tracks[0].frames[0] == 3 && mixed->vertex_tracks[0].frames[1] == 1);
    CHECK(spin->track_count == 1 && spin->tracks[0].bone == 1);
    CHECK(ct_pose_submesh(m, spin, 0.0f, 1, 0, p, n));
    /* v2 (1,0,0) turned a quarter about Y lands on (0,0,-1); render order v1 v3 v2. */
    check_vec(p + 6, 0, 0, -1, 1e-5, "stick v2 turned");
done:
    ossa_model_destroy(m);
}

/* A scene built by edit(b) must fail with status st, its message mentioning `part`. */
static void expect(const char *label, const ct_buf *b, ossa_status want, const char *part)
{
    ossa_model *m = NULL;
    ossa_error err;
    ossa_status st = ct_load(b, &m, &err);
    CHECKF(st == want && !m, "%s: %s, expected %s (%s)", label, ossa_status_name(st),
           ossa_status_name(want), err.message);
    CHECKF(!part || strstr(err.message, part), "%s: message \"%s\" lacks \"%s\"", label,
           err.message, part);
    CHECKF(st == OSSA_OK || (err.offset >= 0 && (size_t)err.offset <= b->size) ||
               want == OSSA_ERR_VALUE,
           "%s: offset %lld", label, (long long)err.offset);
    ossa_model_destroy(m);
}

static void errors(void)
{
    ct_buf b;
    /* No SHDR. */
    ct_init(&b);
    ct_bytes(&b, "RIFF", 4);
    ct_u32(&b, 0);
    ct_bytes(&b, "C3SB", 4);
    size_t model = ct_begin_model(&b, "x");
    ct_end(&b, model);
    ct_finish(&b);
    expect("no header", &b, OSSA_ERR_FORMAT, "SHDR");
    ct_free(&b);
    /* Two SHDRs. */
    ct_start_scene(&b);
    size_t h = ct_begin(&b, "SHDR");
    ct_u32(&b, 0x10000);
    ct_str(&b, "");
    ct_str(&b, "");
    ct_str(&b, "");
    ct_end(&b, h);
    ct_finish(&b);
    expect("two headers", &b, OSSA_ERR_FORMAT, "second SHDR");
    ct_free(&b);
    /* RIFF length beyond the file. */
    ct_start_scene(&b);
    ct_finish(&b);
    b.data[4] += 2;
    expect("long RIFF", &b, OSSA_ERR_TRUNCATED, "RIFF length");
    ct_free(&b);
    /* Scene version 2.0; model version 0.5. */
    ct_start_scene(&b);
    ct_finish(&b);
    b.data[12 + 8 + 2] = 2;
    expect("scene version", &b, OSSA_ERR_VERSION, "scene version 2.0");
    ct_free(&b);
    ct_start_scene(&b);
    model = ct_begin(&b, "SMDL");
    ct_u32(&b, 0x5);
    ct_str(&b, "m");
    ct_end(&b, model);
    ct_finish(&b);
    expect("model version", &b, OSSA_ERR_VERSION, "model version 0.5");
    ct_free(&b);
    /* A subchunk version compdword of six bytes. */
    ct_start_scene(&b);
    model = ct_begin_model(&b, "m");
    size_t c = ct_begin(&b, "TVRT");
    ct_bytes(&b, "\x81\x80\x80\x80\x80\x00", 6);
    ct_str(&b, "");
    ct_cdw(&b, 0);
    ct_end(&b, c);
    ct_end(&b, model);
    ct_finish(&b);
    expect("six-byte compdword", &b, OSSA_ERR_FORMAT, "longer than 5 bytes");
    ct_free(&b);
    /* A name without its NUL. */
    ct_start_scene(&b);
    model = ct_begin_model(&b, "m");
    c = ct_begin(&b, "BONE");
    ct_cdw(&b, 1);
    ct_bytes(&b, "abcd", 4);
    ct_end(&b, c);
    ct_end(&b, model);
    ct_finish(&b);
    expect("unterminated name", &b, OSSA_ERR_TRUNCATED, "NUL");
    ct_free(&b);
    /* Lies and bad indices at chosen sites of the features scene. */
    static const struct {
        ct_site kind;
        uint32_t site, value;
        ossa_status want;
        const char *part;
    } lies[] = {
        {CT_INDEX, 0, 2, OSSA_ERR_RANGE, "material texture 2 not in 1..1"},
        {CT_COUNT, 0, 0x0FFFFFFF, OSSA_ERR_RANGE, "exceeds the limit"},
        {CT_COUNT, 0, 200, OSSA_ERR_TRUNCATED, "only"},
    };
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        ct_init(&b);
        b.lie_kind = (int)lies[i].kind;
        b.lie_site = lies[i].site;
        b.lie_value = lies[i].value;
        ct_scene_features(&b);
        expect("lie", &b, lies[i].want, lies[i].part);
        ct_free(&b);
    }
    /* NaN in the first float (the skin material's transparency). */
    ct_init(&b);
    b.lie_kind = CT_FLOAT;
    b.lie_site = 0;
    b.lie_float = NAN;
    ct_scene_features(&b);
    expect("NaN", &b, OSSA_ERR_VALUE, "not a finite number");
    ct_free(&b);
    /* A C3S joined to other files of a model set is refused. */
}

/* One bone (scale s) and one triangle whose first vertex has two weights with offsets (0,0,0)
 * and (2,0,0): the C3S form puts it at their weighted mean, (s, 0, 0); the model's one bind
 * vertex can only agree with both offsets within 1 x s, which is what it reports. */
static void disagreement(float scale)
{
    ct_buf b;
    ct_init(&b);
    ct_start_scene(&b);
    size_t model = ct_begin_model(&b, "odd");
    static const float q[4] = {0, 0, 0, 1}, t[3] = {0, 0, 0};
    const float s[3] = {scale, scale, scale};
    static const float offsets[4][3] = {{0, 0, 0}, {2, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int v = 0; v < 3; v++) {
        size_t c = ct_sub(&b, "VRTX", "", 0);
        ct_f32(&b, 0);
        ct_cdw(&b, 0);
        ct_cdw(&b, 0);
        ct_cdw(&b, v == 0 ? 2 : 1);
        for (int w = 0; w < (v == 0 ? 2 : 1); w++) {
            ct_f32(&b, v == 0 ? 0.5f : 1.0f);
            ct_f32v(&b, offsets[v == 0 ? w : v + 1], 3);
            ct_cdw(&b, 1);
        }
        ct_end(&b, c);
    }
    for (uint32_t e = 0; e < 3; e++) {
        size_t c = ct_sub(&b, "EDGE", "", 0);
        ct_f32(&b, 0);
        ct_cdw(&b, (e + 1) % 3 + 1);
        ct_cdw(&b, e + 1);
        ct_cdw(&b, 0);
        ct_cdw(&b, 0);
        ct_end(&b, c);
    }
    size_t c = ct_sub(&b, "TRIF", "", 0);
    ct_f32(&b, 0);
    ct_cdw(&b, 0);
    for (uint32_t e = 1; e <= 3; e++)
        ct_cdw(&b, e);
    for (int k = 0; k < 4; k++)
        ct_cdw(&b, 0);
    ct_end(&b, c);
    c = ct_sub(&b, "BONE", "only", 0);
    ct_ocs(&b, s, q, t);
    ct_cdw(&b, 0);
    ct_cdw(&b, 0);
    ct_end(&b, c);
    ct_end(&b, model);
    ct_finish(&b);
    ossa_model *m = NULL;
    ossa_error err;
    CHECKF(ct_load(&b, &m, &err) == OSSA_OK, "disagreement: %s", err.message);
    if (m) {
        CHECK_NEAR(m->bind_disagreement, scale, 1e-6);
        const ossa_submesh *sm = &m->meshes[0].submeshes[0];
        check_vec(sm->positions, scale, 0, 0, 1e-6, "weighted mean");
        CHECK(has_warning(m, "non-unit base scale") == (scale != 1.0f));
    }
    ossa_model_destroy(m);
    ct_free(&b);
}

int main(void)
{
    disagreement(1.0f);
    disagreement(2.0f);
    features();
    frames();
    errors();
    return test_finish("c3s-scene");
}
