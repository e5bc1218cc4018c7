#include "anim_fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void *fixture_alloc(fixture *f, size_t bytes)
{
    if (f->block_count == 64)
        abort();
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p)
        abort();
    f->blocks[f->block_count++] = p;
    return p;
}

float fixture_rand(fixture *f, float lo, float hi)
{
    f->rng = f->rng * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(f->rng >> 8) / (float)(1u << 24);
}

static void rand_quat(fixture *f, float *q)
{
    float n = 0;
    for (int k = 0; k < 4; k++) {
        q[k] = fixture_rand(f, -1, 1);
        n += q[k] * q[k];
    }
    n = sqrtf(n);
    for (int k = 0; k < 4; k++)
        q[k] /= n;
}

void fixture_random(fixture *f, uint32_t seed, uint32_t bone_count, uint32_t clip_count,
                    uint32_t key_count, int with_scale)
{
    memset(f, 0, sizeof *f);
    f->rng = seed;
    ossa_bone *bones = fixture_alloc(f, bone_count * sizeof *bones);
    for (uint32_t i = 0; i < bone_count; i++) {
        ossa_bone *b = &bones[i];
        b->name = "bone";
        b->parent = i == 0 ? -1 : (int32_t)fixture_rand(f, -0.2f, (float)i - 0.01f);
        if (b->parent < 0 && i > 0 && fixture_rand(f, 0, 1) < 0.7f)
            b->parent = 0;
        for (int k = 0; k < 3; k++) {
            b->rest_t[k] = fixture_rand(f, -1, 1);
            b->rest_s[k] = with_scale ? fixture_rand(f, 0.6f, 1.4f) : 1.0f;
            b->inv_bind_t[k] = fixture_rand(f, -2, 2);
        }
        rand_quat(f, b->rest_r);
        rand_quat(f, b->inv_bind_r);
    }
    ossa_clip *clips = fixture_alloc(f, (clip_count + 1) * sizeof *clips);
    for (uint32_t c = 0; c < clip_count; c++) {
        ossa_clip *cl = &clips[c];
        cl->name = "clip";
        cl->duration = fixture_rand(f, 1.0f, 3.0f);
        uint32_t step = c % 2 ? 1 : 2;
        uint32_t tracks = (bone_count + step - 1) / step;
        ossa_track *tr = fixture_alloc(f, tracks * sizeof *tr);
        int scales = with_scale && c % 2;
        float *data = fixture_alloc(f, (size_t)tracks * key_count * 13 * sizeof(float));
        for (uint32_t t = 0; t < tracks; t++) {
            ossa_track *k = &tr[t];
            k->bone = t * step;
            k->key_count = t == 1 ? 1 : key_count;
            float *times = data + (size_t)t * key_count * 13;
            float *tr3 = times + key_count, *rot = tr3 + 3 * key_count, *sc = rot + 4 * key_count;
            for (uint32_t j = 0; j < k->key_count; j++) {
                times[j] = 0.1f + (cl->duration - 0.3f) * (float)j / (float)(key_count - 1);
                if (j > 0)
                    times[j] += fixture_rand(f, -0.3f, 0.3f) * (cl->duration - 0.3f) /
                                (float)(key_count - 1);
                for (int m = 0; m < 3; m++) {
                    tr3[3 * j + m] = fixture_rand(f, -1, 1);
                    sc[3 * j + m] = fixture_rand(f, 0.7f, 1.3f);
                }
                rand_quat(f, rot + 4 * j);
            }
            if (k->key_count > 3)
                times[2] = times[3]; /* a duplicated key time */
            k->times = times;
            k->translations = tr3;
            k->rotations = rot;
            k->scales = scales ? sc : NULL;
        }
        cl->track_count = tracks;
        cl->tracks = tr;
    }
    f->model.bone_count = bone_count;
    f->model.bones = bones;
    f->model.clip_count = clip_count;
    f->model.clips = clips;
    f->model.scale = 1.0f;
}

void fixture_free(fixture *f)
{
    for (int i = 0; i < f->block_count; i++)
        free(f->blocks[i]);
    f->block_count = 0;
}

double max_diff(const float *a, const float *b, size_t n)
{
    double d = 0;
    for (size_t i = 0; i < n; i++) {
        double e = fabs((double)a[i] - (double)b[i]);
        if (!(e <= d))
            d = e;
    }
    return d;
}
