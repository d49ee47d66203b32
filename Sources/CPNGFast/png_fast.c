// See include/png_fast.h. Every setjmp of the classic libpng API is here, and no Swift code is ever called from
// here, so libpng's longjmp on error only unwinds C frames.

#include "png_fast.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Marks a palette index that has no palette entry (a broken file: let the simplified API decide).
#define INVALID_ENTRY 0x100

struct prospects_png_fast {
    png_structp png;
    png_infop info;
    const png_byte *next;
    size_t left;
    png_uint_32 width, height;
    int bit_depth;
    /// True when rows are copied as they are (8-bit gray, no tRNS); else every sample goes through `lut`.
    int identity;
    uint16_t lut[256];
    png_bytep row;
    char message[128];
};

static void on_error(png_structp png, png_const_charp text) {
    prospects_png_fast *reader = png_get_error_ptr(png);
    snprintf(reader->message, sizeof reader->message, "%s", text ? text : "unknown libpng error");
    png_longjmp(png, 1);
}

// The simplified API keeps warnings to itself too: nothing may reach stderr.
static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void read_memory(png_structp png, png_bytep out, size_t count) {
    prospects_png_fast *reader = png_get_io_ptr(png);
    if (count > reader->left) png_error(png, "read beyond end of data");
    memcpy(out, reader->next, count);
    reader->next += count;
    reader->left -= count;
}

/// Whether gray levels other than black and white may be copied unchanged: the simplified API writes sRGB gray,
/// and converts only when the file declares a gamma far from sRGB's (libpng's threshold is 5 %; this is stricter).
static int gamma_is_srgb(png_structp png, png_infop info) {
    if (png_get_valid(png, info, PNG_INFO_sRGB)) return 1;
    png_fixed_point gamma = 0;
    if (!png_get_gAMA_fixed(png, info, &gamma)) return 1;  // no gAMA: libpng assumes sRGB
    return gamma >= 44000 && gamma <= 47000;               // 1/2.2 is 45455
}

/// Fills `lut` for the image's flavour; UNSUPPORTED when its conversion is not a plain lookup.
static int build_lut(prospects_png_fast *reader) {
    png_structp png = reader->png;
    png_infop info = reader->info;
    int colour = png_get_color_type(png, info);
    int depth = reader->bit_depth;
    int entries = 1 << depth;
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    for (int i = 0; i < 256; i++) reader->lut[i] = INVALID_ENTRY;

    if (colour == PNG_COLOR_TYPE_GRAY) {
        for (int v = 0; v < entries; v++) reader->lut[v] = (uint16_t)(v * 255 / (entries - 1));
        if (has_trns) {
            png_color_16p key = NULL;
            png_get_tRNS(png, info, NULL, NULL, &key);
            // A transparent gray key is composited on white.
            if (key && key->gray < entries) reader->lut[key->gray] = 255;
        }
        reader->identity = depth == 8 && !has_trns;
    } else if (colour == PNG_COLOR_TYPE_PALETTE) {
        png_colorp palette = NULL;
        int count = 0;
        if (!png_get_PLTE(png, info, &palette, &count) || count <= 0) return PROSPECTS_PNG_FAST_UNSUPPORTED;
        png_bytep alpha = NULL;
        int alphas = 0;
        if (has_trns) png_get_tRNS(png, info, &alpha, &alphas, NULL);
        for (int i = 0; i < count && i < entries; i++) {
            png_color c = palette[i];
            int a = alpha && i < alphas ? alpha[i] : 255;
            // Colour entries need libpng's RGB→gray weights, partial alpha its linear-light compositing: not here.
            if (c.red != c.green || c.red != c.blue) return PROSPECTS_PNG_FAST_UNSUPPORTED;
            if (a == 0) {
                reader->lut[i] = 255;
            } else if (a == 255) {
                reader->lut[i] = c.red;
            } else {
                return PROSPECTS_PNG_FAST_UNSUPPORTED;
            }
        }
        reader->identity = 0;
    } else {
        return PROSPECTS_PNG_FAST_UNSUPPORTED;
    }

    // Black and white survive any gamma; other levels only an sRGB-like one.
    if (!gamma_is_srgb(png, info)) {
        for (int i = 0; i < entries; i++) {
            uint16_t v = reader->lut[i];
            if (v != 0 && v != 255 && v != INVALID_ENTRY) return PROSPECTS_PNG_FAST_UNSUPPORTED;
        }
        if (reader->identity) return PROSPECTS_PNG_FAST_UNSUPPORTED;
    }
    return PROSPECTS_PNG_FAST_OK;
}

int prospects_png_fast_begin(prospects_png_fast **out, const void *data, size_t size, uint32_t *width,
                             uint32_t *height) {
    prospects_png_fast *reader = calloc(1, sizeof *reader);
    *out = reader;
    if (!reader) return PROSPECTS_PNG_FAST_FAILED;
    if (size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        snprintf(reader->message, sizeof reader->message, "Not a PNG file");
        return PROSPECTS_PNG_FAST_FAILED;
    }
    reader->next = data;
    reader->left = size;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, on_error, on_warning);
    if (!reader->png) return PROSPECTS_PNG_FAST_FAILED;
    reader->info = png_create_info_struct(reader->png);
    if (!reader->info) return PROSPECTS_PNG_FAST_FAILED;
    if (setjmp(png_jmpbuf(reader->png))) return PROSPECTS_PNG_FAST_FAILED;

    png_set_read_fn(reader->png, reader, read_memory);
    png_read_info(reader->png, reader->info);
    reader->width = png_get_image_width(reader->png, reader->info);
    reader->height = png_get_image_height(reader->png, reader->info);
    reader->bit_depth = png_get_bit_depth(reader->png, reader->info);
    *width = reader->width;
    *height = reader->height;
    if (reader->bit_depth > 8) return PROSPECTS_PNG_FAST_UNSUPPORTED;
    if (png_get_interlace_type(reader->png, reader->info) != PNG_INTERLACE_NONE) return PROSPECTS_PNG_FAST_UNSUPPORTED;
    return build_lut(reader);
}

int prospects_png_fast_finish(prospects_png_fast *reader, uint8_t *pixels) {
    if (!reader || !reader->png) return PROSPECTS_PNG_FAST_FAILED;
    png_structp png = reader->png;
    if (setjmp(png_jmpbuf(png))) return PROSPECTS_PNG_FAST_FAILED;

    png_start_read_image(png);
    size_t width = reader->width;
    int depth = reader->bit_depth;
    if (!reader->identity) {
        // Freed by destroy, so a longjmp out of png_read_row cannot leak it.
        reader->row = malloc(png_get_rowbytes(png, reader->info));
        if (!reader->row) png_error(png, "out of memory");
    }
    const uint16_t *lut = reader->lut;
    unsigned invalid = 0;
    for (png_uint_32 y = 0; y < reader->height; y++) {
        uint8_t *target = pixels + (size_t)y * width;
        if (reader->identity) {
            png_read_row(png, target, NULL);
            continue;
        }
        png_bytep row = reader->row;
        png_read_row(png, row, NULL);
        if (depth == 8) {
            for (size_t x = 0; x < width; x++) {
                unsigned v = lut[row[x]];
                invalid |= v;
                target[x] = (uint8_t)v;
            }
        } else if (depth == 1) {
            size_t x = 0;
            for (; x + 8 <= width; x += 8) {
                unsigned byte = row[x >> 3];
                for (int k = 0; k < 8; k++) {
                    unsigned v = lut[(byte >> (7 - k)) & 1];
                    invalid |= v;
                    target[x + k] = (uint8_t)v;
                }
            }
            for (; x < width; x++) {
                unsigned v = lut[(row[x >> 3] >> (7 - (x & 7))) & 1];
                invalid |= v;
                target[x] = (uint8_t)v;
            }
        } else {
            unsigned mask = (1u << depth) - 1;
            unsigned per_byte = 8 / depth;
            for (size_t x = 0; x < width; x++) {
                unsigned shift = 8 - depth * (unsigned)(x % per_byte + 1);
                unsigned v = lut[(row[x / per_byte] >> shift) & mask];
                invalid |= v;
                target[x] = (uint8_t)v;
            }
        }
    }
    // An index past the palette's end: a broken file, whose treatment is the simplified API's to decide.
    if (invalid & INVALID_ENTRY) return PROSPECTS_PNG_FAST_UNSUPPORTED;
    return PROSPECTS_PNG_FAST_OK;
}

const char *prospects_png_fast_message(const prospects_png_fast *reader) {
    return reader ? reader->message : "out of memory";
}

void prospects_png_fast_destroy(prospects_png_fast *reader) {
    if (!reader) return;
    if (reader->png) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    free(reader->row);
    free(reader);
}
