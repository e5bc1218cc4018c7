/* Being written. */
typedef int ossa_placeholder_demo;
