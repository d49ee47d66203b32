#include <png.h>

// libpng's simplified API is driven by function-like macros and OR-ed constants that Swift cannot import.
static inline png_uint_32 prospects_png_image_version(void) { return PNG_IMAGE_VERSION; }
static inline int prospects_png_image_failed(png_imagep image) { return PNG_IMAGE_FAILED(*image) ? 1 : 0; }
static inline png_uint_32 prospects_png_format_gray(void) { return PNG_FORMAT_GRAY; }
static inline png_uint_32 prospects_png_format_linear_flag(void) { return PNG_FORMAT_FLAG_LINEAR; }
