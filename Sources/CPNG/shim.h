#include <png.h>

// libpng's simplified API is driven by function-like macros and OR-ed constants that Swift cannot import.
static inline png_uint_32 prospects_png_image_version(void) { return PNG_IMAGE_VERSION; }
static inline int prospects_png_image_failed(png_imagep image) { return PNG_IMAGE_FAILED(*image) ? 1 : 0; }
static inline png_uint_32 prospects_png_format_gray(void) { return PNG_FORMAT_GRAY; }
static inline png_uint_32 prospects_png_format_linear_flag(void) { return PNG_FORMAT_FLAG_LINEAR; }

// Bytes finish_read needs for the image's current format (row stride = width * channels * component size).
static inline png_alloc_size_t prospects_png_image_size(png_imagep image) { return PNG_IMAGE_SIZE(*image); }

// An upper bound on the encoded size, so png_image_write_to_memory can compress once into a preallocated buffer.
static inline png_alloc_size_t prospects_png_image_png_size_max(png_imagep image) {
    return PNG_IMAGE_PNG_SIZE_MAX(*image);
}
