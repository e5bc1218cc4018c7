/* The viewer's two skinning paths. Without GL: the scene's SIMD skinning (in its influence-
 * partitioned layout) equals the scalar reference, and its bind-vertex layout (what the GPU path
 * uploads) names the same vertices and influences. With ossa-view: screenshots of the demo walk
 * (and of Cally when the shared assets are there) at a moving time with --skinning cpu and gpu
 * agree: at least 99.5% of the pixels within 8/255 in every channel (the two paths round
 * differently, so a silhouette pixel may flip). A model whose influences carry their own points
 * (the demo written as SKM with every influence's point moved off the bind vertex) is skinned
 * exactly on both paths: the shader's formula with the scene's gaps, evaluated here, equals the
 * scalar reference, and the two screenshots agree. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/reference.h"
#include "ossa/sample.h"
#include "ossa/skin.h"
#include "demo.h"
#include "ossa/load.h"
#include "ossa/write.h"
#include "scene.h"
#include "test_common.h"
#include "view_harness.h"

static void check_scene_skinning(void)
{
    ossa_model *m = NULL;
    ossa_error err;
    if (ossa_demo_model(&m, &err) != OSSA_OK) {
        CHECKF(false, "demo model: %s", err.message);
        return;
    }
    view_scene s;
    CHECK(view_scene_init(&s, m));
    uint32_t walk = ossa_model_find_clip(m, "walk");
    CHECK(walk != OSSA_NOT_FOUND && s.part_count > 0);
    const ossa_clip *clip = walk != OSSA_NOT_FOUND ? &m->clips[walk] : NULL;
    view_scene_pose(&s, walk, 0.3f);

    /* The scalar pose of anim.h gives the same palette as the runtime jobs. */
    size_t nb = m->bone_count;
    float *lt = calloc(3 * nb, sizeof(float)), *lr = calloc(4 * nb, sizeof(float));
    float *ls = calloc(3 * nb, sizeof(float)), *mt = calloc(3 * nb, sizeof(float));
    float *mr = calloc(4 * nb, sizeof(float)), *ms = calloc(3 * nb, sizeof(float));
    float *palette = calloc(12 * nb, sizeof(float));
    float *pos = calloc(3 * s.vertex_count, sizeof(float));
    float *nrm = calloc(3 * s.vertex_count, sizeof(float));
    float *bind = calloc(3 * s.vertex_count, sizeof(float));
    float *weights = calloc(8 * s.vertex_count, sizeof(float));
    uint16_t *bones = calloc(8 * s.vertex_count, sizeof(uint16_t));
    uint32_t *most = calloc(s.part_count, sizeof(uint32_t));
    CHECK(lt && lr && ls && mt && mr && ms && palette && pos && nrm && bind && weights && bones &&
          most);
    if (!(lt && lr && ls && mt && mr && ms && palette && pos && nrm && bind && weights && bones &&
          most))
        goto done;
    ossa_pose_rest(m, lt, lr, ls, m->bone_count, NULL);
    ossa_sample_clip(m, clip, ossa_clip_wrap_time(clip, 0.3f), OSSA_WRAP_LOOP, lt, lr, ls,
                     m->bone_count, NULL);
    ossa_local_to_model(m, lt, lr, ls, mt, mr, ms, m->bone_count, NULL);
    ossa_skin_palette(m, mt, mr, ms, palette, m->bone_count, NULL);
    double worst = 0.0;
    for (size_t i = 0; i < 12 * nb; i++)
        worst = fmax(worst, fabs((double)palette[i] - (double)s.palette[i]));
    CHECKF(worst < 1e-4, "palette differs by %g", worst);
    for (size_t b = 0; b < nb; b++)
        CHECK(fabsf(s.joints[3 * b + 1] - mt[3 * b + 1]) < 1e-4f);

    view_scene_skin(&s, 0, s.part_count, pos, nrm);
    view_scene_bind_vertices(&s, bind, NULL, NULL, bones, weights, most);
    double worst_p = 0.0, worst_n = 0.0;
    size_t checked = 0;
    for (uint32_t i = 0; i < s.part_count; i++) {
        const ossa_instance_part *p = &s.parts[i];
        const ossa_submesh *sm = p->source;
        CHECK(p->skin != NULL);
        if (!p->skin)
            continue;
        CHECK(most[i] == sm->max_influences);
        float *ref_p = calloc(3 * (size_t)sm->vertex_count, sizeof(float));
        float *ref_n = calloc(3 * (size_t)sm->vertex_count, sizeof(float));
        if (!ref_p || !ref_n) {
            free(ref_p);
            free(ref_n);
            CHECK(false);
            continue;
        }
        ossa_skin_submesh_scalar(sm, palette, ref_p, ref_n, sm->vertex_count, NULL);
        const uint32_t *remap = ossa_skin_mesh_remap(p->skin);
        for (uint32_t v = 0; v < sm->vertex_count; v++) {
            size_t o = (size_t)s.first_vertex[i] + remap[v];
            uint32_t a = sm->influence_start[v], e = sm->influence_start[v + 1];
            for (int k = 0; k < 3; k++) {
                worst_p = fmax(worst_p, fabs((double)pos[3 * o + k] - ref_p[3 * v + k]));
                worst_n = fmax(worst_n, fabs((double)nrm[3 * o + k] - ref_n[3 * v + k]));
                CHECK(bind[3 * o + k] == sm->positions[3 * (size_t)v + k]);
            }
            for (uint32_t k = 0; k < 8 && a + k < e; k++)
                CHECK(bones[8 * o + k] == sm->influences[a + k].bone &&
                      weights[8 * o + k] == sm->influences[a + k].weight);
            if (a == e)
                CHECK(bones[8 * o] == VIEW_NO_BONE);
            checked++;
        }
        /* Triangles in layout order name the same vertices as the file's. */
        for (uint32_t t = 0; t < p->index_count; t++)
            CHECK(p->indices[t] == remap[sm->indices[t]]);
        free(ref_p);
        free(ref_n);
    }
    fprintf(stderr, "scene: %zu vertices (%zu in the layout), %s, worst position %g normal %g\n",
            checked, s.vertex_count, view_scene_kernel_name(&s), worst_p, worst_n);
    CHECK(checked > 0);
    CHECKF(worst_p < 1e-4 && worst_n < 1e-4, "SIMD vs scalar: %g %g", worst_p, worst_n);
    CHECK(strncmp(view_scene_kernel_name(&s), "cpu", 3) == 0);
    /* without OSSA_SKIN_KERNEL the kernel is the calibration's, and the instance runs it */
    const char *forced = getenv("OSSA_SKIN_KERNEL");
    if (!forced || !*forced)
        CHECKF(strstr(view_scene_kernel_name(&s), " (measured)") != NULL, "%s",
               view_scene_kernel_name(&s));
    CHECK(ossa_instance_kernel(s.instance) == s.kernel);

    /* The bind bones sit where the inverse bind matrices put them. */
    float lo[3], hi[3];
    view_scene_bind_bounds(&s, lo, hi);
    for (size_t b = 0; b < nb; b++)
        for (int k = 0; k < 3; k++)
            CHECK(s.bind_joints[3 * b + k] > lo[k] - 1.0f && s.bind_joints[3 * b + k] < hi[k] + 1.0f);
done:
    free(lt);
    free(lr);
    free(ls);
    free(mt);
    free(mr);
    free(ms);
    free(palette);
    free(pos);
    free(nrm);
    free(bind);
    free(weights);
    free(bones);
    free(most);
    view_scene_free(&s);
    ossa_model_destroy(m);
}

/* The demo with each influence's point moved off its bind vertex by up to 6% of the model's
 * height and its weights scaled by 0.9, written as dir/exact.skm (+ .skp). */
static bool write_exact_model(const char *dir)
{
    ossa_model *m = NULL;
    ossa_error err;
    if (ossa_demo_model(&m, &err) != OSSA_OK)
        return false;
    bool ok = true;
    float **points = calloc(m->mesh_count * 64u + 1, sizeof *points);
    uint32_t made = 0;
    for (uint32_t i = 0; i < m->mesh_count && points; i++)
        for (uint32_t j = 0; j < m->meshes[i].submesh_count && made < 64u * m->mesh_count; j++) {
            ossa_submesh *sm = (ossa_submesh *)&m->meshes[i].submeshes[j];
            uint32_t total = sm->vertex_count ? sm->influence_start[sm->vertex_count] : 0;
            float *u = calloc(3 * (size_t)total + 1, sizeof *u);
            ok = ok && u;
            if (!u)
                continue;
            points[made++] = u;
            for (uint32_t v = 0; v < sm->vertex_count; v++)
                for (uint32_t k = sm->influence_start[v]; k < sm->influence_start[v + 1]; k++) {
                    ((ossa_influence *)sm->influences)[k].weight *= 0.9f;
                    float w = sm->influences[k].weight;
                    for (int c = 0; c < 3; c++)
                        u[3 * k + (uint32_t)c] =
                            w * (sm->positions[3 * v + (uint32_t)c] +
                                 0.1f * sinf(1.7f * (float)(k + 3 * (uint32_t)c) + (float)v));
                }
            sm->influence_points = u;
        }
    ok = ok && points && ossa_write_skm(m, dir, "exact",
                                        &(ossa_skm_write_options){.frame_rate = 30.0f}, &err) == OSSA_OK;
    CHECKF(ok, "exact model: %s", err.message);
    for (uint32_t k = 0; k < made; k++)
        free(points[k]);
    free(points);
    ossa_model_destroy(m);
    return ok;
}

/* Without GL: the GPU path's inputs (bind vertices, weights, gaps) through mesh.vert's formula
 * equal the scalar reference on the exact model, and the CPU path's skin jobs too. */
static void check_exact_scene(const char *skm)
{
    ossa_model *m = NULL;
    ossa_error err;
    CHECKF(ossa_load_file(skm, NULL, &m, &err) == OSSA_OK, "%s: %s", skm, err.message);
    if (!m)
        return;
    view_scene s;
    CHECK(view_scene_init(&s, m));
    uint32_t walk = ossa_model_find_clip(m, "walk");
    CHECK(walk != OSSA_NOT_FOUND);
    view_scene_pose(&s, walk, 0.3f);
    size_t n = s.vertex_count ? s.vertex_count : 1;
    float *pos = calloc(3 * n, sizeof(float)), *nrm = calloc(3 * n, sizeof(float));
    float *bind = calloc(3 * n, sizeof(float)), *weights = calloc(8 * n, sizeof(float));
    float *gaps = calloc(24 * n, sizeof(float));
    uint16_t *bones = calloc(8 * n, sizeof(uint16_t));
    CHECK(pos && nrm && bind && weights && gaps && bones);
    uint32_t exact_parts = 0;
    double worst_cpu = 0, worst_gpu = 0, size = 0;
    if (pos && nrm && bind && weights && gaps && bones) {
        view_scene_skin(&s, 0, s.part_count, pos, nrm);
        view_scene_bind_vertices(&s, bind, NULL, NULL, bones, weights, NULL);
        view_scene_bind_gaps(&s, gaps);
        for (uint32_t i = 0; i < s.part_count; i++) {
            const ossa_instance_part *p = &s.parts[i];
            const ossa_submesh *sm = p->source;
            if (!p->skin)
                continue;
            exact_parts += (uint32_t)ossa_skin_mesh_exact(p->skin);
            float *ref = calloc(3 * (size_t)sm->vertex_count + 1, sizeof(float));
            if (!ref)
                continue;
            ossa_skin_submesh_scalar(sm, s.palette, ref, NULL, sm->vertex_count, NULL);
            const uint32_t *remap = ossa_skin_mesh_remap(p->skin);
            for (uint32_t v = 0; v < sm->vertex_count; v++) {
                size_t o = (size_t)s.first_vertex[i] + remap[v];
                double g[3] = {0, 0, 0};
                for (uint32_t k = 0; k < 8 && bones[8 * o] != VIEW_NO_BONE; k++) {
                    const float *mt = s.palette + 12 * (size_t)bones[8 * o + k];
                    const float *b = bind + 3 * o, *d = gaps + 24 * o + 3 * k;
                    for (int r = 0; r < 3; r++)
                        g[r] += weights[8 * o + k] * (mt[4 * r] * b[0] + mt[4 * r + 1] * b[1] +
                                                      mt[4 * r + 2] * b[2] + mt[4 * r + 3]) +
                                mt[4 * r] * d[0] + mt[4 * r + 1] * d[1] + mt[4 * r + 2] * d[2];
                }
                for (int r = 0; r < 3; r++) {
                    worst_gpu = fmax(worst_gpu, fabs(g[r] - ref[3 * v + r]));
                    worst_cpu = fmax(worst_cpu, fabs(pos[3 * o + r] - ref[3 * v + r]));
                    size = fmax(size, fabs(ref[3 * v + r]));
                }
            }
            free(ref);
        }
    }
    fprintf(stderr, "exact model: %u exact parts, worst cpu %g gpu formula %g (size %g)\n",
            exact_parts, worst_cpu, worst_gpu, size);
    CHECK(exact_parts > 0);
    CHECKF(worst_cpu <= 1e-5 * size && worst_gpu <= 1e-5 * size, "cpu %g, gpu %g", worst_cpu,
           worst_gpu);
    free(pos);
    free(nrm);
    free(bind);
    free(weights);
    free(gaps);
    free(bones);
    view_scene_free(&s);
    ossa_model_destroy(m);
}

static bool shoot(harness *h, const char *name, const char *const *extra, const char *skinning,
                  harness_image *img)
{
    char png[600], err[4096];
    harness_file(h, name, png, sizeof png);
    const char *args[24] = {"--screenshot", png, "--skinning", skinning};
    size_t n = 4;
    for (size_t i = 0; extra[i] && n + 1 < sizeof args / sizeof args[0]; i++)
        args[n++] = extra[i];
    args[n] = NULL;
    int rc = harness_run(h, args, err, sizeof err);
    CHECKF(rc == 0, "%s: exit %d: %s", name, rc, err);
    /* The GPU shot must come from the shader, not from a silent fall-back to the CPU. */
    CHECKF(strstr(err, "GPU skinning is off") == NULL, "%s: %s", name, err);
    return rc == 0 && harness_read_png(png, img);
}

/* Pixels whose channels all lie within tolerance of the other image's. */
static size_t within(const harness_image *a, const harness_image *b, int tolerance)
{
    size_t n = (size_t)a->width * (size_t)a->height, count = 0;
    for (size_t i = 0; i < n; i++) {
        bool close = true;
        for (int k = 0; k < 3; k++)
            close = close && abs((int)a->rgb[3 * i + k] - (int)b->rgb[3 * i + k]) <= tolerance;
        count += close;
    }
    return count;
}

static void compare_paths(harness *h, const char *label, const char *const *extra)
{
    harness_image cpu = {0}, gpu = {0};
    char a[64], b[64];
    snprintf(a, sizeof a, "%s-cpu.png", label);
    snprintf(b, sizeof b, "%s-gpu.png", label);
    if (shoot(h, a, extra, "cpu", &cpu) && shoot(h, b, extra, "gpu", &gpu)) {
        CHECK(cpu.width == gpu.width && cpu.height == gpu.height);
        size_t total = (size_t)cpu.width * (size_t)cpu.height;
        size_t fg = harness_foreground(&cpu), same = within(&cpu, &gpu, 8);
        fprintf(stderr, "%s: %zu of %zu pixels drawn; cpu and gpu agree within 8/255 on %zu (%.3f%%)\n",
                label, fg, total, same, 100.0 * (double)same / (double)total);
        CHECKF(fg > total / 50, "%s: only %zu pixels drawn", label, fg);
        CHECKF(same * 1000 >= total * 995, "%s: %zu of %zu pixels agree", label, same, total);
    }
    harness_image_free(&cpu);
    harness_image_free(&gpu);
}

static bool write_file(const harness *h, const char *name, const char *text)
{
    char path[600];
    FILE *f = fopen(harness_file(h, name, path, sizeof path), "w");
    bool ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        ok = false;
    CHECKF(ok, "cannot write %s", path);
    return ok;
}

/* A chain of 10 bones whose rest pose lies away from their bind pose (so skinning moves
 * vertices) and two cubes: the first with 9 influences on its vertices (more than mesh.vert
 * takes: it stays on the CPU in GPU mode), the second with 3. Both paths draw the same image and
 * the GPU one says which submesh it left to the CPU. */
static void check_many_influences(harness *h)
{
    static char xml[64 * 1024];
    size_t at = 0;
    at += (size_t)snprintf(xml + at, sizeof xml - at,
                           "<HEADER MAGIC=\"XSF\" VERSION=\"910\"/>\n<SKELETON NUMBONES=\"10\">\n");
    for (int b = 0; b < 10; b++) {
        char child[64] = "";
        if (b < 9)
            snprintf(child, sizeof child, "<CHILDID>%d</CHILDID>", b + 1);
        at += (size_t)snprintf(xml + at, sizeof xml - at,
                               "<BONE ID=\"%d\" NAME=\"b%d\" NUMCHILD=\"%d\"><TRANSLATION>0.1 0.3 0"
                               "</TRANSLATION><ROTATION>0 0 0.0998 0.995</ROTATION>"
                               "<LOCALTRANSLATION>0 0 0</LOCALTRANSLATION><LOCALROTATION>0 0 0 1"
                               "</LOCALROTATION><PARENTID>%d</PARENTID>%s</BONE>\n",
                               b, b, b < 9, b - 1, child);
    }
    snprintf(xml + at, sizeof xml - at, "</SKELETON>\n");
    bool ok = write_file(h, "chain.xsf", xml);
    at = (size_t)snprintf(xml, sizeof xml,
                          "<HEADER MAGIC=\"XMF\" VERSION=\"910\"/>\n<MESH NUMSUBMESH=\"2\">\n");
    for (int c = 0; c < 2; c++) {
        int influences = c == 0 ? 9 : 3;
        at += (size_t)snprintf(xml + at, sizeof xml - at,
                               "<SUBMESH NUMVERTICES=\"8\" NUMFACES=\"12\" NUMLODSTEPS=\"0\" "
                               "NUMSPRINGS=\"0\" NUMTEXCOORDS=\"0\" MATERIAL=\"-1\">\n");
        for (int v = 0; v < 8; v++) {
            float x = (v & 1 ? 1.0f : -1.0f) + 3.0f * (float)c, y = v & 2 ? 1.0f : -1.0f;
            float z = v & 4 ? 1.0f : -1.0f;
            at += (size_t)snprintf(xml + at, sizeof xml - at,
                                   "<VERTEX ID=\"%d\" NUMINFLUENCES=\"%d\"><POS>%g %g %g</POS>"
                                   "<NORM>%g %g %g</NORM>",
                                   v, influences, (double)x, (double)y, (double)z,
                                   (double)(x - 3.0f * (float)c) * 0.577, (double)y * 0.577,
                                   (double)z * 0.577);
            for (int k = 0; k < influences; k++)
                at += (size_t)snprintf(xml + at, sizeof xml - at,
                                       "<INFLUENCE ID=\"%d\">%g</INFLUENCE>", (k + v) % 10,
                                       1.0 / influences);
            at += (size_t)snprintf(xml + at, sizeof xml - at, "</VERTEX>\n");
        }
        static const int quads[6][4] = {{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                        {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 3, 7, 5}};
        for (int q = 0; q < 6; q++)
            at += (size_t)snprintf(xml + at, sizeof xml - at,
                                   "<FACE VERTEXID=\"%d %d %d\"/><FACE VERTEXID=\"%d %d %d\"/>\n",
                                   quads[q][0], quads[q][1], quads[q][2], quads[q][0], quads[q][2],
                                   quads[q][3]);
        at += (size_t)snprintf(xml + at, sizeof xml - at, "</SUBMESH>\n");
    }
    snprintf(xml + at, sizeof xml - at, "</MESH>\n");
    ok = ok && write_file(h, "cubes.xmf", xml) &&
         write_file(h, "many.cfg", "skeleton=chain.xsf\nmesh=cubes.xmf\n");
    if (!ok)
        return;
    char cfg[600], png[2][600], script[600], out[4096];
    harness_file(h, "many.cfg", cfg, sizeof cfg);
    harness_file(h, "many-cpu.png", png[0], sizeof png[0]);
    harness_file(h, "many-gpu.png", png[1], sizeof png[1]);
    harness_file(h, "many.txt", script, sizeof script);
    const char *cpu[] = {"--screenshot", png[0], "--size", "200x200", "--skinning", "cpu", cfg,
                         NULL};
    int rc = harness_run(h, cpu, out, sizeof out);
    CHECKF(rc == 0, "many influences, cpu: exit %d: %s", rc, out);
    const char *gpu[] = {"--screenshot", png[1], "--size", "200x200", "--skinning", "gpu", cfg,
                         NULL};
    int rc_gpu = harness_run(h, gpu, out, sizeof out);
    CHECKF(rc_gpu == 0, "many influences, gpu: exit %d: %s", rc_gpu, out);
    CHECKF(strstr(out, "9 influences") != NULL, "%s", out);
    harness_image a = {0}, b = {0};
    if (rc == 0 && rc_gpu == 0 && harness_read_png(png[0], &a) && harness_read_png(png[1], &b)) {
        size_t total = (size_t)a.width * (size_t)a.height, same = within(&a, &b, 8);
        fprintf(stderr, "many influences: %zu drawn, cpu and gpu agree on %zu of %zu\n",
                harness_foreground(&a), same, total);
        CHECK(harness_foreground(&a) > total / 50);
        CHECK(same * 1000 >= total * 995);
    }
    harness_image_free(&a);
    harness_image_free(&b);
    /* The HUD's name for the path says that part of the GPU frame was skinned on the CPU. */
    ok = write_file(h, "many.txt", "state\n");
    const char *state[] = {"--script", script, "--size", "64x64", "--skinning", "gpu", cfg, NULL};
    rc = harness_run(h, state, out, sizeof out);
    CHECKF(ok && rc == 0 && strstr(out, "\"skinning\":\"gpu + cpu") != NULL, "exit %d: %s", rc,
           out);
}

/* The display toggles through a script (keys W, N, G, P, K), compared in the rows between the
 * HUD at the top and the timeline at the bottom: each overlay changes the picture, the bind pose
 * looks the same on both paths, and so does the animated pose. */
static void check_toggles(harness *h)
{
    static const char *const shots[] = {"base", "wire", "normals", "grid", "bind", "bind-gpu",
                                        "gpu"};
    enum { BASE, WIRE, NORMALS, GRID, BIND, BIND_GPU, GPU, SHOTS };
    char script[8192], path[600], png[SHOTS][600];
    for (int i = 0; i < SHOTS; i++) {
        char name[64];
        snprintf(name, sizeof name, "toggle-%s.png", shots[i]);
        harness_file(h, name, png[i], sizeof png[i]);
    }
    snprintf(script, sizeof script,
             "screenshot %s\nkey W\nscreenshot %s\nkey W\nkey N\nscreenshot %s\nkey N\n"
             "key G\nscreenshot %s\nkey G\nkey P\nscreenshot %s\nkey K\nscreenshot %s\n"
             "key P\nscreenshot %s\n",
             png[BASE], png[WIRE], png[NORMALS], png[GRID], png[BIND], png[BIND_GPU], png[GPU]);
    FILE *f = fopen(harness_file(h, "toggles.txt", path, sizeof path), "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs(script, f);
    fclose(f);
    const char *args[] = {"--script", path, "--size", "240x320", "--clip", "walk", "--time", "0.3",
                          "--paused", "--skinning", "cpu", NULL};
    char out[4096];
    int rc = harness_run(h, args, out, sizeof out);
    CHECKF(rc == 0, "toggles: exit %d: %s", rc, out);
    harness_image img[SHOTS];
    memset(img, 0, sizeof img);
    bool ok = rc == 0;
    for (int i = 0; i < SHOTS && ok; i++)
        ok = harness_read_png(png[i], &img[i]);
    if (ok) {
        int y0 = img[BASE].height / 5, y1 = img[BASE].height * 7 / 8;
        size_t changed[SHOTS];
        for (int i = 0; i < SHOTS; i++)
            changed[i] = harness_differ(&img[BASE], &img[i], y0, y1);
        size_t bind_paths = harness_differ(&img[BIND], &img[BIND_GPU], y0, y1);
        fprintf(stderr, "toggles: pixels changed by wireframe %zu, normals %zu, grid %zu, bind pose "
                        "%zu, gpu %zu; bind pose cpu vs gpu %zu\n",
                changed[WIRE], changed[NORMALS], changed[GRID], changed[BIND], changed[GPU],
                bind_paths);
        CHECK(changed[WIRE] > 300 && changed[NORMALS] > 100 && changed[GRID] > 300);
        CHECK(changed[BIND] > 300);
        size_t rows = (size_t)img[BASE].width * (size_t)(y1 - y0);
        CHECKF(changed[GPU] * 200 <= rows && bind_paths * 200 <= rows, "%zu %zu of %zu",
               changed[GPU], bind_paths, rows);
    }
    for (int i = 0; i < SHOTS; i++)
        harness_image_free(&img[i]);
}

int main(int argc, char **argv)
{
    check_scene_skinning();
    if (argc < 2) {
        fprintf(stderr, "usage: test-view-skinning OSSA-VIEW\n");
        return 1;
    }
    harness h;
    if (!harness_begin(&h, argv[1]))
        return 1;
    if (harness_pick_display(&h) == HARNESS_NO_DISPLAY) {
        harness_end(&h);
        fprintf(stderr, "screenshots skipped: no display\n");
        return test_finish("view-skinning");
    }
    const char *demo[] = {"--size", "240x320", "--clip", "walk", "--time", "0.3", NULL};
    compare_paths(&h, "demo", demo);
    check_toggles(&h);
    check_many_influences(&h);
    char skm[600], dir[600];
    harness_file(&h, "exact.skm", skm, sizeof skm);
    snprintf(dir, sizeof dir, "%s", skm);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    if (slash && write_exact_model(dir)) {
        check_exact_scene(skm);
        const char *exact[] = {"--size", "240x320", "--clip", "walk", "--time", "0.3", skm, NULL};
        compare_paths(&h, "exact", exact);
    }

    const char *assets = test_assets_dir();
    char cfg[1024];
    ossa_model *m = NULL;
    ossa_error err;
    if (assets && ossa_load_file(test_path(cfg, sizeof cfg, assets, "cal3d/cally/cally.cfg"), NULL,
                                 &m, &err) == OSSA_OK) {
        ossa_model_destroy(m);
        const char *cally[] = {"--size", "320x240", "--time", "0.5", cfg, NULL};
        compare_paths(&h, "cally", cally);
    } else {
        fprintf(stderr, "cally skipped: no shared assets\n");
    }
    harness_end(&h);
    return test_finish("view-skinning");
}
