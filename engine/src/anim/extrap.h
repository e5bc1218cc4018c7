/* Extrapolation limits (docs/FORMATS.md, "Extrapolation"). Outside its keys a track continues
 * along its first, last or loop key pair with Cal3D's unclamped factor. Where Cal3D's result
 * at that factor leaves the bounds validation sets on keys (a translation or scale component
 * beyond OSSA_MAX_COORD, a rotation's squared norm beyond OSSA_MAX_ROTATION_NORM2, anything not
 * finite), the pose, palette and skinning downstream overflow; there, and only there, the
 * factor is moved back toward the keys to where the result is inside the bounds again. One
 * compiled copy serves the scalar sampler, the runtime sampler and the mixer, so they agree bit
 * for bit. Called only for factors outside [0, 1]: inside, a blend of valid keys is valid. */
#ifndef OSSA_ANIM_EXTRAP_H
#define OSSA_ANIM_EXTRAP_H

/* How a pair blends its rotations: Cal3D's slerp weights, Cal3D's linear weights (nearly equal
 * quaternions: ossa_slerp_setup's theta 0), or renormalised linear weights (nlerp). */
typedef enum ossa_pair_rot {
    OSSA_PAIR_SLERP = 0,
    OSSA_PAIR_LINEAR = 1,
    OSSA_PAIR_NLERP = 2,
} ossa_pair_rot;

/* One key pair as the samplers blend it. qb is on qa's side already (negated where their dot is
 * below 0, as ossa_slerp_setup decides); theta and inv_sin are ossa_slerp_setup's. Scales may be
 * NULL. */
typedef struct ossa_pair_view {
    const float *ta, *tb, *sa, *sb, *qa, *qb;
    float theta, inv_sin;
    ossa_pair_rot rot;
} ossa_pair_view;

/* The factor to blend the pair with, for a factor f outside [0, 1]: f itself where the result
 * at f is inside the bounds (Cal3D's own numbers, bit for bit). Otherwise the largest factor
 * on f's side found inside them (exact where the bound is reached monotonically, as for
 * translations, scales and linear weights); NaN gives 0 (the first key). */
float ossa_extrap_factor(const ossa_pair_view *pair, float f);

/* The same from the stored keys (qb as stored; nlerp selects OSSA_PAIR_NLERP). */
float ossa_extrap_factor_keys(const float *ta, const float *tb, const float *qa, const float *qb,
                              const float *sa, const float *sb, int nlerp, float f);

/* The same for one lerped value a + f (b - a) held within +-bound (morph weights). */
float ossa_extrap_factor_lerp(float a, float b, float bound, float f);

#endif
