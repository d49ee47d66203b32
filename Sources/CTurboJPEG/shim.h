#include <stddef.h>
#include <turbojpeg.h>

// TJSCALED is a function-like macro that Swift cannot import: the width or height a scaling factor decodes to.
static inline int prospects_tj_scaled(int dimension, tjscalingfactor factor) { return TJSCALED(dimension, factor); }
