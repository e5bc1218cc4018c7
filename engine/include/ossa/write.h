/* Writing models in the formats Ossa reads. Every writer validates the model it is handed
 * (ossa_model_validate; a model that fails is refused) and returns a status with a message in
 * err naming the file. Outputs are atomic: each file is written whole to a temporary beside its
 * target (created exclusively, never through a link) and renamed over the target only when every
 * file of the write is complete, so a failure leaves every existing file as it was and nothing
 * behind. Before anything is written, each output path is put to the caller's guard
 * (ossa_write_guard, status.h), which may refuse it. Reading a written file back gives the same
 * model, within the precision the format stores. Parts loaded without their skeleton keep their
 * file's bone ids: Cal3D writes them as they are, the formats that place keys and weights on
 * bones (SKM, C3S) refuse them, and CFF, which has no bones then, writes the meshes unanimated. */
#ifndef OSSA_WRITE_H
#define OSSA_WRITE_H

#include <stdbool.h>
#include "ossa/model.h"

#ifdef __cplusplus
extern "C" {
#endif


/* The source's up axis, for targets with an axis of their own: glTF and CFF are Y up,
 * right-handed; a Z-up source is turned -90 degrees about X, (x, y, z) -> (x, z, -y). */
typedef enum ossa_export_up {
    OSSA_EXPORT_UP_AUTO = 0, /* from the format: Y for the demo and CFF; Z for Cal3D, SKM and
                                C3S unless the bind pose plainly stands along Y (as ossa-view) */
    OSSA_EXPORT_UP_Y,
    OSSA_EXPORT_UP_Z
} ossa_export_up;

/* How ossa_write_cal3d writes a set; all zero (or a NULL pointer) means binary files at 1100,
 * or at 1300 (upstream) for a model that 1100 cannot hold (ossa_cal3d_default_version). */
typedef struct ossa_cal3d_write_options {
    bool xml;          /* the XML forms (XSF, XMF, XAF, XPF, XRF) instead of the binary ones */
    uint32_t version;  /* the Cal3D version to write; 0: ossa_cal3d_default_version */
    /* Binary 1300/1301 in the layout of the mp3butcher/Cal3D fork (docs/FORMATS.md, D1): no node
     * lights or scene ambient colour in the CSF, no vertex colours in the CMF; the CAF, CPF and
     * CRF are the same in both lineages. false: the upstream layout. */
    bool mp3butcher;
    ossa_write_guard guard; /* asked about every file of the set */
} ossa_cal3d_write_options;

/* Cal3D set: dir/base.csf (or .xsf), one mesh file per mesh, one animation file per clip, one
 * morph file per morph clip, one material file per material, and dir/base.cfg listing them.
 * Data the chosen layout cannot hold (node lights, vertex colours, morph targets, map types in
 * the classic layouts; node lights and vertex colours in the mp3butcher one) is refused with
 * OSSA_ERR_UNSUPPORTED, never dropped. */
OSSA_API ossa_status ossa_write_cal3d(const ossa_model *m, const char *dir, const char *base,
                                      const ossa_cal3d_write_options *opt, ossa_error *err);

/* The version ossa_write_cal3d writes m at with these options: opt->version when set; else 1000
 * for XML, 1301 for the mp3butcher lineage, and for binary 1100 (what libcal3d 0.11 reads) or,
 * when the model has node lights, vertex colours, morph targets or map types, which 1100 cannot
 * hold, 1300. */
OSSA_API uint32_t ossa_cal3d_default_version(const ossa_model *m,
                                             const ossa_cal3d_write_options *opt);

/* How ossa_write_skm writes; all zero (or a NULL pointer) is the default. */
typedef struct ossa_skm_write_options {
    float frame_rate;       /* frames per second of the .skp's frames; 0: 10 */
    ossa_write_guard guard; /* asked about every file written */
} ossa_skm_write_options;

/* SKM/SKP type 2: dir/base.skm (dir/base_lodN.skm for meshes with lod N > 0) and dir/base.skp
 * holding every clip's frames (clip "walk" as frames walk_1, walk_2, ... at the frame rate). */
OSSA_API ossa_status ossa_write_skm(const ossa_model *m, const char *dir, const char *base,
                                    const ossa_skm_write_options *opt, ossa_error *err);

typedef struct ossa_c3s_write_options {
    /* false: bone-weighted vertices with ASEQ bone keys; true: every clip baked into vertex
     * frames (VFRM) sampled at frame_rate, with no bones in the file. */
    bool vertex_frames;
    float frame_rate; /* ASEQ playRate, frames per second; 0: 30 */
    ossa_write_guard guard; /* asked about the file before it is written */
} ossa_c3s_write_options;

/* One C3S scene (RIFF "C3SB") holding the model; opt may be NULL for the defaults. */
OSSA_API ossa_status ossa_write_c3s(const ossa_model *m, const char *path,
                                    const ossa_c3s_write_options *opt, ossa_error *err);

/* How ossa_write_cff writes; all zero (or a NULL pointer) is the default. */
typedef struct ossa_cff_write_options {
    float frame_rate;       /* frames per second of the rigid frames; 0: 25 */
    ossa_export_up up;      /* the source's up axis; a Z-up model is turned to CFF's Y up */
    ossa_write_guard guard; /* asked about every file written (the .cff and its textures) */
    ossa_log_options log;   /* a texture that could not be copied, one line each (status.h);
                               zero: not reported */
} ossa_cff_write_options;

/* CFF (Corsairs): every mesh is one rigid part bound to one bone; a clip is written as rigid
 * frames at the frame rate. Skinned meshes are split by each triangle's dominant bone. The
 * file names one texture per material by its last path part, and each texture is copied beside
 * the .cff under that name (unless the same bytes are already there), so the file's folder
 * holds everything it names. */
OSSA_API ossa_status ossa_write_cff(const ossa_model *m, const char *path,
                                    const ossa_cff_write_options *opt, ossa_error *err);

#ifdef __cplusplus
}
#endif
#endif
