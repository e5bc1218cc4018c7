/* Hamilton quaternion (x, y, z, w) helpers shared by the readers, writers and mounts. Each keeps
 * the one operation order every copy had, so results are bit for bit those of before; the
 * double forms serve the few poses a file holds, where float rounding would show in a round
 * trip. */
#ifndef OSSA_QUAT_H
#define OSSA_QUAT_H

#include <math.h>

/* out = a b (b acts first); out may alias a or b. */
static inline void ossa_quat_mul(const float a[4], const float b[4], float out[4])
{
    float x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    float y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    float z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    float w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
    out[3] = w;
}

/* ossa_quat_mul in double. */
static inline void ossa_quat_mul_d(const double a[4], const double b[4], double out[4])
{
    double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
    out[3] = w;
}

/* out = R(q) v for a unit q: v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z). out may not alias
 * v. */
static inline void ossa_quat_rotate(const float q[4], const float v[3], float out[3])
{
    float uv[3] = {q[1] * v[2] - q[2] * v[1], q[2] * v[0] - q[0] * v[2], q[0] * v[1] - q[1] * v[0]};
    float uuv[3] = {q[1] * uv[2] - q[2] * uv[1], q[2] * uv[0] - q[0] * uv[2],
                    q[0] * uv[1] - q[1] * uv[0]};
    for (int k = 0; k < 3; k++)
        out[k] = v[k] + 2.0f * (q[3] * uv[k] + uuv[k]);
}

/* ossa_quat_rotate in double, for a float quaternion. */
static inline void ossa_quat_rotate_d(const float q[4], const double v[3], double out[3])
{
    double ux = q[0], uy = q[1], uz = q[2], w = q[3];
    double uv[3] = {uy * v[2] - uz * v[1], uz * v[0] - ux * v[2], ux * v[1] - uy * v[0]};
    double uuv[3] = {uy * uv[2] - uz * uv[1], uz * uv[0] - ux * uv[2], ux * uv[1] - uy * uv[0]};
    for (int k = 0; k < 3; k++)
        out[k] = v[k] + 2.0 * (w * uv[k] + uuv[k]);
}

/* q scaled to unit length (its length taken in double), the one normalisation of the readers,
 * writers and the glTF export. A zero q has no direction to keep: it becomes the identity, the
 * rotation Cal3D's matrix of a zero quaternion already is and one every format can store (glTF
 * wants unit rotations). A non-finite q stays non-finite, for the writers' checks to refuse
 * rather than a made-up rotation to hide. */
static inline void ossa_quat_normalize(float q[4])
{
    double n = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                    (double)q[3] * q[3]);
    if (n == 0.0) {
        q[0] = q[1] = q[2] = 0.0f;
        q[3] = 1.0f;
    } else if (n > 0.0) {
        for (int k = 0; k < 4; k++)
            q[k] = (float)(q[k] / n);
    }
}

#endif
