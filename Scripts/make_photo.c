// make_photo.c — one synthetic phone photo of a contact code, for Scripts/bench-photos (built there with cc).
//
// usage: make_photo WIDTH HEIGHT SEED PAYLOAD-FILE OUT.jpg QUALITY OUT.png [MIN% MAX%]   (OUT.png "-": JPEG only)
//        MIN% MAX%: the range of the code's side, in % of the long side (default 4 15; Scripts/bench-wasm-decode's
//        camera frames, a badge held up to the camera, use 15 35)
//
// Everything random comes from SEED, so a photo is the same on every machine. The code (libqrencode, level M) sits
// on a white card turned by up to ±30°, its side 4–15 % of the long side, on a desk lit unevenly (two light
// gradients at random angles, multiplied, and a warm tint); the picture is blurred (three box passes, σ 0.5–1.6)
// and gets Gaussian sensor noise; then it is written as JPEG (TurboJPEG, 4:2:0, QUALITY) and as PNG (libpng,
// stored, uncompressed) for the HEIC and WebP encoders. The parameters it drew are printed on stdout.
#include <math.h>
#include <png.h>
#include <qrencode.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

static uint64_t state;
static uint32_t next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (uint32_t)(state >> 11);
}
static double uniform(void) { return (next() & 0xFFFFFF) / 16777216.0; }

// Near-Gaussian from one 32-bit draw: the sum of four bytes, centred (σ ≈ 0.577 as a sum of four uniforms).
static double gaussian(void) {
    uint32_t v = next();
    return ((int)(v & 255) + (int)(v >> 8 & 255) + (int)(v >> 16 & 255) + (int)(v >> 24) - 510) / 256.0;
}

// One horizontal then one vertical box pass of radius r over the window [x0, x1) × [y0, y1) of a plane `stride`
// floats wide; the vertical pass runs row by row with a running sum per column.
static void box(float *p, float *tmp, int stride, int x0, int y0, int x1, int y1, int r) {
    float norm = 1.0f / (2 * r + 1);
    int w = x1 - x0;
    for (int y = y0; y < y1; y++) {
        float *row = p + (size_t)y * stride, *out = tmp + (size_t)y * stride, acc = 0;
        for (int x = x0 - r; x <= x0 + r; x++) acc += row[x < x0 ? x0 : (x >= x1 ? x1 - 1 : x)];
        for (int x = x0; x < x1; x++) {
            out[x] = acc * norm;
            int add = x + r + 1, sub = x - r;
            acc += row[add >= x1 ? x1 - 1 : add] - row[sub < x0 ? x0 : sub];
        }
    }
    float *acc = calloc((size_t)w, sizeof(float));
    for (int y = y0 - r; y <= y0 + r; y++) {
        const float *row = tmp + (size_t)(y < y0 ? y0 : (y >= y1 ? y1 - 1 : y)) * stride + x0;
        for (int x = 0; x < w; x++) acc[x] += row[x];
    }
    for (int y = y0; y < y1; y++) {
        int add = y + r + 1, sub = y - r;
        const float *in = tmp + (size_t)(add >= y1 ? y1 - 1 : add) * stride + x0;
        const float *out = tmp + (size_t)(sub < y0 ? y0 : sub) * stride + x0;
        float *row = p + (size_t)y * stride + x0;
        for (int x = 0; x < w; x++) {
            row[x] = acc[x] * norm;
            acc[x] += in[x] - out[x];
        }
    }
    free(acc);
}

int main(int argc, char **argv) {
    if (argc != 8 && argc != 10) {
        fprintf(stderr, "usage: make_photo WIDTH HEIGHT SEED PAYLOAD-FILE OUT.jpg QUALITY OUT.png [MIN%% MAX%%]\n");
        return 64;
    }
    int w = atoi(argv[1]), h = atoi(argv[2]), quality = atoi(argv[6]);
    state = 0x9E3779B97F4A7C15ull ^ ((uint64_t)strtoull(argv[3], NULL, 10) * 0xBF58476D1CE4E5B9ull);
    for (int i = 0; i < 8; i++) next();
    FILE *pf = fopen(argv[4], "rb");
    if (!pf) { perror(argv[4]); return 66; }
    unsigned char payload[4096];
    size_t plen = fread(payload, 1, sizeof payload, pf);
    fclose(pf);
    QRcode *qr = QRcode_encodeData((int)plen, payload, 0, QR_ECLEVEL_M);
    if (!qr) { fprintf(stderr, "make_photo: qrencode failed\n"); return 65; }

    int longside = w > h ? w : h;
    int least = argc == 10 ? atoi(argv[8]) : 4, most = argc == 10 ? atoi(argv[9]) : 15;
    if (least < 1 || most < least || most > 60) { fprintf(stderr, "make_photo: MIN%% MAX%% must be 1..60\n"); return 64; }
    double side = longside * (least + next() % (most - least + 1)) / 100.0; // the code with its 4-module quiet zone
    double angle = ((int)(next() % 61) - 30) * M_PI / 180;
    double card = side * 1.3;
    double margin = card * 0.75;
    double cx = margin + uniform() * (w - 2 * margin), cy = margin + uniform() * (h - 2 * margin);
    double sigma = 0.5 + (next() % 111) / 100.0, noise = 2 + (next() % 60) / 10.0;
    double a1 = uniform() * 2 * M_PI, a2 = uniform() * 2 * M_PI, desk = 0.35 + uniform() * 0.3;
    int modules = qr->width + 8;
    double module = side / modules, ca = cos(angle), sa = sin(angle);

    // Reflectance: desk, card, modules (ink 0.08, card 0.96).
    float *r = malloc(sizeof(float) * w * h), *tmp = malloc(sizeof(float) * w * h);
    if (!r || !tmp) return 71;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
            double u = ca * dx + sa * dy, v = -sa * dx + ca * dy; // into the card's frame
            float value = (float)(desk + 0.04 * sin(x * 0.013) * cos(y * 0.011));
            if (fabs(u) < card / 2 && fabs(v) < card / 2) {
                value = 0.96f;
                int mx = (int)floor((u + side / 2) / module) - 4, my = (int)floor((v + side / 2) / module) - 4;
                if (mx >= 0 && my >= 0 && mx < qr->width && my < qr->width && (qr->data[my * qr->width + mx] & 1))
                    value = 0.08f;
            }
            r[(size_t)y * w + x] = value;
        }
    // Three box passes approximate a Gaussian: σ² = 3 · ((2r+1)² − 1) / 12, so r ≈ σ for small σ.
    int radius = (int)lround(sqrt(4 * sigma * sigma / 3.0 + 1) / 2 - 0.5);
    if (radius < 1) radius = 1;
    // Only around the card: the desk is smooth, and blurring it would change nothing visible.
    int reach = (int)(card * 0.75) + 8 * radius;
    int x0 = (int)cx - reach, y0 = (int)cy - reach, x1 = (int)cx + reach, y1 = (int)cy + reach;
    x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0, x1 = x1 > w ? w : x1, y1 = y1 > h ? h : y1;
    for (int pass = 0; pass < 3; pass++) box(r, tmp, w, x0, y0, x1, y1, radius);
    free(tmp);

    unsigned char *rgb = malloc((size_t)w * h * 3);
    if (!rgb) return 71;
    double g1x = cos(a1) / longside, g1y = sin(a1) / longside, g2x = cos(a2) / longside, g2y = sin(a2) / longside;
    const double tint[3] = {1.0, 0.96, 0.88};
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double t1 = 0.5 + (x - w / 2) * g1x + (y - h / 2) * g1y, t2 = 0.5 + (x - w / 2) * g2x + (y - h / 2) * g2y;
            double light = (0.55 + 0.45 * t1) * (0.7 + 0.3 * t2) * 255 * 1.05;
            double base = r[(size_t)y * w + x] * light;
            for (int c = 0; c < 3; c++) {
                double value = base * tint[c] + gaussian() * noise * 1.73;
                rgb[((size_t)y * w + x) * 3 + c] = value < 0 ? 0 : value > 255 ? 255 : (unsigned char)value;
            }
        }
    free(r);

    tjhandle tj = tjInitCompress();
    unsigned char *jpeg = NULL;
    unsigned long jlen = 0;
    if (!tj || tjCompress2(tj, rgb, w, 0, h, TJPF_RGB, &jpeg, &jlen, TJSAMP_420, quality, TJFLAG_FASTDCT) != 0) {
        fprintf(stderr, "make_photo: %s\n", tjGetErrorStr2(tj));
        return 70;
    }
    FILE *jf = fopen(argv[5], "wb");
    if (!jf || fwrite(jpeg, 1, jlen, jf) != jlen || fclose(jf) != 0) { perror(argv[5]); return 73; }
    tjFree(jpeg);
    tjDestroy(tj);

    if (strcmp(argv[7], "-") == 0) goto done; // JPEG only
    FILE *out = fopen(argv[7], "wb");
    if (!out) { perror(argv[7]); return 73; }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) return 70;
    png_init_io(png, out);
    png_set_compression_level(png, 0); // a temporary file: stored, not compressed
    png_set_filter(png, 0, PNG_FILTER_NONE);
    png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < h; y++) png_write_row(png, rgb + (size_t)y * w * 3);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    fclose(out);
done:
    free(rgb);
    printf("side=%.0f version=%d module=%.2f angle=%.0f sigma=%.2f noise=%.1f quality=%d\n", side,
           (qr->width - 17) / 4, module, angle * 180 / M_PI, sigma, noise, quality);
    QRcode_free(qr);
    return 0;
}
