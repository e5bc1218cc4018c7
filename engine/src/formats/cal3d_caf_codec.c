/* Being written. */
typedef int ossa_placeholder_cal3d_caf_codec;
