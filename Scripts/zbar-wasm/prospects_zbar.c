/* The few functions zbar.wasm exports for the browser's scan worker (the worker script is StaticFile+ZBarWorker.swift
   in ProspectsWeb). One scanner configured as the server's QRScanner: QR codes only, raw bytes (ZBAR_CFG_BINARY:
   zbar's charset guess turns UTF-8 names into CJK), inverted codes tried. The worker decides the text and strips a
   leading byte order mark, as the server's PayloadText does. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zbar.h>

static zbar_image_scanner_t *scanner;
static unsigned char *results;
static size_t results_capacity;

/* Memory for the worker to copy a frame into; freed with prospects_free. */
void *prospects_alloc(size_t size) { return malloc(size); }

void prospects_free(void *pointer) { free(pointer); }

static int configure(void) {
    if (scanner) return 0;
    scanner = zbar_image_scanner_create();
    if (!scanner) return -1;
    zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0);
    zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1);
    zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1);
    zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_TEST_INVERTED, 1);
    return 0;
}

static int append(const char *data, uint32_t length, size_t *used) {
    size_t needed = *used + 4 + length;
    if (needed > results_capacity) {
        size_t capacity = results_capacity ? results_capacity : 1024;
        while (capacity < needed) capacity *= 2;
        unsigned char *grown = realloc(results, capacity);
        if (!grown) return -1;
        results = grown;
        results_capacity = capacity;
    }
    memcpy(results + *used, &length, 4); /* little-endian, as WebAssembly is */
    memcpy(results + *used + 4, data, length);
    *used = needed;
    return 0;
}

/* Finds the QR codes in a width × height frame at `pixels`: gray (channels 1) or RGBA (channels 4, turned into gray
   in place, in the first width × height bytes). Returns how many bytes prospects_results holds (each code as a
   32-bit length, then its bytes), or -1 when zbar fails or memory runs out. */
int prospects_scan(unsigned char *pixels, int width, int height, int channels) {
    if (width <= 0 || height <= 0 || (channels != 1 && channels != 4) || configure() < 0) return -1;
    size_t count = (size_t)width * (size_t)height;
    if (channels == 4) {
        /* BT.601 luma in fixed point, as libjpeg and zbar's own converters weigh it. */
        for (size_t i = 0; i < count; i++) {
            const unsigned char *p = pixels + 4 * i;
            pixels[i] = (unsigned char)((77 * p[0] + 150 * p[1] + 29 * p[2] + 128) >> 8);
        }
    }
    zbar_image_t *image = zbar_image_create();
    if (!image) return -1;
    zbar_image_set_format(image, zbar_fourcc_parse("Y800"));
    zbar_image_set_size(image, (unsigned)width, (unsigned)height);
    zbar_image_set_data(image, pixels, count, NULL);
    int found = zbar_scan_image(scanner, image);
    size_t used = 0;
    if (found > 0) {
        for (const zbar_symbol_t *symbol = zbar_image_first_symbol(image); symbol;
             symbol = zbar_symbol_next(symbol)) {
            if (zbar_symbol_get_type(symbol) != ZBAR_QRCODE) continue;
            if (append(zbar_symbol_get_data(symbol), zbar_symbol_get_data_length(symbol), &used) < 0) {
                found = -1;
                break;
            }
        }
    }
    zbar_image_destroy(image);
    return found < 0 ? -1 : (int)used;
}

/* The bytes the last prospects_scan wrote. */
const unsigned char *prospects_results(void) { return results; }
