// See include/png_fast.h. Every setjmp of the classic libpng API is here, and no Swift code is ever called from
// here, so libpng's longjmp on error only unwinds C frames.

#include "png_fast.h"

#include <libdeflate.h>
#include <math.h>
#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Marks a palette index that has no palette entry (a broken file: let the simplified API decide).
#define INVALID_ENTRY 0x100

/// How finish turns a decoded row into gray.
enum conversion {
    /// 8-bit gray, no tRNS: rows are read straight into the output.
    COPY,
    /// 8-bit palette or gray: one `lut` lookup per sample.
    LOOKUP,
    /// 1-, 2- or 4-bit palette or gray: one `expand` lookup per input byte.
    EXPAND,
    /// 8-bit RGB: libpng's rgb_to_gray arithmetic, with the weights in `red`, `green`, `blue`.
    RGB,
};

struct prospects_png_fast {
    png_structp png;
    png_infop info;
    /// The whole file's first byte, and how far libpng has read it.
    const png_byte *data;
    const png_byte *next;
    size_t left;
    png_uint_32 width, height;
    int bit_depth;
    enum conversion conversion;
    uint16_t lut[256];
    /// EXPAND: the gray bytes of the 8 / bit_depth pixels packed in each input byte, in order, then zeros.
    uint64_t expand[256];
    /// EXPAND: whether an input byte holds an index past the palette; `has_invalid` when any does.
    uint8_t invalid[256];
    int has_invalid;
    /// RGB: coefficient × linear value of each 8-bit sample (`blue` includes the rounding half).
    uint32_t red[256], green[256], blue[256];
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

/// The gray bytes of the `count` pixels packed in the 4-bit `half` (1 or 2 bits a pixel, or one 4-bit pixel).
static void expand_half(const uint16_t *lut, int depth, unsigned half, int count, uint8_t *out) {
    unsigned mask = (1u << depth) - 1;
    for (int k = 0; k < count; k++) out[k] = (uint8_t)lut[(half >> (4 - depth * (k + 1))) & mask];
}

/// Fills `expand` and `invalid` from `lut` for 1-, 2- and 4-bit samples, packed from the most significant bit.
/// Each byte's entry is its two halves' gray bytes side by side, so building costs a few instructions a byte.
static void build_expand(prospects_png_fast *reader) {
    int depth = reader->bit_depth;
    int per_half = 4 / depth;
    uint8_t halves[16][4] = {{0}};
    for (unsigned half = 0; half < 16; half++) expand_half(reader->lut, depth, half, per_half, halves[half]);
    for (unsigned byte = 0; byte < 256; byte++) {
        uint8_t out[8] = {0};
        switch (depth) {
        case 1:
            memcpy(out, halves[byte >> 4], 4);
            memcpy(out + 4, halves[byte & 15], 4);
            break;
        case 2:
            memcpy(out, halves[byte >> 4], 2);
            memcpy(out + 2, halves[byte & 15], 2);
            break;
        default:
            out[0] = halves[byte >> 4][0];
            out[1] = halves[byte & 15][0];
            break;
        }
        memcpy(&reader->expand[byte], out, sizeof out);
    }
    // Indices past the palette are rare (a broken file): flag bytes only when the palette is short.
    reader->has_invalid = 0;
    for (int i = 0; i < 1 << depth; i++) reader->has_invalid |= (reader->lut[i] & INVALID_ENTRY) != 0;
    if (!reader->has_invalid) return;
    for (unsigned byte = 0; byte < 256; byte++) {
        unsigned bad = 0;
        for (int k = 0; k < 8 / depth; k++) bad |= reader->lut[(byte >> (8 - depth * (k + 1))) & ((1u << depth) - 1)];
        reader->invalid[byte] = (bad & INVALID_ENTRY) != 0;
    }
}

/// libpng's 8-bit gamma tables for the simplified API's RGB → gray with an sRGB (1/2.2) file gamma:
/// `to_linear` is png_build_8bit_table with exponent png_reciprocal(45455) = 219998, `from_linear` with
/// png_reciprocal(220000) = 45455, each entry png_gamma_8bit_correct's floor(255 · pow(i / 255, g) + .5).
static uint8_t to_linear[256], from_linear[256];
static pthread_once_t gamma_once = PTHREAD_ONCE_INIT;

static uint8_t gamma_8bit(unsigned value, png_fixed_point gamma) {
    if (value == 0 || value == 255) return (uint8_t)value;
    return (uint8_t)floor(255 * pow((int)value / 255., gamma * .00001) + .5);
}

static void build_gamma_tables(void) {
    for (unsigned i = 0; i < 256; i++) {
        to_linear[i] = gamma_8bit(i, 219998);
        from_linear[i] = gamma_8bit(i, 45455);
    }
}

/// png_muldiv's floating-point rounding: a × times / divisor to the nearest integer.
static int muldiv(png_fixed_point *result, png_fixed_point a, int32_t times, int32_t divisor) {
    if (divisor == 0) return 0;
    if (a == 0 || times == 0) {
        *result = 0;
        return 1;
    }
    double r = a;
    r *= times;
    r /= divisor;
    r = floor(r + .5);
    if (r > 2147483647. || r < -2147483648.) return 0;
    *result = (png_fixed_point)r;
    return 1;
}

/// The rgb_to_gray coefficients (red, green; blue is the rest of 32768) libpng uses for this file: from the
/// colorants' Y when the file declares them (cHRM, or sRGB), else its defaults. As png_colorspace_set_rgb_coefficients.
static int rgb_coefficients(png_structp png, png_infop info, uint32_t *red, uint32_t *green) {
    png_fixed_point X, Z, r, g, b;
    if (!png_get_cHRM_XYZ_fixed(png, info, &X, &r, &Z, &X, &g, &Z, &X, &b, &Z)) {
        *red = 6968;
        *green = 23434;
        return 1;
    }
    png_fixed_point total = r + g + b;
    if (!(total > 0 && r >= 0 && muldiv(&r, r, 32768, total) && r >= 0 && r <= 32768 && g >= 0 &&
          muldiv(&g, g, 32768, total) && g >= 0 && g <= 32768 && b >= 0 && muldiv(&b, b, 32768, total) && b >= 0 &&
          b <= 32768 && r + g + b <= 32769))
        return 0;  // libpng raises an internal error here
    int add = r + g + b > 32768 ? -1 : r + g + b < 32768 ? 1 : 0;
    if (add != 0) {
        if (g >= r && g >= b) {
            g += add;
        } else if (r >= g && r >= b) {
            r += add;
        } else {
            b += add;
        }
    }
    if (r + g + b != 32768) return 0;
    *red = (uint32_t)r;
    *green = (uint32_t)g;
    return 1;
}

/// Sets up 8-bit RGB (no tRNS) when the simplified API's gray is libpng's sRGB-gamma rgb_to_gray: the file gamma
/// must be 1/2.2 (45455, also what a missing gAMA and an sRGB chunk mean), and no ICC profile may be present.
static int build_rgb(prospects_png_fast *reader) {
    png_structp png = reader->png;
    png_infop info = reader->info;
    if (png_get_valid(png, info, PNG_INFO_iCCP)) return PROSPECTS_PNG_FAST_UNSUPPORTED;
    png_fixed_point gamma = 0;
    if (png_get_gAMA_fixed(png, info, &gamma) && gamma != 45455) return PROSPECTS_PNG_FAST_UNSUPPORTED;
    uint32_t rc, gc;
    if (!rgb_coefficients(png, info, &rc, &gc)) return PROSPECTS_PNG_FAST_UNSUPPORTED;
    uint32_t bc = 32768 - rc - gc;
    pthread_once(&gamma_once, build_gamma_tables);
    for (unsigned i = 0; i < 256; i++) {
        reader->red[i] = rc * to_linear[i];
        reader->green[i] = gc * to_linear[i];
        reader->blue[i] = bc * to_linear[i] + 16384;
    }
    reader->conversion = RGB;
    return PROSPECTS_PNG_FAST_OK;
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
        reader->conversion = depth == 8 && !has_trns ? COPY : LOOKUP;
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
        reader->conversion = LOOKUP;
    } else if (colour == PNG_COLOR_TYPE_RGB) {
        return has_trns || depth != 8 ? PROSPECTS_PNG_FAST_UNSUPPORTED : build_rgb(reader);
    } else {
        return PROSPECTS_PNG_FAST_UNSUPPORTED;
    }

    // Black and white survive any gamma; other levels only an sRGB-like one.
    if (!gamma_is_srgb(png, info)) {
        for (int i = 0; i < entries; i++) {
            uint16_t v = reader->lut[i];
            if (v != 0 && v != 255 && v != INVALID_ENTRY) return PROSPECTS_PNG_FAST_UNSUPPORTED;
        }
        if (reader->conversion == COPY) return PROSPECTS_PNG_FAST_UNSUPPORTED;
    }
    if (depth < 8) {
        build_expand(reader);
        reader->conversion = EXPAND;
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
    reader->data = data;
    reader->next = data;
    reader->left = size;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, on_error, on_warning);
    if (!reader->png) return PROSPECTS_PNG_FAST_FAILED;
    reader->info = png_create_info_struct(reader->png);
    if (!reader->info) return PROSPECTS_PNG_FAST_FAILED;
    if (setjmp(png_jmpbuf(reader->png))) return PROSPECTS_PNG_FAST_FAILED;

    png_set_read_fn(reader->png, reader, read_memory);
#ifdef PNG_IGNORE_ADLER32
    // zlib's Adler-32 of the pixel data is skipped: every chunk's CRC-32 is still checked, and covers the same bytes
    // (compressed). Chromium reads PNGs this way.
    png_set_option(reader->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
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

/// One row of packed 1-, 2- or 4-bit samples to gray, a whole input byte at a time; false on an index past the
/// palette (pad bits after the last pixel are not looked at). `room` is how many bytes from `target` on belong
/// to the image: the last, partial byte is expanded whole when the bytes past the row are the next row's.
static int expand_row(const prospects_png_fast *reader, const png_byte *row, uint8_t *target, size_t room) {
    size_t width = reader->width;
    int depth = reader->bit_depth;
    size_t per_byte = 8 / (size_t)depth;
    size_t whole = width / per_byte;
    const uint64_t *expand = reader->expand;
    unsigned bad = 0;
    switch (depth) {
    case 1:
        for (size_t i = 0; i < whole; i++) memcpy(target + 8 * i, &expand[row[i]], 8);
        break;
    case 2:
        for (size_t i = 0; i < whole; i++) memcpy(target + 4 * i, &expand[row[i]], 4);
        break;
    default:
        for (size_t i = 0; i < whole; i++) memcpy(target + 2 * i, &expand[row[i]], 2);
        break;
    }
    if (reader->has_invalid) {
        for (size_t i = 0; i < whole; i++) bad |= reader->invalid[row[i]];
    }
    size_t rest = width - whole * per_byte;
    if (rest > 0 && !reader->has_invalid && whole * per_byte + 8 <= room) {
        memcpy(target + whole * per_byte, &reader->expand[row[whole]], 8);  // the next row overwrites the rest
    } else if (rest > 0) {
        unsigned byte = row[whole];
        unsigned mask = (1u << depth) - 1;
        for (size_t k = 0; k < rest; k++) {
            unsigned v = reader->lut[(byte >> (8 - depth * (k + 1))) & mask];
            bad |= (v & INVALID_ENTRY) != 0;
            target[whole * per_byte + k] = (uint8_t)v;
        }
    }
    return !bad;
}

/// One row of 8-bit RGB to gray as libpng's png_do_rgb_to_gray does it with gamma tables: gray pixels (R = G = B)
/// are kept (the sRGB-to-sRGB gamma table is the identity), others are weighted in 8-bit linear light.
/// Not inlined: with the reader's fields in registers of its own the loop is a few instructions shorter.
__attribute__((noinline)) static void rgb_row(const uint32_t *red, const uint32_t *green, const uint32_t *blue,
                                              const png_byte *row, uint8_t *target, size_t width) {
    const uint8_t *end = target + width;
    for (; target < end; target++, row += 3) {
        unsigned r = row[0];
        uint8_t colour = from_linear[(red[r] + green[row[1]] + blue[row[2]]) >> 15];
        *target = (row[1] == r && row[2] == r) ? (uint8_t)r : colour;
    }
}

/// Row `y` (`row`: its unfiltered bytes) into gray at `target`; sets INVALID_ENTRY in `*invalid` for an index past
/// the palette.
static void convert_row(const prospects_png_fast *reader, const png_byte *row, uint8_t *target, png_uint_32 y,
                        unsigned *invalid) {
    size_t width = reader->width;
    switch (reader->conversion) {
    case COPY:
        memcpy(target, row, width);
        break;
    case LOOKUP: {
        const uint16_t *lut = reader->lut;
        unsigned seen = 0;
        for (size_t x = 0; x < width; x++) {
            unsigned v = lut[row[x]];
            seen |= v;
            target[x] = (uint8_t)v;
        }
        *invalid |= seen;
        break;
    }
    case EXPAND:
        if (!expand_row(reader, row, target, (reader->height - y) * width)) *invalid |= INVALID_ENTRY;
        break;
    default:
        rgb_row(reader->red, reader->green, reader->blue, row, target, width);
        break;
    }
}

/// The decompressed bytes (rows with their filter bytes, and the joined IDAT data) the whole-file path may hold at
/// once, over every thread: past it a file's rows are streamed by libpng, so memory stays bounded whatever the
/// number of workers.
#define WHOLE_BUDGET ((size_t)8 << 20)
static atomic_size_t whole_in_use;

static uint32_t be32(const png_byte *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/// PNG's Paeth predictor (of the left, upper and upper-left bytes).
static inline unsigned paeth(unsigned a, unsigned b, unsigned c) {
    int pa = abs((int)b - (int)c), pb = abs((int)a - (int)c), pc = abs((int)a + (int)b - 2 * (int)c);
    return (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
}

/// Undoes row filter `filter` on `count` bytes of `row` in place (`prior`: the row above, unfiltered; zeros above
/// the first, as PNG defines it); false for a filter type PNG does not define.
static int unfilter(unsigned filter, png_byte *row, const png_byte *prior, size_t count, size_t bpp) {
    size_t lead = bpp < count ? bpp : count;
    switch (filter) {
    case 0:
        return 1;
    case 1:
        for (size_t i = bpp; i < count; i++) row[i] = (png_byte)(row[i] + row[i - bpp]);
        return 1;
    case 2:
        for (size_t i = 0; i < count; i++) row[i] = (png_byte)(row[i] + prior[i]);
        return 1;
    case 3:
        for (size_t i = 0; i < lead; i++) row[i] = (png_byte)(row[i] + (prior[i] >> 1));
        for (size_t i = bpp; i < count; i++) row[i] = (png_byte)(row[i] + ((row[i - bpp] + prior[i]) >> 1));
        return 1;
    case 4:
        for (size_t i = 0; i < lead; i++) row[i] = (png_byte)(row[i] + prior[i]);
        for (size_t i = bpp; i < count; i++)
            row[i] = (png_byte)(row[i] + paeth(row[i - bpp], prior[i], prior[i - bpp]));
        return 1;
    default:
        return 0;
    }
}

/// Decodes every pixel without libpng's row reader: the IDAT chunks' CRCs checked and their data inflated in one
/// call by libdeflate (about twice as fast as zlib's streaming inflate, and its CRC-32 by carry-less multiply),
/// then unfiltered and converted row by row. Returns finish's result, or -1 when it did not decide: the file is not
/// exactly what it expects (a bad CRC, a stream that is not exactly the rows, an unknown filter, over the memory
/// budget), and libpng reads it from where png_read_info left it, as before, with libpng's own verdict.
static int finish_whole(prospects_png_fast *reader, uint8_t *pixels) {
    size_t rowbytes = png_get_rowbytes(reader->png, reader->info);
    size_t height = reader->height;
    size_t bpp = ((size_t)png_get_channels(reader->png, reader->info) * (size_t)reader->bit_depth + 7) / 8;
    if (rowbytes == 0 || height == 0 || rowbytes + 1 > SIZE_MAX / height) return -1;
    size_t raw_size = (rowbytes + 1) * height;
    // png_read_info stops after the first IDAT's length and type.
    if ((size_t)(reader->next - reader->data) < 16 || memcmp(reader->next - 4, "IDAT", 4) != 0) return -1;
    const png_byte *end = reader->next + reader->left;
    const png_byte *first = reader->next - 8;
    size_t compressed = 0, chunks = 0;
    for (const png_byte *chunk = first; end - chunk >= 12 && memcmp(chunk + 4, "IDAT", 4) == 0;) {
        uint32_t length = be32(chunk);
        if (length > (size_t)(end - chunk) - 12) return -1;
        if ((uint32_t)libdeflate_crc32(0, chunk + 4, (size_t)length + 4) != be32(chunk + 8 + length)) return -1;
        compressed += length;
        chunks++;
        chunk += 12 + (size_t)length;
    }
    if (chunks == 0 || compressed == 0) return -1;
    size_t need = raw_size + (chunks > 1 ? compressed : 0);
    if (need > WHOLE_BUDGET) return -1;
    if (atomic_fetch_add(&whole_in_use, need) + need > WHOLE_BUDGET) {
        atomic_fetch_sub(&whole_in_use, need);
        return -1;
    }
    int result = -1;
    png_byte *raw = malloc(raw_size);
    png_byte *joined = chunks > 1 ? malloc(compressed) : NULL;
    png_byte *zeros = calloc(1, rowbytes);  // the row above the first
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    const png_byte *stream = first + 8;
    if (raw && zeros && inflater && (chunks == 1 || joined)) {
        if (joined) {
            size_t at = 0;
            for (const png_byte *chunk = first; at < compressed;) {
                uint32_t length = be32(chunk);
                memcpy(joined + at, chunk + 8, length);
                at += length;
                chunk += 12 + (size_t)length;
            }
            stream = joined;
        }
        size_t used = 0, made = 0;
        enum libdeflate_result inflated =
            libdeflate_zlib_decompress_ex(inflater, stream, compressed, raw, raw_size, &used, &made);
        free(joined);
        joined = NULL;
        if (inflated == LIBDEFLATE_SUCCESS && used == compressed && made == raw_size) {
            unsigned invalid = 0;
            const png_byte *prior = zeros;
            size_t y = 0;
            for (; y < height; y++) {
                png_byte *row = raw + y * (rowbytes + 1);
                if (!unfilter(row[0], row + 1, prior, rowbytes, bpp)) break;
                convert_row(reader, row + 1, pixels + y * (size_t)reader->width, (png_uint_32)y, &invalid);
                prior = row + 1;
            }
            if (y == height)
                result = (invalid & INVALID_ENTRY) ? PROSPECTS_PNG_FAST_UNSUPPORTED : PROSPECTS_PNG_FAST_OK;
        }
    }
    libdeflate_free_decompressor(inflater);
    free(zeros);
    free(joined);
    free(raw);
    atomic_fetch_sub(&whole_in_use, need);
    return result;
}

int prospects_png_fast_finish(prospects_png_fast *reader, uint8_t *pixels) {
    if (!reader || !reader->png) return PROSPECTS_PNG_FAST_FAILED;
    int whole = finish_whole(reader, pixels);
    if (whole >= 0) return whole;
    png_structp png = reader->png;
    if (setjmp(png_jmpbuf(png))) return PROSPECTS_PNG_FAST_FAILED;

    png_start_read_image(png);
    size_t width = reader->width;
    if (reader->conversion != COPY) {
        // Freed by destroy, so a longjmp out of png_read_row cannot leak it.
        reader->row = malloc(png_get_rowbytes(png, reader->info));
        if (!reader->row) png_error(png, "out of memory");
    }
    unsigned invalid = 0;
    for (png_uint_32 y = 0; y < reader->height; y++) {
        uint8_t *target = pixels + (size_t)y * width;
        if (reader->conversion == COPY) {
            png_read_row(png, target, NULL);
            continue;
        }
        png_read_row(png, reader->row, NULL);
        convert_row(reader, reader->row, target, y, &invalid);
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
