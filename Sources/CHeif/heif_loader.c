// libheif loaded on first use (see heif_shim.h). Each function HEIFReader calls is defined here with libheif's own
// name and signature, and forwards to the library's. When libheif cannot be loaded, each reports a failure the
// reader already handles: a NULL context, or an error that says so.
#include "heif_shim.h"

#include "lazy_library.h"
#include <stddef.h>

#define PROSPECTS_HEIF_FUNCTIONS(X)                                                                                   \
    X(struct heif_context *, heif_context_alloc, (void), ())                                                          \
    X(void, heif_context_free, (struct heif_context * context), (context))                                            \
    X(void, heif_context_set_maximum_image_size_limit, (struct heif_context * context, int maximum_width),            \
        (context, maximum_width))                                                                                     \
    X(struct heif_error, heif_context_read_from_memory_without_copy,                                                  \
        (struct heif_context * context, const void *memory, size_t size, const struct heif_reading_options *options), \
        (context, memory, size, options))                                                                             \
    X(struct heif_error, heif_context_get_primary_image_handle,                                                       \
        (struct heif_context * context, struct heif_image_handle * *handle), (context, handle))                       \
    X(void, heif_image_handle_release, (const struct heif_image_handle *handle), (handle))                            \
    X(int, heif_image_handle_get_width, (const struct heif_image_handle *handle), (handle))                           \
    X(int, heif_image_handle_get_height, (const struct heif_image_handle *handle), (handle))                          \
    X(struct heif_decoding_options *, heif_decoding_options_alloc, (void), ())                                        \
    X(void, heif_decoding_options_free, (struct heif_decoding_options * options), (options))                          \
    X(struct heif_error, heif_decode_image,                                                                           \
        (const struct heif_image_handle *handle, struct heif_image **image, enum heif_colorspace colorspace,          \
            enum heif_chroma chroma, const struct heif_decoding_options *options),                                    \
        (handle, image, colorspace, chroma, options))                                                                 \
    X(void, heif_image_release, (const struct heif_image *image), (image))                                            \
    X(int, heif_image_get_bits_per_pixel_range, (const struct heif_image *image, enum heif_channel channel),          \
        (image, channel))                                                                                             \
    X(int, heif_image_get_width, (const struct heif_image *image, enum heif_channel channel), (image, channel))       \
    X(int, heif_image_get_height, (const struct heif_image *image, enum heif_channel channel), (image, channel))      \
    X(const uint8_t *, heif_image_get_plane_readonly,                                                                 \
        (const struct heif_image *image, enum heif_channel channel, int *stride), (image, channel, stride))

// The library's functions, once loaded (lazy_library.h).
PROSPECTS_LAZY_LIBRARY("libheif.so.1", PROSPECTS_HEIF_FUNCTIONS, "")

// Without the library nothing was allocated, so releasing is nothing, and every other call fails, saying why.
static struct heif_error failed_error(void) {
    struct heif_error error = {heif_error_Unsupported_feature, heif_suberror_Unspecified, unavailable_reason};
    return error;
}

struct heif_context *heif_context_alloc(void) { return available() ? library.heif_context_alloc() : NULL; }
void heif_context_free(struct heif_context *context) {
    if (available()) library.heif_context_free(context);
}
void heif_context_set_maximum_image_size_limit(struct heif_context *context, int maximum_width) {
    if (available()) library.heif_context_set_maximum_image_size_limit(context, maximum_width);
}
struct heif_error heif_context_read_from_memory_without_copy(
    struct heif_context *context, const void *memory, size_t size, const struct heif_reading_options *options) {
    return available() ? library.heif_context_read_from_memory_without_copy(context, memory, size, options)
                       : failed_error();
}
struct heif_error heif_context_get_primary_image_handle(
    struct heif_context *context, struct heif_image_handle **handle) {
    return available() ? library.heif_context_get_primary_image_handle(context, handle) : failed_error();
}
void heif_image_handle_release(const struct heif_image_handle *handle) {
    if (available()) library.heif_image_handle_release(handle);
}
int heif_image_handle_get_width(const struct heif_image_handle *handle) {
    return available() ? library.heif_image_handle_get_width(handle) : 0;
}
int heif_image_handle_get_height(const struct heif_image_handle *handle) {
    return available() ? library.heif_image_handle_get_height(handle) : 0;
}
struct heif_decoding_options *heif_decoding_options_alloc(void) {
    return available() ? library.heif_decoding_options_alloc() : NULL;
}
void heif_decoding_options_free(struct heif_decoding_options *options) {
    if (available()) library.heif_decoding_options_free(options);
}
struct heif_error heif_decode_image(const struct heif_image_handle *handle, struct heif_image **image,
    enum heif_colorspace colorspace, enum heif_chroma chroma, const struct heif_decoding_options *options) {
    return available() ? library.heif_decode_image(handle, image, colorspace, chroma, options) : failed_error();
}
void heif_image_release(const struct heif_image *image) {
    if (available()) library.heif_image_release(image);
}
int heif_image_get_bits_per_pixel_range(const struct heif_image *image, enum heif_channel channel) {
    return available() ? library.heif_image_get_bits_per_pixel_range(image, channel) : 0;
}
int heif_image_get_width(const struct heif_image *image, enum heif_channel channel) {
    return available() ? library.heif_image_get_width(image, channel) : 0;
}
int heif_image_get_height(const struct heif_image *image, enum heif_channel channel) {
    return available() ? library.heif_image_get_height(image, channel) : 0;
}
const uint8_t *heif_image_get_plane_readonly(const struct heif_image *image, enum heif_channel channel, int *stride) {
    return available() ? library.heif_image_get_plane_readonly(image, channel, stride) : NULL;
}
