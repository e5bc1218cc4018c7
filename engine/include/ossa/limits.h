/* Hard caps checked before any allocation. Generous for real characters, small enough that a
 * lying count cannot make the loader allocate more than a few hundred MiB. */
#ifndef OSSA_LIMITS_H
#define OSSA_LIMITS_H

#define OSSA_MAX_FILE_SIZE   (1u << 30)
#define OSSA_MAX_BONES       4096u
#define OSSA_MAX_CHILDREN    4096u
#define OSSA_MAX_SUBMESHES   4096u
#define OSSA_MAX_VERTICES    (1u << 22)
#define OSSA_MAX_FACES       (1u << 23)
#define OSSA_MAX_INFLUENCES  64u
#define OSSA_MAX_UV_SETS     8u
#define OSSA_MAX_SPRINGS     (1u << 22)
#define OSSA_MAX_MORPHS      4096u
#define OSSA_MAX_TRACKS      4096u
#define OSSA_MAX_KEYS        (1u << 22)
#define OSSA_MAX_MAPS        256u
#define OSSA_MAX_STRING      65536u
#define OSSA_MAX_FILES       4096u
/* A .cfg (a Cal3D model set or a Qfusion model config) is a few lines of text: a set naming
 * OSSA_MAX_FILES files on lines of 256 bytes fits. A larger .cfg is refused unread. */
#define OSSA_MAX_CFG_SIZE    (1u << 20)
/* Largest magnitude of a position, translation, normal or texture coordinate (validation): beyond
 * it no one authored the data, and products of such values overflow in the pose and skinning. */
#define OSSA_MAX_COORD       1e15f
/* Bounds of a rotation's squared norm (validation, in double; |q| within [0.5, 2]): Cal3D never
 * renormalises, so poses and palettes multiply norms along chains. The sampler holds an
 * extrapolated rotation to the upper bound as well (anim/extrap.c). */
#define OSSA_MIN_ROTATION_NORM2 0.25
#define OSSA_MAX_ROTATION_NORM2 4.0
/* Largest magnitude of an influence or morph weight (validation; morph extrapolation). */
#define OSSA_MAX_WEIGHT      1e6f
/* Most pixels a texture image may declare in its header (8192 x 8192): checked before it is
 * decoded or embedded, since a small RLE or deflated file can declare gigabytes of pixels
 * (docs/FORMATS.md, "Texture files"). */
#define OSSA_MAX_TEXTURE_PIXELS (8192u * 8192u)

/* glTF export: where Cal3D extrapolates and glTF would hold (before a track's first key, after
 * its last), the stretch is resampled at the export's fps; a track gets at most this many such
 * samples (half for the stretch before its first key), and a stretch that would take more is
 * sampled evenly at that many instead (docs/FORMATS.md, glTF export). Springs step a clip at
 * most this many times when the export measures their cloth. */
#define OSSA_EXPORT_MAX_TRACK_SAMPLES 4096u
/* glTF export: resampled keys of all tracks together, and cloth steps of all springs; past it a
 * stretch gets its end points only (keys at 1e9 s would otherwise take 3e10 samples). */
#define OSSA_EXPORT_MAX_SAMPLES (1u << 20)

#endif
