#ifndef PROSPECTS_PNG_FAST_H
#define PROSPECTS_PNG_FAST_H

#include <stddef.h>
#include <stdint.h>

/// A low-level libpng read of the PNG flavours that dominate QR pictures (palette and gray of 8 bits or fewer,
/// 8-bit RGB with an sRGB gamma; not interlaced) straight into 8-bit gray through lookup tables: packed samples a
/// byte at a time, RGB with libpng's own rgb_to_gray arithmetic (1/2.2 gamma tables, colorant weights). libpng reads
/// the header; the IDAT chunks are then checked and inflated in one call by libdeflate and unfiltered here, or, when
/// that does not fit the memory budget or the file is not exactly as expected, read row by row by libpng.
///
/// libpng's classic API reports errors with longjmp. Every setjmp and every libpng call lives in png_fast.c, so a
/// longjmp never crosses a Swift frame: each function below returns a code instead. A file this reader does not
/// handle, or any error at all, is meant to be read again with the simplified API, which gives the canonical
/// result or message; so this reader only has to be right when it says OK. On libpng's row path one check is
/// skipped: zlib's Adler-32 of the uncompressed rows, which every chunk's CRC-32 already covers compressed (as
/// Chromium reads PNGs).

typedef struct prospects_png_fast prospects_png_fast;

enum {
    /// Done: the header was read (begin) or every pixel was written (finish).
    PROSPECTS_PNG_FAST_OK = 0,
    /// A flavour this reader does not convert exactly as the simplified API would (alpha channel, 16-bit,
    /// interlaced, a coloured or partly transparent palette, a non-sRGB gamma, RGB with tRNS or an ICC profile).
    PROSPECTS_PNG_FAST_UNSUPPORTED = 1,
    /// libpng reported an error; `prospects_png_fast_message` says which.
    PROSPECTS_PNG_FAST_FAILED = 2,
};

/// Reads the header of the PNG in `data` (which must stay valid until destroy) and decides whether this reader
/// handles it. On any result `*reader` is set (possibly NULL on out-of-memory) and must be passed to destroy.
/// No pixel memory is allocated, so the caller can check width × height against its limit first.
int prospects_png_fast_begin(prospects_png_fast **reader, const void *data, size_t size, uint32_t *width,
                             uint32_t *height);

/// Decodes every pixel into `pixels`, which holds width × height bytes, row-major, stride == width.
/// 0 is black, 255 white; transparent palette entries and tRNS gray keys become white (the paper).
int prospects_png_fast_finish(prospects_png_fast *reader, uint8_t *pixels);

/// libpng's message for the last FAILED result, or "".
const char *prospects_png_fast_message(const prospects_png_fast *reader);

/// Frees libpng's state. NULL is fine.
void prospects_png_fast_destroy(prospects_png_fast *reader);

#endif
