/* The character instance's springs and morphs: a Cal3D set with springs and a morph clip (the
 * fuzz seeds), whose morph weights follow the morph clock and whose cloth starts at the bind
 * vertices, moves and stays finite, and real Cal3D cloth when the shared assets are there. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_seeds.h"
#include "ossa/ossa.h"
#include "instance_test_util.h"
#include "test_common.h"

/* Spring-owned vertices after n updates of dt, and that all output stays finite. Returns how
 * far the cloth moved from where plain skinning puts it. */
static double run_cloth(ossa_instance *inst, int steps, float dt)
{
    outputs o = {0};
    CHECK(outputs_make(&o, inst));
    ossa_error err;
    double moved = 0;
    CHECK(ossa_instance_play(inst, 0, 0.0f, &err) == OSSA_OK);
    for (int i = 0; i < steps; i++)
        ossa_instance_update(inst, dt);
    CHECK(ossa_instance_skin(inst, 0, o.count, o.spans, &err) == OSSA_OK);
    CHECK(outputs_finite(&o, inst));
    for (uint32_t i = 0; i < o.count; i++) {
        ossa_instance_part p;
        ossa_instance_part_info(inst, i, &p, NULL);
        if (!p.spring)
            continue;
        float *plain = malloc(3 * (p.output_count + 1) * sizeof(float));
        float *nrm = malloc(3 * (p.output_count + 1) * sizeof(float));
        CHECK(plain && nrm);
        ossa_skin_job job = {.mesh = p.skin, .palette = ossa_instance_palette(inst),
                             .palette_size = ossa_instance_model(inst)->bone_count,
                             .out_positions = plain, .out_normals = nrm,
                             .out_capacity = p.output_count + 1,
                             .end = ossa_skin_mesh_output_count(p.skin)};
        job.morph_weights = p.morph_weights;
        CHECK(ossa_skin_job_run(&job, NULL) == OSSA_OK);
        for (size_t k = 0; k < 3 * (size_t)p.output_count; k++)
            moved = fmax(moved, fabs((double)plain[k] - o.spans[i].positions[k]));
        free(plain);
        free(nrm);
    }
    outputs_free(&o);
    return moved;
}

static int write_seed(const char *dir, const char *seed_name, const char *file, char *path,
                      size_t size)
{
    fuzz_seed seed;
    if (!fuzz_seed_make_one(seed_name, &seed))
        return 0;
    snprintf(path, size, "%s/%s", dir, file);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(seed.data, 1, seed.size, f) == seed.size;
    ok = f && fclose(f) == 0 && ok;
    free(seed.data);
    return ok;
}

/* A Cal3D set with springs and a morph target driven by a morph clip (the fuzz seeds): morph
 * weights follow the morph clock, the cloth hangs and stays finite. */
static void test_springs_morphs(void)
{
    char dir[] = "/tmp/ossa-instance-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char paths[4][4200];
    const char *list[4];
    static const char *const seeds[4][2] = {{"seed_v1000.csf", "skel.csf"},
                                            {"seed_v919.cmf", "mesh.cmf"},
                                            {"seed_v1000.caf", "clip.caf"},
                                            {"seed_v919.cpf", "morph.cpf"}};
    int ok = 1;
    for (int i = 0; i < 4; i++) {
        ok &= write_seed(dir, seeds[i][0], seeds[i][1], paths[i], sizeof paths[i]);
        list[i] = paths[i];
    }
    CHECK(ok);
    ossa_model *m = NULL;
    ossa_error err;
    CHECKF(!ok || ossa_load_files(list, 4, NULL, &m, &err) == OSSA_OK, "%s", err.message);
    for (int i = 0; i < 4; i++)
        remove(paths[i]);
    rmdir(dir);
    if (!m)
        return;
    ossa_instance *inst = NULL;
    CHECK(ossa_instance_create(m, NULL, &inst, &err) == OSSA_OK);
    if (!inst) {
        ossa_model_destroy(m);
        return;
    }
    uint32_t springs = 0, morphs = 0;
    for (uint32_t i = 0; i < ossa_instance_part_count(inst); i++) {
        ossa_instance_part p;
        ossa_instance_part_info(inst, i, &p, NULL);
        springs += p.spring != NULL;
        morphs += p.morph_weights != NULL;
    }
    CHECK(springs > 0 && morphs > 0 && m->morph_clip_count > 0);
    /* Before any step the cloth is where Cal3D starts it: at the bind vertices. */
    {
        outputs o = {0};
        CHECK(outputs_make(&o, inst));
        CHECK(ossa_instance_skin(inst, 0, o.count, o.spans, &err) == OSSA_OK);
        for (uint32_t i = 0; i < o.count; i++) {
            ossa_instance_part p;
            ossa_instance_part_info(inst, i, &p, NULL);
            for (uint32_t v = 0; p.spring && v < p.output_count; v++) {
                uint32_t f = p.output_source[v];
                if (f != OSSA_SKIN_PAD_VERTEX && p.source->physique_weights[f] > 0.0f)
                    CHECK(memcmp(o.spans[i].positions + 3 * (size_t)v,
                                 p.source->positions + 3 * (size_t)f, 3 * sizeof(float)) == 0);
            }
        }
        outputs_free(&o);
    }
    /* The morph clock moves the weights (the seed's morph clip ramps its target). */
    float seen_min = INFINITY, seen_max = -INFINITY;
    for (int k = 0; k <= 10; k++) {
        ossa_instance_set_morph_time(inst, (float)k * 0.1f);
        for (uint32_t i = 0; i < ossa_instance_part_count(inst); i++) {
            ossa_instance_part p;
            ossa_instance_part_info(inst, i, &p, NULL);
            for (uint32_t t = 0; p.morph_weights && t < p.source->morph_count; t++) {
                CHECK(isfinite(p.morph_weights[t]));
                seen_min = fminf(seen_min, p.morph_weights[t]);
                seen_max = fmaxf(seen_max, p.morph_weights[t]);
            }
        }
    }
    CHECKF(seen_max > seen_min, "morph weights stay at %g", (double)seen_min);
    double moved = run_cloth(inst, 60, 1.0f / 30.0f);
    CHECKF(moved > 0.0, "the cloth did not move from the skinned shape");
    /* A seek puts the cloth at rest where the pose skins it. */
    ossa_instance_seek(inst, 0.25f);
    printf("seeds: %u spring parts, %u morph parts, morph weights %g..%g, cloth moved %g\n",
           springs, morphs, (double)seen_min, (double)seen_max, moved);
    ossa_instance_destroy(inst);
    ossa_model_destroy(m);
}

/* Real Cal3D cloth (paladin's cape and loincloth) for 10 s of frames, when the assets exist. */
static void test_real_cloth(void)
{
    const char *assets = test_assets_dir();
    if (!assets) {
        printf("real cloth: skipped (no shared assets)\n");
        return;
    }
    static const char *const names[] = {"paladin.csf", "paladin_walk.caf", "paladin_body.cmf",
                                        "paladin_cape.cmf", "paladin_loincloth.cmf"};
    char paths[5][4096];
    const char *list[5];
    for (int i = 0; i < 5; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/cal3d/paladin/%s", assets, names[i]);
        list[i] = paths[i];
    }
    ossa_model *m = NULL;
    ossa_error err;
    if (access(paths[0], R_OK) != 0) {
        printf("real cloth: skipped (no paladin)\n");
        return;
    }
    CHECKF(ossa_load_files(list, 5, NULL, &m, &err) == OSSA_OK, "%s", err.message);
    if (!m)
        return;
    ossa_instance *inst = NULL;
    CHECK(ossa_instance_create(m, NULL, &inst, &err) == OSSA_OK);
    if (inst) {
        double moved = run_cloth(inst, 300, 1.0f / 30.0f);
        CHECK(moved > 0.0 && isfinite(moved));
        /* The other parts still equal the scalar path after all that. */
        outputs o = {0};
        uint32_t compared = 0;
        CHECK(outputs_make(&o, inst));
        CHECK(ossa_instance_skin(inst, 0, o.count, o.spans, &err) == OSSA_OK);
        double d = skin_vs_scalar(inst, &o, &compared);
        CHECKF(d <= 1e-4 && compared > 0, "paladin skin differs by %g", d);
        printf("real cloth: paladin, cloth moved %g, %u parts equal the scalar path (%g)\n",
               moved, compared, d);
        outputs_free(&o);
        ossa_instance_destroy(inst);
    }
    ossa_model_destroy(m);
}

int main(void)
{
    test_springs_morphs();
    test_real_cloth();
    return test_finish("anim-instance-cloth");
}
